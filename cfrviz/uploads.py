"""Reading a file a user uploads: a saved run (.npz) or a strategy (.json), checked before use.

Every way a file can be wrong ends in a `ValueError` with one sentence the user can act on.
Nothing here unpickles: object arrays are refused by reading the .npy header, before any data.
"""
from __future__ import annotations

import io
import json
import zipfile

import numpy as np

from cfrviz.run import Run

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
    name = str(filename or "").strip()
    suffix = name.rsplit(".", 1)[-1].lower() if "." in name else ""
    if suffix not in ("npz", "json"):
        raise ValueError(f"Upload a saved run (.npz) or a strategy (.json); {name or 'this file'!r} is neither.")
    if len(data) == 0:
        raise ValueError(f"{name!r} is empty; upload a run saved by cfrviz.")
    if len(data) > MAX_UPLOAD_BYTES:
        raise ValueError(
            f"{name!r} is {len(data) / 1e6:.1f} MB; uploads are limited to {MAX_UPLOAD_MB} MB."
        )
    # Run.load and Run.from_strategy_json check shapes, finiteness and distributions themselves.
    return _read_npz(name, data) if suffix == "npz" else _read_json(name, data)


def _read_npz(name: str, data: bytes) -> Run:
    if not data.startswith(_ZIP_MAGIC):
        raise ValueError(f"{name!r} is not a .npz archive; upload a run saved by cfrviz.")
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = archive.infolist()
    except (zipfile.BadZipFile, OSError, EOFError, ValueError):
        raise ValueError(f"{name!r} is truncated or damaged; save the run again and re-upload it.") from None
    if not members:
        raise ValueError(f"{name!r} holds no arrays; upload a run saved by cfrviz.")
    if sum(member.file_size for member in members) > MAX_UNPACKED_BYTES:
        raise ValueError(
            f"{name!r} unpacks to more than {MAX_UNPACKED_BYTES // 1_000_000} MB; upload a run with fewer snapshots."
        )
    for member in members:
        if not member.filename.endswith(".npy"):
            raise ValueError(f"{name!r} contains {member.filename!r}, which is not a numpy array.")
        try:
            with archive.open(member) as stream:
                version = np.lib.format.read_magic(stream)
                if version == (1, 0):
                    _, _, dtype = np.lib.format.read_array_header_1_0(stream)
                else:
                    _, _, dtype = np.lib.format.read_array_header_2_0(stream)
        except (zipfile.BadZipFile, OSError, EOFError, ValueError, KeyError, NotImplementedError):
            raise ValueError(f"{name!r} is truncated or damaged; save the run again and re-upload it.") from None
        if dtype.hasobject:
            # Object arrays can only be read by unpickling, which could run any code.
            raise ValueError(
                f"{name!r} carries Python objects in {member.filename[:-4]!r}, which cfrviz refuses to unpickle."
            )
    try:
        if archive.testzip() is not None:
            raise zipfile.BadZipFile
    except (zipfile.BadZipFile, OSError, EOFError, ValueError):
        raise ValueError(f"{name!r} is truncated or damaged; save the run again and re-upload it.") from None
    try:
        return Run.load(io.BytesIO(data))
    except (KeyError, TypeError, IndexError, OSError, EOFError, zipfile.BadZipFile):
        raise ValueError(f"{name!r} is not a run saved by cfrviz (arrays are missing or malformed).") from None


def _read_json(name: str, data: bytes) -> Run:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"{name!r} is not UTF-8 text; upload a strategy exported by cfrviz.") from None
    try:
        document = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        raise ValueError(f"{name!r} is not valid JSON; upload a strategy exported by cfrviz.") from None
    try:
        return Run.from_strategy_json(document)
    except (KeyError, TypeError, IndexError, AttributeError, RecursionError):
        raise ValueError(f"{name!r} is not a strategy exported by cfrviz (fields are missing or malformed).") from None
