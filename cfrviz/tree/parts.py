"""Parts of a game tree small enough to draw, chosen so that information sets stay whole.

A poker tree is split by one player's private card: the part "player 2 holds Q" is every deal
where player 2 holds Q, so each information set of player 2 with Q is drawn with all its
histories (one per card player 1 might hold). A two-round game (Leduc) keeps round 1 in that
part and drills down into round 2 by the round-1 betting line and the public card; the public
card is the one the information sets name (a rank, when suits are dealt but ignored).

Games without private cards (a hand-written or OpenSpiel game) fall back to subtrees: the
root's subtree while it has few enough leaves, else its children's, and so on down.

Pure functions of a `GameTree`; nothing here draws.

>>> from cfrviz.catalog import compile_game
>>> leduc = compile_game("leduc")
>>> part = part_of(leduc, leduc.node_label.index("QQ k"))
>>> part.label
'player 2 holds Q, round 1'
>>> sorted(leduc.node_label[n] for n in part_nodes(leduc, part) if leduc.node_label[n].endswith(" k"))
['JQ k', 'KQ k', 'QQ k']
"""
from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import Literal

import numpy as np

from cfrviz.util.vocabulary import DECISION_PLAYERS, Player
from cfrviz.games.base import ACTION_LETTERS
from cfrviz.tree.compiled import GameTree
from cfrviz.tree.naming import moves_in_words

__all__ = ["BY_CARD", "MAX_PART_LEAVES", "Part", "card_view", "cards", "checked_part", "label_of", "lines", "part_nodes",
           "part_of", "parts", "public_cards"]

#: The views that split a tree by a player's private card: the player whose card it is.
BY_CARD: tuple[Player, ...] = DECISION_PLAYERS
#: A view of a tree: whole, in subtrees, or split by one player's private card (`BY_CARD`).
View = Player | Literal["whole", "subtree"]
#: Most leaves of a part in the general (subtree) view.
MAX_PART_LEAVES = 40

_NAMES: dict[Player | str, str] = {Player.FIRST: "player 1", Player.SECOND: "player 2"}


@dataclass(frozen=True)
class Part:
    """One drawable part of a tree.

    by      "whole", a `Player` (split by that player's private card), or "subtree"
    card    the private card of that player (card views)
    line    round-1 betting line in action letters, e.g. "kbc", for a round-2 drill-down
    public  the public card of that drill-down, as the information sets name it
    root    the node whose subtree this is ("subtree" view)
    """

    by: View
    card: str | None = None
    line: str | None = None
    public: str | None = None
    root: int | None = None

    @property
    def label(self) -> str:
        """The part in words, e.g. "player 2 holds Q, after kbc with public card K"."""
        if self.by == "whole":
            return "the whole tree"
        if self.by == "subtree":
            return f"below node {self.root}"
        head = f"{_NAMES[self.by]} holds {self.card}"
        if self.line is None:
            return f"{head}, round 1"
        return f"{head}, after {self.line or 'no bets'} with public card {self.public}"


@dataclass(frozen=True)
class _Deals:
    """What the card views need, computed once per tree.

    deals: the root's children; card[d] = (player 1's, player 2's) private card below deal d;
    round_one[d]: deal d's nodes down to (and including) its public-card chance nodes;
    chance[d]: (public-card chance node, round-1 line) pairs below deal d;
    public[c]: the public card of each chance outcome c below those chance nodes.
    """

    deals: tuple[int, ...]
    card: dict[int, tuple[str, str]]
    round_one: dict[int, tuple[int, ...]]
    chance: dict[int, tuple[tuple[int, str], ...]]
    public: dict[int, str]
    card_order: tuple[str, ...]


_DEALS: weakref.WeakKeyDictionary[GameTree, _Deals | None] = weakref.WeakKeyDictionary()


def _letter(name: str) -> str:
    return ACTION_LETTERS.get(name, name)


def _deals(tree: GameTree) -> _Deals | None:
    """The card-view tables, or None when the tree is not dealt by a chance root with private cards."""
    if tree in _DEALS:
        return _DEALS[tree]
    result = _build_deals(tree)
    _DEALS[tree] = result
    return result


