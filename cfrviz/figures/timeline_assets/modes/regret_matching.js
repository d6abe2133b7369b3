// Regret matching in a matrix game (pages/5_Regret_matching.py), on the timeline: for each
// player, the simplex with the current strategy's trajectory up to t and the average strategy at
// t, and the strategy and cumulative-regret curves with a cursor at t (Hart and Mas-Colell 2000).
// The data is the payload's `extra` (cfrviz/figures/regret_matching.py); the frames are its own.
import { el, fmt, thousands } from "../util.js";
import { registerMode } from "../registry.js";

const RM_STAR = "M0,-9L2.6,-3.2L8.6,-2.8L4,1.2L5.3,7.3L0,4L-5.3,7.3L-4,1.2L-8.6,-2.8L-2.6,-3.2Z";
const RM_WIDE = 1100;   // px: from here the two players sit side by side

/**
 * The payload's `extra` here (cfrviz/figures/regret_matching.py's regret_matching_payload).
 * @typedef {Object} RmPath
 * @property {number[]} frames [F] iterations
 * @property {number} iterations the last iteration recorded
 * @property {string} targetName
 * @property {string[]} colors the actions' colours
 * @property {string[]} textColors
 * @property {RmPlayer[]} players player 1, and player 2 unless the opponent is fixed
 */
/**
 * One shown player's strategies and regrets at the frames, [F][A].
 * @typedef {Object} RmPlayer
 * @property {number} player
 * @property {string} name
 * @property {string} color
 * @property {string[]} actions
 * @property {number[][]} current
 * @property {number[][]} average
 * @property {number[][]} regret
 * @property {number[] | null} target [A], null when not drawn
 */
/** A curve: values over the frames (one value: a level line), colour, dash, width in px.
 * @typedef {[number[], string, (string | null)?, number?]} RmLine */
/** @param {import("../payload.js").Payload} b @returns {RmPath | undefined} */
const rmOf = (b) => b.extra;

// The longest start of `text` (with an ellipsis) that fits `width` px at the timeline's 14 px.
/** @param {any} tl @param {string} text @param {number} width @param {boolean} [bold] */
function rmFit(tl, text, width, bold = false) {
  if (tl.measure(text, bold) <= width) return text;
  let n = text.length;
  while (n > 1 && tl.measure(text.slice(0, n) + "…", bold) > width) n -= 1;
  return text.slice(0, n) + "…";
}

// One entry of a legend: a coloured symbol, then its words (as text, never markup).
/** @param {Element} box @param {string} symbol @param {string | null} color @param {string} text */
function rmKey(box, symbol, color, text) {
  const item = el("span", {}, box);
  if (symbol) el("b", color ? { style: `color:${color}` } : {}, item, symbol + " ");
  item.appendChild(document.createTextNode(text));
}

/** @param {string[]} names @param {number[]} p */
const rmList = (names, p) => names.map((a, j) => `${a} ${p[j].toFixed(3)}`).join(", ");

