"""The inspector's numbers (cfrviz.analysis.inspector) and Run.reach.

References: hand computations on 3-card Kuhn poker (stated at each test), and the update
rules of the algorithms: vanilla CFR adds this iteration's counterfactual regret to the
cumulative regret (Zinkevich et al. 2007); CFR+ adds it and floors the sum at zero
(Tammelin 2014); linear and discounted CFR add it and scale positive sums by t^a/(t^a+1) and
negative ones by t^b/(t^b+1) (Brown and Sandholm 2019).
"""
from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cfrviz import solve
from cfrviz.analysis.inspector import frame_numbers, update_profiles
from cfrviz.run import Run, load_run, save_run
from cfrviz.solvers import solver_class
from cfrviz.solvers.base import own_reach_probability, regret_matching
from cfrviz.tree import GameTree

RunCache = Callable[[str, str, str], Run]


@pytest.fixture(scope="module")
def runs() -> RunCache:
    cache: dict[tuple[str, str, str], Run] = {}

    def get(game: str, algorithm: str, updates: str) -> Run:
        key = (game, algorithm, updates)
        if key not in cache:
            cache[key] = solve(game, algorithm, iterations=60 if game == "leduc" else 300, updates=updates)
        return cache[key]

    return get


def _all(run: Run) -> dict[str, np.ndarray]:
    return frame_numbers(run, np.arange(run.num_snapshots))


@pytest.mark.parametrize("game", ["kuhn", "leduc"])
@pytest.mark.parametrize("updates", ["simultaneous", "alternating"])
def test_this_iterations_regret_is_the_change_of_cumulative_regret(runs: RunCache, game: str, updates: str) -> None:
    # Vanilla CFR: cumulative_regret[t] = cumulative_regret[t-1] + r^t, where r^t summed over a
    # set's histories is what the inspector calls this iteration's regret.
    run = runs(game, "cfr", updates)
    numbers = _all(run)
    legal = run.tree.legal
    assert numbers["recorded"].all()
    instant = numbers["instant_regret"][:, legal]
    change = numbers["regret_change"][:, legal]
    assert not np.isnan(instant).any() and not np.isnan(change).any()
    scale = max(1.0, float(np.abs(change).max()))
    np.testing.assert_allclose(instant, change, rtol=0, atol=1e-12 * scale)
    # The identity is not empty: regrets do move.
    assert np.abs(change).max() > 1e-3


def test_issue_repro_alternating_kuhn_at_iteration_123() -> None:
    # The reported case: node 17 ("KQ k", player 2's set "Q k") at t = 123. The cumulative
    # regret moved by [0, -0.0848]; values computed from current_strategy[t] for both players
    # implied [0, -0.0910]. Against player 1's updated strategy they agree.
    run = solve("kuhn", "cfr", 1000, updates="alternating")
    s = run.snapshot_at(123)
    assert int(run.iterations[s]) == 123
    i = int(run.tree.infoset[17])
    assert run.tree.infosets[i].key == "Q k"
    numbers = frame_numbers(run, [s], nodes=[17])
    np.testing.assert_allclose(numbers["instant_regret"][0, i], [0.0, -0.0848], atol=5e-5)
    np.testing.assert_allclose(numbers["instant_regret"][0, i], numbers["regret_change"][0, i], atol=1e-14)
    # The old reading (both players at current_strategy[t]) is what gave -0.0910.
    stale = frame_numbers(_with_updates(run, "simultaneous"), [s])
    np.testing.assert_allclose(stale["instant_regret"][0, i], [0.0, -0.0910], atol=5e-5)


def _with_updates(run: Run, updates: str) -> Run:
    from dataclasses import replace
    return replace(run, settings=replace(run.settings, updates=updates))


