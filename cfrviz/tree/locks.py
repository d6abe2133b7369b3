"""Node locking: fix the strategy of some information sets and keep the rest of the game to solve.

A lock fixes information set I's strategy to probabilities p over its actions. The locked
player no longer chooses there, so every history of I becomes a chance node with
probabilities p. `restrict(tree, locks)` builds that restricted game as an ordinary
`GameTree`: every solver, best response and the sequence-form linear program then work on it
unchanged, and its exact value is the linear program's value of the restricted tree.

The restricted tree keeps the original's node ids (only actors, chance probabilities and the
information-set table change), so moving a strategy between the two games is a gather or a
scatter over information sets (`RestrictedTree.to_original`, `to_restricted`).

Locks are written `KEY=p1,p2,...` (probabilities in the set's action order, decimals or
fractions such as 1/3), several joined by ";". In a key, "%" and ";" are written %25 and %3B
(and spaces at its ends as %20).

    >>> from cfrviz.catalog import get
    >>> kuhn = get("kuhn").tree()
    >>> locks = Locks.parse("J=0,1; J b=0,1").check(kuhn)
    >>> locks.text()
    'J=0,1;J b=0,1'
    >>> restricted = restrict(kuhn, locks)
    >>> restricted.tree.num_infosets, restricted.tree.num_nodes == kuhn.num_nodes
    (10, True)
"""
from __future__ import annotations

import math
import re
import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from numbers import Real
from urllib.parse import quote, unquote

import numpy as np
from cachetools import LRUCache

from cfrviz.util.vocabulary import Player
from cfrviz.games.explicit import ExplicitGame
from cfrviz.util.text import quoted
from cfrviz.tree.compiled import GameTree, build_tree
from cfrviz.util import idle

__all__ = ["MAX_LOCKS", "MAX_LOCKS_CHARS", "SUM_TOLERANCE", "Locks", "RestrictedTree", "restrict"]

#: Most information sets one solve may lock (a teaching tool locks a few; links and files stay small).
MAX_LOCKS = 32
#: Longest lock text read (all locks together, as in a link or a file).
MAX_LOCKS_CHARS = 4_000
#: Longest single probability, as written.
MAX_PROBABILITY_CHARS = 40
#: How far a lock's probabilities may sum from 1.
SUM_TOLERANCE = 1e-9
#: Restricted trees kept per original tree (the app re-solves a few lock choices per game).
CACHE_PER_TREE = 8
#: Estimated bytes of restricted trees kept over all games: a restricted tree is a whole tree (and
#: keeps its original alive), so a byte bound, not the count alone, keeps strangers' lock choices on
#: large uploaded games from piling up. 160 MB: a few of the largest, every lock choice on Leduc.
CACHE_BYTES = 160_000_000
#: Estimated bytes per history of a compiled tree beyond its arrays (labels, set records).
_BYTES_PER_NODE = 200

# A probability as written: a decimal (1, 0.25, .5, 1e-05) or a fraction of whole numbers (1/3).
_DECIMAL = re.compile(r"(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?")
_FRACTION = re.compile(r"\d+/\d+")
_EXAMPLE = "write KEY=p1,p2,... with one probability per action, such as J=0,1"


def _escape_key(key: str) -> str:
    text = key.replace("%", "%25").replace(";", "%3B")
    # Spaces at either end would be lost to the strip a reader applies around each lock.
    return re.sub(r"^\s+|\s+$", lambda m: quote(m.group(), safe=""), text)


def _number_text(p: float) -> str:
    """The shortest text that reads back as exactly `p` ("0", "1", "0.25", "0.3333333333333333")."""
    return str(int(p)) if p.is_integer() else repr(p)


