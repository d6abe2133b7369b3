// The chart modes: "charts" (Convergence, Evolution with no set chosen), "exploitability" (Home's
// one chart) and "sets" (Evolution: every set's strategy as bars, and the focused sets' charts).
// Each chart has labelled axes and a cursor at t that the core moves.
import { el, fmt, prob, thousands, number, clampedExploitability } from "./util.js";
import { spark } from "./inspector.js";
import { registerMode } from "./registry.js";

/** @typedef {import("./payload.js").Payload} Payload */

/** @param {any} tl a Timeline (store.js) */
function buildCharts(tl) {
  /** @type {Payload} */
  const b = tl.b;
  const box = tl.main;
  box.replaceChildren();
  tl.cursors = [];
  /** @type {(() => void)[]} */
  const cells = tl.chartCells = [];
  if (tl.frames.length < 1) return;
  /** @param {string} title */
  const card = (title) => { const c = el("div", { class: "tl-card" }, box); el("h5", {}, c, title); return c; };
  // A chart over the frames with labelled axes: the value range (and its unit) on the left, the
  // first and last iteration and "iteration t" below; a cursor at t that draw() moves.
  // Charts are drawn once every card is in the grid: only then does a card have its final width.
  /** @type {(() => void)[]} */
  const pending = [];
  /** @param {any} c @param {[number[], string, string?][]} lines @param {boolean} logY @param {string} label @param {string} yTitle */
  const chart = (c, lines, logY, label, yTitle) => { const holder = el("div", {}, c); pending.push(() => drawChart(holder, lines, logY, label, yTitle)); };
  /** @param {any} c @param {[number[], string, string?][]} lines @param {boolean} logY @param {string} label @param {string} yTitle */
  const drawChart = (c, lines, logY, label, yTitle) => {
    // As wide as the card's grid cell allows (a wide screen packs more, narrower, cells).
    const fit = c.clientWidth > 0 ? Math.floor(c.clientWidth) : Math.floor(tl.width / 2) - 40;
    // Home's lone chart may fill a wide card; a grid of charts keeps them small.
    const lone = tl.mode === "exploitability";
    const W = Math.min(lone ? 900 : 520, Math.max(260, fit)), plotH = lone ? 150 : 110, top = 26, H = top + plotH + 44;
    const ys = lines.map(([values]) => values.map((x) => logY ? Math.log10(Math.max(x, 1e-12)) : x));
    const lo = Math.min(...ys.flat()), hi = Math.max(...ys.flat()) + 1e-12;
    /** @param {number} v */
    const tick = (v) => logY ? number(10 ** v) : fmt(v, 3);
    const x0 = Math.ceil(Math.max(tl.measure(tick(lo)), tl.measure(tick(hi)))) + 8, w = W - x0 - 10;
    /** @param {number} y */
    const Y = (y) => top + plotH - (y - lo) / (hi - lo) * plotH;
    const svg = el("svg:svg", { width: W, height: H, role: "img", class: "tl-chart", "aria-label": `${label}: ${yTitle} against iteration t` }, c);
    el("svg:line", { x1: x0, x2: x0, y1: top, y2: top + plotH, stroke: "#aaa" }, svg);
    el("svg:line", { x1: x0, x2: x0 + w, y1: top + plotH, y2: top + plotH, stroke: "#aaa" }, svg);
    el("svg:text", { x: x0 - 6, y: Y(hi) + 10, "text-anchor": "end" }, svg, tick(hi));
    el("svg:text", { x: x0 - 6, y: Y(lo), "text-anchor": "end" }, svg, tick(lo));
    el("svg:text", { x: x0, y: top + plotH + 18, "text-anchor": "start" }, svg, thousands(tl.frames[0]));
    el("svg:text", { x: x0 + w, y: top + plotH + 18, "text-anchor": "end" }, svg, thousands(tl.frames[tl.frames.length - 1]));
    el("svg:text", { x: x0 + w / 2, y: H - 4, "text-anchor": "middle", class: "tl-axis-title" }, svg,
       tl.log ? "iteration t (log scale)" : "iteration t");
    el("svg:text", { x: 0, y: 15, "text-anchor": "start", class: "tl-axis-title" }, svg, yTitle);   // the y axis, above it
    ys.forEach((v, j) => {
      const pts = v.map((y, f) => `${(x0 + tl.axis(tl.frames[f]) * w).toFixed(1)},${Y(y).toFixed(1)}`);
      el("svg:polyline", { points: pts.join(" "), fill: "none", stroke: lines[j][1], "stroke-width": 2,
                           "stroke-dasharray": lines[j][2] || "none" }, svg);
    });
    tl.cursors.push({ line: el("svg:line", { y1: top, y2: top + plotH, stroke: "#E69F00", "stroke-width": 2 }, svg), x0, w });
  };
  /** @param {any} c @param {() => string} text @param {string} testid */
  const metric = (c, text, testid) => {
    const m = el("div", { class: "tl-metric", "data-testid": testid }, c);
    cells.push(() => { m.textContent = text(); });
  };
  if (tl.mode === "sets" && b.sets.length) {
    const c = card("Strategy at t of each information set (bar widths: probability of each action)");
    const grid = el("div", { class: "tl-bars" }, c);
    for (const s of b.order || b.sets.keys()) {   // the heat map's row order
      el("span", {}, grid, `${b.sets[s].key} (${b.players[b.sets[s].player]})`);
      const row = el("div", { class: "tl-bar-row", title: b.sets[s].actions.join(" / ") }, grid);
      const parts = b.sets[s].actions.map((a, j) => el("span", { style: `background:${b.colors.actions[j]}` }, row));
      cells.push(() => {
        const p = tl.strategyAt(tl.kind, tl.f)[s];
        parts.forEach((/** @type {any} */ span, /** @type {number} */ j) => { span.style.width = `${(100 * p[j]).toFixed(1)}%`; span.title = `${b.sets[s].actions[j]} ${prob(p[j])}`; });
      });
    }
    const legend = el("div", { class: "tl-note" }, c);
    /** @type {Map<number, string[]>} */
    const letters = new Map();
    b.sets.forEach((set) => set.actions.forEach((a, j) => {
      const names = letters.get(j) ?? [];
      if (!names.includes(a)) names.push(a);
      letters.set(j, names);
    }));
    for (const [j, names] of letters) { const s = el("span", { style: "margin-right:12px" }, legend); s.innerHTML = `<b style="color:${b.colors.actions[j]}">■</b> `; s.append(names.join(" / ")); }
    for (const key of tl.focus || []) {
      const s = b.sets.findIndex((set) => set.key === key);
      if (s < 0) continue;
      const c2 = card(`${key} (${b.players[b.sets[s].player]})`);
      spark(tl, c2, `${tl.kind} strategy`, tl.kind, s, [0, 1]);
      spark(tl, c2, "cumulative regret", "regret", s, null);
    }
  }
  const average = b.exploitability, current = b.currentExploitability, value = b.expectedValue;
  if (average) {
    const c = card("Exploitability (chips/hand, log scale)");
    // Written as the pages write it (cfrviz.util.text.number), from the unrounded values.
    /** @param {number} v */
    const shown = (v) => number(clampedExploitability(v));
    metric(c, () => `${shown(average[tl.f])} average` +
      (current ? ` · ${shown(current[tl.f])} current` : ""), "timeline-exploitability");
    /** @type {[number[], string, string?][]} */
    const lines = [[average, "#0072B2"]];
    if (current) lines.push([current, "#D55E00", "5 4"]);
    chart(c, lines, true, "exploitability over the iterations", "exploitability, chips/hand (log scale)");
    if (current) el("div", { class: "tl-note" }, c, "solid: average strategy · dashed: current strategy (last iterate)");
  }
  if (value && tl.mode === "charts") {
    const c = card("Running mean of player 1's value (chips/hand)");
    metric(c, () => fmt(value[tl.f]), "timeline-value");
    chart(c, [[value, "#0072B2"]], false, "running mean value", "player 1's value, chips/hand");
  }
  for (const draw of pending) draw();
}

/** @param {any} tl */
function drawCharts(tl) { for (const cell of tl.chartCells || []) cell(); }

registerMode("sets", { build: buildCharts, draw: drawCharts, inspector: false, kind: "strategy: " });
registerMode("charts", { build: buildCharts, draw: drawCharts, inspector: false, kind: null });
// Home's one chart: the exploitability card of "charts" alone.
registerMode("exploitability", { build: buildCharts, draw: drawCharts, inspector: false, kind: null });