// One player's simplex: corners are the three actions (a top, b bottom left, c bottom right, as
// plotly's ternary plots), a strategy the point with those barycentric weights.
/** @param {any} tl @param {Element} box @param {RmPlayer} info @param {number} size @returns {(f: number) => void} */
function rmSimplex(tl, box, info, size) {
  const W = size, pad = 12, labelH = 22;
  const side = Math.min(W - 2 * pad, (W - 2 * labelH - 2 * pad) * 2 / Math.sqrt(3));
  const h = side * Math.sqrt(3) / 2;
  const H = Math.ceil(h + 2 * labelH + 2 * pad);
  const A = [W / 2, pad + labelH], B = [W / 2 - side / 2, pad + labelH + h], C = [W / 2 + side / 2, pad + labelH + h];
  /** @param {number[]} p @returns {[number, number]} */
  const at = (p) => [p[0] * A[0] + p[1] * B[0] + p[2] * C[0], p[0] * A[1] + p[1] * B[1] + p[2] * C[1]];
  /** @param {number[]} p */
  const xy = (p) => at(p).map((v) => v.toFixed(1)).join(",");
  const svg = el("svg:svg", { width: W, height: H, role: "img", class: "rm-simplex", "data-player": info.player,
                              "aria-label": `${info.name}'s strategy on the simplex` }, box);
  el("svg:path", { d: `M${A}L${B}L${C}Z`, class: "rm-triangle" }, svg);
  // Corner names: each within its own third of the width, so long names never meet.
  const [a, b, c] = info.actions;
  el("svg:text", { x: A[0], y: A[1] - 8, "text-anchor": "middle", class: "rm-corner" }, svg, rmFit(tl, a, W - 8, true));
  el("svg:text", { x: Math.max(2, B[0] - 6), y: B[1] + 20, "text-anchor": "start", class: "rm-corner" }, svg, rmFit(tl, b, W / 2 - 10, true));
  el("svg:text", { x: Math.min(W - 2, C[0] + 6), y: C[1] + 20, "text-anchor": "end", class: "rm-corner" }, svg, rmFit(tl, c, W / 2 - 10, true));
  const current = el("svg:polyline", { class: "rm-current-path", fill: "none" }, svg);
  const average = el("svg:polyline", { class: "rm-average-path", fill: "none", stroke: info.color }, svg);
  const [sx, sy] = at(info.average[0]);
  el("svg:circle", { cx: sx.toFixed(1), cy: sy.toFixed(1), r: 6, class: "rm-start" }, svg);
  if (info.target) {
    const [tx, ty] = at(info.target);
    // Named in the legend under the simplex (a hover title would be a second, hidden copy of that name).
    el("svg:path", { d: RM_STAR, transform: `translate(${tx.toFixed(1)},${ty.toFixed(1)}) scale(1.7)`,
                     class: "rm-target" }, svg);
  }
  const currentDot = el("svg:circle", { r: 4.5, class: "rm-current-dot" }, svg);
  const averageDot = el("svg:circle", { r: 7, fill: info.color, class: "rm-average-dot" }, svg);
  const currentPts = info.current.map(xy), averagePts = info.average.map(xy);
  return (f) => {
    current.setAttribute("points", currentPts.slice(0, f + 1).join(" "));
    average.setAttribute("points", averagePts.slice(0, f + 1).join(" "));
    const [cx, cy] = at(info.current[f]), [ax, ay] = at(info.average[f]);
    currentDot.setAttribute("cx", cx.toFixed(1)); currentDot.setAttribute("cy", cy.toFixed(1));
    averageDot.setAttribute("cx", ax.toFixed(1)); averageDot.setAttribute("cy", ay.toFixed(1));
    averageDot.dataset.strategy = info.average[f].join(",");
  };
}

// A chart of values over the frames: y ticks and title on the left, x ticks (first and last
// iteration) and the title "iteration t" below, and a cursor at t that the core moves.
/**
 * @param {any} tl @param {Element} box @param {string} title @param {string} yTitle @param {RmLine[]} lines
 * @param {[number, number] | null} range @param {number} width
 */
