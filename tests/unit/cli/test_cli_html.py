"""`python -m cfrviz solve ... --html FILE --html-view VIEW --html-t T --html-node NODE`: the file of any
view `save_html` writes for a solved run, and one sentence (exit 2, nothing written) for each bad value.

References: `cfrviz.figures.html_page.html_text` of the same settings solved in this process (the
CLI's file must be that text, byte for byte); the schedule of a solve with `--snapshots 7` (every
7th iteration: 7, 14, ...) for which iterations are recorded; Kuhn poker's 55 nodes (0 to 54).
"""
from __future__ import annotations

from pathlib import Path

import pytest
from tests.support.cli import refusal, run_cli

import cfrviz
from cfrviz.figures.html_page import html_text

KUHN = ("solve", "kuhn", "-a", "cfr", "-n", "50")


@pytest.mark.parametrize(("game", "algorithm", "view", "t", "node"), [
    ("kuhn", "cfr", "best_response", 20, 7), ("kuhn", "cfr", "convergence", 20, None),
    ("kuhn", "cfr", "walkthrough", 5, None), ("kuhn", "cfr", "tree", None, 7),
    ("rps", "rm", "regret_matching", 40, None)])
def test_the_file_is_the_view_save_html_writes(tmp_path: Path, game: str, algorithm: str, view: str,
                                               t: int | None, node: int | None) -> None:
    out = tmp_path / "view.html"
    asked = ["--html-view", view] + ([] if t is None else ["--html-t", str(t)]) \
        + ([] if node is None else ["--html-node", str(node)])
    done = run_cli("solve", game, "-a", algorithm, "-n", "50", "--html", str(out), *asked)
    assert done.returncode == 0, done.stderr
    run = cfrviz.solve(game, algorithm, iterations=50)
    assert out.read_text(encoding="utf-8") == html_text(run, view, t=t, node=node)


@pytest.mark.parametrize(("args", "words"), [
    (["--html-view", "poker"], "Unknown --html-view 'poker'; choose one of: tree, evolution,"),
    (["--html-view", "Tree"], None),   # read as the other choices are: case-blind
    (["--html-t", "0"], "--html-t must be at least 1; 0 was given."),
    (["--html-t", "x"], "--html-t takes a whole number"),
    (["--html-t", "51"], "--html-t must be at most --iterations (50); 51 was given."),
    (["--html-node", "55"], "--html-node must be a node of Kuhn poker, 0 to 54; 55 was given."),
    (["--html-node", "-1"], "--html-node must be at least 0; -1 was given."),
    (["--html-view", "convergence", "--html-node", "3"],
     "the convergence view does not; use it with --html-view tree, best_response or play."),
    (["--html-view", "regret_matching"], "on a matrix game such as rps; Kuhn poker is not one."),
    (["--html-t", "10", "--snapshots", "7"], "--html-t 10 is not a recorded iteration of this run; the nearest "
                                             "recorded are 7 and 14"),
    # A locked solve keeps its own snapshots: the same sentence after the solve, with no report printed.
    (["--html-t", "10", "--snapshots", "7", "--lock", "J=0,1"], "--html-t 10 is not a recorded iteration"),
])
def test_each_bad_value_is_one_sentence_and_no_file(tmp_path: Path, args: list[str], words: str | None) -> None:
    out = tmp_path / "view.html"
    done = run_cli(*KUHN, "--html", str(out), *args)
    if words is None:
        assert done.returncode == 0, done.stderr
        return
    assert words in refusal(done)
    assert not out.exists()


@pytest.mark.parametrize("flag", [["--html-view", "tree"], ["--html-t", "5"], ["--html-node", "3"]])
def test_a_view_without_a_file_is_refused(flag: list[str]) -> None:
    assert f"{flag[0]} sets what the --html file shows; give --html FILE too." in refusal(run_cli(*KUHN, *flag))


def test_play_needs_a_game_drawn_whole(tmp_path: Path) -> None:
    # Reference: Leduc poker is drawn in parts (cfrviz.figures.drawn.is_drawn_whole), and the file's
    # Play deals from the whole tree.
    done = run_cli("solve", "leduc", "-a", "cfr", "-n", "5", "--html", str(tmp_path / "l.html"), "--html-view", "play")
    assert "Leduc poker is too big to draw whole" in refusal(done)
