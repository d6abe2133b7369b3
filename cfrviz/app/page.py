"""Page setup: the app's page list, `setup_page` (every page's first call) and the page's solve."""
from __future__ import annotations

from dataclasses import replace
from typing import Literal

import streamlit as st

from cfrviz.app.registry import PAGES as REGISTERED_PAGES, Page
from cfrviz.app.links import page_params_of
from cfrviz.app.settings import link_params
from cfrviz.app.present import presentation_mode
from cfrviz.app.share import share
from cfrviz.app.sidebar import follows_sidebar, own_settings_note, sidebar
from cfrviz.app.download_files import keep_clicked_downloads
from cfrviz.app.sessions import start_session_reaper
from cfrviz.app.solving import cached_solve, is_warm, start_warmup
from cfrviz.app.state import NODE_KEY, NOTICE_KEY, PAGE_SETTINGS_KEY, T_KEY, UPLOAD_KEY, UPLOAD_NAME_KEY, WRITTEN_KEY, View, \
    adopt_query_params, state_choice, state_presentation
from cfrviz.app.widgets import error, notice, plain
from cfrviz.run import Run
from cfrviz.teaching import texts
from cfrviz.solvers import ALGORITHMS

#: The navigation's pages: (script, label, icon), from the page registry.
PAGES = tuple((entry.script, entry.label, entry.icon) for entry in REGISTERED_PAGES)

#: A learner's order through the app, with what to notice on each page (Home's "Start here").
# The app's path of a page script ("pages/1_Game_tree.py" is served at /Game_tree), which the texts name pages by.
_SCRIPT_OF = {entry.script.split("_", 1)[1].removesuffix(".py"): entry.script
              for entry in REGISTERED_PAGES if entry.script.startswith("pages/")}
LEARNING_PATH = tuple((_SCRIPT_OF[path], label, notice) for path, label, notice in texts.LEARNING_PATH)




def pin_first_views() -> None:
    """The pages' own first views (Regret matching, the Walkthrough, Compare), pinned by the warm-up
    once the sidebar's is: imported here, when the warm-up runs, so Home's first run does not wait for
    the teaching modules."""
    from cfrviz.app.page_results import pin_first_views as pin

    pin()


def setup_page(title: str, *, solve: bool = True, layout: Literal["centered", "wide"] = "wide", own_settings: str | None = None,
               page: Page | None = None, sidebar_note: str | None = None) -> View:
    """Configure the page, draw the navigation and shared sidebar, sync the URL, and solve, cached.

    Returns the `View` every page reads. Malformed query parameters fall back to defaults with
    a visible notice. The page's title is drawn as its header. With `solve=False` the page may
    draw its text first and call `solve_view(view)` afterwards. `own_settings`: a page that
    does not follow the sidebar says so, in this sentence, at its top and in the sidebar.
    `page` names the page whose own settings (its `cfrviz.app.registry` entry) join the link;
    `sidebar_note` replaces the sidebar's caption on such a page.
    """
    st.set_page_config(page_title=f"{title} · cfrviz", page_icon="♠", layout=layout)
    start_warmup(pin_first_views)
    start_session_reaper()
    keep_clicked_downloads()    # a clicked download outlives other visitors' reruns
    adopt_query_params()
    choice = state_choice()
    navigation = st.sidebar.container()  # above the solve controls
    uploaded: Run | None = st.session_state.get(UPLOAD_KEY)
    if follows_sidebar(page):
        sidebar(choice, in_use=uploaded is None,
                note=None if own_settings is None else sidebar_note or "This page has its own settings; the other pages use these.")
    else:
        own_settings_note()
    for text in st.session_state.get(NOTICE_KEY, ()):
        notice(text)
    st.session_state[NOTICE_KEY] = ()
    presentation_mode()     # for a projector (present=1): its style, keys and button
    st.title(title)
    if own_settings:
        st.info(own_settings, icon=":material/tune:")

    if uploaded is not None:
        tree, settings = uploaded.tree, uploaded.settings
        _upload_banner(uploaded)
    else:
        settings = choice.settings()
        tree = choice.tree()
    node = st.session_state.get(NODE_KEY)
    if node is not None and not 0 <= int(node) < tree.num_nodes:
        node = None
    st.session_state[NODE_KEY] = node
    # The navigation is drawn before the solve, so a first visit shows the app's pages at once.
    last = int(uploaded.iterations[-1]) if uploaded is not None else settings.iterations
    t = st.session_state.get(T_KEY)
    t = last if t is None else min(int(t), last)
    # While an upload is shown the links carry no view: a view in the URL replaces the upload.
    params = {} if uploaded is not None else link_params(choice, t, node, page)
    with navigation:
        _navigation(params)
    if not follows_sidebar(page) and page is not None and uploaded is None:
        # The page's own link (address bar, share box) carries only its own settings; the navigation above
        # keeps the sidebar's solve for the pages that use it.
        values = st.session_state.get(PAGE_SETTINGS_KEY, {})
        params = {**page_params_of(page, values), **page_params_of(Page.HOME, values),
                  **state_presentation().params()}    # presentation mode goes along on every page

    view = View(settings, tree, None, t, 0, node, choice, params, uploaded is not None, page)
    if uploaded is not None:
        view = _with_run(view, uploaded)
    elif solve:
        view = solve_view(view)
    else:
        _write_view(view)
    share(view)
    return view


