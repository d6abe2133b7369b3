"""The site's Convergence picture of the average strategy against Kuhn's α-family, drawn at build time.

Reference: Kuhn's equilibria (Kuhn 1950): player 1 bets the jack with any α ∈ [0, 1/3], bets the king
with 3α and calls with the queen after check-bet with α + 1/3; player 2's strategy is unique. So three
of the twelve panels (one per information set, six a player) carry a band, the others a single line; Leduc
has no closed form.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

from cfrviz import solve
from cfrviz.figures.convergence import equilibrium_figure
from cfrviz.figures.svg import grid_svg
from cfrviz.site.build import build_site
from cfrviz.site.menu import checked_menu


def test_the_svg_has_kuhns_three_bands_and_the_runs_alpha() -> None:
    run = solve("kuhn", "cfr+", 300)
    figure = equilibrium_figure(run, 300)
    picture = grid_svg(figure)
    assert picture.count("<polygon") == 3
    assert picture.count("<rect x=") == 12          # one frame per information set (six a player)
    alpha = figure.layout.meta["alpha"]
    assert 0 <= alpha <= 1 / 3
    assert f"equilibrium at the run's α = {alpha:.3f}" in picture
    assert "J · bet" in picture and "α band: equilibria for α ∈ [0, 1/3]" in picture


def test_convergence_offers_the_picture_for_kuhn_and_says_none_for_leduc(tmp_path: Path) -> None:
    menu = checked_menu({"runs": [{"game": "kuhn", "algo": "cfr+", "iters": 50, "updates": "alternating"},
                                  {"game": "leduc", "algo": "cfr+", "iters": 2, "updates": "alternating"}]})
    build_site(tmp_path / "site", menu, "https://cfrviz.example.org", say=lambda _: None)
    page = (tmp_path / "site" / "Convergence" / "index.html").read_text(encoding="utf-8")
    config = json.loads(re.search(r'<script type="application/json" id="cfrviz-site">(.*?)</script>', page,
                                  re.S).group(1))   # type: ignore[union-attr]
    kuhn, leduc = config["builds"]
    assert leduc["equilibrium"] is None
    assert kuhn["equilibrium"]["caption"].startswith("Drawn at the run's last iteration, 50 (this picture does not follow t).")
    assert "player 1 bets J with α" in kuhn["equilibrium"]["caption"]
    assert (tmp_path / "site" / kuhn["equilibrium"]["path"]).read_text(encoding="utf-8").count("<polygon") == 3
    assert 'id="cfrviz-equilibrium"' in page
