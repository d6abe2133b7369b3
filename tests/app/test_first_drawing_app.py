"""AppTest, in a fresh interpreter: what a first visit to Game tree or Convergence loads before the
timeline (the page's first drawing) is sent.

Reference: the timeline's payload is plain lists built from the tree's arrays, so drawing it needs
neither pandas (which plotly's figure code loads) nor networkx; Convergence's plotly charts come
after its timeline on the screen, so their code may load only after the timeline is mounted.
Each case runs in a child process, because a module this test process already imported would
not be imported again.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[2]

# Records, in order, the timeline's mounts and the first imports of the modules watched; runs Home,
# then the page, and prints the events of the page's run and which watched modules are loaded.
CHILD = """
import importlib.abc, json, sys
from streamlit.testing.v1 import AppTest
import cfrviz.app.components.timeline as timeline

WATCHED = ("pandas", "networkx", "cfrviz.figures.convergence")
events = []

class Watch(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name in WATCHED and name not in sys.modules:
            events.append(name)
        return None

sys.meta_path.insert(0, Watch())
mount = timeline.mount

def recorded_mount(*args, **kwargs):
    events.append("mount")
    return mount(*args, **kwargs)

timeline.mount = recorded_mount
at = AppTest.from_file(sys.argv[1], default_timeout=120).run()
home = list(events)
events.clear()
at.switch_page(sys.argv[2]).run()
print(json.dumps({"home": home, "page": events, "loaded": [m for m in WATCHED if m in sys.modules],
                  "exceptions": [e.value for e in at.exception]}))
"""


def first_visit(page: str) -> dict:
    done = subprocess.run([sys.executable, "-c", CHILD, str(ROOT / "app.py"), page], cwd=ROOT, capture_output=True,
                          text=True, timeout=300, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr[-2000:]
    result: dict = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["exceptions"] == []
    return result


def test_home_and_the_game_tree_draw_without_pandas_networkx_or_plotly_figures() -> None:
    result = first_visit("pages/1_Game_tree.py")
    assert result["home"] == ["mount"] and result["page"] == ["mount"]
    assert result["loaded"] == []


def test_convergence_loads_its_plotly_figures_after_the_timeline_is_mounted() -> None:
    result = first_visit("pages/3_Convergence.py")
    page = result["page"]
    assert page[0] == "mount", page
    assert "cfrviz.figures.convergence" in page and "pandas" in page   # the charts below do load them
    assert "networkx" not in result["loaded"]
