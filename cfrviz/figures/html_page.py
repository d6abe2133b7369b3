"""The browser timeline as one self-contained HTML file: script, style and data inline, no request
to any server, opens from disk.

A small host adapter in the file plays Streamlit's part: it calls the timeline's mount function
with the data (header line + payload, as `component_data` builds them) and keeps what the timeline
reports (t, node, edge widths) in the page itself and in the URL fragment (`#t=40&node=7`), which
also opens a view. Text that came from a game (labels, titles) reaches the page only as escaped
JSON or escaped HTML, never as markup.
"""
from __future__ import annotations

import html
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any


from cfrviz.analysis.reference import game_value
from cfrviz.figures.best_response_frames import best_response_frames, frames_with
from cfrviz.figures.drawn import is_drawn_whole
from cfrviz.figures.html_play import PLAY_HOST, PLAY_STYLE
from cfrviz.util.version import VERSION
from cfrviz.figures.timeline import (EDGE_WIDTHS, TimelineMode, build_payload, checked_iteration, checked_node,
                                     encode_payload, frame_snapshots)
from cfrviz.figures.timeline_code import timeline_script, timeline_source
from cfrviz.run import Run
from cfrviz.tree import parts as tree_parts
from cfrviz.util.vocabulary import DECISION_PLAYERS, Player, player_number

#: The views `save_html` writes: those built from the run alone, by the page they come from.
HTML_VIEWS: dict[str, TimelineMode] = {
    "tree": TimelineMode.TREE,                    # Game tree
    "evolution": TimelineMode.SETS,               # Evolution: every set's strategy bars
    "charts": TimelineMode.CHARTS,                # Evolution with no set chosen
    "convergence": TimelineMode.CHARTS,           # Convergence (log slider)
    "exploitability": TimelineMode.EXPLOITABILITY,   # Home
    "best_response": TimelineMode.BEST_RESPONSE,  # Best response (the exploiter: player 1)
    "walkthrough": TimelineMode.WALKTHROUGH,      # Walkthrough of iteration t, from the solver's state
    "regret_matching": TimelineMode.REGRET_MATCHING,  # Regret matching on the run's matrix game
    "play": TimelineMode.PLAY,                    # Play against the strategy at t (games drawn whole)
}
_LOG_VIEWS = ("convergence", "exploitability", "regret_matching")
#: The views where a node of the run's tree can be selected (the others draw no tree, or choose their own node).
NODE_VIEWS = tuple(view for view, mode in HTML_VIEWS.items()
                   if mode in (TimelineMode.TREE, TimelineMode.BEST_RESPONSE, TimelineMode.PLAY))

# Nothing is fetched: this policy blocks every request the file could make (images and videos the
# page draws itself are data: and blob: URLs).
_POLICY = ("default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
           "img-src data: blob:; media-src blob:")

# The host adapter: the view starts from the header, then the URL fragment; what the timeline
# reports is kept here and written back to the fragment (so a reload or a copied address keeps it).
# A fragment names the whole view as toFragment writes it, so a link opens the same view in a fresh
# tab and in this one: no t or kind is the file's own, no node is none (an empty fragment: the
# file's view). A changed fragment asks the timeline for that view (the header's `ask`): `#t=5`
# after a click clears the clicked node.
_ADAPTER = """
const readJson = (id) => JSON.parse(document.getElementById(id).textContent);
const start = readJson("cfrviz-view");
const body = document.getElementById("cfrviz-payload").textContent;
const view = { ...start.header, ask: 0 };
const reported = {};
const whole = (text) => /^[0-9]+$/.test(text ?? "") ? Number(text) : undefined;
function fromFragment() {
  const text = location.hash.slice(1), asked = new URLSearchParams(text);
  const t = whole(asked.get("t")), node = whole(asked.get("node")), kind = asked.get("kind");
  view.t = t ?? start.header.t;
  view.node = text ? node ?? null : start.header.node;
  view.kind = kind === "average" || kind === "current" ? kind : start.header.kind;
}
function toFragment() {
  const parts = [];
  if (view.t !== null && view.t !== undefined) parts.push(`t=${view.t}`);
  if (view.node !== null && view.node !== undefined) parts.push(`node=${view.node}`);
  if (view.kind && view.kind !== start.header.kind) parts.push(`kind=${view.kind}`);
  history.replaceState(null, "", "#" + parts.join("&"));
}
function heard(name, value) {
  reported[name] = value;
  if (name === "t" || name === "node" || name === "kind") { view[name] = value; toFragment(); }
  // A mode's own state (the best response's exploiter): the server would send it back; here the page does.
  else if (view.state && name in view.state) { view.state = { ...view.state, [name]: value }; show(view); }
}
const encoder = new TextEncoder();
const element = document.getElementById("cfrviz-timeline");
function show(header) {
  mountTimeline({ key: "timeline", data: encoder.encode(JSON.stringify(header) + "\\n" + body),
                  parentElement: element, setStateValue: heard, setTriggerValue: heard });
}
fromFragment();
// A file saved from the app's Play page starts with no hand: its hands are played here.
if (view.mode === "play") {
  view.state = { seat: 0, pending: null, decisions: [], path: null };
  playHost(() => body, element, () => view.t, (state) => { view.state = state; show(view); });
}
show(view);
requestAnimationFrame(() => performance.mark("cfrviz-first-picture"));
// The reader's colour scheme changed: the page's background did, and the timeline follows it.
matchMedia("(prefers-color-scheme: dark)").addEventListener("change", () => show(view));
window.addEventListener("hashchange", () => {
  fromFragment();
  view.ask += 1;
  show(view);
});
window.cfrvizReported = reported;
"""

