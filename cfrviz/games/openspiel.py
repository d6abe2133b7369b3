"""OpenSpiel games, when OpenSpiel is installed (`pip install open_spiel`; never required).

`load_openspiel("liars_dice(numdice=1,dice_sides=3)")` enumerates the game once into an
`ExplicitGame`: chance outcomes with their probabilities, action names from
`action_to_string`, and each information set's OpenSpiel `information_state_string`, kept
exactly in `OpenSpielGame.information_state_strings` so a strategy can be handed back to
OpenSpiel. Its title is in words: OpenSpiel's own name of the game and the parameters written
("Liars Dice, dice sides 3"; the app's menu games have their own, see `cfrviz.catalog.openspiel_menu`). Simultaneous-move games are played turn-based (OpenSpiel's own
`convert_to_turn_based`). Only two-player zero-sum or constant-sum games with explicit
chance are taken, and only trees up to `MAX_OPENSPIEL_NODES` histories.

OpenSpiel itself never runs in this process. Its C++ can crash, allocate gigabytes or hold
the interpreter lock for minutes on a hostile string, so a child process
(`cfrviz/games/openspiel_worker.py`, started with `subprocess`, never forked from a threaded
server) loads and enumerates the game under an address-space cap, a CPU-time limit and a
wall-clock timeout, and sends back plain JSON. One child runs at a time per process. A crash,
a timeout or a limit is one sentence naming the game string and what was exceeded. Game
strings that name a file are refused before any child starts, with one sentence whatever
the file. Refusals and accepted games are remembered in small bounded caches, so a repeated
hostile request costs nothing. Only `tabular_policy` (an explicit local call) imports pyspiel
here.
"""
from __future__ import annotations

import importlib.util
import json
import os
import re
import selectors
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any


from cfrviz.games.base import InformationSet, TryAgainLater
from cfrviz.util.vocabulary import Player
from cfrviz.games.explicit import ExplicitGame, unique_labels, walk_tree
from cfrviz.util import idle
from cfrviz.util.bounded_cache import BoundedCache

__all__ = ["FILE_REFUSAL", "MAX_OPENSPIEL_NODES", "GameString", "OpenSpielGame", "available",
           "information_set_keys", "load_openspiel", "openspiel_title", "parse_game_string"]


#: Most histories (chance, decision and terminal) enumerated from one OpenSpiel game.
MAX_OPENSPIEL_NODES = 200_000
#: Longest game string accepted.
MAX_GAME_STRING = 200
#: Address space of the child that loads a game, in MB (RLIMIT_AS: importing pyspiel maps about 40 MB).
CHILD_MEMORY_MB = 256
#: CPU seconds the child may use (RLIMIT_CPU); the largest menu game needs well under a second.
CHILD_CPU_SECONDS = 4
#: Wall-clock seconds the parent waits for the child before killing its process group.
CHILD_WALL_SECONDS = 12
#: Seconds a second request waits for the one child slot before it is told to try again.
QUEUE_SECONDS = 10
#: Largest answer read from the child, in bytes (the largest menu tree is about 3 MB of JSON).
MAX_ANSWER_BYTES = 64_000_000
PREFIX = "openspiel:"
# A game name with parameters: liars_dice(numdice=1,dice_sides=3). No quotes, no spaces, no slashes.
_GAME_STRING = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\([A-Za-z0-9_=,.()\-]*\))?")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_KEY = re.compile(r"[A-Za-z0-9_]+")
_VALUE = re.compile(r"[A-Za-z0-9_.\-]*")
#: Deepest nesting of game strings inside parameters (OpenSpiel's wrappers nest one or two).
MAX_NESTING = 4
#: OpenSpiel games whose whole purpose is reading a file.
FILE_GAMES = frozenset({"efg_game", "nfg_game", "crossword"})
# Parameter names that name a file or directory (instances_file, boards_file, puzzles_root, ...).
_FILE_PARAMETER = re.compile(r"file|path|dir|root|folder", re.IGNORECASE)
#: The one sentence for every game string that would open a file, whatever the file (so nothing
#: tells an existing file from a missing one).
FILE_REFUSAL = ("OpenSpiel games that read files (efg_game, nfg_game, crossword) and parameters that name a file, "
                "path or directory are not loaded here, whatever the file.")
