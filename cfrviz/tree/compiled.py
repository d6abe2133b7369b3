"""A game expanded once into flat arrays: the one structure solvers, analysis and drawing read.

Nodes are numbered breadth first, so a parent always precedes its children, the
children of a node are contiguous, and depth never decreases with the id.
Information sets are numbered in order of first appearance.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cfrviz.util import memory
from cfrviz.games import Game, InformationSet
from cfrviz.util.vocabulary import Player
from cfrviz.util.text import quoted


#: Most histories `build_tree` expands (Leduc poker with suits has 9,451; files and OpenSpiel games are capped lower).
MAX_TREE_NODES = 500_000


@dataclass(frozen=True, eq=False)
class GameTree:
    """Arrays over the N histories and I information sets of a game (A = most legal actions).

    Node arrays, shape [N]: `parent` (-1 at the root), `depth`, `actor` (a `Player`:
    0, 1, 2 chance, 3 terminal), `infoset` (-1 unless a decision node), `action_index` (which child of the
    parent this is), `chance_probability` (of the edge from a chance parent, else 1),
    `payoff` (player 1's, at terminals, else 0), `first_child` and `num_children`.
    Information-set arrays: `infoset_player` [I], `num_actions` [I], `legal` [I, A] (bool),
    and the nodes of each set as `infoset_nodes[infoset_node_start[i]:infoset_node_start[i+1]]`.
    """

    game: Game
    parent: np.ndarray
    depth: np.ndarray
    actor: np.ndarray
    infoset: np.ndarray
    action_index: np.ndarray
    chance_probability: np.ndarray
    payoff: np.ndarray
    first_child: np.ndarray
    num_children: np.ndarray
    node_label: tuple[str, ...]
    edge_label: tuple[str, ...]
    infosets: tuple[InformationSet, ...]
    infoset_player: np.ndarray
    num_actions: np.ndarray
    legal: np.ndarray
    infoset_node_start: np.ndarray
    infoset_nodes: np.ndarray
    _key_index: dict[str, int] = field(repr=False, default_factory=dict)

    @property
    def num_nodes(self) -> int:
        return len(self.parent)

    @property
    def num_infosets(self) -> int:
        return len(self.infosets)

    @property
    def max_actions(self) -> int:
        return int(self.legal.shape[1])

    @property
    def num_decision_nodes(self) -> int:
        return int(np.count_nonzero(self.actor < Player.CHANCE))

    @property
    def num_terminals(self) -> int:
        return int(np.count_nonzero(self.actor == Player.TERMINAL))

    def infoset_index(self, key: str) -> int:
        """The id of the information set with this key; ValueError names an unknown key."""
        try:
            return self._key_index[key]
        except KeyError:
            raise ValueError(f"No information set {quoted(key)} in {self.game.title}.") from None

    def nodes_of(self, infoset: int) -> np.ndarray:
        """Node ids of one information set, left to right."""
        return self.infoset_nodes[self.infoset_node_start[infoset]:self.infoset_node_start[infoset + 1]]

    def children(self, node: int) -> range:
        start = int(self.first_child[node])
        return range(start, start + int(self.num_children[node]))

    def uniform_strategy(self) -> np.ndarray:
        """[I, A] uniform over legal actions, zero on illegal ones."""
        uniform: np.ndarray = self.legal / self.num_actions[:, None]
        return uniform

    def to_networkx(self, nodes: Iterable[int] | None = None) -> Any:
        """A networkx DiGraph of the tree, or of the histories `nodes` (default: all N).

        Nodes are history ids with `label`, `actor` (a `Player` value), `depth`,
        `infoset` (-1 off decision nodes), `infoset_key` (None off decision nodes) and
        `payoff` (player 1's, at terminals). Tree edges, parent to child, carry kind="action",
        `label` (the action or chance outcome), `action` (its index) and `probability` (of a
        chance outcome, else 1). The histories of one information set are joined left to right
        by edges of kind="information_set" (undirected in meaning, drawn dotted); with `nodes`,
        the included histories of a set are joined, so a set's histories are one connected
        component of those links. This graph is what the app draws.

        >>> from cfrviz.games import KuhnPoker
        >>> graph = build_tree(KuhnPoker()).to_networkx()
        >>> graph.number_of_nodes(), graph.edges[0, 1]["label"], graph.edges[1, 7]["label"]
        (55, 'JQ', 'check')
        >>> sorted(graph.nodes[n]["label"] for n in graph.successors(7))
        ['JQ kb', 'JQ kk', 'KQ k']
        """
        import networkx as nx

        wanted = range(self.num_nodes) if nodes is None else sorted({int(n) for n in nodes})
        inside = set(wanted)
        graph = nx.DiGraph(game=self.game.title)
        for n in wanted:
            i = int(self.infoset[n])
            graph.add_node(n, label=self.node_label[n], actor=int(self.actor[n]), depth=int(self.depth[n]),
                           infoset=i, infoset_key=self.infosets[i].key if i >= 0 else None,
                           payoff=float(self.payoff[n]))
        for n in wanted:
            if n > 0 and int(self.parent[n]) in inside:
                graph.add_edge(int(self.parent[n]), n, kind="action", label=self.edge_label[n],
                               action=int(self.action_index[n]),
                               probability=float(self.chance_probability[n]))
        for i in sorted({int(self.infoset[n]) for n in wanted if self.infoset[n] >= 0}):
            members = [int(m) for m in self.nodes_of(i) if int(m) in inside]
            for a, b in zip(members[:-1], members[1:]):
                graph.add_edge(a, b, kind="information_set", infoset=i)
        return graph


def build_tree(game: Game) -> GameTree:
    """Expand every history of `game` breadth first into a GameTree.

    The dense [I, A] arrays (and the [N, A] ones solvers and the inspector make) are sized before
    anything is allocated (`cfrviz.util.memory.check_tree_size`): from the game's own tables when it is
    explicit, else after expanding at most MAX_TREE_NODES histories. ValueError says what is too big.
    """
    title = str(getattr(game, "title", "The game"))
    tables = getattr(game, "infosets", None), getattr(game, "num_nodes", None)
    if isinstance(tables[0], tuple) and isinstance(tables[1], int):    # an explicit game: sizes known up front
        widest = max((len(r.actions) for r in tables[0]), default=0)
        memory.check_tree_size(title, tables[1], len(tables[0]), widest)
    states = [game.initial_state()]
    parent, depth, action_index, chance_p = [-1], [0], [0], [1.0]
    edge_label = [""]
    actor, infoset, payoff, first_child, num_children = [], [], [], [], []
    infosets: list[InformationSet] = []
    key_index: dict[str, int] = {}
    members: list[list[int]] = []
    head = 0
    while head < len(states):
        if len(states) > MAX_TREE_NODES:
            raise ValueError(f"{title} has more than {MAX_TREE_NODES:,} histories, more than cfrviz expands; "
                             "choose a smaller game.")
        state = states[head]
        who = state.actor()
        actor.append(who)
        payoff.append(state.payoff() if who == Player.TERMINAL else 0.0)
        first_child.append(len(states))
        if who == Player.TERMINAL:
            infoset.append(-1)
            num_children.append(0)
        elif who == Player.CHANCE:
            infoset.append(-1)
            outcomes = state.chance_outcomes()
            num_children.append(len(outcomes))
            for k, (label, p) in enumerate(outcomes):
                states.append(state.child(k))
                parent.append(head); depth.append(depth[head] + 1)
                action_index.append(k); chance_p.append(p); edge_label.append(label)
        else:
            record = state.information_set()
            if record.key not in key_index:
                key_index[record.key] = len(infosets)
                infosets.append(record)
                members.append([])
            elif infosets[key_index[record.key]].actions != record.actions:
                raise AssertionError(f"Information set {record.key} has differing actions.")
            i = key_index[record.key]
            infoset.append(i)
            members[i].append(head)
            num_children.append(len(record.actions))
            for k, name in enumerate(record.actions):
                states.append(state.child(k))
                parent.append(head); depth.append(depth[head] + 1)
                action_index.append(k); chance_p.append(1.0); edge_label.append(name)
        head += 1

    width = max(len(r.actions) for r in infosets)
    memory.check_tree_size(title, len(states), len(infosets), width)
    legal = np.zeros((len(infosets), width), dtype=bool)
    for i, r in enumerate(infosets):
        legal[i, :len(r.actions)] = True
    starts = np.cumsum([0] + [len(m) for m in members]).astype(np.int64)

    def frozen(values: Any, dtype: Any) -> np.ndarray:
        a = np.asarray(values, dtype=dtype)
        a.setflags(write=False)
        return a

    return GameTree(
        game=game,
        parent=frozen(parent, np.int64), depth=frozen(depth, np.int64), actor=frozen(actor, np.int8),
        infoset=frozen(infoset, np.int64), action_index=frozen(action_index, np.int64),
        chance_probability=frozen(chance_p, np.float64), payoff=frozen(payoff, np.float64),
        first_child=frozen(first_child, np.int64), num_children=frozen(num_children, np.int64),
        node_label=tuple(s.label() for s in states), edge_label=tuple(edge_label),
        infosets=tuple(infosets),
        infoset_player=frozen([r.player for r in infosets], np.int8),
        num_actions=frozen([len(r.actions) for r in infosets], np.int64),
        legal=frozen(legal, bool),
        infoset_node_start=frozen(starts, np.int64),
        infoset_nodes=frozen([n for m in members for n in m], np.int64),
        _key_index=key_index,
    )
