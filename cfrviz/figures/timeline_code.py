"""The browser timeline's script and style, as text: `timeline_assets/` (the core, then each page
mode's file in `modes/`). Every home of the timeline (the Streamlit component, the one HTML file)
reads them from here.
"""
from __future__ import annotations

from importlib import resources

_ASSETS = resources.files("cfrviz.figures").joinpath("timeline_assets")


def timeline_source(suffix: str) -> str:
    """The core file (`timeline.js` or `timeline.css`), then each mode's (they add entries to MODES)."""
    folder = _ASSETS.joinpath("modes")
    modes = sorted((f for f in folder.iterdir() if f.name.endswith(suffix)), key=lambda f: f.name) \
        if folder.is_dir() else []
    core = _ASSETS.joinpath("timeline" + suffix).read_text(encoding="utf-8")
    # Each mode's script in a block of its own: its top-level names stay its own (two modes may
    # both have a `signed`), while MODES and the core's helpers are in reach.
    texts = [f.read_text(encoding="utf-8") for f in modes]
    if suffix == ".js":
        texts = ["{\n" + text + "\n}" for text in texts]
    return "\n".join([core, *texts])
