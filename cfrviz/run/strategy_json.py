"""The strategy JSON format: one snapshot's strategies, per information set, as a JSON document.

Written by `export_strategy`, read back by `read_strategy_json` (a document, or its text or
bytes: a string is always JSON text, never a path) and `read_strategy_file` (a path the user
names). Parsing is bounded (`cfrviz.util.safe_json`), and every field is checked against the game
the document names; unknown fields are refused. An information set's key is the game's own
(for an OpenSpiel game, its information-state string, or a one-line form of a multi-line one); an
OpenSpiel game's sets also carry `information_state_string` (exact) and `openspiel_actions` (OpenSpiel's
action ids, in the order of `actions`), so OpenSpiel can read strategies back.
"""
from __future__ import annotations

import math
import os
from typing import IO, Any

import numpy as np

from cfrviz.tree import GameTree
from cfrviz.tree.openspiel_export import openspiel_records
from cfrviz.run.record import PROBABILITY_TOLERANCE, Run, RunSettings
from cfrviz.util.files import read_ordinary_file
from cfrviz.util.safe_json import dumps_counted, loads_bounded
from cfrviz.solvers.base import own_reach_probability
from cfrviz.util.text import quoted

STRATEGY_FORMAT = "cfrviz-strategy"
FORMAT_VERSION = 1
#: Largest strategy file read, in bytes: a Leduc strategy is about 0.12 MB.
MAX_STRATEGY_BYTES = 5_000_000

__all__ = ["FORMAT_VERSION", "MAX_STRATEGY_BYTES", "STRATEGY_FORMAT", "export_strategy", "parse_strategy_text",
           "read_strategy_file", "read_strategy_json", "run_from_strategy_json", "strategy_document"]



def strategy_document(run: Run, snapshot: int = -1) -> dict[str, Any]:
    """The strategy-file JSON object of one snapshot of `run` (the last by default); see `export_strategy`."""
    s = range(run.num_snapshots)[snapshot]
    ev = float(run.expected_value[s])
    openspiel = openspiel_records(run.tree)
    infosets = []
    for i, record in enumerate(run.tree.infosets):
        k = len(record.actions)
        infosets.append({
            "key": record.key, "player": int(record.player), "private": record.private,
            "public": record.public, "history": list(record.history), "actions": list(record.actions),
            "average_strategy": [float(x) for x in run.average_strategy[s, i, :k]],
            "current_strategy": [float(x) for x in run.current_strategy[s, i, :k]],
            "cumulative_regret": [float(x) for x in run.cumulative_regret[s, i, :k]],
        })
        if openspiel is not None:
            # OpenSpiel's own names for the set and its actions, so OpenSpiel can read the strategy back.
            infosets[-1]["information_state_string"] = openspiel[i][0]
            infosets[-1]["openspiel_actions"] = list(openspiel[i][1])
    spec = run.settings.spec
    avg_value = run.average_strategy_value if s == run.num_snapshots - 1 else math.nan
    return {
        "format": STRATEGY_FORMAT, "version": FORMAT_VERSION,
        "game": spec.name, "game_params": _jsonable(dict(spec.params)),
        "algorithm": str(run.settings.algorithm), "updates": str(run.settings.updates),
        "iterations": int(run.iterations[s]), "seed": run.settings.seed,
        "expected_value": [ev, -ev],
        "average_strategy_value": (None if math.isnan(avg_value) else [avg_value, -avg_value]),
        "exploitability": float(run.exploitability[s]),
        "current_exploitability": (None if math.isnan(float(run.current_exploitability[s]))
                                   else float(run.current_exploitability[s])),
        "infosets": infosets,
    } | ({"locks": run.settings.locks.as_dict()} if run.settings.locks else {})

def export_strategy(run: Run, path: str | os.PathLike[str] | None = None) -> str:
    """The final strategy of `run` as JSON text; also written to `path` when one is given.

    Top level: format, version, game, game_params, algorithm, updates, iterations, seed,
    expected_value [player 1, player 2] (the running mean of iteration values, as in the classic tutorial code),
    average_strategy_value [player 1, player 2] (exact value of the average profile),
    exploitability (chips per hand) of the average strategy, current_exploitability (of
    the current strategy, or null) and infosets: one object per information set with
    key, player (0 or 1), private, public (or null), history (action names), actions,
    average_strategy, current_strategy and cumulative_regret (one number per action); for an
    OpenSpiel game also information_state_string and openspiel_actions (OpenSpiel's names).
    """
    text = dumps_counted(strategy_document(run), indent=1)   # an .efg game's text must not count as structure
    if path is not None:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
    return text

