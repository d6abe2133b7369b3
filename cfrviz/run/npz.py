"""The `.npz` run format: a `Run` as plain numeric arrays plus its settings as JSON text.

Never pickle: arrays are read with `allow_pickle=False`, and every array is checked (shape,
dtype, finiteness, strategies summing to 1) before a `Run` is handed out. The settings name
a catalog game, so loading rebuilds the tree (an .efg game from the file text they carry).
Format versions: 1 stored `reach` as the sum over a set's histories, so reading a version-1
file recomputes it; 2 stores the own reach probability.
"""
from __future__ import annotations

import io
import json
import os
import zipfile
from typing import IO, Any

import numpy as np

from cfrviz.run.record import MAX_SETTINGS_BYTES, OPTIONAL_FIELDS, SNAPSHOT_FIELDS, PROBABILITY_TOLERANCE, Run, RunSettings, check_strategy
from cfrviz.util.files import read_ordinary_file
from cfrviz.util.memory import budget_bytes
from cfrviz.util.safe_json import loads_bounded
from cfrviz.solvers.base import own_reach_probability
from cfrviz.util.text import quoted

RUN_FORMAT = "cfrviz-run"
#: Version of the .npz run format. 2: `reach` is a probability in [0, 1]; version 1 stored its
#: sum over a set's histories, so reading a version-1 file recomputes it.
RUN_FORMAT_VERSION = 2

__all__ = ["RUN_FORMAT", "RUN_FORMAT_VERSION", "load_run", "max_run_file_bytes", "run_from_arrays", "save_run"]



def save_run(run: Run, path: str | os.PathLike[str] | IO[bytes]) -> None:
    """Write `run` as a compressed `.npz` of plain arrays; settings go in as a JSON string."""
    arrays: dict[str, Any] = {name: np.asarray(getattr(run, name))
              for name in ("iterations",) + SNAPSHOT_FIELDS + OPTIONAL_FIELDS}
    header = json.dumps({"format": RUN_FORMAT, "version": RUN_FORMAT_VERSION})
    np.savez_compressed(path, format=np.array(header), settings=np.array(run.settings.to_json()),
                        average_strategy_value=np.array(float(run.average_strategy_value)), **arrays)

def max_run_file_bytes() -> int:
    """Largest run file read from a path: twice the memory budget a solve may fill with snapshots
    (`cfrviz.util.memory.budget_bytes`; .npz compression only makes files smaller), plus its settings."""
    return 2 * budget_bytes() + MAX_SETTINGS_BYTES


def load_run(source: str | os.PathLike[str] | bytes | IO[bytes]) -> Run:
    """Read a run written by `save_run`, from a path, bytes or a binary file.

    A path must name an ordinary file of at most `max_run_file_bytes()` bytes (not a folder, device,
    FIFO or /proc file). Never unpickles. Raises ValueError with a sentence when the file is not a cfrviz run,
    names an unknown game or algorithm, or holds arrays of the wrong shape or dtype,
    non-finite numbers, or strategies that do not sum to 1 over the legal actions.
    """
    if isinstance(source, (bytes, bytearray)):
        source = io.BytesIO(bytes(source))
    elif isinstance(source, (str, os.PathLike)):
        # Read here, ordinary files only and to a bound: np.load would open a FIFO and wait for a writer.
        path = os.fspath(source)
        shown = f"The run file {quoted(path, 200)}"
        try:
            source = io.BytesIO(read_ordinary_file(path, max_run_file_bytes(), shown=shown, what="run"))
        except FileNotFoundError:
            raise ValueError(f"There is no file at {path!s}; check the path.") from None
        except OSError as error:
            raise ValueError(f"Cannot read the run file {quoted(path, 200)}: {(error.strerror or 'not readable').lower()}.") from None
    try:
        with np.load(source, allow_pickle=False) as archive:
            contents = {name: archive[name] for name in archive.files}
    except (OSError, ValueError, EOFError, zipfile.BadZipFile, KeyError):
        raise ValueError("This is not a run saved by cfrviz (.npz); save the run again and reload it.") from None
    return run_from_arrays(contents)