# The page follows the reader's colour scheme (Streamlit's light and dark colours); the timeline
# then takes its palette from the body's background (theme.js).
_PAGE_STYLE = """
:root { color-scheme: light dark; }
body { margin: 0 auto; padding: 12px 16px; max-width: 1400px; background: #fff;
       font-family: "Source Sans Pro", system-ui, sans-serif; color: #31333f; }
.cfrviz-about { margin: 0 0 10px; }
.cfrviz-about h1 { font-size: 1.3rem; margin: 0 0 2px; }
.cfrviz-about p { margin: 0; font-size: 0.85rem; color: #555; }
@media (prefers-color-scheme: dark) {
  body { background: #0e1117; color: #fafafa; }
  .cfrviz-about p { color: #b4b8c5; }
}
"""


def version() -> str:
    """cfrviz's version (`cfrviz.util.version`, the package metadata's source too)."""
    return VERSION


def _script_json(value: Any) -> str:
    """JSON that is safe inside a <script> element: `<`, `>` and `&` as \\u escapes, so no text in
    it can close the element or open a comment."""
    text = value if isinstance(value, str) else json.dumps(value, separators=(",", ":"), allow_nan=False)
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


def _comment_text(text: str) -> str:
    """Text that cannot end an HTML comment (no `--`, `<` or `>`)."""
    return _script_json(text).replace("--", "-\\u002d")


def settings_of(run: Run) -> dict[str, str]:
    """The run's settings, as the file's header records them."""
    s = run.settings
    about = {"game": s.spec.title, "game name": s.spec.name,
             "game settings": ", ".join(f"{k}={v}" for k, v in dict(s.spec.params).items()) or "none",
             "algorithm": str(s.algorithm), "iterations": f"{s.iterations}", "updates": str(s.updates),
             "seed": f"{s.seed}", "snapshots": f"{run.num_snapshots}"}
    if s.locks:
        about["locks"] = s.locks.text()
    return about


def page_text(body: bytes, header: Mapping[str, Any], about: Mapping[str, str], title: str) -> str:
    """The HTML file: `body` (an encoded payload, `encode_payload`), `header` (what the component's
    header line holds: id, t, node, kind, mode, focus, log, state) and `about` (settings shown in
    the file's header comment and its visible line)."""
    script = timeline_script()
    made = version()
    shown = {name: "none" if header.get(name) is None else str(header.get(name)) for name in ("mode", "t", "node")}
    recorded = {"cfrviz": made, **about, "view": shown["mode"], "t": shown["t"], "node": shown["node"],
                "edge widths": str(header.get("kind"))}
    comment = "\n".join(f"  {_comment_text(k)}: {_comment_text(v)}" for k, v in recorded.items())
    # The visible line: the view written first (the page's words, not the mode's), then what is not in
    # the title already; settings the game has none of are left out.
    # The walkthrough's slider steps through one iteration's trace: its t is a step.
    first = {"view": about.get("page", shown["mode"]), ("step" if shown["mode"] == "walkthrough" else "t"): shown["t"],
             **({} if header.get("node") is None else {"node": shown["node"]})}
    rest = {k: v for k, v in recorded.items()
            if k not in ("game", "game name", "page", "view", "t", "node") and not (k == "game settings" and v == "none")}
    visible = " · ".join(f"{k} {v}" for k, v in {**first, **rest}.items())
    return f"""<!DOCTYPE html>
<!--
cfrviz interactive timeline: one file, script, style and data inline, nothing fetched.
Open it in a browser; #t=40&node=7 at the end of its address opens that iteration and node.
{comment}
-->
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta http-equiv="Content-Security-Policy" content="{_POLICY}">
<meta name="generator" content="cfrviz {html.escape(made)}">
<title>{html.escape(title)} · cfrviz</title>
<style>{_PAGE_STYLE}{PLAY_STYLE}</style>
<style>{timeline_source(".css")}</style>
</head>
<body>
<header class="cfrviz-about"><h1>{html.escape(title)}</h1>
<p data-testid="cfrviz-settings">{html.escape(visible)}</p></header>
<main id="cfrviz-timeline"></main>
<script type="application/json" id="cfrviz-view">{_script_json({"header": dict(header)})}</script>
<script type="application/json" id="cfrviz-payload">{_script_json(body.decode("utf-8"))}</script>
<script type="module">
{script}
{PLAY_HOST}
{_ADAPTER}
</script>
</body>
</html>
"""


