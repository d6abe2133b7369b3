"""The site's data: one file per run and view, each the timeline's payload exactly as the app builds
it for the same settings (`cfrviz.figures.timeline.build_payload` with the same drawn part, frames
and mode data), wrapped as a script so a page can load it from disk (`file://` forbids `fetch`).

A data file is `cfrvizData("<its path>", String.raw`<payload JSON>`)`. The JSON's backticks and
dollar signs (only ever inside its strings) are written as \\u escapes, which JSON.parse reads back;
nothing else is changed, so `payload_text` gives back the app's bytes.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


from cfrviz.analysis.reference import game_value
from cfrviz.figures.best_response_frames import best_response_frames, frames_with
from cfrviz.figures.drawn import is_drawn_whole
from cfrviz.figures.html_page import timeline_view
from cfrviz.figures.timeline import build_payload, encode_payload, lock_comparison
from cfrviz.figures.walkthrough import first_part, walkthrough_payload
from cfrviz.run import Run
from cfrviz.teaching import walkthrough
from cfrviz.tree import GameTree
from cfrviz.tree import parts as tree_parts
from cfrviz.util.vocabulary import Algorithm, Player

#: The Evolution page draws every set's bars up to this many sets, as the app does (pages/2_Evolution.py).
PLAYBACK_ALL = 40
#: The first sets an Evolution page follows when none is chosen (the app's multiselect default).
FIRST_FOCUS = 2


@dataclass(frozen=True)
class Part:
    """One drawn part of a tree view: its label, its nodes (None: the whole tree) and how it is arranged."""

    label: str
    nodes: tuple[int, ...] | None
    arrangements: tuple[int, ...]


def tree_parts_of(tree: GameTree) -> tuple[Part, ...]:
    """The parts the Game tree and Best response pages are built for: the whole tree when it is drawn
    whole (arranged by either player's cards where it has them, as the app's Game tree), otherwise
    the first betting round by each of player 1's private cards (the app's first parts)."""
    if is_drawn_whole(tree):
        return (Part("the whole tree", None, (0, 1) if tree_parts.card_view(tree) else (0,)),)
    if not tree_parts.card_view(tree):
        options = tree_parts.parts(tree, "subtree")[:3]
        return tuple(Part(f"below {tree.node_label[int(p.root or 0)]}", tuple(tree_parts.part_nodes(tree, p).tolist()),
                          (0,)) for p in options)
    firsts = [p for p in tree_parts.parts(tree) if p.line is None and p.by == Player.FIRST]
    return tuple(Part(tree_parts.label_of(tree, p), tuple(tree_parts.part_nodes(tree, p).tolist()), (int(Player.FIRST),))
                 for p in firsts)


def evolution_sets(tree: GameTree) -> tuple[list[int], list[str]]:
    """(drawn nodes, focused keys) of the Evolution page's first view, as the app draws it: one history
    of every set when there are at most PLAYBACK_ALL sets, otherwise of the first sets only; the
    first FIRST_FOCUS sets' curves."""
    keys = [record.key for record in tree.infosets]
    focus = keys[:FIRST_FOCUS]
    shown = range(tree.num_infosets) if tree.num_infosets <= PLAYBACK_ALL else range(len(focus))
    return [int(tree.nodes_of(i)[0]) for i in shown], focus


def tree_payload(run: Run, part: Part, unlocked: Run | None = None) -> dict[str, Any]:
    """The Game tree's payload of `part` (with the ringed sets of a locked run against `unlocked`)."""
    extra = None if unlocked is None else lock_comparison(run, unlocked, part.nodes)
    return build_payload(run.tree, run, part.nodes, arrangements=part.arrangements, extra=extra)


def best_response_payload(run: Run, part: Part) -> dict[str, Any]:
    """The Best response page's payload of `part`, its frames' best responses computed once (at the
    last iteration's frames, as the page mounts it without a linked t)."""
    tree = run.tree
    snapshots = frames_with(run, int(run.iterations[-1]))
    extra = best_response_frames(tree, run, snapshots, part.nodes, game_value(tree, run.settings.spec))
    return build_payload(tree, run, part.nodes, arrangements=part.arrangements, extra=extra)


def charts_payload(run: Run) -> dict[str, Any]:
    """The charts' payload (Home's exploitability, Convergence): no drawn node."""
    return build_payload(run.tree, run, [])


def sets_payload(run: Run, nodes: Sequence[int]) -> dict[str, Any]:
    """The Evolution page's strategy bars of the sets of `nodes`."""
    return build_payload(run.tree, run, nodes)


def walk_payload(tree: GameTree, algorithm: Algorithm, updates: str, t: int, deal: str | None, seed: int) -> dict[str, Any]:
    """The Walkthrough's payload of iteration `t`, replayed from the solver's state before it, as the
    app's page replays it (`cfrviz.app.page_results.walkthrough_trace`)."""
    state = walkthrough.solver_state(tree, algorithm, updates, seed, t)
    # Chance sampling draws from the solver's own generator, as the page does.
    trace = walkthrough.trace_iteration(tree, state.cumulative_regret, state.strategy_sum, prediction=state.prediction,
                                        algorithm=algorithm, updates=updates, iteration=t, deal=deal, rng=state.rng)
    return build_payload(trace.tree, None, first_part(trace), extra=walkthrough_payload(trace))


def data_script(name: str, payload: dict[str, Any]) -> tuple[str, str]:
    """(payload id, the data file's text) of `payload`, registered under `name` (its path in the site)."""
    payload_id, body = encode_payload(payload)
    return payload_id, body_script(name, body)


def body_script(name: str, body: bytes) -> str:
    """The data file's text of an encoded payload `body` (`encode_payload`), registered under `name`."""
    text = body.decode("utf-8").replace("`", "\\u0060").replace("$", "\\u0024")
    return f"cfrvizData({_js_string(name)}, String.raw`{text}`);\n"


def regret_matching_view(run: Run) -> tuple[bytes, dict[str, Any]]:
    """(body, header) of the Regret matching page for a matrix-game run: the HTML file's view
    (`timeline_view(run, "regret_matching")`: the run's own path, self-play), at its last iteration."""
    body, header, _ = timeline_view(run, "regret_matching")
    return body, header


def play_view(run: Run) -> tuple[bytes, dict[str, Any]]:
    """(body, header) of the Play page for a run whose tree is drawn whole: the HTML file's view
    (`timeline_view(run, "play")`: every frame's average strategy and EV losses), at its last iteration."""
    body, header, _ = timeline_view(run, "play")
    return body, header


def payload_text(script: str) -> str:
    """The payload JSON a data file holds (the inverse of `data_script`'s wrapping; escapes stay escapes)."""
    start = script.index("String.raw`") + len("String.raw`")
    return script[start:script.rindex("`")]


def _js_string(text: str) -> str:
    import json

    return json.dumps(text).replace("<", "\\u003c")