def _probability(text: str, key: str) -> float:
    """One written probability; ValueError (one sentence) when it is not a non-negative number."""
    shown = text.strip()
    negative = shown.startswith("-")
    body = shown[1:].strip() if negative else shown
    if len(body) > MAX_PROBABILITY_CHARS:
        raise ValueError(f"A probability in the lock on {quoted(key)} is longer than {MAX_PROBABILITY_CHARS} "
                         "characters.")
    if _DECIMAL.fullmatch(body):
        value = float(body)
    elif _FRACTION.fullmatch(body):
        numerator, denominator = (int(part) for part in body.split("/"))
        if denominator == 0:
            raise ValueError(f"{quoted(shown)} in the lock on {quoted(key)} divides by zero.")
        value = float(Fraction(numerator, denominator))
    else:
        raise ValueError(f"{quoted(shown)} in the lock on {quoted(key)} is not a probability; write decimals "
                         "or fractions such as 0.5 or 1/3.")
    if not math.isfinite(value) or value > 1.0 + SUM_TOLERANCE:
        raise ValueError(f"{quoted(shown)} in the lock on {quoted(key)} is more than 1, so it is not a probability.")
    if negative and value > 0.0:
        raise ValueError(f"The lock on {quoted(key)} has a negative probability ({quoted(shown)}).")
    return value


def _checked_probabilities(key: str, probabilities: Sequence[float]) -> tuple[float, ...]:
    """The checks that need no tree: non-negative numbers summing to 1."""
    values: list[float] = []
    for p in probabilities:
        if isinstance(p, bool) or not isinstance(p, Real) or not math.isfinite(float(p)):
            raise ValueError(f"The lock on {quoted(key)} must give numbers, not {quoted(p)}.")
        if p < 0:
            raise ValueError(f"The lock on {quoted(key)} has a negative probability ({float(p):g}).")
        values.append(float(p) + 0.0)     # + 0.0: no -0.0 in a canonical value
    if not values:
        raise ValueError(f"The lock on {quoted(key)} gives no probabilities; {_EXAMPLE}.")
    total = math.fsum(values)
    if abs(total - 1.0) > SUM_TOLERANCE:
        raise ValueError(f"The lock on {quoted(key)} sums to {total:.10g}, not 1.")
    return tuple(values)


