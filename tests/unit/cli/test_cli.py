"""The command line, run as a user runs it: `python -m cfrviz ...` in a subprocess."""
from __future__ import annotations

import json
import re

import numpy as np
import pytest

from cfrviz.analysis import KUHN_VALUE, exploitability
from cfrviz.cli import iteration_caps
from cfrviz.run import load_run
from tests.support.cli import run_cli


def number_after(label: str, text: str) -> float:
    match = re.search(re.escape(label) + r"\s*[:=]\s*(-?[0-9.eE+-]+)", text)
    assert match, f"no {label!r} in output"
    return float(match.group(1))


def strategy_lines(text: str, player: int) -> list[str]:
    block = text.split(f"player {player} strategies:\n", 1)[1].split("\n\n", 1)[0]
    return [line.strip() for line in block.splitlines() if line.strip()]


def test_kuhn_cfr_report_files_and_values(tmp_path):
    json_path, run_path = tmp_path / "strategy.json", tmp_path / "run.npz"
    result = run_cli("solve", "kuhn", "--algorithm", "cfr", "--iterations", "2000",
                    "--json", str(json_path), "--out", str(run_path))
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    out = result.stdout
    # The tutorial's display: player 2's expected value is the negative of player 1's.
    assert number_after("player 2 expected value", out) == pytest.approx(
        -number_after("player 1 expected value", out), abs=1e-6)
    # 3-card Kuhn: six information sets per player, player 1's first, each with its two actions.
    first, second = strategy_lines(out, 1), strategy_lines(out, 2)
    assert [line.split()[0] for line in first] == ["J", "J", "K", "K", "Q", "Q"]
    assert len(second) == 6 and all(line.split()[1] in ("k", "b") for line in second)
    assert all(re.search(r"check [01]\.\d{3}  bet [01]\.\d{3}", line) for line in first[::2])
    value = number_after("value of the average strategy for player 1", out)
    exploit = number_after("exploitability of the average strategy", out)
    # |u(σ) - v*| <= NashConv = 2 x exploitability, with v* = -1/18 (Kuhn 1950).
    assert 0.0 < exploit < 0.02
    assert abs(value - KUHN_VALUE) <= 2 * exploit + 1e-6
    # The α reported lies in the family's range [0, 1/3] (Kuhn 1950).
    assert 0.0 <= number_after("nearest Kuhn equilibrium: alpha", out) <= 1 / 3
    # The saved run reloads, and its final average strategy has the exploitability printed.

    run = load_run(run_path)
    assert int(run.iterations[-1]) == 2000
    assert exploitability(run.tree, np.asarray(run.average_strategy[-1])) == pytest.approx(exploit, rel=1e-5)
    document = json.loads(json_path.read_text())
    assert len(document["infosets"]) == 12


def test_kuhn_10000_simultaneous_prints_the_tutorials_value_digit_for_digit():
    # Reference: the published output of the classic tutorial code (Neller and Lanctot, "An Introduction
    # to Counterfactual Regret Minimization", in its Python rendering): 3-card Kuhn, simultaneous vanilla
    # CFR, 10,000 iterations prints "player 1 expected value: -0.05666979368427769", and lists player 1's
    # sets as J rr, J rrcb, K rr, K rrcb, Q rr, Q rrcb (keys sorted; its c is our check, its cb our kb)
    # and player 2's as J rrb, J rrc, K rrb, K rrc, Q rrb, Q rrc.
    result = run_cli("solve", "kuhn", "-a", "cfr", "-n", "10000", "--updates", "simultaneous")
    assert result.returncode == 0, result.stderr
    assert "player 1 expected value: -0.05666979368427769\n" in result.stdout
    assert "player 2 expected value: 0.05666979368427769\n" in result.stdout
    keys = [" ".join(line.split()[:2]) if line.split()[1] in ("k", "b", "kb") else line.split()[0]
            for player in (1, 2) for line in strategy_lines(result.stdout, player)]
    assert keys == ["J", "J kb", "K", "K kb", "Q", "Q kb", "J b", "J k", "K b", "K k", "Q b", "Q k"]
    # The tutorial prints two decimals: J rr ['0.79', '0.21'], Q rrcb ['0.45', '0.55'], J rrc ['0.67', '0.33'].
    assert re.search(r"^  J     check 0\.79\d  bet 0\.2[01]\d$", result.stdout, re.M)
    assert re.search(r"^  Q kb  fold 0\.4[45]\d  call 0\.55\d$", result.stdout, re.M)


