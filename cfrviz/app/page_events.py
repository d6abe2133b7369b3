"""What the pages hand Streamlit to keep: the timeline's event callbacks, widget callbacks and
format functions, as functions of this module with light arguments.

Streamlit keeps a widget's format function and callbacks for as long as the widget is on the page.
A function written in a page script has that script's whole namespace as its globals, its solved
runs included, so every open tab kept its runs (three 46 MB Leduc runs per locked Game tree tab).
So a page passes `functools.partial(page_events.<function>, <what it needs>)`, and a format
function is a dict of labels' lookup (`labels(...)`); tests/app/test_session_keeps_no_run_app.py
checks that an open session holds no run, and tests/unit/app/test_page_callables.py that no page
passes a function of its own.
"""
from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np
import streamlit as st

from cfrviz.app.components import timeline
from cfrviz.app.links import link_of_sets
from cfrviz.app.locks import LOCK_ASKED_KEY, lockable_node
from cfrviz.app.settings import set_page_value
from cfrviz.app.state import NODE_KEY
from cfrviz.figures.best_response_frames import checked_exploiter
from cfrviz.figures.timeline import checked_iteration
from cfrviz.figures.walkthrough import checked_step
from cfrviz.tree import GameTree

#: Where the Best response page finds the exploiter its timeline reported, on its next run.
REPORTED_EXPLOITER_KEY = "_br_reported_exploiter"


def labels(options: Iterable[Any], label: Callable[[Any], str]) -> Callable[[Any], str]:
    """A format function that holds only the options' labels (strings), each made once here; a value
    that is not an option reads as its own text."""
    return functools.partial(_label_of, {option: label(option) for option in options})


def _label_of(labels: dict[Any, str], option: Any) -> str:
    return labels.get(option, str(option))


def lock_asked(tree: GameTree, value: object) -> None:
    """The Game tree's L key: select the node and open its set's lock editor."""
    node = lockable_node(value, tree)
    if node is not None:
        st.session_state[NODE_KEY] = st.session_state[LOCK_ASKED_KEY] = node


def sets_chosen(keys: Sequence[str], widget: str) -> None:
    """Evolution's chosen information sets, into the link."""
    set_page_value("evo_sets", link_of_sets(st.session_state.get(widget) or [], keys))


def regret_matching_t(iterations: np.ndarray, last: int, reported: object) -> None:
    """The iteration Regret matching's timeline shows after a pause, into the link (0 for the last)."""
    chosen = checked_iteration(reported, iterations)
    if chosen is not None:
        set_page_value("rm_t", 0 if chosen >= last else chosen)


def walkthrough_step(count: int, value: object) -> None:
    """The step the Walkthrough's timeline shows after a pause (1-based), into the link."""
    reported = checked_step(value, count)
    if reported is not None:
        set_page_value("walk_step", reported)
        timeline.browser_shows("walk_timeline", reported)   # no need to send the trace again


def exploiter_reported(value: object) -> None:
    """The exploiter chosen in Best response's timeline, kept for the page's next run."""
    checked = checked_exploiter(value)
    if checked is not None:
        st.session_state[REPORTED_EXPLOITER_KEY] = checked
