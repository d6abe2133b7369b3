"""Line charts on log-log axes written as SVG text, from the plotly figures the app draws.

plotly writes static images only through kaleido and a headless Chrome, which a plain install does
not have. The Compare figures are simple (lines, a filled band between two lines, log axes, a
legend), so this draws them itself from the figure's own traces: the same data, colours, dashes,
bands, titles and legend names as the app's chart, laid out by this module rather than plotly.js
(fonts and spacing differ). Only what those figures use is read: scatter traces in "lines" mode,
`fill="tonexty"` bands, log axes with one tick per power of ten.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any
from xml.sax.saxutils import escape, quoteattr

import numpy as np

#: One panel's size in SVG pixels, and the plot area's margins inside it.
WIDTH, PLOT_HEIGHT = 760, 360
LEFT, RIGHT, TOP, BOTTOM = 78, 20, 56, 58
#: A legend row's height; the legend sits under the plot, one entry a row (as in the app).
LEGEND_ROW = 20
_DASH = {"solid": "", "dash": "8,5", "dot": "2,4", "dashdot": "8,4,2,4"}
_FONT = "Helvetica, Arial, sans-serif"


def _color(text: str | None) -> tuple[str, float]:
    """An SVG colour and opacity for a plotly colour ("#rrggbb" or "rgba(r,g,b,a)")."""
    if not text:
        return "#444444", 1.0
    if text.startswith("rgba("):
        r, g, b, a = (part.strip() for part in text[5:-1].split(","))
        return f"rgb({r},{g},{b})", float(a)
    return text, 1.0


def _title(title: Any) -> str:
    text = getattr(title, "text", None) if not isinstance(title, (str, type(None))) else title
    return str(text or "").replace("<br>", " ")


def _decades(low: float, high: float) -> tuple[float, float]:
    """The log10 range shown: the data's, widened to whole powers of ten (at least one decade)."""
    bottom, top = math.floor(low), math.ceil(high)
    return float(bottom), float(top if top > bottom else bottom + 1)


def _points(trace: Any) -> tuple[np.ndarray, np.ndarray]:
    xs = np.asarray(trace.x if trace.x is not None else [], dtype=float)
    ys = np.asarray(trace.y if trace.y is not None else [], dtype=float)
    ok = np.isfinite(xs) & np.isfinite(ys) & (xs > 0) & (ys > 0)
    return np.log10(xs[ok]), np.log10(ys[ok])


def _power(k: int) -> str:
    return f'10<tspan dy="-6" font-size="9">{k}</tspan>'


