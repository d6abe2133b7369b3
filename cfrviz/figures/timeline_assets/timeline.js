// cfrviz timeline: the run's frames scrubbed in the browser (Streamlit components v2, no iframe).
// Python sends one JSON header line (payload id and the server's view) and the payload body
// (cfrviz/figures/timeline.py). Every input event redraws here; the server hears `t` only on release or
// after a pause in key presses, `node` when a node is clicked, and `kind` (what edge widths show)
// when it changes.
//
// A mode is what the timeline draws for each frame. MODES (at the end of this file) maps a mode's
// name to its `build` (lay out for the current width), `draw` (show frame f) and options; the
// core here keeps frames, keys, focus, the server's view and the figure downloads for every mode.
const SVG = "http://www.w3.org/2000/svg";
const PITCH = 24;          // px between leaf rows: a 14 px label and its neighbour never touch
const SEND_DELAY = 300;    // ms of quiet after key steps before the server learns t
const NARROW = 760;        // px: below this the inspector is a sheet over the tree
const decoder = new TextDecoder();
const payloads = new Map(); // payload id -> parsed body, shared by every mount on the page
// Component key -> true while that timeline holds the keyboard focus. A rerun may mount the
// component afresh (a new part, or Streamlit replacing the element); the new mount takes the
// focus back when nothing else has it, so arrow keys keep working.
const focusHeld = new Map();

function parse(data) {
  const bytes = data instanceof Uint8Array ? data : new Uint8Array(data || []);
  const cut = bytes.indexOf(10);
  const header = JSON.parse(decoder.decode(bytes.subarray(0, cut)));
  let body = payloads.get(header.id);
  if (!body) {
    body = JSON.parse(decoder.decode(bytes.subarray(cut + 1)));
    intoNodes(body);
    payloads.set(header.id, body);
    if (payloads.size > 6) payloads.delete(payloads.keys().next().value);
  }
  return { header, body };
}

// The payload's tree edges (networkx's, see cfrviz/figures/timeline.py) as per-node arrays: each node's
// parent, and the action index, letter and chance probability of the edge into it.
function intoNodes(body) {
  const n = body.nodes, e = body.edges, N = n.id.length;
  n.parent = new Array(N).fill(-1); n.action = new Array(N).fill(0);
  n.edge = new Array(N).fill(""); n.chance = new Array(N).fill(null);
  for (let j = 0; j < e.child.length; j++) {
    const c = e.child[j];
    n.parent[c] = e.parent[j]; n.action[c] = e.action[j]; n.edge[c] = e.letter[j]; n.chance[c] = e.chance[j];
  }
}

function el(tag, attrs = {}, parent = null, text = null) {
  const node = tag.startsWith("svg:") ? document.createElementNS(SVG, tag.slice(4)) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== null) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}

const fmt = (x, digits = 4) => (x === null || x === undefined || Number.isNaN(x)) ? "–"
  : (Math.abs(x) < 0.5 * 10 ** -digits ? (0).toFixed(digits) : x.toFixed(digits)).replace("-", "−");
const prob = (p) => p >= 0.995 ? "1" : p.toFixed(2).replace(/^0/, "");
const thousands = (t) => t.toLocaleString("en-US");
const sci = (x) => x.toExponential(2).replace(/e([+-])(\d)$/, "e$10$2");  // as Python's :.2e

