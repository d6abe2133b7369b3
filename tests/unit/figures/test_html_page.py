"""The timeline as one HTML file (`cfrviz.figures.save_html`, `cfrviz solve --html`).

References: the payload `cfrviz.figures.timeline.build_payload` builds for the same run and part
(the app's component gets exactly those bytes); cfrviz's version, written once
(`cfrviz.util.version`); the HTML tokenizer's rules (a `</script` ends a script element wherever
it stands, a `<!--` opens a comment), against a game whose every name holds them.
"""
from __future__ import annotations

import html
import json
import re
from pathlib import Path

import numpy as np
import pytest
from tests.support.cli import refusal, run_cli

import cfrviz
from cfrviz.figures import save_html
from cfrviz.util.version import VERSION
from cfrviz.figures.html_page import html_text, page_text
from cfrviz.figures.timeline import build_payload, encode_payload, frame_snapshots
from cfrviz.tree import parts as tree_parts
from tests.support.efg_shapes import myerson_named

HOSTILE = "</script><script>alert(1)</script><!-- <img src=x onerror=alert(2)> & 'q' -->"
# Myerson's card game with every name made hostile (tests/support/efg_shapes.py).
EFG = myerson_named(HOSTILE)


# The solve behind `kuhn_run` (tests/unit/conftest.py) for this module's tests.
pytestmark = pytest.mark.kuhn_run(iterations=200, updates="simultaneous")


def _script(text: str, element_id: str) -> str:
    found = re.search(rf'<script type="application/json" id="{element_id}">(.*?)</script>', text, re.S)
    assert found is not None, element_id
    return found.group(1)


def test_the_file_carries_the_same_payload_as_the_app(kuhn_run, tmp_path: Path) -> None:
    path = save_html(kuhn_run, tmp_path / "kuhn.html", t=40, node=7)
    text = path.read_text(encoding="utf-8")
    payload_id, body = encode_payload(build_payload(kuhn_run.tree, kuhn_run, None))
    assert json.loads(_script(text, "cfrviz-payload")) == json.loads(body)
    header = json.loads(_script(text, "cfrviz-view"))["header"]
    assert header == {"id": payload_id, "t": 40, "node": 7, "kind": "average", "mode": "tree", "focus": [],
                      "log": False}


def test_a_leduc_part_is_the_part_the_game_tree_page_draws(tmp_path: Path) -> None:
    run = cfrviz.solve("leduc", "cfr", iterations=20)
    node = 40
    text = html_text(run, "tree", node=node)
    part = tree_parts.part_of(run.tree, node)
    drawn = tree_parts.part_nodes(run.tree, part).tolist()
    _, body = encode_payload(build_payload(run.tree, run, drawn, arrangements=(int(part.by),)))
    assert json.loads(_script(text, "cfrviz-payload")) == json.loads(body)


def test_the_file_is_self_contained_and_says_what_made_it(kuhn_run) -> None:
    text = html_text(kuhn_run, "convergence")
    # Nothing names a server: no src/href/url() to http(s), no <link>, no script file.
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", text, re.I)
    assert not re.search(r"url\(\s*['\"]?\s*(https?:)?//|@import|<link\b|<script[^>]*\bsrc=", text, re.I)
    assert "default-src 'none'" in text
    comment = text[text.index("<!--"):text.index("-->")]
    version = VERSION      # the one place the version is written (pyproject.toml reads it too)
    for line in (f"cfrviz: {version}", "game: Kuhn poker", "algorithm: cfr", "iterations: 200",
                 "updates: simultaneous", "seed: 0", "page: convergence", "t: 200"):
        assert f"\n  {line}\n" in comment, line
    visible = re.search(r'<p data-testid="cfrviz-settings">(.*?)</p>', text)
    assert visible is not None and f"cfrviz {version}" in visible.group(1) and "iterations 200" in visible.group(1)
    assert json.loads(_script(text, "cfrviz-view"))["header"]["log"] is True


def _only_the_files_own_markup(text: str) -> None:
    # The only element ends and comment openings are the file's own: three scripts, one comment.
    assert text.lower().count("</script") == 3 and text.lower().count("<script") == 3
    assert text.count("<!--") == 1 and text.count("-->") == 1
    assert "<img" not in text


