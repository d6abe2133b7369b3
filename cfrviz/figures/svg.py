"""Line charts on log-log axes written as SVG text, from the plotly figures the app draws.

plotly writes static images only through kaleido and a headless Chrome, which a plain install does
not have. The Compare figures are simple (lines, a filled band between two lines, log axes, a
legend), so this draws them itself from the figure's own traces: the same data, colours, dashes,
bands, titles and legend names as the app's chart, laid out by this module rather than plotly.js
(fonts and spacing differ). Only what those figures use is read: scatter traces in "lines" mode,
`fill="tonexty"` bands, log axes with one tick per power of ten.

`grid_svg` draws a figure of subplots (the Convergence page's average strategy against the equilibria):
each trace in its own axes' domain, a log or linear x axis, the y axis's fixed range, `fill="toself"`
areas and the subplot titles (paper annotations); shapes (the app's line at iteration t) are left out.
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
            edge = _band((sx(previous[0]), sy(previous[1])), (sx(lx), sy(ly)))
            color, alpha = _color(trace.fillcolor)
            path = " ".join(f"{x:.1f},{y:.1f}" for x, y in zip(*edge))
            out.append(f'<polygon points="{path}" fill="{color}" fill-opacity="{alpha:g}" stroke="none"/>')
        line = trace.line
        if (line.width is None or line.width > 0) and lx.size:
            color, alpha = _color(line.color)
            opacity = alpha * (1.0 if trace.opacity is None else float(trace.opacity))
            dash = _DASH.get(line.dash or "solid", "")
            path = " ".join(f"{x:.1f},{y:.1f}" for x, y in zip(*_thinned(sx(lx), sy(ly))))
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


def _axis_suffix(name: str | None, letter: str) -> str:
    return (name or letter)[1:]


def _thinned(px: np.ndarray, py: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The points of a line that can show on screen: in each half-pixel column, its first and last point
    and its lowest and highest, in order (the line's envelope stays; a log x axis packs thousands of late
    iterations into a few columns)."""
    if px.size <= 4:
        return px, py
    column = np.floor(px * 2).astype(np.int64)
    starts = np.flatnonzero(np.r_[True, column[1:] != column[:-1]])
    ends = np.r_[starts[1:], px.size]
    keep = {int(k) for k in starts} | {int(k) - 1 for k in ends}
    for a, b in zip(starts, ends):
        if b - a > 2:
            part = py[a:b]
            keep.update((int(a + np.argmin(part)), int(a + np.argmax(part))))
    index = np.array(sorted(keep))
    return px[index], py[index]


