"""The game tree as a plotly figure, the part of a big tree worth drawing, and the node inspector.

Node ids are the tree's breadth-first ids; node markers carry them as `customdata` so a
click (Streamlit's `on_select`) names the node. Line traces skip hover so clicks land on nodes.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise

import numpy as np
import pandas  # noqa: F401  (in full before plotly, which reads sys.modules['pandas'] without importing it)
import plotly.graph_objects as go

from cfrviz.tree import parts as tree_parts
# Re-exported: other pages still ask this module; the tree page asks `drawn`, which loads no plotly.
from cfrviz.figures.drawn import ROUND_ONE, is_drawn_whole as is_drawn_whole
from cfrviz.figures._style import ACTOR_STYLE, HIGHLIGHT, INFOSET_LINK, PLAYER_NAMES, base_layout
from cfrviz.games import CHANCE, TERMINAL
from cfrviz.games.base import ACTION_LETTERS
from cfrviz.analysis.inspector import frame_numbers
from cfrviz.run import Run
from cfrviz.tree import GameTree

# ---------------------------------------------------------------------------------------------
# Which nodes to draw


def deal_cards(tree: GameTree) -> tuple[str, ...]:
    """Player 1's possible private cards, in deck order (none for a tree without private cards)."""
    return tree_parts.cards(tree, "player1") if tree_parts.card_view(tree) else ()


def round_one_lines(tree: GameTree, private: str) -> tuple[str, ...]:
    """Betting lines of round 1 that lead to the public card (Leduc), e.g. ("kk", "kbc", "bc")."""
    return tree_parts.lines(tree, "player1", private)


def public_cards(tree: GameTree) -> tuple[str, ...]:
    """The public cards as the information sets name them (empty for games without one)."""
    return tree_parts.public_cards(tree)


def tree_part(tree: GameTree, private: str | None = None, line: str | None = None,
              public: str | None = None) -> list[int]:
    """Node ids to draw: the whole tree, or the deals where player 1 holds `private`.

    Without `line` the part is round 1 of those deals (chance nodes end it). With a round-1
    `line` and a `public` card it is the path along that line, the public card and all of round 2.
    `cfrviz.tree.parts` has the same parts by player 2's card too.
    """
    if private is None:
        return list(range(tree.num_nodes))
    part = tree_parts.Part("player1", card=private, line=line, public=public if line is not None else None)
    return [int(n) for n in tree_parts.part_nodes(tree, part)]


# ---------------------------------------------------------------------------------------------
# Layout


def tree_layout(tree: GameTree, nodes: Sequence[int] | None = None) -> dict[int, tuple[float, float]]:
    """Top-down layered positions {node: (x, y)}: leaves one unit apart left to right, a parent
    centred over its drawn children, y = -depth."""
    drawn = set(range(tree.num_nodes)) if nodes is None else {int(n) for n in nodes}
    position: dict[int, tuple[float, float]] = {}
    next_leaf = 0.0
    roots = sorted(n for n in drawn if int(tree.parent[n]) not in drawn)

    # Post-order with an explicit stack, so a tree thousands of moves deep needs no recursion.
    for root in roots:
        stack: list[tuple[int, bool]] = [(root, False)]
        while stack:
            node, done = stack.pop()
            kids = [c for c in tree.children(node) if c in drawn]
            if not kids:
                x = next_leaf
                next_leaf += 1.0
            elif done:
                x = (position[kids[0]][0] + position[kids[-1]][0]) / 2.0
            else:
                stack.append((node, True))
                stack.extend((c, False) for c in reversed(kids))
                continue
            position[node] = (x, -float(tree.depth[node]))
    return position


def _edge_probability(tree: GameTree, strategy: np.ndarray | None, child: int) -> float | None:
    parent = int(tree.parent[child])
    if tree.actor[parent] == CHANCE:
        return float(tree.chance_probability[child])
    if strategy is None:
        return None
    return float(strategy[tree.infoset[parent], tree.action_index[child]])


def edge_width(probability: float | None) -> float:
    """Line width of an edge taken with this probability (1.5 when no strategy is shown)."""
    return 1.5 if probability is None else 0.6 + 7.0 * probability


