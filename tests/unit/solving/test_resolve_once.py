"""A game is resolved once per solve: one `GameSpec` goes from the link, the sidebar or the command line
through the runner, the run's settings and the files, and nothing on the way asks the catalog again.

"Resolving" is counted where the catalog turns loose input into a `GameSpec`: every `get`, `lookup`,
`resolve` and `GameSpec.checked` checks the parameters with `Entry.normalise`, and every way back from
a rules object or a tree goes through `of_game`. Reference, counted by hand from the code: before
`GameSpec` travelled, `solve("kuhn5")` resolved twice (`compile_game`, then `restorable`'s `of_tree`),
the app's solve three times (its progress estimate's `compile_game`, then the runner's two), a locked
solve four times (the restricted tree was written out as .efg and read back), and reading a strategy
file twice (once to check it, once to build the run). Before Compare, the Walkthrough and Play carried
the `GameSpec` they were given, Compare resolved its game again for every line (by name, in
`cfrviz.app.solving` and in the runner), the Walkthrough for every replay (`catalog.get`) and Play
twice per page run (`of_tree` for its cards and for the game's value).
"""
from __future__ import annotations

import argparse
import threading
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from cfrviz import catalog
from cfrviz.app.links import DEFAULT_CHOICE, parse_query_params
from cfrviz.catalog import GameSpec, entries, lookups
from cfrviz.cli import build_parser, check_arguments
from cfrviz.run import RunSettings, export_strategy, load_run, run_from_strategy_json, save_run
from cfrviz.solving import solve, solve_settings
from cfrviz.solving.locked import solve_locked
from tests.support import apptest


@pytest.fixture()
def resolutions(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter[str]]:
    """Counts of the catalog's resolving steps while the test runs."""
    from cfrviz.app import solving as app_solving

    # A warm-up an earlier test of this process started resolves the default views' games in its own
    # thread (CI once counted 15 of them inside one test): count from when it is done.
    if app_solving._warm_thread is not None and app_solving._warm_thread.ident is not None:
        assert app_solving.wait_for_defaults(timeout=600), "an earlier test's warm-up did not finish"
    counts: Counter[str] = Counter()
    normalise, of_game = entries.Entry.normalise, lookups.of_game

    def counted_normalise(self: entries.Entry, params: object) -> object:
        counts["normalise"] += 1
        return normalise(self, params)   # type: ignore[arg-type]  # passed through unchanged

    def counted_of_game(game: object) -> GameSpec:
        counts["of_game"] += 1
        return of_game(game)   # type: ignore[arg-type]  # passed through unchanged

    monkeypatch.setattr(entries.Entry, "normalise", counted_normalise)
    monkeypatch.setattr(lookups, "of_game", counted_of_game)
    monkeypatch.setattr(catalog, "of_game", counted_of_game)
    yield counts


def test_a_spec_is_solved_without_asking_the_catalog(resolutions: Counter[str]) -> None:
    spec = GameSpec(catalog.entry("kuhn"), (("cards", 5),))     # built directly: no resolving step
    run = solve(spec, "cfr", iterations=20)
    assert sum(resolutions.values()) == 0
    assert run.settings.spec is spec and run.settings == RunSettings(spec, "cfr", 20, "alternating", 0)


@pytest.mark.parametrize("how", ["link value", "name and parameters"])
def test_a_game_given_by_name_is_resolved_once(resolutions: Counter[str], how: str) -> None:
    run = solve("kuhn5", "cfr", iterations=20) if how == "link value" else solve("kuhn", "cfr", 20, cards=5)
    assert resolutions == Counter(normalise=1)
    assert run.settings.spec == catalog.get("kuhn", cards=5)


def test_a_locked_solve_resolves_its_game_once(resolutions: Counter[str]) -> None:
    spec = GameSpec(catalog.entry("kuhn"))
    solved = solve_locked(spec, "cfr+", 30, {"J": [0.0, 1.0]})
    by_name = solve("kuhn", "cfr+", 30, locks={"J": [0.0, 1.0]})
    assert resolutions == Counter(normalise=1)                     # the name, once; the spec, never
    assert solved.run.settings.spec is spec and by_name.settings == solved.run.settings
    np.testing.assert_array_equal(by_name.average_strategy, solved.run.average_strategy)


def test_a_tree_is_resolved_once(resolutions: Counter[str]) -> None:
    tree = catalog.get("leduc").tree()
    resolutions.clear()
    run = solve(tree, "cfr", iterations=2)
    assert resolutions == Counter(of_game=1) and run.settings.spec == catalog.get("leduc")