_WORKER = Path(__file__).with_name("openspiel_worker.py")
# The worker's node kinds, in order: player 1, player 2, chance, terminal.
_KINDS = (Player.FIRST, Player.SECOND, Player.CHANCE, Player.TERMINAL)


@dataclass(frozen=True, eq=False)
class OpenSpielGame(ExplicitGame):
    """An OpenSpiel game enumerated into an explicit tree.

    `game_string` is the string given (without "openspiel:"), so `load_openspiel(game_string)`
    rebuilds it; `information_state_strings[i]` is OpenSpiel's exact information-state string
    of information set i (`InformationSet.key` is the same string when it is one line and no
    other player's set has it, else a one-line form of it). `long_name` is OpenSpiel's own name of
    the game ("Liars Dice"); the title is made from it and the parameters written (`openspiel_title`).
    """

    game_string: str = ""
    long_name: str = ""
    information_state_strings: tuple[str, ...] = ()
    action_ids: tuple[tuple[int, ...], ...] = ()
    turn_based: bool = False


@dataclass(frozen=True)
class GameString:
    """An OpenSpiel game string, parsed: a game name and its parameters in the order written.

    A parameter's value is its text, or a game string itself (`game=goofspiel(num_cards=3)`).

    >>> parse_game_string("goofspiel(num_cards=3,imp_info=True)").params
    (('num_cards', '3'), ('imp_info', 'True'))
    >>> parse_game_string("liars_dice(dice_sides=4,numdice=1)").normalised()
    'liars_dice(dice_sides=4,numdice=1)'
    """

    name: str
    params: tuple[tuple[str, str | GameString], ...] = ()
    bracketed: bool = False

    def __str__(self) -> str:
        inside = ",".join(f"{k}={v}" for k, v in self.params)
        return f"{self.name}({inside})" if self.params or self.bracketed else self.name

    def normalised(self) -> str:
        """The same game with its parameters sorted by name at every level (order does not matter to
        OpenSpiel); empty brackets dropped."""
        if not self.params:
            return self.name
        inside = ",".join(f"{k}={v.normalised() if isinstance(v, GameString) else v}"
                          for k, v in sorted(self.params, key=lambda kv: kv[0]))
        return f"{self.name}({inside})"

    def names_a_file(self) -> bool:
        """Whether loading this game (or a game nested in it) would read a file."""
        if self.name.lower() in FILE_GAMES:
            return True
        for key, value in self.params:
            if _FILE_PARAMETER.search(key):
                return True
            if isinstance(value, GameString) and value.names_a_file():
                return True
            if isinstance(value, str) and value.lower() in FILE_GAMES:
                return True
        return False


def parse_game_string(text: str) -> GameString:
    """`text` ("name" or "name(key=value,...)", values possibly game strings) parsed; ValueError
    with one sentence when it is not a game string."""
    parsed, end = _parse_game(text, 0, 0)
    if end != len(text):
        raise ValueError(_not_a_game_string(text))
    return parsed


def _not_a_game_string(text: str) -> str:
    return (f"{text[:60]!r} is not an OpenSpiel game string such as "
            "'liars_dice(numdice=1,dice_sides=3)' (a name, then parameters in brackets).")


def _parse_game(text: str, at: int, depth: int) -> tuple[GameString, int]:
    name = _NAME.match(text, at)
    if name is None or depth > MAX_NESTING:
        raise ValueError(_not_a_game_string(text))
    at = name.end()
    if at == len(text) or text[at] != "(":
        return GameString(name.group()), at
    at += 1
    params: list[tuple[str, str | GameString]] = []
    if at < len(text) and text[at] == ")":
        return GameString(name.group(), (), True), at + 1
    while True:
        key = _KEY.match(text, at)
        if key is None or key.end() >= len(text) or text[key.end()] != "=":
            raise ValueError(_not_a_game_string(text))
        at = key.end() + 1
        nested = _NAME.match(text, at)
        value: str | GameString
        if nested is not None and nested.end() < len(text) and text[nested.end()] == "(":
            value, at = _parse_game(text, at, depth + 1)
        else:
            plain = _VALUE.match(text, at)
            assert plain is not None   # the pattern matches the empty string
            value, at = plain.group(), plain.end()
        params.append((key.group(), value))
        if at < len(text) and text[at] == ",":
            at += 1
            continue
        if at < len(text) and text[at] == ")":
            return GameString(name.group(), tuple(params), True), at + 1
        raise ValueError(_not_a_game_string(text))


