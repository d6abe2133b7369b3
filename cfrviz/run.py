"""What a solve leaves behind: snapshots of every information set over the iterations.

A `Run` saves to `.npz` (plain numeric arrays plus the settings as a JSON string; never
pickle) and exports its final strategy as JSON. Loading rebuilds the tree from the
settings and checks every array before handing the run out.
"""
from __future__ import annotations

import io
import json
import math
import os
import zipfile
from dataclasses import dataclass, field
from typing import IO, Any

import numpy as np

from cfrviz import catalog
from cfrviz.safe_json import loads_bounded
from cfrviz.solvers import ALGORITHMS, UPDATE_SCHEMES
from cfrviz.solvers.base import own_reach_probability
from cfrviz.text import quoted
from cfrviz.tree import GameTree

#: Snapshots taken by the default schedule: every iteration up to this one, then log-spaced.
DENSE_SNAPSHOTS = 1_000
#: Most snapshots the default schedule takes.
MAX_DEFAULT_SNAPSHOTS = 2_000
#: Largest snapshot storage a run may ask for ([T, I, A] arrays), in bytes.
MAX_SNAPSHOT_BYTES = 1_000_000_000
#: How far a stored probability may stray from summing to 1.
PROBABILITY_TOLERANCE = 1e-6

#: Most iterations a recorded run may claim (far above any solver cap; keeps counts in int64).
MAX_RECORDED_ITERATIONS = 10**12
#: Largest seed a recorded run may carry (numpy's generators take any int64).
MAX_RECORDED_SEED = 2**63 - 1
#: Largest strategy file read, in bytes: a Leduc strategy is about 0.12 MB.
MAX_STRATEGY_BYTES = 5_000_000
#: Largest settings text inside a saved run (a 10 x 10 matrix game's is about 2 kB).
MAX_SETTINGS_BYTES = 100_000

RUN_FORMAT = "cfrviz-run"
STRATEGY_FORMAT = "cfrviz-strategy"
FORMAT_VERSION = 1
#: Version of the .npz run format. 2: `reach` is a probability in [0, 1]; version 1 stored its
#: sum over a set's histories, so reading a version-1 file recomputes it.
RUN_FORMAT_VERSION = 2

_SNAPSHOT_FIELDS = ("cumulative_regret", "current_strategy", "average_strategy", "reach", "value",
                    "expected_value", "exploitability", "nodes_touched", "seconds")
#: Snapshot fields a saved run may lack (files written before they existed); they load as NaN.
_OPTIONAL_FIELDS = ("current_exploitability",)


