// The inspector beside the tree: the selected (or hovered) node's information set, its numbers at
// t, and small charts of its strategy and regret over the iterations; on a phone, a sheet over the
// tree. Also the selection itself: a click on a node, sent to the host as `node`.
import { el, fmt, thousands } from "./util.js";
import { askLock, padlock, comparison, movedAt, unlockedAt } from "./locks.js";

/** @typedef {import("./payload.js").Payload} Payload */

/** Select drawn node k: show it in the inspector and tell the host. @param {any} tl @param {number} k */
export function select(tl, k) {
  tl.selected = k;
  tl.offPart = null;
  tl.inspected = null;
  tl.sheetClosed = false;
  tl.draw();
  keepInspectorInView(tl);
  tl.send?.setTriggerValue("node", tl.b.nodes.id[k]);
}

// A sticky inspector cannot go below the tree's bottom: after a click low in the tree the page
// may have it partly above the screen. Scroll just enough to show it whole (below Streamlit's
// header); the clicked node, near the tree's bottom, stays on the screen.
/** @param {any} tl */
function keepInspectorInView(tl) {
  if (tl.narrow || !tl.inspector) return;
  const box = tl.inspector.getBoundingClientRect();
  const top = parseFloat(tl.root.style.getPropertyValue("--tl-top")) || 8;
  let dy = 0;
  if (box.top < top) dy = box.top - top;
  else if (box.bottom > innerHeight) dy = Math.min(box.bottom - innerHeight + 8, box.top - top);
  if (Math.abs(dy) < 1) return;
  let n = tl.root;
  while (n && n !== document.documentElement) {
    const cs = getComputedStyle(n);
    if (/(auto|scroll)/.test(cs.overflowY) && n.scrollHeight > n.clientHeight) break;
    n = n.parentElement || n.getRootNode().host;
  }
  // The tree moves under a still pointer: that is no hover, until the pointer itself moves.
  tl.hovered = -1;
  tl.hoverFrozen = true;
  tl.root.addEventListener("pointermove", (/** @type {PointerEvent} */ e) => {
    // Enter events come before the move that thaws hovering: take the node under the pointer now.
    tl.hoverFrozen = false;
    const g = /** @type {any} */ (e.composedPath().find((n) => /** @type {any} */ (n).classList?.contains("tl-node")));
    const k = g ? tl.local.get(Number(g.dataset.node)) ?? -1 : -1;
    if (k !== tl.hovered) { tl.hovered = k; tl.inspected = null; tl.draw(); }
  }, { once: true });
  (n && n !== document.documentElement ? n : document.scrollingElement).scrollBy({ top: dy });
  tl.inspected = null;
  tl.draw();
}

/** @param {any} tl */
export function closeSheet(tl) { tl.sheetClosed = true; tl.inspected = null; tl.draw(); tl.root.focus({ preventScroll: true }); }

/** @param {any} tl */
function openSheet(tl) { tl.sheetClosed = false; tl.inspected = null; tl.draw(); }

/** The inspector at frame tl.f: rebuilt when the node shown changes, else its numbers updated. @param {any} tl */
export function drawInspector(tl) {
  const k = tl.hovered >= 0 ? tl.hovered : tl.selected;
  if (tl.inspected !== k || tl.inspectedKind !== tl.kind) buildInspector(tl, k);
  updateInspector(tl);
  if (tl.spec.inspect) tl.spec.inspect(tl, tl.modeState);
}

