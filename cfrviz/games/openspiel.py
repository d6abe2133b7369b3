"""OpenSpiel games, when OpenSpiel is installed (`pip install open_spiel`; never required).

`load_openspiel("liars_dice(numdice=1,dice_sides=3)")` enumerates the game once through
pyspiel into an `ExplicitGame`: chance outcomes with their probabilities, action names from
`action_to_string`, and each information set's OpenSpiel `information_state_string`, kept
exactly in `OpenSpielGame.information_state_strings` so a strategy can be handed back to
OpenSpiel. Simultaneous-move games are played turn-based (OpenSpiel's own
`load_game_as_turn_based`). Only two-player zero-sum or constant-sum games with explicit
chance are taken, and only trees up to `MAX_OPENSPIEL_NODES` histories.
"""
from __future__ import annotations

import importlib.util
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from cfrviz.games.base import CHANCE, PLAYER_1, PLAYER_2, TERMINAL, InformationSet
from cfrviz.games.explicit import ExplicitGame, unique_labels, walk_tree

if TYPE_CHECKING:
    from cfrviz.tree import GameTree

#: Most histories (chance, decision and terminal) enumerated from one OpenSpiel game.
MAX_OPENSPIEL_NODES = 200_000
#: Longest game string accepted.
MAX_GAME_STRING = 200
PREFIX = "openspiel:"
# A game name with parameters: liars_dice(numdice=1,dice_sides=3). No quotes, no spaces.
_GAME_STRING = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\([A-Za-z0-9_=,.()\-]*\))?")

__all__ = ["MAX_OPENSPIEL_NODES", "OpenSpielGame", "available", "information_set_keys", "load_openspiel",
           "openspiel_records", "policy_table", "tabular_policy"]


@dataclass(frozen=True, eq=False)
class OpenSpielGame(ExplicitGame):
    """An OpenSpiel game enumerated into an explicit tree.

    `game_string` is the string given (without "openspiel:"), so `load_openspiel(game_string)`
    rebuilds it; `information_state_strings[i]` is OpenSpiel's exact information-state string
    of information set i (`InformationSet.key` is the same string when it is one line and no
    other player's set has it, else a one-line form of it).
    """

    game_string: str = ""
    information_state_strings: tuple[str, ...] = ()
    action_ids: tuple[tuple[int, ...], ...] = ()
    turn_based: bool = False
    openspiel_version: str = ""


def available() -> bool:
    """True when pyspiel (OpenSpiel's Python module) can be imported."""
    return importlib.util.find_spec("pyspiel") is not None


def _check_string(game_string: str) -> str:
    text = str(game_string).strip()
    if text.lower().startswith(PREFIX):
        text = text[len(PREFIX):].strip()
    if len(text) > MAX_GAME_STRING:
        raise ValueError(f"An OpenSpiel game string is at most {MAX_GAME_STRING} characters long.")
    if not _GAME_STRING.fullmatch(text):
        raise ValueError(f"{text[:60]!r} is not an OpenSpiel game string such as "
                         "'liars_dice(numdice=1,dice_sides=3)' (a name, then parameters in brackets).")
    return text


def _first_line(error: Exception) -> str:
    line = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    line = line.removeprefix("OpenSpiel exception: ").rstrip(".")
    return line[:160]


def load_openspiel(game_string: str, *, max_nodes: int | None = None) -> OpenSpielGame:
    """The OpenSpiel game `game_string` as a cfrviz game; ValueError (one sentence) if it cannot be one.

    >>> game = load_openspiel("kuhn_poker")                     # doctest: +SKIP
    >>> game.information_state_strings[0]                       # doctest: +SKIP
    '0'
    """
    text = _check_string(game_string)
    cap = MAX_OPENSPIEL_NODES if max_nodes is None else max_nodes
    if not available():
        raise ValueError(f"OpenSpiel is not installed, so {text!r} cannot be loaded; "
                         "`pip install open_spiel` adds it.")
    import pyspiel

    try:
        game = pyspiel.load_game(text)
    except (pyspiel.SpielError, RuntimeError, ValueError) as error:   # unknown games and parameters
        raise ValueError(f"OpenSpiel cannot load {text!r}: {_first_line(error)}.") from None
    kind = game.get_type()
    turn_based = kind.dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    if turn_based:
        game = pyspiel.convert_to_turn_based(game)
        kind = game.get_type()
    if game.num_players() != 2:
        raise ValueError(f"{text!r} has {game.num_players()} players; cfrviz solves two-player games only.")
    if kind.utility not in (pyspiel.GameType.Utility.ZERO_SUM, pyspiel.GameType.Utility.CONSTANT_SUM):
        raise ValueError(f"{text!r} is not zero-sum or constant-sum ({kind.utility.name.lower()}); "
                         "CFR here needs what one player wins to be what the other loses.")
    if kind.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC:
        raise ValueError(f"{text!r} samples chance without listing its outcomes, so its tree cannot be enumerated.")
    if not kind.provides_information_state_string:
        raise ValueError(f"{text!r} gives no information-state strings, so its information sets are unknown.")
    return _enumerate(pyspiel, game, text, cap, turn_based)


