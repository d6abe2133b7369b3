"""The browser timeline (a Streamlit components-v2 component): mount it, hear `t` and `node` back.

The payload is built by `cfrviz.figures.timeline` (pure) and kept per run and drawn part, so a rerun
only adds a short header. The component's JavaScript and CSS are the figures layer's (`cfrviz.figures.timeline_code`).
"""
from __future__ import annotations

import contextlib
import functools
import re
import threading
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import streamlit as st

from cfrviz.app.admission import heavy_build
from cfrviz.app.solving import first_drawing_sent
from cfrviz.util import idle
from cfrviz.util.bounded_cache import BoundedCache
from cfrviz.app.state import LIVE_UPLOADS
from cfrviz.catalog.lookups import of_tree
from cfrviz.run import Run
from cfrviz.figures.timeline import (
    BROWSER_VALUES,
    EDGE_WIDTHS,
    TimelineMode,
    build_payload,
    checked_iteration,
    checked_kind,
    checked_node,
    component_data,
    encode_payload,
    frame_snapshots,
    next_header,
)
from cfrviz.figures.html_page import FILE_MODES, page_bytes, settings_of
from cfrviz.figures.timeline_code import timeline_source
from cfrviz.tree import GameTree

_component = st.components.v2.component("cfrviz_timeline", js=timeline_source(".js"), css=timeline_source(".css"))

# Per component key: the last header sent, and the t, node and kind the browser shows as far as
# the server knows (what it was sent, then what it reported back).
_HEADERS = "cfrviz_timeline_headers"
_SHOWN = "cfrviz_timeline_shown"
# Prefix of the session-state key of a timeline's edge-width choice, unless the page names one.
_KINDS = "cfrviz_timeline_kind"

#: Set (to the node) when the inspector asks to draw the selected node's information set whole.
WHOLE_SET_KEY = "cfrviz_tree_whole_set"

# Encoded payloads by (run, part), least recently used first out. A Leduc part is about 1 MB and a
# part at the frame cap a few MB, so 48 MB keeps the day's few dozen views warm, and at most 24
# however small. None holds a run: a solved run is named by its settings (the shared run cache
# decides which runs stay), an uploaded one by its token.
PAYLOAD_CACHE_BYTES = 48_000_000
_PAYLOAD_CACHE_ENTRIES = 24
_cache: BoundedCache[tuple[Any, ...], tuple[str, bytes]] = BoundedCache(
    _PAYLOAD_CACHE_ENTRIES, PAYLOAD_CACHE_BYTES, lambda entry: len(entry[1]))
_lock = threading.Lock()


def _empty_payloads() -> None:
    with _lock:
        _cache.clear()


idle.on_idle("timeline payloads", _empty_payloads)   # emptied when the last visitor has gone


def _run_key(run: Run, uploaded: bool) -> tuple[Any, ...]:
    # Solved runs are known by their settings (the shared cache may drop and re-solve one); an
    # uploaded run by the token it got when it was read, never by the run itself.
    if uploaded:
        return ("upload", LIVE_UPLOADS.token(run))
    return ("solve", run.settings, run.num_snapshots, int(run.iterations[-1]))


def forget_upload(token: str) -> None:
    """Drop every payload built for the uploaded run `token` (`LIVE_UPLOADS.settle` calls it when
    that run is let go; never while `_lock` is held)."""
    with _lock:
        for key in [key for key in _cache if key[0] == ("upload", token)]:
            _cache.pop(key, None)


LIVE_UPLOADS.on_release(forget_upload)


def payload_bytes(tree: GameTree, run: Run | None, nodes: Sequence[int] | None, *, uploaded: bool = False,
                  arrangements: Sequence[int] = (0,), include: int | None = None,
                  extra: Extra | None = None) -> tuple[str, bytes]:
    """(id, body) of the payload for this run and part, built once and then served from memory."""
    LIVE_UPLOADS.settle()      # payloads of uploads let go since leave first (outside _lock)
    drawn = None if nodes is None else tuple(sorted(int(n) for n in nodes))
    # Without a run, the drawing is the game's: its catalog value (game string, file, payoffs), not its title.
    run_key = ("tree", of_tree(tree), tree.game.title, tree.num_nodes) if run is None else _run_key(run, uploaded)
    key = (run_key, drawn, tuple(arrangements), include, None if extra is None else extra.key)
    with _lock:
        hit = _cache.get(key)
        if hit is not None:
            return hit
    # A mode's frames or an uploaded run's snapshots are a heavy build: it waits for a turn, and
    # may find the payload built by another visitor meanwhile.
    with heavy_build() if extra is not None or uploaded else contextlib.nullcontext():
        with _lock:
            hit = _cache.get(key)
            if hit is not None:
                return hit
        payload_id, body = encode_payload(build_payload(tree, run, drawn, arrangements=arrangements, include=include,
                                                        extra=None if extra is None else extra.build()))
    with _lock:
        if len(body) <= PAYLOAD_CACHE_BYTES:      # a larger one is sent, not kept
            _cache[key] = (payload_id, body)
    return payload_id, body


