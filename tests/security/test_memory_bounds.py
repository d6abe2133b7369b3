"""Memory is planned from the tree before a solve allocates it, and no tree shape can blow it up.

References: the old own-reach form (the product over each set's whole own sequence, [..., I, D])
for own reach; `cfrviz.util.memory.solve_plan`'s byte count checked against the arrays a real run holds;
the issue's hostile shapes (a 1,500-decision chain took a server past 5 GB, a 5,000-deep one
ended in a MemoryError, a node of 30,000 actions made a 1 GB tree) for the limits.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from tests.support.capped_child import ROOT, run_capped
from tests.support.efg_shapes import chain_efg, random_perfect_recall_efg, wide_efg
from tests.support.cli import run_cli
from tests.support.messages import one_sentence

import cfrviz
from cfrviz import catalog
from cfrviz.util import memory
from cfrviz.games.efg import MAX_EFG_ACTIONS, MAX_EFG_DEPTH, read_efg
from cfrviz.games.openspiel import available as openspiel_available
from cfrviz.solving import planned_schedule
from cfrviz.solvers.base import own_reach_probability
from cfrviz.tree import GameTree, build_tree
from cfrviz.run import load_run
from cfrviz.catalog import cache
from cfrviz.util.bounded_cache import BoundedCache
from cfrviz.games import efg

LIARS_DICE = "openspiel:liars_dice(numdice=1,dice_sides=5)"
needs_openspiel = pytest.mark.skipif(not openspiel_available(), reason="OpenSpiel (pyspiel) is not installed; "
                                     "tests/run.sh installs the openspiel extra")
# Forget built games (and OpenSpiel's game strings) around every test: tests/security/conftest.py.
pytestmark = pytest.mark.usefixtures("fresh_caches")


# --- own reach --------------------------------------------------------------------------------

def own_reach_by_sequences(tree: GameTree, strategy: np.ndarray) -> np.ndarray:
    """The old form, kept as the reference: each set's whole own sequence of (set, action) slots,
    padded with a slot holding 1, gathered into [..., I, D] and multiplied along D."""
    width = tree.max_actions
    paths: list[tuple[tuple[int, ...], tuple[int, ...]]] = [((), ())]
    for n in range(1, tree.num_nodes):
        parent = int(tree.parent[n])
        mine, who = paths[parent], int(tree.actor[parent])
        if who in (0, 1):
            slot = int(tree.infoset[parent]) * width + int(tree.action_index[n])
            mine = (mine[0] + (slot,), mine[1]) if who == 0 else (mine[0], mine[1] + (slot,))
        paths.append(mine)
    sequences = [paths[int(tree.nodes_of(i)[0])][int(tree.infoset_player[i])] for i in range(tree.num_infosets)]
    index = np.full((tree.num_infosets, max(len(q) for q in sequences) or 1), tree.num_infosets * width)
    for i, sequence in enumerate(sequences):
        index[i, :len(sequence)] = sequence
    lead = strategy.shape[:-2]
    flat = np.concatenate([strategy.reshape(lead + (-1,)), np.ones(lead + (1,))], axis=-1)
    return flat[..., index].prod(axis=-1)


@pytest.mark.parametrize("game", ["kuhn", "leduc", "kuhn13", "efg:myerson_card_game", "random:1", "random:2",
                                  "chain:40"])
def test_own_reach_level_by_level_equals_the_product_over_own_sequences(game: str) -> None:
    # Reference: the old [..., I, D] product form above, on random strategies [5, I, A].
    kind, _, rest = game.partition(":")
    if kind == "random":
        tree = build_tree(read_efg(random_perfect_recall_efg(int(rest))))
    elif kind == "chain":
        tree = build_tree(read_efg(chain_efg(int(rest))))
    else:
        tree = catalog.compile_game(game)
    rng = np.random.default_rng(7)
    strategy = rng.random((5,) + tree.legal.shape) * tree.legal
    strategy /= strategy.sum(axis=-1, keepdims=True)
    reach = own_reach_probability(tree, strategy)
    assert reach.shape == (5, tree.num_infosets)
    np.testing.assert_allclose(reach, own_reach_by_sequences(tree, strategy), rtol=0, atol=1e-15)
    one = own_reach_probability(tree, strategy[2])                 # no leading axis
    np.testing.assert_allclose(one, reach[2], rtol=0, atol=0)


def test_a_random_game_has_sets_spanning_several_histories() -> None:
    # The reference above is only a check where sets hold several histories with one own sequence.
    tree = build_tree(read_efg(random_perfect_recall_efg(1)))
    assert max(len(tree.nodes_of(i)) for i in range(tree.num_infosets)) > 1


# --- the plan against real runs -----------------------------------------------------------------

def app_games() -> list[str]:
    links = [str(g.link) for g in catalog.menu()] + [f"kuhn{n}" for n in range(4, 14)]
    return links + ([LIARS_DICE] if openspiel_available() else [])


@pytest.mark.parametrize("link", app_games())
def test_every_catalog_game_at_its_app_cap_fits_the_budget_with_default_snapshots(link: str) -> None:
    # Reference: memory.solve_plan's byte count (planned before allocating) must fit the budget, and
    # must not undercount: every [T, ...] array a real run holds is in its per-snapshot part.
    game = catalog.lookup(link)
    tree = game.tree()
    cap = game.app_iteration_cap
    schedule = planned_schedule(tree, cap)
    plan = memory.solve_plan(tree.num_nodes, tree.num_infosets, tree.max_actions)
    assert plan.total(len(schedule)) <= memory.budget_bytes()
    assert schedule[-1] == cap and np.all(np.diff(schedule) > 0)
    if tree.num_infosets * tree.max_actions * len(schedule) <= 2_000_000:       # real runs of the small ones
        run = cfrviz.solve(tree, game.default_algorithm, iterations=cap)
        assert run.num_snapshots == len(schedule)
        assert run.nbytes <= plan.per_snapshot * run.num_snapshots


def test_leduc_keeps_its_two_thousand_default_snapshots() -> None:
    # Reference: Leduc (I = 288, A = 3) needs 27,712 bytes a snapshot, so 2,000 fit 200 MB many times over;
    # the schedule is the one runs always had (every iteration to 1,000, then log-spaced).
    tree = catalog.lookup("leduc").tree()
    assert len(planned_schedule(tree, 20_000)) == 2_000


def test_default_snapshots_shrink_to_what_fits() -> None:
    # Hand computation: with a 5 MB budget Leduc's plan (fixed 330,112 bytes, 27,712 a snapshot) holds
    # (5,000,000 - 330,112) // 27,712 = 168 snapshots: every iteration to 84, then log-spaced.
    tree = catalog.lookup("leduc").tree()
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(memory.BUDGET_VARIABLE, "5")
        schedule = planned_schedule(tree, 20_000)
        assert len(schedule) <= 168 and len(schedule) > 150
        np.testing.assert_array_equal(schedule[:84], np.arange(1, 85))
        assert schedule[-1] == 20_000
        run = cfrviz.solve("leduc", "cfr", iterations=500)
        assert run.num_snapshots <= 168 and run.iterations[-1] == 500


@pytest.mark.parametrize("value", ["lots", "-5", "0", "1e3", "9" * 30])
def test_a_bad_budget_setting_is_a_sentence(value: str) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(memory.BUDGET_VARIABLE, value)
        with pytest.raises(ValueError, match="CFRVIZ_MEMORY_MB must be a whole number") as caught:
            cfrviz.solve("kuhn", "cfr", iterations=10)
        assert one_sentence(str(caught.value))


def test_an_explicit_stride_that_does_not_fit_names_one_that_does() -> None:
    # Hand computation: Liar's-Dice-sized sets are not needed; Leduc with a 1 MB budget holds
    # (1,000,000 - 330,112) // 27,712 = 24 snapshots, so 1,000 iterations need a stride of ceil(1000 / 24) = 42.
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(memory.BUDGET_VARIABLE, "1")
        with pytest.raises(ValueError, match=r"at most 24 fit: ask for a stride of 42 or more") as caught:
            cfrviz.solve("leduc", "cfr", iterations=1000, snapshots=1)
        assert one_sentence(str(caught.value))
        assert cfrviz.solve("leduc", "cfr", iterations=1000, snapshots=42).num_snapshots == 24


# --- hostile shapes in a memory-capped child ------------------------------------------------------

_CHILD = r"""
import io
from contextlib import redirect_stderr, redirect_stdout
import cfrviz
from cfrviz.cli import main

