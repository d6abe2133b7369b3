"""JSON from strangers, read with bounds: size, nesting, number of values and digits per number.

`json.loads` builds the whole structure before anyone can look at it: 45 MB of `[],` becomes
about a gigabyte of Python lists. Here the text is measured first, with C-speed counts over
the raw characters (brackets inside strings are counted too, which can only make a hostile
file be refused earlier), and only then parsed. Pure Python and numpy: no Streamlit here.
"""
from __future__ import annotations

import json
from typing import Any

import numpy as np

#: Most digits of a whole number in a document (int64 has 19); Python's own 4,300-digit limit
#: would otherwise answer with its own message.
MAX_INT_DIGITS = 19
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")


def loads_bounded(source: str | bytes | bytearray, *, what: str, max_bytes: int, max_depth: int = 16,
                  max_containers: int = 100_000, max_values: int = 1_000_000) -> Any:
    """Parse JSON text (or UTF-8 bytes) after checking its size and shape; ValueError otherwise.

    `what` names the document in sentences ("The strategy file"). Limits: `max_bytes` of text,
    nesting `max_depth` deep, at most `max_containers` objects and lists, at most `max_values`
    separators (commas and colons, so roughly values), whole numbers of at most
    `MAX_INT_DIGITS` digits. NaN and Infinity literals are refused.

    >>> loads_bounded('{"a": [1, 2]}', what="The file", max_bytes=100)
    {'a': [1, 2]}
    >>> loads_bounded('[[[1]]]', what="The file", max_bytes=100, max_depth=2)
    Traceback (most recent call last):
    ValueError: The file nests lists and objects more than 2 deep.
    """
    if isinstance(source, (bytes, bytearray)):
        raw = bytes(source)
    elif isinstance(source, str):
        if len(source) > max_bytes:  # checked before encoding a huge text
            raise ValueError(f"{what} is {len(source) / 1e6:.1f} MB of text; the limit is {max_bytes / 1e6:g} MB.")
        try:
            raw = source.encode("utf-8")
        except UnicodeEncodeError:
            raise ValueError(f"{what} is not valid text.") from None
    else:
        raise ValueError(f"{what} must be JSON text.")
    if len(raw) > max_bytes:
        raise ValueError(f"{what} is {len(raw) / 1e6:.1f} MB; the limit is {max_bytes / 1e6:g} MB.")
    containers = raw.count(b"[") + raw.count(b"{")
    if containers > max_containers:
        raise ValueError(f"{what} holds more than {max_containers:,} lists and objects.")
    if raw.count(b",") + raw.count(b":") > max_values:
        raise ValueError(f"{what} holds more than {max_values:,} values.")
    if containers:
        # Keep only the brackets (a C-speed translate; at most 2 * max_containers bytes), then
        # the running depth is a cumulative sum over them.
        brackets = np.frombuffer(raw.translate(None, _NOT_BRACKETS), dtype=np.uint8)
        step = np.where((brackets == 0x5B) | (brackets == 0x7B), 1, -1)
        if int(np.max(np.cumsum(step))) > max_depth:
            raise ValueError(f"{what} nests lists and objects more than {max_depth} deep.")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"{what} is not UTF-8 text.") from None

    def whole_number(digits: str) -> int:
        if len(digits.lstrip("-")) > MAX_INT_DIGITS:
            raise ValueError(f"{what} holds a whole number with more than {MAX_INT_DIGITS} digits.")
        return int(digits)

    def constant(name: str) -> float:
        raise ValueError(f"{what} holds {name}, which is not a number JSON allows.")

    try:
        return json.loads(text, parse_int=whole_number, parse_constant=constant)
    except RecursionError:
        raise ValueError(f"{what} nests lists and objects too deeply.") from None
    except ValueError as error:  # JSONDecodeError is a ValueError; ours pass through unchanged
        if error.__class__ is ValueError and str(error).startswith(what):
            raise
        raise ValueError(f"{what} is not valid JSON.") from None


# Inside a JSON string these characters can be written as \u escapes; the text then decodes to the same
# value, and `loads_bounded`'s character counts see only the document's own structure.
_COUNTED = {ord(c): f"\\u{ord(c):04x}" for c in "[]{},:"}


def dumps_counted(value: Any, *, indent: int | None = None) -> str:
    """JSON text of `value` whose strings carry no raw brackets, commas or colons (they are \\u escapes),
    so a long text value (an .efg file inside a run's settings) does not count against `loads_bounded`'s
    limits on lists, objects and values.

    >>> dumps_counted({"text": "{ [1, 2]: 3 }"})
    '{"text": "\\\\u007b \\\\u005b1\\\\u002c 2\\\\u005d\\\\u003a 3 \\\\u007d"}'
    >>> loads_bounded(dumps_counted({"text": "{ [1, 2]: 3 }"}), what="x", max_bytes=100, max_containers=1)
    {'text': '{ [1, 2]: 3 }'}
    """
    pad = indent is not None

    def dump(item: Any, depth: int) -> str:
        step = indent or 0
        inner, outer = ("\n" + " " * step * depth, "\n" + " " * step * (depth - 1)) if pad else ("", "")
        if isinstance(item, str):
            return json.dumps(item, ensure_ascii=False).translate(_COUNTED)
        if isinstance(item, dict):
            if not item:
                return "{}"
            parts = [f"{dump(str(k), depth + 1)}: {dump(v, depth + 1)}" for k, v in item.items()]
            return "{" + inner + ("," + inner if pad else ", ").join(parts) + outer + "}"
        if isinstance(item, (list, tuple)):
            if not item:
                return "[]"
            parts = [dump(v, depth + 1) for v in item]
            return "[" + inner + ("," + inner if pad else ", ").join(parts) + outer + "]"
        return json.dumps(item)

    return dump(value, 1)
