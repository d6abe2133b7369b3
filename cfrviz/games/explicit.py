"""A game given as its whole tree, node by node: what Gambit files and OpenSpiel games become.

Readers (`cfrviz.formats.efg`, `cfrviz.games.openspiel`) check and enumerate a game once
into an `ExplicitGame`; its states are node numbers into flat tuples, so expanding it
with `cfrviz.tree.build_tree` costs no rule evaluation at all.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cfrviz.games.base import CHANCE, PLAYER_1, PLAYER_2, TERMINAL, InformationSet


@dataclass(frozen=True, eq=False)
class ExplicitGame:
    """A two-player zero-sum game as an explicit tree. Node 0 is the root.

    Per node: `actor` (PLAYER_1, PLAYER_2, CHANCE or TERMINAL), `children` (node numbers,
    in action order), `edge_labels` (one per child: action name or chance outcome),
    `chance_probabilities` (one per child at chance nodes, else empty), `infoset`
    (index into `infosets` at decision nodes, else -1), `payoff` (player 1's, at
    terminals) and `labels` (unique names). Identity is the object: two reads of one
    file are two games (compare `sha256` or `game_string` to tell them apart).
    """

    name: str
    title: str
    actor: tuple[int, ...]
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
            if who not in (PLAYER_1, PLAYER_2, CHANCE, TERMINAL):
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

    def actor(self) -> int:
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


def unique_labels(paths: list[tuple[str, ...]], root: str = "root", separator: str = " · ") -> tuple[str, ...]:
    """Labels from each node's path of edge labels, made unique by a '#k' suffix where two paths print alike."""
    labels = [separator.join(path) if path else root for path in paths]
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

    `paths[n]`: the edge labels from the root to node n. `histories[i]`: the player moves
    (no chance outcomes) leading to information set i when every node of the set shares
    them, else the acting player's own moves. `forgetful`: (node, earlier node of the same
    set) where the acting player's own sequence of sets and actions differs, i.e. perfect
    recall fails, or None.
    """

    paths: tuple[tuple[str, ...], ...]
    histories: tuple[tuple[str, ...], ...]
    forgetful: tuple[int, int] | None


def walk_tree(actor: Sequence[int], children: Sequence[Sequence[int]], edge_labels: Sequence[Sequence[str]],
              infoset: Sequence[int], num_infosets: int) -> TreeWalk:
    """One forward pass over node tables in which every parent precedes its children (prefix or breadth first)."""
    n = len(actor)
    paths: list[tuple[str, ...]] = [()] * n
    moves: list[tuple[str, ...]] = [()] * n
    own_moves: list[tuple[tuple[str, ...], tuple[str, ...]]] = [((), ())] * n
    sequences: list[tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]] = [((), ())] * n
    first: dict[int, int] = {}
    shared: dict[int, tuple[str, ...] | None] = {}
    own: dict[int, tuple[str, ...]] = {}
    forgetful: tuple[int, int] | None = None
    for node in range(n):
        who = actor[node]
        labels = edge_labels[node]
        if who == CHANCE:
            for k, child in enumerate(children[node]):
                paths[child] = paths[node] + (labels[k],)
                moves[child], own_moves[child], sequences[child] = moves[node], own_moves[node], sequences[node]
            continue
        if who == TERMINAL:
            continue
        i = infoset[node]
        if i not in first:
            first[i], shared[i], own[i] = node, moves[node], own_moves[node][who]
        else:
            if forgetful is None and sequences[node][who] != sequences[first[i]][who]:
                forgetful = (node, first[i])
            if shared[i] != moves[node]:
                shared[i] = None
        for k, child in enumerate(children[node]):
            paths[child] = paths[node] + (labels[k],)
            moves[child] = moves[node] + (labels[k],)
            mine = own_moves[node][who] + (labels[k],)
            step = sequences[node][who] + ((i, k),)
            own_moves[child] = (mine, own_moves[node][1]) if who == PLAYER_1 else (own_moves[node][0], mine)
            sequences[child] = (step, sequences[node][1]) if who == PLAYER_1 else (sequences[node][0], step)
    histories = tuple(shared.get(i) or own.get(i, ()) for i in range(num_infosets))
    return TreeWalk(tuple(paths), histories, forgetful)
