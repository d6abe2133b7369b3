// The timeline's state and its host protocol: the frames and t, the edge-width choice, the
// selection, playback, the server's view (the header) and what goes back to the host
// (setStateValue / setTriggerValue). Every input event redraws here; the host hears `t` only on
// release or after a pause in key presses, `node` when a node is clicked, and `kind` (what edge
// widths show) when it changes. What is drawn is the mode's (registry.js).
import { el, thousands } from "./util.js";
import { modeOrTree } from "./registry.js";
import { buildBar, drawExploitability } from "./bar.js";
import { fillLegend } from "./tree.js";

const SEND_DELAY = 300;    // ms of quiet after key steps before the server learns t
const NARROW = 760;        // px: below this the inspector is a sheet over the tree

/**
 * @typedef {Object} Host what the host gives the mount: values go back through these
 * @property {(name: string, value: any) => void} setStateValue
 * @property {(name: string, value: any) => void} setTriggerValue
 */

export class Timeline {
  /**
   * @param {any} root the element drawn into
   * @param {import("./payload.js").Header} header
   * @param {import("./payload.js").Payload} body
   */
  constructor(root, header, body) {
    this.root = root;
    this.id = header.id;
    /** @type {import("./payload.js").Payload} the drawn part (a mode may swap in another part) */
    this.b = body;
    const { name, mode } = modeOrTree(header.mode);
    this.mode = name;
    this.spec = mode;
    /** @type {Record<string, any>} the mode's own state */
    this.modeState = {};
    /** @type {number[]} */
    this.frames = this.spec.frames ? this.spec.frames(body) : (body.frames || []);
    this.f = Math.max(0, this.frames.length - 1);
    this.kind = header.kind === "current" ? "current" : "average";
    this.headerKind = header.kind;
    /** @type {string | null} */
    this.sentKind = null;
    this.log = !!header.log;
    this.wholeSets = !!header.wholeSets;
    /** @type {string | null} */
    this.locks = typeof header.locks === "string" ? header.locks : null;
    this.focus = header.focus || [];
    this.layout = 0;
    this.selected = -1;
    this.hovered = -1;
    this.hoverFrozen = false;
    /** @type {number | null | undefined} the node the inspector shows (a walk's step card: its step) */
    this.inspected = null;
    /** @type {number | null} a linked node that is not in the drawn part */
    this.offPart = null;
    this.sheetClosed = true;   // a linked node shows as a bar at the foot of a phone's screen
    this.narrow = false;
    /** @type {number | null | undefined} */
    this.headerT = null;
    /** @type {number | undefined} */
    this.headerNode = undefined;
    /** @type {number | undefined} the last header's `ask` */
    this.headerAsk = undefined;
    /** @type {number | null} */
    this.sentT = null;
    /** @type {any} */
    this.timer = null;
    /** @type {any} */
    this.sendTimer = null;
    this.recording = false;
    /** @type {Host | null} */
    this.send = null;
    this.local = new Map(body.nodes.id.map((n, k) => [n, k]));
    /** @type {{ line: any, x0: number, w: number }[]} cursors at t on the charts */
    this.cursors = [];
    /** @type {any} */
    this.compared = undefined;
    /** @type {any} */ this.ctx = null;
    this.font = "";
    root.className = "tl";
    root.tabIndex = 0;
    root.tl = this;
    this.bar = buildBar(this);
    this.main = el("div", { class: this.spec.inspector ? "tl-main" : "tl-charts" }, root);
    /** @type {any} */ this.treeBox = null;
    /** @type {any} */ this.inspector = null;
    /** @type {any} */ this.legend = null;
    /** @type {any} */ this.panNote = null;
    if (this.spec.inspector) {
      this.treeBox = el("div", { class: "tl-tree" }, this.main);
      this.panNote = el("div", { class: "tl-note tl-pan-note", hidden: "" }, this.treeBox.parentNode);
      this.panNote.textContent = "The tree is wider than the screen: swipe or scroll it sideways.";
      this.main.insertBefore(this.panNote, this.treeBox);
      this.inspector = el("div", { class: "tl-inspector", "aria-live": "polite" }, this.main);
      this.legend = el("div", { class: "tl-legend" }, root);
      fillLegend(this);
    }
    this.keyHandler = (/** @type {KeyboardEvent} */ e) => this.bar.onKey(e);
    root.addEventListener("keydown", this.keyHandler, true);
    this.resize = new ResizeObserver(() => this.layoutChanged());
    this.resize.observe(root);
    this.width = 0;
    this.zoom = 1;       // presentation mode's zoom (fitText)
    /** @type {any} */ this.probe = null;
  }

