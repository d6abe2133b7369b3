"""How regret and strategy move over the iterations: curves per information set and a heat map."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas  # noqa: F401  (in full before plotly, which reads sys.modules['pandas'] without importing it)
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from cfrviz.figures._style import AGGRESSIVE_ACTIONS, PLAYER_NAMES, action_color, base_layout
from cfrviz.figures.timeline import grouped_sets
from cfrviz.run import Run
from cfrviz.util.vocabulary import StrategyKind

# Heat-map columns; more snapshots are thinned evenly (the last one is always kept).
MAX_HEATMAP_COLUMNS = 300
# Heat-map rows and cells. Leduc's 288 sets x 300 columns fit whole; an uploaded game's 81,000
# set-action rows built a 350 MB figure, so larger games show their first rows (in the grouped
# order) and say so, and fewer columns when the rows are many.
MAX_HEATMAP_ROWS = 600
MAX_HEATMAP_CELLS = MAX_HEATMAP_ROWS * MAX_HEATMAP_COLUMNS // 2


def infoset_title(run: Run, infoset: int) -> str:
    """An information set's label on screen, e.g. "Q kb (player 1)"."""
    record = run.tree.infosets[infoset]
    return f"{record.key} ({PLAYER_NAMES[record.player]})"


def infoset_curves_figure(run: Run, infosets: Sequence[int], t: int, *, height_per_row: int = 230) -> go.Figure:
    """For each information set, a row of two panels over the snapshot iterations:
    cumulative regret per action, and current (solid) vs average (dashed) strategy per action.
    A vertical line marks iteration `t`. The x axis is logarithmic (snapshots are log-spaced)."""
    infosets = list(infosets)
    if not infosets:
        raise ValueError("Choose at least one information set to plot.")
    rows = len(infosets)
    titles = []
    for i in infosets:
        # Two short lines each: side by side on a phone, one-line titles ran into each other.
        titles += [f"{infoset_title(run, i)}<br>cumulative regret", f"{infoset_title(run, i)}<br>strategy"]
    fig = make_subplots(rows=rows, cols=2, subplot_titles=titles, vertical_spacing=min(0.16, 0.45 / rows),
                        horizontal_spacing=0.14)  # room for the right column's axis title
    x = run.iterations
    for r, i in enumerate(infosets, start=1):
        actions = run.tree.infosets[i].actions
        for a, action in enumerate(actions):
            color = action_color(a)
            first = r == 1
            fig.add_trace(go.Scatter(
                x=x, y=run.cumulative_regret[:, i, a], mode="lines", line={"color": color},
                name=action, legendgroup=action, showlegend=False,
                hovertemplate=f"{action}<br>iteration %{{x}}<br>regret %{{y:.4f}}<extra></extra>"), row=r, col=1)
            fig.add_trace(go.Scatter(
                x=x, y=run.current_strategy[:, i, a], mode="lines", line={"color": color, "width": 1},
                opacity=0.6, name=f"{action}: current", legendgroup=action, showlegend=first,
                hovertemplate=f"{action} current<br>iteration %{{x}}<br>p = %{{y:.3f}}<extra></extra>"),
                row=r, col=2)
            fig.add_trace(go.Scatter(
                x=x, y=run.average_strategy[:, i, a], mode="lines", line={"color": color, "dash": "dash", "width": 2.5},
                name=f"{action}: average", legendgroup=action, showlegend=first,
                hovertemplate=f"{action} average<br>iteration %{{x}}<br>p = %{{y:.3f}}<extra></extra>"),
                row=r, col=2)
        for c in (1, 2):
            fig.add_vline(x=t, line={"color": "#444", "dash": "dot", "width": 1}, row=r, col=c)
        fig.update_yaxes(range=[-0.02, 1.02], title_text="probability", row=r, col=2)
        fig.update_yaxes(title_text="chips", row=r, col=1)
    log_x = len(x) > 1 and x[-1] / x[0] >= 20
    fig.update_xaxes(type="log" if log_x else "linear", dtick=1 if log_x else None)
    fig.update_xaxes(title_text="iteration", row=rows)
    fig.update_annotations(font_size=14)
    fig.update_layout(**base_layout(height=130 + height_per_row * rows,
                                    legend={"orientation": "h", "y": 0.0, "yanchor": "bottom", "x": 0,
                                            "yref": "container"},
                                    margin={"l": 60, "r": 20, "t": 40, "b": 90}))
    fig.layout.meta = {"t": int(t), "infosets": infosets}
    return fig


def _strategy(run: Run, kind: StrategyKind) -> np.ndarray:
    """[T, I, A] the run's strategy of that kind at every snapshot."""
    return run.average_strategy if kind == StrategyKind.AVERAGE else run.current_strategy