// ---------------------------------------------------------------- colour (WCAG 2 contrast)
function rgba(color) {
  const c = String(color).trim();
  if (c.startsWith("#")) {
    const h = c.length === 4 ? c.slice(1).split("").map((x) => x + x).join("") : c.slice(1, 7);
    return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)).concat([1]);
  }
  const m = c.match(/[\d.]+/g);
  if (!m || m.length < 3) return null;
  return [Number(m[0]), Number(m[1]), Number(m[2]), m.length > 3 ? Number(m[3]) : 1];
}
const over = (top, alpha, under) => top.slice(0, 3).map((v, i) => alpha * v + (1 - alpha) * under[i]).concat([1]);
function luminance(c) {
  const [r, g, b] = c.slice(0, 3).map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
function contrast(a, b) {
  const x = luminance(a), y = luminance(b);
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}

// ---------------------------------------------------------------- node locking
const LOCK_ROOM = 13;   // px a padlock adds to a locked set's pill

// A padlock centred at (cx, cy), 8 px wide and 12 px tall, in the CSS colour of its group (.tl-lock).
function padlock(parent, cx, cy) {
  const g = el("svg:g", { class: "tl-lock" }, parent);
  el("svg:path", { d: `M${cx - 2.5},${cy - 0.5}v-2.5a2.5,2.5 0 0 1 5,0v2.5`, fill: "none" }, g);
  el("svg:rect", { x: cx - 4, y: cy - 0.5, width: 8, height: 6.5, rx: 1.2 }, g);
  return g;
}

class Timeline {
  constructor(root, header, body) {
    this.root = root;
    this.id = header.id;
    this.b = body;
    this.mode = MODES[header.mode] ? header.mode : "tree";
    this.spec = MODES[this.mode];
    this.frames = this.spec.frames ? this.spec.frames(body) : (body.frames || []);
    this.f = Math.max(0, this.frames.length - 1);
    this.kind = header.kind === "current" ? "current" : "average";
    this.headerKind = header.kind;
    this.sentKind = null;
    this.log = !!header.log;
    this.focus = header.focus || [];
    this.layout = 0;
    this.selected = -1;
    this.hovered = -1;
    this.sheetClosed = true;   // a linked node shows as a bar at the foot of a phone's screen
    this.headerT = null;
    this.headerNode = undefined;
    this.sentT = null;
    this.timer = null;
    this.local = new Map(body.nodes.id.map((n, k) => [n, k]));
    root.className = "tl";
    root.tabIndex = 0;
    root.tl = this;
    this.buildBar();
    this.main = el("div", { class: this.spec.inspector ? "tl-main" : "tl-charts" }, root);
    if (this.spec.inspector) {
      this.treeBox = el("div", { class: "tl-tree" }, this.main);
      this.panNote = el("div", { class: "tl-note tl-pan-note", hidden: "" }, this.treeBox.parentNode);
      this.panNote.textContent = "The tree is wider than the screen: swipe or scroll it sideways.";
      this.main.insertBefore(this.panNote, this.treeBox);
      this.inspector = el("div", { class: "tl-inspector", "aria-live": "polite" }, this.main);
      this.legend = el("div", { class: "tl-legend" }, root);
      this.fillLegend();
    }
    this.keyHandler = (e) => this.onKey(e);
    root.addEventListener("keydown", this.keyHandler, true);
    this.resize = new ResizeObserver(() => this.layoutChanged());
    this.resize.observe(root);
    this.width = 0;
  }

  // Stop playing and listening, so a new Timeline can take over the same root element.
  destroy() {
    this.pause(false);
    this.resize.disconnect();
    clearTimeout(this.sendTimer);
    this.root.removeEventListener("keydown", this.keyHandler, true);
    this.recording = false;
  }

  // ---------------------------------------------------------------- the bar
  buildBar() {
    const bar = el("div", { class: "tl-bar" }, this.root);
    const buttons = el("div", { class: "tl-buttons" }, bar);
    const button = (text, label, action, parent = buttons) => {
      const b = el("button", { type: "button", "aria-label": label, title: label }, parent, text);
      b.addEventListener("click", () => { action(); this.root.focus({ preventScroll: true }); });
      return b;
    };
    button("|◀", "First iteration (Home)", () => this.go(0, true));
    button("‹", "Previous frame (←)", () => this.go(this.f - 1, true));
    this.playButton = button("▶", "Play or pause (space)", () => this.toggle());
    button("›", "Next frame (→)", () => this.go(this.f + 1, true));
    button("▶|", "Last iteration (End)", () => this.go(this.frames.length - 1, true));
    this.slider = el("input", { type: "range", class: "tl-slider", "aria-label": "Iteration t" }, bar);
    this.slider.addEventListener("input", () => this.go(this.fromSlider(), false));
    this.slider.addEventListener("change", () => this.sendT());
    this.tLabel = el("span", { class: "tl-t", "data-testid": "timeline-t" }, bar);
    const options = el("div", { class: "tl-options" }, bar);
    const check = (text, checked, action) => {
      const label = el("label", {}, options);
      const box = el("input", { type: "checkbox" }, label);
      box.checked = checked;
      label.appendChild(document.createTextNode(" " + text));
      box.addEventListener("change", () => action(box.checked));
      return box;
    };
    check("log scale", this.log, (on) => { this.log = on; this.setupSlider(); this.sparksChanged(); this.draw(); });
    this.kindInputs = [];
    if (this.spec.kind) {
      const radio = (value, text) => {
        const label = el("label", {}, options);
        const input = el("input", { type: "radio", name: `kind-${this.id}`, value }, label);
        input.checked = this.kind === value;
        label.appendChild(document.createTextNode(" " + text));
        input.addEventListener("change", () => this.setKind(value, true));
        this.kindInputs.push(input);
      };
      options.appendChild(document.createTextNode(this.spec.kind));
      radio("average", "average strategy");
      radio("current", "current");
    }
    if (this.spec.inspector && this.b.layouts.length > 1) {
      const select = el("select", { "aria-label": "Arrange the deals by" }, options);
      this.b.layouts.forEach((lay, k) => el("option", { value: String(k) }, select, `deals by ${lay.name}`));
      select.addEventListener("change", () => { this.layout = Number(select.value); this.width = 0; this.layoutChanged(); });
    }
    this.exp = el("svg:svg", { class: "tl-spark-exp", width: 170, height: 30, role: "img",
                               "aria-label": "exploitability over the iterations" }, bar);
    // Figures for slides: built here from the drawing, nothing asked of the server.
    const exportBox = el("div", { class: "tl-export", role: "group", "aria-label": "Download the view" }, bar);
    exportBox.appendChild(document.createTextNode("Download "));
    button("SVG", "Download SVG", () => downloadSVG(this), exportBox);
    button("PNG", "Download PNG", () => downloadPNG(this), exportBox);
    this.animButton = button("Animation…", "Download animation", () => this.toggleAnimationPanel(), exportBox);
    this.animPanel = el("div", { class: "tl-anim", hidden: "" }, this.root);
    this.setupSlider();
  }

  toggleAnimationPanel() {
    const panel = this.animPanel;
    if (!panel.hidden) { panel.hidden = true; return; }
    panel.replaceChildren();
    panel.hidden = false;
    if (this.frames.length < 2) { el("span", {}, panel, "A run with one snapshot has nothing to animate."); return; }
    const first = this.frames[0], last = this.frames[this.frames.length - 1];
    const field = (label, value) => {
      const l = el("label", {}, panel, label + " ");
      return el("input", { type: "number", min: first, max: last, step: 1, value, "aria-label": `Animation ${label}` }, l);
    };
    panel.appendChild(document.createTextNode("WebM of the view from iteration "));
    const from = field("from", first);
    const to = field("to", this.frames[this.f] > first ? this.frames[this.f] : last);
    const go = el("button", { type: "button", class: "tl-record" }, panel, "Record and download");
    this.animStatus = el("span", { class: "tl-note", "data-testid": "timeline-animation-status" }, panel);
    go.addEventListener("click", () => {
      const a = this.nearest(Number(from.value)), z = this.nearest(Number(to.value));
      downloadAnimation(this, Math.min(a, z), Math.max(a, z), go);
    });
  }

  setupSlider() {
    const n = this.frames.length;
    const s = this.slider;
    if (n < 2) { s.disabled = true; return; }
    if (this.log) { s.min = 0; s.max = 1000; s.step = 1; }
    else { s.min = this.frames[0]; s.max = this.frames[n - 1]; s.step = 1; }
    this.drawExploitability();
  }

  // Position of iteration t along an axis of length 1 (linear or log, as the slider).
  axis(t) {
    const first = this.frames[0], last = this.frames[this.frames.length - 1];
    if (last <= first) return 0;
    if (this.log) return Math.log(t / first) / Math.log(last / first);
    return (t - first) / (last - first);
  }

  fromSlider() {
    const v = Number(this.slider.value);
    const first = this.frames[0], last = this.frames[this.frames.length - 1];
    const t = this.log ? first * Math.pow(last / first, v / 1000) : v;
    return this.nearest(t);
  }

  nearest(t) {
    const fr = this.frames;
    let lo = 0, hi = fr.length - 1;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (fr[mid] < t) lo = mid + 1; else hi = mid; }
    if (lo > 0 && Math.abs(fr[lo - 1] - t) <= Math.abs(fr[lo] - t)) lo -= 1;
    return lo;
  }

  // ---------------------------------------------------------------- time
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
  setKind(kind, fromUser) {
    this.kind = kind;
    for (const input of this.kindInputs) input.checked = input.value === kind;
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
    this.playButton.textContent = "II";
  }

  pause(send) {
    if (!this.timer) return;
    clearInterval(this.timer);
    this.timer = null;
    this.playButton.textContent = "▶";
    if (send) this.sendT();
  }

  onKey(e) {
    const tag = e.target && e.target.tagName;
    if (tag === "SELECT" || tag === "INPUT" && e.target.type === "number") return;
    const keys = { ArrowLeft: -1, ArrowDown: -1, ArrowRight: 1, ArrowUp: 1 };
    if (e.key in keys) this.go(this.f + keys[e.key], true);
    else if (e.key === "Home") this.go(0, true);
    else if (e.key === "End") this.go(this.frames.length - 1, true);
    else if (e.key === " " && tag !== "BUTTON") this.toggle();
    else if (e.key === "Escape" && this.inspector?.classList.contains("tl-open")) { this.closeSheet(); }
    else return;
    e.preventDefault();
    e.stopPropagation();
  }

  // The server's view: applied when it changed on the server (another page, a link), never
  // when it only echoes what this component already shows.
  applyHeader(h) {
    if (h.t !== this.headerT) {
      this.headerT = h.t;
      if (h.t !== null && h.t !== undefined && h.t !== this.sentT && this.frames.length) {
        this.f = this.nearest(h.t);
        this.sentT = this.frames[this.f];
      }
    }
    if (h.kind !== this.headerKind) {
      this.headerKind = h.kind;
      if ((h.kind === "average" || h.kind === "current") && h.kind !== this.sentKind && h.kind !== this.kind) {
        this.setKind(h.kind, false);
      }
    }
    const focus = h.focus || [];
    if (JSON.stringify(focus) !== JSON.stringify(this.focus)) {
      this.focus = focus;
      if (!this.spec.inspector && this.width) this.spec.build(this);
    }
    if (this.spec.state) this.spec.state(this, h.state ?? null);   // a mode's per-rerun state
    const node = h.node === null || h.node === undefined ? -1 : (this.local.get(h.node) ?? -2);
    if (node !== this.headerNode) {
      this.headerNode = node;
      this.selected = node >= 0 ? node : -1;
      this.offPart = node === -2 ? h.node : null;
      this.inspected = null;
    }
    this.draw();
  }

  // ---------------------------------------------------------------- geometry
  layoutChanged() {
    let changed = false;
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
    this.spec.build(this);
    this.sparksChanged();
    this.draw();
  }

  measure(text, bold) {
    if (!this.ctx) {
      this.ctx = document.createElement("canvas").getContext("2d");
      this.font = getComputedStyle(this.root).fontFamily || "sans-serif";
    }
    this.ctx.font = `${bold ? "600 " : ""}14px ${this.font}`;
    return this.ctx.measureText(text).width;
  }

  buildTree() {
    const b = this.b, N = b.nodes.id.length, lay = b.layouts[this.layout];
    const actor = b.nodes.actor, set = b.nodes.set;
    const C = lay.columns;
    // Shapes: a pill with the information-set key, a chance diamond, a terminal triangle.
    const keyOf = (k) => set[k] >= 0 ? b.sets[set[k]].key : "";
    // A locked set's pill holds a padlock at its left end (cfrviz.tree.locks: the set plays its lock).
    const lockOf = (k) => set[k] >= 0 ? b.sets[set[k]].lock : null;
    let half = new Array(N);
    const pillHalf = (k) => (this.measure(keyOf(k), true) + 14 + (lockOf(k) ? LOCK_ROOM : 0)) / 2;
    for (let k = 0; k < N; k++) half[k] = actor[k] <= 1 ? pillHalf(k) : 7;
    const colHalf = (h) => { const m = new Array(C).fill(7); for (let k = 0; k < N; k++) m[lay.column[k]] = Math.max(m[lay.column[k]], h[k]); return m; };
    let ch = colHalf(half);
    const payoffText = (k) => b.nodes.payoff[k] === null ? "" : (b.nodes.payoff[k] > 0 ? "+" : "") + b.nodes.payoff[k].toString().replace("-", "−");
    let right = 10;
    for (let k = 0; k < N; k++) if (actor[k] === 3) right = Math.max(right, this.measure(payoffText(k), true) + 18);
    const padL = ch[0] + 4;
    // Pills side by side need this much room per column (the test below that keeps the keys).
    let need = 0;
    for (let c = 0; c + 1 < C; c++) need = Math.max(need, ch[c] + ch[c + 1] + 24);
    const wide = Math.ceil(padL + right + ch[C - 1] + (C - 1) * need);
    // On a narrow screen the tree keeps its labels and pans sideways instead (at most 3 screens).
    const W = this.narrow && wide > this.width ? Math.min(wide, 3 * this.width) : this.width;
    this.panNote.hidden = W <= this.width;
    const span = (h) => (W - padL - right - h[C - 1]) / Math.max(1, C - 1);
    let colW = span(ch);
    // Pills that do not fit side by side become plain dots; the key stays in the inspector.
    this.keysShown = true;
    for (let c = 0; c + 1 < C; c++) if (ch[c] + ch[c + 1] + 24 > colW) this.keysShown = false;
    if (!this.keysShown) { half = half.map((h, k) => actor[k] <= 1 ? 9 : 7); ch = colHalf(half); colW = span(ch); }
    const x = (k) => padL + lay.column[k] * colW;
    const top = 24;
    const y = (k) => top + lay.row[k] * PITCH;
    const H = top + (lay.rows - 1) * PITCH + 24;
    this.pos = { x, y, half };

    this.treeBox.replaceChildren();
    const svg = el("svg:svg", { width: W, height: H, role: "img", "aria-label": `${b.title} game tree` }, this.treeBox);
    this.svg = svg;
    const gGroups = el("svg:g", {}, svg), gEdges = el("svg:g", {}, svg), gMoved = el("svg:g", {}, svg);
    const gLinks = el("svg:g", {}, svg);
    const gLabels = el("svg:g", {}, svg), gNodes = el("svg:g", {}, svg);
    this.gLinks = gLinks;

    // Shaded groups: the connected components of the information-set links (the payload's
    // `groups`), each drawn as one band over its members that are neighbours in their column.
    const rank = new Array(N);
    const byColumn = new Map();
    for (let k = 0; k < N; k++) { const c = lay.column[k]; if (!byColumn.has(c)) byColumn.set(c, []); byColumn.get(c).push(k); }
    for (const members of byColumn.values()) { members.sort((a, c) => lay.row[a] - lay.row[c]); members.forEach((k, r) => { rank[k] = r; }); }
    this.groupOf = new Array(N).fill(-1);
    this.shade = new Array(N).fill(false);
    b.groups.forEach((group, g) => {
      for (const k of group) this.groupOf[k] = g;
      const members = [...group].sort((a, c) => lay.column[a] - lay.column[c] || lay.row[a] - lay.row[c]);
      let start = 0;
      for (let i = 1; i <= members.length; i++) {
        const prev = members[i - 1], next = members[i];
        if (i < members.length && lay.column[next] === lay.column[prev] && rank[next] === rank[prev] + 1) continue;
        if (i - start >= 2) {
          const a = members[start], z = members[i - 1], w = ch[lay.column[a]];
          el("svg:rect", { class: "tl-group", x: x(a) - w - 5, y: y(a) - 15, width: 2 * w + 10,
                           height: y(z) - y(a) + 30, rx: 10 }, gGroups);
          for (let j = start; j < i; j++) this.shade[members[j]] = true;
        }
        start = i;
      }
    });
    this.linksOf = b.groups.map(() => []);
    for (const [a, c] of b.links) this.linksOf[this.groupOf[a]].push([a, c]);

    // Tree edges: the payload's `edges` (the graph's), one line each.
    this.edges = [];
    this.edgeLabels = [];
    for (let j = 0; j < b.edges.child.length; j++) {
      const k = b.edges.child[j], p = b.edges.parent[j];
      const line = el("svg:line", { x1: x(p) + half[p], y1: y(p), x2: x(k) - half[k], y2: y(k),
                                    "stroke-linecap": "round" }, gEdges);
      const chance = actor[p] === 2;
      line.setAttribute("stroke", chance ? b.colors.chance : b.colors.player[actor[p]]);
      this.edges.push({ k, p, line, chance });
      // The label sits just left of the child, above its edge, inside the gap between columns.
      const room = x(k) - half[k] - 6 - (x(k) - colW + ch[lay.column[k] - 1] + 6);
      const letter = b.edges.letter[j];
      const full = chance ? letter : `${letter} 1.00`;
      let mode = 0;
      if (this.measure(full) <= room) mode = 2; else if (this.measure(letter) <= room) mode = 1;
      if (chance && mode) mode = 1;
      if (!mode) continue;
      const text = el("svg:text", { x: x(k) - half[k] - 6, y: y(k) - 6, "text-anchor": "end",
                                    class: "tl-edge-label" }, gLabels, letter);
      this.edgeLabels.push({ k, p, text, mode, letter });
    }

    this.nodeShapes = [];
    for (let k = 0; k < N; k++) {
      const g = el("svg:g", { class: "tl-node", "data-node": b.nodes.id[k] }, gNodes);
      let shape, text = null;
      if (actor[k] <= 1) {
        shape = el("svg:rect", { x: x(k) - half[k], y: y(k) - 10, width: 2 * half[k], height: 20, rx: 10,
                                 fill: b.colors.player[actor[k]] }, g);
        const shift = lockOf(k) && this.keysShown ? LOCK_ROOM / 2 : 0;
        if (this.keysShown) text = el("svg:text", { x: x(k) + shift, y: y(k) + 5, "text-anchor": "middle", class: "tl-key" }, g, keyOf(k));
      } else if (actor[k] === 2) {
        shape = el("svg:path", { d: `M${x(k) - 8},${y(k)}l8,-8l8,8l-8,8z`, fill: b.colors.chance }, g);
      } else {
        shape = el("svg:path", { d: `M${x(k) - 6},${y(k) - 5}h12l-6,10z`, fill: b.colors.terminal }, g);
        // Its own dark fill on a halo of the page's background: readable over any edge or band.
        el("svg:text", { x: x(k) + 10, y: y(k) + 5, class: "tl-payoff" }, g, payoffText(k));
      }
      // Drawn after the key, so the element before a key stays its pill (what the key is read against).
      const lock = lockOf(k) ? padlock(g, this.keysShown ? x(k) - half[k] + 11 : x(k), y(k)) : null;
      el("svg:title", {}, g, b.nodes.label[k] + (set[k] >= 0 ? ` · information set ${keyOf(k)}` : "") +
         (lockOf(k) ? " · locked" : ""));
      g.addEventListener("click", () => this.select(k));
      g.addEventListener("mouseenter", () => { if (!this.hoverFrozen) { this.hovered = k; this.inspected = null; this.draw(); } });
      g.addEventListener("mouseleave", () => { if (!this.hoverFrozen) { this.hovered = -1; this.inspected = null; this.draw(); } });
      const base = rgba(actor[k] <= 1 ? b.colors.player[actor[k]] : "#fff");
      this.nodeShapes.push({ g, shape, k, text, lock, base, opacity: -1 });
    }
    // Rings round the sets whose average strategy moved from the unlocked run's (drawTree colours them).
    this.movedRings = [];
    if (this.comparison()) {
      for (let k = 0; k < N; k++) {
        if (set[k] < 0 || this.comparison().setIndex[set[k]] < 0) continue;
        const rect = el("svg:rect", { class: "tl-moved", x: x(k) - half[k] - 6, y: y(k) - 16, width: 2 * half[k] + 12,
                                      height: 32, rx: 16, fill: "none", stroke: "none", "data-node": b.nodes.id[k] }, gMoved);
        this.movedRings.push({ k, s: set[k], rect, shown: null });
      }
    }
    // The page's background, and the shaded band's colour over it (behind a pill in a group).
    const paper = rgba(getComputedStyle(this.root).getPropertyValue("--st-background-color")) || [255, 255, 255, 1];
    this.paper = paper;
    this.bandPaper = over([0, 158, 115], 0.10, paper);
    this.ring = null;
  }

  select(k) {
    this.selected = k;
    this.offPart = null;
    this.inspected = null;
    this.sheetClosed = false;
    this.draw();
    this.keepInspectorInView();
    this.send?.setTriggerValue("node", this.b.nodes.id[k]);
  }

  // A sticky inspector cannot go below the tree's bottom: after a click low in the tree the page
  // may have it partly above the screen. Scroll just enough to show it whole (below Streamlit's
  // header); the clicked node, near the tree's bottom, stays on the screen.
  keepInspectorInView() {
    if (this.narrow || !this.inspector) return;
    const box = this.inspector.getBoundingClientRect();
    const top = parseFloat(this.root.style.getPropertyValue("--tl-top")) || 8;
    let dy = 0;
    if (box.top < top) dy = box.top - top;
    else if (box.bottom > innerHeight) dy = Math.min(box.bottom - innerHeight + 8, box.top - top);
    if (Math.abs(dy) < 1) return;
    let n = this.root;
    while (n && n !== document.documentElement) {
      const cs = getComputedStyle(n);
      if (/(auto|scroll)/.test(cs.overflowY) && n.scrollHeight > n.clientHeight) break;
      n = n.parentElement || n.getRootNode().host;
    }
    // The tree moves under a still pointer: that is no hover, until the pointer itself moves.
    this.hovered = -1;
    this.hoverFrozen = true;
    this.root.addEventListener("pointermove", (e) => {
      // Enter events come before the move that thaws hovering: take the node under the pointer now.
      this.hoverFrozen = false;
      const g = e.composedPath().find((n) => n.classList?.contains("tl-node"));
      const k = g ? this.local.get(Number(g.dataset.node)) ?? -1 : -1;
      if (k !== this.hovered) { this.hovered = k; this.inspected = null; this.draw(); }
    }, { once: true });
    (n && n !== document.documentElement ? n : document.scrollingElement).scrollBy({ top: dy });
    this.inspected = null;
    this.draw();
  }

  closeSheet() { this.sheetClosed = true; this.inspected = null; this.draw(); this.root.focus({ preventScroll: true }); }

  openSheet() { this.sheetClosed = false; this.inspected = null; this.draw(); }

  fillLegend() {
    const c = this.b.colors;
    this.legend.innerHTML = "";
    const item = (color, text) => { const s = el("span", { class: "tl-key-item" }, this.legend); s.innerHTML = `<b style="color:${color}">■</b> `; s.appendChild(document.createTextNode(text)); };
    item(c.player[0], "player 1 to act"); item(c.player[1], "player 2 to act");
    item(c.chance, "chance deals"); item(c.terminal, "terminal: player 1's payoff in chips");
    el("span", { class: "tl-legend-text" }, this.legend, "Nodes with the same label form one information set: the player to act cannot tell them apart (shaded when they are neighbours). Edge width: probability of the action.");
    if (this.b.sets.some((s) => s.lock)) {
      const s = el("span", { class: "tl-key-item", "data-testid": "timeline-lock-legend" }, this.legend);
      padlock(el("svg:svg", { width: 12, height: 14, class: "tl-lock-icon", "aria-hidden": "true" }, s), 6, 8);
      s.appendChild(document.createTextNode(" locked set: it plays its lock"));
    }
    const cmp = this.comparison();
    if (cmp) {
      el("span", { class: "tl-legend-text", "data-testid": "timeline-moved-legend" }, this.legend,
         `Ring: how far the set's average strategy at t moved from the unlocked run's (the same settings without ` +
         `${cmp.c.locks}), as total variation: 0 same, 1 disjoint.`);
      const item = el("span", { class: "tl-key-item" }, this.legend);
      const steps = [cmp.c.movedAtLeast, 0.25, 0.5, 0.75, 1];
      const svg = el("svg:svg", { width: 46 * steps.length, height: 40, class: "tl-moved-scale", role: "img",
                                  "aria-label": "ring colours from a small move to a move of 1" }, item);
      steps.forEach((v, i) => {
        el("svg:rect", { x: 46 * i + 7, y: 3, width: 32, height: 14, rx: 7, fill: "none", stroke: this.movedColor(v),
                         "stroke-width": (3 + 3 * v).toFixed(2) }, svg);
        el("svg:text", { x: 46 * i + 23, y: 36, "text-anchor": "middle" }, svg, String(v));
      });
    }
  }

  // The locked-vs-unlocked comparison of the payload's extra (cfrviz.figures.timeline.lock_comparison)
  // matched to this payload: its index for each drawn set (by key), and for each frame its frame at or
  // before that iteration. Null without one.
  comparison() {
    if (this.compared !== undefined) return this.compared;
    const c = this.b.extra;
    if (!c || c.kind !== "lock comparison" || !this.frames.length) return (this.compared = null);
    const index = new Map(c.keys.map((key, j) => [key, j]));
    const setIndex = this.b.sets.map((s) => index.get(s.key) ?? -1);
    const frameIndex = this.frames.map((t) => {
      let lo = 0, hi = c.frames.length;
      while (lo < hi) { const mid = (lo + hi) >> 1; if (c.frames[mid] <= t) lo = mid + 1; else hi = mid; }
      return lo - 1;
    });
    return (this.compared = { c, setIndex, frameIndex, stops: c.colors.map(rgba) });
  }

  // How far set s's average strategy moved from the unlocked run's at frame f, or null.
  movedAt(f, s) {
    const m = this.comparison(), j = m ? m.frameIndex[f] : -1, i = m ? m.setIndex[s] : -1;
    return j >= 0 && i >= 0 ? m.c.moved[j][i] : null;
  }

  unlockedAt(f, s) {
    const m = this.comparison(), j = m ? m.frameIndex[f] : -1, i = m ? m.setIndex[s] : -1;
    return j >= 0 && i >= 0 ? m.c.unlocked[j][i] : null;
  }

  // The ring's colour for a move v in [0, 1]: the payload's colours, light to dark, mixed linearly.
  movedColor(v) {
    const stops = this.comparison().stops, at = Math.max(0, Math.min(1, v)) * (stops.length - 1);
    const i = Math.min(stops.length - 2, Math.floor(at)), w = at - i;
    const mix = stops[i].slice(0, 3).map((x, j) => Math.round((1 - w) * x + w * stops[i + 1][j]));
    return `rgb(${mix.join(", ")})`;
  }

  // ---------------------------------------------------------------- per-frame drawing
  strategyAt(kind, f) { return this.b[kind]?.[f] ?? null; }

  frameLabel() {
    if (this.spec.label) return this.spec.label(this);
    if (!this.frames.length) return "no snapshots";
    return `Iteration t = ${thousands(this.frames[this.f])} of ${thousands(this.b.iterations)}`;
  }

  draw() {
    this.tLabel.textContent = this.frameLabel();
    if (this.frames.length) {
      const t = this.frames[this.f];
      this.slider.value = this.log ? Math.round(1000 * this.axis(t)) : t;
      if (this.expCursor) { const X = 4 + this.axis(t) * 162; this.expCursor.setAttribute("x1", X); this.expCursor.setAttribute("x2", X); }
    }
    this.spec.draw(this);
    for (const c of this.cursors || []) { const X = c.x0 + this.axis(this.frames[this.f] ?? 1) * c.w; c.line.setAttribute("x1", X); c.line.setAttribute("x2", X); }
  }

  drawTree() {
    if (!this.edges) return;
    const b = this.b, strategy = this.strategyAt(this.kind, this.f);
    const set = b.nodes.set, action = b.nodes.action, parent = b.nodes.parent, N = b.nodes.id.length;
    const edgeP = (k) => {
      const p = parent[k];
      if (b.nodes.actor[p] === 2) return b.nodes.chance[k];
      return strategy ? strategy[set[p]][action[k]] : null;
    };
    // Reach along the drawn path by the players' strategies (chance left out): node emphasis.
    const reach = new Float64Array(N);
    for (let k = 0; k < N; k++) {
      const p = parent[k];
      reach[k] = p < 0 ? 1 : reach[p] * (b.nodes.actor[p] === 2 ? 1 : (edgeP(k) ?? 1));
    }
    for (const e of this.edges) {
      const p = e.chance ? null : edgeP(e.k);
      e.line.setAttribute("stroke-width", e.chance ? 2 : (p === null ? 2 : 1.5 + 9 * p).toFixed(2));
      e.line.setAttribute("stroke-opacity", e.chance || p === null ? 0.6 : (0.25 + 0.75 * p).toFixed(2));
    }
    const path = new Set();
    const focus = this.hovered >= 0 ? this.hovered : this.selected;
    for (let k = focus; k >= 0; k = parent[k]) path.add(k);
    for (const l of this.edgeLabels) {
      const p = l.mode === 2 ? edgeP(l.k) : null;
      l.text.textContent = p === null ? l.letter : `${l.letter} ${prob(p)}`;
      l.text.classList.toggle("tl-on-path", path.has(l.k));
    }
    for (const s of this.nodeShapes) {
      const o = Math.round(100 * (0.3 + 0.7 * Math.sqrt(reach[s.k]))) / 100;
      if (o === s.opacity) continue;
      s.opacity = o;
      s.shape.setAttribute("fill-opacity", o.toFixed(2));
      if (s.text || s.lock) {
        // White or black key, whichever reads better on the pill as painted (WCAG contrast).
        const behind = over(s.base, o, this.shade[s.k] ? this.bandPaper : this.paper);
        const ink = contrast(behind, [255, 255, 255]) >= contrast(behind, [0, 0, 0]) ? "#fff" : "#000";
        if (s.text) s.text.style.fill = ink;
        if (s.lock) s.lock.style.color = ink;
      }
    }
    const least = this.comparison()?.c.movedAtLeast ?? 0;
    for (const r of this.movedRings || []) {
      const v = this.movedAt(this.f, r.s);
      const shown = v !== null && v >= least ? v : null;
      if (shown === r.shown) continue;
      r.shown = shown;
      if (shown === null) delete r.rect.dataset.moved; else r.rect.dataset.moved = String(shown);
      // The ring's look changes in steps of 0.01: most frames repaint no ring.
      const look = shown === null ? -1 : Math.round(100 * shown);
      if (look === r.look) continue;
      r.look = look;
      // Hidden rings keep stroke "none" (not display:none), so a downloaded figure leaves them out too.
      r.rect.setAttribute("stroke", shown === null ? "none" : this.movedColor(look / 100));
      r.rect.setAttribute("stroke-width", shown === null ? 0 : (3 + 0.03 * look).toFixed(2));
    }
    this.drawSelection();
    this.drawInspector();
  }

  drawSelection() {
    const b = this.b, { x, y, half } = this.pos;
    // Rings and links depend on the selection only: redraw them when it changes, not every frame.
    const drawn = `${this.selected}/${this.hovered}`;
    if (this.gLinks.dataset.drawn === drawn) return;
    this.gLinks.dataset.drawn = drawn;
    this.gLinks.replaceChildren();
    for (const k of [this.selected, this.hovered]) {
      if (k < 0) continue;
      const g = this.groupOf[k];
      const members = g >= 0 ? b.groups[g] : [k];
      for (const m of members) {
        el("svg:rect", { class: "tl-ring", x: x(m) - half[m] - 4, y: y(m) - 14, width: 2 * half[m] + 8, height: 28,
                         rx: 13, "stroke-width": m === k ? 4 : 2 }, this.gLinks);
      }
      // The graph's same-information-set links: the textbook dashed line, on hover or selection.
      for (const [a, c] of g >= 0 ? this.linksOf[g] : []) {
        const bow = Math.max(half[a], half[c]) + 18;
        el("svg:path", { class: "tl-link", d: `M${x(a) + half[a] + 4},${y(a)} C${x(a) + bow + 30},${y(a)} ${x(c) + bow + 30},${y(c)} ${x(c) + half[c] + 4},${y(c)}` }, this.gLinks);
      }
    }
  }

  // ---------------------------------------------------------------- inspector
  drawInspector() {
    const k = this.hovered >= 0 ? this.hovered : this.selected;
    if (this.inspected !== k || this.inspectedKind !== this.kind) this.buildInspector(k);
    this.updateInspector();
  }

  buildInspector(k) {
    const b = this.b, box = this.inspector;
    this.inspected = k;
    this.inspectedKind = this.kind;
    this.cells = null;
    this.cursors = (this.cursors || []).filter((c) => !box.contains(c.line));
    box.replaceChildren();
    // On a narrow screen the inspector is a sheet over the tree, open while a node is shown.
    // On a narrow screen the inspector is a sheet over the tree: open after a tap on a node,
    // else a bar with the node's name at the foot of the screen.
    const open = !!this.narrow && k >= 0 && !this.sheetClosed, peek = !!this.narrow && k >= 0 && this.sheetClosed;
    box.classList.toggle("tl-open", open);
    box.classList.toggle("tl-peek", peek);
    if (open || peek) {
      const toggle = el("button", { type: "button", class: "tl-close", "aria-label": open ? "Close the inspector" : "Open the inspector" },
                        box, open ? "✕" : "▴");
      toggle.addEventListener("click", (e) => { e.stopPropagation(); if (open) this.closeSheet(); else this.openSheet(); });
    }
    box.onclick = peek ? () => this.openSheet() : null;
    el("div", { class: "tl-hover-note" }, box, this.hovered >= 0 && this.hovered !== this.selected ? "Hovering: click the node to keep it here." : "");
    if (k < 0) {
      el("h4", {}, box, "Inspector");
      el("p", {}, box, this.offPart !== null && this.offPart !== undefined
        ? `Node ${this.offPart} is not in the part drawn; choose its part above.`
        : "No node selected: click a node of the tree. Hover a node to see its numbers at t.");
      el("p", { class: "tl-note" }, box, "Keys: ← → step, Home / End, space plays. Click the tree first.");
      return;
    }
    const n = b.nodes, s = n.set[k], id = n.id[k];
    if (s < 0) {
      el("h4", {}, box, `Node ${id}: ${n.label[k]}`);
      if (n.actor[k] === 3) el("p", {}, box, `Terminal: player 1 gets ${fmt(n.payoff[k], 0)} chips here (player 2 the opposite).`);
      else {
        const kids = n.parent.map((p, c) => p === k ? c : -1).filter((c) => c >= 0);
        el("p", {}, box, "Chance deals: " + kids.map((c) => `${n.edge[c]} (${n.chance[c].toFixed(3)})`).join(", "));
      }
      return;
    }
    const info = b.sets[s];
    el("h4", {}, box, `Node ${id}: ${n.label[k]}`);
    el("div", { class: "tl-sub" }, box, `${b.players[info.player]} to act · information set ${info.key}`);
    if (info.lock) {
      const note = el("div", { class: "tl-lock-note", "data-testid": "timeline-lock" }, box);
      padlock(el("svg:svg", { width: 12, height: 14, class: "tl-lock-icon", "aria-hidden": "true" }, note), 6, 8);
      note.appendChild(document.createTextNode(` Locked: ${info.actions.map((a, j) => `${a} ${fmt(info.lock[j], 3)}`).join(", ")}. ` +
        "The solver treats this set as a chance node: both strategies are the lock and its regret stays 0."));
    }
    const chips = el("div", {}, box);
    chips.appendChild(document.createTextNode(`Histories in this set (${info.histories.length}): `));
    for (const [hid, label, local] of info.histories) {
      const chip = el("button", { type: "button", class: "tl-chip" + (hid === id ? " tl-this" : "") }, chips, label);
      if (local >= 0) chip.addEventListener("click", () => this.select(local));
      else {
        chip.title = "not in the part drawn: click to go to its part";
        chip.addEventListener("click", () => this.send?.setTriggerValue("node", hid));
      }
    }
    if (info.histories.some((h) => h[2] < 0)) {
      const whole = el("button", { type: "button", class: "tl-chip" }, box,
                       `Draw this set whole (deals by ${b.players[info.player]}'s card)`);
      whole.addEventListener("click", () => this.send?.setTriggerValue("wholeSet", id));
    }
    this.reachLine = el("div", { class: "tl-reach" }, box);
    const table = el("table", { class: "tl-table" }, box);
    const head = el("tr", {}, el("thead", {}, table));
    el("th", {}, head, "at t");
    info.letters.forEach((a, j) => { const th = el("th", { style: `color:${b.colors.actions[j]}` }, head, info.actions[j]); th.title = a; });
    const tbody = el("tbody", {}, table);
    const rows = [
      ["current strategy", "current", 3, "The strategy played in iteration t."],
      ["average strategy", "average", 3, "The average strategy over iterations 1..t: what converges."],
      ...(this.comparison()?.setIndex[s] >= 0 ? [["unlocked run's average", "unlocked", 3,
        "The same settings solved without the locks: its average strategy at t."]] : []),
      ["cf value, this history", "cf", 4, "Counterfactual value of each action at this history: opponent-and-chance reach times the expected payoff after the action."],
      ["cf value, whole set", "setValue", 4, "Summed over the set's histories."],
      ["regret of iteration t", "instantRegret", 4, "The set's cf value of the action minus the cf value of the strategy, in iteration t."],
      ["cumulative regret", "regret", 4, "Summed over iterations 1..t (as the algorithm keeps it)."],
    ];
    this.cells = rows.map(([label, key, digits, help]) => {
      const tr = el("tr", {}, tbody);
      el("td", { title: help }, tr, label);
      return { key, digits, tds: info.actions.map(() => el("td", {}, tr)) };
    });
    this.movedLine = this.comparison()?.setIndex[s] >= 0 ? el("div", { class: "tl-reach", "data-testid": "timeline-moved" }, box) : null;
    if (b.numbersSource) el("div", { class: "tl-note" }, box, `Values: ${b.numbersSource}.`);
    this.spark(box, `${this.kind} strategy over the iterations`, this.kind, s, [0, 1]);
    this.spark(box, "cumulative regret over the iterations", "regret", s, null);
  }

  // A small chart of one set's values over the frames, with its axes' ends labelled: the value
  // range on the left, the first and last iteration below.
  spark(box, title, key, s, range) {
    const b = this.b;
    if (!b[key] || this.frames.length < 2) return;
    el("div", { class: "tl-spark-title" }, box, title);
    const series = b[key].map((row) => row[s]);
    const A = b.sets[s].actions.length;
    let lo = range ? range[0] : Infinity, hi = range ? range[1] : -Infinity;
    if (!range) for (const row of series) for (let a = 0; a < A; a++) { lo = Math.min(lo, row[a]); hi = Math.max(hi, row[a]); }
    if (!(hi > lo)) { hi = lo + 1; }
    const tick = (v) => range ? String(v) : fmt(v, Math.abs(hi - lo) >= 10 ? 1 : 2);
    const x0 = Math.ceil(Math.max(this.measure(tick(lo)), this.measure(tick(hi)))) + 8;
    const W = 310, plotH = 64, H = plotH + 20, w = W - x0 - 6;
    const svg = el("svg:svg", { width: W, height: H, role: "img", "aria-label": title, class: "tl-spark" }, box);
    const Y = (v) => plotH - 4 - ((v - lo) / (hi - lo)) * (plotH - 8);
    el("svg:line", { x1: x0, x2: x0, y1: 2, y2: plotH, stroke: "#bbb" }, svg);
    el("svg:line", { x1: x0, x2: x0 + w, y1: plotH, y2: plotH, stroke: "#bbb" }, svg);
    el("svg:text", { x: x0 - 4, y: Y(hi) + 10, "text-anchor": "end" }, svg, tick(hi));
    el("svg:text", { x: x0 - 4, y: Y(lo) + 2, "text-anchor": "end" }, svg, tick(lo));
    el("svg:text", { x: x0, y: H - 2, "text-anchor": "start" }, svg, `t = ${thousands(this.frames[0])}`);
    el("svg:text", { x: x0 + w, y: H - 2, "text-anchor": "end" }, svg, thousands(this.frames[this.frames.length - 1]));
    if (lo < 0 && hi > 0) el("svg:line", { x1: x0, x2: x0 + w, y1: Y(0), y2: Y(0), stroke: "#ccc" }, svg);
    for (let a = 0; a < A; a++) {
      const pts = series.map((row, f) => `${(x0 + this.axis(this.frames[f]) * w).toFixed(1)},${Y(row[a]).toFixed(1)}`);
      el("svg:polyline", { points: pts.join(" "), fill: "none", stroke: b.colors.actions[a], "stroke-width": 2 }, svg);
    }
    const line = el("svg:line", { y1: 0, y2: plotH, stroke: "#E69F00", "stroke-width": 2 }, svg);
    this.cursors = this.cursors || [];
    this.cursors.push({ line, x0, w });
  }

  sparksChanged() { this.inspected = null; this.drawExploitability(); if (!this.spec.inspector && this.width) this.spec.build(this); }

  drawExploitability() {
    const e = this.b.exploitability, svg = this.exp;
    if (!svg) return;
    svg.replaceChildren();
    this.expCursor = null;
    // The chart modes draw exploitability in full: no small copy in the bar.
    if (!e || this.frames.length < 2 || this.mode === "charts" || this.mode === "exploitability") { svg.style.display = "none"; return; }
    const vals = e.map((v) => Math.log10(Math.max(v, 1e-12)));
    const lo = Math.min(...vals), hi = Math.max(...vals) + 1e-9;
    const pts = vals.map((v, f) => `${(4 + this.axis(this.frames[f]) * 162).toFixed(1)},${(26 - (v - lo) / (hi - lo) * 22).toFixed(1)}`);
    el("svg:title", {}, svg, "Exploitability of the average strategy (log scale)");
    el("svg:polyline", { points: pts.join(" "), fill: "none", stroke: "#555", "stroke-width": 1.5 }, svg);
    this.expCursor = el("svg:line", { y1: 0, y2: 30, stroke: "#E69F00", "stroke-width": 2 }, svg);
  }

  updateInspector() {
    const k = this.inspected, b = this.b, f = this.f;
    if (k === undefined || k === null || k < 0 || !this.cells || !this.frames.length) return;
    const s = b.nodes.set[k], info = b.sets[s];
    this.reachLine.innerHTML = "";
    const own = b.ownReach[f][k], others = b.othersReach[f][k];
    this.reachLine.append(`Reach at t: own (${b.players[info.player]}) `, el("b", {}, null, fmt(own)),
                          " · opponent and chance ", el("b", {}, null, fmt(others)));
    for (const row of this.cells) {
      const values = row.key === "cf" ? b.cfValue[f][k] : row.key === "unlocked" ? this.unlockedAt(f, s) : b[row.key][f][s];
      row.tds.forEach((td, a) => { td.textContent = values ? fmt(values[a], row.digits) : "–"; });
    }
    if (this.movedLine) {
      const v = this.movedAt(f, s);
      this.movedLine.replaceChildren("Moved from the unlocked run at t: ", el("b", {}, null, v === null ? "–" : fmt(v, 3)),
                                     " (total variation)");
    }
  }

  // ---------------------------------------------------------------- charts and sets modes
  buildCharts() {
    const b = this.b, box = this.main;
    box.replaceChildren();
    this.cursors = [];
    this.chartCells = [];
    if (this.frames.length < 1) return;
    const card = (title) => { const c = el("div", { class: "tl-card" }, box); el("h5", {}, c, title); return c; };
    // A chart over the frames with labelled axes: the value range (and its unit) on the left, the
    // first and last iteration and "iteration t" below; a cursor at t that draw() moves.
    // Charts are drawn once every card is in the grid: only then does a card have its final width.
    const pending = [];
    const chart = (c, ...args) => { const holder = el("div", {}, c); pending.push(() => drawChart(holder, ...args)); };
    const drawChart = (c, lines, logY, label, yTitle) => {
      // As wide as the card's grid cell allows (a wide screen packs more, narrower, cells).
      const fit = c.clientWidth > 0 ? Math.floor(c.clientWidth) : Math.floor(this.width / 2) - 40;
      // Home's lone chart may fill a wide card; a grid of charts keeps them small.
      const lone = this.mode === "exploitability";
      const W = Math.min(lone ? 900 : 520, Math.max(260, fit)), plotH = lone ? 150 : 110, top = 26, H = top + plotH + 44;
      const ys = lines.map(([values]) => values.map((x) => logY ? Math.log10(Math.max(x, 1e-12)) : x));
      const lo = Math.min(...ys.flat()), hi = Math.max(...ys.flat()) + 1e-12;
      const tick = (v) => logY ? sci(10 ** v) : fmt(v, 3);
      const x0 = Math.ceil(Math.max(this.measure(tick(lo)), this.measure(tick(hi)))) + 8, w = W - x0 - 10;
      const Y = (y) => top + plotH - (y - lo) / (hi - lo) * plotH;
      const svg = el("svg:svg", { width: W, height: H, role: "img", class: "tl-chart", "aria-label": `${label}: ${yTitle} against iteration t` }, c);
      el("svg:line", { x1: x0, x2: x0, y1: top, y2: top + plotH, stroke: "#aaa" }, svg);
      el("svg:line", { x1: x0, x2: x0 + w, y1: top + plotH, y2: top + plotH, stroke: "#aaa" }, svg);
      el("svg:text", { x: x0 - 6, y: Y(hi) + 10, "text-anchor": "end" }, svg, tick(hi));
      el("svg:text", { x: x0 - 6, y: Y(lo), "text-anchor": "end" }, svg, tick(lo));
      el("svg:text", { x: x0, y: top + plotH + 18, "text-anchor": "start" }, svg, thousands(this.frames[0]));
      el("svg:text", { x: x0 + w, y: top + plotH + 18, "text-anchor": "end" }, svg, thousands(this.frames[this.frames.length - 1]));
      el("svg:text", { x: x0 + w / 2, y: H - 4, "text-anchor": "middle", class: "tl-axis-title" }, svg,
         this.log ? "iteration t (log scale)" : "iteration t");
      el("svg:text", { x: 0, y: 15, "text-anchor": "start", class: "tl-axis-title" }, svg, yTitle);   // the y axis, above it
      ys.forEach((v, j) => {
        const pts = v.map((y, f) => `${(x0 + this.axis(this.frames[f]) * w).toFixed(1)},${Y(y).toFixed(1)}`);
        el("svg:polyline", { points: pts.join(" "), fill: "none", stroke: lines[j][1], "stroke-width": 2,
                             "stroke-dasharray": lines[j][2] || "none" }, svg);
      });
      this.cursors.push({ line: el("svg:line", { y1: top, y2: top + plotH, stroke: "#E69F00", "stroke-width": 2 }, svg), x0, w });
    };
    const metric = (c, text, testid) => {
      const m = el("div", { class: "tl-metric", "data-testid": testid }, c);
      this.chartCells.push(() => { m.textContent = text(); });
    };
    if (this.mode === "sets" && b.sets.length) {
      const c = card("Strategy at t of each information set (bar widths: probability of each action)");
      const grid = el("div", { class: "tl-bars" }, c);
      for (const s of b.order || b.sets.keys()) {   // the heat map's row order
        el("span", {}, grid, `${b.sets[s].key} (${b.players[b.sets[s].player]})`);
        const row = el("div", { class: "tl-bar-row", title: b.sets[s].actions.join(" / ") }, grid);
        const parts = b.sets[s].actions.map((a, j) => el("span", { style: `background:${b.colors.actions[j]}` }, row));
        this.chartCells.push(() => {
          const p = this.strategyAt(this.kind, this.f)[s];
          parts.forEach((span, j) => { span.style.width = `${(100 * p[j]).toFixed(1)}%`; span.title = `${b.sets[s].actions[j]} ${prob(p[j])}`; });
        });
      }
      const legend = el("div", { class: "tl-note" }, c);
      const letters = new Map();
      b.sets.forEach((set) => set.actions.forEach((a, j) => { if (!letters.has(j)) letters.set(j, []); if (!letters.get(j).includes(a)) letters.get(j).push(a); }));
      for (const [j, names] of letters) { const s = el("span", { style: "margin-right:12px" }, legend); s.innerHTML = `<b style="color:${b.colors.actions[j]}">■</b> `; s.append(names.join(" / ")); }
      for (const key of this.focus || []) {
        const s = b.sets.findIndex((set) => set.key === key);
        if (s < 0) continue;
        const c2 = card(`${key} (${b.players[b.sets[s].player]})`);
        this.spark(c2, `${this.kind} strategy`, this.kind, s, [0, 1]);
        this.spark(c2, "cumulative regret", "regret", s, null);
      }
    }
    if (b.exploitability) {
      const c = card("Exploitability (chips/hand, log scale)");
      metric(c, () => `${sci(b.exploitability[this.f])} average` +
        (b.currentExploitability ? ` · ${sci(b.currentExploitability[this.f])} current` : ""), "timeline-exploitability");
      const lines = [[b.exploitability, "#0072B2"]];
      if (b.currentExploitability) lines.push([b.currentExploitability, "#D55E00", "5 4"]);
      chart(c, lines, true, "exploitability over the iterations", "exploitability, chips/hand (log scale)");
      if (b.currentExploitability) el("div", { class: "tl-note" }, c, "solid: average strategy · dashed: current strategy (last iterate)");
    }
    if (b.expectedValue && this.mode === "charts") {
      const c = card("Running mean of player 1's value (chips/hand)");
      metric(c, () => fmt(b.expectedValue[this.f]), "timeline-value");
      chart(c, [[b.expectedValue, "#0072B2"]], false, "running mean value", "player 1's value, chips/hand");
    }
    for (const draw of pending) draw();
  }

  drawCharts() { for (const cell of this.chartCells || []) cell(); }
}

