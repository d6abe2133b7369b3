"""Every game of the hosted OpenSpiel menu either solves or leaves the menu.

For each menu game, at the sidebar's first values and at the menu's largest combination: its link
reads back to the same game without a notice, its tree compiles within cfrviz's bounds, the app's
iteration cap fits one click's CPU budget by the cost model, and it solves. OpenSpiel runs in the
loader's child process, as in the app.
"""
from __future__ import annotations

import math

import pytest

from cfrviz import catalog, solving
from cfrviz.app import links
from cfrviz.catalog import OPENSPIEL_MENU, OpenSpielMenuGame
from cfrviz.util import cost, memory

pytestmark = pytest.mark.skipif(not catalog.openspiel_available(), reason="OpenSpiel (pyspiel) is not installed")

#: Iterations of each test solve: enough to run every pass of an algorithm (regret, averaging, judging).
SOLVE_ITERATIONS = 3


def menu_strings(game: OpenSpielMenuGame) -> list[str]:
    """The game strings the test visits: the sidebar's first choice and the largest the ranges allow."""
    return list(dict.fromkeys([game.game_string(), game.largest]))


CASES = [(game, text) for game in OPENSPIEL_MENU for text in menu_strings(game)]


def test_the_largest_string_is_on_the_menu_at_the_top_of_every_range() -> None:
    # Reference: the menu's ranges (MenuParameter.low/high); every game here grows with each whole-number
    # parameter, so the largest combination takes each one's high end (scripts/openspiel_menu.py measures it).
    for game in OPENSPIEL_MENU:
        found = catalog.openspiel_menu_values(game.largest)
        assert found is not None and found[0] is game, game.largest
        assert catalog.openspiel_menu_string(game.largest) == game.largest
        for parameter in game.parameters:
            if parameter.kind == "int":
                assert found[1][parameter.name] == str(parameter.high), (game.largest, parameter.name)


@pytest.mark.parametrize("game, text", CASES, ids=[text for _, text in CASES])
def test_a_menu_game_round_trips_through_its_link_and_solves(game: OpenSpielMenuGame, text: str) -> None:
    # Reference: links.query_params_of is the inverse of parse_query_params; cost.solve_seconds is the
    # model behind the app's caps (at most cost.CLICK_SECONDS per click); exploitability is >= 0 (NashConv / 2).
    spec = catalog.lookup_hosted("openspiel:" + text)
    link = links.parse_query_params({"game": str(spec.link)})
    assert link.notices == (), link.notices
    assert link.choice.spec == spec
    assert links.parse_query_params(links.query_params_of(link.choice, None, None)).choice == link.choice
    tree = spec.tree()
    cap = spec.app_iteration_cap
    most = memory.solve_plan(tree.num_nodes, tree.num_infosets, tree.max_actions).most_snapshots(memory.budget_bytes())
    assert cost.solve_seconds(tree.num_nodes, cap, most) <= cost.CLICK_SECONDS, (text, tree.num_nodes, cap)
    # One algorithm per visit, turning through the catalog's list so the menu as a whole sees each one.
    offered = links.algorithms_for(spec)
    algorithm = offered[CASES.index((game, text)) % len(offered)]
    run = solving.solve(spec, algorithm, SOLVE_ITERATIONS, seed=1)
    assert int(run.iterations[-1]) == SOLVE_ITERATIONS
    assert math.isfinite(float(run.exploitability[-1])) and float(run.exploitability[-1]) >= -1e-9


@pytest.mark.parametrize("game", OPENSPIEL_MENU, ids=[g.name for g in OPENSPIEL_MENU])
def test_every_algorithm_the_catalog_offers_solves_the_menus_first_choice(game: OpenSpielMenuGame) -> None:
    # Reference: GameSpec.offers lists what the sidebar lets a visitor pick; each must solve (a run with
    # finite, non-negative exploitability), at the sidebar's first values of the game.
    spec = catalog.lookup_hosted("openspiel:" + game.game_string())
    for algorithm in links.algorithms_for(spec):
        run = solving.solve(spec, algorithm, SOLVE_ITERATIONS, seed=1)
        assert math.isfinite(float(run.exploitability[-1])) and float(run.exploitability[-1]) >= -1e-9, algorithm