def html_text(run: Run, view: str = "tree", t: int | None = None, node: int | None = None,
              nodes: Sequence[int] | None = None) -> str:
    """The HTML file of `run`'s timeline in `view` (one of `HTML_VIEWS`), opened at iteration `t`
    (default the last) and node `node`. The tree views draw `nodes`, by default the whole tree when
    it fits on screen, otherwise the part holding `node` (or the first part).
    ValueError for an unknown view, or a t or node the run does not have."""
    body, header, page = timeline_view(run, view, t=t, node=node, nodes=nodes)
    return page_text(body, header, {**settings_of(run), "page": page}, run.tree.game.title)


def timeline_view(run: Run, view: str = "tree", t: int | None = None, node: int | None = None,
                  nodes: Sequence[int] | None = None) -> tuple[bytes, dict[str, Any], str]:
    """What a home other than Streamlit mounts the timeline with for `html_text`'s arguments (the
    HTML file, the notebook widget): (body, header, page): the encoded payload, the header line's
    values, and the page's name as the file records it. ValueError as `html_text`."""
    if view not in HTML_VIEWS:
        raise ValueError(f"The HTML file has no view {view!r}; it has {', '.join(HTML_VIEWS)}.")
    tree, mode = run.tree, HTML_VIEWS[view]
    if mode == TimelineMode.WALKTHROUGH:
        return _walkthrough_view(run, 1 if t is None else t)
    if mode == TimelineMode.REGRET_MATCHING:
        return _regret_matching_view(run, t)
    if mode == TimelineMode.PLAY and not is_drawn_whole(tree):
        raise ValueError(f"Play in a file deals from the whole tree, and {tree.game.title} is too big to draw "
                         "whole; play it in the app.")
    if t is None:
        t = int(run.iterations[-1])
    if checked_iteration(t, run.iterations) is None:
        raise ValueError(f"t={t} is not a recorded iteration of this run (1 to {int(run.iterations[-1])}, "
                         f"as recorded in {run.num_snapshots} snapshots).")
    if node is not None and checked_node(node, tree) is None:
        raise ValueError(f"node={node} is not a node of {tree.game.title} (0 to {tree.num_nodes - 1}).")
    arrangements: tuple[int, ...] = (0,)
    drawn: list[int] | None = None if nodes is None else sorted({int(n) for n in nodes})
    focus: list[str] = []
    extra: Any = None
    state: Any = None
    if mode in (TimelineMode.TREE, TimelineMode.BEST_RESPONSE) and nodes is None and not is_drawn_whole(tree):
        part = tree_parts.part_of(tree, node) if node is not None else tree_parts.parts(tree)[0]
        drawn = tree_parts.part_nodes(tree, part).tolist()
        if isinstance(part.by, Player):
            arrangements = (int(part.by),)
    elif mode == TimelineMode.SETS:
        drawn = [int(tree.nodes_of(i)[0]) for i in range(tree.num_infosets)]
    elif mode in (TimelineMode.CHARTS, TimelineMode.EXPLOITABILITY):
        drawn = []
    elif mode == TimelineMode.PLAY:
        arrangements = (0, 1) if tree_parts.card_view(tree) else (0,)
    shown = int(run.snapshot_at(t))
    include = None if shown in set(frame_snapshots(run.iterations).tolist()) else shown
    if mode == TimelineMode.BEST_RESPONSE:
        extra = best_response_frames(tree, run, frames_with(run, t), None if drawn is None else tuple(drawn),
                                     game_value(tree, run.settings.spec))
        state = {"exploiter": player_number(Player.FIRST)}
    if mode == TimelineMode.PLAY:
        from cfrviz.figures.play import play_extra
        extra = play_extra(tree, run, None, DECISION_PLAYERS, include)
        state = {"seat": int(Player.FIRST), "pending": None, "decisions": [], "path": None}
    payload_id, body = encode_payload(build_payload(tree, run, drawn, arrangements=arrangements, include=include,
                                                    extra=extra))
    header: dict[str, Any] = {"id": payload_id, "t": t, "node": node, "kind": EDGE_WIDTHS[0], "mode": str(mode),
                              "focus": focus, "log": view in _LOG_VIEWS}
    if state is not None:
        header["state"] = state
    return body, header, view