def _panel(figure: Any, top: float) -> tuple[list[str], float]:
    """SVG elements of one figure placed at `top`, and the panel's height."""
    traces = [t for t in figure.data if getattr(t, "type", "scatter") == "scatter"]
    named = [t for t in traces if t.showlegend is not False and t.name]
    height = PLOT_HEIGHT + LEGEND_ROW * len(named) + 10
    points = [_points(t) for t in traces]
    xs = np.concatenate([p[0] for p in points] or [np.zeros(0)])
    ys = np.concatenate([p[1] for p in points] or [np.zeros(0)])
    x0, x1 = _decades(float(xs.min()), float(xs.max())) if xs.size else (0.0, 1.0)
    y0, y1 = _decades(float(ys.min()), float(ys.max())) if ys.size else (0.0, 1.0)
    width, plot = WIDTH - LEFT - RIGHT, PLOT_HEIGHT - TOP - BOTTOM

    def sx(v: np.ndarray | float) -> Any:
        return LEFT + (np.asarray(v) - x0) / (x1 - x0) * width

    def sy(v: np.ndarray | float) -> Any:
        return top + TOP + plot - (np.asarray(v) - y0) / (y1 - y0) * plot

    out = [f'<text x="{WIDTH / 2}" y="{top + 24}" text-anchor="middle" font-size="15">'
           f'{escape(_title(figure.layout.title))}</text>',
           f'<rect x="{LEFT}" y="{top + TOP}" width="{width}" height="{plot}" fill="none" stroke="#bbbbbb"/>']
    for k in range(int(x0), int(x1) + 1):
        x = sx(float(k))
        out.append(f'<line x1="{x:.1f}" y1="{top + TOP}" x2="{x:.1f}" y2="{top + TOP + plot}" stroke="#eeeeee"/>')
        # 20 px under the axis: the exponent's raised box then stays clear of the lowest y tick's label.
        out.append(f'<text x="{x:.1f}" y="{top + TOP + plot + 20}" text-anchor="middle" font-size="12">{_power(k)}</text>')
    for k in range(int(y0), int(y1) + 1):
        y = sy(float(k))
        out.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{LEFT + width}" y2="{y:.1f}" stroke="#eeeeee"/>')
        out.append(f'<text x="{LEFT - 12}" y="{y + 4:.1f}" text-anchor="end" font-size="12">{_power(k)}</text>')
    out.append(f'<text x="{LEFT + width / 2}" y="{top + TOP + plot + 40}" text-anchor="middle" font-size="12">'
               f'{escape(_title(figure.layout.xaxis.title))}</text>')
    middle = top + TOP + plot / 2
    out.append(f'<text x="18" y="{middle}" text-anchor="middle" font-size="12" transform="rotate(-90 18 {middle})">'
               f'{escape(_title(figure.layout.yaxis.title))}</text>')
    previous: tuple[np.ndarray, np.ndarray] | None = None
    for trace, (lx, ly) in zip(traces, points):
        if trace.fill == "tonexty" and previous is not None and lx.size and previous[0].size:
            # The band: the previous trace (its upper edge) forward, this one (the lower edge) back.
            edge = np.concatenate([sx(previous[0]), sx(lx[::-1])]), np.concatenate([sy(previous[1]), sy(ly[::-1])])
            color, alpha = _color(trace.fillcolor)
            path = " ".join(f"{x:.1f},{y:.1f}" for x, y in zip(*edge))
            out.append(f'<polygon points="{path}" fill="{color}" fill-opacity="{alpha:g}" stroke="none"/>')
        line = trace.line
        if (line.width is None or line.width > 0) and lx.size:
            color, alpha = _color(line.color)
            opacity = alpha * (1.0 if trace.opacity is None else float(trace.opacity))
            dash = _DASH.get(line.dash or "solid", "")
            path = " ".join(f"{x:.1f},{y:.1f}" for x, y in zip(sx(lx), sy(ly)))
            out.append(f'<polyline points="{path}" fill="none" stroke="{color}" stroke-opacity="{opacity:g}" '
                       f'stroke-width="{line.width or 2:g}"' + (f' stroke-dasharray="{dash}"' if dash else "")
                       + f'><title>{escape(str(trace.name or ""))}</title></polyline>')
        previous = (lx, ly)
    legend_title = _title(figure.layout.legend.title) if named else ""
    if legend_title:
        out.append(f'<text x="{LEFT}" y="{top + PLOT_HEIGHT}" font-size="12" fill="#333333">'
                   f'{escape(legend_title)}</text>')
        height += LEGEND_ROW
    first = top + PLOT_HEIGHT + (LEGEND_ROW if legend_title else 0)
    for row, trace in enumerate(named):
        y = first + LEGEND_ROW * row
        color, _ = _color(trace.line.color)
        dash = _DASH.get(trace.line.dash or "solid", "")
        out.append(f'<line x1="{LEFT}" y1="{y - 4}" x2="{LEFT + 30}" y2="{y - 4}" stroke="{color}" stroke-width="2.5"'
                   + (f' stroke-dasharray="{dash}"' if dash else "") + "/>")
        out.append(f'<text x="{LEFT + 38}" y="{y}" font-size="12">{escape(str(trace.name))}</text>')
    return out, height


def figures_svg(figures: Sequence[Any], notes: Sequence[str] = ()) -> str:
    """One SVG document holding `figures` (plotly figures of log-log line charts) one under another,
    with `notes` as last lines of small text."""
    body: list[str] = []
    top = 0.0
    for figure in figures:
        elements, height = _panel(figure, top)
        body.extend(elements)
        top += height
    for note in notes:
        top += 16
        body.append(f'<text x="{LEFT}" y="{top}" font-size="11" fill="#555555">{escape(note)}</text>')
    top += 12 if notes else 0
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{top:.0f}" '
            f'viewBox="0 0 {WIDTH} {top:.0f}" font-family={quoteattr(_FONT)}>\n'
            f'<rect width="100%" height="100%" fill="white"/>\n' + "\n".join(body) + "\n</svg>\n")


__all__ = ["figures_svg"]