def _shown(key: str, **reported: object) -> None:
    shown = st.session_state.setdefault(_SHOWN, {})
    if key in shown:
        shown[key] = {**shown[key], **{k: v for k, v in reported.items() if v is not None}}


def browser_shows(key: str, t: int) -> None:
    """Note that timeline `key` already shows frame `t` in the browser (a mode that reports its frame
    under its own event name calls this), so the rerun that follows sends the same bytes again."""
    _shown(key, t=t)


def _on_t(key: str, iterations: tuple[int, ...], t_key: str) -> None:
    value = (st.session_state.get(key) or {}).get("t")
    t = checked_iteration(value, iterations)
    if t is not None:
        st.session_state[t_key] = t
        _shown(key, t=t)


def _on_node(key: str, tree: GameTree, node_key: str, event: str = "node") -> None:
    value = (st.session_state.get(key) or {}).get(event)
    node = checked_node(value, tree)
    if node is not None:
        st.session_state[node_key] = node
        _shown(key, node=node)
        if event == "wholeSet":
            st.session_state[WHOLE_SET_KEY] = node


def _on_kind(key: str, kind_key: str) -> None:
    kind = checked_kind((st.session_state.get(key) or {}).get("kind"))
    if kind is not None:
        st.session_state[kind_key] = kind
        _shown(key, kind=kind)


@dataclass(frozen=True)
class Extra:
    """A page mode's own part of the payload: `build()` returns JSON-ready data (sent as the
    payload's "extra"), built once per `key`, which must name everything the data depends on."""

    key: Hashable
    build: Callable[[], Any]


