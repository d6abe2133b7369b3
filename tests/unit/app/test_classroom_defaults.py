"""Every page's defaults fit the budget on every game the catalog offers (issue 30, defect 1).

Reference: `cfrviz.app.compare_budget.check_work` is the budget Compare refuses with; on Leduc the page's
registry defaults (1,000 and 10,000 iterations) asked for 411 million visits of the 400 million allowed.
"""
from __future__ import annotations

import pytest

from cfrviz import catalog
from cfrviz.app import page_results
from cfrviz.app.links import Choice, iteration_cap, parse_query_params
from cfrviz.catalog import GameSpec
from cfrviz.solving.core import planned_schedule
from cfrviz.solving.compare import DEFAULT_REPEATS, DEFAULT_SEEDS


def _catalog_games() -> list[GameSpec]:
    """The menu's games, each sidebar parameter at its ends (Kuhn 3 to 13 cards), Leduc with suits, and the
    server's OpenSpiel menu at its initial values when OpenSpiel is installed."""
    games: list[GameSpec] = []
    for game in catalog.menu():
        games.append(game)
        for parameter in game.entry.parameters:
            if parameter.kind == "int":
                games.append(catalog.get(game.name, **{parameter.name: parameter.high}))
            elif parameter.kind == "bool" and game.link == "leduc":
                games.append(catalog.get(game.name, **{parameter.name: True}))
    if catalog.openspiel_available():
        for menu_game in catalog.openspiel_menu():
            text = menu_game.game_string({p.name: str(p.initial) for p in menu_game.parameters if not p.pinned})
            games.append(catalog.lookup_hosted("openspiel:" + text))
    return games


@pytest.mark.parametrize("game", _catalog_games(), ids=lambda g: g.label)
def test_compares_defaults_fit_the_budget_on_every_catalog_game(game: GameSpec) -> None:
    if game.matrix:
        pytest.skip("Compare sends matrix games to the Regret matching page.")
    # The sidebar's default solve of this game, as the sidebar makes it on a game switch.
    settings = Choice(game, game.default_algorithm, min(1000, iteration_cap(game))).settings()
    iterations, sampling_iterations = page_results.compare_defaults(game, settings)
    assert 1 <= iterations <= iteration_cap(game) and 1 <= sampling_iterations <= iteration_cap(game)
    algorithms = [a for a in page_results.page_setting("cmp_algos").default
                  if a in page_results.compare_choices(game)]
    # Raises ValueError ("could visit … million tree nodes") when the defaults refuse themselves.
    page_results.compare_entries(game, settings, algorithms, list(page_results.page_setting("cmp_updates").default),
                                 iterations, sampling_iterations, len(DEFAULT_SEEDS), True, DEFAULT_REPEATS)


def test_leducs_defaults_are_lowered_only_as_far_as_needed() -> None:
    leduc = catalog.lookup("leduc")
    settings = Choice(leduc, leduc.default_algorithm, 1000).settings()
    iterations, sampling_iterations = page_results.compare_defaults(leduc, settings)
    # 411 million against 400 million: a round number just below 1,000 and 10,000 (cost.nice_below's steps).
    assert (iterations, sampling_iterations) == (800, 8000)
    kuhn = catalog.lookup("kuhn")
    assert page_results.compare_defaults(kuhn, Choice(kuhn).settings()) == (1000, 10_000)


@pytest.mark.parametrize("game", _catalog_games(), ids=lambda g: g.label)
def test_the_sidebars_default_solve_fits_on_every_catalog_game(game: GameSpec) -> None:
    # The view a link naming only the game opens (parse_query_params): within the game's cap, and the solve's
    # own memory check (planned_schedule raises the sentence a refused solve shows) passes.
    choice = parse_query_params({"game": game.link or ""}).choice if game.link else Choice(game, game.default_algorithm)
    assert choice.iterations <= iteration_cap(game)
    planned_schedule(game.tree(), choice.settings().iterations)


def test_the_pages_own_defaults_fit_their_caps() -> None:
    # Regret matching's and the Walkthrough's registry defaults against the caps their pages enforce.
    assert int(page_results.page_setting("rm_iters").default) <= catalog.lookup("rps").app_iteration_cap
    walkable = page_results.walkable_games(catalog.lookup("kuhn"))
    game = walkable[str(page_results.page_setting("walk_game").default)]
    assert int(page_results.page_setting("walk_t").default) <= game.walkthrough_iteration_cap