def test_an_uploaded_games_names_never_become_markup(tmp_path: Path) -> None:
    saved = tmp_path / "hostile.efg"
    saved.write_text(EFG)
    run = cfrviz.solve(str(saved), "cfr", iterations=30)
    text = html_text(run, "tree")
    _only_the_files_own_markup(text)
    assert json.loads(_script(text, "cfrviz-payload")) == json.loads(encode_payload(build_payload(run.tree, run))[1])


def test_markup_in_any_label_stays_text_and_arrives_whole(kuhn_run) -> None:
    # The .efg reader already drops angle brackets; the file must not rely on it: every label,
    # the title and a setting hold the hostile text here.
    payload = build_payload(kuhn_run.tree, kuhn_run)
    payload["title"] = HOSTILE
    payload["nodes"]["label"] = [HOSTILE] * len(payload["nodes"]["label"])
    payload["edges"]["name"] = [HOSTILE] * len(payload["edges"]["name"])
    payload_id, body = encode_payload(payload)
    header = {"id": payload_id, "t": 40, "node": None, "kind": "average", "mode": "tree", "focus": [HOSTILE],
              "log": False}
    text = page_text(body, header, {"game": HOSTILE}, HOSTILE)
    _only_the_files_own_markup(text)
    assert json.loads(_script(text, "cfrviz-payload")) == payload
    assert json.loads(_script(text, "cfrviz-view"))["header"] == header
    assert f"<title>{html.escape(HOSTILE)} · cfrviz</title>" in text


@pytest.mark.parametrize("view", ["tree", "evolution", "charts", "convergence", "exploitability", "best_response",
                                  "walkthrough", "play"])
def test_every_view_names_its_mode(kuhn_run, view: str) -> None:
    header = json.loads(_script(html_text(kuhn_run, view), "cfrviz-view"))["header"]
    mode = {"evolution": "sets", "convergence": "charts"}.get(view, view)
    assert header["mode"] == mode
    if view == "best_response":   # the page's extra, for the same frames the payload has
        payload = json.loads(_script(html_text(kuhn_run, view), "cfrviz-payload"))
        assert len(payload["extra"]["best"]) == len(frame_snapshots(kuhn_run.iterations)) == len(payload["frames"])
    if view == "play":   # the EV-loss numbers for every frame and set, and no hand yet (the page deals)
        file = html_text(kuhn_run, view)
        payload = json.loads(_script(file, "cfrviz-payload"))
        assert len(payload["extra"]["value"]) == len(payload["frames"])
        assert sorted(payload["extra"]["keys"]) == sorted(s.key for s in kuhn_run.tree.infosets)
        assert header["state"] == {"seat": 0, "pending": None, "decisions": [], "path": None}
        assert "crypto.getRandomValues" in file


@pytest.mark.parametrize(("kwargs", "words"), [({"view": "poker"}, "no view"), ({"t": 0}, "t=0"),
                                               ({"t": 201}, "t=201"), ({"node": 55}, "node=55")])
def test_a_view_the_run_does_not_have_is_refused(kuhn_run, kwargs, words: str) -> None:
    with pytest.raises(ValueError, match=re.escape(words)):
        html_text(kuhn_run, **kwargs)


def test_the_cli_writes_the_file_or_says_why_not(tmp_path: Path) -> None:
    out = tmp_path / "kuhn.html"
    done = run_cli("solve", "kuhn", "-a", "cfr", "-n", "50", "--html", str(out))
    assert done.returncode == 0, done.stderr
    text = out.read_text(encoding="utf-8")
    assert "\n  iterations: 50\n" in text and "\n  page: tree\n" in text
    missing = refusal(run_cli("solve", "kuhn", "-a", "cfr", "-n", "50", "--html", str(tmp_path / "no" / "k.html")))
    assert "does not exist" in missing
    assert "--html must name an .html file" in refusal(run_cli("solve", "kuhn", "-a", "cfr", "-n", "50",
                                                              "--html", str(tmp_path / "k.txt")))
    (tmp_path / "folder.html").mkdir()
    assert "a folder" in refusal(run_cli("solve", "kuhn", "-a", "cfr", "-n", "50", "--html",
                                         str(tmp_path / "folder.html")))


