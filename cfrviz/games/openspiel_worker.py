"""The child process that loads and enumerates one OpenSpiel game, under limits, for `cfrviz.games.openspiel`.

OpenSpiel's C++ can crash, allocate gigabytes or hold the interpreter lock for minutes on a
hostile game string, so the server never imports pyspiel: it runs this file as a script,

    python -I openspiel_worker.py <address-space bytes> <CPU seconds> <most histories> <game string>

and reads one JSON object from its standard output. The limits (`RLIMIT_AS`, `RLIMIT_CPU`,
no core files) are set first thing, before pyspiel is imported; nothing here imports cfrviz
(its package would load numpy and numba before the limits), only the standard library.

The answer is plain data, never a pyspiel object: {"tree": ...} with the flat node tables,
{"refused": sentence} when the game is not one cfrviz solves, or {"limit": "memory"}.
The walk is depth first and keeps cloned states only along the current path, so its memory
grows with the depth of the game and the histories kept, never with the pending frontier.
"""
from __future__ import annotations

import json
import os
import resource
import sys
from typing import Any

# Node kinds in the answer: indices into `cfrviz.games.openspiel._KINDS`, which maps them onto `Player`
# (this file imports nothing from cfrviz, so it cannot name `Player` itself).
KIND_FIRST, KIND_SECOND, KIND_CHANCE, KIND_TERMINAL = 0, 1, 2, 3
# Written with no allocation once memory has run out.
_OUT_OF_MEMORY = b'{"limit": "memory"}'


class Refused(Exception):
    """The game is not one cfrviz can solve; the message is one sentence for the user."""


def set_limits(address_space: int, cpu_seconds: int) -> None:
    """Cap this process: address space in bytes, CPU seconds (SIGXCPU, then SIGKILL a second later), no core files."""
    def lower(kind: int, soft: int, hard: int) -> None:
        # A server started under its own cap (prlimit) passes it on: never ask above its hard limit.
        _, inherited = resource.getrlimit(kind)
        if inherited != resource.RLIM_INFINITY:
            soft, hard = min(soft, inherited), min(hard, inherited)
        resource.setrlimit(kind, (soft, hard))

    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    lower(resource.RLIMIT_AS, address_space, address_space)
    lower(resource.RLIMIT_CPU, cpu_seconds, cpu_seconds + 1)


def first_line(error: BaseException) -> str:
    """The first line of an error's message as a clause: OpenSpiel's prefix gone, its own full stops
    turned into semicolons (so it sits inside one sentence), at most 160 characters."""
    text = str(error).strip()
    line = text.splitlines()[0] if text else type(error).__name__
    line = line.removeprefix("OpenSpiel exception: ").strip().rstrip(".").replace(". ", "; ")
    return line[:160]


def load(pyspiel: Any, text: str, cap: int) -> dict[str, Any]:
    """The game `text` as plain node tables; Refused (one sentence) when cfrviz cannot take it."""
    try:
        game = pyspiel.load_game(text)
    except pyspiel.SpielError as error:   # unknown games and parameters
        raise Refused(f"OpenSpiel cannot load {text!r}: {first_line(error)}.") from None
    kind = game.get_type()
    turn_based = kind.dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    if turn_based:
        game = pyspiel.convert_to_turn_based(game)
        kind = game.get_type()
    elif kind.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
        raise Refused(f"{text!r} is a {kind.dynamics.name.lower().replace('_', '-')} game, not a game of "
                      "two players taking turns.")
    if game.num_players() != 2:
        raise Refused(f"{text!r} has {game.num_players()} players; cfrviz solves two-player games only.")
    if kind.utility not in (pyspiel.GameType.Utility.ZERO_SUM, pyspiel.GameType.Utility.CONSTANT_SUM):
        raise Refused(f"{text!r} is not zero-sum or constant-sum ({kind.utility.name.lower()}); "
                      "CFR here needs what one player wins to be what the other loses.")
    if kind.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC:
        raise Refused(f"{text!r} samples chance without listing its outcomes, so its tree cannot be enumerated.")
    if not kind.provides_information_state_string:
        raise Refused(f"{text!r} gives no information-state strings, so its information sets are unknown.")
    tree = enumerate_tree(pyspiel, game, text, cap)
    tree["turn_based"] = turn_based
    # OpenSpiel's own name of the game ("Liars Dice"), for the title.
    tree["long_name"] = str(kind.long_name)
    return tree


