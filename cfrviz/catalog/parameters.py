"""A catalog game's settings: `Parameter` (one setting with its range, checked and parsed from a
link) and `Params` (sorted name-value pairs, defaults left out, hashable).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from cfrviz.util.text import quoted


#: Settings parameters of a game: sorted (name, value) pairs, defaults left out.
Params = tuple[tuple[str, Any], ...]


@dataclass(frozen=True)
class Parameter:
    """One setting of a game: a whole number in [low, high], a yes/no, or a text value."""

    name: str
    label: str
    kind: Literal["int", "bool", "text", "value"]
    default: Any = None
    low: int | None = None
    high: int | None = None
    help: str = ""

    def check(self, value: Any, title: str) -> Any:
        """The value, checked; ValueError says what the game accepts."""
        if self.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"{title} needs a whole number for {self.name}, not {quoted(value)}.")
            if (self.low is not None and value < self.low) or (self.high is not None and value > self.high):
                raise ValueError(f"{title} takes {self.low} to {self.high} {self.name}; {value} was asked for.")
            return int(value)
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise ValueError(f"{title} needs true or false for {self.name}, not {quoted(value)}.")
            return value
        if self.kind == "text" and not isinstance(value, str):
            raise ValueError(f"{title} needs text for {self.name}, not a {type(value).__name__}.")
        return frozen_parameter(value)

    def parse(self, text: str) -> Any:
        """The value of this parameter written in a link (ASCII digits for numbers); ValueError if malformed."""
        if self.kind == "int":
            if not text or len(text) > 6 or not (text.isascii() and text.isdigit()):
                raise ValueError
            return int(text)
        if self.kind == "text":
            return text
        raise ValueError


def frozen_parameter(value: Any) -> Any:
    """Lists to (nested) tuples, so parameters stay hashable."""
    if isinstance(value, (list, tuple)):
        return tuple(frozen_parameter(v) for v in value)
    return value
