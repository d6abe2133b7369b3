"""The static site's data for a run is what the app sends its timeline for the same settings.

Reference: the app's own payload cache and builder (`cfrviz.app.components.timeline.payload_bytes`,
with the drawn part, arrangement and mode data its pages mount: pages/1_Game_tree.py draws Kuhn whole
arranged by either player's cards and Leduc's first part by player 1's jack; pages/3_Convergence.py
draws no node; pages/7_Best_response.py adds both best responses at the run's frames), on two runs,
solved here as the app solves them (`solving.solve_settings`).
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from cfrviz import catalog, solving
from cfrviz.analysis.reference import game_value
from cfrviz.app.components.timeline import Extra, payload_bytes
from cfrviz.figures.best_response_frames import best_response_frames, frames_with
from cfrviz.run import RunSettings
from cfrviz.run.link_params import link_params
from cfrviz.site.build import _slug, build_site
from cfrviz.site.data import payload_text
from cfrviz.site.menu import checked_menu
from cfrviz.tree import parts as tree_parts

RUNS = [{"game": "kuhn", "algo": "cfr", "iters": 200, "updates": "simultaneous"},
        {"game": "leduc", "algo": "cfr+", "iters": 40, "updates": "alternating"}]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("site")
    build_site(folder, checked_menu({"runs": RUNS}), "https://cfrviz.example.org", say=lambda _: None)
    return folder


def _site_payload(site: Path, settings: RunSettings, view: str) -> bytes:
    script = (site / "data" / _slug(link_params(settings)) / f"{view}.js").read_text(encoding="utf-8")
    return payload_text(script).encode("utf-8")


@pytest.mark.parametrize("entry", RUNS, ids=["kuhn", "leduc"])
def test_the_sites_data_is_the_apps_payload(site: Path, entry: dict[str, object]) -> None:
    settings = RunSettings(catalog.lookup(str(entry["game"])), str(entry["algo"]), int(entry["iters"]),  # type: ignore[arg-type]
                           str(entry["updates"]), 0)  # type: ignore[arg-type]
    run = solving.solve_settings(settings)
    tree = run.tree
    if entry["game"] == "kuhn":
        nodes, arrangements = None, (0, 1)
    else:
        first = tree_parts.parts(tree)[0]     # player 1 holds J, round 1: the Game tree's first view
        nodes, arrangements = tree_parts.part_nodes(tree, first).tolist(), (0,)
    _, tree_body = payload_bytes(tree, run, nodes, arrangements=arrangements)
    assert _site_payload(site, settings, "tree-0") == tree_body

    _, charts_body = payload_bytes(tree, run, [])
    assert _site_payload(site, settings, "charts") == charts_body

    drawn = None if nodes is None else tuple(sorted(nodes))
    snapshots = frames_with(run, int(run.iterations[-1]))
    extra = Extra(key=("best_response", drawn), build=lambda: best_response_frames(
        tree, run, snapshots, drawn, game_value(tree, settings.spec)))
    _, br_body = payload_bytes(tree, run, nodes, arrangements=arrangements, extra=extra)
    site_br = _site_payload(site, settings, "best_response-0")
    assert json.loads(site_br) == json.loads(br_body)
    assert site_br == br_body


def test_the_share_box_links_to_the_public_address_when_one_is_set() -> None:
    # Reference: the page's path and the public origin, by hand; a value that is not http(s) is ignored.
    from cfrviz.app.share import public_page_url

    seen = "http://localhost:8501/Game_tree?game=kuhn&t=4"
    assert public_page_url(seen, None) == "http://localhost:8501/Game_tree"
    assert public_page_url(seen, "https://cfrviz.example.org/") == "https://cfrviz.example.org/Game_tree"
    assert public_page_url(seen, "javascript:alert(1)") == "http://localhost:8501/Game_tree"
    assert public_page_url(None, "https://cfrviz.example.org") == "https://cfrviz.example.org/"
    assert public_page_url("/Evolution", "https://cfrviz.example.org") == "https://cfrviz.example.org/Evolution"


RPS = {"game": "rps", "algo": "rm", "iters": 300, "seed": 3}


@pytest.fixture(scope="module")
def rm_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("rm_site")
    build_site(folder, checked_menu({"runs": [RUNS[0], RPS]}), "https://cfrviz.example.org", say=lambda _: None)
    return folder


def test_the_sites_regret_matching_data_is_the_apps_path_its_link_names(rm_site: Path) -> None:
    # Reference: the app's Regret matching page for the link the site writes (rm_game=rps, self-play,
    # sampled, rm_iters=300, rm_seed=3): its path (page_results.regret_matching_path) and its mode data
    # (regret_matching_payload against the exact equilibrium), as pages/5_Regret_matching.py builds them.
    # The site's file is the HTML file's view of the run (timeline_view), byte for byte.
    import numpy as np

    from cfrviz.analysis import matrix_equilibrium
    from cfrviz.app import page_results
    from cfrviz.figures.html_page import timeline_view
    from cfrviz.figures.regret_matching import regret_matching_payload
    from cfrviz.solvers.matrix import matrix_payoffs

    params = {"rm_game": "rps", "rm_mode": "self", "rm_update": "sampled", "rm_iters": "300", "rm_seed": "3"}
    script = (rm_site / "data" / _slug(params) / "regret_matching.js").read_text(encoding="utf-8")
    site_payload = payload_text(script)
    run = solving.solve_settings(checked_menu({"runs": [RPS]}).runs[0])
    body, _, _ = timeline_view(run, "regret_matching")
    assert site_payload.encode("utf-8") == body
    payoffs = matrix_payoffs(run.tree)
    path = page_results.regret_matching_path(page_results.PathRequest.of(payoffs, 300, None, "sampled", 3))
    names = ["rock", "paper", "scissors"]
    row_eq, column_eq, _ = matrix_equilibrium(np.array(payoffs))
    app_extra = regret_matching_payload(path, names, names, [row_eq, column_eq], "equilibrium", fixed_opponent=False,
                                        include=None)
    assert json.loads(site_payload)["extra"] == json.loads(json.dumps(app_extra))


def test_the_sites_play_data_is_the_html_files(rm_site: Path) -> None:
    # Reference: the one-file home's Play view of the same run (cfrviz.figures.html_page.timeline_view,
    # "play": the whole tree, every frame's average strategy and EV losses), byte for byte.
    from cfrviz.figures.html_page import timeline_view

    settings = checked_menu({"runs": [RUNS[0]]}).runs[0]
    run = solving.solve_settings(settings)
    body, _, _ = timeline_view(run, "play")
    assert _site_payload(rm_site, settings, "play") == body
    assert "extra" in json.loads(body)