def _enumerate(pyspiel: Any, game: Any, text: str, cap: int, turn_based: bool) -> OpenSpielGame:
    too_big = (f"{text!r} has more than {cap:,} histories, more than cfrviz draws or solves interactively; "
               "choose smaller parameters.")
    actor: list[int] = []
    children: list[tuple[int, ...]] = []
    edge_labels: list[tuple[str, ...]] = []
    probabilities: list[tuple[float, ...]] = []
    infoset: list[int] = []
    returns: list[tuple[float, float]] = []
    strings: list[str] = []
    set_players: list[int] = []
    set_actions: list[tuple[str, ...]] = []
    set_action_ids: list[tuple[int, ...]] = []
    set_index: dict[tuple[int, str], int] = {}
    # Depth first with an explicit stack; a node's children get consecutive ids when it is expanded,
    # so every parent's id is below its children's, as `walk_tree` needs.
    pending = [(game.new_initial_state(), 0)]
    count = 1

    def reserve(k: int) -> list[int]:
        nonlocal count
        if count + k > cap:
            raise ValueError(too_big)
        ids = list(range(count, count + k))
        count += k
        return ids

    slots: dict[int, tuple[int, tuple[int, ...], tuple[str, ...], tuple[float, ...], int, tuple[float, float]]] = {}
    while pending:
        state, node = pending.pop()
        if state.is_terminal():
            r = state.returns()
            slots[node] = (TERMINAL, (), (), (), -1, (float(r[0]), float(r[1])))
            continue
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            ids = reserve(len(outcomes))
            labels = _distinct([state.action_to_string(pyspiel.PlayerId.CHANCE, a) for a, _ in outcomes],
                               [a for a, _ in outcomes])
            slots[node] = (CHANCE, tuple(ids), labels, tuple(float(p) for _, p in outcomes), -1, (0.0, 0.0))
            moves = [a for a, _ in outcomes]
        else:
            player = state.current_player()
            if player not in (0, 1):
                raise ValueError(f"{text!r} has a node where player {player} acts; cfrviz handles two players "
                                 "taking turns, with chance.")
            legal = state.legal_actions()
            if not legal:
                raise ValueError(f"{text!r} has a decision with no legal action.")
            labels = _distinct([state.action_to_string(player, a) for a in legal], legal)
            key_string = state.information_state_string(player)
            i = set_index.get((player, key_string))
            if i is None:
                i = set_index[(player, key_string)] = len(strings)
                strings.append(key_string)
                set_players.append(player)
                set_actions.append(labels)
                set_action_ids.append(tuple(int(a) for a in legal))
            elif set_actions[i] != labels:
                raise ValueError(f"{text!r} gives one information state of player {player + 1} different actions "
                                 "at different histories.")
            ids = reserve(len(legal))
            slots[node] = (PLAYER_1 if player == 0 else PLAYER_2, tuple(ids), labels, (), i, (0.0, 0.0))
            moves = list(legal)
        for child_id, move in reversed(list(zip(ids, moves))):
            child = state.clone()
            child.apply_action(move)
            pending.append((child, child_id))

    n = count
    for node in range(n):
        kind_, kids, labels_, probs, i, r = slots[node]
        actor.append(kind_); children.append(kids); edge_labels.append(labels_)
        probabilities.append(probs); infoset.append(i); returns.append(r)
    totals = {round(a + b, 9) for (a, b), who in zip(returns, actor) if who == TERMINAL}
    if len(totals) > 1:
        raise ValueError(f"The returns of {text!r} do not sum to one constant at every end of the game.")
    walk = walk_tree(actor, children, edge_labels, infoset, len(strings))
    if walk.forgetful is not None:
        raise ValueError(f"In {text!r} player {actor[walk.forgetful[0]] + 1} forgets their own earlier moves; "
                         "CFR needs perfect recall.")
    keys = information_set_keys(strings, set_players)
    infosets = tuple(InformationSet(keys[i], set_players[i], None, None, walk.histories[i], set_actions[i])
                     for i in range(len(strings)))
    # Constant-sum returns r1 + r2 = c are played as the zero-sum game (r1 - r2) / 2 (same equilibria).
    payoff = tuple((a - b) / 2 if who == TERMINAL else 0.0 for (a, b), who in zip(returns, actor))
    constant = next(iter(totals), 0.0)
    description = f"OpenSpiel's {text}" + (", played turn-based (player 1 moves first, player 2 does not see it)"
                                           if turn_based else "") + "."
    if constant != 0:
        description += (f" Returns sum to {constant:g} at every end; player 1's payoff is counted as "
                        "(r1 - r2) / 2, which keeps every equilibrium.")
    from importlib.metadata import PackageNotFoundError, version

    try:
        openspiel_version = version("open_spiel")
    except PackageNotFoundError:
        openspiel_version = ""
    return OpenSpielGame(
        name=f"openspiel:{text}", title=text, actor=tuple(actor), children=tuple(children),
        edge_labels=tuple(edge_labels), chance_probabilities=tuple(probabilities), infoset=tuple(infoset),
        infosets=infosets, payoff=payoff, labels=unique_labels(walk.path_labels), description=description,
        game_string=text, information_state_strings=tuple(strings), action_ids=tuple(set_action_ids),
        turn_based=turn_based,
        openspiel_version=openspiel_version)