@dataclass(frozen=True)
class RunSettings:
    """The plain values that produced a run (and key the app's cache)."""

    game: str                 # a name in cfrviz.catalog.ENTRIES: "kuhn", "leduc", "rps", "matrix", "efg", ...
    game_params: tuple        # sorted (name, value) pairs, e.g. (("cards", 4),); see CatalogGame.params
    algorithm: str            # a key of cfrviz.solvers.ALGORITHMS
    iterations: int
    updates: str              # "simultaneous" or "alternating"
    seed: int

    def to_json(self) -> str:
        """The settings as a JSON object (game parameters as an object)."""
        return json.dumps({"game": self.game, "game_params": {k: v for k, v in self.game_params},
                           "algorithm": self.algorithm, "iterations": self.iterations,
                           "updates": self.updates, "seed": self.seed})

    @classmethod
    def from_json(cls, text: str) -> RunSettings:
        """Parse and check settings written by `to_json`; ValueError says what is wrong."""
        raw = loads_bounded(text, what="The run's settings", max_bytes=MAX_SETTINGS_BYTES, max_depth=4,
                            max_containers=1_000, max_values=10_000)
        if not isinstance(raw, dict):
            raise ValueError("The run's settings must be a JSON object.")
        missing = {"game", "game_params", "algorithm", "iterations", "updates", "seed"} - set(raw)
        if missing:
            raise ValueError(f"The run's settings lack {sorted(missing)[0]!r}.")
        params = raw["game_params"]
        if not isinstance(params, dict):
            raise ValueError("The run's game parameters must be a JSON object.")
        settings = cls(game=raw["game"], game_params=tuple(sorted((str(k), _frozen(v)) for k, v in params.items())),
                       algorithm=raw["algorithm"], iterations=raw["iterations"], updates=raw["updates"],
                       seed=raw["seed"])
        settings.check()
        return settings

    def check(self) -> None:
        """Raise ValueError unless every field has a known, well-typed value."""
        catalog.entry(self.game)
        if self.algorithm not in ALGORITHMS:
            raise ValueError(f"Unknown algorithm {quoted(self.algorithm)}; choose one of: {', '.join(ALGORITHMS)}.")
        if self.updates not in UPDATE_SCHEMES:
            raise ValueError(f"Unknown update scheme {quoted(self.updates)}; choose 'alternating' or 'simultaneous'.")
        for name, low, high in (("iterations", 1, MAX_RECORDED_ITERATIONS), ("seed", 0, MAX_RECORDED_SEED)):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
                raise ValueError(f"The run's {name} must be a whole number from {low} to {high:,}, "
                                 f"not {quoted(value)}.")

    def catalog_game(self) -> catalog.CatalogGame:
        """The catalog game these settings name (ValueError when its parameters are wrong)."""
        return catalog.get(self.game, **dict(self.game_params))

    def build_tree(self) -> GameTree:
        """The compiled tree these settings name (a matrix game's payoffs, an .efg file's text are in game_params)."""
        return self.catalog_game().tree()


def _frozen(value: Any) -> Any:
    """JSON lists to (nested) tuples so settings stay hashable."""
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    return value


def snapshot_schedule(iterations: int, snapshots: int | str | None = None) -> np.ndarray:
    """[T] the 1-based iterations at which a solve keeps a snapshot, always ending at `iterations`.

    None: every iteration up to 1,000, then log-spaced, at most 2,000 in all. "all": every
    iteration. An integer k: every k-th iteration.
    """
    if snapshots is None:
        dense = np.arange(1, min(iterations, DENSE_SNAPSHOTS) + 1, dtype=np.int64)
        if iterations <= DENSE_SNAPSHOTS:
            return dense
        spaced = np.geomspace(DENSE_SNAPSHOTS, iterations, MAX_DEFAULT_SNAPSHOTS - DENSE_SNAPSHOTS + 1)
        sparse = np.unique(np.round(spaced).astype(np.int64))
        sparse = sparse[sparse > DENSE_SNAPSHOTS]
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


