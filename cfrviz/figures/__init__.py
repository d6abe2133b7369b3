"""Plotly figure builders: pure functions from a tree, a run and an iteration to a `go.Figure`.

Pages call them and tests assert on their JSON; nothing here imports streamlit. Importing the package
loads no figure module: the timeline's payload (`cfrviz.figures.timeline`) needs neither plotly nor
pandas, so Home, which draws only the timeline, does not load them.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence

    from cfrviz.run import Run


def save_html(run: Run, path: str | Path, view: str = "tree", t: int | None = None, node: int | None = None,
              nodes: Sequence[int] | None = None) -> Path:
    """Write `run`'s browser timeline as one self-contained HTML file (`cfrviz.figures.html_page`):
    `view` is one of `html_page.HTML_VIEWS`: "tree", "evolution", "charts", "convergence", "exploitability",
    "best_response", "walkthrough", "regret_matching" (a matrix game's run) or "play" (a game drawn whole),
    opened at iteration `t` (default the last; the walkthrough's iteration, default 1) and node `node`.
    Returns the path written."""
    from cfrviz.figures.html_page import save_html as write   # loaded only when a file is written

    return write(run, path, view, t=t, node=node, nodes=nodes)
