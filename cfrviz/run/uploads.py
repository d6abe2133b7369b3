"""Reading a file a user uploads: a saved run (.npz) or a strategy (.json), checked before use.

Every way a file can be wrong ends in a `ValueError` with one sentence the user can act on.
Nothing here unpickles: object arrays are refused by reading the .npy header, before any data.
"""
from __future__ import annotations

import collections
import io
import logging
import math
import secrets
import threading
import weakref
import zipfile
import zlib
from collections.abc import Callable

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
#: A .npz may compress well, but not past this once unpacked (guards against zip bombs). 200 MB:
#: the app's own solves keep at most 200 MB of arrays (`cfrviz.util.memory`), so every run it lets a
#: visitor download uploads again; reading one costs its unpacked size and no more (the arrays are
#: checked in place, in chunks), so a maximal upload with its first drawing stays under the 300 MB one
#: click may cost (scripts/budget.py, "upload:maximal").
MAX_UNPACKED_BYTES = 4 * MAX_UPLOAD_BYTES
#: Bytes of uploaded runs the whole process holds at once, over every session: three maximal
#: uploads, or a dozen Leduc runs at the app's cap (46 MB each). A hosted demo shares one process
#: among strangers; beyond this an upload waits for others' tabs to close instead of pushing the
#: server out of memory (a run is let go when its session ends or its visitor goes back to a solve).
MAX_LIVE_UPLOAD_BYTES = 3 * MAX_UNPACKED_BYTES
#: What an upload over MAX_LIVE_UPLOAD_BYTES is told.
BUSY_SENTENCE = ("The server holds too many uploaded runs right now; try again in a minute, when other "
                 "visitors' tabs have closed.")

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
    catalog.check_hosted(settings.spec.name, dict(settings.spec.params))


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


def unpacked_bytes(filename: str, data: bytes) -> int:
    """The bytes an upload will hold once read, known before reading it: a .npz's unpacked size from
    its directory, a strategy's size as a one-snapshot run (bounded by its file size). 0 when the
    file cannot tell (read_upload then refuses it with its own sentence)."""
    if str(filename or "").lower().endswith(".json"):
        return len(data) * 4     # parsed numbers take more room than their text; a strategy is small
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            return sum(member.file_size for member in archive.infolist())
    except (zipfile.BadZipFile, OSError, EOFError, ValueError, RuntimeError, NotImplementedError):
        return 0


class LiveUploads:
    """Every uploaded run the process holds, within `max_bytes` in all (thread-safe).

    `read(filename, data)` reserves the upload's unpacked size before reading it, so uploads that
    arrive together cannot pass the budget between them, and returns the run with a token made
    for it. The run is held by its session only; when it is let go (the session ended, or its
    visitor went back to a solve) its bytes return to the budget and every `on_release` callback
    is called with its token (the timeline drops the payloads it built for it).
    """

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = int(max_bytes)
        self._held: dict[str, int] = {}
        # id(run) -> (the run, weakly; its token): a live run's id is not reused.
        self._tokens: dict[int, tuple[weakref.ref[Run], str]] = {}
        self._listeners: list[Callable[[str], None]] = []
        self._lock = threading.Lock()
        # Runs found garbage, (token, id): the finalizer only appends here (it may run inside any
        # code, even code holding a lock), and `settle` does the rest at a safe point.
        self._gone: collections.deque[tuple[str, int]] = collections.deque()

    @property
    def held_bytes(self) -> int:
        """Bytes of uploaded runs held (or reserved for one being read) now."""
        self.settle()
        with self._lock:
            return sum(self._held.values())

    @property
    def count(self) -> int:
        """Uploaded runs held (or being read) now."""
        self.settle()
        with self._lock:
            return len(self._held)

    def on_release(self, callback: Callable[[str], None]) -> None:
        """Call `callback(token)` whenever an uploaded run is let go (from `settle`, outside any lock)."""
        with self._lock:
            self._listeners.append(callback)

    def read(self, filename: str, data: bytes) -> tuple[Run, str]:
        """(`read_upload(filename, data)`, its token). ValueError: read_upload's sentence, or
        BUSY_SENTENCE when the run would take the process past `max_bytes` (the first upload of
        an empty process is always read: the unpacked cap is below the budget)."""
        self.settle()
        token = secrets.token_hex(16)
        size = unpacked_bytes(filename, data)
        with self._lock:
            if self._held and sum(self._held.values()) + size > self.max_bytes:
                raise ValueError(BUSY_SENTENCE)
            self._held[token] = size
        try:
            run = read_upload(filename, data)
        except BaseException:
            with self._lock:
                self._held.pop(token, None)
            raise
        self._track(run, token)
        return run, token

    def token(self, run: Run) -> str:
        """The token of an uploaded `run`; a run that did not come through `read` (a test, a page
        that builds one) is counted from now on under a new one."""
        with self._lock:
            found = self._tokens.get(id(run))
            if found is not None and found[0]() is run:
                return found[1]
            token = secrets.token_hex(16)
            self._note(run, token)
        self._watch(run, token)
        return token

    def _track(self, run: Run, token: str) -> None:
        with self._lock:
            self._note(run, token)
        self._watch(run, token)

    def _note(self, run: Run, token: str) -> None:
        """Count `run` under `token` (the caller holds the lock)."""
        self._held[token] = run.nbytes
        self._tokens[id(run)] = (weakref.ref(run), token)

    def _watch(self, run: Run, token: str) -> None:
        # The finalizer holds neither the run nor a lock: it only queues the token for `settle`.
        weakref.finalize(run, self._gone.append, (token, id(run)))

    def settle(self) -> None:
        """Return the bytes of every run let go since the last call, and tell the listeners."""
        released = []
        while self._gone:
            token, key = self._gone.popleft()
            with self._lock:
                self._held.pop(token, None)
                if key in self._tokens and self._tokens[key][1] == token:
                    del self._tokens[key]
                listeners = list(self._listeners)
            released.append((token, listeners))
        for token, listeners in released:
            for callback in listeners:
                callback(token)
