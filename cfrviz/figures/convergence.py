"""Is the run getting there? Average strategy against the equilibrium, game value, exploitability."""
from __future__ import annotations

import numpy as np
import pandas  # noqa: F401  (in full before plotly, which reads sys.modules['pandas'] without importing it)
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from cfrviz import catalog
from cfrviz.analysis import reference
from cfrviz.analysis import closest_alpha, expected_value, kuhn_equilibrium
from cfrviz.analysis.locks import restricted_equilibrium
from cfrviz.figures._style import HIGHLIGHT, PLAYER_NAMES, base_layout
from cfrviz.run import Run
from cfrviz.tree.locks import restrict
from cfrviz.util.vocabulary import StrategyKind

# Exact values of the average strategy are computed at this many snapshots at most.
MAX_VALUE_POINTS = 200


def equilibrium_reference(run: Run) -> tuple[np.ndarray, np.ndarray, str] | None:
    """(low [I, A], high [I, A], description) bounding the known equilibria, or None when unknown
    (see `cfrviz.analysis.reference.known_equilibria`: Kuhn's α band, a matrix game's exact equilibrium).
    None for a locked run: those equilibria are the full game's, not the locked game's."""
    if run.settings.locks:
        return None
    return reference.known_equilibria(run.tree)


def equilibrium_figure(run: Run, t: int) -> go.Figure:
    """One panel per information set: the average probability of each non-first action over the
    iterations, against the equilibrium (a shaded band for Kuhn's α-family, a line where unique).
    3-card Kuhn also marks the run's closest α at iteration t. The x axis is the iteration (log)."""
    reference = equilibrium_reference(run)
    if reference is None:
        raise ValueError(f"No closed-form equilibrium is known for {run.tree.game.title}; "
                         "use the exploitability chart to judge convergence.")
    low, high, description = reference
    tree = run.tree
    s_t = run.snapshot_at(t)
    game = catalog.of_tree(tree)
    alpha = closest_alpha(run.average_strategy[s_t], tree) if game.alpha_family else None
    at_alpha = kuhn_equilibrium(alpha, tree) if alpha is not None else None
    panels = [(i, a) for i, record in enumerate(tree.infosets) for a in range(1, len(record.actions))]
    if game.matrix:
        panels = [(i, a) for i, record in enumerate(tree.infosets) for a in range(len(record.actions))]
    cols = 4 if len(panels) >= 8 else 3
    rows = -(-len(panels) // cols)
    # Two short lines (the set and action, then the player): four panels side by side keep their
    # titles apart even on a phone's 390 px.
    def title(i: int, a: int) -> str:
        key, player, action = tree.infosets[i].key, PLAYER_NAMES[tree.infosets[i].player], tree.infosets[i].actions[a]
        return f"{player}<br>{action}" if key == player else f"{key} · {action}<br>({player})"

    titles = [title(i, a) for i, a in panels]
    fig = make_subplots(rows=rows, cols=cols, subplot_titles=titles, vertical_spacing=0.32 / rows + 0.04,
                        horizontal_spacing=0.06)
    x = run.iterations
    x0, x1 = float(x[0]), float(x[-1])
    for k, (i, a) in enumerate(panels):
        r, c = k // cols + 1, k % cols + 1
        first = k == 0
        lo, hi = float(low[i, a]), float(high[i, a])
        if hi - lo > 1e-12:
            fig.add_trace(go.Scatter(
                x=[x0, x1, x1, x0, x0], y=[lo, lo, hi, hi, lo], fill="toself", mode="lines",
                fillcolor="rgba(0,158,115,0.18)", line={"width": 0}, hoverinfo="skip",
                name="α band: equilibria for α ∈ [0, 1/3]", legendgroup="band", showlegend=first,
                meta={"band": True, "infoset": i, "action": a, "low": lo, "high": hi}), row=r, col=c)
        else:
            fig.add_trace(go.Scatter(
                x=[x0, x1], y=[lo, lo], mode="lines", line={"color": "#009E73", "width": 2},
                hoverinfo="skip", name="equilibrium (unique)", legendgroup="unique",
                showlegend=not any(getattr(tr, "legendgroup", None) == "unique" for tr in fig.data),
                meta={"equilibrium": True, "infoset": i, "action": a, "value": lo}), row=r, col=c)
        if at_alpha is not None and hi - lo > 1e-12:
            fig.add_trace(go.Scatter(
                x=[x0, x1], y=[at_alpha[i, a]] * 2, mode="lines", line={"color": HIGHLIGHT, "dash": "dash"},
                hoverinfo="skip", name=f"equilibrium at the run's α = {alpha:.3f} (iteration {int(x[s_t]):,})",
                legendgroup="alpha", showlegend=not any(getattr(tr, "legendgroup", None) == "alpha" for tr in fig.data),
                meta={"alpha": alpha}), row=r, col=c)
        fig.add_trace(go.Scatter(
            x=x, y=run.average_strategy[:, i, a], mode="lines", line={"color": "#0072B2", "width": 2},
            name="average strategy", legendgroup="avg", showlegend=first,
            hovertemplate="iteration %{x}<br>p = %{y:.4f}<extra></extra>"), row=r, col=c)
        fig.add_vline(x=float(x[s_t]), line={"color": "#444", "dash": "dot", "width": 1}, row=r, col=c)
    log_x = len(x) > 1 and x1 / x0 >= 20
    fig.update_xaxes(type="log" if log_x else "linear", dtick=1 if log_x else None)
    fig.update_xaxes(title_text="iteration", row=rows)
    fig.update_yaxes(range=[-0.03, 1.03])
    # Probabilities share one scale: numbers on the first column only, so none sits on a neighbour's curve.
    for c in range(2, cols + 1):
        fig.update_yaxes(showticklabels=False, col=c)
    fig.update_layout(**base_layout(
        title=f"Average strategy against {description}", height=190 + 210 * rows,
        legend={"orientation": "h", "y": 0.0, "yanchor": "bottom", "x": 0, "yref": "container"},
        # Room for a title that wraps on a phone above the first row's two-line panel titles.
        margin={"l": 40, "r": 20, "t": 120, "b": 110}))
    fig.layout.meta = {"alpha": None if alpha is None else float(alpha)}
    return fig


def game_value(run: Run) -> float | None:
    """Player 1's value of the game: known (Kuhn −1/18, Leduc −0.0856064240780, rock-paper-scissors 0), exact
    for matrix games, otherwise from the sequence-form LP (`cfrviz.analysis.reference.game_value`).
    For a locked run, the locked game's exact value: the LP with each locked set a chance node (None when
    the program is too big for its time limit)."""
    if run.settings.locks:
        try:
            return restricted_equilibrium(restrict(run.tree, run.settings.locks))[0]
        except ValueError:
            return None
    return reference.game_value(run.tree, run.settings.spec)


def value_figure(run: Run, t: int | None = None) -> go.Figure:
    """Player 1's exact value of the average strategy (computed on the tree) and the running
    mean of iteration values (as in the classic tutorial code), against the game's value, in chips per hand."""
    # Thinned evenly in log space, so the early iterations (where the value moves most) keep their points.
    picks = np.unique(np.round(np.geomspace(1, run.num_snapshots, MAX_VALUE_POINTS)).astype(np.int64) - 1)
    x = run.iterations[picks]
    exact = np.array([expected_value(run.tree, run.average_strategy[s]) for s in picks])
    fig = go.Figure()
    fig.add_trace(go.Scatter(
        x=x, y=exact, mode="lines", name="value of the average strategy (exact)", line={"color": "#0072B2", "width": 2.5},
        hovertemplate="iteration %{x}<br>%{y:.5f} chips/hand<extra></extra>"))
    fig.add_trace(go.Scatter(
        x=run.iterations, y=run.expected_value, mode="lines", line={"color": "#D55E00", "dash": "dash"},
        name="running mean of iteration values, as in the classic tutorial code",
        hovertemplate="iteration %{x}<br>%{y:.5f} chips/hand<extra></extra>"))
    value = game_value(run)
    if value is not None:
        # Named in the legend: a label on the line would sit on the curves that approach it.
        fig.add_trace(go.Scatter(x=[run.iterations[0], run.iterations[-1]], y=[value, value], mode="lines",
                                 name=f"{'locked game' if run.settings.locks else 'game'} value {value:.4f}", line={"color": "#009E73", "width": 2},
                                 hoverinfo="skip"))
    if t is not None:
        fig.add_vline(x=t, line={"color": "#444", "dash": "dot", "width": 1})
    span = run.iterations[-1] / run.iterations[0]
    fig.update_layout(**base_layout(
        title="Player 1's value (chips per hand)", height=380,
        xaxis={"title": "iteration", "type": "log" if span >= 20 else "linear", "dtick": 1 if span >= 20 else None},
        yaxis={"title": "chips per hand"},
        legend={"orientation": "h", "y": -0.22, "yanchor": "top", "x": 0}))
    return fig


#: Which strategy's exploitability a chart shows: (field of Run, legend name, colour, dash).
EXPLOITABILITY_SERIES: dict[StrategyKind, tuple[str, str, str, str]] = {
    StrategyKind.AVERAGE: ("exploitability", "exploitability of the average strategy", "#0072B2", "solid"),
    StrategyKind.CURRENT: ("current_exploitability", "exploitability of the current strategy (last iterate)",
                           "#D55E00", "dot"),
}
#: The third choice beside each `StrategyKind`: both strategies in one chart.
BOTH = "both"
#: The choices a page's widget offers, as strings: each `StrategyKind`'s value, then `BOTH`.
STRATEGY_CHOICES: tuple[str, ...] = (*(kind.value for kind in StrategyKind), BOTH)


def exploitability_series(strategy: str) -> tuple[StrategyKind, ...]:
    """The strategies a widget's choice (`STRATEGY_CHOICES`) names: one `StrategyKind`, or both;
    ValueError otherwise."""
    if strategy == BOTH:
        return tuple(StrategyKind)
    try:
        return (StrategyKind(strategy),)
    except ValueError:
        raise ValueError(f"Show the exploitability of the 'average' strategy, the 'current' one or 'both', "
                         f"not {strategy!r}.") from None


def exploitability_figure(run: Run, t: int | None = None, *, title: str | None = None,
                          strategy: str = StrategyKind.AVERAGE) -> go.Figure:
    """Exploitability on log-log axes, in chips per hand (milli-chips in hover), with a c/√T guide
    through the first point (CFR's regret bound for the average, Zinkevich et al. 2007).

    strategy: "average" (the average strategy, what CFR's guarantee is about), "current" (the
    strategy played at each iteration, the last iterate predictive methods are studied for) or
    "both". Snapshots without a positive, finite value (e.g. a run saved before the current
    strategy's exploitability was recorded) are left out.
    """
    x = np.asarray(run.iterations, dtype=float)
    fig = go.Figure()
    guide_from: tuple[float, float] | None = None
    for series in exploitability_series(strategy):
        field, name, color, dash = EXPLOITABILITY_SERIES[series]
        y = np.asarray(getattr(run, field), dtype=float)
        ok = np.isfinite(y) & (y > 0)
        fig.add_trace(go.Scatter(
            x=x[ok], y=y[ok], mode="lines", name=name, line={"color": color, "width": 2.5, "dash": dash},
            customdata=y[ok] * 1000.0, meta={"strategy": series},
            hovertemplate="iteration %{x:,}<br>%{y:.3g} chips/hand<br>%{customdata:.3f} milli-chips/hand<extra></extra>"))
        if guide_from is None and ok.any():
            first = int(np.flatnonzero(ok)[0])
            guide_from = (float(x[first]), float(y[first]))
    if guide_from is not None:
        scale = guide_from[1] * np.sqrt(guide_from[0])
        fig.add_trace(go.Scatter(
            x=x, y=scale / np.sqrt(x), mode="lines", name="1/√T guide", line={"color": "#999999", "dash": "dash"},
            hoverinfo="skip", meta={"guide": "1/sqrt(T)", "scale": float(scale)}))
    if t is not None:
        fig.add_vline(x=t, line={"color": "#444", "dash": "dot", "width": 1})
    fig.update_layout(**base_layout(
        title=title or "Exploitability (chips per hand, log-log)", height=400,
        xaxis={"title": "iteration", "type": "log", "dtick": 1},
        yaxis={"title": "chips per hand", "type": "log", "dtick": "D2", "exponentformat": "power"},
        legend={"orientation": "h", "y": -0.2, "yanchor": "top", "x": 0}))
    return fig