def _distinct(labels: list[str], actions: list[int]) -> tuple[str, ...]:
    """Action names, with OpenSpiel's action id added where two names at one node coincide."""
    if len(set(labels)) == len(labels):
        return tuple(labels)
    return tuple(f"{label} [{a}]" for label, a in zip(labels, actions))


def information_set_keys(strings: list[str], players: list[int]) -> list[str]:
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


def openspiel_records(tree: GameTree) -> list[tuple[str, tuple[int, ...]]] | None:
    """Per information set of `tree` (tree order): OpenSpiel's information-state string and the
    OpenSpiel action ids of its actions; None when the tree is not an OpenSpiel game's."""
    game = tree.game
    if not isinstance(game, OpenSpielGame) or not game.information_state_strings:
        return None
    own = {record.key: j for j, record in enumerate(game.infosets)}
    return [(game.information_state_strings[own[r.key]], game.action_ids[own[r.key]]) for r in tree.infosets]


def policy_table(tree: GameTree, strategy: np.ndarray) -> dict[str, list[tuple[int, float]]]:
    """A strategy [I, A] on the compiled tree of an OpenSpiel game, as OpenSpiel reads policies:
    information-state string -> [(OpenSpiel action id, probability)], for both players."""
    records = openspiel_records(tree)
    if records is None:
        raise ValueError(f"{tree.game.title} is not an OpenSpiel game, so it has no OpenSpiel policy.")
    strategy = np.asarray(strategy, dtype=np.float64)
    if strategy.shape != tree.legal.shape:
        raise ValueError(f"A strategy of {tree.game.title} has shape {tree.legal.shape}, not {strategy.shape}.")
    return {state: [(a, float(strategy[i, k])) for k, a in enumerate(ids)]
            for i, (state, ids) in enumerate(records)}


def tabular_policy(tree: GameTree, strategy: np.ndarray) -> Any:
    """The strategy [I, A] as an OpenSpiel `TabularPolicy` of OpenSpiel's own game (needs OpenSpiel)."""
    table = policy_table(tree, strategy)
    if not available():
        raise ValueError("OpenSpiel is not installed, so no OpenSpiel policy can be made; "
                         "`pip install open_spiel` adds it.")
    import pyspiel
    from open_spiel.python import policy as policy_lib

    game = tree.game
    assert isinstance(game, OpenSpielGame)
    spiel_game = pyspiel.load_game(game.game_string)
    if game.turn_based:
        spiel_game = pyspiel.convert_to_turn_based(spiel_game)
    policy = policy_lib.TabularPolicy(spiel_game)
    for state, pairs in table.items():
        row = policy.policy_for_key(state)
        row[:] = 0.0
        for action, probability in pairs:
            row[action] = probability
    return policy