def run_from_arrays(contents: dict[str, np.ndarray]) -> Run:
    """The run held by a `.npz` archive's arrays, every one checked (see `load_run`)."""
    missing = [name for name in ("format", "settings", "iterations", "average_strategy_value") + SNAPSHOT_FIELDS
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
    for name in SNAPSHOT_FIELDS:
        array = contents[name]
        shape = shapes.get(name, (t,))
        if array.shape != shape:
            raise ValueError(f"The run's {name} has shape {array.shape} but {tree.game.title} with "
                             f"{t} snapshots needs {shape}.")
        kind = "iu" if name == "nodes_touched" else "f"
        if array.dtype.kind not in kind:
            raise ValueError(f"The run's {name} holds {array.dtype} values instead of "
                             f"{'whole' if kind == 'iu' else 'real'} numbers.")
        if kind == "f" and not all(np.all(np.isfinite(chunk)) for chunk in _chunks(array)):
            raise ValueError(f"The run's {name} contains NaN or infinite values.")
        # No copy when the file already holds int64/float64 (as save_run writes it): a copy of an
        # upload's arrays doubled its peak (200 MB unpacked cost 485 MB).
        arrays[name] = array.astype(np.int64 if kind == "iu" else np.float64, copy=False)
    for name in OPTIONAL_FIELDS:
        if name in contents:
            array = contents[name]
            if array.shape != (t,) or array.dtype.kind != "f":
                raise ValueError(f"The run's {name} must hold {t} real numbers, one per snapshot.")
            # NaN is allowed: a run records it as 'not measured'.
            if np.any(np.isinf(array)):
                raise ValueError(f"The run's {name} contains infinite values.")
            arrays[name] = array.astype(np.float64)
    for name in ("current_strategy", "average_strategy"):
        for chunk in _chunks(arrays[name]):     # its temporaries are a chunk's size, not the run's
            check_strategy(tree, chunk, f"The run's {name}")
        for key, probabilities in settings.locks.items:      # a locked set plays its lock at every snapshot
            i = tree.infoset_index(key)
            if not np.array_equal(arrays[name][:, i, :len(probabilities)], np.broadcast_to(
                    probabilities, (t, len(probabilities)))):
                raise ValueError(f"The run's {name} of {key!r} must be its lock at every snapshot.")
    if version == 1:
        arrays["reach"] = own_reach_probability(tree, arrays["current_strategy"])
    elif np.any(arrays["reach"] < 0.0) or np.any(arrays["reach"] > 1.0 + PROBABILITY_TOLERANCE):
        raise ValueError("The run's reach probabilities must lie between 0 and 1.")
    value = contents["average_strategy_value"]
    if value.shape != () or value.dtype.kind != "f":
        raise ValueError("The run's average_strategy_value must be one real number.")
    return Run(settings=settings, tree=tree, iterations=iterations,
               average_strategy_value=float(value), **arrays)


#: Bytes of the snapshots checked at a time: the checks' temporaries stay this size whatever the run's.
_CHECK_CHUNK_BYTES = 8_000_000


def _chunks(array: np.ndarray) -> list[np.ndarray]:
    """Views of `array` [T, ...] along T, each of about _CHECK_CHUNK_BYTES (at least one snapshot)."""
    per_snapshot = max(array[:1].nbytes, 1)
    step = max(_CHECK_CHUNK_BYTES // per_snapshot, 1)
    return [array[start:start + step] for start in range(0, max(len(array), 1), step)]


def _text(array: np.ndarray, name: str) -> str:
    if array.shape != () or array.dtype.kind != "U":
        raise ValueError(f"The run's {name} entry must be one text value.")
    return str(array)
