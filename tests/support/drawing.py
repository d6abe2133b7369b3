"""What browser tests measure on a drawing: text boxes that overlap, and colours with their contrast.

References: WCAG 2's relative luminance and contrast ratio ((L1 + 0.05) / (L2 + 0.05)); "over" is
the usual alpha compositing of one colour on another (Porter and Duff's source-over).
"""
from __future__ import annotations

import itertools
from typing import Any

# Every drawn text of the timeline's tree (pills, edge labels, payoffs) with its box in page pixels and
# its font size, found through the component's shadow roots: `page.evaluate(LABEL_BOXES)`.
LABEL_BOXES = """() => {
  const root = document.querySelector('.stBidiComponent [data-testid="stBidiComponentIsolated"]') ||
               document.querySelector('.stBidiComponent');
  const find = (node) => node.querySelector ? (node.querySelector('.tl-tree svg') ||
      [...node.querySelectorAll('*')].map(e => e.shadowRoot && find(e.shadowRoot)).find(Boolean)) : null;
  const svg = find(document);
  return [...svg.querySelectorAll('text')].filter(t => t.textContent.trim() && t.getBBox().width > 0)
    .map(t => { const r = t.getBoundingClientRect();
                return {text: t.textContent, x: r.x, y: r.y, w: r.width, h: r.height,
                        size: parseFloat(getComputedStyle(t).fontSize)}; });
}"""


def overlaps(boxes: list[dict[str, Any]], others: list[dict[str, Any]] | None = None) -> list[tuple[str, str]]:
    """The (text, text) pairs of boxes that share more than half a pixel each way: pairs within `boxes`,
    or, given `others`, pairs of one box from each. A box is a dict of text, x, y, w, h in page pixels,
    and may name its drawing in "where": boxes of two drawings never overlap."""
    def meet(a: dict[str, Any], b: dict[str, Any]) -> bool:
        slack = 0.5
        return (a.get("where") == b.get("where")
                and a["x"] + slack < b["x"] + b["w"] and b["x"] + slack < a["x"] + a["w"]
                and a["y"] + slack < b["y"] + b["h"] and b["y"] + slack < a["y"] + a["h"])
    pairs = itertools.combinations(boxes, 2) if others is None else itertools.product(boxes, others)
    return [(a["text"], b["text"]) for a, b in pairs if meet(a, b)]


def rgb(css: str) -> tuple[float, float, float, float]:
    """(r, g, b, alpha) of a computed CSS colour: "rgb(r, g, b)", "rgba(r, g, b, a)" or "rgb(r g b / a)"."""
    inside = css[css.index("(") + 1:css.index(")")].replace("/", ",").replace(" ", ",")
    parts = [float(x) for x in inside.split(",") if x]
    return (parts[0], parts[1], parts[2], parts[3] if len(parts) > 3 else 1.0)


def over(top: tuple[float, ...], alpha: float, under: tuple[float, ...]) -> tuple[float, float, float, float]:
    """The opaque colour of `top` (r, g, b, a) painted with opacity `alpha` over `under`."""
    a = alpha * top[3]
    return (a * top[0] + (1 - a) * under[0], a * top[1] + (1 - a) * under[1], a * top[2] + (1 - a) * under[2], 1.0)


def luminance(c: tuple[float, ...]) -> float:
    """WCAG 2's relative luminance of (r, g, b, ...) in 0-255."""
    def channel(v: float) -> float:
        v /= 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
    return 0.2126 * channel(c[0]) + 0.7152 * channel(c[1]) + 0.0722 * channel(c[2])


def contrast(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    """WCAG 2's contrast ratio of two colours, from 1 to 21."""
    x, y = luminance(a), luminance(b)
    return (max(x, y) + 0.05) / (min(x, y) + 0.05)