// ---------------------------------------------------------------- figures for slides
// The view as a standalone SVG: each panel of the live drawing copied with its computed styles
// inlined (SVG parts cloned, HTML text and boxes placed where the browser laid them out).
const SVG_STYLE = ["fill", "fill-opacity", "stroke", "stroke-width", "stroke-opacity", "stroke-dasharray",
                   "stroke-linecap", "stroke-linejoin", "paint-order", "opacity", "font-family", "font-size",
                   "font-weight", "text-anchor"];

// The page's font first, then fonts most viewers have.
const family = (css) => `${css}, "Source Sans Pro", "Source Sans 3", "Helvetica Neue", Arial, sans-serif`;

function inlineStyle(live, copy) {
  const cs = getComputedStyle(live);
  copy.setAttribute("style", SVG_STYLE.map((p) => `${p}:${p === "font-family" ? family(cs.getPropertyValue(p)) : cs.getPropertyValue(p)}`).join(";"));
  copy.removeAttribute("class");
}

// Copy an <svg> of the page into group `into` at (dx, dy), styles inlined.
function copySVG(svg, into, dx, dy) {
  const g = el("svg:g", { transform: `translate(${dx.toFixed(1)},${dy.toFixed(1)})` }, into);
  for (const child of svg.children) {
    if (child.tagName === "title") continue;
    const copy = child.cloneNode(true);
    const lives = [child, ...child.querySelectorAll("*")], copies = [copy, ...copy.querySelectorAll("*")];
    lives.forEach((live, i) => {
      if (copies[i].tagName === "title") return;
      inlineStyle(live, copies[i]);
      if (live.tagName === "text" && live.textContent.trim()) fitText(copies[i], live.getComputedTextLength());
    });
    copy.querySelectorAll("title").forEach((t) => t.remove());
    g.appendChild(copy);
  }
}