@dataclass(frozen=True)
class Locks:
    """Information-set key -> fixed probabilities in the set's action order; frozen and hashable.

    `items` holds (key, probabilities) pairs sorted by key, so equal locks compare and hash
    equal. Build with `Locks.of({...})`, `Locks.parse("KEY=p1,p2;...")`, then `check(tree)`
    for the checks that need the game (known key, one probability per action).
    """

    items: tuple[tuple[str, tuple[float, ...]], ...] = ()

    def __post_init__(self) -> None:
        keys = [key for key, _ in self.items]
        if keys != sorted(set(keys)):
            raise ValueError("Locks keep one entry per key, sorted by key; build them with Locks.of or Locks.parse.")
        for key, probabilities in self.items:
            checked = _checked_probabilities(key, probabilities)
            if not all(type(p) is float for p in probabilities) or checked != probabilities:
                raise ValueError(f"The lock on {quoted(key)} must hold floats; build it with Locks.of.")

    @classmethod
    def of(cls, locks: Locks | Mapping[str, Sequence[float]] | None) -> Locks:
        """Locks from a mapping such as {"J": [0.0, 1.0]} (or None for none); ValueError names the bad one."""
        if locks is None:
            return cls()
        if isinstance(locks, Locks):
            return locks
        if not isinstance(locks, Mapping):
            raise ValueError("Give locks as a mapping from information-set key to probabilities, "
                             "such as {'J': [0.0, 1.0]}.")
        if len(locks) > MAX_LOCKS:
            raise ValueError(f"At most {MAX_LOCKS} information sets can be locked; {len(locks)} locks were given.")
        items: list[tuple[str, tuple[float, ...]]] = []
        for key, probabilities in locks.items():
            if not isinstance(key, str) or not key:
                raise ValueError(f"A lock's key is an information-set key (text), not {quoted(key)}.")
            if isinstance(probabilities, (str, bytes)) or not isinstance(probabilities, Sequence):
                raise ValueError(f"The lock on {quoted(key)} must be a list of probabilities, not "
                                 f"{quoted(probabilities)}.")
            if len(probabilities) > MAX_LOCKS_CHARS:
                raise ValueError(f"The lock on {quoted(key)} gives {len(probabilities):,} probabilities.")
            items.append((key, _checked_probabilities(key, probabilities)))
        return cls(tuple(sorted(items)))

    @classmethod
    def parse(cls, text: str | Iterable[str]) -> Locks:
        """Locks written as text: "KEY=p1,p2,..." items joined by ";" (or an iterable of such texts,
        as repeated command-line options give). ValueError has one sentence for the first problem."""
        texts = [text] if isinstance(text, str) else list(text)
        if not all(isinstance(t, str) for t in texts):
            raise ValueError("Locks are text such as 'J=0,1'.")
        size = sum(len(t) for t in texts)
        if size > MAX_LOCKS_CHARS:
            raise ValueError(f"The locks are {size:,} characters long; at most {MAX_LOCKS_CHARS:,} are read.")
        written = [item for t in texts for item in t.split(";") if item.strip()]
        if len(written) > MAX_LOCKS:
            raise ValueError(f"At most {MAX_LOCKS} information sets can be locked; {len(written)} locks were given.")
        items: dict[str, tuple[float, ...]] = {}
        for item in written:
            raw_key, equals, numbers = item.strip().rpartition("=")
            if not equals or not raw_key.strip():
                raise ValueError(f"{quoted(item.strip())} is not a lock; {_EXAMPLE}.")
            key = unquote(raw_key.strip())
            if key in items:
                raise ValueError(f"{quoted(key)} is locked twice; give each information set one lock.")
            parts = numbers.split(",")
            if not numbers.strip() or any(not part.strip() for part in parts):
                raise ValueError(f"The lock on {quoted(key)} has an empty probability; {_EXAMPLE}.")
            items[key] = _checked_probabilities(key, [_probability(part, key) for part in parts])
        return cls(tuple(sorted(items.items())))

    def text(self) -> str:
        """The canonical text ("J=0,1;J b=0,1"): keys escaped, probabilities as the shortest exact decimals.
        `Locks.parse(locks.text()) == locks`."""
        return ";".join(f"{_escape_key(key)}={','.join(_number_text(p) for p in probabilities)}"
                        for key, probabilities in self.items)

    def as_dict(self) -> dict[str, list[float]]:
        """{key: [p1, p2, ...]}: the form JSON files and `Locks.of` use."""
        return {key: list(probabilities) for key, probabilities in self.items}

    def check(self, tree: GameTree) -> Locks:
        """These locks, if each names a set of `tree` and gives one probability per action, and at
        least one set stays free; otherwise ValueError with one sentence."""
        for key, probabilities in self.items:
            try:
                i = tree.infoset_index(key)
            except ValueError:
                examples = ", ".join(quoted(r.key) for r in tree.infosets[:3])
                raise ValueError(f"{tree.game.title} has no information set {quoted(key)} to lock; "
                                 f"keys look like {examples}.") from None
            actions = tree.infosets[i].actions
            if len(probabilities) != len(actions):
                raise ValueError(f"The lock on {quoted(key)} gives {len(probabilities)} probabilities; its "
                                 f"{len(actions)} actions are {', '.join(actions)}.")
        if self.items and len(self.items) >= tree.num_infosets:
            raise ValueError(f"Every information set of {tree.game.title} is locked; leave at least one to solve.")
        return self

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self) -> Iterator[str]:
        return (key for key, _ in self.items)

    def __contains__(self, key: object) -> bool:
        return any(key == k for k, _ in self.items)

    def __getitem__(self, key: str) -> tuple[float, ...]:
        for k, probabilities in self.items:
            if k == key:
                return probabilities
        raise KeyError(key)