def snapshot_count(iterations: int, snapshots: int | str | None = None) -> int:
    """How many snapshots `snapshot_schedule` would keep, without building it (at most, for None)."""
    if snapshots is None:
        return min(iterations, MAX_DEFAULT_SNAPSHOTS)
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
                                `cfrviz.inspector` rebuilds the profile each update answered)
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
        for name in ("iterations",) + _SNAPSHOT_FIELDS + _OPTIONAL_FIELDS:
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
        return int(sum(getattr(self, name).nbytes for name in ("iterations",) + _SNAPSHOT_FIELDS + _OPTIONAL_FIELDS))

    # ---------------------------------------------------------------------------------- .npz

    def save(self, path: str | os.PathLike | IO[bytes]) -> None:
        """Write the run as a compressed `.npz` of plain arrays; settings go in as a JSON string."""
        arrays = {name: np.asarray(getattr(self, name))
                  for name in ("iterations",) + _SNAPSHOT_FIELDS + _OPTIONAL_FIELDS}
        header = json.dumps({"format": RUN_FORMAT, "version": RUN_FORMAT_VERSION})
        np.savez_compressed(path, format=np.array(header), settings=np.array(self.settings.to_json()),
                            average_strategy_value=np.array(float(self.average_strategy_value)), **arrays)

    @classmethod
    def load(cls, source: str | os.PathLike | bytes | IO[bytes]) -> Run:
        """Read a run written by `save`, from a path, bytes or a binary file.

        Never unpickles. Raises ValueError with a sentence when the file is not a cfrviz run,
        names an unknown game or algorithm, or holds arrays of the wrong shape or dtype,
        non-finite numbers, or strategies that do not sum to 1 over the legal actions.
        """
        if isinstance(source, (bytes, bytearray)):
            source = io.BytesIO(bytes(source))
        try:
            with np.load(source, allow_pickle=False) as archive:
                contents = {name: archive[name] for name in archive.files}
        except FileNotFoundError:
            raise ValueError(f"There is no file at {source!s}; check the path.") from None
        except (OSError, ValueError, EOFError, zipfile.BadZipFile, KeyError):
            raise ValueError("This is not a run saved by cfrviz (.npz); save the run again and reload it.") from None
        return cls._from_arrays(contents)

    @classmethod
    def _from_arrays(cls, contents: dict[str, np.ndarray]) -> Run:
        missing = [name for name in ("format", "settings", "iterations", "average_strategy_value") + _SNAPSHOT_FIELDS
                   if name not in contents]
        if missing:
            raise ValueError(f"This file is not a complete cfrviz run: it has no {missing[0]!r} array.")
        try:
            header = loads_bounded(_text(contents["format"], "format"), what="The run's format marker",
                                   max_bytes=1_000, max_depth=2, max_containers=10, max_values=10)
        except ValueError:
            header = None
        if not isinstance(header, dict) or header.get("format") != RUN_FORMAT:
            raise ValueError("This file is not a cfrviz run; its format marker is missing.")
        version = header.get("version")
        if version not in (1, RUN_FORMAT_VERSION) or isinstance(version, bool):
            raise ValueError(f"This run was saved in format version {quoted(version)}; "
                             f"this cfrviz reads versions 1 and {RUN_FORMAT_VERSION}.")
        settings = RunSettings.from_json(_text(contents["settings"], "settings"))
        tree = settings.build_tree()
        iterations = contents["iterations"]
        if iterations.ndim != 1 or len(iterations) == 0 or iterations.dtype.kind not in "iu":
            raise ValueError("The run's iterations must be a non-empty list of whole numbers.")
        iterations = iterations.astype(np.int64)
        if iterations[0] < 1 or np.any(np.diff(iterations) <= 0):
            raise ValueError("The run's snapshot iterations must start at 1 or later and increase.")
        if iterations[-1] != settings.iterations:
            raise ValueError(f"The run's last snapshot is iteration {iterations[-1]} but its settings say "
                             f"{settings.iterations}.")
        t = len(iterations)
        i, a = tree.legal.shape
        shapes = {"cumulative_regret": (t, i, a), "current_strategy": (t, i, a), "average_strategy": (t, i, a),
                  "reach": (t, i)}
        arrays: dict[str, np.ndarray] = {}
        for name in _SNAPSHOT_FIELDS:
            array = contents[name]
            shape = shapes.get(name, (t,))
            if array.shape != shape:
                raise ValueError(f"The run's {name} has shape {array.shape} but {tree.game.title} with "
                                 f"{t} snapshots needs {shape}.")
            kind = "iu" if name == "nodes_touched" else "f"
            if array.dtype.kind not in kind:
                raise ValueError(f"The run's {name} holds {array.dtype} values instead of "
                                 f"{'whole' if kind == 'iu' else 'real'} numbers.")
            if kind == "f" and not np.all(np.isfinite(array)):
                raise ValueError(f"The run's {name} contains NaN or infinite values.")
            arrays[name] = array.astype(np.int64 if kind == "iu" else np.float64)
        for name in _OPTIONAL_FIELDS:
            if name in contents:
                array = contents[name]
                if array.shape != (t,) or array.dtype.kind != "f":
                    raise ValueError(f"The run's {name} must hold {t} real numbers, one per snapshot.")
                # NaN is allowed: a run records it as 'not measured'.
                if np.any(np.isinf(array)):
                    raise ValueError(f"The run's {name} contains infinite values.")
                arrays[name] = array.astype(np.float64)
        for name in ("current_strategy", "average_strategy"):
            check_strategy(tree, arrays[name], f"The run's {name}")
        if version == 1:
            arrays["reach"] = own_reach_probability(tree, arrays["current_strategy"])
        elif np.any(arrays["reach"] < 0.0) or np.any(arrays["reach"] > 1.0 + PROBABILITY_TOLERANCE):
            raise ValueError("The run's reach probabilities must lie between 0 and 1.")
        value = contents["average_strategy_value"]
        if value.shape != () or value.dtype.kind != "f":
            raise ValueError("The run's average_strategy_value must be one real number.")
        return cls(settings=settings, tree=tree, iterations=iterations,
                   average_strategy_value=float(value), **arrays)

    # ---------------------------------------------------------------------------------- JSON

    def strategy_document(self, snapshot: int = -1) -> dict:
        """The strategy-file JSON object of one snapshot (the last by default); see `export_strategy`."""
        s = range(self.num_snapshots)[snapshot]
        ev = float(self.expected_value[s])
        infosets = []
        for i, record in enumerate(self.tree.infosets):
            k = len(record.actions)
            infosets.append({
                "key": record.key, "player": int(record.player), "private": record.private,
                "public": record.public, "history": list(record.history), "actions": list(record.actions),
                "average_strategy": [float(x) for x in self.average_strategy[s, i, :k]],
                "current_strategy": [float(x) for x in self.current_strategy[s, i, :k]],
                "cumulative_regret": [float(x) for x in self.cumulative_regret[s, i, :k]],
            })
        game, params = self.settings.game, dict(self.settings.game_params)
        avg_value = self.average_strategy_value if s == self.num_snapshots - 1 else math.nan
        return {
            "format": STRATEGY_FORMAT, "version": FORMAT_VERSION,
            "game": game, "game_params": _jsonable(params),
            "algorithm": self.settings.algorithm, "updates": self.settings.updates,
            "iterations": int(self.iterations[s]), "seed": self.settings.seed,
            "expected_value": [ev, -ev],
            "average_strategy_value": (None if math.isnan(avg_value) else [avg_value, -avg_value]),
            "exploitability": float(self.exploitability[s]),
            "current_exploitability": (None if math.isnan(float(self.current_exploitability[s]))
                                       else float(self.current_exploitability[s])),
            "infosets": infosets,
        }

    def export_strategy(self, path: str | os.PathLike | None = None) -> str:
        """The final strategy as JSON text; also written to `path` when one is given.

        Top level: format, version, game, game_params, algorithm, updates, iterations, seed,
        expected_value [player 1, player 2] (the running mean of iteration values, as in the classic tutorial code),
        average_strategy_value [player 1, player 2] (exact value of the average profile),
        exploitability (chips per hand) of the average strategy, current_exploitability (of
        the current strategy, or null) and infosets: one object per information set with
        key, player (0 or 1), private, public (or null), history (action names), actions,
        average_strategy, current_strategy and cumulative_regret (one number per action).
        """
        text = json.dumps(self.strategy_document(), indent=1)
        if path is not None:
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(text)
        return text

    @classmethod
    def from_strategy_json(cls, document: dict | str | bytes) -> Run:
        """A one-snapshot Run from a strategy file (parsed, or JSON text or bytes; never a path),
        validated by `read_strategy_json`.

        A strategy file carries no per-iteration record: nodes_touched and seconds are zero,
        value repeats the file's expected_value, and reach follows from the current strategy.
        """
        doc = read_strategy_json(document)
        settings = RunSettings(game=doc["game"], game_params=tuple(sorted((k, _frozen(v)) for k, v in
                                                                        doc["game_params"].items())),
                               algorithm=doc["algorithm"], iterations=doc["iterations"],
                               updates=doc["updates"], seed=doc["seed"])
        tree = settings.build_tree()
        shape = (1,) + tree.legal.shape
        arrays = {name: np.zeros(shape) for name in ("cumulative_regret", "current_strategy", "average_strategy")}
        for entry in doc["infosets"]:
            i = tree.infoset_index(entry["key"])
            k = int(tree.num_actions[i])
            for name in arrays:
                arrays[name][0, i, :k] = entry[name]
        ev = float(doc["expected_value"][0])
        avg_value = doc["average_strategy_value"]
        current = doc.get("current_exploitability")
        return cls(settings=settings, tree=tree, iterations=np.array([doc["iterations"]], dtype=np.int64),
                   reach=own_reach_probability(tree, arrays["current_strategy"]), value=np.array([ev]), expected_value=np.array([ev]),
                   exploitability=np.array([float(doc["exploitability"])]),
                   nodes_touched=np.zeros(1, dtype=np.int64), seconds=np.zeros(1),
                   average_strategy_value=math.nan if avg_value is None else float(avg_value[0]),
                   current_exploitability=np.array([math.nan if current is None else float(current)]), **arrays)


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return [_jsonable(v) for v in value]
    return value


