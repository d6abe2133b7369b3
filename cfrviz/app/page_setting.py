"""A page's own setting as a link carries it: parsed with one sentence for a bad value, written back."""
from __future__ import annotations

from dataclasses import dataclass

from cfrviz.util.text import quoted
from cfrviz.util.whole_numbers import parse_whole_number

__all__ = ["MAX_TOKEN_CHARS", "PageSetting"]

#: Longest free-text token a page setting takes (a game link value, a deal such as "QK").
MAX_TOKEN_CHARS = 60
_TOKEN_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789:_.()=,+-")


@dataclass(frozen=True)
class PageSetting:
    """One setting a page owns (declared in its `cfrviz.app.registry` entry), carried in the link as `name`.

    A choice among `options`, several of them (`many`, comma-separated in the link, kept in the
    options' order), a whole number from `low` to `high` (no options), or with `token` a short
    plain text the page checks itself (a game link value, a deal).
    """

    name: str
    what: str
    default: str | int | tuple[str, ...]
    options: tuple[str, ...] = ()
    many: bool = False
    low: int = 0
    high: int = 0
    token: bool = False

    def parse(self, text: str) -> str | int | tuple[str, ...]:
        """The value a link's `text` stands for; ValueError with one plain sentence otherwise."""
        text = text.strip()
        if self.token:
            if not text or len(text) > MAX_TOKEN_CHARS or not set(text) <= _TOKEN_CHARS:
                raise ValueError(f"The {self.what} {quoted(text)} is not one this page knows")
            return text
        if self.many:
            wanted = {part.strip().lower() for part in text.split(",") if part.strip()}
            chosen = tuple(o for o in self.options if o in wanted)
            if not chosen or len(chosen) != len(wanted):
                raise ValueError(f"The {self.what} must be some of {', '.join(self.options)}, not {quoted(text)}")
            return chosen
        if self.options:
            value = text.lower()
            if value not in self.options:
                raise ValueError(f"The {self.what} must be one of {', '.join(self.options)}, not {quoted(text)}")
            return value
        try:
            number = parse_whole_number(text)
        except ValueError:
            number = self.low - 1
        if not self.low <= number <= self.high:
            raise ValueError(f"The {self.what} must be a whole number from {self.low:,} to {self.high:,}, "
                             f"not {quoted(text)}")
        return number

    def encode(self, value: str | int | tuple[str, ...]) -> str:
        """The link text of `value` (the inverse of `parse`)."""
        if self.many:
            return ",".join(value)  # type: ignore[arg-type]  # a many-valued setting holds a tuple of strings
        return str(value)

    def accepts(self, value: object) -> bool:
        """Whether `value` (from a widget) is a value of this setting."""
        try:
            return self.parse(self.encode(value)) == value  # type: ignore[arg-type]  # any widget value; a wrong type fails the round trip
        except (ValueError, TypeError):
            return False