@dataclass(frozen=True, eq=False)
class RestrictedTree:
    """The game left when `locks` fix some information sets of `original`: their histories are chance nodes.

    tree                the restricted game as a GameTree, with the original's node ids (I' sets, A' widest)
    original_infoset    [I'] the original id of each restricted set
    restricted_infoset  [I] the restricted id of each original set, -1 at locked sets
    locked              [I] bool, True at locked sets
    lock_strategy       [I, A] the lock's probabilities at locked sets, zero elsewhere
    """

    original: GameTree
    locks: Locks
    tree: GameTree
    original_infoset: np.ndarray
    restricted_infoset: np.ndarray
    locked: np.ndarray
    lock_strategy: np.ndarray

    def to_original(self, restricted: np.ndarray, locked_value: float | None = None) -> np.ndarray:
        """[..., I, A] from an array [..., I', A'] over the restricted sets.

        Locked sets get the lock (a strategy) or `locked_value` everywhere (e.g. 0.0 for regrets).
        """
        array = np.asarray(restricted, dtype=np.float64)
        lead = array.shape[:-2]
        if array.shape[-2:] != self.tree.legal.shape:
            raise ValueError(f"Expected an array [..., {self.tree.num_infosets}, {self.tree.max_actions}] over "
                             f"the restricted game's sets, not {list(array.shape)}.")
        if locked_value is None:
            out = np.broadcast_to(self.lock_strategy, lead + self.lock_strategy.shape).copy()
        else:
            out = np.full(lead + self.lock_strategy.shape, float(locked_value))
        out[..., self.original_infoset, :self.tree.max_actions] = array
        return out

    def to_restricted(self, original: np.ndarray) -> np.ndarray:
        """[..., I', A'] the free sets' rows of an array [..., I, A] over the original sets."""
        array = np.asarray(original, dtype=np.float64)
        if array.shape[-2:] != self.original.legal.shape:
            raise ValueError(f"Expected an array [..., {self.original.num_infosets}, {self.original.max_actions}] "
                             f"over {self.original.game.title}'s sets, not {list(array.shape)}.")
        return np.ascontiguousarray(array[..., self.original_infoset, :self.tree.max_actions])

    def with_locks(self, original: np.ndarray) -> np.ndarray:
        """[..., I, A] a copy of a strategy over the original sets with every locked set playing its lock."""
        array = np.array(original, dtype=np.float64)
        array[..., self.locked, :] = self.lock_strategy[self.locked]
        return array


def _restricted_game(tree: GameTree, locks: Locks, lock_rows: dict[int, tuple[float, ...]]) -> ExplicitGame:
    """The restricted game as an explicit tree numbered like `tree` (breadth first, so it compiles to the same ids)."""
    kept = [i for i in range(tree.num_infosets) if i not in lock_rows]
    new_id = {old: new for new, old in enumerate(kept)}
    actor, children, edge_labels, chance_probabilities, infoset = [], [], [], [], []
    for n in range(tree.num_nodes):
        kids = tuple(tree.children(n))
        children.append(kids)
        edge_labels.append(tuple(tree.edge_label[c] for c in kids))
        i = int(tree.infoset[n])
        if i in lock_rows:
            actor.append(Player.CHANCE)
            chance_probabilities.append(lock_rows[i])
            infoset.append(-1)
        else:
            actor.append(Player(int(tree.actor[n])))
            chance_probabilities.append(tuple(float(tree.chance_probability[c]) for c in kids)
                                        if actor[-1] == Player.CHANCE else ())
            infoset.append(new_id[i] if i >= 0 else -1)
    game = tree.game
    title = f"{game.title}, locked at {', '.join(locks)}"
    return ExplicitGame(
        name=f"{game.name}_locked", title=title, actor=tuple(actor), children=tuple(children),
        edge_labels=tuple(edge_labels), chance_probabilities=tuple(chance_probabilities), infoset=tuple(infoset),
        infosets=tuple(tree.infosets[i] for i in kept), payoff=tuple(float(u) for u in tree.payoff),
        labels=tree.node_label,
        description=f"{title}: the locked sets' histories are chance nodes playing the lock.",
        players=getattr(game, "players", ("Player 1", "Player 2")))