def _text(array: np.ndarray, name: str) -> str:
    if array.shape != () or array.dtype.kind != "U":
        raise ValueError(f"The run's {name} entry must be one text value.")
    return str(array)


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


def _number_list(value: Any, length: int, what: str) -> list[float]:
    if (not isinstance(value, list) or len(value) != length
            or not all(isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) for x in value)):
        raise ValueError(f"{what} must be a list of {length} finite numbers.")
    return [float(x) for x in value]


_STRATEGY_FIELDS = ("format", "version", "game", "game_params", "algorithm", "updates", "iterations", "seed",
                    "expected_value", "average_strategy_value", "exploitability", "infosets", "current_exploitability")
#: Fields older strategy files may lack.
_STRATEGY_OPTIONAL = ("current_exploitability",)
_INFOSET_FIELDS = ("key", "player", "private", "public", "history", "actions", "average_strategy",
                   "current_strategy", "cumulative_regret")


def parse_strategy_text(text: str | bytes | bytearray) -> Any:
    """The JSON value of a strategy file's text or bytes, parsed within bounds (size, nesting,
    counts, digits; see `cfrviz.safe_json`). Text is only ever text: it is never opened as a path."""
    return loads_bounded(text, what="The strategy file", max_bytes=MAX_STRATEGY_BYTES, max_depth=8,
                         max_containers=50_000, max_values=500_000)


