"""`Player` is the one spelling of a player: no module writes its own player constant, and links and the
browser meet `Player` through one parse and one format function.

References: `GameTree.actor`'s codes (player 1 = 0, player 2 = 1, chance = 2, terminal = 3, the values
the compiled kernels compare with), and the link values the app wrote before `Player` reached the edges:
`br_player=1` / `2`, `play_seat=p1` / `p2` / `alternate`, and the best-response timeline's exploiter, the
JSON number 1 or 2.
"""
from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

import cfrviz
from cfrviz.util.vocabulary import Player

PACKAGE = Path(cfrviz.__file__).parent
#: The modules that run compiled (or as the compiled code's Python source) and compare actors per node.
KERNELS = ("cfrviz.solvers._cfr_kernel", "cfrviz.solvers._sampling_kernels", "cfrviz.analysis.best_responses",
           "cfrviz.analysis._batched_inspector", "cfrviz.analysis._batched_judging")
_PLAYER_WORDS = re.compile(r"PLAYER|CHANCE|TERMINAL")


def _own_player_constants(path: Path) -> list[str]:
    """Module-level names about players bound to a bare number that is a player's code: `CHANCE = 2`,
    or a tuple of such names bound to 0, 1, 2, 3. A value computed from `Player` (`int(Player.CHANCE)`)
    is no literal."""
    found = []
    for statement in ast.parse(path.read_text(encoding="utf-8")).body:
        if not isinstance(statement, ast.Assign):
            continue
        for target in statement.targets:
            names = target.elts if isinstance(target, ast.Tuple) else [target]
            values = statement.value.elts if isinstance(statement.value, ast.Tuple) else [statement.value]
            for name, value in zip(names, values):
                if (isinstance(name, ast.Name) and _PLAYER_WORDS.search(name.id) and isinstance(value, ast.Constant)
                        and value.value in {int(p) for p in Player}):
                    found.append(f"{path.relative_to(PACKAGE.parent)}:{statement.lineno} {name.id} = {value.value}")
    return found


def test_no_module_writes_a_player_constant_of_its_own() -> None:
    # The OpenSpiel worker is a script that imports nothing from cfrviz (it runs before numpy may load):
    # its node kinds are its answer's wire format, mapped onto Player by its parent (next test).
    paths = [p for p in sorted(PACKAGE.rglob("*.py")) if p.name != "openspiel_worker.py"]
    assert {f"{m.replace('.', '/')}.py" for m in KERNELS} <= {str(p.relative_to(PACKAGE.parent)) for p in paths}
    assert [found for path in paths for found in _own_player_constants(path)] == []


def test_the_kernels_compare_with_players_codes_and_the_worker_maps_onto_player() -> None:
    for name in KERNELS:
        kernel = importlib.import_module(name)
        assert (kernel._CHANCE, kernel._TERMINAL) == (2, 3) == (Player.CHANCE, Player.TERMINAL)
        assert type(kernel._CHANCE) is int          # numba freezes a plain int; NumPy compares it fast
    from cfrviz.games import openspiel, openspiel_worker as worker
    kinds = (worker.KIND_FIRST, worker.KIND_SECOND, worker.KIND_CHANCE, worker.KIND_TERMINAL)
    assert [openspiel._KINDS[k] for k in kinds] == list(Player)


#: Each deciding player's link text (best responder), seat text and browser number, as written before.
WRITTEN = {Player.FIRST: ("1", "p1", 1), Player.SECOND: ("2", "p2", 2)}


def test_links_and_the_browser_read_back_every_player_they_write() -> None:
    from cfrviz.app.links import page_setting
    from cfrviz.app.registry import ALTERNATE_SEAT, SEAT_PREFIX, parse_seat
    from cfrviz.util.vocabulary import DECISION_PLAYERS, parse_player, player_number, player_text

    assert set(WRITTEN) == set(DECISION_PLAYERS)
    for player, (text, seat, number) in WRITTEN.items():
        assert (player_text(player), player_text(player, SEAT_PREFIX), player_number(player)) == (text, seat, number)
        assert parse_player(text) is parse_player(seat, SEAT_PREFIX) is parse_player(number) is player
        assert parse_seat(seat) is player
    assert parse_seat(ALTERNATE_SEAT) is None
    # The page settings offer exactly the values links carried before.
    assert (page_setting("br_player").options, page_setting("br_player").default) == (("1", "2"), "1")
    assert (page_setting("play_seat").options, page_setting("play_seat").default) == (("p1", "p2", "alternate"), "p1")
    # Chance and the terminal marker decide nothing: they have no number and no link text.
    for player in (Player.CHANCE, Player.TERMINAL):
        with pytest.raises(ValueError, match="Only player 1 and player 2"):
            player_text(player)


@pytest.mark.parametrize(("value", "prefix"), [
    ("0", ""), ("3", ""), ("p1", ""), ("1", "p"), ("player1", ""), ("", ""), (True, ""), (None, ""), (1.5, ""),
    (1, "p"), (2.0 + 1e-9, ""), ("x" * 10_000, "")])
def test_parse_player_refuses_anything_else_in_one_sentence(value: object, prefix: str) -> None:
    from cfrviz.util.vocabulary import parse_player

    with pytest.raises(ValueError, match=r"^A player is (1 or 2|p1 or p2), not .{1,60}\.$"):
        parse_player(value, prefix)
