"""The text layer of Gambit `.efg` files: tokens (strings, numbers, words, brackets) with their line
numbers, names cleaned to plain one-line text, exact fractions written back as text, and `EfgError`,
the one-sentence error every reader step raises. The parser and the game are `cfrviz.games.efg`.
"""
from __future__ import annotations

import bisect
import re
from fractions import Fraction
from typing import NamedTuple

__all__ = ["EfgError"]


#: Longest number token; longer ones are refused before any arithmetic on them.
MAX_NUMBER_CHARS = 40


class EfgError(ValueError):
    """A file cfrviz cannot read or solve; the message is one sentence naming the line."""


# --- tokens -------------------------------------------------------------------------------

class Token(NamedTuple):
    kind: str        # "word", "string", "number", "{", "}", ","
    text: str        # the unescaped string, or the token as written
    line: int


_NUMBER = r"[+-]?(?:\d+/\d+|\d+\.\d*(?:[eE][+-]?\d{1,3})?|\.\d+(?:[eE][+-]?\d{1,3})?|\d+(?:[eE][+-]?\d{1,3})?)"
_TOKEN = re.compile(
    r'\s+|"(?P<string>[^"\\]*(?:\\.[^"\\]*)*)"'
    rf"|(?P<number>{_NUMBER})(?![\w.])|(?P<word>[A-Za-z]\w*)|(?P<punct>[{{}},])",
    re.DOTALL)


def _unescape(body: str) -> str:
    # Gambit escapes a quote inside a label as \" ; a doubled backslash stands for one.
    return re.sub(r'\\(["\\])', r"\1", body) if "\\" in body else body


def tokenize(text: str, source: str) -> list[Token]:
    newlines = [m.start() for m in re.finditer("\n", text)]
    out: list[Token] = []
    pos, end = 0, len(text)
    while pos < end:
        match = _TOKEN.match(text, pos)
        if match is None:
            line = bisect.bisect_left(newlines, pos) + 1
            char = text[pos]
            if char == '"':
                raise EfgError(f"Line {line} of {source}: a quoted text starts here and never ends.")
            raise EfgError(f"Line {line} of {source}: unexpected character {char!r}.")
        kind = match.lastgroup
        if kind is not None:
            value = match.group(kind)
            line = bisect.bisect_left(newlines, pos) + 1
            if kind == "string":
                out.append(Token("string", _unescape(value), line))
            elif kind == "number":
                if len(value) > MAX_NUMBER_CHARS:
                    raise EfgError(f"Line {line} of {source}: the number {value[:20]}... is longer than "
                                   f"{MAX_NUMBER_CHARS} characters.")
                out.append(Token("number", value, line))
            elif kind == "word":
                out.append(Token("word", value, line))
            else:
                out.append(Token(value, value, line))
        pos = match.end()
    return out


def sentence_text(text: str, most: int = 40) -> str:
    """A name from the file as it may appear inside a one-line sentence: printable, one line, short."""
    flat = " ".join("".join(ch if ch.isprintable() else " " for ch in text).split())
    return flat if len(flat) <= most else flat[:most - 1] + "…"


# Characters that make links, HTML, LaTeX or code where labels are shown; a stranger's file keeps
# its names as plain text without them. (Underscores stay: inside words they are no emphasis.)
_MARKUP = str.maketrans("", "", "`*[]<>$~\\{}")


def plain_label(text: str, most: int) -> str:
    """A name from the file as cfrviz keeps it: plain one-line text, at most `most` characters."""
    flat = " ".join("".join(ch if ch.isprintable() else " " for ch in text.translate(_MARKUP)).split())
    return flat if len(flat) <= most else flat[:most - 1] + "…"


def plain_comment(text: str) -> str:
    """The file's comment as plain text: lines kept, markup and line-leading list or heading marks dropped."""
    lines = [plain_label(line, 2_000).lstrip("#>-+= ") for line in text.splitlines()]
    kept = "\n".join(lines).strip()
    return kept if len(kept) <= 2_000 else kept[:1_999] + "…"


def fraction_text(fraction: Fraction) -> str:
    return str(fraction.numerator) if fraction.denominator == 1 else f"{fraction.numerator}/{fraction.denominator}"
