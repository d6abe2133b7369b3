"""One click on a large uploaded game stays under the 300 MB a click may cost: Evolution's figures,
and a lock on one of its sets.

References: the 300 MB per-click bound (README, "Per-click budget"; `cfrviz.util.memory`); the game
is `seen_rounds_efg(43)` from tests/support/efg_shapes.py, 81,400 histories and 1,893 sets of 43
actions in 0.98 MB (under the reader's 1 MB and 100,000 histories). Before: the heat map alone
peaked at 312 MB and its JSON at 350 MB (81,399 set-action rows, a copy of the run's strategy);
the locked solve at 391 MB (its run and the run lifted over the original sets, each planned for
the whole budget). Peaks are measured with tracemalloc, which counts numpy's arrays.
"""
from __future__ import annotations

import gc
import tracemalloc
from collections.abc import Callable
from typing import Any

import pytest
from tests.support.efg_shapes import seen_rounds_efg

import cfrviz
from cfrviz import catalog
from cfrviz.figures.evolution import MAX_HEATMAP_ROWS, aggression_heatmap, infoset_curves_figure
from cfrviz.run import Run
from cfrviz.tree import GameTree
from cfrviz.tree.locks import Locks
from cfrviz.util.vocabulary import StrategyKind

CLICK_BYTES = 300_000_000


def peak_bytes(action: Callable[[], Any]) -> int:
    gc.collect()
    tracemalloc.start()
    try:
        action()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.fixture(scope="module")
def big_game() -> tuple[GameTree, int]:
    game = catalog.get("efg", text=seen_rounds_efg(43))
    tree = game.tree()
    assert tree.num_nodes == 81_400 and tree.num_infosets == 1_893
    return tree, game.app_iteration_cap


@pytest.fixture(scope="module")
def big_run(big_game: tuple[GameTree, int]) -> Run:
    tree, cap = big_game
    return cfrviz.solve(tree, "cfr", iterations=cap)


def test_evolutions_figures_on_a_large_upload_stay_under_a_click(big_run: Run) -> None:
    t = int(big_run.iterations[-1])

    def click() -> None:
        infoset_curves_figure(big_run, [0, 1], t).to_json()
        aggression_heatmap(big_run, kind=StrategyKind.AVERAGE, t=t).to_json()

    assert big_run.nbytes > 150_000_000            # a run near the solve's budget is held meanwhile
    peak = peak_bytes(click)
    assert peak < CLICK_BYTES - 100_000_000, f"Evolution's figures peaked at {peak / 1e6:.0f} MB"


def test_the_heat_map_says_when_it_shows_only_the_first_rows(big_run: Run) -> None:
    # 1,893 sets x 43 actions (no bet, call or raise: one row per set action) = 81,399 rows.
    figure = aggression_heatmap(big_run, kind=StrategyKind.CURRENT)
    heatmap = figure.data[0]
    assert len(heatmap.z) == MAX_HEATMAP_ROWS
    assert f"first {MAX_HEATMAP_ROWS:,} of 81,399 set actions" in figure.layout.title.text.replace("<br>", " ")
    # The first row is the first set's first action, read straight from the run.
    assert list(heatmap.z[0]) == pytest.approx(big_run.current_strategy[:, 0, 0][
        [list(big_run.iterations).index(int(x)) for x in heatmap.x]].tolist())


def test_a_lock_on_a_large_upload_stays_under_a_click(big_game: tuple[GameTree, int]) -> None:
    tree, cap = big_game
    record = tree.infosets[1]
    locks = Locks.of({record.key: [1.0] + [0.0] * (len(record.actions) - 1)})
    solved: list[Run] = []
    peak = peak_bytes(lambda: solved.append(cfrviz.solve(tree, "cfr", iterations=cap, locks=locks)))
    assert peak < CLICK_BYTES, f"the locked solve peaked at {peak / 1e6:.0f} MB"
    # The lock holds at every snapshot (the locked run's own contract).
    assert (solved[0].average_strategy[:, 1, 0] == 1.0).all()