function rmCurves(tl, box, title, yTitle, lines, range, width) {
  const frames = tl.frames;
  let lo = range ? range[0] : Infinity, hi = range ? range[1] : -Infinity;
  if (!range) for (const [values] of lines) for (const v of values) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
  if (!(hi > lo)) { lo -= 0.5; hi += 0.5; }
  /** @param {number} v */
  const tick = (v) => range ? String(v) : fmt(v, Math.abs(hi - lo) >= 10 ? 0 : 2);
  const ticks = range ? [range[0], (range[0] + range[1]) / 2, range[1]] : [lo, hi].concat(lo < 0 && hi > 0 ? [0] : []);
  const x0 = Math.ceil(Math.max(...ticks.map((v) => tl.measure(tick(v))))) + 8;
  const W = width, plotH = 120, top = 32, H = top + plotH + 44, w = W - x0 - 10;
  el("div", { class: "rm-chart-title" }, box, title);
  const svg = el("svg:svg", { width: W, height: H, role: "img", "aria-label": `${title}: ${yTitle} against iteration t`, class: "rm-chart" }, box);
  /** @param {number} v */
  const Y = (v) => top + plotH - ((v - lo) / (hi - lo)) * plotH;
  /** @param {number} f */
  const X = (f) => x0 + tl.axis(frames[f]) * w;
  el("svg:line", { x1: x0, x2: x0, y1: top, y2: top + plotH, class: "rm-axis" }, svg);
  el("svg:line", { x1: x0, x2: x0 + w, y1: top + plotH, y2: top + plotH, class: "rm-axis" }, svg);
  for (const v of ticks) {
    // Zero gets its own tick unless it would touch the label of an end of the range.
    if (v === 0 && !range && (Math.abs(Y(0) - Y(lo)) < 18 || Math.abs(Y(0) - Y(hi)) < 18)) continue;
    el("svg:line", { x1: x0 - 4, x2: x0 + w, y1: Y(v), y2: Y(v), class: v === 0 && lo < 0 ? "rm-zero" : "rm-grid" }, svg);
    el("svg:text", { x: x0 - 6, y: Y(v) + 5, "text-anchor": "end", class: "rm-tick" }, svg, tick(v));
  }
  el("svg:text", { x: x0, y: top + plotH + 18, "text-anchor": "start", class: "rm-tick" }, svg, thousands(frames[0]));
  el("svg:text", { x: x0 + w, y: top + plotH + 18, "text-anchor": "end", class: "rm-tick" }, svg, thousands(frames[frames.length - 1]));
  // On a log axis, the powers of ten between the ends get ticks too, where they clear the end labels.
  if (tl.log) {
    const first = frames[0], last = frames[frames.length - 1];
    for (let p = 10; p < last; p *= 10) {
      const px = x0 + tl.axis(p) * w;
      if (p <= first || px - x0 < 40 || x0 + w - px < 50) continue;
      el("svg:line", { x1: px, x2: px, y1: top + plotH, y2: top + plotH + 4, class: "rm-axis" }, svg);
      el("svg:text", { x: px, y: top + plotH + 18, "text-anchor": "middle", class: "rm-tick" }, svg, thousands(p));
    }
  }
  el("svg:text", { x: x0 + w / 2, y: H - 4, "text-anchor": "middle", class: "rm-axis-title" }, svg,
     tl.log ? "iteration t (log scale)" : "iteration t");
  el("svg:text", { x: 0, y: 15, "text-anchor": "start", class: "rm-axis-title" }, svg, yTitle);   // the y axis, above it
  for (const [values, color, dash, widthPx] of lines) {
    if (values.length === 1) {   // a target: a dashed level line
      el("svg:line", { x1: x0, x2: x0 + w, y1: Y(values[0]), y2: Y(values[0]), stroke: color, "stroke-width": 1.5,
                       "stroke-dasharray": dash || "6 4", "stroke-opacity": 0.9 }, svg);
      continue;
    }
    const pts = values.map((v, f) => `${X(f).toFixed(1)},${Y(v).toFixed(1)}`).join(" ");
    el("svg:polyline", { points: pts, fill: "none", stroke: color, "stroke-width": widthPx || 2,
                         "stroke-dasharray": dash || "none", "stroke-opacity": dash ? 0.75 : 1 }, svg);
  }
  tl.cursors.push({ line: el("svg:line", { y1: top, y2: top + plotH, class: "rm-cursor" }, svg), x0, w });
}