def available() -> bool:
    """True when pyspiel (OpenSpiel's Python module) can be imported (checked without importing it)."""
    return importlib.util.find_spec("pyspiel") is not None


def _check_string(game_string: str) -> str:
    text = str(game_string).strip()
    if text.lower().startswith(PREFIX):
        text = text[len(PREFIX):].strip()
    if len(text) > MAX_GAME_STRING:
        raise ValueError(f"An OpenSpiel game string is at most {MAX_GAME_STRING} characters long.")
    if not _GAME_STRING.fullmatch(text):
        raise ValueError(_not_a_game_string(text))
    return text


class _Remembered:
    """A small least-recently-used map shared by every session of the server (thread-safe), within
    `most` entries and `max_bytes` by `size`."""

    def __init__(self, most: int, max_bytes: int, size: Callable[[Any], int]) -> None:
        self.items: BoundedCache[tuple[str, int], Any] = BoundedCache(most, max_bytes, size)
        self.lock = threading.Lock()

    def get(self, key: tuple[str, int]) -> Any:
        with self.lock:
            return self.items.get(key)

    def put(self, key: tuple[str, int], value: Any) -> None:
        with self.lock:
            if self.items.getsizeof(value) <= self.items.maxsize:    # a larger one is used, not kept
                self.items[key] = value

    def clear(self) -> None:
        with self.lock:
            self.items.clear()


#: Estimated bytes per history of an enumerated game (node tables, labels, histories: the catalog's
#: estimate for explicit trees, measured 180 to 730 on .efg games).
_BYTES_PER_HISTORY = 1_000


def _game_bytes(game: Any) -> int:
    nodes = getattr(game, "num_nodes", None)
    return (nodes if isinstance(nodes, int) else 0) * _BYTES_PER_HISTORY


#: Sentences of refused game strings, by normalised string and history cap (a sentence is short:
#: 256 of them within 1 MB).
_REFUSED = _Remembered(256, 1_000_000, lambda sentence: len(str(sentence)))
#: Accepted games by normalised string and history cap; the catalog keeps its own compiled trees.
#: 4 games within 200 MB: one at the menu's 200,000 histories is about that size.
_ACCEPTED = _Remembered(4, MAX_OPENSPIEL_NODES * _BYTES_PER_HISTORY, _game_bytes)
idle.on_idle("OpenSpiel games", _ACCEPTED.clear)   # emptied when the last visitor has gone; refusals stay
#: One OpenSpiel child at a time per process: a burst of requests cannot fork a burst of children.
_CHILD_SLOT = threading.BoundedSemaphore(1)


class _Refusal(ValueError):
    """A sentence the next identical request gets again without a child (not a busy server)."""


def load_openspiel(game_string: str, *, max_nodes: int | None = None, title: str | None = None) -> OpenSpielGame:
    """The OpenSpiel game `game_string` as a cfrviz game; ValueError (one sentence) if it cannot be one.

    Its title is `title` when given, else `openspiel_title` of OpenSpiel's name and the parameters written.

    The game is loaded and enumerated in a child process under `CHILD_MEMORY_MB`,
    `CHILD_CPU_SECONDS` and `CHILD_WALL_SECONDS`; any failure there is a sentence.

    >>> game = load_openspiel("kuhn_poker")                     # doctest: +SKIP
    >>> game.information_state_strings[0]                       # doctest: +SKIP
    '0'
    """
    text = _check_string(game_string)
    parsed = parse_game_string(text)
    if parsed.names_a_file():
        raise ValueError(FILE_REFUSAL)
    if not available():
        raise ValueError(f"OpenSpiel is not installed, so {text!r} cannot be loaded; "
                         "`pip install open_spiel` adds it.")
    cap = MAX_OPENSPIEL_NODES if max_nodes is None else int(max_nodes)
    key = (parsed.normalised(), cap)
    game = _remembered(key, text)
    if game is not None:
        return _titled(game, title)
    if not _CHILD_SLOT.acquire(timeout=QUEUE_SECONDS):
        raise TryAgainLater(f"The server is busy loading another OpenSpiel game, so {text!r} was not loaded; "
                         "try again in a few seconds.")
    try:
        game = _remembered(key, text)   # another session may have loaded it while this one waited
        if game is not None:
            return _titled(game, title)
        try:
            game = _game_from_answer(text, _run_child(text, cap))
        except _Refusal as refusal:
            _REFUSED.put(key, str(refusal))
            raise ValueError(str(refusal)) from None
        except TryAgainLater:   # no child could start, or the machine was too busy: worth another try later
            raise
        except OSError as error:   # no temporary folder or pipe: the machine, not the game
            raise TryAgainLater(f"No process could be started to load {text!r} ({type(error).__name__}); "
                             "try again later.") from None
        except Exception as error:   # a defect reading the answer is still a sentence, not a traceback
            sentence = f"OpenSpiel's answer for {text!r} could not be read ({type(error).__name__})."
            _REFUSED.put(key, sentence)
            raise ValueError(sentence) from None
    finally:
        _CHILD_SLOT.release()
    _ACCEPTED.put(key, game)
    return _titled(game, title)