def test_first_iteration_by_hand_simultaneous(runs: RunCache) -> None:
    # Iteration 1 plays uniformly. Set "Q k" (player 2 holds Q, player 1 checked): histories
    # JQ k and KQ k, each with opponent-and-chance reach 1/2 * 1/6 = 1/12. Player 2's payoffs:
    # JQ: check +1, bet 1/2 * (+1 fold) + 1/2 * (+2 call) = 1.5; KQ: check -1, bet 1/2 - 1 = -0.5.
    # Counterfactual values: check (1 - 1)/12 = 0, bet (1.5 - 0.5)/12 = 1/12; the set's value
    # under uniform play is 1/24, so this iteration's regret is [-1/24, +1/24].
    run = runs("kuhn", "cfr", "simultaneous")
    tree = run.tree
    i = tree.infoset_index("Q k")
    node = tree.node_label.index("KQ k")
    numbers = frame_numbers(run, [0], nodes=[node])
    assert numbers["opponent_chance_reach"][0, 0] == pytest.approx(1 / 12)
    assert numbers["own_reach"][0, 0] == pytest.approx(1.0)
    np.testing.assert_allclose(numbers["history_cfv"][0, 0], [-1 / 12, -0.5 / 12])
    np.testing.assert_allclose(numbers["infoset_cfv"][0, i], [0.0, 1 / 12])
    np.testing.assert_allclose(numbers["instant_regret"][0, i], [-1 / 24, 1 / 24])


def test_first_iteration_by_hand_alternating(runs: RunCache) -> None:
    # Player 1 updates first against uniform play. With K: check is worth
    # 1/2 (+1) + 1/2 (bet, then 1/2 fold -1 + 1/2 call +2 = 0.5) = 0.75, bet 1/2 (+1) + 1/2 (+2)
    # = 1.5, so all regret is on bet and K bets with probability 1 in iteration 2. With J:
    # check -1.25, bet -0.5, so J bets too. Player 2 then answers that updated strategy: after
    # a check ("Q k") nobody reaches, so its values and this iteration's regret are 0. Facing a
    # bet ("Q b": JQ b and KQ b, reach 1 * 1/6 each): fold -1 in both, call +2 against J and
    # -2 against K: values [-1/3, 0], uniform mean -1/6, regret [-1/6, +1/6].
    run = runs("kuhn", "cfr", "alternating")
    tree = run.tree
    numbers = frame_numbers(run, [0])
    k = tree.infoset_index("K")
    j = tree.infoset_index("J")
    profiles, _ = update_profiles(run, [0])
    np.testing.assert_allclose(profiles[0, 1, k], [0.0, 1.0])
    np.testing.assert_allclose(profiles[0, 1, j], [0.0, 1.0])
    np.testing.assert_allclose(profiles[0, 0, k], [0.5, 0.5])        # player 1 answered uniform play
    q_check, q_bet = tree.infoset_index("Q k"), tree.infoset_index("Q b")
    np.testing.assert_allclose(numbers["infoset_cfv"][0, q_check], [0.0, 0.0])
    np.testing.assert_allclose(numbers["instant_regret"][0, q_check], [0.0, 0.0])
    np.testing.assert_allclose(numbers["infoset_cfv"][0, q_bet], [-1 / 3, 0.0])
    np.testing.assert_allclose(numbers["instant_regret"][0, q_bet], [-1 / 6, 1 / 6])
    # Player 1's own numbers at K: cf reach 2 * 1/6, regret [-0.375, +0.375] * 1/3.
    np.testing.assert_allclose(numbers["instant_regret"][0, k], [-0.125, 0.125])


@pytest.mark.parametrize("algorithm", ["cfr", "cfr+", "lcfr", "dcfr", "dcfr+", "chance", "external", "outcome", "rm"])
def test_updated_strategy_is_regret_matching_on_stored_regret(algorithm: str) -> None:
    # What lets the inspector work where snapshots are log-spaced: the strategy player 1
    # plays in iteration t + 1 is regret matching on cumulative_regret[t] as stored.
    assert solver_class(algorithm).next_strategy_from_regret
    game = "rps" if algorithm == "rm" else "kuhn"
    run = solve(game, algorithm, iterations=80, updates="alternating", seed=3)
    derived = regret_matching(run.cumulative_regret[:-1], run.tree.legal)
    np.testing.assert_allclose(derived, run.current_strategy[1:], atol=1e-12)