  // Stop playing and listening, so a new Timeline can take over the same root element.
  destroy() {
    this.pause(false);
    this.resize.disconnect();
    clearTimeout(this.sendTimer);
    this.root.removeEventListener("keydown", this.keyHandler, true);
    this.probe?.remove();
    this.recording = false;
  }

  // Position of iteration t along an axis of length 1 (linear or log, as the slider).
  /** @param {number} t */
  axis(t) {
    const first = this.frames[0], last = this.frames[this.frames.length - 1];
    if (last <= first) return 0;
    if (this.log) return Math.log(t / first) / Math.log(last / first);
    return (t - first) / (last - first);
  }

  /** @param {number} t the frame nearest iteration t */
  nearest(t) {
    const fr = this.frames;
    let lo = 0, hi = fr.length - 1;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (fr[mid] < t) lo = mid + 1; else hi = mid; }
    if (lo > 0 && Math.abs(fr[lo - 1] - t) <= Math.abs(fr[lo] - t)) lo -= 1;
    return lo;
  }

  // ---------------------------------------------------------------- time
  /** @param {number} f @param {boolean} fromKey */
  go(f, fromKey) {
    if (!this.frames.length || this.recording) return;
    f = Math.max(0, Math.min(this.frames.length - 1, f));
    if (f !== this.f) { this.f = f; this.draw(); }
    if (fromKey) this.sendSoon();
  }

  sendSoon() {
    clearTimeout(this.sendTimer);
    this.sendTimer = setTimeout(() => this.sendT(), SEND_DELAY);
  }

  sendT() {
    clearTimeout(this.sendTimer);
    if (this.timer || !this.frames.length || this.recording) return;
    const t = this.frames[this.f];
    if (t === this.sentT) return;
    this.sentT = t;
    this.send?.setStateValue(this.spec.report || "t", t);
  }

  // What edge widths (and strategy curves) show: the average strategy or the current one.
  /** @param {string} kind @param {boolean} fromUser */
  setKind(kind, fromUser) {
    this.kind = kind;
    for (const input of this.bar.kindInputs) input.checked = input.value === kind;
    this.sparksChanged();
    this.draw();
    if (fromUser && kind !== this.sentKind) { this.sentKind = kind; this.send?.setStateValue("kind", kind); }
  }

  toggle() { if (this.timer) this.pause(true); else this.play(); }

  play() {
    if (this.frames.length < 2 || this.recording) return;
    if (this.f >= this.frames.length - 1) this.f = 0;
    const every = Math.max(40, Math.min(120, 12000 / this.frames.length));
    this.timer = setInterval(() => {
      if (this.f >= this.frames.length - 1) this.pause(true);
      else { this.f += 1; this.draw(); }
    }, every);
    this.bar.playButton.textContent = "II";
  }

  /** @param {boolean} send */
  pause(send) {
    if (!this.timer) return;
    clearInterval(this.timer);
    this.timer = null;
    this.bar.playButton.textContent = "▶";
    if (send) this.sendT();
  }

  // The server's view: applied when it changed on the server (another page, a link), never
  // when it only echoes what this component already shows. A header with a new `ask` (a URL
  // fragment, a trait set in Python) is the host asking for its t, node and kind whatever is shown.
  /** @param {import("./payload.js").Header} h */
  applyHeader(h) {
    const asked = h.ask !== undefined && h.ask !== this.headerAsk;
    this.headerAsk = h.ask;
    if (asked || h.t !== this.headerT) {
      this.headerT = h.t;
      if (h.t !== null && h.t !== undefined && (asked || h.t !== this.sentT) && this.frames.length) {
        this.f = this.nearest(h.t);
        this.sentT = this.frames[this.f];
      }
    }
    if (asked || h.kind !== this.headerKind) {
      this.headerKind = h.kind;
      if ((h.kind === "average" || h.kind === "current") && (asked || h.kind !== this.sentKind) && h.kind !== this.kind) {
        this.setKind(h.kind, false);
      }
    }
    const focus = h.focus || [];
    if (JSON.stringify(focus) !== JSON.stringify(this.focus)) {
      this.focus = focus;
      if (!this.spec.inspector && this.width) this.spec.build(this, this.modeState);
    }
    if (this.spec.state) this.spec.state(this, this.modeState, h.state ?? null);   // a mode's per-rerun state
    const node = h.node === null || h.node === undefined ? -1 : (this.local.get(h.node) ?? -2);
    if (asked || node !== this.headerNode) {
      this.headerNode = node;
      this.selected = node >= 0 ? node : -1;
      this.offPart = node === -2 ? h.node ?? null : null;
      this.inspected = null;
    }
    this.draw();
  }

  // ---------------------------------------------------------------- geometry
  layoutChanged() {
    let changed = this.fitText();
    if (this.spec.inspector) {
      const narrow = this.root.clientWidth < NARROW;
      this.main.classList.toggle("tl-narrow", narrow);
      this.inspector.classList.toggle("tl-sheet", narrow);
      if (narrow !== this.narrow) { this.narrow = narrow; this.inspected = null; changed = true; }
      // Sticky below Streamlit's own header bar, which covers the top of the page.
      const top = document.querySelector('[data-testid="stHeader"]')?.getBoundingClientRect().bottom ?? 0;
      this.root.style.setProperty("--tl-top", `${Math.max(0, Math.round(top)) + 8}px`);
    }
    const w = Math.floor(this.spec.inspector ? this.treeBox.clientWidth : this.main.clientWidth);
    if (!w || (w === this.width && !changed)) return;
    this.width = w;
    this.spec.build(this, this.modeState);
    this.sparksChanged();
    this.draw();
  }

  // Presentation mode: the host sets --tl-text, a length that grows with the screen (24 px at 1,920 px
  // wide). The whole timeline zooms so that its 14 px text is drawn that size, and lays out for the width
  // it then has (`measure` stays in the timeline's own 14 px units), so nothing overlaps; the bar stays
  // at the foot of the screen and the tree and inspector fit above it (--tl-avail). True when it changed.
  fitText() {
    if (!this.probe) {
      this.probe = el("span", { "aria-hidden": "true", style: "position:absolute;visibility:hidden;font-size:var(--tl-text,14px)" }, document.body);
    }
    const px = parseFloat(getComputedStyle(this.probe).fontSize) || 14;
    const zoom = Math.max(1, px / 14);
    this.root.classList.toggle("tl-present", zoom > 1);
    this.root.style.setProperty("--tl-avail", `${Math.floor(window.innerHeight / zoom)}px`);
    this.root.style.setProperty("--tl-bar-h", `${Math.ceil(this.root.querySelector(".tl-bar")?.offsetHeight ?? 80)}px`);
    const changed = Math.abs(zoom - this.zoom) >= 1e-3;
    if (changed) { this.zoom = zoom; this.root.style.zoom = zoom > 1 ? String(zoom) : ""; }
    if (zoom > 1 && this.treeBox) {
      // The tree's box ends above the bar on the first screen, whatever the page shows above the timeline.
      const scrolled = document.querySelector('[data-testid="stMain"]')?.scrollTop ?? 0;
      const top = (this.treeBox.getBoundingClientRect().top + scrolled) / zoom;
      this.root.style.setProperty("--tl-tree-top", `${Math.max(0, Math.round(top))}px`);
    }
    return changed;
  }

  /** @param {string} text @param {boolean} [bold] the width of `text` at the timeline's 14 px */
  measure(text, bold) {
    if (!this.ctx) {
      this.ctx = document.createElement("canvas").getContext("2d");
      this.font = getComputedStyle(this.root).fontFamily || "sans-serif";
    }
    this.ctx.font = `${bold ? "600 " : ""}14px ${this.font}`;
    return this.ctx.measureText(text).width;
  }

  /** The strategy of `kind` at frame f, [S][A], as edge widths show it (a mode may show its own). */
  /** @param {string} kind @param {number} f */
  strategyAt(kind, f) {
    if (this.spec.strategy) return this.spec.strategy(this, this.modeState, kind, f);
    return /** @type {any} */ (this.b)[kind]?.[f] ?? null;
  }

  frameLabel() {
    if (this.spec.label) return this.spec.label(this, this.modeState);
    const iterations = this.b.iterations;
    if (!this.frames.length || iterations === undefined) return "no snapshots";
    return `Iteration t = ${thousands(this.frames[this.f])} of ${thousands(iterations)}`;
  }

  // ---------------------------------------------------------------- per-frame drawing
  draw() {
    this.bar.showFrame();
    this.spec.draw(this, this.modeState);
    for (const c of this.cursors) { const X = c.x0 + this.axis(this.frames[this.f] ?? 1) * c.w; c.line.setAttribute("x1", X); c.line.setAttribute("x2", X); }
  }

  sparksChanged() {
    this.inspected = null;
    drawExploitability(this);
    if (!this.spec.inspector && this.width) this.spec.build(this, this.modeState);
  }
}