def test_a_link_is_resolved_once_and_the_app_solve_not_again(resolutions: Counter[str]) -> None:
    link = parse_query_params({"game": "kuhn5", "algo": "cfr+", "iters": "30", "updates": "alternating"})
    assert resolutions == Counter(normalise=1)
    settings = link.choice.settings()
    # What the app's shared cache calls (`cfrviz.app.solving._solve`), without Streamlit's cache.
    run = solve_settings(settings)
    assert resolutions == Counter(normalise=1) and run.settings == settings
    assert DEFAULT_CHOICE.settings().spec == catalog.get("kuhn")


def test_the_command_line_resolves_its_game_once(resolutions: Counter[str]) -> None:
    parser = build_parser()
    resolutions.clear()       # the help text lists the menu's games and caps: not part of a solve
    args: argparse.Namespace = parser.parse_args(["solve", "kuhn5", "-a", "cfr", "-n", "10"])
    run = solve_settings(check_arguments(args), args.snapshots)      # what `cfrviz.cli.main` does
    assert resolutions == Counter(normalise=1) and run.settings.spec == catalog.get("kuhn", cards=5)


def test_saved_files_are_resolved_once_each(resolutions: Counter[str], tmp_path: Path) -> None:
    spec = GameSpec(catalog.entry("leduc"), (("suits", True),))
    run = solve(spec, "cfr", iterations=3)
    save_run(run, tmp_path / "run.npz")
    text = export_strategy(run)
    assert sum(resolutions.values()) == 0
    loaded = load_run(tmp_path / "run.npz")
    assert resolutions == Counter(normalise=1) and loaded.settings == run.settings
    restored = run_from_strategy_json(text)
    assert resolutions == Counter(normalise=2) and restored.settings == run.settings
    assert loaded.tree is run.tree is restored.tree                 # compiled once per process


@pytest.fixture()
def fresh_page_caches(monkeypatch: pytest.MonkeyPatch) -> None:
    """Empty run and page-result caches of this test's own, so no earlier test's entry answers."""
    from cfrviz.app import page_results, solving
    from cfrviz.run.cache import RunCache

    monkeypatch.setattr(solving, "_shared", RunCache(10**9, 8, solving.CONCURRENT_SOLVES))
    for name in ("compare_lines", "walk_traces"):
        old = getattr(page_results, name)
        monkeypatch.setattr(page_results, name, page_results.SharedResults(old.name, 10**9, 8))


def test_compare_solves_the_sidebars_game_without_resolving_it_again(
        resolutions: Counter[str], fresh_page_caches: None) -> None:
    from cfrviz.app import page_results
    from cfrviz.solving.compare import Entry

    link = parse_query_params({"game": "kuhn5", "algo": "cfr+", "iters": "30", "updates": "alternating"})
    settings = link.choice.settings()
    sidebar = Entry(settings.algorithm, settings.updates, settings.iterations, (settings.seed,), sidebar=True)
    own = Entry("external", "alternating", 40, (0, 1))
    # Outside a page's script: the warm-up's path (the shared run cache, the solve pool), as the page's.
    lines = [page_results.compare_line(settings.spec, entry, 1) for entry in (sidebar, own)]
    assert resolutions == Counter(normalise=1)                   # the link, once
    # The sidebar's line is the sidebar's run: the same settings key the shared cache.
    assert np.array_equal(lines[0].exploitability, solve_settings(settings).exploitability)


def test_the_walkthrough_replays_the_game_it_was_given(resolutions: Counter[str], fresh_page_caches: None) -> None:
    from cfrviz.app import page_results

    game = page_results.walkable_games()["kuhn"]                   # the page's menu: the one resolving
    resolutions.clear()
    trace = page_results.walkthrough_trace(page_results.TraceRequest(game, "chance", "simultaneous", 0, 2, "QK"))
    assert sum(resolutions.values()) == 0 and trace.steps


def test_play_resolves_its_game_once_from_the_link(resolutions: Counter[str], fresh_page_caches: None,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from cfrviz.app import solving

    # This test is the server: the pages' `start_warmup()` finds a warm-up and starts none (its solves
    # would resolve games of their own while the page runs).
    monkeypatch.setattr(solving, "_warm_thread", threading.Thread(name="this test's server start"))
    catalog.menu()              # the sidebar's menu is resolved once per process, maybe by an earlier test
    resolutions.clear()
    at = apptest.open_page("pages/8_Play.py", {"game": "kuhn5", "algo": "cfr", "iters": "50", "updates": "alternating"})
    at.button(key="play_deal").click().run()                       # a hand dealt and answered by the bot
    assert not at.exception, at.exception
    assert resolutions == Counter(normalise=1), resolutions      # the link; Home and Play ask nothing again
