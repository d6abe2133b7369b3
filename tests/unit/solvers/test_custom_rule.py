"""An update rule of one's own (`cfrviz.solvers.custom`): registered by name, solved like a built-in.

References: the compiled kernels themselves. CFR+ written through the extension point
(`cfrviz.solvers.examples.NumpyCFRPlus`) makes the same floating-point operations in the same
order as the `cfr+` kernel, so every snapshot's exploitability agrees to 1e-12 (in fact bit for
bit); vanilla CFR as a rule (R += r, uniform averaging) likewise equals the `cfr` kernel.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import cfrviz
from cfrviz.analysis.inspector import frame_numbers
from cfrviz.catalog import compile_game, get
from cfrviz.run import RunSettings, load_run, save_run
from cfrviz.solvers import ALGORITHMS, Algorithm, RegretMinimizer, register_minimizer, solver_class, unregister_minimizer
from cfrviz.solvers.examples import NumpyCFRPlus, PlainCFRPlus

ROOT = Path(__file__).resolve().parents[3]
#: Snapshots compared: several iteration counts, first and late.
CHECKED = (1, 2, 10, 100, 400)


class VanillaRule(RegretMinimizer):
    """Vanilla CFR (Zinkevich et al. 2007) as a rule: R += r (added in the pass), weight-1 averaging."""

    regret_in_pass = True

    def update(self, t, sets, regret, own_reach, strategy):
        self.strategy_sum[sets] += own_reach[:, None] * strategy


class NotADistribution(RegretMinimizer):
    """A broken rule: its next strategy is the regret itself."""

    def update(self, t, sets, regret, own_reach, strategy):
        self.cumulative_regret[sets] += regret

    def next_strategy(self, sets):
        return self.cumulative_regret[sets] + 1.0


@pytest.fixture
def registered():
    names = []

    def register(name, rule):
        names.append(name)
        return register_minimizer(name, rule)

    yield register
    for name in names:
        unregister_minimizer(name)


def solved_every_snapshot(game, algorithm, updates, iterations=400):
    return cfrviz.solve(game, algorithm, iterations=iterations, updates=updates, snapshots="all")


@pytest.mark.parametrize("game", ["kuhn", "leduc"])
@pytest.mark.parametrize("updates", ["alternating", "simultaneous"])
def test_cfr_plus_through_the_extension_point_matches_the_kernel(registered, game, updates):
    registered("numpy-cfr+", NumpyCFRPlus)
    kernel, rule = solved_every_snapshot(game, "cfr+", updates), solved_every_snapshot(game, "numpy-cfr+", updates)
    assert rule.settings.algorithm == "numpy-cfr+" and kernel.exploitability[-1] > 0
    for t in CHECKED:
        s = int(np.searchsorted(kernel.iterations, t))
        assert kernel.iterations[s] == rule.iterations[s] == t
        assert abs(rule.exploitability[s] - kernel.exploitability[s]) <= 1e-12, t
        assert abs(rule.current_exploitability[s] - kernel.current_exploitability[s]) <= 1e-12, t
    np.testing.assert_allclose(rule.cumulative_regret, kernel.cumulative_regret, rtol=0, atol=1e-12)
    np.testing.assert_allclose(rule.average_strategy, kernel.average_strategy, rtol=0, atol=1e-12)
    np.testing.assert_allclose(rule.value, kernel.value, rtol=0, atol=1e-12)
    np.testing.assert_array_equal(rule.nodes_touched, kernel.nodes_touched)


@pytest.mark.parametrize("updates", ["alternating", "simultaneous"])
def test_vanilla_cfr_as_a_rule_matches_the_kernel(registered, updates):
    registered("my-cfr", VanillaRule)
    kernel, rule = solved_every_snapshot("leduc", "cfr", updates, 100), solved_every_snapshot("leduc", "my-cfr", updates, 100)
    np.testing.assert_allclose(rule.exploitability, kernel.exploitability, rtol=0, atol=1e-12)
    np.testing.assert_allclose(rule.cumulative_regret, kernel.cumulative_regret, rtol=0, atol=1e-12)


def test_cfr_plus_written_as_the_papers_write_it_matches_on_kuhn(registered):
    # r summed before it is added: other rounding, still the kernel's numbers to 1e-12 on Kuhn.
    registered("plain-cfr+", PlainCFRPlus)
    kernel, rule = solved_every_snapshot("kuhn", "cfr+", "alternating"), solved_every_snapshot("kuhn", "plain-cfr+", "alternating")
    np.testing.assert_allclose(rule.exploitability, kernel.exploitability, rtol=0, atol=1e-12)


def test_a_registered_name_works_wherever_an_algorithm_name_does(registered, tmp_path):
    member = registered("numpy-cfr+", NumpyCFRPlus)
    assert member == "numpy-cfr+" and isinstance(member, Algorithm) and Algorithm("numpy-cfr+") is member
    assert "numpy-cfr+" in ALGORITHMS and ALGORITHMS["numpy-cfr+"].title == "CFR+ (NumPy rule)"
    assert solver_class(" NumPy-CFR+ ").minimizer is NumpyCFRPlus
    settings = RunSettings(get("kuhn"), "NUMPY-CFR+", 10, "simultaneous", 0)
    assert settings.algorithm is member
    # Every 5th iteration kept: the inspector rebuilds the profile player 2 answered from the stored
    # regret (alternating updates), as for the built-in cfr+.
    run = cfrviz.solve("kuhn", "numpy-cfr+", iterations=50, snapshots=5)
    kernel = cfrviz.solve("kuhn", "cfr+", iterations=50, snapshots=5)
    mine, theirs = frame_numbers(run, [1, 6]), frame_numbers(kernel, [1, 6])
    assert mine["recorded"].all()
    for key in ("instant_regret", "infoset_cfv", "own_reach"):
        np.testing.assert_allclose(mine[key], theirs[key], rtol=0, atol=1e-12, equal_nan=True)
    # A saved run records the name and loads while the rule is registered, and only then.
    path = tmp_path / "mine.npz"
    save_run(run, path)
    assert load_run(path).settings.algorithm == "numpy-cfr+"
    unregister_minimizer("numpy-cfr+")
    with pytest.raises(ValueError, match=r"Unknown algorithm 'numpy-cfr\+'.*cfrviz.register_minimizer"):
        load_run(path)
    with pytest.raises(ValueError, match="not a valid Algorithm"):
        Algorithm("numpy-cfr+")


def test_bad_registrations_and_rules_are_one_sentence(registered):
    with pytest.raises(ValueError, match="built-in algorithm's name"):
        register_minimizer("cfr+", NumpyCFRPlus)
    with pytest.raises(ValueError, match="lower-case letters"):
        register_minimizer("My Rule", NumpyCFRPlus)
    with pytest.raises(ValueError, match="subclass of cfrviz.RegretMinimizer"):
        register_minimizer("mine", dict)
    with pytest.raises(ValueError, match="must define update"):
        register_minimizer("mine", RegretMinimizer)
    assert "mine" not in ALGORITHMS
    registered("broken", NotADistribution)
    with pytest.raises(ValueError, match="not a probability distribution over its legal actions"):
        cfrviz.solve("kuhn", "broken", iterations=5)


def cli_with_env(environment, *args):
    env = {**os.environ, "PYTHONPATH": str(ROOT), **environment}
    return subprocess.run([sys.executable, "-m", "cfrviz", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300)


def test_the_environment_variable_registers_rules_for_the_command_line():
    done = cli_with_env({"CFRVIZ_MINIMIZERS": "cfrviz.solvers.examples:NumpyCFRPlus"},
                   "solve", "kuhn", "-a", "numpy-cfr+", "-n", "200")
    assert done.returncode == 0, done.stderr
    assert "exploitability of the average strategy" in done.stdout
    failed = cli_with_env({"CFRVIZ_MINIMIZERS": "no_such_module_here:Rule"}, "solve", "kuhn", "-a", "cfr", "-n", "20")
    assert failed.returncode == 0 and "Cannot import 'no_such_module_here'" in failed.stderr
    assert "Traceback" not in failed.stderr


@pytest.mark.parametrize("game", ["rps", "kuhn5", "efg:myerson_card_game"])
def test_the_rule_matches_the_kernel_on_other_trees(registered, game):
    # A matrix game (its root a decision), five cards, a Gambit file: same traversal, same numbers.
    registered("numpy-cfr+", NumpyCFRPlus)
    kernel, rule = solved_every_snapshot(game, "cfr+", "alternating", 60), solved_every_snapshot(game, "numpy-cfr+", "alternating", 60)
    np.testing.assert_allclose(rule.exploitability, kernel.exploitability, rtol=0, atol=1e-12)


def test_the_rule_solves_a_locked_game_as_the_kernel_does(registered):
    # Locks become chance nodes of the restricted game (cfrviz.solving.locked): J always bets.
    from cfrviz.solving import solve_locked

    registered("numpy-cfr+", NumpyCFRPlus)
    kernel = solve_locked("kuhn", "cfr+", 200, {"J": [0.0, 1.0]}).run
    rule = solve_locked("kuhn", "numpy-cfr+", 200, {"J": [0.0, 1.0]}).run
    np.testing.assert_allclose(rule.exploitability, kernel.exploitability, rtol=0, atol=1e-12)
    np.testing.assert_allclose(rule.average_strategy, kernel.average_strategy, rtol=0, atol=1e-12)


def test_the_rule_runs_where_numba_cannot_be_imported():
    # The extension point needs NumPy only: a child process where `import numba` fails solves Leduc
    # with the rule; its strategy after 20 iterations is the kernel's (computed here, compiled).
    code = ("import sys; sys.modules['numba'] = None\n"
            "from cfrviz.catalog import compile_game\n"
            "from cfrviz.solvers import register_minimizer, solver_class\n"
            "from cfrviz.solvers.examples import NumpyCFRPlus\n"
            "solver = solver_class(register_minimizer('numpy-cfr+', NumpyCFRPlus))(compile_game('leduc'))\n"
            "solver.iterate(20)\n"
            "import json; print(json.dumps(solver.average_strategy().tolist()))\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    kernel = solver_class("cfr+")(compile_game("leduc"))
    kernel.iterate(20)
    np.testing.assert_allclose(np.array(json.loads(done.stdout)), kernel.average_strategy(), rtol=0, atol=1e-12)
