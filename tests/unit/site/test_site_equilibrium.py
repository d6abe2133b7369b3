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


def test_thinning_keeps_each_columns_first_last_lowest_and_highest_point() -> None:
    # Reference, by hand: 1,000 points zig-zagging between 0 and 1 packed into x from 0 to 2 px, i.e.
    # four half-pixel columns; each column keeps its first, last, lowest and highest point, in order.
    from cfrviz.figures.svg import _thinned
    import numpy as np

    px = np.linspace(0.0, 1.999, 1000)
    py = np.where(np.arange(1000) % 2 == 0, 0.0, 1.0)
    py[500] = -3.0
    tx, ty = _thinned(px, py)
    assert tx.size <= 16 and tx[0] == px[0] and tx[-1] == px[-1]
    assert list(tx) == sorted(tx)
    assert ty.min() == -3.0 and set(np.floor(tx * 2)) == {0.0, 1.0, 2.0, 3.0}
    # Point 500 (x = 500 × 1.999 / 999 = 1.0005, column 2) is that column's lowest; every other column's lowest is 0, highest 1.
    assert [(ty[np.floor(tx * 2) == k].min(), ty[np.floor(tx * 2) == k].max()) for k in range(4)] == [
        (0.0, 1.0), (0.0, 1.0), (-3.0, 1.0), (0.0, 1.0)]