def _build_deals(tree: GameTree) -> _Deals | None:
    if tree.num_nodes < 2 or int(tree.actor[0]) != Player.CHANCE:
        return None
    deals = tuple(tree.children(0))
    deal_of = np.full(tree.num_nodes, -1, dtype=np.int64)
    line = [""] * tree.num_nodes
    in_round_one = np.zeros(tree.num_nodes, dtype=bool)
    found: dict[int, list[str | None]] = {d: [None, None] for d in deals}
    round_one: dict[int, list[int]] = {d: [] for d in deals}
    chance: dict[int, list[tuple[int, str]]] = {d: [] for d in deals}
    public: dict[int, str] = {}
    for d in deals:
        deal_of[d] = d
        in_round_one[d] = True
    for n in range(1, tree.num_nodes):           # breadth first: a parent precedes its children
        parent = int(tree.parent[n])
        if parent > 0:
            deal_of[n] = deal_of[parent]
            in_round_one[n] = in_round_one[parent] and int(tree.actor[parent]) != Player.CHANCE
            if in_round_one[n]:
                line[n] = line[parent] + _letter(tree.edge_label[n])
        d = int(deal_of[n])
        if in_round_one[n]:
            round_one[d].append(n)
            if int(tree.actor[n]) == Player.CHANCE:
                chance[d].append((n, line[n]))
        i = int(tree.infoset[n])
        if i >= 0:
            record = tree.infosets[i]
            if record.private is None:
                return None
            if found[d][record.player] is None:
                found[d][record.player] = record.private
    for d in deals:
        for node, _ in chance[d]:
            for c in tree.children(node):
                public[c] = _public_below(tree, c)
    if any(None in pair for pair in found.values()):
        return None
    card = {d: (str(found[d][0]), str(found[d][1])) for d in deals}
    order: list[str] = []
    for player in (0, 1):
        for d in deals:
            if card[d][player] not in order:
                order.append(card[d][player])
    return _Deals(deals, card, {d: tuple(v) for d, v in round_one.items()},
                  {d: tuple(v) for d, v in chance.items()}, public, tuple(order))


def _public_below(tree: GameTree, node: int) -> str:
    """The public card the information sets below `node` name (the edge label if none does)."""
    stack = [node]
    while stack:
        n = stack.pop()
        i = int(tree.infoset[n])
        if i >= 0 and tree.infosets[i].public is not None:
            return str(tree.infosets[i].public)
        stack.extend(tree.children(n))
    return tree.edge_label[node]


def card_view(tree: GameTree) -> bool:
    """Whether the tree can be split by a player's private card (a chance deal, then private cards)."""
    return _deals(tree) is not None


def _card_tables(tree: GameTree, by: View) -> tuple[_Deals, Player]:
    if not isinstance(by, Player) or by not in BY_CARD:
        raise ValueError(f"Split a tree by player 1's or player 2's cards, not {by!r}.")
    tables = _deals(tree)
    if tables is None:
        raise ValueError(f"{tree.game.title} has no private cards to split it by; use its subtrees.")
    return tables, by


def cards(tree: GameTree, by: View = Player.FIRST) -> tuple[str, ...]:
    """The private cards the player `by` can hold, in deck order."""
    tables, player = _card_tables(tree, by)
    held = {tables.card[d][player] for d in tables.deals}
    return tuple(c for c in tables.card_order if c in held)


def lines(tree: GameTree, by: View, card: str) -> tuple[str, ...]:
    """Round-1 betting lines that reach a public card in the deals where `by` holds `card`."""
    tables, player = _card_tables(tree, by)
    out: list[str] = []
    for d in tables.deals:
        if tables.card[d][player] == card:
            out.extend(text for _, text in tables.chance[d] if text not in out)
    return tuple(out)


def label_of(tree: GameTree, part: Part) -> str:
    """`part` in words: a subtree by the moves that lead to it, in the game's own action names
    ("after chance: Roll 1, Roll 1; player 1: 1-1 (node 13)"); a card view as `part.label`, without
    "round 1" in a game that has only one round (Kuhn with any deck)."""
    if part.by == "subtree" and part.root is not None and 0 <= part.root < tree.num_nodes:
        if part.root == 0:
            return "the whole game from its start (node 0)"
        return f"after {moves_in_words(tree, part.root)} (node {part.root})"
    if part.line is None and part.card is not None and isinstance(part.by, Player) and part.by in _NAMES \
            and not lines(tree, part.by, part.card):
        return f"{_NAMES[part.by]} holds {part.card}"
    return part.label


