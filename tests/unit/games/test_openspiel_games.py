"""OpenSpiel games and the bundled .efg games against OpenSpiel's own numbers.

Reference: tests/data/openspiel_games_reference.json, measured once with OpenSpiel itself by
scripts/openspiel_games_reference.py (version recorded in the file): history and
information-state counts, the uniform policy's exploitability, and OpenSpiel's Python
CFRSolver (alternating updates) after 200 iterations, exploitability and whole average
policy. The bundled .efg files were read for it by OpenSpiel's own Gambit reader, so the
`efg:` rows check cfrviz's reader against an independent one. The OpenSpiel games were
saved as .efg by cfrviz's loader (tests/data/openspiel_games/); OpenSpiel is in
requirements.txt, so the loader itself (in its child process) is checked against those files.
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import cfrviz
from cfrviz.analysis import exploitability
from cfrviz.games.efg import load_efg, read_bundled
from cfrviz.games import openspiel
from cfrviz.games.openspiel import information_set_keys, load_openspiel
from cfrviz.tree.openspiel_export import policy_table, tabular_policy
from cfrviz.solvers import solver_class
from cfrviz.tree import GameTree, build_tree

DATA = Path(__file__).parents[2] / "data"
REFERENCE = json.loads((DATA / "openspiel_games_reference.json").read_text(encoding="utf-8"))
ENTRIES = REFERENCE["entries"]


def tree_of(key: str) -> GameTree:
    entry = ENTRIES[key]
    if entry["source"] == "efg":
        return build_tree(read_bundled(entry["game"]))
    return build_tree(load_efg(DATA / entry["snapshot"]))


def reference_policy(key: str, tree: GameTree) -> dict[str, list[float]]:
    """OpenSpiel's average policy keyed by this tree's information-set keys."""
    table = ENTRIES[key]["cfr_average_policy"]
    if ENTRIES[key]["source"] == "efg":
        # OpenSpiel's Gambit reader names a set "player-player-number-name"; the file's names are the keys.
        return {state.split("-", 3)[3]: row for state, row in table.items()}
    # The loader's keys: the strings themselves, or one-line forms of multi-line ones (no clashes in these games).
    return dict(zip(information_set_keys(list(table), [0] * len(table)), table.values()))


@pytest.mark.parametrize("key", list(ENTRIES))
def test_counts_uniform_exploitability_and_cfr_match_openspiel(key: str) -> None:
    entry = ENTRIES[key]
    tree = tree_of(key)
    assert (tree.num_nodes, tree.num_infosets) == (entry["histories"], entry["information_states"])
    assert exploitability(tree, tree.uniform_strategy()) == pytest.approx(entry["uniform_exploitability"], abs=1e-9)
    solver = solver_class("cfr")(tree, updates="alternating")
    solver.iterate(entry["cfr_iterations"])
    average = solver.average_strategy()
    assert exploitability(tree, average) == pytest.approx(entry["cfr_exploitability"], abs=1e-9)
    policy = reference_policy(key, tree)
    assert len(policy) == tree.num_infosets
    for set_key, row in policy.items():
        i = tree.infoset_index(set_key)
        np.testing.assert_allclose(average[i, :len(row)], row, rtol=0, atol=1e-9, err_msg=set_key)


@pytest.mark.parametrize("key", [k for k in ENTRIES if ENTRIES[k]["source"] == "game"])
def test_loader_gives_the_saved_tree_and_keeps_information_state_strings(key: str) -> None:
    game = load_openspiel("openspiel:" + ENTRIES[key]["game"])
    live, saved = build_tree(game), tree_of(key)
    for name in ("parent", "actor", "infoset", "action_index", "chance_probability", "payoff"):
        np.testing.assert_array_equal(getattr(live, name), getattr(saved, name), err_msg=name)
    assert [r.key for r in live.infosets] == [r.key for r in saved.infosets]
    # The exact strings OpenSpiel uses, in information-set order, so a strategy can go back to it.
    assert set(game.information_state_strings) == set(ENTRIES[key]["cfr_average_policy"])
    assert game.game_string == ENTRIES[key]["game"] and game.name == "openspiel:" + game.game_string
    # The whole path a user takes: a link value through the catalog into cfrviz.solve.
    run = cfrviz.solve("openspiel:" + ENTRIES[key]["game"], "cfr", iterations=ENTRIES[key]["cfr_iterations"])
    assert run.exploitability[-1] == pytest.approx(ENTRIES[key]["cfr_exploitability"], abs=1e-9)


@pytest.mark.parametrize("game_string, words", [
    ("kuhn_poker(players=3)", "has 3 players; cfrviz solves two-player games only"),
    ("matrix_pd", "is not zero-sum or constant-sum (general_sum)"),
    ("no_such_game", "OpenSpiel cannot load 'no_such_game': Unknown game 'no_such_game'"),
])
def test_openspiel_refusals_are_one_sentence(game_string: str, words: str) -> None:
    with pytest.raises(ValueError) as caught:
        load_openspiel(game_string)
    assert words in str(caught.value) and "\n" not in str(caught.value)
    assert str(caught.value).endswith(".")


def test_openspiel_size_cap() -> None:
    with pytest.raises(ValueError, match=r"^'leduc_poker' has more than 1,000 histories, more than cfrviz draws"):
        load_openspiel("leduc_poker", max_nodes=1_000)


def test_game_strings_are_checked_before_openspiel_sees_them(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ValueError, match=r"is not an OpenSpiel game string such as"):
        load_openspiel("kuhn_poker; import os")
    with pytest.raises(ValueError, match=r"at most 200 characters"):
        load_openspiel("x" * 201)
    monkeypatch.setattr(openspiel, "available", lambda: False)
    with pytest.raises(ValueError, match=r"^OpenSpiel is not installed, so 'kuhn_poker' cannot be loaded; "):
        load_openspiel("openspiel:kuhn_poker")


@pytest.mark.parametrize("key", [k for k in ENTRIES if ENTRIES[k]["source"] == "game"])
def test_openspiel_reads_our_strategies_back(key: str) -> None:
    # OpenSpiel's own exploitability of the sequence-form LP equilibrium: 0 (up to the LP's tolerance),
    # and of the uniform strategy: the reference number.
    from open_spiel.python.algorithms import exploitability as openspiel_exploitability

    from cfrviz.analysis.lp import solve_lp

    game = load_openspiel(ENTRIES[key]["game"])
    tree = build_tree(game)
    uniform_policy = tabular_policy(tree, tree.uniform_strategy())
    spiel_game = uniform_policy.game
    uniform = openspiel_exploitability.exploitability(spiel_game, uniform_policy)
    assert uniform == pytest.approx(ENTRIES[key]["uniform_exploitability"], abs=1e-12)
    _, equilibrium = solve_lp(tree)
    assert openspiel_exploitability.exploitability(spiel_game, tabular_policy(tree, equilibrium)) < 1e-9
    table = policy_table(tree, equilibrium)
    assert set(table) == set(ENTRIES[key]["cfr_average_policy"])


def test_policy_table_needs_an_openspiel_game() -> None:
    from cfrviz.catalog import compile_game

    tree = compile_game("kuhn")
    with pytest.raises(ValueError, match=r"^Kuhn poker is not an OpenSpiel game, so it has no OpenSpiel policy\.$"):
        policy_table(tree, tree.uniform_strategy())


@pytest.mark.parametrize("name", ["kuhn", "leduc", "rps"])
def test_openspiel_reads_the_efg_files_we_write(name: str) -> None:
    import pyspiel
    from open_spiel.python import policy as policy_lib
    from open_spiel.python.algorithms import exploitability as openspiel_exploitability

    from cfrviz.tree.efg_export import write_efg
    from cfrviz.catalog import compile_game

    tree = compile_game(name)
    spiel_game = pyspiel.load_efg_game(write_efg(tree))
    theirs = openspiel_exploitability.exploitability(spiel_game, policy_lib.UniformRandomPolicy(spiel_game))
    assert theirs == pytest.approx(exploitability(tree, tree.uniform_strategy()), abs=1e-12)


def test_strategy_files_of_openspiel_games_carry_openspiel_names_and_read_back() -> None:
    from open_spiel.python import policy as policy_lib
    from open_spiel.python.algorithms import exploitability as openspiel_exploitability

    from cfrviz.run.strategy_json import export_strategy, read_strategy_json, run_from_strategy_json

    key = "game:goofspiel(num_cards=3,imp_info=True,points_order=descending)"
    run = cfrviz.solve("openspiel:" + ENTRIES[key]["game"], "cfr", iterations=ENTRIES[key]["cfr_iterations"])
    document = json.loads(export_strategy(run))
    assert read_strategy_json(document) == document
    again = run_from_strategy_json(document)
    np.testing.assert_array_equal(again.average_strategy[-1], run.average_strategy[-1])
    # OpenSpiel reads the file with nothing from cfrviz: its strings and action ids are enough.
    game = load_openspiel(ENTRIES[key]["game"])
    import pyspiel

    spiel_game = pyspiel.convert_to_turn_based(pyspiel.load_game(game.game_string))
    policy = policy_lib.TabularPolicy(spiel_game)
    for entry in document["infosets"]:
        row = policy.policy_for_key(entry["information_state_string"])
        row[:] = 0.0
        row[entry["openspiel_actions"]] = entry["average_strategy"]
    assert openspiel_exploitability.exploitability(spiel_game, policy) == pytest.approx(
        ENTRIES[key]["cfr_exploitability"], abs=1e-9)
    forged = json.loads(json.dumps(document))
    forged["infosets"][0]["openspiel_actions"] = forged["infosets"][0]["openspiel_actions"][::-1]
    with pytest.raises(ValueError, match=r"do not match the game's information-state string and action ids\.$"):
        read_strategy_json(forged)


def test_only_openspiel_games_have_openspiel_names_in_strategy_files() -> None:
    from cfrviz.run.strategy_json import export_strategy, read_strategy_json

    document = json.loads(export_strategy(cfrviz.solve("kuhn", "cfr", iterations=10)))
    assert "information_state_string" not in document["infosets"][0]
    document["infosets"][0]["information_state_string"] = "0"
    document["infosets"][0]["openspiel_actions"] = [0, 1]
    with pytest.raises(ValueError, match=r"^The OpenSpiel names of 'J' do not match the game's"):
        read_strategy_json(document)


ROOT = Path(__file__).resolve().parents[3]
PAGES = ["app.py", *sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "pages").glob("*.py"))]


@pytest.mark.parametrize("page", PAGES)
def test_every_page_runs_on_an_openspiel_game(page: str) -> None:
    # Goofspiel: simultaneous moves played turn-based, multi-line information-state strings.
    from streamlit.testing.v1 import AppTest

    game = "openspiel:goofspiel(num_cards=3,imp_info=True,points_order=descending)"
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params["game"] = game
    at.query_params["iters"] = "100"
    at.run()
    if page != "app.py":
        at.switch_page(page).run()
    assert not at.exception, at.exception
    assert not at.error, [e.value for e in at.error]
    if page not in ("pages/5_Regret_matching.py", "pages/6_Walkthrough.py"):   # these show no sidebar solve
        assert at.sidebar.selectbox(key="cfrviz_w_game").value == game