@pytest.mark.parametrize("algorithm", ["cfr", "dcfr+", "pcfr+", "pdcfr+"])
def test_log_spaced_frames_match_a_dense_record(algorithm: str) -> None:
    # Past 1,000 iterations snapshots are log-spaced, so t - 1 is not stored: regret_change is
    # NaN there, but this iteration's regret is rebuilt from snapshot t alone and equals the
    # one of a run that kept every iteration (same deterministic solve). Predictive solvers
    # play regret matching on cumulative regret plus the last regret, which is rebuilt first.
    sparse = solve("kuhn", algorithm, 4000, updates="alternating")
    dense = solve("kuhn", algorithm, 4000, updates="alternating", snapshots="all")
    late = np.flatnonzero(sparse.iterations > 1000)
    numbers = frame_numbers(sparse, late)
    legal = sparse.tree.legal
    reference = frame_numbers(dense, sparse.iterations[late] - 1)
    np.testing.assert_allclose(numbers["instant_regret"][:, legal], reference["instant_regret"][:, legal],
                               atol=1e-12)
    np.testing.assert_allclose(update_profiles(sparse, late)[0], update_profiles(dense, sparse.iterations[late] - 1)[0],
                               atol=1e-12)
    if algorithm == "cfr":
        np.testing.assert_allclose(reference["instant_regret"][:, legal], reference["regret_change"][:, legal],
                                   atol=1e-12)
    not_consecutive = sparse.iterations[late] - sparse.iterations[late - 1] > 1
    assert not_consecutive.any()
    assert np.isnan(numbers["regret_change"][not_consecutive][:, legal]).all()


def test_unknown_update_profile_is_nan_not_a_guess(monkeypatch: pytest.MonkeyPatch) -> None:
    # A solver whose next strategy is not regret matching on the stored regret (a predictive
    # one) cannot have player 2's alternating update rebuilt where t + 1 is not stored.
    run = solve("kuhn", "cfr", 4000, updates="alternating")
    monkeypatch.setattr(solver_class("cfr"), "next_strategy_from_regret", False)
    frames = [999, run.num_snapshots - 2]            # iteration 1000 (1001 stored) and a sparse one
    assert run.iterations[1000] == 1001 and run.iterations[-1] - run.iterations[-2] > 1
    numbers = frame_numbers(run, frames)
    assert numbers["recorded"].tolist() == [[True, True], [True, False]]
    second = run.tree.infoset_player == 1
    assert np.isnan(numbers["instant_regret"][1][second]).all()
    assert not np.isnan(numbers["instant_regret"][1][~second][run.tree.legal[~second]]).any()


def _next_cumulative(algorithm: str, total: np.ndarray, t: np.ndarray) -> np.ndarray:
    """What each algorithm stores after iteration t, given total = cumulative_regret[t-1] + r^t."""
    cls = solver_class(algorithm)
    alpha, beta, offset = (float(getattr(cls, name, 0.0)) for name in ("alpha", "beta", "discount_offset"))
    if algorithm in ("cfr+", "pcfr+"):
        # CFR+ (Tammelin 2014); predictive CFR+ (Farina, Kroer and Sandholm 2021), whose
        # prediction changes what is played, not what is stored.
        floored: np.ndarray = np.maximum(total, 0.0)
        return floored
    positive = t ** alpha / (t ** alpha + offset)
    if algorithm in ("dcfr+", "pdcfr+"):
        # DCFR+ (Xu et al. 2022), PDCFR+ (Xu et al. 2024): floor, then the next discount.
        discounted: np.ndarray = np.maximum(total, 0.0) * positive
        return discounted
    # Linear and discounted CFR (Brown and Sandholm 2019).
    negative = t ** beta / (t ** beta + offset)
    scaled: np.ndarray = total * np.where(total >= 0, positive, negative)
    return scaled