def _arc(x0: float, y0: float, x1: float, y1: float, bow: float, steps: int = 16) -> tuple[list[float], list[float]]:
    """A quadratic curve from (x0, y0) to (x1, y1) bowing down by `bow`, so links of one
    information set do not run through the nodes between them."""
    s = np.linspace(0.0, 1.0, steps)
    cx, cy = (x0 + x1) / 2.0, (y0 + y1) / 2.0 - bow
    xs = (1 - s) ** 2 * x0 + 2 * (1 - s) * s * cx + s ** 2 * x1
    ys = (1 - s) ** 2 * y0 + 2 * (1 - s) * s * cy + s ** 2 * y1
    return xs.tolist(), ys.tolist()


# Information-set links spanning more leaves than this are drawn faint.
_NEAR_LINK = 6.0
INFOSET_LINK_FAINT = "rgba(0,158,115,0.35)"


def _link_bow(span: float) -> float:
    """How far an information-set link dips below its nodes: longer links dip deeper, so
    they nest instead of running on top of each other, but stay above the next layer."""
    return min(0.22 + 0.03 * span, 0.62)


def _terminal_text(payoff: float) -> str:
    return f"{payoff:+g}".replace("-", "−")


def tree_figure(tree: GameTree, strategy: np.ndarray | None = None, *, nodes: Iterable[int] | None = None,
                selected: int | None = None, strategy_name: str = "strategy",
                title: str | None = None) -> go.Figure:
    """The game tree (or the part `nodes`) with edge width and opacity showing `strategy` [I, A].

    Traces: one line per edge (name "edge a→b", meta {parent, child, probability}); one dotted
    curve per information set with two or more drawn nodes (name "information set KEY",
    meta {infoset, nodes}); edge labels; the selection highlight; then one marker trace per
    kind of node (chance, player 1, player 2, terminal) with node ids as customdata.
    """
    drawn = sorted(range(tree.num_nodes)) if nodes is None else sorted({int(n) for n in nodes})
    position = tree_layout(tree, drawn)
    drawn_set = set(drawn)
    traces: list[go.BaseTraceType] = []
    label_x, label_y, label_text, label_side = [], [], [], []
    for child in drawn:
        parent = int(tree.parent[child])
        if parent not in drawn_set:
            continue
        p = _edge_probability(tree, strategy, child)
        (x0, y0), (x1, y1) = position[parent], position[child]
        opacity = 0.9 if p is None else 0.2 + 0.8 * p
        traces.append(go.Scatter(
            x=[x0, x1], y=[y0, y1], mode="lines", hoverinfo="skip", showlegend=False,
            line={"color": f"rgba(60,60,60,{opacity:.3f})", "width": edge_width(p)},
            name=f"edge {parent}→{child}", meta={"parent": parent, "child": child, "probability": p}))
        label = tree.edge_label[child]
        if tree.actor[parent] != CHANCE:
            # Poker actions as their key letters (k b c f r) so labels fit between siblings.
            label = ACTION_LETTERS.get(label, label)
            if p is not None:
                label = f"{label} {p:.2f}".replace(" 0.", " .").replace(" 1.00", " 1")
        # Nearer the parent, where siblings' labels are far from the neighbouring subtree's.
        label_x.append(x0 * 0.62 + x1 * 0.38)
        label_y.append(y0 * 0.62 + y1 * 0.38)
        # Beside the edge with a little room (en spaces), so thick edges do not hide their label.
        left = x1 < x0
        label_text.append(f"{label}\u2002" if left else f"\u2002{label}")
        label_side.append("middle left" if left else "middle right")

    selected_set = -1 if selected is None else int(tree.infoset[selected])   # -1: no set selected
    for i in range(tree.num_infosets):
        members = [int(n) for n in tree.nodes_of(i) if int(n) in drawn_set]
        if len(members) < 2:
            continue
        xs, ys = [], []
        span = 0.0
        for a, b in pairwise(members):
            (x0, y0), (x1, y1) = position[a], position[b]
            span = max(span, abs(x1 - x0))
            ax, ay = _arc(x0, y0, x1, y1, bow=_link_bow(abs(x1 - x0)))
            xs += ax + [None]
            ys += ay + [None]
        chosen = selected_set == i
        # Links between neighbours stay clear; long ones (player 2's in Kuhn cross half the
        # picture) are drawn faint so they do not hide edges and labels, until selected.
        color = HIGHLIGHT if chosen else (INFOSET_LINK if span <= _NEAR_LINK else INFOSET_LINK_FAINT)
        traces.append(go.Scatter(
            x=xs, y=ys, mode="lines", hoverinfo="skip", showlegend=False,
            line={"color": color, "dash": "dot", "width": 3 if chosen else (1.5 if span <= _NEAR_LINK else 1.2)},
            name=f"information set {tree.infosets[i].key}", meta={"infoset": i, "nodes": members}))
    # One legend entry explains every dotted curve.
    traces.append(go.Scatter(x=[None], y=[None], mode="lines", hoverinfo="skip", name="same information set",
                             line={"color": INFOSET_LINK, "dash": "dot", "width": 1.5}))
    traces.append(go.Scatter(x=label_x, y=label_y, mode="text", text=label_text, hoverinfo="skip",
                             textposition=label_side,
                             showlegend=False, textfont={"size": 10, "color": "#555555"}, name="action labels"))

    if selected is not None and selected in drawn_set:
        partners = [int(n) for n in tree.nodes_of(selected_set)] if selected_set >= 0 else [selected]
        partners = [n for n in partners if n in drawn_set]
        traces.append(go.Scatter(
            x=[position[n][0] for n in partners], y=[position[n][1] for n in partners], mode="markers",
            hoverinfo="skip", name="selected information set" if selected_set >= 0 else "selected node",
            marker={"size": [30 if n == selected else 24 for n in partners], "color": "rgba(0,0,0,0)",
                    "line": {"color": HIGHLIGHT, "width": [5 if n == selected else 3 for n in partners]}},
            meta={"selected": int(selected), "nodes": partners}))

    for actor, style in ACTOR_STYLE.items():
        members = [n for n in drawn if int(tree.actor[n]) == actor]
        if not members:
            continue
        hover = []
        for n in members:
            i = int(tree.infoset[n])
            text = f"<b>{tree.node_label[n]}</b> (node {n})"
            if i >= 0:
                text += f"<br>information set {tree.infosets[i].key} · {PLAYER_NAMES[tree.infoset_player[i]]}"
            elif actor == TERMINAL:
                text += f"<br>player 1 gets {_terminal_text(float(tree.payoff[n]))} chips"
            hover.append(text)
        terminal = actor == TERMINAL
        traces.append(go.Scatter(
            x=[position[n][0] for n in members], y=[position[n][1] for n in members],
            mode="markers+text" if terminal else "markers", name=style["name"],
            customdata=members, hovertext=hover, hoverinfo="text",
            text=[_terminal_text(float(tree.payoff[n])) for n in members] if terminal else None,
            textposition="bottom center", textfont={"size": 10},
            marker={"symbol": style["symbol"], "color": style["color"], "size": 9 if terminal else 14,
                    "line": {"color": "white", "width": 1}}))

    depth = max((-y for _, y in position.values()), default=0.0)
    top = min((-y for _, y in position.values()), default=0.0)
    width_leaves = max((x for x, _ in position.values()), default=0.0)
    fig = go.Figure(traces)
    fig.update_layout(**base_layout(
        title=title or (tree.game.title if strategy is None else
                        f"{tree.game.title}: edge width shows the {strategy_name}"),
        height=int(170 + 110 * (depth - top + 1)), showlegend=True,
        legend={"orientation": "h", "y": -0.02, "yanchor": "top", "x": 0.0},
        margin={"l": 10, "r": 10, "t": 50, "b": 10}, clickmode="event+select", dragmode=False,
        xaxis={"visible": False, "range": [-0.8, width_leaves + 0.8], "fixedrange": True},
        yaxis={"visible": False, "range": [-depth - 0.45, -top + 0.3], "fixedrange": True}))
    return fig