def _titled(game: OpenSpielGame, title: str | None) -> OpenSpielGame:
    """`game` under `title` (the same tables), or as it is when no other title is asked for."""
    return game if title is None or title == game.title else replace(game, title=title)


def _remembered(key: tuple[str, int], text: str) -> OpenSpielGame | None:
    """The cached game under `key` (named as `text` asks), or ValueError with a remembered refusal."""
    refusal = _REFUSED.get(key)
    if refusal is not None:
        raise ValueError(refusal)
    game: OpenSpielGame | None = _ACCEPTED.get(key)
    if game is None or game.game_string == text:
        return game
    # The same game written another way (parameters in another order): its own name, shared tables.
    return replace(game, name=f"{PREFIX}{text}", title=openspiel_title(game.long_name, text), game_string=text,
                   description=game.description.replace(game.game_string, text, 1))


def forget_openspiel_games() -> None:
    """Empty the caches of accepted and refused game strings (tests; a server never needs to)."""
    _REFUSED.clear()
    _ACCEPTED.clear()


def _child_environment() -> dict[str, str]:
    """The child's environment: nothing of the server's but the search path (no secrets), one malloc
    arena and one thread, so the address-space cap measures the game, not idle arenas."""
    keep = {name: os.environ[name] for name in ("PATH", "LD_LIBRARY_PATH", "SYSTEMROOT") if name in os.environ}
    return {**keep, "LANG": "C.UTF-8", "MALLOC_ARENA_MAX": "2", "OMP_NUM_THREADS": "1"}


def _run_child(text: str, cap: int) -> dict[str, Any]:
    """Run the worker on `text` and return its JSON answer; _Refusal (one sentence) on a crash,
    a limit, a timeout, an oversized or unreadable answer, or a game cfrviz cannot take."""
    command = [sys.executable, "-E", "-P", str(_WORKER), str(CHILD_MEMORY_MB * 1024 * 1024),
               str(CHILD_CPU_SECONDS), str(cap), text]
    with tempfile.TemporaryDirectory(prefix="cfrviz-openspiel-") as empty:
        try:
            # start_new_session: the child leads its own process group, so a timeout kills all of it.
            # No preexec_fn: it is unsafe in a threaded server; the child limits itself.
            child = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, cwd=empty, env=_child_environment(),
                                     start_new_session=True)
        except OSError as error:
            raise TryAgainLater(f"No process could be started to load {text!r} ({error.strerror or error}); "
                             "try again later.") from None
        try:
            answer, overflow, timed_out = _collect(child, time.monotonic() + CHILD_WALL_SECONDS)
        finally:   # whatever interrupted the wait, no child outlives it
            if child.returncode is None:
                _kill_group(child)
    status = child.returncode
    if timed_out:   # CPU-bound games meet the CPU limit first; a wall-clock timeout means a busy machine
        raise TryAgainLater(f"Loading {text!r} took longer than {CHILD_WALL_SECONDS} s, the limit for one OpenSpiel "
                       "game here; choose smaller parameters.")
    if overflow:
        raise _Refusal(f"{text!r} gave more than {MAX_ANSWER_BYTES / 1e6:g} MB of tree data, more than "
                       "cfrviz reads back; choose smaller parameters.")
    if status is not None and status < 0:
        raise _Refusal(_signal_sentence(text, -status))
    try:
        document = json.loads(answer)
    except ValueError:
        document = None
    if not isinstance(document, dict) or status != 0:
        raise _Refusal(f"OpenSpiel stopped without an answer while loading {text!r} (exit status {status}).")
    if document.get("limit") == "memory":
        raise _Refusal(_memory_sentence(text))
    for failure in ("refused", "failed"):
        if failure in document:
            reason = " ".join(str(document[failure]).split())[:400]
            raise _Refusal(reason if failure == "refused" else f"OpenSpiel failed on {text!r}: {reason}.")
    return document


