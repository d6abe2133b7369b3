"""Presentation mode, for a projector: no sidebar, toolbar or deploy button, text that grows with the
screen, and a lecture (the views a teacher pasted, in order) stepped through with PageDown and PageUp
(or N and P). Every page gets it from `setup_page`; the link parameters are parsed in `cfrviz.app.links`.
"""
from __future__ import annotations

import json
import os
from dataclasses import replace
from urllib.parse import urlencode

import streamlit as st

from cfrviz.app.links import Presentation, parse_lecture
from cfrviz.app.share import PUBLIC_URL_VARIABLE, public_page_url
from cfrviz.app.state import PRESENT_KEY, W, state_presentation

# Streamlit's chrome hidden; the page's text and the timeline's (`--tl-text`, read by the timeline's
# layout, which zooms to it) grow with the viewport: 24 px at 1,920 px wide, never under 14 px.
_CSS = """<style>
[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"], [data-testid="stExpandSidebarButton"],
[data-testid="stToolbar"], [data-testid="stHeader"], [data-testid="stDecoration"], [data-testid="stAppDeployButton"],
[data-testid="stMainMenu"], .stDeployButton { display: none !important; }
[data-testid="stMainBlockContainer"] { padding-top: 1rem; padding-bottom: 12rem; max-width: none; }
:root { --tl-text: max(14px, 1.25vw); }
html { font-size: max(16px, 1.05vw); }
</style>"""

# The lecture's keys: PageDown or N to the next view, PageUp or P to the previous one, unless the key
# is typed into a field or taken by the page (the Walkthrough's timeline steps with N and P).
_KEYS = """<script>
window.cfrvizLecture = %s;
if (!window.cfrvizLectureKeys) {
  window.cfrvizLectureKeys = true;
  document.addEventListener("keydown", (e) => {
    const lecture = window.cfrvizLecture, t = e.target, tag = t && t.tagName;
    if (!lecture || e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || (t && t.isContentEditable)) return;
    const step = { PageDown: "next", n: "next", N: "next", PageUp: "previous", p: "previous", P: "previous" }[e.key];
    const view = step && lecture[step];
    if (!view) return;
    e.preventDefault();
    window.location.assign(location.pathname.replace(/[^/]*$/, "") + view);
  });
}
</script>"""


def lecture_link(presentation: Presentation, slide: int) -> str:
    """The lecture's view `slide` (from 0) as a link relative to the app's address, in presentation mode."""
    shown = replace(presentation, present=True, slide=slide)
    view = shown.lecture[slide]
    extra = urlencode(shown.params())
    return f"{view}{'&' if '?' in view else '?'}{extra}"


def presentation_mode() -> bool:
    """Draw presentation mode's parts: when it is on, its style, the button that leaves it and the
    lecture's keys; when off, the sidebar's button and lecture box. Returns whether it is on."""
    presentation = state_presentation()
    if not presentation.present:
        _sidebar_box()
        return False
    st.html(_CSS)
    lecture = presentation.lecture
    steps: dict[str, str | None] = {"next": None, "previous": None}
    left, right = st.columns([4, 1], vertical_alignment="center")
    if lecture:
        here = presentation.slide
        steps = {"next": lecture_link(presentation, here + 1) if here + 1 < len(lecture) else None,
                 "previous": lecture_link(presentation, here - 1) if here > 0 else None}
        left.caption(f"View {here + 1} of {len(lecture)} of the lecture: PageDown (or N) for the next, "
                     "PageUp (or P) for the previous.")
    st.html(_KEYS % json.dumps(steps if lecture else None), unsafe_allow_javascript=True)
    right.button("Leave presentation", icon=":material/close_fullscreen:", key=W + "present_off",
                 on_click=_set_present, args=(False,))
    return True


def _set_present(on: bool) -> None:
    st.session_state[PRESENT_KEY] = replace(state_presentation(), present=on) if on else Presentation()


def _sidebar_box() -> None:
    with st.sidebar:
        st.subheader("Present")
        st.button("Presentation mode", icon=":material/slideshow:", key=W + "present_on",
                  help="For a projector: no sidebar, larger text, the timeline always in view (link: present=1).",
                  on_click=_set_present, args=(True,))
        text = st.text_area("Lecture: paste the links of its views, one per line", key=W + "lecture", height=100)
        if not text.strip():
            return
        lecture, notices = parse_lecture(text)
        for sentence in notices:
            st.caption(sentence)
        if lecture:
            st.caption(f"Open this link to present these {len(lecture)} views; PageDown and PageUp step through them:")
            st.code(_app_address() + lecture_link(Presentation(True, lecture), 0), language=None, wrap_lines=True)


def _app_address() -> str:
    """The app's address, ending in "/", that a lecture's view paths follow."""
    try:
        url = st.context.url
    except Exception:   # no address under AppTest
        url = None
    page = public_page_url(url, os.environ.get(PUBLIC_URL_VARIABLE))
    return page.rsplit("/", 1)[0] + "/"
