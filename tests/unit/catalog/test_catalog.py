"""The game catalog: one test matrix for every game, and the catalog's own promises.

Each game states its references: tree counts by hand, the exploitability of the uniform
strategy (published where one is), CFR against OpenSpiel's solvers (numbers measured once into
tests/data), and the game's value.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

import cfrviz
from cfrviz import catalog
from cfrviz.analysis import exploitability
from cfrviz.games import InformationSet
from cfrviz.util.vocabulary import Player
from cfrviz.games.base import Game
from cfrviz.run import RunSettings, export_strategy, load_run, run_from_strategy_json, save_run
from cfrviz.catalog import entries
from tests.support.cli import run_cli

ROOT = Path(__file__).resolve().parents[3]
OPENSPIEL = json.loads((ROOT / "tests" / "data" / "openspiel_reference.json").read_text())["entries"]


@dataclass(frozen=True)
class Case:
    """A catalog game and its references (None: no reference of that kind)."""

    link: str
    infosets: int
    decision_nodes: int
    terminals: int
    uniform_exploitability: float | None
    openspiel: str | None        # OpenSpiel's name for the game in tests/data/openspiel_reference.json
    value: float | None


CASES = [
    # Kuhn: 6 deals x (4 decisions, 5 terminals), 3 cards x 4 histories = 12 sets. Uniform: OpenSpiel's
    # exploitability_test gives NashConv 11/12. Value -1/18 (Kuhn 1950).
    Case("kuhn", 12, 24, 30, 11 / 24, "kuhn_poker", -1 / 18),
    # Leduc, dealt by rank: 3 pair deals with 2 possible public cards, 6 others with 3. Per deal
    # round 1 has 6 decisions, 4 folds and 5 lines to round 2, which has 6 decisions and 9
    # terminals per public card: terminals 3(4 + 5*2*9) + 6(4 + 5*3*9) = 1116, decisions
    # 3(6 + 5*2*6) + 6(6 + 5*3*6) = 774. Uniform: OpenSpiel's exploitability_test gives NashConv
    # 4.747222222222222. Value -0.0856064 published (OpenSpiel); -0.08560642407800038 from the LP here.
    Case("leduc", 288, 774, 1116, 4.747222222222222 / 2, "leduc_poker", -0.08560642407800038),
    # Rock-paper-scissors: player 1 at the root, player 2 at 3 nodes of one set; 9 outcomes. The
    # uniform strategy is the equilibrium (exploitability 0); the value is 0 by symmetry.
    Case("rps", 2, 4, 9, 0.0, None, 0.0),
    # Kuhn with 4 cards: 12 deals x (4 decisions, 5 terminals), 4 cards x 4 histories = 16 sets.
    Case("kuhn4", 16, 48, 60, None, None, None),
    # The bundled .efg games. Kuhn written as a Gambit file: the built-in Kuhn's numbers.
    Case("efg:kuhn", 12, 24, 30, 11 / 24, "kuhn_poker", -1 / 18),
    # Matching pennies with the first coin hidden: 1 + 2 decision nodes, 4 ends; uniform is the equilibrium.
    Case("efg:matching_pennies", 2, 3, 4, 0.0, None, 0.0),
    # Myerson's card game (Myerson 1991, section 2.1): sets red, black (player 1) and raise (player 2).
    # Uniform, by hand: player 1's best response raises with both cards and earns 1/2; player 2's
    # meets and earns 0; exploitability (1/2 + 0) / 2 = 1/4. Value 1/3 (Myerson).
    Case("efg:myerson_card_game", 3, 4, 6, 0.25, None, 1 / 3),
]


# OpenSpiel games, as OpenSpiel 2.0.2 enumerated them, kept as .efg files in tests/data with OpenSpiel's own
# numbers (scripts/openspiel_games_reference.py): they go through the catalog as uploaded .efg games.
OPENSPIEL_GAMES = json.loads((ROOT / "tests" / "data" / "openspiel_games_reference.json").read_text())["entries"]
SNAPSHOTS = {key: entry for key, entry in OPENSPIEL_GAMES.items() if entry.get("snapshot")}


def _snapshot(key: str) -> catalog.GameSpec:
    text = (ROOT / "tests" / "data" / SNAPSHOTS[key]["snapshot"]).read_text(encoding="utf-8")
    return catalog.get("efg", text=text)


@pytest.mark.parametrize("key", list(SNAPSHOTS))
def test_openspiel_snapshots_match_openspiel(key: str) -> None:
    # Reference: OpenSpiel's information-state count, uniform exploitability and CFRSolver (alternating,
    # uniform averaging) exploitability, measured once into tests/data.
    entry = SNAPSHOTS[key]
    game = _snapshot(key)
    tree = game.tree()
    assert tree.num_infosets == entry["information_states"]
    assert exploitability(tree, tree.uniform_strategy()) == pytest.approx(entry["uniform_exploitability"], abs=1e-12)
    run = cfrviz.solve(game.tree(), "cfr", iterations=entry["cfr_iterations"], updates="alternating",
                       snapshots=entry["cfr_iterations"])
    assert run.exploitability[-1] == pytest.approx(entry["cfr_exploitability"], abs=1e-9)


def _every_tree() -> list[tuple[str, catalog.GameSpec]]:
    return [(c.link, catalog.lookup(c.link)) for c in CASES] + [(key, _snapshot(key)) for key in SNAPSHOTS]


@pytest.mark.parametrize("name, game", _every_tree(), ids=lambda x: x if isinstance(x, str) else "")
def test_lp_value_is_the_same_for_both_players(name: str, game: catalog.GameSpec) -> None:
    # The minimax theorem: player 1's and player 2's sequence-form programs have the same optimum, and the
    # strategy they give is an equilibrium (exploitability 0).
    from cfrviz.analysis.lp import lp_equilibrium

    tree = game.tree()
    solution = lp_equilibrium(tree)
    assert solution.value == pytest.approx(solution.value_player_2_lp, abs=1e-8)
    assert exploitability(tree, solution.strategy) == pytest.approx(0.0, abs=1e-8)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.link)
def test_tree_counts(case: Case) -> None:
    tree = catalog.lookup(case.link).tree()
    assert (tree.num_infosets, tree.num_decision_nodes, tree.num_terminals) == \
        (case.infosets, case.decision_nodes, case.terminals)
    # Every chance node's outcomes sum to 1 and every set's nodes agree on the actions.
    for n in np.flatnonzero(tree.actor == Player.CHANCE):
        assert sum(tree.chance_probability[c] for c in tree.children(int(n))) == pytest.approx(1.0, abs=1e-12)
    assert int(np.count_nonzero(tree.actor == Player.TERMINAL)) == case.terminals


@pytest.mark.parametrize("case", [c for c in CASES if c.uniform_exploitability is not None], ids=lambda c: c.link)
def test_uniform_strategy_exploitability(case: Case) -> None:
    tree = catalog.lookup(case.link).tree()
    assert exploitability(tree, tree.uniform_strategy()) == pytest.approx(case.uniform_exploitability, abs=1e-12)


OPENSPIEL_CASES = [(c, key) for c in CASES if c.openspiel for key, ref in OPENSPIEL.items()
                   if ref["game"] == c.openspiel and ref["algorithm"] == "cfr"]


@pytest.mark.parametrize("case, key", OPENSPIEL_CASES, ids=lambda x: x if isinstance(x, str) else x.link)
def test_cfr_matches_openspiel(case: Case, key: str) -> None:
    # Reference: OpenSpiel's CFRSolver, measured once by benchmarks/bench_reference.py into tests/data.
    ref = OPENSPIEL[key]
    run = cfrviz.solve(case.link, ref["algorithm"], iterations=ref["iterations"], updates=ref["updates"],
                       snapshots=ref["iterations"])
    assert run.exploitability[-1] == pytest.approx(ref["exploitability"], abs=1e-9)


@pytest.mark.parametrize("case", [c for c in CASES if c.value is not None], ids=lambda c: c.link)
def test_value_from_the_lp_and_the_reference(case: Case) -> None:
    from cfrviz.analysis.lp import solve_lp
    from cfrviz.analysis.reference import game_value

    tree = catalog.lookup(case.link).tree()
    value, strategy = solve_lp(tree)
    assert value == pytest.approx(case.value, abs=1e-7)          # Leduc's published value has 7 digits
    assert exploitability(tree, strategy) == pytest.approx(0.0, abs=1e-7)
    assert game_value(tree, catalog.lookup(case.link)) == pytest.approx(case.value, abs=1e-7)


def test_every_game_in_the_menu_has_its_test_matrix() -> None:
    assert {str(g.link) for g in catalog.menu()} <= {c.link for c in CASES}


# ---------------------------------------------------------------------------------------------
# The catalog's own promises


@pytest.mark.parametrize("link", ["kuhn", "kuhn5", "kuhn13", "leduc", "rps"])
def test_links_round_trip_through_the_factory_and_its_inverse(link: str) -> None:
    game = catalog.lookup(link)
    assert game.link == link
    assert catalog.of_game(game.game()) == game             # rules object -> the same entry and parameters
    assert catalog.of_tree(game.tree()) == game
    settings = RunSettings(game, "cfr", 1, "simultaneous", 0)
    assert RunSettings.from_json(settings.to_json()) == settings                  # the same GameSpec back
    assert RunSettings.from_json(settings.to_json()).build_tree() is game.tree()   # compiled once per process


@pytest.mark.parametrize("value", ["chess", "kuhn2", "kuhn14", "kuhn٣", "kuhn+5", "matrix", "custom", "efg", "",
                                   "x" * 500, "leduc\x00"])
def test_bad_link_values_are_one_sentence(value: str) -> None:
    with pytest.raises(ValueError) as error:
        catalog.lookup(value)
    message = str(error.value)
    assert message.endswith(".") and "\n" not in message and len(message) < 300


def test_capabilities_follow_the_parameters() -> None:
    # Kuhn's α-family (Kuhn 1950) and value -1/18 are for 3 cards only; regret matching for matrix games only.
    kuhn, kuhn5, rps = catalog.lookup("kuhn"), catalog.lookup("kuhn5"), catalog.lookup("rps")
    assert kuhn.alpha_family and not kuhn5.alpha_family and not rps.alpha_family
    assert kuhn5.known_value is None
    # Dealing Leduc's suits one by one is the same game (Southey et al. 2005): the same value.
    # Reference: the published -0.0856064 (rounded), and the LP to full precision (tests/unit/analysis/test_lp.py).
    assert catalog.get("leduc", suits=True).known_value == catalog.lookup("leduc").known_value
    assert catalog.lookup("leduc").known_value == pytest.approx(-0.0856064, abs=5e-8)
    assert not kuhn.offers("rm") and rps.offers("rm") and kuhn.offers("cfr") and rps.offers("cfr")
    assert kuhn.parts_by == "private card" and rps.parts_by == "subtree"
    # Caps: the app's from the cost estimate (cfrviz.util.cost): 3-card Kuhn at the 100,000 ceiling;
    # Leduc by hand, (1 s - 1,936 x 2,000 x 12.6 ns) / (1,936 x 17.9 ns) = 27,400 -> 25,000. The CLI's are fixed.
    assert (kuhn.app_iteration_cap, kuhn.cli_iteration_cap) == (100_000, 10_000_000)
    assert (catalog.lookup("leduc").app_iteration_cap, catalog.lookup("leduc").cli_iteration_cap) == (25_000, 1_000_000)
    assert catalog.lookup("leduc").walkthrough_iteration_cap == 500 and kuhn.walkthrough_iteration_cap == 10_000


def test_size_derived_caps_are_round_numbers() -> None:
    # 40,000,000 node visits / 1,405 nodes (13-card Kuhn) = 28,469 -> 20,000 (1, 2 or 5 times a power of 10).
    assert entries._budget_cap(40_000_000, 1_405, 100, 100_000) == 20_000
    assert entries._budget_cap(40_000_000, 10, 100, 100_000) == 100_000
    assert entries._budget_cap(40_000_000, 10**9, 100, 100_000) == 100


def test_matrix_games_have_canonical_parameters() -> None:
    plain = catalog.get("matrix", payoffs=[[1, -1], [-1, 1]])
    named = catalog.get("matrix", payoffs=((1.0, -1.0), (-1.0, 1.0)), row_names=["a1", "a2"])
    assert plain == named and plain.link is None
    assert cfrviz.solve([[1, -1], [-1, 1]], "rm", iterations=10).settings.spec.params == plain.params


@dataclass(frozen=True)
class _CoinState:
    """A one-card game written from scratch: chance flips a coin, player 1 sees it and calls
    heads or tails, player 2 (who does not see it) guesses again. Player 1 wins 1 for a right
    call, player 2 wins 1 for a right guess."""

    coin: int | None = None
    moves: tuple[int, ...] = ()

    def actor(self) -> Player:
        return Player.CHANCE if self.coin is None else (Player.TERMINAL if len(self.moves) == 2 else Player(len(self.moves)))

    def legal_actions(self) -> tuple[str, ...]:
        return ("heads", "tails")

    def chance_outcomes(self) -> tuple[tuple[str, float], ...]:
        return (("H", 0.5), ("T", 0.5))

    def child(self, index: int) -> _CoinState:
        return _CoinState(index, ()) if self.coin is None else _CoinState(self.coin, self.moves + (index,))

    def payoff(self) -> float:
        return float(self.moves[0] == self.coin) - float(self.moves[1] == self.coin)

    def information_set(self) -> InformationSet:
        player = len(self.moves)
        private = "HT"[self.coin] if player == 0 and self.coin is not None else None
        return InformationSet(f"p{player + 1} {private or ''}".strip(), player, private, None, (), self.legal_actions())

    def label(self) -> str:
        return "flip" if self.coin is None else "HT"[self.coin] + "".join("ht"[m] for m in self.moves)


@dataclass(frozen=True)
class CoinGame:
    name: str = "coin"
    title: str = "Coin call"

    def initial_state(self) -> _CoinState:
        return _CoinState()


def test_any_game_object_is_solved_and_its_run_reloads(tmp_path: Path) -> None:
    game: Game = CoinGame()   # mypy checks that the class satisfies the protocol
    run = cfrviz.solve(game, "cfr+", iterations=200)
    # By hand: player 1 calls the coin (+1) whatever player 2 does, and player 2 can do no better
    # than a fair guess (-1/2 on average): the value is 1/2.
    assert run.average_strategy_value == pytest.approx(0.5, abs=1e-3)
    # The game is kept as its .efg text, so the run reloads without the Python class.
    assert run.settings.spec.name == "efg" and run.tree.game.title == "Coin call"
    save_run(run, tmp_path / "coin.npz")
    again = load_run(tmp_path / "coin.npz")
    assert [r.key for r in again.tree.infosets] == ["p1 H", "p1 T", "p2"]
    assert np.array_equal(again.average_strategy, run.average_strategy)
    # A game no entry knows and that is not written out stays "custom": it cannot be rebuilt.
    custom = catalog.of_game(game)
    assert custom.name == "custom"
    with pytest.raises(ValueError, match="cannot be rebuilt"):
        RunSettings(custom, "cfr", 1, "simultaneous", 0).build_tree()


def test_a_new_game_is_one_entry(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # The promise: register one Entry, and links, the menu, solve, saved runs and the CLI's caps know it.
    from cfrviz.app import links

    entry = catalog.Entry("coin", "Coin call", lambda: CoinGame(),
                          lambda game: () if isinstance(game, CoinGame) else None)
    monkeypatch.setitem(catalog.ENTRIES, "coin", entry)
    assert catalog.lookup("coin").title == "Coin call"
    assert "coin" in [g.link for g in catalog.menu()]
    link = links.parse_query_params({"game": "coin", "iters": "50"})
    assert link.notices == () and link.choice.spec.name == "coin"
    run = cfrviz.solve("coin", "cfr", iterations=50)
    assert run.settings.spec.name == "coin"
    save_run(run, tmp_path / "coin.npz")
    assert load_run(tmp_path / "coin.npz").tree is catalog.lookup("coin").tree()
    # With no caps of its own, the entry's caps follow its size (15 nodes: the largest caps).
    assert (catalog.lookup("coin").app_iteration_cap, catalog.lookup("coin").cli_iteration_cap) == (100_000, 10_000_000)


def test_no_game_name_comparisons_outside_games_and_the_catalog() -> None:
    # The goal: adding a game is one catalog entry, so no other module asks for a game by name.
    # Benchmark plans name the games they measure, so they are left out.
    pattern = re.compile(r"""(==|!=|\bnot in|^\s*if .*\bin)\s*\(?\s*["'](kuhn|leduc|rps)["']|startswith\(["']kuhn|is_kuhn3""")
    offenders = []
    for path in [*(ROOT / "cfrviz").rglob("*.py"), *(ROOT / "pages").glob("*.py"), ROOT / "app.py"]:
        relative = path.relative_to(ROOT).as_posix()
        if relative.startswith("cfrviz/games/") or relative.startswith("cfrviz/catalog/"):
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line):
                offenders.append(f"{relative}:{number}: {line.strip()}")
    assert offenders == []


# ---------------------------------------------------------------------------------------------
# Games from .efg files: cfrviz.solve, the command line, saved runs

MYERSON = (ROOT / "cfrviz" / "games" / "data" / "games" / "myerson_card_game.efg").read_text(encoding="utf-8")


def test_solve_takes_a_path_to_an_efg_file_and_its_run_reloads(tmp_path: Path) -> None:
    path = tmp_path / "card game.efg"
    path.write_text(MYERSON, encoding="utf-8")
    run = cfrviz.solve(str(path), "cfr+", iterations=500)
    # Myerson (1991): the value is 1/3 for player 1.
    assert run.average_strategy_value == pytest.approx(1 / 3, abs=1e-3)
    assert run.settings.spec.name == "efg" and dict(run.settings.spec.params)["text"] == MYERSON
    saved = tmp_path / "run.npz"
    save_run(run, saved)
    again = load_run(saved)     # rebuilt from the file's text kept in the settings, not from the path
    path.unlink()
    assert [r.key for r in again.tree.infosets] == [r.key for r in run.tree.infosets]
    assert np.array_equal(again.average_strategy, run.average_strategy)
    restored = run_from_strategy_json(export_strategy(run))
    assert np.allclose(restored.average_strategy[0], run.average_strategy[-1])


def test_a_bundled_game_and_the_same_text_are_the_same_tree_but_different_settings() -> None:
    bundled = catalog.lookup("efg:myerson_card_game")
    uploaded = catalog.get("efg", text=MYERSON)
    assert bundled.link == "efg:myerson_card_game" and uploaded.link is None
    assert [r.key for r in bundled.tree().infosets] == [r.key for r in uploaded.tree().infosets]


def test_cli_solves_an_efg_file(tmp_path: Path) -> None:
    path = tmp_path / "myerson.efg"
    path.write_text(MYERSON, encoding="utf-8")
    result = run_cli("solve", str(path), "-a", "cfr+", "-n", "2000")
    assert result.returncode == 0, result.stderr
    # Myerson (1991): player 1 raises with red always and with black 1/3 of the time; player 2 meets 2/3.
    assert "red    raise 1.000  fold 0.000" in result.stdout
    assert "black  raise 0.333  fold 0.667" in result.stdout
    assert "raise  meet 0.667  pass 0.333" in result.stdout
    assert "value is 0.3333333, from the sequence-form linear program" in result.stdout


BAD_EFG = {
    "three players": ('EFG 2 R "x" { "A" "B" "C" }\n', "two-player"),
    "not constant-sum": ('EFG 2 R "x" { "A" "B" }\np "" 1 1 "" { "l" "r" } 0\nt "" 1 "" { 1 -1 }\n'
                         't "" 2 "" { 1 1 }\n', "constant-sum"),
    "probabilities": ('EFG 2 R "x" { "A" "B" }\nc "" 1 "" { "h" 1/2 "t" 1/3 } 0\n'
                      'p "" 1 1 "" { "l" "r" } 0\nt "" 1 "" { 1 -1 }\nt "" 2 "" { -1 1 }\n'
                      'p "" 1 2 "" { "l" "r" } 0\nt "" 1\nt "" 2\n', "sum"),
    "not efg": ("hello\n", "Line 1"),
}


@pytest.mark.parametrize("name", list(BAD_EFG))
def test_cli_bad_efg_files_are_one_sentence_and_exit_2(tmp_path: Path, name: str) -> None:
    text, fragment = BAD_EFG[name]
    path = tmp_path / "bad.efg"
    path.write_text(text, encoding="utf-8")
    result = run_cli("solve", str(path), "-a", "cfr", "-n", "10")
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 2 and result.stdout == ""
    assert len(lines) == 1 and lines[0].startswith("cfrviz: ") and lines[0].endswith("."), result.stderr
    assert fragment in lines[0] and "Traceback" not in result.stderr


def test_cli_missing_and_oversized_efg_files(tmp_path: Path) -> None:
    from cfrviz.games.efg import MAX_EFG_BYTES

    missing = run_cli("solve", str(tmp_path / "none.efg"), "-a", "cfr", "-n", "10")
    assert missing.returncode == 2 and "Cannot read none.efg" in missing.stderr
    big = tmp_path / "big.efg"
    big.write_bytes(b" " * (MAX_EFG_BYTES + 1))
    oversized = run_cli("solve", str(big), "-a", "cfr", "-n", "10")
    assert oversized.returncode == 2 and f"{MAX_EFG_BYTES:,} bytes" in oversized.stderr
    assert len(oversized.stderr.strip().splitlines()) == 1


def test_runs_of_a_big_efg_game_upload_again() -> None:
    # Leduc written as .efg is ~98 kB of text with thousands of braces; the run and strategy files carry it,
    # and the bounded readers count structure, not the text's own brackets, so both upload again.
    import io

    from cfrviz.tree.efg_export import write_efg
    from cfrviz.run.uploads import read_upload

    game = catalog.get("efg", text=write_efg(catalog.lookup("leduc").tree()))
    assert dict(game.params)["text"].count("{") > 1_000
    run = cfrviz.solve(game.tree(), "cfr+", iterations=20)
    buffer = io.BytesIO()
    save_run(run, buffer)
    again = read_upload("leduc.npz", buffer.getvalue())
    assert again.tree is game.tree() and np.array_equal(again.average_strategy, run.average_strategy)
    strategy = read_upload("leduc.json", export_strategy(run).encode("utf-8"))
    assert np.allclose(strategy.average_strategy[0], run.average_strategy[-1], rtol=0.0, atol=1e-15)


# ---------------------------------------------------------------------------------------------
# GameSpec: the one value naming a game


def test_a_game_spec_checks_a_files_fields_without_building_the_game() -> None:
    # Reference: "not an efg file" is no Gambit file, so building it is refused (get builds); a saved file's
    # settings are only checked (types and ranges), so an upload's game can be vetted before it is built.
    with pytest.raises(ValueError):
        catalog.get("efg", text="not an efg file")
    unbuilt = catalog.GameSpec.checked("efg", {"text": "not an efg file"})
    assert (unbuilt.name, unbuilt.params) == ("efg", (("text", "not an efg file"),))
    with pytest.raises(ValueError):
        unbuilt.tree()
    # Defaults are left out and JSON lists become tuples, so a file's spec equals the solved one.
    assert catalog.GameSpec.checked("kuhn", {"cards": 3}) == catalog.get("kuhn") == catalog.lookup("kuhn")
    matrix = catalog.resolve([[0, -1, 1], [1, 0, -1], [-1, 1, 0]])
    name, params = matrix.name, dict(matrix.params)
    assert catalog.GameSpec.checked(name, json.loads(json.dumps(params))) == matrix
    assert catalog.resolve(matrix) is matrix


@pytest.mark.parametrize(("name", "params", "says"), [
    ("chess", {}, "Unknown game"), (None, {}, "Unknown game"), ("kuhn", [], "JSON object"),
    ("kuhn", {"cards": 99}, "3 to 13 cards"), ("kuhn", {"cards": "5"}, "whole number"),
    ("kuhn", {"deck": 5}, "takes no parameter"), ("leduc", {"suits": 1}, "true or false"),
])
def test_a_game_spec_from_bad_fields_is_one_sentence(name: object, params: object, says: str) -> None:
    with pytest.raises(ValueError, match=says) as error:
        catalog.GameSpec.checked(name, params)   # type: ignore[arg-type]  # files hold any JSON
    assert str(error.value).count(". ") == 0 and str(error.value).endswith(".")