def _memory_sentence(text: str) -> str:
    return (f"Loading {text!r} needed more than {CHILD_MEMORY_MB} MB of memory, the limit for one OpenSpiel "
            "game here; choose smaller parameters.")


def _signal_sentence(text: str, number: int) -> str:
    """What a child killed by signal `number` means, in one sentence naming the game string."""
    if number in (signal.SIGXCPU, signal.SIGKILL):
        # RLIMIT_CPU sends SIGXCPU at the soft limit and SIGKILL at the hard one.
        return (f"Loading {text!r} used more than {CHILD_CPU_SECONDS} s of CPU, the limit for one OpenSpiel "
                "game here; choose smaller parameters.")
    try:
        name = signal.Signals(number).name
    except ValueError:
        name = f"signal {number}"
    return f"OpenSpiel crashed ({name}) while loading {text!r}, so that game cannot be used."


def _collect(child: subprocess.Popen[bytes], deadline: float) -> tuple[bytes, bool, bool]:
    """The child's standard output, read until it ends or `deadline` passes (then its process group is
    killed). Returns (output, whether it passed MAX_ANSWER_BYTES, whether it timed out). Never waits
    without a bound; standard error is read and dropped so the child cannot block on it."""
    assert child.stdout is not None and child.stderr is not None
    chunks: list[bytes] = []
    size = 0
    overflow = timed_out = False
    with selectors.DefaultSelector() as selector:
        selector.register(child.stdout, selectors.EVENT_READ)
        selector.register(child.stderr, selectors.EVENT_READ)
        open_streams = 2
        while open_streams:
            left = deadline - time.monotonic()
            if left <= 0:
                timed_out = True
                break
            for ready, _ in selector.select(timeout=left):
                data = os.read(ready.fd, 1 << 16)
                if not data:
                    selector.unregister(ready.fileobj)
                    open_streams -= 1
                elif ready.fileobj is child.stdout:
                    size += len(data)
                    if size > MAX_ANSWER_BYTES:
                        overflow = True
                        break
                    chunks.append(data)
            if overflow:
                break
    if not (timed_out or overflow):
        try:
            child.wait(timeout=max(deadline - time.monotonic(), 0.1))
        except subprocess.TimeoutExpired:
            timed_out = True
    if child.returncode is None:
        _kill_group(child)
    child.stdout.close()
    child.stderr.close()
    return b"".join(chunks), overflow, timed_out