// A viewer without the page's font draws the text in the width the browser laid it out in, so
// neighbouring texts never run into each other.
function fitText(text, width) {
  text.setAttribute("textLength", width.toFixed(1));
  text.setAttribute("lengthAdjust", "spacingAndGlyphs");
}

const fontMetrics = new Map();
function ascent(font) {
  if (!fontMetrics.has(font)) {
    const ctx = document.createElement("canvas").getContext("2d");
    ctx.font = font;
    const m = ctx.measureText("Hg");
    fontMetrics.set(font, m.fontBoundingBoxAscent ?? m.actualBoundingBoxAscent);
  }
  return fontMetrics.get(font);
}

// Copy what the browser shows inside `box` (HTML with text, borders, filled bars and SVGs) into
// group `into`, at the positions it has relative to `box`'s top left corner, moved by (dx, dy).
function copyPanel(box, into, dx, dy) {
  const origin = box.getBoundingClientRect();
  const ox = origin.left - box.scrollLeft - dx, oy = origin.top - box.scrollTop - dy;
  if (!box.scrollTop && !box.scrollLeft && box.scrollHeight <= box.clientHeight + 1) copyBox(box, into, origin.left - dx, origin.top - dy);
  const visible = (e) => { const cs = getComputedStyle(e); return cs.display !== "none" && cs.visibility !== "hidden"; };
  const walk = (node) => {
    if (node.nodeType === Node.TEXT_NODE) { copyText(node, into, ox, oy); return; }
    if (node.nodeType !== Node.ELEMENT_NODE || !visible(node) || node.classList.contains("tl-close")) return;
    if (node instanceof SVGSVGElement) {
      const r = node.getBoundingClientRect();
      copySVG(node, into, r.left - ox, r.top - oy);
      return;
    }
    copyBox(node, into, ox, oy);
    for (const child of node.childNodes) walk(child);
  };
  for (const child of box.childNodes) walk(child);
}