def test_kuhn_with_four_cards_prints_eight_sets_per_player():
    # 4 cards x 4 betting histories = 16 information sets, half of them player 1's.
    result = run_cli("solve", "kuhn", "-a", "cfr+", "-n", "50", "--cards", "4", "--updates", "simultaneous")
    assert result.returncode == 0, result.stderr
    assert len(strategy_lines(result.stdout, 1)) == 8 and len(strategy_lines(result.stdout, 2)) == 8


def test_regret_matching_on_rock_paper_scissors():
    # The equilibrium is uniform with value 0; 20,000 iterations of self-play regret matching
    # leave the average within a few hundredths of it.
    result = run_cli("solve", "rps", "--algorithm", "rm", "--iterations", "20000", "--seed", "3")
    assert result.returncode == 0, result.stderr
    assert strategy_lines(result.stdout, 1)[0].startswith("player 1  rock ")
    assert abs(number_after("value of the average strategy for player 1", result.stdout)) < 0.05
    assert number_after("exploitability of the average strategy", result.stdout) < 0.05


@pytest.mark.parametrize("args, fragment", [
    ([], "Give a command"),
    (["solve"], "required"),
    (["play", "kuhn"], "the commands are"),
    (["solve", "chess", "-a", "cfr", "-n", "10"], "Unknown game 'chess'"),
    (["solve", "kuhn", "-a", "cfr++", "-n", "10"], "Unknown algorithm 'cfr++'"),
    (["solve", "kuhn", "-n", "10"], "--algorithm"),
    (["solve", "kuhn", "-a", "cfr", "-n", "ten"], "whole number"),
    (["solve", "kuhn", "-a", "cfr", "-n", "1.5"], "whole number"),
    (["solve", "kuhn", "-a", "cfr", "-n", "-3"], "at least 1"),
    (["solve", "kuhn", "-a", "cfr", "-n", "0"], "at least 1"),
    (["solve", "kuhn", "-a", "cfr", "-n", str(iteration_caps()["kuhn"] + 1)], "capped at 10,000,000"),
    (["solve", "leduc", "-a", "cfr", "-n", "1" + "0" * 9], "capped at 1,000,000"),
    (["solve", "leduc", "-a", "cfr", "-n", "10" + "0" * 12], "at most 12"),   # as links: 12 digits at most
    (["solve", "leduc", "-a", "rm", "-n", "10"], "matrix games"),
    (["solve", "kuhn", "-a", "cfr", "-n", "10", "--cards", "2"], "between 3 and 13"),
    (["solve", "kuhn", "-a", "cfr", "-n", "10", "--cards", "14"], "between 3 and 13"),
    (["solve", "leduc", "-a", "cfr", "-n", "10", "--cards", "4"], "Kuhn"),
    (["solve", "kuhn", "-a", "cfr", "-n", "10", "--seed", "-1"], "at least 0"),
    (["solve", "kuhn", "-a", "cfr", "-n", "10", "--updates", "sideways"], "Unknown update scheme"),
    (["solve", "kuhn", "-a", "cfr", "-n", "10", "--bogus"], "Unrecognized arguments"),
    (["solve", "kuhn", "-a", "cfr", "-n", "10", "--out", "/no/such/folder/run.npz"], "does not exist"),
    (["solve", "kuhn", "-a", "cfr", "-n", "10", "--out", "run.txt"], ".npz"),
    (["solve", "kuhn", "-a", "cfr", "-n", "10", "--json", "/proc/strategy.json"], "Cannot write --json"),
    (["solve", "kuhn", "-a", "cfr", "-n", "10", "--json", "/tmp"], "folder"),
])
def test_bad_arguments_print_one_sentence_and_exit_2(args, fragment):
    # STYLE.md rule 5: the CLI prints one sentence naming the problem and exits 2, no traceback.
    result = run_cli(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert fragment in lines[0]
    assert lines[0].startswith("cfrviz: ") and lines[0].endswith(".")
    assert "Traceback" not in result.stderr


def test_help_exits_0_and_states_the_caps():
    # The caps are cfrviz.cli.iteration_caps() (the catalog's CLI caps); --help must tell the user before they hit one.
    result = run_cli("solve", "--help")
    assert result.returncode == 0
    assert "Iteration caps: kuhn 10,000,000" in " ".join(result.stdout.split())