/** @param {any} tl @param {number} k */
function buildInspector(tl, k) {
  /** @type {Payload} */
  const b = tl.b;
  const box = tl.inspector;
  tl.inspected = k;
  tl.inspectedKind = tl.kind;
  tl.cells = null;
  tl.cursors = tl.cursors.filter((/** @type {any} */ c) => !box.contains(c.line));
  box.replaceChildren();
  // On a narrow screen the inspector is a sheet over the tree: open after a tap on a node,
  // else a bar with the node's name at the foot of the screen.
  const open = !!tl.narrow && k >= 0 && !tl.sheetClosed, peek = !!tl.narrow && k >= 0 && tl.sheetClosed;
  box.classList.toggle("tl-open", open);
  box.classList.toggle("tl-peek", peek);
  if (open || peek) {
    const toggle = el("button", { type: "button", class: "tl-close", "aria-label": open ? "Close the inspector" : "Open the inspector" },
                      box, open ? "✕" : "▴");
    toggle.addEventListener("click", (/** @type {Event} */ e) => { e.stopPropagation(); if (open) closeSheet(tl); else openSheet(tl); });
  }
  box.onclick = peek ? () => openSheet(tl) : null;
  el("div", { class: "tl-hover-note" }, box, tl.hovered >= 0 && tl.hovered !== tl.selected ? "Hovering: click the node to keep it here." : "");
  if (k < 0) {
    el("h4", {}, box, "Inspector");
    el("p", {}, box, tl.offPart !== null && tl.offPart !== undefined
      ? `Node ${tl.offPart} is not in the part drawn; choose its part above.`
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
      el("p", {}, box, "Chance deals: " + kids.map((c) => `${n.edge[c]} (${fmt(n.chance[c], 3)})`).join(", "));
    }
    return;
  }
  const info = b.sets[s];
  el("h4", {}, box, `Node ${id}: ${n.label[k]}`);
  el("div", { class: "tl-sub" }, box, `${b.players[info.player]} to act · information set ${info.key}`);
  const lock = info.lock;
  if (lock) {
    const note = el("div", { class: "tl-lock-note", "data-testid": "timeline-lock" }, box);
    padlock(el("svg:svg", { width: 12, height: 14, class: "tl-lock-icon", "aria-hidden": "true" }, note), 6, 8);
    note.appendChild(document.createTextNode(` Locked: ${info.actions.map((a, j) => `${a} ${fmt(lock[j], 3)}`).join(", ")}. ` +
      "The solver treats this set as a chance node: both strategies are the lock and its regret stays 0."));
  }
  const chips = el("div", { class: "tl-histories" }, box);
  chips.appendChild(document.createTextNode(`Histories in this set (${info.histories.length}): `));
  for (const [hid, label, local] of info.histories) {
    const chip = el("button", { type: "button", class: "tl-chip" + (hid === id ? " tl-this" : "") }, chips, label);
    if (local >= 0) chip.addEventListener("click", () => select(tl, local));
    else {
      chip.title = "not in the part drawn: click to go to its part";
      chip.addEventListener("click", () => tl.send?.setTriggerValue("node", hid));
    }
  }
  // Only a tree split by the players' cards has a part that holds a set whole (its player's card view),
  // and only a home that draws parts on demand (the app's Game tree) can show it.
  if (b.cardView && tl.wholeSets && info.histories.some((h) => h[2] < 0)) {
    const whole = el("button", { type: "button", class: "tl-chip" }, box,
                     `Draw this set whole (deals by ${b.players[info.player]}'s card)`);
    whole.addEventListener("click", () => tl.send?.setTriggerValue("wholeSet", id));
  }
  // Where the home has a lock editor (the app's Game tree): the way to it, from here and by key.
  if (tl.locks) {
    const line = el("div", { class: "tl-lock-ask", "data-testid": "timeline-lock-ask" }, box);
    const ask = el("button", { type: "button", class: "tl-chip" }, line, info.lock ? "Change this set's lock" : "Lock this set");
    ask.addEventListener("click", () => askLock(tl, k));
    line.append(" or press L on its node: the lock editor opens below the tree.");
  }
  tl.reachLine = el("div", { class: "tl-reach" }, box);
  const table = el("table", { class: "tl-table" }, box);
  const head = el("tr", {}, el("thead", {}, table));
  el("th", {}, head, "at t");
  info.letters.forEach((a, j) => { const th = el("th", { style: `color:${(b.colors.actionText ?? b.colors.actions)[j]}` }, head, info.actions[j]); th.title = a; });
  const tbody = el("tbody", {}, table);
  const compared = (comparison(tl)?.setIndex[s] ?? -1) >= 0;
  /** @type {[string, string, number, string][]} */
  const rows = [
    ["current strategy", "current", 3, "The strategy played in iteration t."],
    ["average strategy", "average", 3, "The average strategy over iterations 1..t: what converges."],
    ...(compared ? [/** @type {[string, string, number, string]} */ (["unlocked run's average", "unlocked", 3,
      "The same settings solved without the locks: its average strategy at t."])] : []),
    ["cf value, this history", "cf", 4, "Counterfactual value of each action at this history: opponent-and-chance reach times the expected payoff after the action."],
    ["cf value, whole set", "setValue", 4, "Summed over the set's histories."],
    ["regret of iteration t", "instantRegret", 4, "The set's cf value of the action minus the cf value of the strategy, in iteration t."],
    ["cumulative regret", "regret", 4, "Summed over iterations 1..t (as the algorithm keeps it)."],
  ];
  tl.cells = rows.map(([label, key, digits, help]) => {
    const tr = el("tr", {}, tbody);
    el("td", { title: help }, tr, label);
    return { key, digits, tds: info.actions.map(() => el("td", {}, tr)) };
  });
  tl.movedLine = compared ? el("div", { class: "tl-reach", "data-testid": "timeline-moved" }, box) : null;
  if (b.numbersSource) el("div", { class: "tl-note" }, box, `Values: ${b.numbersSource}.`);
  spark(tl, box, `${tl.kind} strategy over the iterations`, tl.kind, s, [0, 1]);
  spark(tl, box, "cumulative regret over the iterations", "regret", s, null);
}