@pytest.mark.parametrize("algorithm, updates", [
    ("cfr+", "simultaneous"), ("cfr+", "alternating"), ("pcfr+", "alternating"), ("lcfr", "alternating"),
    ("dcfr", "simultaneous"), ("dcfr", "alternating"), ("dcfr+", "alternating"), ("pdcfr+", "alternating")])
def test_other_variants_add_this_iterations_regret_then_floor_or_scale(runs: RunCache, algorithm: str, updates: str) -> None:
    run = runs("kuhn", algorithm, updates)
    numbers = _all(run)
    legal = run.tree.legal
    t = run.iterations.astype(float)[:, None, None]
    previous = np.concatenate([np.zeros((1,) + legal.shape), run.cumulative_regret[:-1]])
    expected = _next_cumulative(algorithm, previous + numbers["instant_regret"], t)
    np.testing.assert_allclose(expected[:, legal], run.cumulative_regret[:, legal], atol=1e-12)
    # ...so the plain identity fails wherever the floor or the scale bit.
    assert np.nanmax(np.abs(numbers["instant_regret"] - numbers["regret_change"])) > 1e-3


def test_frame_numbers_shapes_and_node_subset(runs: RunCache) -> None:
    run = runs("leduc", "cfr", "alternating")
    tree = run.tree
    frames = [0, 5, run.num_snapshots - 1]
    full = frame_numbers(run, frames)
    n, i, a = tree.num_nodes, tree.num_infosets, tree.max_actions
    assert full["own_reach"].shape == (3, n) and full["history_cfv"].shape == (3, n, a)
    assert full["infoset_cfv"].shape == (3, i, a) and full["instant_regret"].shape == (3, i, a)
    assert full["iterations"].tolist() == [int(run.iterations[f]) for f in frames]
    subset = [40, 7, 1000]
    part = frame_numbers(run, frames, nodes=subset)
    np.testing.assert_array_equal(part["history_cfv"], full["history_cfv"][:, subset])
    np.testing.assert_array_equal(part["infoset_cfv"], full["infoset_cfv"])
    # Chance and terminal nodes carry no acting player's numbers.
    off = tree.actor >= 2
    assert np.isnan(full["own_reach"][:, off]).all()
    # A set's value is the sum of its histories' values; each history's value is the mean of
    # its action values under the set's current strategy.
    decision = np.flatnonzero(tree.actor < 2)
    mean = np.nansum(full["history_cfv"][:, decision] * full["current_strategy"][:, tree.infoset[decision]], axis=-1)
    np.testing.assert_allclose(mean, full["history_value"][:, decision], atol=1e-12)
    with pytest.raises(ValueError, match="Node ids"):
        frame_numbers(run, [0], nodes=[n])
    with pytest.raises(ValueError, match="Snapshot indices"):
        frame_numbers(run, [run.num_snapshots])


@pytest.mark.parametrize("updates", ["simultaneous", "alternating"])
def test_history_own_reach_is_the_sets_reach(runs: RunCache, updates: str) -> None:
    # Perfect recall: every history of a set has the same own reach, and it is Run.reach.
    run = runs("leduc", "cfr", updates)
    numbers = _all(run)
    decision = np.flatnonzero(run.tree.actor < 2)
    np.testing.assert_allclose(numbers["own_reach"][:, decision], run.reach[:, run.tree.infoset[decision]],
                               atol=1e-15)


# ------------------------------------------------------------------------------------ Run.reach


def _path_product(tree: GameTree, strategy: np.ndarray, node: int) -> float:
    """The acting player's own action probabilities multiplied along the path to `node`."""
    player = int(tree.actor[node])
    product, child = 1.0, node
    while child > 0:
        parent = int(tree.parent[child])
        if int(tree.actor[parent]) == player:
            product *= float(strategy[tree.infoset[parent], tree.action_index[child]])
        child = parent
    return product