def _walkthrough_view(run: Run, t: int) -> tuple[bytes, dict[str, Any], str]:
    """The walkthrough of iteration `t` of the run's settings (its algorithm, updates and seed; chance
    sampling deals what the solver's own generator dealt in iteration t), replayed from the real solver's
    state before it; the file opens at step 1."""
    from cfrviz.figures.walkthrough import first_part, walkthrough_payload
    from cfrviz.teaching import walkthrough

    s = run.settings
    if isinstance(t, bool) or not isinstance(t, int) or not 1 <= t <= s.iterations:
        raise ValueError(f"t={t} is not an iteration of this run (1 to {s.iterations}).")
    tree = run.tree
    state = walkthrough.solver_state(tree, s.algorithm, s.updates, s.seed, t)
    trace = walkthrough.trace_iteration(tree, state.cumulative_regret, state.strategy_sum, prediction=state.prediction,
                                        algorithm=s.algorithm, updates=s.updates, iteration=t, rng=state.rng)
    payload_id, body = encode_payload(build_payload(trace.tree, None, first_part(trace),
                                                    extra=walkthrough_payload(trace)))
    header: dict[str, Any] = {"id": payload_id, "t": 1, "node": None, "kind": EDGE_WIDTHS[0],
                              "mode": str(TimelineMode.WALKTHROUGH), "focus": [], "log": False}
    return body, header, f"walkthrough of iteration {t}"


def _regret_matching_view(run: Run, t: int | None) -> tuple[bytes, dict[str, Any], str]:
    """Regret matching on the run's matrix game, self-play, for the run's iterations, updates and seed:
    sampled actions for a regret-matching run (as its solver samples, so the path is the run's own),
    expected values otherwise; the targets are the exact equilibrium. ValueError for a game that is
    not a matrix game, or a t outside 1 to the run's iterations."""
    from cfrviz.analysis import matrix_equilibrium
    from cfrviz.figures.regret_matching import index_of_iteration, linked_point, regret_matching_payload
    from cfrviz.solvers.matrix import matrix_payoffs, regret_matching_path
    from cfrviz.util.vocabulary import Algorithm

    s, tree = run.settings, run.tree
    payoffs = matrix_payoffs(tree)
    every = max(1, s.iterations // _RM_POINTS)
    path = regret_matching_path(payoffs, s.iterations, sampled=s.algorithm == Algorithm.REGRET_MATCHING,
                                seed=s.seed, updates=s.updates, every=every)
    last = int(path.iterations[-1])
    if t is None:
        t = last
    if isinstance(t, bool) or not isinstance(t, int) or not 1 <= t <= last:
        raise ValueError(f"t={t} is not an iteration of this regret-matching path (1 to {last}).")
    shown = int(path.iterations[index_of_iteration(path.iterations, t)])
    names = [list(tree.infosets[int(tree.infoset[n])].actions) for n in (0, int(tree.first_child[0]))]
    row_eq, column_eq, _ = matrix_equilibrium(payoffs)
    extra = regret_matching_payload(path, names[0], names[1], [row_eq, column_eq], "equilibrium",
                                    fixed_opponent=False, include=linked_point(path.iterations, t))
    payload_id, body = encode_payload(build_payload(tree, None, [], extra=extra))
    header: dict[str, Any] = {"id": payload_id, "t": shown, "node": None, "kind": EDGE_WIDTHS[0],
                              "mode": str(TimelineMode.REGRET_MATCHING), "focus": [], "log": True}
    return body, header, "regret matching"


# Recorded points of the file's regret-matching path (the Regret matching page keeps as many).
_RM_POINTS = 5_000

#: The timeline modes whose payload holds all the file needs (the others ask the server as they go).
FILE_MODES = (TimelineMode.TREE, TimelineMode.CHARTS, TimelineMode.EXPLOITABILITY, TimelineMode.SETS,
              TimelineMode.BEST_RESPONSE, TimelineMode.WALKTHROUGH, TimelineMode.REGRET_MATCHING, TimelineMode.PLAY)


def page_bytes(body: bytes, header: Mapping[str, Any], about: Mapping[str, str], title: str) -> bytes:
    """The HTML file of a payload already built for the app (`body` and `header` as the component is
    mounted with them), so the file shows exactly the view on screen; `about` as `page_text` (a
    run's `settings_of`, or a page's own settings, with "page": the view's name) and the page's title."""
    return page_text(body, header, {"page": str(header.get("mode")), **about}, title).encode("utf-8")


def save_html(run: Run, path: str | Path, view: str = "tree", t: int | None = None, node: int | None = None,
              nodes: Sequence[int] | None = None) -> Path:
    """Write `run`'s timeline as one self-contained HTML file (`html_text`); returns the path."""
    target = Path(path)
    target.write_text(html_text(run, view, t=t, node=node, nodes=nodes), encoding="utf-8")
    return target