/** @param {any} tl @param {any} st */
function rmBuild(tl, st) {
  const x = rmOf(tl.b), box = tl.main;
  box.replaceChildren();
  tl.cursors = [];
  st.cells = [];
  if (!x || !tl.frames.length) return;
  const wrap = el("div", { class: "rm" }, box);
  const two = x.players.length > 1 && tl.width >= RM_WIDE;
  const playerW = Math.floor(two ? (tl.width - 16) / 2 : tl.width) - 2;
  for (const info of x.players) {
    const card = el("section", { class: "rm-player", "data-player": info.player, style: `flex-basis:${playerW}px` }, wrap);
    const head = el("div", { class: "rm-head", "data-testid": `rm-average-${info.player}` }, card);
    const now = el("div", { class: "tl-note rm-now", "data-testid": `rm-current-${info.player}` }, card);
    const body = el("div", { class: "rm-body" }, card);
    const inner = playerW - 26;   // the card's padding and border
    // The curves beside the simplex when both fit (the simplex at least 300 px, the curves 340),
    // else below it.
    const three = info.actions.length === 3;
    const beside = three && inner >= 300 + 16 + 340;
    const simplexW = !three ? 0 : beside ? Math.min(360, inner - 16 - 420 > 300 ? inner - 16 - 420 : 300) : Math.min(360, inner);
    if (three) {
      const cell = el("div", { class: "rm-simplex-cell", style: `width:${simplexW}px` }, body);
      const draw = rmSimplex(tl, cell, info, simplexW);
      const legend = el("div", { class: "tl-note rm-legend" }, cell);
      rmKey(legend, "—", "#8a8a8a", "current strategy, up to t");
      rmKey(legend, "━", info.color, "average strategy, up to t");
      rmKey(legend, "●", info.color, "average at t");
      rmKey(legend, "○", null, "start");
      if (info.target) rmKey(legend, "★", "#E69F00", x.targetName);
      st.cells.push(draw);
    }
    const curvesW = Math.max(260, Math.min(620, beside ? inner - simplexW - 16 : inner));
    const curves = el("div", { class: "rm-curves", style: `width:${curvesW}px` }, body);
    /** @type {RmLine[]} */
    const strategyLines = [];
    /** @type {RmLine[]} */
    const regretLines = [];
    info.actions.forEach((a, j) => {
      const color = x.colors[j % x.colors.length];
      strategyLines.push([info.current.map((p) => p[j]), color, "5 3", 1.6]);
      strategyLines.push([info.average.map((p) => p[j]), color, null, 2.5]);
      if (info.target) strategyLines.push([[info.target[j]], color, "7 4"]);
      regretLines.push([info.regret.map((r) => r[j]), color, null, 2]);
    });
    rmCurves(tl, curves, "Strategy over the iterations", "probability of each action", strategyLines, [0, 1], curvesW);
    const keyLine = el("div", { class: "tl-note rm-legend" }, curves);
    info.actions.forEach((a, j) => rmKey(keyLine, "■", x.colors[j % x.colors.length], a));
    rmKey(keyLine, "", null, `solid: average · short dashes: current${info.target ? ` · long dashes: ${x.targetName}` : ""}`);
    rmCurves(tl, curves, "Cumulative regret over the iterations", "cumulative regret of each action (payoff units)", regretLines, null, curvesW);
    st.cells.push((/** @type {number} */ f) => {
      head.textContent = `${info.name[0].toUpperCase()}${info.name.slice(1)} after ${thousands(tl.frames[f])} iterations, ` +
        `average strategy: ${rmList(info.actions, info.average[f])}`;
      now.textContent = `Current strategy (played in iteration t): ${rmList(info.actions, info.current[f])}`;
    });
  }
}

registerMode("regret_matching", {
  build: rmBuild,
  draw: (tl, st) => { for (const cell of st.cells || []) cell(tl.f); },
  inspector: false,
  kind: null,
  frames: (body) => rmOf(body)?.frames || [],
  label: (tl) => tl.frames.length
    ? `Iteration t = ${thousands(tl.frames[tl.f])} of ${thousands(tl.b.extra.iterations)}` : "no iterations",
});