function copyBox(node, into, ox, oy) {
  const cs = getComputedStyle(node), r = node.getBoundingClientRect();
  if (!r.width || !r.height) return;
  const bg = rgba(cs.backgroundColor);
  const radius = parseFloat(cs.borderTopLeftRadius) || 0;
  const x = r.left - ox, y = r.top - oy;
  const sides = ["Top", "Right", "Bottom", "Left"].map((s) => cs[`border${s}Style`] !== "none" ? parseFloat(cs[`border${s}Width`]) : 0);
  const boxed = sides.every((w) => w > 0);
  if ((bg && bg[3] > 0) || boxed) {
    el("svg:rect", { x: x.toFixed(1), y: y.toFixed(1), width: r.width.toFixed(1), height: r.height.toFixed(1), rx: radius,
                     style: `fill:${bg && bg[3] > 0 ? cs.backgroundColor : "none"};stroke:${boxed ? cs.borderTopColor : "none"};stroke-width:${sides[0]}` }, into);
  } else if (sides[2] > 0) {
    const yb = y + r.height - sides[2] / 2;
    el("svg:line", { x1: x.toFixed(1), x2: (x + r.width).toFixed(1), y1: yb.toFixed(1), y2: yb.toFixed(1),
                     style: `stroke:${cs.borderBottomColor};stroke-width:${sides[2]}` }, into);
  }
}