@pytest.mark.parametrize("game, params", [("kuhn", {}), ("kuhn", {"cards": 5}), ("leduc", {}),
                                          ("leduc", {"suits": True})])
def test_run_reach_is_the_own_path_probability(game: str, params: dict[str, object]) -> None:
    run = solve(game, "cfr", iterations=20, updates="alternating", **params)
    tree = run.tree
    assert run.reach.shape == (run.num_snapshots, tree.num_infosets)
    assert np.all((run.reach >= 0.0) & (run.reach <= 1.0))
    for s in (0, 7, run.num_snapshots - 1):
        for i in range(0, tree.num_infosets, max(1, tree.num_infosets // 40)):
            for node in tree.nodes_of(i):
                assert run.reach[s, i] == pytest.approx(_path_product(tree, run.current_strategy[s], int(node)),
                                                        abs=1e-15)


def test_issue_examples_read_one_not_a_count() -> None:
    # Hand computation: a player's first decision is reached by their own play with
    # probability 1. The old sums were 2.0 (Kuhn "Q k"), 3.0 (Leduc "J"), 10.0 (with suits).
    for game, params, key in (("kuhn", {}, "Q k"), ("leduc", {}, "J"), ("leduc", {"suits": True}, "J")):
        run = solve(game, "cfr", iterations=3, **params)
        assert run.reach[:, run.tree.infoset_index(key)] == pytest.approx(1.0)


@pytest.mark.parametrize("algorithm", ["external", "outcome", "rm"])
def test_reach_of_sampling_solvers_covers_unvisited_sets(algorithm: str) -> None:
    # Sampling visits a few sets per iteration; Run.reach is still each set's own reach under
    # the strategy played, not zero for the sets the sample missed.
    game = "rps" if algorithm == "rm" else "kuhn"
    run = solve(game, algorithm, iterations=30, seed=1)
    np.testing.assert_allclose(run.reach, own_reach_probability(run.tree, run.current_strategy))
    first = [i for i, r in enumerate(run.tree.infosets) if not r.history or r.player == 1 and len(r.history) == 1]
    assert np.all(run.reach[:, first] == 1.0)


def _npz_with(run: Run, version: int, reach: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    save_run(run, buffer)
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(buffer.getvalue())) as source, zipfile.ZipFile(out, "w") as target:
        for name in source.namelist():
            if name == "format.npy":
                array = np.array(json.dumps({"format": "cfrviz-run", "version": version}))
            elif name == "reach.npy":
                array = reach
            else:
                target.writestr(name, source.read(name))
                continue
            item = io.BytesIO()
            np.save(item, array)
            target.writestr(name, item.getvalue())
    return out.getvalue()


def test_version_one_files_load_with_reach_recomputed() -> None:
    # Version 1 stored the sum over a set's histories (2.0 at Kuhn's "Q"); it still loads and
    # reads as the probability.
    run = solve("kuhn", "cfr", iterations=5)
    counts = np.diff(run.tree.infoset_node_start).astype(float)
    old = _npz_with(run, 1, run.reach * counts)
    loaded = load_run(old)
    np.testing.assert_allclose(loaded.reach, run.reach)
    assert loaded.reach[0, run.tree.infoset_index("Q")] == 1.0
    with pytest.raises(ValueError, match="between 0 and 1"):
        load_run(_npz_with(run, 2, run.reach * counts))
    np.testing.assert_array_equal(load_run(_npz_with(run, 2, run.reach)).reach, run.reach)


def test_chance_sampling_adds_this_iterations_regret_in_expectation() -> None:
    # Chance-sampled CFR (Zinkevich et al. 2007; Lanctot et al. 2009) samples one deal d with
    # probability p(d) and adds that deal's regret, weighted by the opponent's reach only. So
    # sum_d p(d) * (what iteration t adds with deal d) is the full counterfactual regret, which is
    # what the inspector reports for iteration t. Checked exactly by forcing each of Kuhn's 6 deals.
    import copy

    from cfrviz.solvers.sampling import ChanceSampling

    t = 7
    run = solve("kuhn", "chance", iterations=t, updates="simultaneous", seed=5)
    tree = run.tree
    before = ChanceSampling(tree, updates="simultaneous", seed=5)
    before.iterate(t - 1)
    np.testing.assert_array_equal(before.cumulative_regret, run.cumulative_regret[t - 2])
    expected = np.zeros(tree.legal.shape)
    for k, deal in enumerate(tree.children(0)):
        solver = copy.deepcopy(before)
        solver.force(deal=k)
        solver.iterate(1)
        expected += tree.chance_probability[deal] * (solver.cumulative_regret - before.cumulative_regret)
    instant = frame_numbers(run, [t - 1])["instant_regret"][0]
    np.testing.assert_allclose(expected[tree.legal], instant[tree.legal], atol=1e-12)
    # One sampled iteration is not the expectation (else this test would prove nothing).
    assert np.abs(run.cumulative_regret[t - 1] - run.cumulative_regret[t - 2] - instant)[tree.legal].max() > 1e-3


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), game=st.sampled_from(["kuhn", "leduc"]))
def test_own_reach_of_any_strategy_is_the_path_product(seed: int, game: str) -> None:
    # Property: for any behaviour strategy (random, with exact zeros sometimes), each set's own
    # reach is the product along the path to each of its histories, and a probability.
    from cfrviz.catalog import compile_game

    tree = compile_game(game)
    rng = np.random.default_rng(seed)
    strategy = np.where(tree.legal, rng.dirichlet(np.ones(tree.max_actions), tree.num_infosets), 0.0)
    pure = rng.random(tree.num_infosets) < 0.2            # some sets always take their first action
    strategy[pure] = 0.0
    strategy[pure, 0] = 1.0
    reach = own_reach_probability(tree, strategy)
    assert np.all((reach >= 0.0) & (reach <= 1.0))
    for i in rng.choice(tree.num_infosets, size=min(12, tree.num_infosets), replace=False):
        for node in tree.nodes_of(int(i)):
            assert reach[i] == pytest.approx(_path_product(tree, strategy, int(node)), abs=1e-15)