def run_from_strategy_json(document: dict[str, Any] | str | bytes) -> Run:
    """A one-snapshot Run from a strategy file (parsed, or JSON text or bytes; never a path),
    validated by `read_strategy_json`.

    A strategy file carries no per-iteration record: nodes_touched and seconds are zero,
    value repeats the file's expected_value, and reach follows from the current strategy.
    """
    doc, settings, tree = _checked(document)
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
    return Run(settings=settings, tree=tree, iterations=np.array([doc["iterations"]], dtype=np.int64),
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


def _number_list(value: Any, length: int, what: str) -> list[float]:
    if (not isinstance(value, list) or len(value) != length
            or not all(isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) for x in value)):
        raise ValueError(f"{what} must be a list of {length} finite numbers.")
    return [float(x) for x in value]


_STRATEGY_FIELDS = ("format", "version", "game", "game_params", "algorithm", "updates", "iterations", "seed",
                    "expected_value", "average_strategy_value", "exploitability", "infosets", "current_exploitability",
                    "locks")
#: Fields older strategy files may lack; "locks" is written only for a locked run.
_STRATEGY_OPTIONAL = ("current_exploitability", "locks")
_INFOSET_FIELDS = ("key", "player", "private", "public", "history", "actions", "average_strategy",
                   "current_strategy", "cumulative_regret", "information_state_string", "openspiel_actions")
#: Per-set fields only an OpenSpiel game's file has (and must have right).
_OPENSPIEL_FIELDS = ("information_state_string", "openspiel_actions")


def parse_strategy_text(text: str | bytes | bytearray) -> Any:
    """The JSON value of a strategy file's text or bytes, parsed within bounds (size, nesting,
    counts, digits; see `cfrviz.util.safe_json`). Text is only ever text: it is never opened as a path."""
    return loads_bounded(text, what="The strategy file", max_bytes=MAX_STRATEGY_BYTES, max_depth=8,
                         max_containers=50_000, max_values=500_000)


def read_strategy_file(path: str | os.PathLike[str] | IO[Any]) -> dict[str, Any]:
    """Read and strictly check the strategy file at `path` (or an open text/binary file).

    For files the user names (the CLI, scripts). Anything a stranger sends goes through
    `read_strategy_json` instead, which takes only the document or its text.
    """
    if hasattr(path, "read"):
        content = path.read(MAX_STRATEGY_BYTES + 1)
    else:
        try:
            content = read_ordinary_file(path, MAX_STRATEGY_BYTES, shown=f"The strategy file {quoted(os.fspath(path), 200)}",
                                         what="strategy")
        except OSError:
            raise ValueError(f"Cannot read the strategy file {quoted(os.fspath(path), 200)}; check the path.") from None
    return read_strategy_json(content)


def read_strategy_json(source: dict[str, Any] | str | bytes | bytearray) -> dict[str, Any]:
    """Read and strictly check a strategy file written by `export_strategy`.

    `source` is the parsed object, or the file's JSON text or bytes; a string is always JSON
    text, never a path (`read_strategy_file` reads paths). Returns the parsed document.
    Raises ValueError with a sentence naming the first problem: not JSON, not an object, an
    unknown or missing or mistyped field, an unknown game or algorithm, an information set the
    game does not have (or one missing), or a strategy that is not a distribution.
    """
    return _checked(source)[0]


def _checked(source: dict[str, Any] | str | bytes | bytearray) -> tuple[dict[str, Any], RunSettings, GameTree]:
    """The checked document, the settings it names and their tree (the game resolved once)."""
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
    settings = RunSettings.of_fields(doc, "The strategy file's")
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
    openspiel = openspiel_records(tree)
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
            if key in settings.locks and row.tolist() != list(settings.locks[key]):
                raise ValueError(f"The {name} of {quoted(key)} must be its lock, {list(settings.locks[key])}.")
        _number_list(entry.get("cumulative_regret"), k, f"The cumulative_regret of {quoted(key)}")
        if any(field in entry for field in _OPENSPIEL_FIELDS):
            expected = openspiel[i] if openspiel is not None else None
            if expected is None or (entry.get("information_state_string"), entry.get("openspiel_actions")) != (
                    expected[0], list(expected[1])):
                raise ValueError(f"The OpenSpiel names of {quoted(key)} do not match the game's "
                                 "information-state string and action ids.")
    if len(seen) != tree.num_infosets:
        absent = next(r.key for r in tree.infosets if r.key not in seen)
        raise ValueError(f"The strategy file lacks the information set {absent!r}.")
    return doc, settings, tree