def _kill_group(child: subprocess.Popen[bytes]) -> None:
    """Kill the child's whole process group and reap it (bounded: SIGKILL cannot be ignored)."""
    try:
        os.killpg(child.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        child.wait(timeout=5)
    except subprocess.TimeoutExpired:
        pass


def _game_from_answer(text: str, document: dict[str, Any]) -> OpenSpielGame:
    """The `OpenSpielGame` of the worker's plain tables (see `openspiel_worker.enumerate_tree`)."""
    tree = document["tree"]
    kinds, first, count, node_set = tree["actor"], tree["first"], tree["count"], tree["infoset"]
    sets = tree["sets"]
    n = len(kinds)
    if not (n and len(first) == len(count) == len(node_set) == n):
        raise _Refusal(f"OpenSpiel's answer for {text!r} has node tables of different lengths.")
    chance = iter(tree["chance"])
    ends = iter(tree["returns"])
    actor: list[Player] = []
    children: list[tuple[int, ...]] = []
    edge_labels: list[tuple[str, ...]] = []
    probabilities: list[tuple[float, ...]] = []
    infoset: list[int] = []
    returns: list[tuple[float, float]] = []
    strings = [str(s[1]) for s in sets]
    set_players = [Player(int(s[0])) for s in sets]
    set_actions = [tuple(str(a) for a in s[2]) for s in sets]
    for node in range(n):
        kind = _KINDS[int(kinds[node])]
        start, k = int(first[node]), int(count[node])
        if k and not node < start <= start + k <= n:
            raise _Refusal(f"OpenSpiel's answer for {text!r} has a child before its parent.")
        actor.append(kind)
        children.append(tuple(range(start, start + k)))
        infoset.append(int(node_set[node]) if kind in (Player.FIRST, Player.SECOND) else -1)
        if kind == Player.CHANCE:
            labels, probs = next(chance)
            edge_labels.append(tuple(str(x) for x in labels))
            probabilities.append(tuple(float(p) for p in probs))
        else:
            edge_labels.append(set_actions[infoset[-1]] if kind != Player.TERMINAL else ())
            probabilities.append(())
        if len(edge_labels[-1]) != k:
            raise _Refusal(f"OpenSpiel's answer for {text!r} gives a node as many names as children.")
        r = next(ends) if kind == Player.TERMINAL else (0.0, 0.0)
        returns.append((float(r[0]), float(r[1])))
    totals = {round(a + b, 9) for (a, b), who in zip(returns, actor) if who == Player.TERMINAL}
    if len(totals) > 1:
        raise _Refusal(f"The returns of {text!r} do not sum to one constant at every end of the game.")
    walk = walk_tree(actor, children, edge_labels, infoset, len(strings))
    if walk.forgetful is not None:
        raise _Refusal(f"In {text!r} player {actor[walk.forgetful[0]] + 1} forgets their own earlier moves; "
                         "CFR needs perfect recall.")
    keys = information_set_keys(strings, set_players)
    infosets = tuple(InformationSet(keys[i], set_players[i], None, None, walk.histories[i], set_actions[i])
                     for i in range(len(strings)))
    # Constant-sum returns r1 + r2 = c are played as the zero-sum game (r1 - r2) / 2 (same equilibria).
    payoff = tuple((a - b) / 2 if who == Player.TERMINAL else 0.0 for (a, b), who in zip(returns, actor))
    constant = next(iter(totals), 0.0)
    turn_based = bool(tree.get("turn_based"))
    description = f"OpenSpiel's {text}" + (", played turn-based (player 1 moves first, player 2 does not see it)"
                                           if turn_based else "") + "."
    if constant != 0:
        description += (f" Returns sum to {constant:g} at every end; player 1's payoff is counted as "
                        "(r1 - r2) / 2, which keeps every equilibrium.")
    long_name = " ".join(str(tree.get("long_name", "")).split())[:80]
    return OpenSpielGame(
        name=f"{PREFIX}{text}", title=openspiel_title(long_name, text), actor=tuple(actor), children=tuple(children),
        edge_labels=tuple(edge_labels), chance_probabilities=tuple(probabilities), infoset=tuple(infoset),
        infosets=infosets, payoff=payoff, labels=unique_labels(walk.path_labels), description=description,
        game_string=text, information_state_strings=tuple(strings),
        action_ids=tuple(tuple(int(a) for a in s[3]) for s in sets), turn_based=turn_based, long_name=long_name)


def openspiel_title(long_name: str, game_string: str) -> str:
    """A readable title of any OpenSpiel game: OpenSpiel's own name, then the parameters the game string
    writes, in words ("Liars Dice, dice sides 3"); the game string itself when OpenSpiel gave no name.
    (The app's menu games have titles of their own: `cfrviz.catalog.openspiel_menu`.)

    >>> openspiel_title("Liars Dice", "liars_dice(dice_sides=3,players=2)")
    'Liars Dice, dice sides 3'
    >>> openspiel_title("Kuhn Poker", "kuhn_poker")
    'Kuhn Poker'
    """
    if not long_name:
        return game_string
    try:
        parsed = parse_game_string(game_string)
    except ValueError:
        return long_name
    # Two players is the only number cfrviz takes, so it says nothing.
    written = [f"{key.replace('_', ' ')} {value}" for key, value in parsed.params
               if not (key in ("players", "num_players") and value == "2")]
    return ", ".join([long_name, *written])


def information_set_keys(strings: list[str], players: Sequence[int]) -> list[str]:
    """The information-state strings themselves where one line and unique across players, else one-line forms."""
    def one_line(s: str) -> str:
        return " | ".join(part.strip() for part in s.strip().splitlines() if part.strip())

    keys = [s if "\n" not in s else one_line(s) for s in strings]
    if len(set(keys)) == len(keys):
        return keys
    keys = [f"P{p + 1} {k}" for k, p in zip(keys, players)]
    if len(set(keys)) == len(keys):
        return keys
    return [f"P{p + 1}:{i}" for i, p in enumerate(players)]
