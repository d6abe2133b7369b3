"""A game given as its whole tree, node by node: what Gambit files and OpenSpiel games become.

Readers (`cfrviz.games.efg`, `cfrviz.games.openspiel`) check and enumerate a game once
into an `ExplicitGame`; its states are node numbers into flat tuples, so expanding it
with `cfrviz.tree.build_tree` costs no rule evaluation at all.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cfrviz.games.base import InformationSet
from cfrviz.util.vocabulary import Player


@dataclass(frozen=True, eq=False)
class ExplicitGame:
    """A two-player zero-sum game as an explicit tree. Node 0 is the root.

    Per node: `actor` (a `Player`), `children` (node numbers,
    in action order), `edge_labels` (one per child: action name or chance outcome),
    `chance_probabilities` (one per child at chance nodes, else empty), `infoset`
    (index into `infosets` at decision nodes, else -1), `payoff` (player 1's, at
    terminals) and `labels` (unique names). Identity is the object: two reads of one
    file are two games (compare `sha256` or `game_string` to tell them apart).
    """

    name: str
    title: str
    actor: tuple[Player, ...]
    children: tuple[tuple[int, ...], ...]
    edge_labels: tuple[tuple[str, ...], ...]
    chance_probabilities: tuple[tuple[float, ...], ...]
    infoset: tuple[int, ...]
    infosets: tuple[InformationSet, ...]
    payoff: tuple[float, ...]
    labels: tuple[str, ...]
    description: str = ""
    players: tuple[str, str] = ("Player 1", "Player 2")

    def __post_init__(self) -> None:
        n = len(self.actor)
        sizes = {len(self.children), len(self.edge_labels), len(self.chance_probabilities), len(self.infoset),
                 len(self.payoff), len(self.labels)}
        if sizes != {n} or n == 0:
            raise ValueError("An explicit game needs one entry per node in every node table.")
        for who in self.actor:
            if who not in (Player.FIRST, Player.SECOND, Player.CHANCE, Player.TERMINAL):
                raise ValueError(f"Unknown actor {who!r} in an explicit game.")

    @property
    def num_nodes(self) -> int:
        return len(self.actor)

    def initial_state(self) -> ExplicitState:
        return ExplicitState(self, 0)


@dataclass(frozen=True)
class ExplicitState:
    """One node of an `ExplicitGame`."""

    game: ExplicitGame
    node: int

    def actor(self) -> Player:
        return self.game.actor[self.node]

    def legal_actions(self) -> tuple[str, ...]:
        return self.game.edge_labels[self.node]

    def chance_outcomes(self) -> tuple[tuple[str, float], ...]:
        return tuple(zip(self.game.edge_labels[self.node], self.game.chance_probabilities[self.node]))

    def child(self, index: int) -> ExplicitState:
        return ExplicitState(self.game, self.game.children[self.node][index])

    def payoff(self) -> float:
        return self.game.payoff[self.node]

    def information_set(self) -> InformationSet:
        i = self.game.infoset[self.node]
        if i < 0:
            raise ValueError(f"Node {self.game.labels[self.node]!r} is not a decision node.")
        return self.game.infosets[i]

    def label(self) -> str:
        return self.game.labels[self.node]


#: Longest path text used as a node label; longer paths keep their last moves after an ellipsis.
MAX_LABEL_CHARS = 80
#: Most moves kept in an information set's history; a longer one starts with "…" (keeps deep trees linear).
MAX_HISTORY = 32


def unique_labels(labels: Sequence[str]) -> tuple[str, ...]:
    """`labels` made unique by a ' #n' suffix (n the node number) where two nodes print alike."""
    seen: dict[str, int] = {}
    for label in labels:
        seen[label] = seen.get(label, 0) + 1
    taken = set(labels)
    out: list[str] = []
    for n, label in enumerate(labels):
        if seen[label] > 1:
            candidate = f"{label} #{n}"
            while candidate in taken:
                candidate += "'"
            taken.add(candidate)
            label = candidate
        out.append(label)
    return tuple(out)


@dataclass(frozen=True)
class TreeWalk:
    """What one pass over an explicit tree learns.

    `path_labels[n]`: the edge labels from the root to node n joined by " · " ("root" at the
    root; a long path keeps its last moves after "…"). `histories[i]`: the player moves (no
    chance outcomes) leading to information set i when every node of the set shares them,
    else the acting player's own moves; at most the last MAX_HISTORY, after "…". `forgetful`: (node, earlier node of the same set)
    where the acting player's own sequence of sets and actions differs, i.e. perfect recall
    fails, or None.
    """

    path_labels: tuple[str, ...]
    histories: tuple[tuple[str, ...], ...]
    forgetful: tuple[int, int] | None


class _Interned:
    """Sequences as ids: (parent id, step) -> id, so a node stores one int, not its whole path."""

    def __init__(self) -> None:
        self.ids: dict[tuple[int, object], int] = {}
        self.parent: list[int] = [-1]
        self.step: list[object] = [None]

    def extend(self, parent: int, step: object) -> int:
        key = (parent, step)
        found = self.ids.get(key)
        if found is None:
            found = self.ids[key] = len(self.parent)
            self.parent.append(parent)
            self.step.append(step)
        return found

    def steps(self, sequence: int, most: int | None = None) -> list[object]:
        """The steps of a sequence, first to last (only the last `most` if given)."""
        out: list[object] = []
        while sequence > 0 and (most is None or len(out) < most):
            out.append(self.step[sequence])
            sequence = self.parent[sequence]
        return out[::-1]


def _path_label(paths: _Interned, path: int) -> str:
    if path == 0:
        return "root"
    parts: list[str] = []
    size = 0
    cursor = path
    while cursor > 0:
        part = str(paths.step[cursor])
        if parts and size + len(part) + 3 > MAX_LABEL_CHARS:
            return "… " + " · ".join(parts[::-1])
        parts.append(part if len(part) <= MAX_LABEL_CHARS else part[:MAX_LABEL_CHARS - 1] + "…")
        size += len(part) + 3
        cursor = paths.parent[cursor]
    return " · ".join(parts[::-1])


def walk_tree(actor: Sequence[int], children: Sequence[Sequence[int]], edge_labels: Sequence[Sequence[str]],
              infoset: Sequence[int], num_infosets: int) -> TreeWalk:
    """One forward pass over node tables in which every parent precedes its children (prefix or breadth first).

    Time and memory are linear in the number of nodes, whatever the depth.
    """
    n = len(actor)
    paths, moves, own, sequences = _Interned(), _Interned(), _Interned(), _Interned()
    path = [0] * n
    move = [0] * n
    own_move = [(0, 0)] * n
    sequence = [(0, 0)] * n
    first: dict[int, int] = {}
    shared: dict[int, bool] = {}
    forgetful: tuple[int, int] | None = None
    for node in range(n):
        who = actor[node]
        labels = edge_labels[node]
        if who == Player.TERMINAL:
            continue
        if who == Player.CHANCE:
            for k, child in enumerate(children[node]):
                path[child] = paths.extend(path[node], labels[k])
                move[child], own_move[child], sequence[child] = move[node], own_move[node], sequence[node]
            continue
        i = infoset[node]
        if i not in first:
            first[i], shared[i] = node, True
        else:
            if forgetful is None and sequence[node][who] != sequence[first[i]][who]:
                forgetful = (node, first[i])
            if move[node] != move[first[i]]:
                shared[i] = False
        for k, child in enumerate(children[node]):
            path[child] = paths.extend(path[node], labels[k])
            move[child] = moves.extend(move[node], labels[k])
            mine = own.extend(own_move[node][who], labels[k])
            step = sequences.extend(sequence[node][who], (i, k))
            own_move[child] = (mine, own_move[node][1]) if who == Player.FIRST else (own_move[node][0], mine)
            sequence[child] = (step, sequence[node][1]) if who == Player.FIRST else (sequence[node][0], step)
    histories: list[tuple[str, ...]] = []
    for i in range(num_infosets):
        if i not in first:
            histories.append(())
            continue
        node = first[i]
        chain, last = (moves, move[node]) if shared[i] else (own, own_move[node][actor[node]])
        steps = [str(step) for step in chain.steps(last, MAX_HISTORY + 1)]
        histories.append(tuple(steps) if len(steps) <= MAX_HISTORY else ("…", *steps[1:]))
    return TreeWalk(tuple(_path_label(paths, path[node]) for node in range(n)), tuple(histories), forgetful)
