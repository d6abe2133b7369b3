// cfrviz timeline: the run's frames scrubbed in the browser (Streamlit components v2, no iframe).
// Python sends one JSON header line (payload id and the server's view) and the payload body
// (cfrviz/timeline.py). Every input event redraws here; the server hears `t` only on release or
// after a pause in key presses, and `node` when a node is clicked.
const SVG = "http://www.w3.org/2000/svg";
const PITCH = 24;          // px between leaf rows: a 14 px label and its neighbour never touch
const SEND_DELAY = 300;    // ms of quiet after key steps before the server learns t
const decoder = new TextDecoder();
const payloads = new Map(); // payload id -> parsed body, shared by every mount on the page

function parse(data) {
  const bytes = data instanceof Uint8Array ? data : new Uint8Array(data || []);
  const cut = bytes.indexOf(10);
  const header = JSON.parse(decoder.decode(bytes.subarray(0, cut)));
  let body = payloads.get(header.id);
  if (!body) {
    body = JSON.parse(decoder.decode(bytes.subarray(cut + 1)));
    payloads.set(header.id, body);
    if (payloads.size > 6) payloads.delete(payloads.keys().next().value);
  }
  return { header, body };
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

class Timeline {
  constructor(root, header, body) {
    this.root = root;
    this.id = header.id;
    this.b = body;
    this.mode = header.mode || "tree";
    this.frames = body.frames || [];
    this.f = Math.max(0, this.frames.length - 1);
    this.kind = header.kind === "current" ? "current" : "average";
    this.log = !!header.log;
    this.focus = header.focus || [];
    this.layout = 0;
    this.selected = -1;
    this.hovered = -1;
    this.headerT = null;
    this.headerNode = undefined;
    this.sentT = null;
    this.timer = null;
    this.player = null;
    this.local = new Map(body.nodes.id.map((n, k) => [n, k]));
    root.className = "tl";
    root.tabIndex = 0;
    root.tl = this;
    this.buildBar();
    this.main = el("div", { class: "tl-main" }, root);
    if (this.mode === "tree") {
      this.treeBox = el("div", { class: "tl-tree" }, this.main);
      this.inspector = el("div", { class: "tl-inspector", "aria-live": "polite" }, this.main);
      this.legend = el("div", { class: "tl-legend" }, root);
      this.fillLegend();
    } else {
      this.main.className = "tl-charts";
    }
    root.addEventListener("keydown", (e) => this.onKey(e), true);
    this.resize = new ResizeObserver(() => this.layoutChanged());
    this.resize.observe(root);
    this.width = 0;
  }

  // ---------------------------------------------------------------- the bar
  buildBar() {
    const bar = el("div", { class: "tl-bar" }, this.root);
    const buttons = el("div", { class: "tl-buttons" }, bar);
    const button = (text, label, action) => {
      const b = el("button", { type: "button", "aria-label": label, title: label }, buttons, text);
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
    if (this.mode !== "charts") {
      const radio = (value, text) => {
        const label = el("label", {}, options);
        const input = el("input", { type: "radio", name: `kind-${this.id}`, value }, label);
        input.checked = this.kind === value;
        label.appendChild(document.createTextNode(" " + text));
        input.addEventListener("change", () => { this.kind = value; this.sparksChanged(); this.draw(); });
      };
      options.appendChild(document.createTextNode(this.mode === "tree" ? "edge width: " : "strategy: "));
      radio("average", "average strategy");
      radio("current", "current");
    }
    if (this.mode === "tree" && this.b.layouts.length > 1) {
      const select = el("select", { "aria-label": "Arrange the deals by" }, options);
      this.b.layouts.forEach((lay, k) => el("option", { value: String(k) }, select, `deals by ${lay.name}`));
      select.addEventListener("change", () => { this.layout = Number(select.value); this.width = 0; this.layoutChanged(); });
    }
    this.exp = el("svg:svg", { class: "tl-spark-exp", width: 170, height: 30, role: "img",
                               "aria-label": "exploitability over the iterations" }, bar);
    this.setupSlider();
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
    if (!this.frames.length) return;
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
    if (this.timer || !this.frames.length) return;
    const t = this.frames[this.f];
    if (t === this.sentT) return;
    this.sentT = t;
    this.send?.setStateValue("t", t);
  }

  toggle() { if (this.timer) this.pause(true); else this.play(); }

  play() {
    if (this.frames.length < 2) return;
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
    if (e.target && e.target.tagName === "SELECT") return;
    const keys = { ArrowLeft: -1, ArrowDown: -1, ArrowRight: 1, ArrowUp: 1 };
    if (e.key in keys) this.go(this.f + keys[e.key], true);
    else if (e.key === "Home") this.go(0, true);
    else if (e.key === "End") this.go(this.frames.length - 1, true);
    else if (e.key === " " && !(e.target && e.target.tagName === "BUTTON")) this.toggle();
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
    const focus = h.focus || [];
    if (JSON.stringify(focus) !== JSON.stringify(this.focus)) {
      this.focus = focus;
      if (this.mode !== "tree" && this.width) this.buildCharts();
    }
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
    const w = Math.floor(this.mode === "tree" ? this.treeBox.clientWidth : this.main.clientWidth);
    const narrow = this.root.clientWidth < 760;
    if (this.mode === "tree") this.main.classList.toggle("tl-narrow", narrow);
    if (!w || w === this.width) return;
    this.width = w;
    if (this.mode === "tree") this.buildTree();
    else this.buildCharts();
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
    const W = this.width, C = lay.columns;
    // Shapes: a pill with the information-set key, a chance diamond, a terminal triangle.
    const keyOf = (k) => set[k] >= 0 ? b.sets[set[k]].key : "";
    let half = new Array(N);
    const pillHalf = (k) => (this.measure(keyOf(k), true) + 14) / 2;
    for (let k = 0; k < N; k++) half[k] = actor[k] <= 1 ? pillHalf(k) : 7;
    const colHalf = (h) => { const m = new Array(C).fill(7); for (let k = 0; k < N; k++) m[lay.column[k]] = Math.max(m[lay.column[k]], h[k]); return m; };
    let ch = colHalf(half);
    const payoffText = (k) => b.nodes.payoff[k] === null ? "" : (b.nodes.payoff[k] > 0 ? "+" : "") + b.nodes.payoff[k].toString().replace("-", "−");
    let right = 10;
    for (let k = 0; k < N; k++) if (actor[k] === 3) right = Math.max(right, this.measure(payoffText(k)) + 16);
    const padL = ch[0] + 4;
    const span = (h) => (W - padL - right - ch[C - 1]) / Math.max(1, C - 1);
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
    const gGroups = el("svg:g", {}, svg), gEdges = el("svg:g", {}, svg), gLinks = el("svg:g", {}, svg);
    const gLabels = el("svg:g", {}, svg), gNodes = el("svg:g", {}, svg);
    this.gLinks = gLinks;

    // Information sets whose drawn members are neighbours in their column: one shaded group.
    const byColumn = new Map();
    for (let k = 0; k < N; k++) if (set[k] >= 0) {
      const c = lay.column[k];
      if (!byColumn.has(c)) byColumn.set(c, []);
      byColumn.get(c).push(k);
    }
    for (const members of byColumn.values()) {
      members.sort((a, c) => lay.row[a] - lay.row[c]);
      let start = 0;
      for (let i = 1; i <= members.length; i++) {
        if (i < members.length && set[members[i]] === set[members[start]]) continue;
        if (i - start >= 2) {
          const a = members[start], z = members[i - 1], w = ch[lay.column[a]];
          el("svg:rect", { class: "tl-group", x: x(a) - w - 5, y: y(a) - 15, width: 2 * w + 10,
                           height: y(z) - y(a) + 30, rx: 10 }, gGroups);
        }
        start = i;
      }
    }

    this.edges = [];
    this.edgeLabels = [];
    for (let k = 0; k < N; k++) {
      const p = b.nodes.parent[k];
      if (p < 0) continue;
      const line = el("svg:line", { x1: x(p) + half[p], y1: y(p), x2: x(k) - half[k], y2: y(k),
                                    "stroke-linecap": "round" }, gEdges);
      const chance = actor[p] === 2;
      line.setAttribute("stroke", chance ? b.colors.chance : b.colors.player[actor[p]]);
      this.edges.push({ k, p, line, chance });
      // The label sits just left of the child, above its edge, inside the gap between columns.
      const room = x(k) - half[k] - 6 - (x(k) - colW + ch[lay.column[k] - 1] + 6);
      const letter = b.nodes.edge[k];
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
      let shape;
      if (actor[k] <= 1) {
        shape = el("svg:rect", { x: x(k) - half[k], y: y(k) - 10, width: 2 * half[k], height: 20, rx: 10,
                                 fill: b.colors.player[actor[k]] }, g);
        if (this.keysShown) el("svg:text", { x: x(k), y: y(k) + 5, "text-anchor": "middle" }, g, keyOf(k));
      } else if (actor[k] === 2) {
        shape = el("svg:path", { d: `M${x(k) - 8},${y(k)}l8,-8l8,8l-8,8z`, fill: b.colors.chance }, g);
      } else {
        shape = el("svg:path", { d: `M${x(k) - 6},${y(k) - 5}h12l-6,10z`, fill: b.colors.terminal }, g);
        el("svg:text", { x: x(k) + 10, y: y(k) + 5, class: "tl-payoff" }, g, payoffText(k));
      }
      el("svg:title", {}, g, b.nodes.label[k] + (set[k] >= 0 ? ` · information set ${keyOf(k)}` : ""));
      g.addEventListener("click", () => this.select(k));
      g.addEventListener("mouseenter", () => { this.hovered = k; this.inspected = null; this.draw(); });
      g.addEventListener("mouseleave", () => { this.hovered = -1; this.inspected = null; this.draw(); });
      this.nodeShapes.push({ g, shape, k });
    }
    this.ring = null;
  }

  select(k) {
    this.selected = k;
    this.offPart = null;
    this.inspected = null;
    this.draw();
    this.send?.setTriggerValue("node", this.b.nodes.id[k]);
  }

  fillLegend() {
    const c = this.b.colors;
    this.legend.innerHTML = "";
    const item = (color, text) => { const s = el("span", {}, this.legend); s.innerHTML = `<b style="color:${color}">■</b> `; s.appendChild(document.createTextNode(text)); };
    item(c.player[0], "player 1 to act"); item(c.player[1], "player 2 to act");
    item(c.chance, "chance deals"); item(c.terminal, "terminal: player 1's payoff in chips");
    el("span", {}, this.legend, "Nodes with the same label form one information set: the player to act cannot tell them apart (shaded when they are neighbours). Edge width: probability of the action.");
  }

  // ---------------------------------------------------------------- per-frame drawing
  strategyAt(kind, f) { return this.b[kind]?.[f] ?? null; }

  draw() {
    if (!this.frames.length) { this.tLabel.textContent = "no snapshots"; }
    else {
      const t = this.frames[this.f];
      this.tLabel.textContent = `Iteration t = ${thousands(t)} of ${thousands(this.b.iterations)}`;
      this.slider.value = this.log ? Math.round(1000 * this.axis(t)) : t;
      if (this.expCursor) { const X = 4 + this.axis(t) * 162; this.expCursor.setAttribute("x1", X); this.expCursor.setAttribute("x2", X); }
    }
    if (this.mode === "tree") this.drawTree(); else this.drawCharts();
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
      const o = 0.3 + 0.7 * Math.sqrt(reach[s.k]);
      s.shape.setAttribute("fill-opacity", o.toFixed(2));
      s.g.classList.toggle("tl-light", o < 0.8);
    }
    this.drawSelection(focus);
    this.drawInspector();
  }

  drawSelection(focus) {
    const b = this.b, { x, y, half } = this.pos;
    // Rings and links depend on the selection only: redraw them when it changes, not every frame.
    const drawn = `${this.selected}/${this.hovered}`;
    if (this.gLinks.dataset.drawn === drawn) return;
    this.gLinks.dataset.drawn = drawn;
    this.gLinks.replaceChildren();
    for (const k of [this.selected, this.hovered]) {
      if (k < 0) continue;
      const s = b.nodes.set[k];
      const members = s >= 0 ? b.sets[s].histories.map((h) => h[2]).filter((m) => m >= 0) : [k];
      members.sort((a, c) => y(a) - y(c));
      for (const m of members) {
        el("svg:rect", { class: "tl-ring", x: x(m) - half[m] - 4, y: y(m) - 14, width: 2 * half[m] + 8, height: 28,
                         rx: 13, "stroke-width": m === k ? 4 : 2 }, this.gLinks);
      }
      // Members of the set apart from each other: the textbook dashed line, on hover or selection.
      for (let i = 1; i < members.length; i++) {
        const a = members[i - 1], c = members[i], bow = Math.max(half[a], half[c]) + 18;
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
      if (n.actor[k] === 3) el("p", {}, box, `Terminal: player 1 gets ${fmt(n.payoff[k], 0).replace("−", "−")} chips here (player 2 the opposite).`);
      else {
        const kids = n.parent.map((p, c) => p === k ? c : -1).filter((c) => c >= 0);
        el("p", {}, box, "Chance deals: " + kids.map((c) => `${n.edge[c]} (${n.chance[c].toFixed(3)})`).join(", "));
      }
      return;
    }
    const info = b.sets[s];
    el("h4", {}, box, `Node ${id}: ${n.label[k]}`);
    el("div", { class: "tl-sub" }, box, `${b.players[info.player]} to act · information set ${info.key}`);
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
    if (b.numbersSource) el("div", { class: "tl-note" }, box, `Values: ${b.numbersSource}.`);
    this.spark(box, `${this.kind} strategy over the iterations`, this.kind, s, [0, 1]);
    this.spark(box, "cumulative regret over the iterations", "regret", s, null);
  }

  spark(box, title, key, s, range) {
    const b = this.b;
    if (!b[key] || this.frames.length < 2) return;
    el("div", { class: "tl-spark-title" }, box, title);
    const W = 310, H = 64, x0 = 4, w = W - 8;
    const svg = el("svg:svg", { width: W, height: H, role: "img", "aria-label": title }, box);
    const series = b[key].map((row) => row[s]);
    const A = b.sets[s].actions.length;
    let lo = range ? range[0] : Infinity, hi = range ? range[1] : -Infinity;
    if (!range) for (const row of series) for (let a = 0; a < A; a++) { lo = Math.min(lo, row[a]); hi = Math.max(hi, row[a]); }
    if (!(hi > lo)) { hi = lo + 1; }
    const Y = (v) => H - 4 - ((v - lo) / (hi - lo)) * (H - 8);
    if (lo < 0 && hi > 0) el("svg:line", { x1: x0, x2: x0 + w, y1: Y(0), y2: Y(0), stroke: "#ccc" }, svg);
    for (let a = 0; a < A; a++) {
      const pts = series.map((row, f) => `${(x0 + this.axis(this.frames[f]) * w).toFixed(1)},${Y(row[a]).toFixed(1)}`);
      el("svg:polyline", { points: pts.join(" "), fill: "none", stroke: b.colors.actions[a], "stroke-width": 2 }, svg);
    }
    const line = el("svg:line", { y1: 0, y2: H, stroke: "#E69F00", "stroke-width": 2 }, svg);
    this.cursors = this.cursors || [];
    this.cursors.push({ line, x0, w });
  }

  sparksChanged() { this.inspected = null; this.drawExploitability(); if (this.mode !== "tree" && this.width) this.buildCharts(); }

  drawExploitability() {
    const e = this.b.exploitability, svg = this.exp;
    if (!svg) return;
    svg.replaceChildren();
    this.expCursor = null;
    if (!e || this.frames.length < 2 || this.mode === "charts") { svg.style.display = "none"; return; }
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
      const values = row.key === "cf" ? b.cfValue[f][k] : b[row.key][f][s];
      row.tds.forEach((td, a) => { td.textContent = fmt(values[a], row.digits); });
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
    const chart = (c, lines, logY, label) => {
      const W = Math.min(520, Math.max(260, Math.floor(this.width / 2) - 40)), H = 110, x0 = 6, w = W - 12;
      const svg = el("svg:svg", { width: W, height: H, role: "img", "aria-label": label }, c);
      const ys = lines.map(([values]) => values.map((x) => logY ? Math.log10(Math.max(x, 1e-12)) : x));
      const lo = Math.min(...ys.flat()), hi = Math.max(...ys.flat()) + 1e-12;
      ys.forEach((v, j) => {
        const pts = v.map((y, f) => `${(x0 + this.axis(this.frames[f]) * w).toFixed(1)},${(H - 6 - (y - lo) / (hi - lo) * (H - 12)).toFixed(1)}`);
        el("svg:polyline", { points: pts.join(" "), fill: "none", stroke: lines[j][1], "stroke-width": 2,
                             "stroke-dasharray": lines[j][2] || "none" }, svg);
      });
      this.cursors.push({ line: el("svg:line", { y1: 0, y2: H, stroke: "#E69F00", "stroke-width": 2 }, svg), x0, w });
    };
    const metric = (c, text, testid) => {
      const m = el("div", { class: "tl-metric", "data-testid": testid }, c);
      this.chartCells.push(() => { m.textContent = text(); });
    };
    if (this.mode === "sets" && b.sets.length) {
      const c = card("Strategy at t of each information set (bar widths: probability of each action)");
      const grid = el("div", { class: "tl-bars" }, c);
      for (let s = 0; s < b.sets.length; s++) {
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
      chart(c, lines, true, "exploitability over the iterations");
      if (b.currentExploitability) el("div", { class: "tl-note" }, c, "solid: average strategy · dashed: current strategy (last iterate)");
    }
    if (b.expectedValue && this.mode === "charts") {
      const c = card("Running mean of player 1's value (chips/hand)");
      metric(c, () => fmt(b.expectedValue[this.f]), "timeline-value");
      chart(c, [[b.expectedValue, "#0072B2"]], false, "running mean value");
    }
  }

  drawCharts() { for (const cell of this.chartCells || []) cell(); }
}

export default function (component) {
  const { data, parentElement, setStateValue, setTriggerValue } = component;
  const { header, body } = parse(data);
  let root = parentElement.querySelector(".tl");
  if (root && (root.tl?.id !== header.id || root.tl?.mode !== (header.mode || "tree"))) {
    root.tl?.pause(false);
    root.tl?.resize.disconnect();
    root.remove();
    root = null;
  }
  if (!root) {
    root = document.createElement("div");
    parentElement.appendChild(root);
    new Timeline(root, header, body);
  }
  const tl = root.tl;
  tl.send = { setStateValue, setTriggerValue };
  tl.applyHeader(header);
  tl.layoutChanged();
  return () => tl.pause(false);
}
