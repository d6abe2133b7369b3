"""Reading a file a user uploads: a saved run (.npz) or a strategy (.json), checked before use.

Every way a file can be wrong ends in a `ValueError` with one sentence the user can act on.
Nothing here unpickles: object arrays are refused by reading the .npy header, before any data.
"""
from __future__ import annotations

import io
import logging
import math
import zipfile
import zlib

import numpy as np

from cfrviz import catalog
from cfrviz.catalog import GameSpec
from cfrviz.games.efg import MAX_EFG_BYTES
from cfrviz.run.strategy_json import MAX_STRATEGY_BYTES, parse_strategy_text, run_from_strategy_json
from cfrviz.run.record import REQUIRED_RUN_ARRAYS, RUN_ARRAYS, Run, RunSettings
from cfrviz.util.text import quoted
from cfrviz.run.npz import load_run

#: Largest upload accepted, in megabytes (`server.maxUploadSize` in .streamlit/config.toml).
#: A Leduc run at the app's iteration cap saves to about 24 MB with DCFR (46 MB unpacked).
MAX_UPLOAD_MB = 50
#: Largest upload accepted, in bytes (decimal megabytes, as the upload widget counts them).
MAX_UPLOAD_BYTES = MAX_UPLOAD_MB * 1_000_000
#: A .npz may compress well, but not past this once unpacked (guards against zip bombs).
MAX_UNPACKED_BYTES = 4 * MAX_UPLOAD_BYTES

_ZIP_MAGIC = b"PK\x03\x04"


def read_upload(filename: str, data: bytes) -> Run:
    """A `Run` from an uploaded `.npz` run or `.json` strategy (a one-snapshot run).

    Raises ValueError with one sentence when the file is empty, too big, damaged, carries
    pickled objects, belongs to no known game, or holds arrays of the wrong shape,
    non-finite numbers or probabilities that do not sum to 1.
    """
    full_name = str(filename or "").strip()
    suffix = full_name.rsplit(".", 1)[-1].lower() if "." in full_name else ""
    # The name is the stranger's text: quoted and cut short wherever a sentence shows it.
    name = quoted(full_name or "this file", 60)
    if suffix not in ("npz", "json"):
        raise ValueError(f"Upload a saved run (.npz) or a strategy (.json); {name} is neither.")
    if len(data) == 0:
        raise ValueError(f"{name} is empty; upload a run saved by cfrviz.")
    if len(data) > MAX_UPLOAD_BYTES:
        raise ValueError(
            f"{name} is {len(data) / 1e6:.1f} MB; uploads are limited to {MAX_UPLOAD_MB} MB."
        )
    if suffix == "json" and len(data) > MAX_STRATEGY_BYTES:
        raise ValueError(f"{name} is {len(data) / 1e6:.1f} MB; strategy files are limited to "
                         f"{MAX_STRATEGY_BYTES / 1e6:g} MB (a Leduc strategy is about 0.12 MB).")
    # load_run and run_from_strategy_json check shapes, finiteness and distributions themselves.
    try:
        return _read_npz(name, data) if suffix == "npz" else _read_json(name, data)
    except (MemoryError, RecursionError, OverflowError, RuntimeError, NotImplementedError, zlib.error):
        raise ValueError(f"{name} could not be read; upload a run saved by cfrviz.") from None
    except ValueError:
        raise
    except Exception:
        # Every known way is checked above; an unforeseen one is logged for the server's
        # operator and stays a sentence, not a traceback, for the visitor.
        logging.getLogger(__name__).exception("unexpected error reading an upload")
        raise ValueError(f"{name} could not be read; upload a run saved by cfrviz.") from None


