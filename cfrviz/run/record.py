"""What a solve leaves behind: snapshots of every information set over the iterations.

`Run` is the record; `RunSettings` the plain values that produced it. The file formats live
in one module each, as functions over a `Run`: `cfrviz.run.npz` (the whole run as `.npz`:
`save_run`, `load_run`) and `cfrviz.run.strategy_json` (one snapshot's strategies as JSON:
`export_strategy`, `run_from_strategy_json`). They import the record; it never imports them.
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from cfrviz.catalog import GameSpec
from cfrviz.games.efg import MAX_EFG_BYTES
from cfrviz.util.memory import MAX_DEFAULT_SNAPSHOTS
from cfrviz.util.safe_json import dumps_counted, loads_bounded
from cfrviz.util.vocabulary import ALGORITHMS, UPDATE_SCHEMES, Algorithm, UpdateScheme, unknown_algorithm
from cfrviz.util.text import quoted
from cfrviz.tree import GameTree
from cfrviz.tree.locks import Locks

#: Snapshots taken by the default schedule: every iteration up to this one, then log-spaced.
DENSE_SNAPSHOTS = 1_000
#: How far a stored probability may stray from summing to 1.
PROBABILITY_TOLERANCE = 1e-6

#: Most iterations a recorded run may claim (far above any solver cap; keeps counts in int64).
MAX_RECORDED_ITERATIONS = 10**12
#: Largest seed a recorded run may carry (numpy's generators take any int64).
MAX_RECORDED_SEED = 2**63 - 1
#: Largest settings text inside a saved run (a 10 x 10 matrix game's is about 2 kB; an .efg game's
#: carries its file, at most MAX_EFG_BYTES, which JSON's escapes may double).
MAX_SETTINGS_BYTES = 2 * MAX_EFG_BYTES + 100_000

SNAPSHOT_FIELDS = ("cumulative_regret", "current_strategy", "average_strategy", "reach", "value",
                    "expected_value", "exploitability", "nodes_touched", "seconds")
#: Snapshot fields a saved run may lack (files written before they existed); they load as NaN.
OPTIONAL_FIELDS = ("current_exploitability",)
#: Arrays every saved run holds.
REQUIRED_RUN_ARRAYS = frozenset(("format", "settings", "average_strategy_value", "iterations") + SNAPSHOT_FIELDS)
#: Every array name a saved run may hold (the required ones and the optional fields).
RUN_ARRAYS = frozenset(("format", "settings", "average_strategy_value", "iterations") + SNAPSHOT_FIELDS
                       + OPTIONAL_FIELDS)


@dataclass(frozen=True)
class RunSettings:
    """One solve's settings, from the link, the sidebar, the command line or a file to the kernel (and
    the key of the app's run cache): the game as one `GameSpec`, the algorithm and update scheme as
    vocabulary members, iterations, seed and locks.

    Checked here, once, on construction; a bad field is a ValueError sentence. Strings are accepted
    for `algorithm` ("CFR+ " reads as "cfr+") and `updates` and become `Algorithm` and `UpdateScheme`
    members (which compare equal to those strings, so links and files keep working); the update
    scheme must be one the algorithm implements, and regret matching needs a matrix game. The game
    is not built here (a file's game is vetted before it is built: `catalog.check_hosted`).
    """

    spec: GameSpec
    algorithm: Algorithm
    iterations: int
    updates: UpdateScheme
    seed: int
    locks: Locks = Locks()    # information sets fixed to a strategy (cfrviz.tree.locks); none by default

    def __post_init__(self) -> None:
        if not isinstance(self.spec, GameSpec):
            raise ValueError("A run's game must be a cfrviz.catalog.GameSpec (catalog.get, lookup or resolve).")
        name = self.algorithm.strip().lower() if isinstance(self.algorithm, str) else self.algorithm
        if not isinstance(name, str) or name not in ALGORITHMS:
            raise ValueError(unknown_algorithm(self.algorithm))   # names how an update rule is registered
        algorithm = Algorithm(name)
        info = ALGORITHMS[algorithm]
        if not isinstance(self.updates, str) or self.updates not in UPDATE_SCHEMES:
            raise ValueError(f"Unknown update scheme {quoted(self.updates)}; "
                             f"choose {' or '.join(repr(str(u)) for u in reversed(UPDATE_SCHEMES))}.")
        if self.updates not in info.update_schemes:
            allowed = info.update_schemes
            raise ValueError(f"{info.title} supports only {' or '.join(allowed)} updates; choose {allowed[0]}.")
        if not self.spec.offers(algorithm):
            raise ValueError(f"Regret matching ('rm') solves matrix games only; pick a CFR algorithm for "
                             f"{self.spec.entry.title}.")
        object.__setattr__(self, "algorithm", algorithm)
        object.__setattr__(self, "updates", UpdateScheme(self.updates))
        if not isinstance(self.locks, Locks):
            raise ValueError("The run's locks must be built with cfrviz.tree.locks.Locks.")
        for field_name, low, high in (("iterations", 1, MAX_RECORDED_ITERATIONS), ("seed", 0, MAX_RECORDED_SEED)):
            value = getattr(self, field_name)
            if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or not low <= value <= high:
                raise ValueError(f"The run's {field_name} must be a whole number from {low} to {high:,}, "
                                 f"not {quoted(value)}.")
            object.__setattr__(self, field_name, int(value))

    def to_json(self) -> str:
        """The settings as a JSON object (game parameters as an object). Text values (an .efg file) keep
        their brackets as escapes, so the bounded reader's counts see only the settings' structure."""
        raw: dict[str, Any] = {"game": self.spec.name, "game_params": dict(self.spec.params), "algorithm": str(self.algorithm),
                               "iterations": self.iterations, "updates": str(self.updates), "seed": self.seed}
        if self.locks:       # only when locked, so files of unlocked runs read as they always did
            raw["locks"] = self.locks.as_dict()
        return dumps_counted(raw)

    @classmethod
    def from_json(cls, text: str) -> RunSettings:
        """Parse and check settings written by `to_json`; ValueError says what is wrong. The game's
        parameters are checked but the game is not built (`GameSpec.checked`)."""
        raw = loads_bounded(text, what="The run's settings", max_bytes=MAX_SETTINGS_BYTES, max_depth=4,
                            max_containers=1_000, max_values=10_000)
        if not isinstance(raw, dict):
            raise ValueError("The run's settings must be a JSON object.")
        missing = {"game", "game_params", "algorithm", "iterations", "updates", "seed"} - set(raw)
        if missing:
            raise ValueError(f"The run's settings lack {sorted(missing)[0]!r}.")
        return cls.of_fields(raw, "The run's")

    @classmethod
    def of_fields(cls, raw: Mapping[str, Any], whose: str) -> RunSettings:
        """Settings from the fields a saved run or strategy file carries (game, game_params,
        algorithm, iterations, updates, seed and, when locked, locks); `whose` starts sentences."""
        params = raw["game_params"]
        if not isinstance(params, dict):
            raise ValueError(f"{whose} game parameters must be a JSON object.")
        return cls(GameSpec.checked(raw["game"], params), raw["algorithm"], raw["iterations"], raw["updates"],
                   raw["seed"], Locks.of(raw.get("locks")))

    def without_locks(self) -> RunSettings:
        """The same solve with no information set locked."""
        return replace(self, locks=Locks())

    def build_tree(self) -> GameTree:
        """The compiled tree these settings name (a matrix game's payoffs, an .efg file's text are in the spec),
        with the locks checked against it (ValueError names a lock the game does not have)."""
        tree = self.spec.tree()
        self.locks.check(tree)
        return tree


def snapshot_schedule(iterations: int, snapshots: int | str | None = None,
                      most: int = MAX_DEFAULT_SNAPSHOTS) -> np.ndarray:
    """[T] the 1-based iterations at which a solve keeps a snapshot, always ending at `iterations`.

    None: every iteration up to 1,000, then log-spaced, at most 2,000 in all; when `most` (the
    snapshots that fit the memory budget) is smaller, every iteration up to most // 2, then
    log-spaced, at most `most` in all. "all": every iteration. An integer k: every k-th iteration.

    >>> snapshot_schedule(100, most=6).tolist()
    [1, 2, 3, 10, 31, 100]
    """
    if snapshots is None:
        most = max(min(int(most), MAX_DEFAULT_SNAPSHOTS), 1)
        dense_until = min(DENSE_SNAPSHOTS, most // 2)
        if iterations <= max(dense_until, 1):
            return np.arange(1, iterations + 1, dtype=np.int64)
        dense = np.arange(1, dense_until + 1, dtype=np.int64)
        # From dense_until (dropped: already kept) or from iteration 1 (kept) when nothing is dense.
        spaced = np.geomspace(max(dense_until, 1), iterations, most - dense_until + (1 if dense_until else 0))
        sparse = np.unique(np.round(spaced).astype(np.int64))
        sparse = sparse[sparse > dense_until]
        sparse[-1] = iterations
        return np.concatenate([dense, np.unique(sparse)])
    if isinstance(snapshots, str):
        if snapshots.strip().lower() != "all":
            raise ValueError(f"snapshots must be None, 'all' or a whole number stride, not {snapshots!r}.")
        return np.arange(1, iterations + 1, dtype=np.int64)
    if not isinstance(snapshots, (int, np.integer)) or isinstance(snapshots, bool) or snapshots < 1:
        raise ValueError(f"snapshots must be None, 'all' or a whole number stride of at least 1, not {snapshots!r}.")
    strided = np.arange(int(snapshots), iterations + 1, int(snapshots), dtype=np.int64)
    if len(strided) == 0 or strided[-1] != iterations:
        strided = np.append(strided, np.int64(iterations))
    return strided


def snapshot_count(iterations: int, snapshots: int | str | None = None, most: int = MAX_DEFAULT_SNAPSHOTS) -> int:
    """How many snapshots `snapshot_schedule` would keep, without building it (at most, for None)."""
    if snapshots is None:
        return min(iterations, max(min(int(most), MAX_DEFAULT_SNAPSHOTS), 1))
    if isinstance(snapshots, (int, np.integer)) and not isinstance(snapshots, bool) and snapshots >= 1:
        return -(-iterations // int(snapshots))
    return iterations


@dataclass(frozen=True, eq=False)
class Run:
    """Snapshots of one solve. T snapshots, I information sets, A = most legal actions.

    iterations        [T]       iterations completed at each snapshot (1-based, increasing)
    cumulative_regret [T, I, A] after that iteration
    current_strategy  [T, I, A] the strategy each player played in that iteration (with alternating
                                updates player 2's pass already faced player 1's next strategy:
                                `cfrviz.analysis.inspector` rebuilds the profile each update answered)
    average_strategy  [T, I, A] average over iterations 1..t
    reach             [T, I]    own reach probability of each information set under current_strategy:
                                the product of the player's own action probabilities on the path
                                to the set, in [0, 1] (the same for each of its histories)
    value             [T]       player 1's value of that iteration's current profile
    expected_value    [T]       running mean of iteration values up to t (as the tutorial code prints)
    exploitability    [T]       of the average strategy, chips per hand (NashConv / 2)
    current_exploitability [T]  of current_strategy, the last iterate (NaN if never recorded)
    nodes_touched     [T]       cumulative tree nodes visited
    seconds           [T]       cumulative solver seconds (exploitability excluded), timed per chunk
                                of iterations and spread evenly over the chunk
    average_strategy_value      player 1's exact value of the final average strategy
    All arrays are read-only.
    """

    settings: RunSettings
    tree: GameTree
    iterations: np.ndarray
    cumulative_regret: np.ndarray
    current_strategy: np.ndarray
    average_strategy: np.ndarray
    reach: np.ndarray
    value: np.ndarray
    expected_value: np.ndarray
    exploitability: np.ndarray
    nodes_touched: np.ndarray
    seconds: np.ndarray
    average_strategy_value: float = math.nan
    current_exploitability: np.ndarray = field(default_factory=lambda: np.empty(0))

    def __post_init__(self) -> None:
        if self.current_exploitability.size == 0 and len(self.iterations) > 0:    # not recorded
            object.__setattr__(self, "current_exploitability", np.full(len(self.iterations), math.nan))
        for name in ("iterations",) + SNAPSHOT_FIELDS + OPTIONAL_FIELDS:
            array = getattr(self, name)
            if isinstance(array, np.ndarray) and array.flags.writeable:
                array.setflags(write=False)

    @property
    def num_snapshots(self) -> int:
        return len(self.iterations)

    def snapshot_at(self, iteration: int) -> int:
        """Index of the last snapshot taken at or before `iteration` (0 if none)."""
        return max(int(np.searchsorted(self.iterations, iteration, side="right")) - 1, 0)

    @property
    def nbytes(self) -> int:
        """Bytes held by the snapshot arrays."""
        return int(sum(getattr(self, name).nbytes for name in ("iterations",) + SNAPSHOT_FIELDS + OPTIONAL_FIELDS))


def check_strategy(tree: GameTree, strategy: np.ndarray, what: str) -> None:
    """Raise ValueError unless strategy [..., I, A] is a distribution over each set's legal actions."""
    legal = tree.legal
    if np.any(strategy < -PROBABILITY_TOLERANCE):
        raise ValueError(f"{what} has negative probabilities.")
    if np.any(np.abs(np.where(legal, 0.0, strategy)) > PROBABILITY_TOLERANCE):
        raise ValueError(f"{what} puts probability on illegal actions.")
    totals = strategy.sum(axis=-1)
    error = np.abs(totals - 1.0)
    if np.any(error > PROBABILITY_TOLERANCE):
        worst = np.unravel_index(np.argmax(error), error.shape)
        key = tree.infosets[worst[-1]].key
        raise ValueError(f"{what} at information set {key!r} sums to {totals[worst]:.6g}, not 1.")