def aggressive_mask(run: Run) -> np.ndarray:
    """[I, A] True for the actions counted as aggressive (bet, call, raise)."""
    mask = np.zeros(run.tree.legal.shape, dtype=bool)
    for i, record in enumerate(run.tree.infosets):
        for a, name in enumerate(record.actions):
            mask[i, a] = name in AGGRESSIVE_ACTIONS
    return mask


def log_spaced_snapshots(iterations: np.ndarray, most: int = MAX_HEATMAP_COLUMNS) -> np.ndarray:
    """At most `most` snapshot indices, evenly spaced in log(iteration): CFR moves most early, so the
    early iterations keep their columns. The first and last snapshots are always kept."""
    count = len(iterations)
    if count <= most:
        return np.arange(count)

    def picks(n: int) -> np.ndarray:
        wanted = np.geomspace(float(max(iterations[0], 1)), float(iterations[-1]), n)
        chosen = np.searchsorted(iterations, wanted, side="left").clip(0, count - 1)
        return np.unique(np.concatenate([[0], chosen, [count - 1]])).astype(np.int64)

    # Early on, log spacing asks for the same snapshot many times: ask for more points until
    # `most` distinct ones remain (bisection on the number asked for).
    low, high = most, count
    while low < high:
        middle = (low + high + 1) // 2
        if len(picks(middle)) <= most:
            low = middle
        else:
            high = middle - 1
    return picks(low)


def grouped_rows(run: Run) -> list[int]:
    """Information sets ordered by player, then private card (in deal order), then key."""
    return grouped_sets(run.tree)


def aggression_heatmap(run: Run, *, kind: StrategyKind = StrategyKind.AVERAGE, t: int | None = None) -> go.Figure:
    """Heat map of every information set (rows) × iterations (columns, log-spaced on a log axis).

    Rows are grouped by player, then by private card. Poker: colour = probability of the
    aggressive action (bet, call or raise). Games without such actions (matrix games): one row
    per information set and action, colour = its probability.
    """
    strategy = _strategy(run, kind)       # [T, I, A]
    mask = aggressive_mask(run)
    tree = run.tree
    order = grouped_rows(run)
    # One row per set (poker: its aggressive actions summed), else one per set and action.
    rows = [(i, -1) for i in order] if mask.any() else [
        (i, a) for i in order for a in range(len(tree.infosets[i].actions))]
    total = len(rows)
    rows = rows[:MAX_HEATMAP_ROWS]
    picks = log_spaced_snapshots(run.iterations, max(2, min(MAX_HEATMAP_COLUMNS, MAX_HEATMAP_CELLS // len(rows))))
    columns = run.iterations[picks].astype(float)
    sets = np.array([i for i, _ in rows], dtype=np.int64)
    groups: list[str] = []
    labels: list[str] = []
    # Only the cells drawn are read: no copy of the run's [T, I, A] strategy.
    if mask.any():
        z = np.einsum("tia,ia->it", strategy[picks[:, None], sets[None, :]], mask[sets].astype(float))    # [rows, T']
        for i in sets:
            record = tree.infosets[i]
            groups.append(f"{PLAYER_NAMES[record.player]}, {record.private}" if record.private
                          else PLAYER_NAMES[record.player])
            labels.append(record.key)
        colour_title = "P(bet, call<br>or raise)"
    else:
        actions = np.array([a for _, a in rows], dtype=np.int64)
        z = strategy[picks[:, None], sets[None, :], actions[None, :]].T                       # [rows, T']
        for i, a in rows:
            record = tree.infosets[i]
            groups.append(PLAYER_NAMES[record.player])
            labels.append(record.actions[a])
        colour_title = "probability"
    title = f"{kind.capitalize()} strategy of every set"
    if total > len(rows):
        title = f"{kind.capitalize()} strategy of the first {len(rows):,} of {total:,} {'sets' if mask.any() else 'set actions'}"
    fig = go.Figure(go.Heatmap(
        z=z, x=columns, y=[groups, labels], zmin=0.0, zmax=1.0, colorscale="Viridis",
        # The bar's title reads up its right side: above the bar it ran into the top tick's label.
        colorbar={"title": {"text": colour_title.replace("<br>", " "), "side": "right"}, "len": 320,
                  "lenmode": "pixels", "y": 1.0, "yanchor": "top"},
        hovertemplate="%{y}<br>iteration %{x:,}<br>p = %{z:.3f}<extra></extra>"))
    if t is not None:
        fig.add_vline(x=float(max(t, 1)), line={"color": "white", "width": 2, "dash": "dot"})
    fig.update_layout(**base_layout(
        title=title,
        # Big games (Leduc's 288 sets) get thin rows; plotly thins the row labels itself.
        height=max(320, 140 + max(4, min(20, 1600 // len(labels))) * len(labels)),
        xaxis={"title": "iteration (log scale)", "type": "log"},
        yaxis={"autorange": "reversed", "automargin": True, "type": "multicategory"}))
    return fig
