"""What a session keeps between reruns and pages: the state keys, the `View`, and the link adopted.

The sidebar, the share box and the pages read and write the session under these keys; parsing
the query parameters is pure and lives in `cfrviz.app.links`.
"""
from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from cfrviz.app.registry import Page
from cfrviz.app.links import DEFAULT_CHOICE, Choice, Presentation, parse_page_settings, parse_presentation, parse_query_params, \
    supported_updates
from cfrviz.catalog import GameSpec
from cfrviz.run import Run, RunSettings
from cfrviz.run.uploads import MAX_LIVE_UPLOAD_BYTES, LiveUploads, read_game_upload
from cfrviz.tree import GameTree

T_KEY = "cfrviz_t"                  # the iteration shown (an int, or None for the run's end), on every page
NODE_KEY = "cfrviz_node"            # the selected tree node id (an int or None)
CHOICE_KEY = "cfrviz_choice"        # the sidebar's solve (a `Choice`)
UPLOAD_KEY = "cfrviz_upload"        # an uploaded `Run` shown instead of the sidebar's solve
UPLOAD_NAME_KEY = "cfrviz_upload_name"
WRITTEN_KEY = "cfrviz_written_params"   # the query parameters this session last wrote into the URL
PAGE_SETTINGS_KEY = "cfrviz_page_settings"
NOTICE_KEY = "cfrviz_notices"       # sentences the next run shows once
PRESENT_KEY = "cfrviz_present"      # presentation mode and its lecture (a `Presentation`)
W = "cfrviz_w_"                     # prefix of the sidebar widgets' keys

#: Every uploaded run this process holds, over all sessions, within MAX_LIVE_UPLOAD_BYTES. A run
#: lives in its session's state only (UPLOAD_KEY); the registry counts it and hears when it goes.
LIVE_UPLOADS = LiveUploads(MAX_LIVE_UPLOAD_BYTES)


@dataclass(frozen=True)
class View:
    """What a page shows: settings, tree, run, the iteration `t` and the selected node.

    `snapshot` indexes the run's snapshot arrays ([T, ...]) at `t`; it is 0 when `run` is None.
    `params` are the deep-link query parameters of this view (for `st.page_link`); empty while an
    uploaded run is shown, since a link cannot carry it and a link's view would replace it.
    """

    settings: RunSettings
    tree: GameTree
    run: Run | None
    t: int
    snapshot: int
    node: int | None
    choice: Choice
    params: dict[str, str]
    uploaded: bool = False
    page: Page | None = None


def state_presentation() -> Presentation:
    """Presentation mode in this session (off before a link or the button turned it on)."""
    presentation: Presentation = st.session_state.get(PRESENT_KEY, Presentation())
    return presentation


def state_choice() -> Choice:
    """The sidebar's solve in this session (the defaults before anything was chosen)."""
    choice: Choice = st.session_state.get(CHOICE_KEY, DEFAULT_CHOICE)
    return choice


def adopt_query_params() -> None:
    """Take the URL's view when it is new to this session (a deep link or a page link)."""
    current = {k: st.query_params.get_all(k)[-1] for k in st.query_params.keys()}
    written = st.session_state.get(WRITTEN_KEY)
    first_visit = CHOICE_KEY not in st.session_state
    if not first_visit and (not current or current == written):
        return
    link = parse_query_params(current)
    page_values, page_notices = parse_page_settings(current)
    presentation, present_notices = parse_presentation(current)
    st.session_state[PRESENT_KEY] = presentation
    st.session_state[CHOICE_KEY] = link.choice
    st.session_state[T_KEY] = link.t
    st.session_state[NODE_KEY] = link.node
    st.session_state[NOTICE_KEY] = link.notices + page_notices + present_notices
    st.session_state[PAGE_SETTINGS_KEY] = {**st.session_state.get(PAGE_SETTINGS_KEY, {}), **page_values}
    if current:
        st.session_state.pop(UPLOAD_KEY, None)


def choose_game(game: GameSpec) -> None:
    """Switch the sidebar's solve to `game`, keeping what still applies of the other settings."""
    old = state_choice()
    algorithm = old.algorithm if game.offers(old.algorithm) else game.default_algorithm
    new = supported_updates(Choice(game, algorithm, min(old.iterations, game.app_iteration_cap), old.updates,
                                   old.seed))
    st.session_state[CHOICE_KEY] = new
    st.session_state.pop(UPLOAD_KEY, None)
    st.session_state[T_KEY] = None
    st.session_state[NODE_KEY] = None
    st.session_state[NOTICE_KEY] = ()


def adopt_game(filename: str, data: bytes) -> None:
    """Make an uploaded .efg game the sidebar's game (bounded and checked by `read_game_upload`)."""
    try:
        game = read_game_upload(filename, data)
    except ValueError as error:
        st.session_state[NOTICE_KEY] = (str(error),)
        return
    choose_game(game)
    st.session_state[NOTICE_KEY] = ("Your game is now the sidebar's game on every page. A share link cannot "
                                    "carry an uploaded game; download the run to keep it.",)