def test_the_regret_matching_view_replays_the_runs_own_path(tmp_path: Path) -> None:
    # Reference: the regret-matching run (`cfrviz.solve(..., "rm")`) whose kernel and seed the view
    # replays: its average at every frame is the run's, to the payload's 4 decimals; the targets are
    # rock-paper-scissors' equilibrium, uniform (a closed form).
    run = cfrviz.solve("rps", "rm", iterations=300, seed=3)
    text = html_text(run, "regret_matching", t=40)
    header = json.loads(_script(text, "cfrviz-view"))["header"]
    assert (header["mode"], header["t"], header["log"]) == ("regret_matching", 40, True)
    extra = json.loads(_script(text, "cfrviz-payload"))["extra"]
    assert extra["frames"] == list(range(1, 301))
    for player, info in enumerate(extra["players"]):
        kept = run.average_strategy[:, int(run.tree.infoset[0 if player == 0 else 1])]
        np.testing.assert_allclose(info["average"], kept, rtol=0, atol=0.5e-4 + 1e-12)
        assert info["target"] == pytest.approx([1 / 3] * 3, abs=1e-4)
    assert "view regret matching · t 40 · " in html.unescape(text)


def test_regret_matching_needs_a_matrix_game_and_play_a_game_drawn_whole(kuhn_run) -> None:
    with pytest.raises(ValueError, match="matrix games"):
        html_text(kuhn_run, "regret_matching")
    with pytest.raises(ValueError, match="too big to draw whole"):
        html_text(cfrviz.solve("leduc", "cfr", iterations=5), "play")
    with pytest.raises(ValueError, match=re.escape("t=301")):
        html_text(cfrviz.solve("rps", "rm", iterations=300), "regret_matching", t=301)


@pytest.mark.parametrize(("game", "algorithm", "view"), [("kuhn", "cfr", "play"), ("rps", "rm", "regret_matching")])
def test_the_play_and_regret_matching_files_keep_the_kuhn_budget(game: str, algorithm: str, view: str) -> None:
    # Reference: issue 28's budget, a Kuhn view's file <= 1 MB (sizes, not times: scripts/html_budget.py
    # times the opening). 100,000 iterations: the Regret matching page's cap; the frames are capped,
    # so more iterations add nothing.
    run = cfrviz.solve(game, algorithm, iterations=100_000)
    assert len(html_text(run, view).encode("utf-8")) <= 1_000_000


def test_the_visible_line_names_the_view_written_once(kuhn_run) -> None:
    # Reference: the page's own words for the view (HTML_VIEWS' comments); a game with no settings
    # says nothing about them.
    text = html.unescape(html_text(kuhn_run, "evolution", t=40))
    line = re.search(r'data-testid="cfrviz-settings">(.*?)</p>', text).group(1)
    assert line.startswith("view evolution · t 40 · cfrviz ")
    assert line.count("evolution") == 1 and "sets" not in line and "game settings" not in line and "node" not in line
    assert "view tree · t 200 · node 7 · " in html.unescape(html_text(kuhn_run, "tree", node=7))


def test_the_apps_file_of_a_page_without_a_run_records_the_pages_settings(kuhn_run) -> None:
    # Reference: what the Walkthrough page passes as `file_about` (pages/6_Walkthrough.py).
    from cfrviz.figures.html_page import FILE_MODES, page_bytes, timeline_view
    from cfrviz.figures.timeline import TimelineMode
    assert {TimelineMode.WALKTHROUGH, TimelineMode.REGRET_MATCHING, TimelineMode.PLAY} <= set(FILE_MODES)
    body, header, _ = timeline_view(kuhn_run, "walkthrough", t=3)
    text = html.unescape(page_bytes(body, header, {"page": "walkthrough of iteration 3", "algorithm": "cfr"},
                                    "Kuhn poker").decode("utf-8"))
    assert "view walkthrough of iteration 3 · step 1 · " in text and "\n  algorithm: cfr\n" in text
