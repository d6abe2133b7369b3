"""The default site builds, with the command the README and the Pages workflow give, within its budget,
and every data file a page names is there.

Reference: issue 29's budget (the whole default site ≤ 60 MB) and the site's own layout: each page
is `Page/index.html` and names its data files, relative to the site's root, as `"path":"data/..."`
(the browser walk in tests/browser/test_site_browser.py runs on the small menu; this builds the one
a teacher publishes).
"""
from __future__ import annotations

import re
from pathlib import Path

from tests.support.static_site import build_site

PAGES = ("", "Game_tree", "Evolution", "Convergence", "Compare", "Regret_matching", "Walkthrough",
         "Best_response", "Play")
BUDGET_BYTES = 60_000_000


def test_the_default_site_builds_within_its_budget_and_every_named_data_file_is_there(tmp_path: Path) -> None:
    folder = tmp_path / "site"
    build_site(folder, menu="default")
    size = sum(path.stat().st_size for path in folder.rglob("*") if path.is_file())
    assert size <= BUDGET_BYTES, f"{size:,} bytes"
    named: set[str] = set()
    for page in PAGES:
        html = (folder / page / "index.html").read_text(encoding="utf-8")
        named |= set(re.findall(r'"path":\s*"(data/[^"]+)"', html))
    assert len(named) > 40          # every Kuhn and Leduc run's views, the walks, the comparison
    assert [path for path in sorted(named) if not (folder / path).is_file()] == []
