"""Files saved by the version before the package was regrouped by layer still load.

tests/data/pre_layers_* were written by cfrviz at commit d8205c1, before its modules moved into
folders by layer: a 4-card Kuhn run and its strategy JSON, a run of a bundled .efg game (its settings
name the file) and a matrix game's run (its payoffs and names ride in the settings). Reference: the
same settings solved now, which the deterministic solvers reproduce exactly.
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import cfrviz
import cfrviz.solving
from cfrviz.run.strategy_json import read_strategy_file
from cfrviz.catalog import GameSpec
from cfrviz.run import Run, RunSettings, export_strategy, load_run, run_from_strategy_json
from cfrviz.solvers import Algorithm, UpdateScheme

DATA = Path(__file__).resolve().parents[2] / "data"


def _same_run(saved: Run, fresh: Run) -> None:
    assert saved.settings == fresh.settings
    for name in ("iterations", "cumulative_regret", "current_strategy", "average_strategy", "reach", "value",
                 "expected_value", "exploitability", "nodes_touched"):
        np.testing.assert_array_equal(getattr(saved, name), getattr(fresh, name), err_msg=name)
    assert saved.tree.num_nodes == fresh.tree.num_nodes


def test_a_kuhn_run_saved_before_the_move_loads() -> None:
    saved = load_run(DATA / "pre_layers_kuhn4_cfr+.npz")
    assert dict(saved.settings.spec.params) == {"cards": 4} and saved.settings.algorithm == "cfr+"
    _same_run(saved, cfrviz.solve("kuhn", "cfr+", iterations=40, cards=4))


def test_a_strategy_saved_before_the_move_loads() -> None:
    document = read_strategy_file(DATA / "pre_layers_kuhn4_cfr+.json")
    restored = run_from_strategy_json(document)
    fresh = cfrviz.solve("kuhn", "cfr+", iterations=40, cards=4)
    np.testing.assert_allclose(restored.average_strategy[0], fresh.average_strategy[-1], rtol=0, atol=1e-15)


def test_an_efg_run_and_a_matrix_run_saved_before_the_move_load() -> None:
    pennies = load_run(DATA / "pre_layers_efg_matching_pennies_cfr.npz")
    assert pennies.settings.spec.name == "efg" and dict(pennies.settings.spec.params) == {"bundled": "matching_pennies"}
    _same_run(pennies, cfrviz.solve("efg:matching_pennies", "cfr", iterations=30, updates="simultaneous"))
    rps = load_run(DATA / "pre_layers_matrix_rm.npz")
    names = ["rock", "paper", "scissors"]
    _same_run(rps, cfrviz.solve([[0, -1, 2], [1, 0, -1], [-2, 1, 0]], "rm", iterations=25, seed=3,
                                row_names=names, column_names=names))


# tests/data/pre_gamespec_* were written by cfrviz at commit 836e4f3, before a game travelled as one
# `GameSpec` and settings held the algorithm and update scheme as enums: a locked Kuhn run, a run of
# an .efg game given as text (its settings carry the file), Leduc with suits dealt, and an OpenSpiel
# game. Reference: the same settings solved now (deterministic solvers, and the sampling one from its
# seed, reproduce every array).
PRE_GAMESPEC = {
    "pre_gamespec_kuhn_locked_cfr+": lambda: cfrviz.solving.solve("kuhn", "cfr+", 50, locks={"J": [0.0, 1.0]}),
    "pre_gamespec_efg_text_external": lambda: cfrviz.solve(
        "efg", "external", 60, seed=7, text=(MYERSON_PATH).read_text()),
    "pre_gamespec_leduc_suits_dcfr": lambda: cfrviz.solve("leduc", "dcfr", 8, updates="simultaneous", suits=True),
    "pre_gamespec_openspiel_kuhn_cfr": lambda: cfrviz.solve("openspiel:kuhn_poker", "cfr", 20, updates="alternating"),
}
MYERSON_PATH = Path(cfrviz.__file__).parent / "games" / "data" / "games" / "myerson_card_game.efg"


@pytest.mark.parametrize("name", sorted(PRE_GAMESPEC))
def test_runs_saved_before_game_specs_load(name: str) -> None:
    if "openspiel" in name:
        pytest.importorskip("pyspiel")
    saved = load_run(DATA / f"{name}.npz")
    _same_run(saved, PRE_GAMESPEC[name]())


@pytest.mark.parametrize("name", sorted(n for n in PRE_GAMESPEC if "leduc" not in n))
def test_strategies_saved_before_game_specs_load(name: str) -> None:
    if "openspiel" in name:
        pytest.importorskip("pyspiel")
    restored = run_from_strategy_json(read_strategy_file(DATA / f"{name}.json"))
    fresh = PRE_GAMESPEC[name]()
    assert restored.settings == fresh.settings
    np.testing.assert_allclose(restored.average_strategy[0], fresh.average_strategy[-1], rtol=0, atol=1e-15)
    np.testing.assert_allclose(restored.cumulative_regret[0], fresh.cumulative_regret[-1], rtol=0, atol=1e-12)
    # The same solve exported now writes the same document (the game's fields, plain strings for the enums).
    assert json.loads(export_strategy(fresh)) == json.loads((DATA / f"{name}.json").read_text())


SAVED_RUNS = sorted(path.name for path in DATA.glob("pre_*.npz"))


@pytest.mark.parametrize("name", SAVED_RUNS)
def test_saved_settings_read_as_one_game_spec_and_vocabulary_members_and_write_back_unchanged(name: str) -> None:
    # Reference: the settings text each file holds, as the earlier versions wrote it. Read now, the game is one
    # GameSpec and the algorithm and update scheme are enum members, yet writing them gives the same text back
    # (a StrEnum member is its string), so files written now read in the earlier versions too.
    with np.load(DATA / name, allow_pickle=False) as archive:
        text = str(archive["settings"])
    settings = RunSettings.from_json(text)
    assert isinstance(settings.spec, GameSpec) and settings.spec == GameSpec.checked(settings.spec.name, dict(settings.spec.params))
    assert type(settings.algorithm) is Algorithm and type(settings.updates) is UpdateScheme
    assert settings.algorithm == json.loads(text)["algorithm"] and settings.updates == json.loads(text)["updates"]
    assert json.loads(settings.to_json()) == json.loads(text)
    assert settings.to_json() == text