# ---------------------------------------------------------------------------------------------
# The inspector


@dataclass(frozen=True)
class NodeInspection:
    """What the inspector shows for one node at snapshot `snapshot` of a run.

    For a decision node, `reach` is the history's own reach probability (the acting player's
    share), `opponent_chance_reach` the reach of the opponent times chance, and
    `counterfactual_value` [A] the acting player's counterfactual value of each action at this
    history; `infoset_counterfactual_value` [A] is that summed over the set's histories and
    `instant_regret` [A] this iteration's regret of the set, next to `cumulative_regret` [A].
    All come from the profile that produced iteration t's update (`cfrviz.analysis.inspector`: with
    alternating updates player 2 answers player 1's updated strategy), so for vanilla CFR
    `instant_regret` equals `regret_change`, the change of the cumulative regret since t - 1
    (NaN when snapshot t - 1 is not kept). Strategies are at t.
    """

    node: int
    label: str
    kind: str
    infoset: int
    key: str | None
    player: str | None
    private: str | None
    public: str | None
    history: tuple[str, ...]
    actions: tuple[str, ...]
    payoff: float | None
    reach: float | None
    opponent_chance_reach: float | None
    counterfactual_value: np.ndarray | None
    cumulative_regret: np.ndarray | None
    current_strategy: np.ndarray | None
    average_strategy: np.ndarray | None
    partners: tuple[int, ...]
    iteration: int | None = None
    infoset_counterfactual_value: np.ndarray | None = None
    instant_regret: np.ndarray | None = None
    regret_change: np.ndarray | None = None