def mount(view: Any, *, nodes: Sequence[int] | None, mode: TimelineMode = TimelineMode.TREE, key: str = "timeline",
          arrangements: Sequence[int] = (0,), focus: Sequence[str] = (), log: bool = False,
          kind_key: str | None = None, extra: Extra | None = None, whole_sets: bool = False,
          locks: str | None = None, events: Mapping[str, Callable[[Any], None]] | None = None, state: Any = None,
          file_about: Mapping[str, str] | None = None) -> str:
    """Draw the timeline for `view` (a `cfrviz.app.View`): the tree part `nodes` with its inspector
    ("tree"), or the charts ("charts"), or the strategy bars of the sets of `nodes` ("sets", with
    curves for the information sets named in `focus`). `log` starts the slider on a log scale.

    Releasing the slider (or pausing key steps) sets `ui.T_KEY`; clicking a node sets `ui.NODE_KEY`;
    choosing what edge widths show sets `kind_key` (default: a key of this timeline's own) to
    "average" or "current", and a value put there (from a link) is what the timeline shows.
    Returns that edge-width choice, for the share link.

    `extra` adds a page mode's own data to the payload. `events` maps a name the mode's JavaScript
    sets with `setStateValue(name, value)` to a callback given that value (check it: it comes
    from the browser). A mode whose time axis is its own (no `view.run`) names "t" there to hear
    the iteration the visitor stopped at. `state` (small, JSON-ready) goes in every header, for
    what a mode shows that changes between reruns without changing the payload (e.g. the hand
    being played). `whole_sets`: this page redraws a node's information set whole when the inspector
    asks (`WHOLE_SET_KEY`), so the inspector offers it (the Game tree; no file or other page can).
    `locks`: this page opens a lock editor for a node's set when the tree sends "lockSet" (its L key);
    the CSS selector of that editor's element ("{set}" the set's index), so the inspector offers
    "Lock this set" and, after L, the keyboard focus moves to the editor's first control.

    "Interactive page (.html)" (the view on screen as one file) is offered for the modes the file can
    hold (`FILE_MODES`): its header records the run's settings, or `file_about` for a page without a
    run (its own settings, and "page": the view's name); a key there also overrides the run's.
    """
    from cfrviz import app as ui

    if mode not in tuple(TimelineMode):
        raise ValueError(f"The timeline has no mode {mode!r}; it has {', '.join(TimelineMode)}.")
    run: Run | None = view.run
    include = None
    if run is not None:
        # A linked t that is not a frame gets its own frame (only then: the cache stays warm).
        shown_snapshot = int(run.snapshot_at(view.t))
        if shown_snapshot not in set(frame_snapshots(run.iterations).tolist()):
            include = shown_snapshot
    payload_id, body = payload_bytes(view.tree, run, nodes, uploaded=view.uploaded,
                                     arrangements=arrangements, include=include, extra=extra)
    kind_key = kind_key or f"{_KINDS}_{key}"
    chosen = checked_kind(st.session_state.get(kind_key)) or EDGE_WIDTHS[0]
    # The browser already shows what it reported itself: then the last header goes again, so the
    # data is unchanged and the payload is not sent a second time.
    wanted = {"id": payload_id, "t": view.t, "node": view.node, "kind": chosen, "mode": mode, "focus": list(focus),
              "log": log, **({} if state is None else {"state": state}),
              **({"wholeSets": True} if whole_sets else {}), **({} if locks is None else {"locks": locks})}
    headers = st.session_state.setdefault(_HEADERS, {})
    shown = st.session_state.setdefault(_SHOWN, {})
    header = next_header(headers.get(key), wanted, shown.get(key), mounted=key in st.session_state)
    if header is wanted:
        shown[key] = {"t": view.t, "node": view.node, "kind": chosen}
    headers[key] = header
    iterations = tuple(int(i) for i in run.iterations) if run is not None else ()
    tree = view.tree
    # Typed Any: the renderer's keyword arguments are typed one by one, the on_*_change ones loosely.
    mode_events: dict[str, Any] = {f"on_{name}_change": _event(key, name, callback)
                                   for name, callback in (events or {}).items()}
    callbacks: dict[str, Any] = {
        "on_t_change": lambda: _on_t(key, iterations, ui.T_KEY),
        "on_node_change": lambda: _on_node(key, tree, ui.NODE_KEY),
        "on_wholeSet_change": lambda: _on_node(key, tree, ui.NODE_KEY, "wholeSet"),
        "on_kind_change": lambda: _on_kind(key, kind_key),
        # A mode whose time axis is not a run's (no `view.run`) hears t itself, through `events`.
        **mode_events,
    }
    _component(key=key, data=component_data(payload_id, body, {k: v for k, v in header.items() if k != "id"}),
               **callbacks)
    first_drawing_sent()      # the compiling warm-up waited for this (cfrviz.app.solving)
    about = settings_of(run) if run is not None else file_about
    # Play in a file deals from the whole tree: a game drawn in parts (`nodes`) plays in the app only.
    if about is not None and mode in FILE_MODES and not (mode == TimelineMode.PLAY and nodes is not None):
        # The view on screen as one HTML file; a callable, so the page is built only when clicked.
        page_header = {"id": payload_id, **{k: v for k, v in header.items() if k != "id" and k not in _APP_ONLY}}
        file_about = {**about, **(file_about or {})}
        st.download_button("Interactive page (.html)",
                           data=functools.partial(page_bytes, body, page_header, file_about, view.tree.game.title),
                           file_name=f"cfrviz-{_slug(view.tree.game.title)}-{mode}-t{header.get('t')}.html",
                           mime="text/html", on_click="ignore", key=f"{key}_html",
                           help="This timeline as one file that opens in any browser, offline: scrub, play, "
                                "click nodes and export SVG or PNG there too.")
    return chosen


# Header keys for what only the app's page can do (draw a set whole, open a lock editor): a file drops them.
_APP_ONLY = ("wholeSets", "locks")


def _slug(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-") or "game"


def _event(key: str, name: str, callback: Callable[[Any], None]) -> Callable[[], None]:
    def heard() -> None:
        value = (st.session_state.get(key) or {}).get(name)
        callback(value)
        if name in BROWSER_VALUES:   # the browser shows it already: the next header need not resend it
            _shown(key, **{name: value})
    return heard