// A text node's words, grouped into the lines the browser broke them into.
function copyText(node, into, ox, oy) {
  const text = node.textContent;
  if (!text.trim()) return;
  const cs = getComputedStyle(node.parentElement);
  const font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
  const range = document.createRange();
  const lines = [];
  const re = /\S+/g;
  let m;
  while ((m = re.exec(text))) {
    range.setStart(node, m.index);
    range.setEnd(node, m.index + m[0].length);
    const r = range.getBoundingClientRect();
    if (!r.width) continue;
    const line = lines[lines.length - 1];
    if (line && Math.abs(line.top - r.top) < 2) { line.words.push(m[0]); line.right = r.right; }
    else lines.push({ top: r.top, left: r.left, right: r.right, words: [m[0]] });
  }
  for (const line of lines) {
    const t = el("svg:text", { x: (line.left - ox).toFixed(1), y: (line.top - oy + ascent(font)).toFixed(1),
                               style: `fill:${cs.color};font-family:${family(cs.fontFamily)};font-size:${cs.fontSize};font-weight:${cs.fontWeight}` },
                 into, line.words.join(" "));
    fitText(t, line.right - line.left);
  }
}

// The figure of the current view: a title line, the drawing (the tree, or the charts), the
// inspector beside the tree when a node is shown, and the legend under them.
function figure(tl) {
  const rootStyle = getComputedStyle(tl.root);
  const paper = rootStyle.getPropertyValue("--st-background-color").trim() || "#ffffff";
  const ink = rootStyle.color;
  const pad = 16, gap = 16, titleH = 30;
  const svg = el("svg:svg", { version: "1.1" });
  const back = el("svg:rect", { x: 0, y: 0, style: `fill:${paper}` }, svg);
  const title = [tl.b.title, tl.frameLabel()];
  if (tl.spec.kind) title.push(`${tl.spec.kind.replace(/:\s*$/, "")}: ${tl.kind === "current" ? "current strategy" : "average strategy"}`);
  el("svg:text", { x: pad, y: pad + 16, style: `fill:${ink};font-family:${family(rootStyle.fontFamily)};font-size:16px;font-weight:600` },
     svg, title.join(" · "));
  const body = el("svg:g", {}, svg);
  let width = 0, height = 0;
  const place = (box, x, y) => {
    copyPanel(box, body, x, y);
    width = Math.max(width, x + Math.max(box.scrollWidth, box.getBoundingClientRect().width));
    height = Math.max(height, y + Math.max(box.scrollHeight, box.getBoundingClientRect().height));
  };
  const top = pad + titleH;
  if (tl.spec.inspector) {
    const treeW = Math.max(tl.treeBox.scrollWidth, Number(tl.svg?.getAttribute("width")) || 0);
    place(tl.treeBox, pad, top);
    const shown = tl.inspected !== null && tl.inspected !== undefined && tl.inspected >= 0;
    if (shown) place(tl.inspector, pad + treeW + gap, top);
    place(tl.legend, pad, height + 12);
  } else {
    place(tl.main, pad, top);
  }
  const W = Math.ceil(width + pad), H = Math.ceil(height + pad);
  svg.setAttribute("width", W); svg.setAttribute("height", H); svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  back.setAttribute("width", W); back.setAttribute("height", H);
  return { svg, width: W, height: H };
}

