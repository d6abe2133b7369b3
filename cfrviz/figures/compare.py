"""Exploitability of several runs on one chart, against iterations, nodes touched or seconds (Lanctot et al. 2009 compare MCCFR variants this way)."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from cfrviz.figures._style import action_color, base_layout
from cfrviz.run import Run

AXES = {
    "iterations": ("iterations", "iteration"),
    "nodes": ("nodes_touched", "nodes touched"),
    "seconds": ("seconds", "solver seconds"),
}


def comparison_figure(runs: Sequence[Run], labels: Sequence[str], x: str = "iterations") -> go.Figure:
    """Exploitability (chips per hand) of each run's average strategy, log-log, one line per run.

    `x` is "iterations", "nodes" or "seconds". Points where x or the exploitability is not
    positive cannot sit on a log axis and are left out.
    """
    if x not in AXES:
        raise ValueError(f"The x axis must be one of {', '.join(AXES)}, not {x!r}.")
    field, title = AXES[x]
    fig = go.Figure()
    for k, (run, label) in enumerate(zip(runs, labels)):
        xs = np.asarray(getattr(run, field), dtype=float)
        ys = np.asarray(run.exploitability, dtype=float)
        ok = (xs > 0) & (ys > 0) & np.isfinite(xs) & np.isfinite(ys)
        dash = "dot" if run.settings.updates == "simultaneous" else "solid"
        fig.add_trace(go.Scatter(x=xs[ok], y=ys[ok], mode="lines", name=label,
                                 line={"color": action_color(k), "width": 2, "dash": dash},
                                 hovertemplate=f"{label}<br>{title} %{{x:,.3g}}<br>exploitability %{{y:.3g}}<extra></extra>"))
    fig.update_layout(**base_layout(height=420, title=f"Exploitability against {title}",
                                    legend={"orientation": "h", "y": -0.22}))
    fig.update_xaxes(type="log", title=title)
    fig.update_yaxes(type="log", title="exploitability (chips per hand)")
    return fig
