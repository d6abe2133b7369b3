"""The browser timeline's script and style, as text: `timeline_assets/` (the core, then each page
mode's file in `modes/`). Every home of the timeline (the Streamlit component, the one HTML file)
reads them from here.
"""
from __future__ import annotations

from importlib import resources

_ASSETS = resources.files("cfrviz.figures").joinpath("timeline_assets")


#: The host interface every home calls: `mountTimeline(component)`, where component is
#: {key, data, parentElement, setStateValue, setTriggerValue} as Streamlit's components v2 gives it:
#: data is the header line (JSON) + "\n" + the payload, and the two callbacks hear t, node, kind
#: and the page events back. Calling it again on the same element with a new header re-draws.
MOUNT_FUNCTION = "mountTimeline"
_EXPORT = "export default function (component)"


def timeline_script() -> str:
    """The timeline's script for a home that is not Streamlit (the HTML file, the notebook widget):
    no export, one function named MOUNT_FUNCTION, and nothing that could end a <script> element."""
    script = timeline_source(".js")
    if script.count(_EXPORT) != 1 or "</script" in script.lower():
        raise RuntimeError("The timeline's script no longer ends in one default export, as its homes need.")
    return script.replace(_EXPORT, f"const {MOUNT_FUNCTION} = function (component)")


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
