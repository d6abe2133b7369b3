"""A band (a filled area between two lines, as Compare's 95% interval) in the static SVG is thinned as
its lines are: in each half-pixel column each edge keeps its first, last, lowest and highest point.

Why that moves the picture by at most half a pixel: every dropped point lies in its column between the
column's lowest and highest kept points, and the thinned edge runs through both within that column, so
it passes within half a pixel (sideways) of every dropped point, and the edge between columns is the
same segment as before.
"""
from __future__ import annotations

import re

import numpy as np
import plotly.graph_objects as go

from cfrviz.figures.svg import _band, figures_svg


def _columns(x: np.ndarray, y: np.ndarray) -> list[tuple[float, float]]:
    """(lowest, highest) y in each half-pixel column, left to right."""
    column = np.floor(x * 2)
    return [(float(y[column == k].min()), float(y[column == k].max())) for k in np.unique(column)]


def test_a_bands_edges_keep_their_envelope_in_every_half_pixel_column() -> None:
    # Reference, by hand: 1,000 points from x = 0 to 1.999 px (four half-pixel columns); the upper edge
    # zig-zags between y = 0 and 1, the lower between 5 and 6 except point 500 (x = 1.0005, column 2) at 9.
    x = np.linspace(0.0, 1.999, 1000)
    upper = np.where(np.arange(1000) % 2 == 0, 0.0, 1.0)
    lower = upper + 5.0
    lower[500] = 9.0
    bx, by = _band((x, upper), (x, lower))
    top = by <= 1.0                       # the upper edge's points, then the lower edge's
    assert top[: top.sum()].all() and not top[top.sum():].any()
    ux, uy, lx, ly = bx[top], by[top], bx[~top], by[~top]
    # Forward along the upper edge, back along the lower one, from and to the band's ends.
    assert list(ux) == sorted(ux) and list(lx) == sorted(lx, reverse=True)
    assert (ux[0], uy[0], ux[-1], uy[-1]) == (0.0, 0.0, 1.999, 1.0)
    assert (lx[0], ly[0], lx[-1], ly[-1]) == (1.999, 6.0, 0.0, 5.0)
    # At most four points an edge a column, each one of the edge's own points, the envelope kept.
    assert ux.size <= 16 and lx.size <= 16
    kept = {(float(a), float(b)) for a, b in zip(x, upper)} | {(float(a), float(b)) for a, b in zip(x, lower)}
    assert {(float(a), float(b)) for a, b in zip(bx, by)} <= kept
    assert _columns(ux, uy) == [(0.0, 1.0)] * 4
    assert _columns(lx[::-1], ly[::-1]) == [(5.0, 6.0), (5.0, 6.0), (5.0, 9.0), (5.0, 6.0)]


def test_compares_band_in_the_svg_keeps_at_most_four_points_an_edge_a_column() -> None:
    # Reference: iterations 1 to 10,000 on a log axis of four decades across the 662 px plot: the last
    # decade's 9,000 iterations share about 330 half-pixel columns. The band's polygon had all 20,000 points.
    t = np.arange(1, 10_001, dtype=float)
    figure = go.Figure([go.Scatter(x=t, y=2 / np.sqrt(t), mode="lines", line={"width": 0}, showlegend=False),
                        go.Scatter(x=t, y=0.5 / np.sqrt(t), mode="lines", line={"width": 0}, fill="tonexty",
                                   fillcolor="rgba(0,114,178,0.2)", showlegend=False)])
    (polygon,) = re.findall(r'<polygon points="([^"]+)"', figures_svg([figure]))
    points = np.array([[float(v) for v in p.split(",")] for p in polygon.split()])
    columns = np.floor(points[:, 0] * 2)
    assert len(points) <= 2 * 4 * np.unique(columns).size < 20_000
    # The band still spans the data: from x = 1 (the plot's left edge, 78 px) to 10,000 (its right edge, 740 px).
    assert points[:, 0].min() == 78.0 and points[:, 0].max() == 740.0
