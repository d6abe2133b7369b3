"""Exploitability of several algorithms on one chart, against iterations, nodes touched or seconds.

Colour says the algorithm and the dash says the update scheme, so CFR+ alternating and CFR+
simultaneous read as one method run two ways. Sampling methods run with several seeds show
their median with a confidence band across seeds (`Line.band` says which; the legend says it too).
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas  # noqa: F401  (in full before plotly, which reads sys.modules['pandas'] without importing it)
import plotly.graph_objects as go

from cfrviz.solvers import UpdateScheme
from cfrviz.solving.compare import Line
from cfrviz.figures._style import base_layout
from cfrviz.figures.convergence import BOTH, exploitability_series
from cfrviz.util.vocabulary import StrategyKind

#: x axes: Line field and axis title.
AXES = {
    "iterations": ("iterations", "iteration"),
    "nodes": ("nodes_touched", "nodes touched"),
    "seconds": ("seconds", "solver seconds"),
}
#: One colour per algorithm (Okabe-Ito first, then Tol's muted colours).
ALGORITHM_COLORS = {
    "cfr": "#0072B2", "cfr+": "#D55E00", "lcfr": "#009E73", "dcfr": "#CC79A7", "pcfr+": "#E69F00",
    "dcfr+": "#56B4E9", "pdcfr+": "#000000", "chance": "#999999", "external": "#882255", "outcome": "#44AA99",
}
#: Dash per update scheme.
SCHEME_DASH: dict[str, str] = {UpdateScheme.ALTERNATING: "solid", UpdateScheme.SIMULTANEOUS: "dash"}
_SERIES = {StrategyKind.AVERAGE: ("exploitability", "exploitability_low", "exploitability_high", ""),
           StrategyKind.CURRENT: ("current_exploitability", "current_low", "current_high", " · current")}


def algorithm_color(algorithm: str) -> str:
    """The colour every chart gives `algorithm`."""
    return ALGORITHM_COLORS.get(algorithm, "#444444")


def _rgba(color: str, alpha: float) -> str:
    r, g, b = (int(color[k:k + 2], 16) for k in (1, 3, 5))
    return f"rgba({r},{g},{b},{alpha})"


def seconds_title(lines: Sequence[Line]) -> str:
    """The seconds axis title, saying how the time was measured."""
    if lines and all(line.repeats == 0 for line in lines):
        return "solver seconds (median over seeds of each run's own, after a warm-up; compiling excluded)"
    repeats = sorted({line.repeats for line in lines}) or [1]
    count = str(repeats[0]) if len(repeats) == 1 else f"{repeats[0]}-{repeats[-1]}"
    return f"solver seconds (median of {count} timed solves after a warm-up; compiling excluded)"


def comparison_figure(lines: Sequence[Line], x: str = "iterations", strategy: str = StrategyKind.AVERAGE) -> go.Figure:
    """Exploitability (chips per hand) of each line, log-log.

    x: "iterations", "nodes" or "seconds". strategy: "average", "current" or "both" (the current
    strategy's line is thinner and paler). Points where x or the exploitability is not positive
    and finite cannot sit on a log axis and are left out.
    """
    if x not in AXES:
        raise ValueError(f"The x axis must be one of {', '.join(AXES)}, not {x!r}.")
    field, title = AXES[x]
    if x == "seconds":
        title = seconds_title(lines)
    series = exploitability_series(strategy)
    fig = go.Figure()
    for line in lines:
        entry = line.entry
        color = algorithm_color(entry.algorithm)
        xs = np.asarray(getattr(line, field), dtype=float)
        for name in series:
            middle, low, high, suffix = _SERIES[name]
            ys = np.asarray(getattr(line, middle), dtype=float)
            lo = np.asarray(getattr(line, low), dtype=float)
            hi = np.asarray(getattr(line, high), dtype=float)
            ok = (xs > 0) & np.isfinite(xs) & (ys > 0) & np.isfinite(ys)
            pale = name == StrategyKind.CURRENT and len(series) == 2
            width = 4.0 if entry.sidebar else (1.3 if pale else 2.2)
            opacity = 0.45 if entry.sidebar or pale else 1.0
            label = entry.label + suffix
            group = f"{label}"
            meta = {"algorithm": entry.algorithm, "updates": entry.updates, "strategy": name,
                    "sidebar": entry.sidebar, "seeds": list(entry.seeds)}
            if len(entry.seeds) > 1:
                band = ok & (lo > 0) & (hi > 0) & np.isfinite(lo) & np.isfinite(hi)
                fig.add_trace(go.Scatter(x=xs[band], y=hi[band], mode="lines", line={"width": 0, "color": color},
                                         legendgroup=group, showlegend=False, hoverinfo="skip",
                                         meta={**meta, "band": "high"}))
                fig.add_trace(go.Scatter(x=xs[band], y=lo[band], mode="lines", line={"width": 0, "color": color},
                                         fill="tonexty", fillcolor=_rgba(color, 0.14 if pale else 0.2),
                                         legendgroup=group, showlegend=False, hoverinfo="skip",
                                         meta={**meta, "band": "low"}))
            fig.add_trace(go.Scatter(
                x=xs[ok], y=ys[ok], mode="lines", name=label, legendgroup=group, opacity=opacity,
                line={"color": color, "width": width, "dash": SCHEME_DASH.get(entry.updates, "solid")}, meta=meta,
                hovertemplate=f"{label}<br>{AXES[x][1]} %{{x:,.3g}}<br>exploitability %{{y:.3g}}<extra></extra>"))
    what = {StrategyKind.AVERAGE: "the average strategy", StrategyKind.CURRENT: "the current strategy",
            BOTH: "the average (bold) and current (pale) strategy"}[strategy]
    entries = sum(1 for trace in fig.data if trace.showlegend is not False)
    fig.update_layout(**base_layout(
        # The legend sits under the x-axis title, one entry a row: beside the plot it took most of a
        # phone's width; plotly grows the bottom margin to fit it, so the figure grows with it.
        height=440 + 24 * entries, title=f"Exploitability of {what} against {AXES[x][1]}",
        legend={"orientation": "h", "x": 0.0, "xanchor": "left", "y": -0.16, "yanchor": "top",
                "font": {"size": 13}, "entrywidthmode": "fraction", "entrywidth": 1.0},
        margin={"l": 60, "r": 20, "t": 50, "b": 60}))
    banded = [line for line in lines if line.band]
    if banded:
        # The legend says what the shaded band is (the caption under the chart says it in full).
        # Its title takes a row above the entries: the legend moves down by that row, off the x-axis title.
        fig.update_layout(legend_title={"text": f"Median over seeds; shaded: {banded[0].confidence:.0%} t-interval",
                                        "side": "top", "font": {"size": 12}},
                          legend_y=-0.23)
    # One labelled tick per power of ten: plotly's 2 and 5 between them collide on a phone.
    fig.update_xaxes(type="log", title=title, dtick=1, exponentformat="power")
    fig.update_yaxes(type="log", title="exploitability (chips per hand)", dtick=1, exponentformat="power")
    return fig