def public_cards(tree: GameTree, by: View | None = None, card: str | None = None,
                 line: str | None = None) -> tuple[str, ...]:
    """Public cards, as the information sets name them; only those possible in the part's deals
    and after its line when `by`, `card` and `line` are given."""
    tables = _deals(tree)
    if tables is None:
        return ()
    player = by if isinstance(by, Player) and by in BY_CARD else None
    seen: list[str] = []
    for d in tables.deals:
        if player is not None and card is not None and tables.card[d][player] != card:
            continue
        for node, text in tables.chance[d]:
            if line is not None and text != line:
                continue
            seen.extend(tables.public[c] for c in tree.children(node) if tables.public[c] not in seen)
    rank = {c: k for k, c in enumerate(tables.card_order)}
    return tuple(sorted(seen, key=lambda c: (rank.get(c, len(rank)), c)))


def parts(tree: GameTree, by: View = Player.FIRST, max_leaves: int = MAX_PART_LEAVES) -> list[Part]:
    """Every part of one view: "whole", a card view (a `Player`: round 1 for each card of theirs,
    then each round-2 drill-down), or "subtree" (subtrees of at most `max_leaves` leaves)."""
    if by == "whole":
        return [Part("whole")]
    if by == "subtree":
        return [Part("subtree", root=r) for r in _subtree_roots(tree, max_leaves)]
    out = [Part(by, card=c) for c in cards(tree, by)]
    for c in cards(tree, by):
        for text in lines(tree, by, c):
            out.extend(Part(by, card=c, line=text, public=p) for p in public_cards(tree, by, c, text))
    return out


_LEAF_COUNTS: weakref.WeakKeyDictionary[GameTree, np.ndarray] = weakref.WeakKeyDictionary()


def _leaf_counts(tree: GameTree) -> np.ndarray:
    """[N] terminals below each node (a terminal counts itself), summed one depth level at a time."""
    counts = _LEAF_COUNTS.get(tree)
    if counts is None:
        counts = (tree.actor == Player.TERMINAL).astype(np.int64)
        for depth in range(int(tree.depth.max()), 0, -1):
            level = np.flatnonzero(tree.depth == depth)
            np.add.at(counts, tree.parent[level], counts[level])
        counts.setflags(write=False)   # shared by every session's thread
        _LEAF_COUNTS[tree] = counts
    return counts


def _subtree_roots(tree: GameTree, max_leaves: int) -> list[int]:
    """Nodes whose subtrees fit in `max_leaves` leaves, splitting from the root down; every leaf
    lies in exactly one of them."""
    counts = _leaf_counts(tree)
    roots: list[int] = []
    stack = [0]
    while stack:
        n = stack.pop()
        if counts[n] <= max_leaves or int(tree.actor[n]) == Player.TERMINAL:
            roots.append(n)
        else:
            stack.extend(reversed(tree.children(n)))
    return roots


def _subtree(tree: GameTree, start: int) -> list[int]:
    out, stack = [], [start]
    while stack:
        n = stack.pop()
        out.append(n)
        stack.extend(tree.children(n))
    return out


def _path_to(tree: GameTree, node: int) -> list[int]:
    """Node ids from the root down to `node`, both included."""
    path = [node]
    while path[-1] > 0:
        path.append(int(tree.parent[path[-1]]))
    return path[::-1]