cfrviz.solve("kuhn", "cfr", iterations=3)          # warm-up: kernels loaded, as a started server has them
before = cap_memory(int(sys.argv[1]))
err, out = io.StringIO(), io.StringIO()
try:
    with redirect_stderr(err), redirect_stdout(out):
        code = main(sys.argv[2:])
except MemoryError:
    code = "MemoryError"
print(json.dumps({"code": code, "stderr": err.getvalue(), "stdout": out.getvalue()[-300:],
                  "peak_mb": peak_growth_mb(before)}))
"""
#: Address space the child may add after its warm-up, MB; and the resident growth a case may show.
CHILD_CAP_MB = 600
PEAK_BOUND_MB = 300


def solve_in_capped_child(tmp_path: Path, text: str, *args: str) -> dict:
    path = tmp_path / "game.efg"
    path.write_text(text)
    return run_capped(_CHILD, str(CHILD_CAP_MB), "solve", str(path), *args)


HOSTILE_SHAPES = {
    # The 1,500 chain (9 GB before own reach lost its depth squared) and one at the depth limit.
    "chain 1,500": (lambda: chain_efg(1_500), True, ""),
    "chain at the limit": (lambda: chain_efg(MAX_EFG_DEPTH), True, ""),
    "chain 5,000": (lambda: chain_efg(5_000), False, f"more than {MAX_EFG_DEPTH:,} moves deep"),
    "widest node": (lambda: wide_efg(MAX_EFG_ACTIONS), True, ""),
    "30,000 actions": (lambda: wide_efg(30_000, answers=0), False, f"more than {MAX_EFG_ACTIONS} actions"),
}


@pytest.mark.parametrize("shape", list(HOSTILE_SHAPES))
def test_deep_and_wide_games_solve_or_refuse_in_one_sentence_under_a_memory_cap(tmp_path: Path, shape: str) -> None:
    make, solves, fragment = HOSTILE_SHAPES[shape]
    text = make()
    assert len(text.encode()) < 1_000_000       # under the reader's size limit: the shape is what is tested
    report = solve_in_capped_child(tmp_path, text, "-a", "cfr", "-n", "1000")
    message = report["stderr"].removeprefix("cfrviz: ").strip()
    if solves:
        assert report["code"] == 0, report
        assert "exploitability of the average strategy" in report["stdout"]
    else:
        assert report["code"] == 2 and fragment in message and one_sentence(message), report
    assert report["peak_mb"] < PEAK_BOUND_MB, f"{shape}: grew by {report['peak_mb']:.0f} MB"
    print(f"{shape}: peak growth {report['peak_mb']:.0f} MB, {message or 'solved'}")


def test_the_reader_sizes_dense_arrays_before_building_the_game() -> None:
    # Hand computation (memory.solve_plan): 501 sets x 500 actions, 1,501 histories; 20 snapshots need
    # 8 x (8 x 250,500 + 17 x 1,501 + 5 x 501) + 20 x 8 x (3 x 250,500 + 3 x 501 + 8) = 136,737,936 bytes,
    # 137 MB, over a 100 MB budget.
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(memory.BUDGET_VARIABLE, "100")
        with pytest.raises(ValueError, match=r"501 information sets of up to 500 actions: 20 snapshots of a solve "
                                             r"would need 137 MB, more than this process's 100 MB") as caught:
            read_efg(wide_efg(500))
        assert one_sentence(str(caught.value))


# --- caches keep only what was accepted -------------------------------------------------------------

def test_a_refused_game_is_not_cached_and_its_refusal_costs_nothing_the_second_time(
        monkeypatch: pytest.MonkeyPatch) -> None:
    reads: list[int] = []
    original = efg.read_efg

    def counted(*args, **kwargs):
        reads.append(1)
        return original(*args, **kwargs)

    # The catalog reads .efg text through the reader module.
    monkeypatch.setattr(efg, "read_efg", counted)
    text = wide_efg(MAX_EFG_ACTIONS + 1)
    messages = []
    for _ in range(3):
        with pytest.raises(ValueError) as caught:
            catalog.get("efg", text=text)
        messages.append(str(caught.value))
    assert len(set(messages)) == 1 and "more than 500 actions" in messages[0]
    assert len(reads) == 1                                # read once, then remembered by key
    assert len(cache._GAMES) == 0 and len(cache._TREES) == 0
    assert len(cache._REFUSALS) == 1
    assert all(len(key) == 16 for key in cache._REFUSALS)    # a digest, not the 1 MB text


def test_a_refused_tree_drops_its_game_and_is_remembered(monkeypatch: pytest.MonkeyPatch) -> None:
    # The tree stage: a game the reader accepted, compiled after the budget shrank (a tree refused later
    # was the 1 GB leak). Nothing of it stays; asking again does not build it again.
    game = catalog.get("efg", text=wide_efg(500))
    assert game in cache._GAMES
    builds: list[int] = []
    original = cache.build_tree

    def counted(rules):
        builds.append(1)
        return original(rules)

    # The catalog's cache compiles the trees it keeps.
    monkeypatch.setattr(cache, "build_tree", counted)
    monkeypatch.setenv(memory.BUDGET_VARIABLE, "100")
    for _ in range(2):
        with pytest.raises(ValueError, match="more than this process's 100 MB budget"):
            game.tree()
    assert builds == [1]
    assert game not in cache._GAMES and game not in cache._TREES
    with pytest.raises(ValueError, match="100 MB budget"):
        game.game()                                       # refused as a game too, without reading again


def test_the_tree_cache_is_bounded_by_count_and_by_bytes() -> None:
    # Reference: catalog.tree_bytes estimates each tree; the cache keeps at most TREE_CACHE_ENTRIES trees
    # and TREE_CACHE_BYTES (the newest always). The same rule on smaller bounds: bytes, count, one too big.
    trees = [catalog.get("efg", text=chain_efg(n)).tree() for n in (100, 200, 300)]
    sizes = [catalog.tree_bytes(t) for t in trees]
    assert cache._TREES.currsize == sum(sizes)
    assert (cache._TREES.max_entries, cache._TREES.maxsize) == (cache.TREE_CACHE_ENTRIES, cache.TREE_CACHE_BYTES)

    def kept(max_entries: int, max_bytes: int) -> list[int]:
        small: BoundedCache[int, GameTree] = BoundedCache(max_entries, max_bytes,
                                                          cache._counted(catalog.tree_bytes, max_bytes))
        for k, tree in enumerate(trees):
            small[k] = tree
        return sorted(small)

    assert kept(100, sizes[1] + sizes[2]) == [1, 2]           # the bytes of the newest two
    assert kept(2, 10 * sum(sizes)) == [1, 2]                 # two entries
    assert kept(100, sizes[2] - 1) == [2]                     # the newest, alone, though over the bytes


# --- Liar's Dice with 5 sides at 20,000 iterations, default settings ---------------------------------

@needs_openspiel
def test_liars_dice_five_sides_at_twenty_thousand_iterations_solves_through_the_api() -> None:
    # Reference: the failing case ("ask for fewer" at 1.27 MB a snapshot); its value is 0.008
    # (the sequence-form LP in the README), which 20,000 CFR iterations approach.
    run = cfrviz.solve(LIARS_DICE, "cfr", iterations=20_000)
    plan = memory.solve_plan(run.tree.num_nodes, run.tree.num_infosets, run.tree.max_actions)
    assert run.iterations[-1] == 20_000 and plan.total(run.num_snapshots) <= memory.budget_bytes()
    assert abs(run.average_strategy_value - 0.008) < 1e-3 and run.exploitability[-1] < 1e-3


@needs_openspiel
def test_liars_dice_five_sides_at_twenty_thousand_iterations_solves_through_the_cli() -> None:
    result = subprocess.run([sys.executable, "-m", "cfrviz", "solve", LIARS_DICE, "-a", "cfr", "-n", "20000"],
                            capture_output=True, text=True, timeout=900, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert "exploitability of the average strategy" in result.stdout


# --- the CLI's --snapshots ----------------------------------------------------------------------------

def test_cli_snapshots_stride_and_all_are_saved(tmp_path: Path) -> None:
    # Reference: snapshot_schedule's definition: every 3rd iteration and the last; "all" every one.
    for value, expected in (("3", [3, 6, 9, 10]), ("all", list(range(1, 11)))):
        out = tmp_path / f"run{value}.npz"
        result = run_cli("solve", "kuhn", "-a", "cfr", "-n", "10", "--snapshots", value, "--out", str(out))
        assert result.returncode == 0, result.stderr
        assert load_run(out).iterations.tolist() == expected


@pytest.mark.parametrize("value, fragment", [
    ("0", "--snapshots must be at least 1"), ("-2", "--snapshots must be at least 1"),
    ("some", "--snapshots takes a whole number K"), ("2.5", "--snapshots takes a whole number K"),
    ("1", "ask for a stride of 47 or more"),     # 10,000,000 Kuhn snapshots: 215,507 fit (test_run's hand count)
])
def test_cli_bad_snapshots_are_one_sentence(value: str, fragment: str) -> None:
    result = run_cli("solve", "kuhn", "-a", "cfr", "-n", "10000000", "--snapshots", value)
    message = result.stderr.strip().removeprefix("cfrviz: ")
    assert result.returncode == 2 and fragment in message and one_sentence(message), result.stderr


def test_cli_help_documents_snapshots() -> None:
    result = run_cli("solve", "--help")
    assert result.returncode == 0 and "--snapshots K" in result.stdout and "CFRVIZ_MEMORY_MB" in result.stdout
