"""The notebook widget (`cfrviz.widget.Timeline`) without a browser: its traits and its payload.

References: the HTML file's view of the same run, t and node (`cfrviz.figures.html_page.timeline_view`,
whose payload `cfrviz.figures.timeline.build_payload` builds: the app's component gets those bytes
too); the run's recorded iterations for what t may be; `cfrviz.tree.parts.part_of` for the part that
holds a node; the walkthrough's trace (`cfrviz.teaching.walkthrough`) for its steps; ipywidgets'
wire format (a `bytes` trait travels as a binary buffer, the front end's changes arrive through
`set_state`).
"""
from __future__ import annotations

import json
import re

import ipywidgets
import pytest
import traitlets

import cfrviz
from cfrviz.figures.html_page import HTML_VIEWS, timeline_view
from cfrviz.figures.timeline import build_payload, encode_payload, frame_snapshots
from cfrviz.teaching import walkthrough
from cfrviz.tree import parts as tree_parts
from cfrviz.widget import Timeline

# The solve behind `kuhn_run` (tests/unit/conftest.py) for this module's tests.
pytestmark = pytest.mark.kuhn_run(iterations=200, updates="simultaneous")

VIEW_KEYS = ("t", "node", "kind")   # the header values the traits give; the rest is the payload's


def _fixed(header: dict) -> dict:
    return {k: v for k, v in header.items() if k not in VIEW_KEYS}


def test_the_widget_mounts_what_the_html_file_mounts(kuhn_run) -> None:
    widget = Timeline(kuhn_run, view="tree", t=40, node=7)
    body, header, _ = timeline_view(kuhn_run, "tree", t=40, node=7)
    assert widget._payload == body
    assert json.loads(widget._payload) == json.loads(encode_payload(build_payload(kuhn_run.tree, kuhn_run, None))[1])
    assert widget._header == _fixed(header)
    assert (widget.t, widget.node, widget.kind) == (40, 7, "average")
    assert widget.frames == tuple(int(kuhn_run.iterations[s]) for s in frame_snapshots(kuhn_run.iterations))


@pytest.mark.parametrize("view", [v for v in HTML_VIEWS if v != "regret_matching"])   # a matrix game's: below
def test_every_view_of_the_html_file_is_a_widget(kuhn_run, view: str) -> None:
    widget = Timeline(kuhn_run, view=view)
    body, header, _ = timeline_view(kuhn_run, view)
    assert widget._header == _fixed(header) and widget._header["mode"] == str(HTML_VIEWS[view])
    assert widget._payload == body
    if view == "walkthrough":
        # Iteration 1's trace by default, as the file; the slider steps through its steps.
        state = walkthrough.solver_state(kuhn_run.tree, "cfr", kuhn_run.settings.updates, 0, 1)
        steps = walkthrough.trace_iteration(kuhn_run.tree, state.cumulative_regret, state.strategy_sum,
                                            prediction=state.prediction, algorithm="cfr",
                                            updates=kuhn_run.settings.updates, iteration=1, rng=state.rng).steps
        assert widget.t == 1 and widget.step == 1 and widget.frames == tuple(range(1, len(steps) + 1))
        assert widget._host_keys["t"] == widget._host_keys["walk_step"] == "step"
    else:
        assert widget.t == 200 and widget._host_keys["t"] == "t"


def test_the_payload_travels_as_a_binary_buffer_and_the_rest_as_json(kuhn_run) -> None:
    widget = Timeline(kuhn_run, t=40)
    state, _, buffers = ipywidgets.widgets.widget._remove_buffers(widget.get_state())
    assert "_payload" not in state and [bytes(b) for b in buffers] == [widget._payload]
    json.dumps(state)   # everything else is plain JSON
    assert {"t", "node", "kind", "step", "_header", "_host_keys"} <= set(state)


@pytest.mark.parametrize(("trait", "value", "words"), [
    ("t", 0, "t=0 is not a recorded iteration"), ("t", 201, "t=201"), ("t", 2.5, "expected an int, not the float 2.5"),
    ("node", 55, "node=55 is not a node of Kuhn poker (0 to 54)"), ("node", -1, "node=-1"),
    ("kind", "regret", "'average' or 'current'"), ("step", 2, "step=2 is not a step")])
def test_a_value_the_run_does_not_have_is_refused_with_a_sentence(kuhn_run, trait: str, value, words: str) -> None:
    widget = Timeline(kuhn_run, t=40, node=7)
    before = getattr(widget, trait)
    with pytest.raises(traitlets.TraitError, match=re.escape(words)):
        setattr(widget, trait, value)
    assert getattr(widget, trait) == before


def test_an_unknown_view_or_a_bad_start_is_refused(kuhn_run) -> None:
    with pytest.raises(ValueError, match="no view 'poker'"):
        Timeline(kuhn_run, view="poker")
    with pytest.raises(ValueError, match=re.escape("t=999")):
        Timeline(kuhn_run, t=999)
    with pytest.raises(ValueError, match=re.escape("node=99")):
        Timeline(kuhn_run, node=99)