def solve_view(view: View) -> View:
    """`view` with its run: solved (cached, with a message saying what is happening) unless it has one."""
    if view.run is not None:
        return view
    settings = view.settings
    message = (f"Solving {plain(view.tree.game.title)} with {ALGORITHMS[settings.algorithm].title}, "
               f"{settings.iterations:,} iterations…")
    if not is_warm():
        message += " The first solve after the server starts also prepares the compiled solver."
    try:
        with st.spinner(message, show_time=True):
            run = cached_solve(settings)
    except ValueError as problem:
        error(str(problem))
        st.stop()
    return _with_run(view, run)


def _with_run(view: View, run: Run) -> View:
    """`view` showing `run`, with t snapped to one of its snapshots (written to the URL)."""
    snapshot = run.snapshot_at(min(view.t, int(run.iterations[-1])))
    t = int(run.iterations[snapshot])
    params = {} if view.uploaded else link_params(view.choice, t, view.node, view.page)
    view = replace(view, run=run, t=t, snapshot=snapshot, params=params)
    _write_view(view)
    return view


def _write_view(view: View) -> None:
    """Keep `t`, and put the view in the URL (an uploaded run's view is none: the URL is cleared)."""
    st.session_state[T_KEY] = view.t
    st.query_params.from_dict(view.params)
    st.session_state[WRITTEN_KEY] = view.params


def _upload_banner(run: Run) -> None:
    name = st.session_state.get(UPLOAD_NAME_KEY, "an uploaded file")
    settings = run.settings
    st.info(f"Showing the uploaded run from **{plain(name)}**: {plain(run.tree.game.title)}, "
            f"{ALGORITHMS[settings.algorithm].title if settings.algorithm in ALGORITHMS else plain(settings.algorithm)}, "
            f"{int(run.iterations[-1]):,} iterations, {settings.updates} updates. The sidebar's solve "
            "settings are not in use; press *Back to the sidebar's solve* under Share to leave it.",
            icon=":material/upload_file:")


def _navigation(params: dict[str, str]) -> None:
    """The app's own page list (Streamlit's own would label the entry file "app"), carrying the view.

    The paths are relative to the main script's folder, where Streamlit looks for them."""
    for path, label, icon in PAGES:
        st.page_link(path, label=label, icon=icon, query_params=params)


def solved_run(view: View) -> Run:
    """The run of a solved view: `setup_page` (with `solve=True`) or `solve_view` gives one or stops the page."""
    if view.run is None:
        raise ValueError("This view has no run yet: call solve_view(view) first.")
    return view.run