/**
 * A small chart of one set's values over the frames, with its axes' ends labelled: the value
 * range on the left, the first and last iteration below; its cursor at t joins tl.cursors.
 * @param {any} tl @param {Element} box @param {string} title @param {string} key a PerSet field
 * @param {number} s @param {number[] | null} range
 */
export function spark(tl, box, title, key, s, range) {
  /** @type {Payload} */
  const b = tl.b;
  /** @type {import("./payload.js").PerSet | undefined} */
  const values = /** @type {any} */ (b)[key];
  if (!values || tl.frames.length < 2) return;
  el("div", { class: "tl-spark-title" }, box, title);
  const series = values.map((row) => row[s]);
  const A = b.sets[s].actions.length;
  let lo = range ? range[0] : Infinity, hi = range ? range[1] : -Infinity;
  for (const row of range ? [] : series) {
    for (let a = 0; a < A; a++) { const v = row[a]; if (v !== null) { lo = Math.min(lo, v); hi = Math.max(hi, v); } }
  }
  if (!(hi > lo)) { hi = lo + 1; }
  /** @param {number} v */
  const tick = (v) => range ? String(v) : fmt(v, Math.abs(hi - lo) >= 10 ? 1 : 2);
  const x0 = Math.ceil(Math.max(tl.measure(tick(lo)), tl.measure(tick(hi)))) + 8;
  const W = 310, plotH = 64, H = plotH + 20, w = W - x0 - 6;
  const svg = el("svg:svg", { width: W, height: H, role: "img", "aria-label": title, class: "tl-spark" }, box);
  /** @param {number} v */
  const Y = (v) => plotH - 4 - ((v - lo) / (hi - lo)) * (plotH - 8);
  el("svg:line", { x1: x0, x2: x0, y1: 2, y2: plotH, stroke: "#bbb" }, svg);
  el("svg:line", { x1: x0, x2: x0 + w, y1: plotH, y2: plotH, stroke: "#bbb" }, svg);
  el("svg:text", { x: x0 - 4, y: Y(hi) + 10, "text-anchor": "end" }, svg, tick(hi));
  el("svg:text", { x: x0 - 4, y: Y(lo) + 2, "text-anchor": "end" }, svg, tick(lo));
  el("svg:text", { x: x0, y: H - 2, "text-anchor": "start" }, svg, `t = ${thousands(tl.frames[0])}`);
  el("svg:text", { x: x0 + w, y: H - 2, "text-anchor": "end" }, svg, thousands(tl.frames[tl.frames.length - 1]));
  if (lo < 0 && hi > 0) el("svg:line", { x1: x0, x2: x0 + w, y1: Y(0), y2: Y(0), stroke: "#ccc" }, svg);
  for (let a = 0; a < A; a++) {
    // A missing value (null: NaN on the wire) is skipped, not drawn at 0.
    const pts = series.flatMap((row, f) => { const v = row[a]; return v === null ? [] : [`${(x0 + tl.axis(tl.frames[f]) * w).toFixed(1)},${Y(v).toFixed(1)}`]; });
    el("svg:polyline", { points: pts.join(" "), fill: "none", stroke: b.colors.actions[a], "stroke-width": 2 }, svg);
  }
  const line = el("svg:line", { y1: 0, y2: plotH, stroke: "#E69F00", "stroke-width": 2 }, svg);
  tl.cursors.push({ line, x0, w });
}

/** @param {any} tl */
function updateInspector(tl) {
  const k = tl.inspected, f = tl.f;
  /** @type {Payload} */
  const b = tl.b;
  const ownReach = b.ownReach, othersReach = b.othersReach, cfValue = b.cfValue;   // a run's: a tree alone has none
  if (k === undefined || k === null || k < 0 || !tl.cells || !tl.frames.length || !ownReach || !othersReach || !cfValue) return;
  const s = b.nodes.set[k], info = b.sets[s];
  tl.reachLine.innerHTML = "";
  const own = ownReach[f][k], others = othersReach[f][k];
  tl.reachLine.append(`Reach at t: own (${b.players[info.player]}) `, el("b", {}, null, fmt(own)),
                      " · opponent and chance ", el("b", {}, null, fmt(others)));
  for (const row of tl.cells) {
    const values = row.key === "cf" ? cfValue[f][k] : row.key === "unlocked" ? unlockedAt(tl, f, s) : /** @type {any} */ (b)[row.key][f][s];
    row.tds.forEach((/** @type {any} */ td, /** @type {number} */ a) => { td.textContent = values ? fmt(values[a], row.digits) : "–"; });
  }
  if (tl.movedLine) {
    const v = movedAt(tl, f, s);
    tl.movedLine.replaceChildren("Moved from the unlocked run at t: ", el("b", {}, null, v === null ? "–" : fmt(v, 3)),
                                 " (total variation)");
  }
}