def _band(upper: tuple[np.ndarray, np.ndarray], lower: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """The outline of a band between two lines (screen x, y each): the upper edge forward, the lower
    edge back, each thinned as a line is (`_thinned`), so the outline moves by at most half a pixel."""
    (ux, uy), (lx, ly) = _thinned(*upper), _thinned(*lower)
    return np.concatenate([ux, lx[::-1]]), np.concatenate([uy, ly[::-1]])


def grid_svg(figure: Any, notes: Sequence[str] = ()) -> str:
    """One SVG of a plotly figure of subplots: scatter traces ("lines", `fill="toself"` areas) in their
    axes' domains, x log (decades) or linear, y over the axis's range, subplot titles, a legend below."""
    width = WIDTH
    height = float(figure.layout.height or 600)
    margin = figure.layout.margin
    left, right, top, bottom = (float(v if v is not None else 60) for v in (margin.l, margin.r, margin.t, margin.b))
    inner_w, inner_h = width - left - right, height - top - bottom
    traces = [t for t in figure.data if getattr(t, "type", "scatter") == "scatter"]
    out = [f'<text x="{width / 2}" y="24" text-anchor="middle" font-size="15">'
           + "".join(f'<tspan x="{width / 2}" dy="{0 if k == 0 else 18}">{escape(line)}</tspan>'
                     for k, line in enumerate(str(getattr(figure.layout.title, "text", "") or "").split("<br>")))
           + "</text>"]
    boxes: dict[str, tuple[float, float, float, float, bool, tuple[float, float], tuple[float, float]]] = {}
    for trace in traces:
        suffix = _axis_suffix(trace.xaxis, "x")
        if suffix in boxes:
            continue
        xaxis, yaxis = figure.layout[f"xaxis{suffix}"], figure.layout[f"yaxis{_axis_suffix(trace.yaxis, 'y')}"]
        log = xaxis.type == "log"
        xs = np.concatenate([np.asarray(t.x, dtype=float) for t in traces if _axis_suffix(t.xaxis, "x") == suffix])
        xs = xs[np.isfinite(xs) & (xs > 0)] if log else xs[np.isfinite(xs)]
        x_range = (float(np.log10(xs.min())), float(np.log10(xs.max()))) if log else (float(xs.min()), float(xs.max()))
        if x_range[1] <= x_range[0]:
            x_range = (x_range[0], x_range[0] + 1)
        y_range = tuple(float(v) for v in (yaxis.range or (0.0, 1.0)))
        x0 = left + float(xaxis.domain[0]) * inner_w
        x1 = left + float(xaxis.domain[1]) * inner_w
        y1 = top + (1 - float(yaxis.domain[0])) * inner_h
        y0 = top + (1 - float(yaxis.domain[1])) * inner_h
        boxes[suffix] = (x0, y0, x1, y1, log, x_range, (y_range[0], y_range[1]))
        out.append(f'<rect x="{x0:.1f}" y="{y0:.1f}" width="{x1 - x0:.1f}" height="{y1 - y0:.1f}" fill="none" '
                   'stroke="#bbbbbb"/>')
        for value in (0.0, 0.5, 1.0):
            if y_range[0] <= value <= y_range[1]:
                y = y1 - (value - y_range[0]) / (y_range[1] - y_range[0]) * (y1 - y0)
                out.append(f'<line x1="{x0:.1f}" y1="{y:.1f}" x2="{x1:.1f}" y2="{y:.1f}" stroke="#eeeeee"/>')
                if yaxis.showticklabels is not False:
                    out.append(f'<text x="{x0 - 4:.1f}" y="{y + 4:.1f}" text-anchor="end" font-size="10">{value:g}</text>')
        ticks = range(math.ceil(x_range[0]), math.floor(x_range[1]) + 1) if log else ()
        for k in ticks:
            x = x0 + (k - x_range[0]) / (x_range[1] - x_range[0]) * (x1 - x0)
            out.append(f'<line x1="{x:.1f}" y1="{y0:.1f}" x2="{x:.1f}" y2="{y1:.1f}" stroke="#eeeeee"/>')
            out.append(f'<text x="{x:.1f}" y="{y1 + 16:.1f}" text-anchor="middle" font-size="10">{_power(k)}</text>')
        if _title(xaxis.title):
            out.append(f'<text x="{(x0 + x1) / 2:.1f}" y="{y1 + 32:.1f}" text-anchor="middle" font-size="11">'
                       f"{escape(_title(xaxis.title))}</text>")
    for trace in traces:
        x0, y0, x1, y1, log, (a, b), (c, d) = boxes[_axis_suffix(trace.xaxis, "x")]
        xs, ys = np.asarray(trace.x, dtype=float), np.asarray(trace.y, dtype=float)
        if log:
            keep = xs > 0
            xs, ys = np.log10(xs[keep]), ys[keep]
        px = x0 + (xs - a) / (b - a) * (x1 - x0)
        py = y1 - (ys - c) / (d - c) * (y1 - y0)
        if trace.fill != "toself":
            px, py = _thinned(px, py)
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y in zip(px, py))
        if trace.fill == "toself":
            color, alpha = _color(trace.fillcolor)
            out.append(f'<polygon points="{path}" fill="{color}" fill-opacity="{alpha:g}" stroke="none"/>')
        line = trace.line
        if (line.width is None or line.width > 0) and px.size:
            color, alpha = _color(line.color)
            dash = _DASH.get(line.dash or "solid", "")
            out.append(f'<polyline points="{path}" fill="none" stroke="{color}" stroke-opacity="{alpha:g}" '
                       f'stroke-width="{line.width or 2:g}"' + (f' stroke-dasharray="{dash}"' if dash else "")
                       + f'><title>{escape(str(trace.name or ""))}</title></polyline>')
    for note in figure.layout.annotations:
        if note.xref != "paper" or note.yref != "paper":
            continue
        x = left + float(note.x) * inner_w
        y = top + (1 - float(note.y)) * inner_h - 6
        lines = str(note.text or "").split("<br>")
        out.append(f'<text x="{x:.1f}" y="{y - 14 * (len(lines) - 1):.1f}" text-anchor="middle" font-size="11">'
                   + "".join(f'<tspan x="{x:.1f}" dy="{0 if k == 0 else 14}">{escape(part)}</tspan>'
                             for k, part in enumerate(lines)) + "</text>")
    named = [t for t in traces if t.showlegend is not False and t.name]
    y = height - bottom + 56
    for trace in named:
        color, _ = _color(trace.fillcolor if trace.fill == "toself" else trace.line.color)
        dash = _DASH.get(trace.line.dash or "solid", "")
        stroke = 10 if trace.fill == "toself" else 2.5
        out.append(f'<line x1="{left}" y1="{y - 4}" x2="{left + 30}" y2="{y - 4}" stroke="{color}" '
                   f'stroke-width="{stroke}"' + (f' stroke-dasharray="{dash}"' if dash else "") + "/>")
        out.append(f'<text x="{left + 38}" y="{y}" font-size="12">{escape(str(trace.name))}</text>')
        y += LEGEND_ROW
    for note in notes:
        out.append(f'<text x="{left}" y="{y}" font-size="11" fill="#555555">{escape(note)}</text>')
        y += 16
    total = max(height, y)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{total:.0f}" '
            f'viewBox="0 0 {width} {total:.0f}" font-family={quoteattr(_FONT)}>\n'
            f'<rect width="100%" height="100%" fill="white"/>\n' + "\n".join(out) + "\n</svg>\n")


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


__all__ = ["figures_svg", "grid_svg"]