def test_the_timeline_payload_carries_these_numbers() -> None:
    # The browser shows what cfrviz.analysis.inspector computes: the issue's case, player 2's set "Q k"
    # at iteration 123 of alternating CFR on Kuhn, regret [0, -0.0848] (not -0.0910).
    from cfrviz.figures.timeline import build_payload

    run = solve("kuhn", "cfr", 1000, updates="alternating")
    payload = build_payload(run.tree, run, include=run.snapshot_at(123))
    f = payload["frames"].index(123)
    k = next(j for j, entry in enumerate(payload["sets"]) if entry["key"] == "Q k")
    assert payload["instantRegret"][f][k] == pytest.approx([0.0, -0.0848], abs=1e-4)
    node = payload["nodes"]["id"].index(17)
    numbers = frame_numbers(run, [run.snapshot_at(123)], nodes=[17])
    assert payload["othersReach"][f][node] == pytest.approx(numbers["opponent_chance_reach"][0, 0], abs=1e-4)


@pytest.mark.parametrize("game, params", [("kuhn", {"cards": 6}), ("leduc", {"suits": True})])
def test_identity_holds_on_other_decks(game: str, params: dict[str, object]) -> None:
    # The same identity as above on a bigger Kuhn deck and on Leduc dealt with suits (whose
    # information sets ignore suits, so each holds up to 10 histories).
    run = solve(game, "cfr", iterations=12, updates="alternating", **params)
    numbers = _all(run)
    legal = run.tree.legal
    np.testing.assert_allclose(numbers["instant_regret"][:, legal], numbers["regret_change"][:, legal], atol=1e-12)
