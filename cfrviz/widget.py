"""The browser timeline in a notebook: an anywidget for JupyterLab, VS Code, Colab and marimo.

    >>> import cfrviz
    >>> from cfrviz.widget import Timeline
    >>> timeline = Timeline(cfrviz.solve("kuhn", "cfr", iterations=200), view="tree", t=40)
    >>> timeline.t = 100      # the drawing moves; keys and clicks in it set t, node and kind here
    >>> timeline              # a notebook cell shows the drawing; here, what it shows
    <cfrviz Timeline of Kuhn poker: tree, t=100, node=None>

The widget mounts the timeline's own script (`timeline_code.timeline_script`, the HTML file's too)
with the payload and header `cfrviz.figures.html_page.timeline_view` builds, and a small adapter
(`_ADAPTER`) plays the host: it builds the header line from the traits and sends back what the
timeline reports. The payload is JSON of numbers and text, parsed by the timeline and shown as
text: a game's labels never run as markup. Needs only the `notebook` extra, not Streamlit.
"""
from __future__ import annotations

import json
from typing import Any

try:
    import anywidget
    import traitlets
except ImportError as missing:   # the one clear sentence, not a traceback about a module name
    raise ImportError("cfrviz.widget needs anywidget: pip install 'cfrviz[notebook]'.") from missing

from cfrviz.figures.drawn import is_drawn_whole
from cfrviz.figures.html_page import HTML_VIEWS, timeline_view
from cfrviz.figures.html_play import PLAY_HOST, PLAY_STYLE
from cfrviz.figures.timeline import EDGE_WIDTHS, TimelineMode, checked_iteration, checked_node
from cfrviz.figures.timeline_code import MOUNT_FUNCTION, timeline_script, timeline_source
from cfrviz.run import Run

#: What the timeline's header line takes from the traits, and what its reports set: header key or
#: reported name -> trait. The walkthrough's slider steps through one iteration's trace ("step");
#: `t` then names the iteration walked through.
_TRAITS = {"t": "t", "node": "node", "kind": "kind"}
_WALK_TRAITS = {"t": "step", "walk_step": "step", "node": "node", "kind": "kind"}

# The host adapter (an anywidget front-end module: `render({model, el})`). It mounts the timeline
# with the header built from the traits and the payload bytes; what the timeline reports goes to
# the traits, and a mode's own state (the best response's exploiter) into the header. A trait that
# Python changed asks the timeline for the traits' view (a new `ask` in the header: t, node and
# kind apply even where they equal the last header's, so node None clears a clicked node); the
# timeline's own reports come back as echoes and draw nothing. Changes are drawn once per message
# (a microtask).
_ADAPTER = """
const HEADER_KEYS = ["t", "node", "kind"];
let widgetCount = 0;
function bytesOf(value) {
  if (value instanceof Uint8Array) return value;
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  return new Uint8Array(0);
}
function render({ model, el }) {
  const key = `cfrviz-widget-${++widgetCount}`;
  const box = document.createElement("div");
  box.className = "cfrviz-widget";
  // JupyterLab takes arrow keys and space for its own shortcuts; inside the drawing they are the timeline's.
  box.setAttribute("data-lm-suppress-shortcuts", "");
  el.appendChild(box);
  const encoder = new TextEncoder();
  const heard = new Map();      // trait -> the value the timeline reported (its echo draws nothing)
  let ask = 0;                  // the header's ask: raised when Python sets t, node or kind
  let dirty = new Set();
  const names = () => model.get("_host_keys") || {};
  function header() {
    const h = { ...(model.get("_header") || {}) };
    const map = names();
    for (const k of HEADER_KEYS) h[k] = model.get(map[k]) ?? null;
    h.ask = ask;
    return h;
  }
  function report(name, value) {
    const trait = names()[name];
    if (trait) {
      heard.set(trait, value);
      model.set(trait, value);
      model.save_changes();
      return;
    }
    const h = model.get("_header") || {};
    if (h.state && name in h.state) {
      model.set("_header", { ...h, state: { ...h.state, [name]: value } });
      model.save_changes();
    }
  }
  function mount(h) {
    const head = encoder.encode(JSON.stringify(h) + "\\n");
    const body = bytesOf(model.get("_payload"));
    const data = new Uint8Array(head.length + body.length);
    data.set(head);
    data.set(body, head.length);
    return MOUNT_FUNCTION({ key, data, parentElement: box, setStateValue: report, setTriggerValue: report });
  }
  function draw() {
    const changed = dirty;
    dirty = new Set();
    if (!changed.size) return;
    const map = names();
    if (HEADER_KEYS.some((k) => changed.has(map[k]))) ask += 1;
    mount(header());
  }
  function changed(trait) {
    if (heard.has(trait)) {
      const echo = Object.is(heard.get(trait), model.get(trait));
      heard.delete(trait);
      if (echo) return;
    }
    if (!dirty.size) queueMicrotask(draw);
    dirty.add(trait);
  }
  const traits = ["_payload", "_header", "t", "node", "kind", "step"];
  const listeners = traits.map((trait) => { const on = () => changed(trait); model.on(`change:${trait}`, on); return [trait, on]; });
  if ((model.get("_header") || {}).mode === "play") {
    // Play: the hands are dealt and played here (PLAY_HOST), into the header's state.
    const decoder = new TextDecoder();
    playHost(() => decoder.decode(bytesOf(model.get("_payload"))), box, () => model.get(names().t),
             (state) => { model.set("_header", { ...(model.get("_header") || {}), state }); model.save_changes(); });
  }
  const stop = mount(header());
  // The timeline takes its palette from the host's background when mounted (theme.js). JupyterLab
  // renders an output before putting it on the page, and switches themes (Settings > Theme) by
  // restyling the page and setting <body>'s data-jp-theme-*, drawing no output again. So when the
  // box is laid out, when <html> or <body> change attributes (JupyterLab's theme, VS Code's body
  // class) or the reader's colour scheme changes, look again (at most once a frame), and mount again
  // if what the palette depends on changed: JupyterLab restyles <body> hundreds of times a session.
  const scheme = matchMedia("(prefers-color-scheme: dark)");
  function paperTrail() {
    const seen = [String(scheme.matches)];
    for (let n = box.parentElement; n; n = n.parentElement || (n.getRootNode() instanceof ShadowRoot ? n.getRootNode().host : null)) {
      const color = getComputedStyle(n).backgroundColor, rgba = color.match(/[\\d.]+/g);
      seen.push(color);
      if (rgba && (rgba.length < 4 || Number(rgba[3]) >= 0.5)) break;   // theme.js's host paper
    }
    return seen.join(";");
  }
  let trail = box.isConnected ? paperTrail() : null, asked = false;
  function look() {
    asked = false;
    if (!box.isConnected) return;
    const now = paperTrail();
    if (now !== trail) { trail = now; mount(header()); }
  }
  const soon = () => { if (!asked) { asked = true; requestAnimationFrame(look); } };
  const laidOut = new ResizeObserver(soon);
  laidOut.observe(box);
  const restyled = new MutationObserver(soon);
  for (const page of [document.documentElement, document.body]) restyled.observe(page, { attributes: true });
  scheme.addEventListener("change", soon);
  return () => {
    for (const [trait, on] of listeners) model.off(`change:${trait}`, on);
    laidOut.disconnect();
    restyled.disconnect();
    scheme.removeEventListener("change", soon);
    if (typeof stop === "function") stop();
  };
}
export default { render };
""".replace("MOUNT_FUNCTION", MOUNT_FUNCTION)