def inspect_node(tree: GameTree, node: int, run: Run | None = None, snapshot: int = 0) -> NodeInspection:
    """Gather the inspector's numbers for `node` at `snapshot` of `run` (numbers None without a run)."""
    if not 0 <= node < tree.num_nodes:
        raise ValueError(f"Node {node} is not in the tree (0 to {tree.num_nodes - 1}).")
    actor = int(tree.actor[node])
    i = int(tree.infoset[node])
    record = tree.infosets[i] if i >= 0 else None
    kind = ACTOR_STYLE[actor]["name"].split(" (")[0]
    reach = opponent = cf = regret = current = average = set_cf = instant = change = None
    iteration = None
    if run is not None and record is not None:
        a = len(record.actions)
        numbers = frame_numbers(run, [snapshot], nodes=[node])
        iteration = int(numbers["iterations"][0])
        reach = float(numbers["own_reach"][0, 0])
        opponent = float(numbers["opponent_chance_reach"][0, 0])
        cf = numbers["history_cfv"][0, 0, :a]
        set_cf = numbers["infoset_cfv"][0, i, :a]
        instant = numbers["instant_regret"][0, i, :a]
        change = numbers["regret_change"][0, i, :a]
        regret = numbers["cumulative_regret"][0, i, :a]
        current = numbers["current_strategy"][0, i, :a]
        average = numbers["average_strategy"][0, i, :a]
    return NodeInspection(
        node=node, label=tree.node_label[node], kind=kind, infoset=i,
        key=record.key if record else None, player=PLAYER_NAMES[record.player] if record else None,
        private=record.private if record else None, public=record.public if record else None,
        history=record.history if record else (), actions=record.actions if record else (),
        payoff=float(tree.payoff[node]) if actor == TERMINAL else None,
        reach=reach, opponent_chance_reach=opponent, counterfactual_value=cf,
        cumulative_regret=regret, current_strategy=current, average_strategy=average,
        partners=tuple(int(n) for n in tree.nodes_of(i) if int(n) != node) if i >= 0 else (),
        iteration=iteration, infoset_counterfactual_value=set_cf, instant_regret=instant,
        regret_change=change)


def inspection_table(inspection: NodeInspection) -> list[dict[str, object]]:
    """Rows (one per action) of the inspector's table: plain dicts ready for a dataframe."""
    columns = {"cf value": inspection.counterfactual_value,
               "set cf value": inspection.infoset_counterfactual_value,
               "regret at t": inspection.instant_regret, "regret": inspection.cumulative_regret,
               "current": inspection.current_strategy, "average": inspection.average_strategy}
    shown = {name: values for name, values in columns.items() if values is not None}
    rows = []
    for k, action in enumerate(inspection.actions):
        row: dict[str, object] = {"action": action}
        row.update((name, float(values[k])) for name, values in shown.items())
        rows.append(row)
    return rows


def part_of_node(tree: GameTree, node: int) -> tuple[str | None, str | None, str | None]:
    """(player 1's card, round-1 line, public card) of the drawn part holding `node`.

    (None, None, None) for the root; line and public are None for round-1 nodes.
    """
    if node <= 0:
        return None, None, None
    part = tree_parts.part_of(tree, node, "player1")
    return part.card, part.line, part.public


def choose_part(tree: GameTree, node: int | None, private: str | None, line: str | None,
                public: str | None) -> tuple[str, str, str | None]:
    """The (player 1's card, line or "round 1", public card) to draw: the requested part when it
    is valid and holds `node`, otherwise the part that holds `node` (or the first part)."""
    part = tree_parts.checked_part(tree, "player1", private, None if line == ROUND_ONE else line, public, node)
    return str(part.card), part.line or ROUND_ONE, part.public