const fileName = (tl, ext) => `cfrviz-${tl.b.title.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "")}` +
  `-t${tl.frames[tl.f] ?? 0}.${ext}`;

function save(blob, name) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 60_000);
}

function downloadSVG(tl) {
  const { svg } = figure(tl);
  const text = '<?xml version="1.0" encoding="UTF-8"?>\n' + new XMLSerializer().serializeToString(svg);
  save(new Blob([text], { type: "image/svg+xml" }), fileName(tl, "svg"));
}

// Paint a figure (made by `figure`, so only the shapes it holds) on a canvas context.
function paint(ctx, node) {
  const tag = node.tagName;
  if (tag === "title") return;
  ctx.save();
  const st = node.style;
  const css = (p) => st ? st.getPropertyValue(p) : "";
  const num = (p, d) => { const v = parseFloat(css(p)); return Number.isFinite(v) ? v : d; };
  const attr = (a) => parseFloat(node.getAttribute(a)) || 0;
  const move = (node.getAttribute("transform") || "").match(/translate\(([-\d.]+)[ ,]+([-\d.]+)\)/);
  if (move) ctx.translate(Number(move[1]), Number(move[2]));
  ctx.globalAlpha *= num("opacity", 1);
  const fill = css("fill") || node.getAttribute("fill") || (tag === "text" ? "#000" : "none");
  const stroke = css("stroke") || node.getAttribute("stroke") || "none";
  const strokeWidth = num("stroke-width", parseFloat(node.getAttribute("stroke-width")) || 1);
  const dash = css("stroke-dasharray");
  const doFill = (draw) => {
    if (fill === "none" || !fill) return;
    ctx.save(); ctx.globalAlpha *= num("fill-opacity", 1); ctx.fillStyle = fill; draw(); ctx.restore();
  };
  const doStroke = (draw) => {
    if (stroke === "none" || !stroke || strokeWidth <= 0) return;
    ctx.save();
    ctx.globalAlpha *= num("stroke-opacity", 1);
    ctx.strokeStyle = stroke; ctx.lineWidth = strokeWidth;
    ctx.lineCap = css("stroke-linecap") || node.getAttribute("stroke-linecap") || "butt";
    ctx.lineJoin = css("stroke-linejoin") || "miter";
    ctx.setLineDash(dash && dash !== "none" ? dash.split(/[ ,]+/).map(parseFloat).filter(Number.isFinite) : []);
    draw(); ctx.restore();
  };
  if (tag === "g" || tag === "svg") {
    for (const child of node.children) paint(ctx, child);
  } else if (tag === "rect") {
    const path = new Path2D();
    path.roundRect(attr("x"), attr("y"), attr("width"), attr("height"), attr("rx"));
    doFill(() => ctx.fill(path)); doStroke(() => ctx.stroke(path));
  } else if (tag === "line") {
    doStroke(() => { ctx.beginPath(); ctx.moveTo(attr("x1"), attr("y1")); ctx.lineTo(attr("x2"), attr("y2")); ctx.stroke(); });
  } else if (tag === "path") {
    const path = new Path2D(node.getAttribute("d"));
    doFill(() => ctx.fill(path)); doStroke(() => ctx.stroke(path));
  } else if (tag === "polyline") {
    const pts = (node.getAttribute("points") || "").trim().split(/\s+/).map((p) => p.split(",").map(Number));
    doStroke(() => { ctx.beginPath(); pts.forEach(([x, y], i) => (i ? ctx.lineTo(x, y) : ctx.moveTo(x, y))); ctx.stroke(); });
  } else if (tag === "text") {
    ctx.font = `${css("font-weight") || "400"} ${css("font-size") || "14px"} ${css("font-family") || "sans-serif"}`;
    const anchor = css("text-anchor") || node.getAttribute("text-anchor") || "start";
    ctx.textAlign = anchor === "middle" ? "center" : anchor === "end" ? "right" : "left";
    ctx.textBaseline = "alphabetic";
    const x = attr("x"), y = attr("y"), text = node.textContent;
    const most = node.hasAttribute("textLength") ? attr("textLength") + 1 : undefined;
    const halo = () => doStroke(() => ctx.strokeText(text, x, y, most));
    if ((css("paint-order") || "").startsWith("stroke")) { halo(); doFill(() => ctx.fillText(text, x, y, most)); }
    else { doFill(() => ctx.fillText(text, x, y, most)); halo(); }
  }
  ctx.restore();
}