def _read_npz(name: str, data: bytes) -> Run:
    if not data.startswith(_ZIP_MAGIC):
        raise ValueError(f"{name} is not a .npz archive; upload a run saved by cfrviz.")
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = archive.infolist()
    except (zipfile.BadZipFile, OSError, EOFError, ValueError):
        raise ValueError(f"{name} is truncated or damaged; save the run again and re-upload it.") from None
    if not members:
        raise ValueError(f"{name} holds no arrays; upload a run saved by cfrviz.")
    if sum(member.file_size for member in members) > MAX_UNPACKED_BYTES:
        raise ValueError(
            f"{name} unpacks to more than {MAX_UNPACKED_BYTES // 1_000_000} MB; upload a run with fewer snapshots."
        )
    for member in members:
        if not member.filename.endswith(".npy"):
            raise ValueError(f"{name} contains {quoted(member.filename)}, which is not a numpy array.")
        if member.filename[:-4] not in RUN_ARRAYS:
            # Refused before anything is unpacked: a run has only these arrays.
            raise ValueError(f"{name} holds an array {quoted(member.filename[:-4])} that no cfrviz run has.")
        if member.flag_bits & 0x1:
            # Reading an encrypted member asks for a password (zipfile raises RuntimeError).
            raise ValueError(f"{name} is encrypted; upload the run as cfrviz saved it.")
        try:
            with archive.open(member) as stream:
                version = np.lib.format.read_magic(stream)
                if version == (1, 0):
                    shape, _, dtype = np.lib.format.read_array_header_1_0(stream)
                else:
                    shape, _, dtype = np.lib.format.read_array_header_2_0(stream)
                header_bytes = stream.tell()
        except (zipfile.BadZipFile, zlib.error, OSError, EOFError, ValueError, KeyError, NotImplementedError,
                RuntimeError):
            raise ValueError(f"{name} is truncated or damaged; save the run again and re-upload it.") from None
        if dtype.hasobject:
            # Object arrays can only be read by unpickling, which could run any code.
            raise ValueError(
                f"{name} carries Python objects in {quoted(member.filename[:-4])}, which cfrviz refuses to unpickle."
            )
        # numpy allocates what the header declares before reading a byte, so the declared size
        # must be exactly the data the member holds (itself capped by MAX_UNPACKED_BYTES above).
        declared = math.prod(int(n) for n in shape) * dtype.itemsize
        if declared != member.file_size - header_bytes:
            raise ValueError(f"{name} declares an array {quoted(member.filename[:-4])} of shape "
                             f"{quoted(shape, 60)} that its data does not match; save the run again.")
    absent = sorted(REQUIRED_RUN_ARRAYS - {m.filename[:-4] for m in members if m.filename.endswith(".npy")})
    if absent:
        # Known from the archive's directory, before any data is unpacked.
        raise ValueError(f"{name} is not a complete cfrviz run: it has no {absent[0]!r} array.")
    try:
        if archive.testzip() is not None:
            raise zipfile.BadZipFile
    except (zipfile.BadZipFile, zlib.error, OSError, EOFError, ValueError):
        raise ValueError(f"{name} is truncated or damaged; save the run again and re-upload it.") from None
    _check_hosted_run(archive)
    try:
        return load_run(io.BytesIO(data))
    except (KeyError, TypeError, IndexError, OSError, EOFError, zipfile.BadZipFile, zlib.error, OverflowError):
        raise ValueError(f"{name} is not a run saved by cfrviz (arrays are missing or malformed).") from None


def _read_json(name: str, data: bytes) -> Run:
    # Bounded parse (size, nesting, counts, digits) of bytes that are only ever data, never a path.
    try:
        document = parse_strategy_text(data)
    except ValueError as problem:
        reason = str(problem).removeprefix("The strategy file ").rstrip(".")
        raise ValueError(f"{name} {reason}; upload a strategy exported by cfrviz.") from None
    # On the upload route only a JSON object goes on to validation.
    if not isinstance(document, dict):
        raise ValueError(f"{name} does not hold a JSON object; upload a strategy exported by cfrviz.")
    params = document.get("game_params")
    catalog.check_hosted(document.get("game"), params if isinstance(params, dict) else {})
    try:
        return run_from_strategy_json(document)
    except (KeyError, TypeError, IndexError, AttributeError, RecursionError, OverflowError):
        raise ValueError(f"{name} is not a strategy exported by cfrviz (fields are missing or malformed).") from None


def _check_hosted_run(archive: zipfile.ZipFile) -> None:
    """Refuse, before any game is built, a run whose settings name an OpenSpiel game off the server's
    menu (the same sentence a link gets). Settings that cannot be read are left to `load_run` to explain."""
    try:
        with archive.open("settings.npy") as stream:
            text = np.lib.format.read_array(stream, allow_pickle=False)
        settings = RunSettings.from_json(str(text))
    except Exception:   # damaged or missing settings: load_run says what is wrong
        return
    catalog.check_hosted(*settings.spec.fields())


def read_game_upload(filename: str, data: bytes) -> GameSpec:
    """The game in an uploaded Gambit `.efg` file, with the bounds of every upload (type, emptiness,
    size) and then the .efg reader's own (its size cap, one sentence naming the line of a fault).
    Nothing in the file is executed: it is parsed as text."""
    name = str(filename or "").strip()
    if not name.lower().endswith(".efg"):
        raise ValueError("Upload a game as a Gambit .efg file.")
    if len(data) == 0:
        raise ValueError("The uploaded .efg file is empty.")
    limit = min(MAX_UPLOAD_BYTES, MAX_EFG_BYTES)
    if len(data) > limit:
        raise ValueError(f"The uploaded .efg file is {len(data):,} bytes; games are limited to {limit:,} bytes.")
    try:
        text = data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError:
        raise ValueError("The uploaded .efg file is not UTF-8 text.") from None
    return catalog.get("efg", text=text)