def enumerate_tree(pyspiel: Any, game: Any, text: str, cap: int) -> dict[str, Any]:
    """Every history of `game`, depth first, as flat tables indexed by node id (root 0).

    When a node is reached its children get consecutive ids, so every parent's id is below its
    children's. Per node: `actor`, `first` child id and `count` of children, `infoset` (-1 off
    decisions); per chance node in id order `chance` = [labels, probabilities]; per terminal in
    id order `returns` = [r1, r2]; per information set `sets` = [player, information-state
    string, action names (`action_to_string`), OpenSpiel action ids]. Refused past `cap` histories.
    """
    actor: list[int] = [KIND_TERMINAL]
    first: list[int] = [-1]
    count: list[int] = [0]
    infoset: list[int] = [-1]
    chance: dict[int, list[Any]] = {}
    returns: dict[int, list[float]] = {}
    sets: list[list[Any]] = []
    set_index: dict[tuple[int, str], int] = {}

    def reserve(k: int) -> int:
        start = len(actor)
        if start + k > cap:
            raise Refused(f"{text!r} has more than {cap:,} histories, more than cfrviz draws or solves "
                          "interactively; choose smaller parameters.")
        actor.extend([KIND_TERMINAL] * k)
        first.extend([-1] * k)
        count.extend([0] * k)
        infoset.extend([-1] * k)
        return start

    def visit(state: Any, node: int) -> list[int] | None:
        """Record `node`; its moves (children reserved) or None at a terminal."""
        if state.is_terminal():
            r = state.returns()
            returns[node] = [float(r[0]), float(r[1])]
            return None
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            moves = [int(a) for a, _ in outcomes]
            labels = distinct([state.action_to_string(pyspiel.PlayerId.CHANCE, a) for a in moves], moves)
            actor[node] = KIND_CHANCE
            chance[node] = [labels, [float(p) for _, p in outcomes]]
        else:
            player = state.current_player()
            if player not in (0, 1):
                raise Refused(f"{text!r} has a node where player {player} acts; cfrviz handles two players "
                              "taking turns, with chance.")
            moves = [int(a) for a in state.legal_actions()]
            if not moves:
                raise Refused(f"{text!r} has a decision with no legal action.")
            labels = distinct([state.action_to_string(player, a) for a in moves], moves)
            key = state.information_state_string(player)
            i = set_index.get((player, key))
            if i is None:
                i = set_index[(player, key)] = len(sets)
                sets.append([player, key, labels, moves])
            elif sets[i][2] != labels:
                raise Refused(f"{text!r} gives one information state of player {player + 1} different actions "
                              "at different histories.")
            actor[node] = KIND_FIRST if player == 0 else KIND_SECOND
            infoset[node] = i
        first[node] = reserve(len(moves))
        count[node] = len(moves)
        return moves

    # The path from the root: [state, its moves, id of its first child, index of the next child].
    root = game.new_initial_state()
    moves = visit(root, 0)
    path: list[list[Any]] = [] if moves is None else [[root, moves, first[0], 0]]
    while path:
        frame = path[-1]
        state, moves, start, k = frame
        if k == len(moves):
            path.pop()
            continue
        frame[3] = k + 1
        child = state.child(moves[k])
        below = visit(child, start + k)
        if below is not None:
            path.append([child, below, first[start + k], 0])
    return {"actor": actor, "first": first, "count": count, "infoset": infoset,
            "chance": [chance[n] for n in sorted(chance)], "returns": [returns[n] for n in sorted(returns)],
            "sets": sets}


def distinct(labels: list[str], actions: list[int]) -> list[str]:
    """Action names, with OpenSpiel's action id added where two names at one node coincide."""
    if len(set(labels)) == len(labels):
        return labels
    return [f"{label} [{a}]" for label, a in zip(labels, actions)]


def usage() -> dict[str, float]:
    """CPU seconds, peak resident memory and peak address space (kB) of this process so far.

    The peaks come from /proc/self/status (VmHWM, VmPeak), which start afresh at exec; `ru_maxrss`
    would carry the forking parent's peak over.
    """
    own = resource.getrusage(resource.RUSAGE_SELF)
    found = {"cpu_seconds": own.ru_utime + own.ru_stime}
    names = {"VmHWM:": "peak_rss_kb", "VmPeak:": "peak_address_space_kb"}
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                field = line.split()
                if field and field[0] in names:
                    found[names[field[0]]] = float(field[1])
    except OSError:   # not Linux
        pass
    return found


def main(argv: list[str]) -> int:
    address_space, cpu_seconds, cap, text = int(argv[0]), int(argv[1]), int(argv[2]), argv[3]
    set_limits(address_space, cpu_seconds)
    # Whatever OpenSpiel prints goes to standard error; the answer has its own descriptor.
    answer = os.dup(1)
    os.dup2(2, 1)
    try:
        import pyspiel

        document: dict[str, Any] = {"tree": load(pyspiel, text, cap)}
    except MemoryError:
        os.write(answer, _OUT_OF_MEMORY)
        return 0
    except Refused as refusal:
        document = {"refused": str(refusal)}
    except Exception as error:   # SpielError from a game's rules, IndexError, RuntimeError, ...
        document = {"failed": f"{type(error).__name__}: {first_line(error)}"}
    try:
        from importlib.metadata import version

        document["version"] = version("open_spiel")
    except Exception:
        document["version"] = ""
    document["usage"] = usage()
    try:
        payload = json.dumps(document, separators=(",", ":"), allow_nan=False).encode()
    except MemoryError:
        os.write(answer, _OUT_OF_MEMORY)
        return 0
    except ValueError:   # a non-finite probability or return
        payload = json.dumps({"failed": "ValueError: a probability or return is not a finite number"}).encode()
    view = memoryview(payload)
    while view:
        written = os.write(answer, view)
        view = view[written:]
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
