"""The app's iteration caps: round numbers whose estimated solve fits one click's CPU budget.

References: the cost formula written out by hand (N * (T * per-iteration + min(T, 2,000) * per-snapshot)),
and the round numbers listed in `cfrviz.util.cost`.
"""
from __future__ import annotations

import pytest

from cfrviz import catalog
from cfrviz.util import cost, memory
from cfrviz.util.memory import MAX_DEFAULT_SNAPSHOTS

ROUND = [m * 10**k for k in range(7) for m in (1, 1.5, 2, 2.5, 3, 4, 5, 6, 8)]


def by_hand(nodes: int, iterations: int, most: int = 2_000) -> float:
    return nodes * (iterations * cost.NODE_ITERATION_SECONDS
                    + min(iterations, most, 2_000) * cost.NODE_SNAPSHOT_SECONDS)


def test_nice_below_rounds_down_to_the_listed_round_numbers() -> None:
    assert [cost.nice_below(v) for v in (1, 1.4, 2.49, 7.9, 10, 34_567, 3_999, 24_027, 100_000)] == \
        [1, 1, 2, 6, 10, 30_000, 3_000, 20_000, 100_000]


def test_the_default_schedule_keeps_at_most_2000_snapshots() -> None:
    assert MAX_DEFAULT_SNAPSHOTS == 2_000


@pytest.mark.parametrize("nodes", [55, 1_405, 1_936, 9_451, 26_773, 51_181, 200_000])
def test_the_cap_is_the_largest_round_number_that_fits_the_click(nodes: int) -> None:
    cap = cost.iteration_cap(nodes, cost.CLICK_SECONDS, 100, 100_000)
    assert cost.solve_seconds(nodes, cap) == pytest.approx(by_hand(nodes, cap), rel=1e-12)
    if 100 < cap < 100_000:
        assert by_hand(nodes, cap) <= cost.CLICK_SECONDS
        above = min(r for r in ROUND if r > cap)
        assert by_hand(nodes, int(above)) > cost.CLICK_SECONDS
    assert cap in ROUND


def test_the_caps_clamp_to_their_bounds() -> None:
    assert cost.iteration_cap(1, cost.CLICK_SECONDS, 100, 100_000) == 100_000
    assert cost.iteration_cap(10**9, cost.CLICK_SECONDS, 100, 100_000) == 100


@pytest.mark.parametrize("most", [20, 150, 1_999, 2_000, 5_000])
def test_fewer_snapshots_allow_more_iterations(most: int) -> None:
    nodes = 51_181      # liar's dice with one 5-sided die
    cap = cost.iteration_cap(nodes, cost.CLICK_SECONDS, 100, 100_000, most)
    assert by_hand(nodes, cap, most) <= cost.CLICK_SECONDS < by_hand(nodes, int(min(r for r in ROUND if r > cap)), most)
    assert cap >= cost.iteration_cap(nodes, cost.CLICK_SECONDS, 100, 100_000)


def test_catalog_games_take_their_cap_from_the_cost_of_their_tree() -> None:
    for game in (catalog.lookup("kuhn13"), catalog.lookup("leduc"), catalog.get("leduc", suits=True)):
        tree = game.tree()
        most = memory.solve_plan(tree.num_nodes, tree.num_infosets, tree.max_actions).most_snapshots(
            memory.budget_bytes())
        assert most >= 2_000 or tree.num_nodes > 5_000     # the small trees keep the full default schedule
        assert game.app_iteration_cap == cost.iteration_cap(tree.num_nodes, cost.CLICK_SECONDS, 100, 100_000, most)
        assert by_hand(tree.num_nodes, game.app_iteration_cap, most) <= cost.CLICK_SECONDS