def read_strategy_file(path: str | os.PathLike | IO) -> dict:
    """Read and strictly check the strategy file at `path` (or an open text/binary file).

    For files the user names (the CLI, scripts). Anything a stranger sends goes through
    `read_strategy_json` instead, which takes only the document or its text.
    """
    if hasattr(path, "read"):
        content = path.read(MAX_STRATEGY_BYTES + 1)
    else:
        try:
            with open(path, "rb") as handle:
                content = handle.read(MAX_STRATEGY_BYTES + 1)
        except OSError:
            raise ValueError(f"Cannot read the strategy file {quoted(os.fspath(path), 200)}; check the path.") from None
    return read_strategy_json(content)


def read_strategy_json(source: dict | str | bytes | bytearray) -> dict:
    """Read and strictly check a strategy file written by `Run.export_strategy`.

    `source` is the parsed object, or the file's JSON text or bytes; a string is always JSON
    text, never a path (`read_strategy_file` reads paths). Returns the parsed document.
    Raises ValueError with a sentence naming the first problem: not JSON, not an object, an
    unknown or missing or mistyped field, an unknown game or algorithm, an information set the
    game does not have (or one missing), or a strategy that is not a distribution.
    """
    if isinstance(source, (str, bytes, bytearray)):
        doc = parse_strategy_text(source)
    elif isinstance(source, os.PathLike) or hasattr(source, "read"):
        raise ValueError("read_strategy_json takes a strategy or its JSON text; read files with read_strategy_file.")
    else:
        doc = source
    if not isinstance(doc, dict):
        raise ValueError("A strategy file must hold one JSON object.")
    if doc.get("format") != STRATEGY_FORMAT:
        raise ValueError("This JSON is not a cfrviz strategy file; its format marker is missing.")
    if doc.get("version") != FORMAT_VERSION:
        raise ValueError(f"This strategy file has version {quoted(doc.get('version'))}; this cfrviz reads "
                         f"version {FORMAT_VERSION}.")
    unknown = [key for key in doc if key not in _STRATEGY_FIELDS]
    if unknown:
        raise ValueError(f"The strategy file has a field cfrviz does not know: {quoted(unknown[0])}.")
    missing = [key for key in _STRATEGY_FIELDS if key not in doc and key not in _STRATEGY_OPTIONAL]
    if missing:
        raise ValueError(f"The strategy file has no {missing[0]!r} field.")
    if not isinstance(doc["game_params"], dict):
        raise ValueError("The strategy file's game_params must be a JSON object.")
    settings = RunSettings(game=doc["game"], game_params=tuple(sorted((str(k), _frozen(v)) for k, v in
                                                                    doc["game_params"].items())),
                           algorithm=doc["algorithm"], iterations=doc["iterations"], updates=doc["updates"],
                           seed=doc["seed"])
    settings.check()
    tree = settings.build_tree()
    _number_list(doc["expected_value"], 2, "The strategy file's expected_value")
    if doc["average_strategy_value"] is not None:
        _number_list(doc["average_strategy_value"], 2, "The strategy file's average_strategy_value")
    _number_list([doc["exploitability"]], 1, "The strategy file's exploitability")
    if doc.get("current_exploitability") is not None:
        _number_list([doc["current_exploitability"]], 1, "The strategy file's current_exploitability")
    if not isinstance(doc["infosets"], list):
        raise ValueError("The strategy file's infosets must be a list.")
    seen: set[str] = set()
    for entry in doc["infosets"]:
        if not isinstance(entry, dict) or not isinstance(entry.get("key"), str):
            raise ValueError("Every entry of infosets must be an object with a text key.")
        key = entry["key"]
        unknown = [field for field in entry if field not in _INFOSET_FIELDS]
        if unknown:
            raise ValueError(f"The information set {quoted(key)} has a field cfrviz does not know: "
                             f"{quoted(unknown[0])}.")
        i = tree.infoset_index(key)
        if key in seen:
            raise ValueError(f"The information set {quoted(key)} appears twice in the strategy file.")
        seen.add(key)
        record = tree.infosets[i]
        if entry.get("actions") != list(record.actions):
            raise ValueError(f"The actions of {quoted(key)} must be {list(record.actions)}.")
        if entry.get("player") != record.player:
            raise ValueError(f"The information set {quoted(key)} belongs to player {record.player + 1}.")
        k = len(record.actions)
        for name in ("average_strategy", "current_strategy"):
            row = np.array(_number_list(entry.get(name), k, f"The {name} of {quoted(key)}"))
            if np.any(row < -PROBABILITY_TOLERANCE) or abs(row.sum() - 1.0) > PROBABILITY_TOLERANCE:
                raise ValueError(f"The {name} of {quoted(key)} must be probabilities summing to 1.")
        _number_list(entry.get("cumulative_regret"), k, f"The cumulative_regret of {quoted(key)}")
    if len(seen) != tree.num_infosets:
        absent = next(r.key for r in tree.infosets if r.key not in seen)
        raise ValueError(f"The strategy file lacks the information set {absent!r}.")
    return doc