def test_what_the_page_reports_sets_the_traits(kuhn_run) -> None:
    # As the kernel applies a comm message from the front end (a key press, a click, a radio).
    widget = Timeline(kuhn_run, t=40)
    seen: list[tuple[str, object]] = []
    widget.observe(lambda change: seen.append((change["name"], change["new"])), names=["t", "node", "kind"])
    widget.set_state({"t": 41})
    widget.set_state({"node": 7})
    widget.set_state({"kind": "current"})
    assert (widget.t, widget.node, widget.kind) == (41, 7, "current")
    assert seen == [("t", 41), ("node", 7), ("kind", "current")]


def test_an_iteration_between_frames_is_added_to_the_drawing() -> None:
    # 1,000 snapshots: the drawing holds 300 frames (frame_snapshots), so t=500 is not one of them
    # until asked for, when the payload is the app's with that snapshot included.
    run = cfrviz.solve("kuhn", "cfr", iterations=1000)
    widget = Timeline(run)
    t = 500
    snapshot = int(run.snapshot_at(t))
    assert int(run.iterations[snapshot]) == t and t not in widget.frames
    widget.t = t
    assert t in widget.frames
    payload = json.loads(widget._payload)
    assert payload == json.loads(encode_payload(build_payload(run.tree, run, None, include=snapshot))[1])
    assert widget._header["id"] == encode_payload(payload)[0]


def test_a_node_in_another_part_of_leduc_draws_that_part() -> None:
    run = cfrviz.solve("leduc", "cfr", iterations=20)
    widget = Timeline(run, view="tree", node=40)
    first = tree_parts.part_of(run.tree, 40)
    assert set(json.loads(widget._payload)["nodes"]["id"]) == set(tree_parts.part_nodes(run.tree, first).tolist())
    other = next(n for n in range(run.tree.num_nodes) if tree_parts.part_of(run.tree, n) != first
                 and run.tree.infoset[n] >= 0)
    widget.node = other
    assert widget._payload == timeline_view(run, "tree", node=other)[0]
    # Another t keeps the part on screen.
    widget.node = None
    widget.t = int(run.iterations[3])
    assert widget._payload == timeline_view(run, "tree", t=int(run.iterations[3]), node=other)[0]


def test_the_exploiter_chosen_in_the_page_stays_through_a_new_part() -> None:
    run = cfrviz.solve("leduc", "cfr", iterations=20)
    widget = Timeline(run, view="best_response", node=40)
    assert widget._header["state"] == {"exploiter": 1}
    widget.set_state({"_header": {**widget._header, "state": {"exploiter": 2}}})   # the page's choice
    other = next(n for n in range(run.tree.num_nodes) if tree_parts.part_of(run.tree, n) != tree_parts.part_of(run.tree, 40)
                 and run.tree.infoset[n] >= 0)
    widget.node = other
    assert widget._payload == timeline_view(run, "best_response", node=other)[0]
    assert widget._header["state"] == {"exploiter": 2}


def test_the_walkthroughs_t_is_the_iteration_walked_through(kuhn_run) -> None:
    widget = Timeline(kuhn_run, view="walkthrough", t=3)
    widget.step = 5
    widget.t = 7
    assert widget._payload == timeline_view(kuhn_run, "walkthrough", t=7)[0]
    assert widget.step == 5
    with pytest.raises(traitlets.TraitError, match=re.escape("t=201 is not an iteration of this run (1 to 200)")):
        widget.t = 201
    with pytest.raises(traitlets.TraitError, match="step=0"):
        widget.step = 0


def test_the_regret_matching_widget_steps_through_its_own_path() -> None:
    # Reference: the HTML file's regret-matching view of the same run (`timeline_view`), whose frames
    # are the path's; an iteration between frames is added, as a link's t is on the page.
    run = cfrviz.solve("rps", "rm", iterations=20_000, seed=1)
    widget = Timeline(run, view="regret_matching", t=40)
    body, header, _ = timeline_view(run, "regret_matching", t=40)
    assert widget._payload == body and widget._header == _fixed(header)
    assert widget.frames == tuple(json.loads(body)["extra"]["frames"]) and widget.t == 40
    between = next(t for t in range(40, 20_000, 4) if t not in widget.frames)
    widget.t = between
    assert between in widget.frames and widget._payload == timeline_view(run, "regret_matching", t=between)[0]
    with pytest.raises(traitlets.TraitError, match="t=20001"):
        widget.t = 20_001


def test_the_play_widget_carries_the_hand_host(kuhn_run) -> None:
    # Reference: the HTML file's play host (PLAY_HOST), which deals in the page; the header's state
    # starts with no hand.
    from cfrviz.figures.html_play import PLAY_HOST
    widget = Timeline(kuhn_run, view="play")
    assert PLAY_HOST in widget._esm and "playHost(" in widget._esm.split(PLAY_HOST)[1]
    assert widget._header["state"] == {"seat": 0, "pending": None, "decisions": [], "path": None}
