"""Whole numbers typed by people (command-line arguments, link values), read one way everywhere.

Python's `int` also takes Unicode digits ("٣" is 3), underscores ("1_000") and any length, so a
link and the CLI would disagree about what a number is. Both read numbers here instead.
"""
from __future__ import annotations

from cfrviz.util.text import quoted

__all__ = ["MAX_DIGITS", "MAX_SEED", "parse_whole_number"]

#: Largest seed a link or the command line may give (a signed 32-bit number, as the app's widgets hold).
MAX_SEED = 2**31 - 1
#: Most digits a typed whole number may have (every cap and bound in cfrviz fits in 12).
MAX_DIGITS = 12
_ASCII_DIGITS = frozenset("0123456789")


def parse_whole_number(text: str) -> int:
    """A whole number written with the ASCII digits 0 to 9 only (an optional sign, surrounding spaces),
    at most `MAX_DIGITS` digits. ValueError with one sentence otherwise.

    `str.isdigit` also accepts "³" and "①", which `int` then refuses or misreads, so digits are
    checked one by one.

    >>> parse_whole_number(" 42 "), parse_whole_number("-3")
    (42, -3)
    >>> parse_whole_number("1_000")
    Traceback (most recent call last):
    ...
    ValueError: '1_000' is not a whole number written with the digits 0 to 9.
    """
    text = str(text).strip()
    digits = text[1:] if text[:1] in ("+", "-") else text
    if not digits or not set(digits) <= _ASCII_DIGITS:
        raise ValueError(f"{quoted(text)} is not a whole number written with the digits 0 to 9.")
    if len(digits) > MAX_DIGITS:
        raise ValueError(f"{quoted(text)} has more than {MAX_DIGITS} digits.")
    return int(text)
