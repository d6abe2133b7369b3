"""User text on screen: strangers' strings (link values, file names, typed names) made inert.

Streamlit renders notices, captions and markdown as markdown with its own extensions
(colour `:red[x]`, LaTeX `$x$`, icons `:material/x:`), so a shared link could otherwise
carry a working link, an image the visitor's browser fetches, colour or maths. Pure Python:
no Streamlit here.
"""
from __future__ import annotations

import unicodedata

# Characters that start or close inline markup wherever they stand (links, images, emphasis,
# code, HTML, LaTeX, strikethrough, tables, entities). An escaped character is literal text in
# CommonMark. Commas, quotes, hyphens inside words and a sentence's full stop stay as they are,
# so sentences read (and are searched) normally.
_ALWAYS = frozenset("\\`*_{}[]()#!|<>$~&")
# A colon or dot that runs into the next character can open a Streamlit directive (`:red[x]`),
# an icon or emoji shortcode (`:material/x:`), or a bare web address (`https://h`, `www.h.org`).
_JOINING = frozenset(":.@")
# At the very start a character can open a block: list, heading, quote, setext line.
_LEADING = frozenset("-+=>#")
# After an escaped colon: a word joiner, so shortcodes (matched on the text after unescaping)
# no longer match. It is invisible on screen.
_WORD_JOINER = "\u2060"


def escape_markdown(text: str) -> str:
    """`text` as markdown that renders as exactly these characters: no link, image, emphasis,
    colour, LaTeX, icon, heading, list or HTML survives. Line breaks and other control or
    format characters (bidirectional overrides included) become spaces; leading spaces go.

    >>> print(escape_markdown("![x](y.png) **b** $x$, :red[z]."))
    \\!\\[x\\]\\(y\\.png\\) \\*\\*b\\*\\* \\$x\\$, \\:\u2060red\\[z\\].
    """
    chars = ["" if unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") and c != " " else c for c in str(text)]
    plain = "".join(c if c else " " for c in chars).lstrip()
    out: list[str] = []
    for k, char in enumerate(plain):
        following = plain[k + 1:k + 2]
        if char in _ALWAYS or (k == 0 and char in _LEADING):
            out.append("\\" + char)
        elif char in _JOINING and following and not following.isspace():
            out.append("\\" + char + (_WORD_JOINER if char == ":" else ""))
        elif char in ".)" and plain[:k].isdigit():  # "1." or "1)" opening an ordered list
            out.append("\\" + char)
        else:
            out.append(char)
    return "".join(out)


def quoted(value: object, limit: int = 40) -> str:
    """A stranger's value for a plain-text sentence: its first `limit` characters, quoted the
    way Python's repr does (control characters shown as escapes), with … when cut.

    Sentences stay plain text; `escape_markdown` makes the whole sentence inert where it is shown.

    >>> quoted("kuhn" + "9" * 100, limit=8)
    "'kuhn9999…'"
    """
    text = str(value)
    shown = repr(text[:limit])
    return shown[:-1] + "…" + shown[-1] if len(text) > limit else shown


#: Exploitability is never negative; a value this close below zero is floating-point rounding
#: (Compare's table showed -6.94e-18), shown as 0 with `ROUNDING_NOTE`.
ROUNDING_NOISE = 1e-9
ROUNDING_NOTE = ("Exploitability is never negative: a value within 1e-9 below zero is floating-point "
                 "rounding and is shown as 0.")


def clamped_exploitability(value: float) -> float:
    """`value` with rounding noise below zero clamped to 0 (a real negative value is kept, to be seen).

    >>> clamped_exploitability(-6.94e-18), clamped_exploitability(0.25), clamped_exploitability(-0.1)
    (0.0, 0.25, -0.1)
    """
    return 0.0 if -ROUNDING_NOISE < value < 0 else float(value)


def number(value: float, *, signed: bool = False, missing: str = "n/a") -> str:
    """The app's one way of writing a number: three significant digits, plain decimals from 0.001 to
    1,000, powers of ten below, thousands separated above; 0 is "0" and minus is the minus sign. A
    missing value (NaN) reads `missing` (a table's empty cell passes "").

    >>> number(0.0072663), number(7.2663e-05), number(-0.5, signed=True), number(0.25, signed=True)
    ('0.00727', '7.27e-05', '−0.5', '+0.25')
    >>> number(0.0), number(12345.6), number(float("nan")), number(float("nan"), missing="")
    ('0', '12,346', 'n/a', '')
    """
    value = float(value)
    if value != value:   # NaN
        return missing
    size = abs(value)
    if size == 0:
        text = "0"
    elif size < 1e-3:
        text = f"{size:.2e}"
    elif size < 1e3:
        text = f"{size:.3g}"
    else:
        text = f"{size:,.0f}"
    if value < 0:
        return "−" + text
    return ("+" + text) if signed and size else text