function canvasOf(fig, scale) {
  const canvas = document.createElement("canvas");
  canvas.width = Math.round(fig.width * scale);
  canvas.height = Math.round(fig.height * scale);
  return canvas;
}

function paintFigure(canvas, fig, scale) {
  const ctx = canvas.getContext("2d");
  ctx.setTransform(scale, 0, 0, scale, 0, 0);
  ctx.clearRect(0, 0, fig.width, fig.height);
  paint(ctx, fig.svg);
}

function downloadPNG(tl) {
  const fig = figure(tl);
  const canvas = canvasOf(fig, 2);   // 2x pixel ratio: sharp on slides and retina screens
  paintFigure(canvas, fig, 2);
  canvas.toBlob((blob) => save(blob, fileName(tl, "png")), "image/png");
}

// A WebM of the view stepping through frames first..last: each frame is painted on a canvas and
// handed to MediaRecorder. At least 24 video frames: short ranges hold each frame longer.
async function downloadAnimation(tl, first, last, button) {
  if (tl.recording) return;
  const status = tl.animStatus;
  if (typeof MediaRecorder === "undefined" || !HTMLCanvasElement.prototype.captureStream) {
    status.textContent = "This browser cannot record video (no MediaRecorder).";
    return;
  }
  const steps = [];
  const count = Math.min(120, last - first + 1);
  for (let i = 0; i < count; i++) steps.push(count === 1 ? first : Math.round(first + (i * (last - first)) / (count - 1)));
  const picked = [...new Set(steps)];
  const hold = Math.max(1, Math.ceil(24 / picked.length));
  const fps = 12;
  tl.pause(false);
  const keep = tl.f;
  tl.f = picked[0]; tl.draw();
  const fig0 = figure(tl);
  const canvas = canvasOf(fig0, 1);
  paintFigure(canvas, fig0, 1);
  const type = ["video/webm;codecs=vp9", "video/webm;codecs=vp8", "video/webm"].find((t) => MediaRecorder.isTypeSupported(t));
  const stream = canvas.captureStream(0);
  const track = stream.getVideoTracks()[0];
  const recorder = new MediaRecorder(stream, type ? { mimeType: type } : {});
  const chunks = [];
  recorder.ondataavailable = (e) => { if (e.data.size) chunks.push(e.data); };
  const done = new Promise((resolve) => { recorder.onstop = resolve; });
  tl.recording = true;
  button.disabled = true;
  let made = 0;
  recorder.start();
  try {
    for (const f of picked) {
      tl.f = f; tl.draw();
      const fig = figure(tl);
      for (let h = 0; h < hold; h++) {
        paintFigure(canvas, { ...fig, width: fig0.width, height: fig0.height }, 1);
        track.requestFrame();
        made += 1;
        status.textContent = `Recording frame ${made} of ${picked.length * hold}…`;
        await new Promise((resolve) => setTimeout(resolve, 1000 / fps));
      }
    }
  } finally {
    recorder.stop();
    await done;
    track.stop();
    tl.recording = false;
    button.disabled = false;
    tl.f = keep; tl.draw();
  }
  status.textContent = `${made} frames, iterations ${thousands(tl.frames[first])} to ${thousands(tl.frames[last])}.`;
  status.dataset.frames = String(made);
  const name = `cfrviz-${tl.b.title.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "")}` +
    `-t${tl.frames[first]}-${tl.frames[last]}.webm`;
  save(new Blob(chunks, { type: "video/webm" }), name);
}

// ---------------------------------------------------------------- modes
// A mode: `build(tl)` lays the drawing out for tl.width, `draw(tl)` shows frame tl.f;
// `inspector` gives the tree-and-inspector layout (tl.treeBox, tl.inspector, tl.legend), `kind`
// (a label) offers average/current strategy, reported to Python as `kind`, and `label(tl)`, if
// given, names the frame in the bar and in figures (default "Iteration t = … of …"); `frames(body)`,
// if given, is the list of iterations the bar steps through (default body.frames); `state(tl, value)`,
// if given, gets the header's `state` (`mount(..., state=...)` in Python) before each redraw; `report`,
// if given, is the state name the frame is sent back under on a pause (default "t").
// A page's mode lives in its own file in modes/ (loaded after this one) and adds itself with
// `MODES.name = {...}`; its data is the payload's `extra`. Its name is in
// cfrviz.figures.timeline.MODES. It gets keys, playback, focus, the server's t and the SVG/PNG/WebM
// downloads from the core.
const MODES = {
  tree: { build: (tl) => tl.buildTree(), draw: (tl) => tl.drawTree(), inspector: true, kind: "edge width: " },
  sets: { build: (tl) => tl.buildCharts(), draw: (tl) => tl.drawCharts(), inspector: false, kind: "strategy: " },
  charts: { build: (tl) => tl.buildCharts(), draw: (tl) => tl.drawCharts(), inspector: false, kind: null },
  // Home's one chart: the exploitability card of "charts" alone.
  exploitability: { build: (tl) => tl.buildCharts(), draw: (tl) => tl.drawCharts(), inspector: false, kind: null },
};

function holdFocus(root, key) {
  if (root.focusWatched) return;
  root.focusWatched = true;
  root.addEventListener("focusin", () => focusHeld.set(key, true));
  root.addEventListener("focusout", (e) => {
    if (e.relatedTarget && root.contains(e.relatedTarget)) return;
    const left = e.target;
    // Focus that leaves because its element was removed (a rebuild, a remount) stays ours.
    setTimeout(() => { if (root.isConnected && left.isConnected && !root.contains(focused())) focusHeld.set(key, false); }, 0);
  });
}

// The element with the focus, looking into shadow roots.
function focused() {
  let a = document.activeElement;
  while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
  return a;
}

function restoreFocus(root, key) {
  if (!focusHeld.get(key)) return;
  const take = () => {
    const a = document.activeElement;
    if (root.isConnected && (!a || a === document.body) && focusHeld.get(key)) root.focus({ preventScroll: true });
  };
  take();
  requestAnimationFrame(take);
}

export default function (component) {
  const { data, parentElement, setStateValue, setTriggerValue } = component;
  const key = component.key ?? "timeline";
  const { header, body } = parse(data);
  const mode = MODES[header.mode] ? header.mode : "tree";
  let root = parentElement.querySelector(".tl");
  if (root && (root.tl?.id !== header.id || root.tl?.mode !== mode)) {
    // A new part or mode: a new drawing in the same element, which keeps the focus.
    root.tl?.destroy();
    root.replaceChildren();
    new Timeline(root, header, body);
  }
  if (!root) {
    root = document.createElement("div");
    parentElement.appendChild(root);
    new Timeline(root, header, body);
  }
  holdFocus(root, key);
  const tl = root.tl;
  tl.send = { setStateValue, setTriggerValue };
  tl.applyHeader(header);
  tl.layoutChanged();
  restoreFocus(root, key);
  return () => tl.pause(false);
}