class Timeline(anywidget.AnyWidget):
    """`run`'s browser timeline in a notebook cell, in `view` (one of `HTML_VIEWS`: tree, evolution,
    charts, convergence, exploitability, best_response, walkthrough, regret_matching: a matrix
    game's run), opened at iteration `t`
    (default the last; the walkthrough's default is iteration 1) and node `node`.

    Traits synced both ways with the drawing: `t` (the iteration shown; in the walkthrough, the
    iteration walked through), `node` (the selected tree node, or None), `kind` (what edge widths
    show: "average" or "current" strategy) and `step` (the walkthrough's step, 1 to its count).
    Set them from Python to move the drawing; keys, clicks and the slider set them from the page.
    A value the run does not have is refused with a sentence (traitlets.TraitError).
    """

    _esm = timeline_script() + PLAY_HOST + _ADAPTER
    _css = timeline_source(".css") + PLAY_STYLE

    t = traitlets.Int(None, allow_none=True).tag(sync=True)
    node = traitlets.Int(None, allow_none=True).tag(sync=True)
    kind = traitlets.Unicode(str(EDGE_WIDTHS[0])).tag(sync=True)
    step = traitlets.Int(1).tag(sync=True)
    # The host's side: the payload (bytes, sent as a binary buffer), the header's other values
    # (id, mode, focus, log, a mode's state) and which trait each header key and report sets.
    _payload = traitlets.Bytes(b"").tag(sync=True)
    _header = traitlets.Dict().tag(sync=True)
    _host_keys = traitlets.Dict().tag(sync=True)

    def __init__(self, run: Run, view: str = "tree", t: int | None = None, node: int | None = None,
                 **kwargs: Any) -> None:
        if view not in HTML_VIEWS:
            raise ValueError(f"The timeline widget has no view {view!r}; it has {', '.join(HTML_VIEWS)}.")
        self._run = run
        self._view = view
        self._walk = HTML_VIEWS[view] == TimelineMode.WALKTHROUGH
        # Regret matching steps through its own path of the run's matrix game (its own frames).
        self._own_path = HTML_VIEWS[view] == TimelineMode.REGRET_MATCHING
        self._frames: tuple[int, ...] = ()
        self._drawn: frozenset[int] | None = None
        self._anchor: int | None = None       # the node whose part is drawn (None: the default part)
        self._building = False
        super().__init__(**kwargs)
        if t is None:
            t = 1 if self._walk else int(run.iterations[-1])
        with self.hold_sync():
            self._host_keys = dict(_WALK_TRAITS if self._walk else _TRAITS)
            self._build(t, node)
            self.t = t
            self.node = node

    @property
    def run(self) -> Run:
        """The run drawn."""
        return self._run

    @property
    def view(self) -> str:
        """The view drawn (one of `HTML_VIEWS`), fixed when the widget is made."""
        return self._view

    @property
    def frames(self) -> tuple[int, ...]:
        """What the slider steps through: the iterations drawn (the walkthrough: its steps, 1 to S)."""
        return self._frames

    # ---------------------------------------------------------------- building the payload
    def _build(self, t: int, node: int | None) -> None:
        """Payload and header for iteration `t`, drawing the part that holds `node` (tree views of a
        game too big to draw whole). A bad t or node is the ValueError sentence of `timeline_view`."""
        body, header, _ = timeline_view(self._run, self._view, t=t, node=node)
        payload = json.loads(body)
        if self._walk:
            self._frames = tuple(range(1, len(payload["extra"]["steps"]["kind"]) + 1))
        elif self._own_path:
            self._frames = tuple(int(f) for f in payload["extra"]["frames"])
        else:
            self._frames = tuple(int(f) for f in payload["frames"])
        self._drawn = frozenset(int(n) for n in payload["nodes"]["id"])
        self._anchor = node
        previous = self._header
        fixed = {k: v for k, v in header.items() if k not in ("t", "node", "kind")}
        if "state" in fixed and previous.get("mode") == fixed["mode"] and "state" in previous:
            fixed["state"] = previous["state"]     # the exploiter chosen in the page stays chosen
        self._building = True
        try:
            with self.hold_sync():
                self._payload = body
                self._header = fixed
                if self._walk and self.step > len(self._frames):
                    self.step = 1
        finally:
            self._building = False

    def _tree_part_missing(self, node: int) -> bool:
        """Whether `node` lies outside the drawn part of a tree view (the widget then draws its part)."""
        mode = HTML_VIEWS[self._view]
        return (mode in (TimelineMode.TREE, TimelineMode.BEST_RESPONSE) and self._drawn is not None
                and node not in self._drawn and not is_drawn_whole(self._run.tree))

    # ---------------------------------------------------------------- checks (one sentence each)
    @traitlets.validate("t")
    def _check_t(self, proposal: dict[str, Any]) -> int:
        value = proposal["value"]
        if self._walk:
            last = self._run.settings.iterations
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= last:
                raise traitlets.TraitError(f"t={value} is not an iteration of this run (1 to {last}).")
            return int(value)
        if self._own_path:
            last = self._run.settings.iterations
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= last:
                raise traitlets.TraitError(f"t={value} is not an iteration of this regret-matching path (1 to {last}).")
            return int(value)
        t = checked_iteration(value, self._run.iterations)
        if t is None:
            raise traitlets.TraitError(
                f"t={value} is not a recorded iteration of this run (1 to {int(self._run.iterations[-1])}, "
                f"as recorded in {self._run.num_snapshots} snapshots; the drawing's are in `frames`).")
        return t

    @traitlets.validate("node")
    def _check_node(self, proposal: dict[str, Any]) -> int | None:
        value = proposal["value"]
        if value is None:
            return None
        tree = self._run.tree
        node = checked_node(value, tree)
        if node is None:
            raise traitlets.TraitError(f"node={value} is not a node of {tree.game.title} (0 to {tree.num_nodes - 1}).")
        return node

    @traitlets.validate("kind")
    def _check_kind(self, proposal: dict[str, Any]) -> str:
        value = proposal["value"]
        if value not in EDGE_WIDTHS:
            raise traitlets.TraitError(f"kind={value!r}: edge widths show {' or '.join(repr(str(k)) for k in EDGE_WIDTHS)}.")
        return str(value)

    @traitlets.validate("step")
    def _check_step(self, proposal: dict[str, Any]) -> int:
        value = proposal["value"]
        steps = len(self._frames) if self._walk else 1
        if not self._building and (isinstance(value, bool) or not 1 <= value <= steps):
            raise traitlets.TraitError(f"step={value} is not a step of this walkthrough (1 to {steps}).")
        return int(value)

    # ---------------------------------------------------------------- what changes the payload
    @traitlets.observe("t")
    def _t_changed(self, change: dict[str, Any]) -> None:
        t = int(change["new"])
        # The walkthrough draws one iteration's trace; other views hold a bounded set of frames,
        # and an iteration between them is added (as a link's t is in the app).
        if self._walk or t not in self._frames:
            self._build(t, self._part_anchor())

    @traitlets.observe("node")
    def _node_changed(self, change: dict[str, Any]) -> None:
        node = change["new"]
        if node is not None and self.t is not None and self._tree_part_missing(int(node)):
            self._build(self.t, int(node))

    def _part_anchor(self) -> int | None:
        """A node of the part on screen, so a rebuild for another t draws the same part."""
        if self.node is not None and self._drawn is not None and int(self.node) in self._drawn:
            return int(self.node)
        return self._anchor

    def __repr__(self) -> str:
        where = f"step {self.step} of iteration {self.t}" if self._walk else f"t={self.t}"
        return f"<cfrviz Timeline of {self._run.tree.game.title}: {self._view}, {where}, node={self.node}>"