def _restrict(tree: GameTree, locks: Locks) -> RestrictedTree:
    locks.check(tree)
    width = tree.max_actions
    lock_strategy = np.zeros((tree.num_infosets, width))
    lock_rows: dict[int, tuple[float, ...]] = {}
    for key, probabilities in locks.items:
        i = tree.infoset_index(key)
        lock_rows[i] = probabilities
        lock_strategy[i, :len(probabilities)] = probabilities
    locked = np.zeros(tree.num_infosets, dtype=bool)
    locked[list(lock_rows)] = True
    restricted = tree if not lock_rows else build_tree(_restricted_game(tree, locks, lock_rows))
    original_infoset = np.flatnonzero(~locked).astype(np.int64)
    restricted_infoset = np.full(tree.num_infosets, -1, dtype=np.int64)
    restricted_infoset[original_infoset] = np.arange(len(original_infoset))
    # Breadth-first numbering on both sides: the same nodes, and the free sets in the same order.
    if (restricted.num_nodes != tree.num_nodes or not np.array_equal(restricted.parent, tree.parent)
            or [r.key for r in restricted.infosets] != [tree.infosets[i].key for i in original_infoset]):
        raise AssertionError("The restricted tree does not keep the original's numbering.")
    for array in (original_infoset, restricted_infoset, locked, lock_strategy):
        array.setflags(write=False)
    return RestrictedTree(tree, locks, restricted, original_infoset, restricted_infoset, locked, lock_strategy)


def _tree_bytes(tree: GameTree) -> int:
    arrays = sum(value.nbytes for value in vars(tree).values() if isinstance(value, np.ndarray))
    return arrays + tree.num_nodes * _BYTES_PER_NODE


def _restricted_bytes(made: RestrictedTree) -> int:
    """Estimated bytes an entry holds: the restricted tree twice (its arrays and labels, and its game,
    an explicit copy of the tree) and the original tree, which the entry keeps alive."""
    if made.tree is made.original:
        return 1_000
    return 2 * _tree_bytes(made.tree) + _tree_bytes(made.original) + made.lock_strategy.nbytes


# (id(original tree), locks) -> its restricted tree, least recently used out first, within CACHE_BYTES.
# An entry holds its original tree (RestrictedTree.original), so the id is not reused while it lives.
_cache: LRUCache[tuple[int, Locks], RestrictedTree] = LRUCache(maxsize=CACHE_BYTES, getsizeof=_restricted_bytes)
_cache_lock = threading.Lock()


def _empty() -> None:
    with _cache_lock:
        _cache.clear()


idle.on_idle("locked trees", _empty)   # emptied when the last visitor has gone


def restrict(tree: GameTree, locks: Locks | Mapping[str, Sequence[float]] | None) -> RestrictedTree:
    """The game `tree` with `locks` fixed: each locked set's histories become chance nodes with the lock's
    probabilities. The same (tree, locks) gives the same RestrictedTree object (a few kept per tree, within
    CACHE_BYTES in all), so caches keyed by tree (the linear program, best response) are shared.
    ValueError says what is wrong.
    """
    chosen = Locks.of(locks)
    key = (id(tree), chosen)
    with _cache_lock:
        found = _cache.get(key)
        if found is not None and found.original is tree:
            return found
    made = _restrict(tree, chosen)        # outside the lock: building must not hold up other sessions
    with _cache_lock:
        if _restricted_bytes(made) <= CACHE_BYTES:      # a larger one is returned, not kept
            _cache[key] = made
        mine = [k for k in _cache if k[0] == id(tree)]
        for old in mine[:max(len(mine) - CACHE_PER_TREE, 0)]:      # in the order they were added
            _cache.pop(old, None)
    return made