def part_nodes(tree: GameTree, part: Part) -> np.ndarray:
    """Sorted node ids of `part`: for a card view the root, the deals where the player holds the
    card and round 1 of each (its public-card chance nodes end it); for a drill-down the path of
    each such deal along the line, then the public card's outcomes and all of round 2."""
    if part.by == "whole":
        return np.arange(tree.num_nodes, dtype=np.int64)
    if part.by == "subtree":
        if part.root is None or not 0 <= part.root < tree.num_nodes:
            raise ValueError(f"A subtree part needs a root node between 0 and {tree.num_nodes - 1}.")
        return np.array(sorted(set(_path_to(tree, part.root)) | set(_subtree(tree, part.root))), dtype=np.int64)
    tables, player = _card_tables(tree, part.by)
    deals = [d for d in tables.deals if tables.card[d][player] == part.card]
    if not deals:
        raise ValueError(f"{_NAMES[part.by].capitalize()} cannot hold {part.card!r} in {tree.game.title}; "
                         f"choose one of {', '.join(cards(tree, part.by))}.")
    nodes = {0}
    for d in deals:
        if part.line is None:
            nodes.update(tables.round_one[d])
            continue
        for chance_node, text in tables.chance[d]:
            if text != part.line:
                continue
            nodes.update(_path_to(tree, chance_node))
            for c in tree.children(chance_node):
                if tables.public[c] == part.public:
                    nodes.update(_subtree(tree, c))
    return np.array(sorted(nodes), dtype=np.int64)


def _acting_player(tree: GameTree, node: int) -> Player:
    """Who acts at `node`, or for chance and terminal nodes who acted last above it (player 1 if nobody)."""
    n = node
    while n >= 0:
        who = int(tree.actor[n])
        if who in BY_CARD:
            return Player(who)
        n = int(tree.parent[n])
    return Player.FIRST


def part_of(tree: GameTree, node: int, by: View | None = None) -> Part:
    """The part of view `by` that holds `node`. `by=None` picks the view of the player who acts
    at `node`, so that node's information set is drawn whole; trees without private cards get
    their "subtree" part: the one whose subtree holds `node`, or for a node above every part (a
    big tree's root) the first part below it, which is drawn with its path through `node`.
    The part is always one of `parts(tree, view)`."""
    if not 0 <= node < tree.num_nodes:
        raise ValueError(f"Node {node} is not in the tree (0 to {tree.num_nodes - 1}).")
    tables = _deals(tree)
    if by == "whole":
        return Part("whole")
    if by == "subtree" or tables is None:
        counts = _leaf_counts(tree)
        for n in _path_to(tree, node):
            if counts[n] <= MAX_PART_LEAVES or int(tree.actor[n]) == Player.TERMINAL:
                return Part("subtree", root=n)
        # A node above every drawn part (the root of a big tree): the first part below it, whose
        # drawing runs down from the root through the node, so the node is drawn.
        n = node
        while not (counts[n] <= MAX_PART_LEAVES or int(tree.actor[n]) == Player.TERMINAL):
            n = int(tree.children(n)[0])
        return Part("subtree", root=n)
    if by is None:
        by = _acting_player(tree, node)
    tables, player = _card_tables(tree, by)
    if node == 0:
        return Part(by, card=cards(tree, by)[0])
    path = _path_to(tree, node)
    deal = path[1]
    card = tables.card[deal][player]
    for chance_node, text in tables.chance[deal]:
        if chance_node in path[:-1]:
            below = path[path.index(chance_node) + 1]
            return Part(by, card=card, line=text, public=tables.public[below])
    return Part(by, card=card)


def checked_part(tree: GameTree, by: Player | str, card: str | None = None, line: str | None = None,
                 public: str | None = None, node: int | None = None) -> Part:
    """A valid part from values that may be stale or made up (widgets, links): the requested one
    when it exists and holds `node`, else the part of view `by` that holds `node`, else the
    first part of that view. Never raises for a known view."""
    if by in ("whole", "subtree") or not card_view(tree):
        view: View = "whole" if by == "whole" else "subtree"
        if node is not None and 0 <= node < tree.num_nodes:
            return part_of(tree, node, view)
        return parts(tree, view)[0]
    if not isinstance(by, Player) or by not in BY_CARD:
        by = Player.FIRST
    held = cards(tree, by)
    if card not in held:
        card, line = held[0], None
    if line is not None and line not in lines(tree, by, card):
        line = None
    if line is None:
        public = None
    elif public not in public_cards(tree, by, card, line):
        public = public_cards(tree, by, card, line)[0]
    chosen = Part(by, card=card, line=line, public=public)
    if node is not None and 0 < node < tree.num_nodes and node not in set(part_nodes(tree, chosen).tolist()):
        return part_of(tree, node, by)
    return chosen
