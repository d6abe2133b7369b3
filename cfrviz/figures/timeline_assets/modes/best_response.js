// Best response (pages/7_Best_response.py): the Game tree's drawing at t with the exploiter's
// best-response actions marked on it, each player's gain, and the exploiter's information sets,
// all from the payload's `extra` (cfrviz/figures/best_response_frames.py), so moving t repaints
// here without asking the server. The exploiter (player 1 or 2) is chosen in the component and
// reported to Python as `exploiter` (1 or 2), for the link.

import { el, fmt, cap, number, clampedExploitability } from "../util.js";
import { buildTree, drawTree } from "../tree.js";
import { registerMode } from "../registry.js";

/** @typedef {import("../payload.js").Payload} Payload */
/**
 * The payload's `extra` here (cfrviz/figures/best_response_frames.py), per frame [G] of its own.
 * @typedef {Object} BestResponses
 * @property {number[]} frames [G] iterations
 * @property {string[]} sets [S] the drawn sets' keys
 * @property {[number, number][]} values [G] each player's best-response value
 * @property {number[][]} best [G][S] the best-response action of each set
 * @property {number[][]} gain [G][S]
 * @property {number[][][]} actionValue [G][S][A]
 * @property {number | null} gameValue null when unknown
 * @property {boolean} locked
 * @property {boolean} whole the whole tree is drawn
 */
/** @param {Payload} b @returns {BestResponses | undefined} */
const brOf = (b) => b.extra;

// The mode's own state (st): the exploiter (0 or 1) shown, the server's and the one sent; the
// panels above and below the tree and the marks on it.
registerMode("best_response", {
  build: (tl, st) => brBuild(tl, st),
  draw: (tl, st) => brDraw(tl, st),
  state: (tl, st, value) => brHeader(tl, st, value || {}),
  inspect: (tl, st) => brDrawInspector(tl, st),
  inspector: true,
  kind: null,
});

// The server's exploiter: taken when it changed on the server (a link, the page), never when it
// only echoes the choice this component reported.
/** @param {any} tl @param {any} st @param {any} state */
function brHeader(tl, st, state) {
  const wanted = state.exploiter === 2 ? 1 : state.exploiter === 1 ? 0 : null;
  if (st.exploiter === undefined) st.exploiter = wanted ?? 0;
  if (state.exploiter === st.headerExploiter) return;
  st.headerExploiter = state.exploiter;
  if (wanted !== null && wanted !== st.sent && wanted !== st.exploiter) brChoose(tl, st, wanted, false);
}

/** @param {any} tl @param {any} st @param {number} player @param {boolean} fromUser */
function brChoose(tl, st, player, fromUser) {
  st.exploiter = player;
  for (const input of st.inputs || []) input.checked = Number(input.value) === player;
  brBuildTable(tl, st);
  tl.inspected = null;     // the inspector's best-response lines are the exploiter's
  tl.draw();
  if (fromUser && player !== st.sent) { st.sent = player; tl.send?.setStateValue("exploiter", player + 1); }
}

// The extra's frame for the bar's frame f (both list the same iterations; matched by iteration).
/** @param {any} tl @param {any} st */
function brFrame(tl, st) {
  const x = brOf(tl.b);
  if (!x) return -1;
  if (!st.frameOf) st.frameOf = new Map(x.frames.map((t, g) => [t, g]));
  return st.frameOf.get(tl.frames[tl.f]) ?? -1;
}

/** @param {any} tl @param {any} st */
function brPanels(tl, st) {
  if (st.gains) return;
  /** @type {Payload} */
  const b = tl.b, x = brOf(b);
  st.gains = el("div", { class: "br-gains", "data-testid": "br-gains" });
  tl.root.insertBefore(st.gains, tl.main);
  const choice = el("div", { class: "br-choice", role: "radiogroup", "aria-label": "Exploiter" }, st.gains, "Exploiter: ");
  st.inputs = [0, 1].map((p) => {
    const label = el("label", {}, choice);
    const input = el("input", { type: "radio", name: `br-exploiter-${tl.id}`, value: String(p) }, label);
    input.checked = st.exploiter === p;
    label.appendChild(document.createTextNode(` ${b.players[p]}`));
    input.addEventListener("change", () => brChoose(tl, st, p, true));
    return input;
  });
  const metrics = el("div", { class: "br-metrics" }, st.gains);
  /** @param {string} label @param {string} testid @param {string} help */
  const metric = (label, testid, help) => {
    const box = el("div", { class: "br-metric", title: help }, metrics);
    el("div", { class: "br-metric-label" }, box, label);
    return el("div", { class: "br-metric-value", "data-testid": testid }, box);
  };
  st.cells = {
    exploitability: metric("Exploitability", "br-exploitability", "chips per hand: (BR₁ + BR₂) / 2"),
    first: metric(`${cap(b.players[0])}'s best response earns`, "br-value-1", "chips per hand, against player 2's average strategy"),
    second: metric(`${cap(b.players[1])}'s best response earns`, "br-value-2", "chips per hand, against player 1's average strategy"),
    game: metric("Game value (player 1)", "br-game-value", "the equilibrium value: what player 1 earns when both play an equilibrium"),
  };
  st.cells.game.textContent = x && x.gameValue !== null ? number(x.gameValue, { signed: true }) : "unknown";
  // Each player's gain over the equilibrium value, as a bar; exploitability is their mean.
  const split = el("div", { class: "br-split" }, st.gains);
  st.bars = [0, 1].map((p) => {
    el("span", { class: "br-split-who" }, split, `${cap(b.players[p])}'s gain`);
    const track = el("div", { class: "br-track" }, split);
    const bar = el("div", { class: "br-bar", style: `background:${b.colors.player[p]}` }, track);
    const mean = el("div", { class: "br-mean" }, track);
    const text = el("span", { class: "br-split-text", "data-testid": `br-gain-${p + 1}` }, split);
    return { bar, mean, text };
  });
  st.splitNote = el("div", { class: "tl-note" }, st.gains, x && x.gameValue !== null
    ? "Gain: what the best response earns beyond the game value (player 2's value is minus player 1's). "
      + "Exploitability is the mean of the two gains (dashed line): zero exactly at an equilibrium."
    : "The game value is unknown here: the bars are the best responses' values.");
  if (x && x.locked) st.locked = el("div", { class: "tl-note", "data-testid": "br-locked" }, st.gains);

  st.tableBox = el("div", { class: "br-table-box" });
  tl.root.insertBefore(st.tableBox, tl.legend);
  const item = el("span", { class: "tl-key-item" });
  el("span", { class: "br-swatch", "aria-hidden": "true" }, item);
  item.appendChild(document.createTextNode(" "));
  item.appendChild(document.createTextNode("the exploiter's best-response action at t"));
  tl.legend.insertBefore(item, tl.legend.querySelector(".tl-legend-text"));
}

/** @param {number} v @param {number} digits */
const signed = (v, digits) => (v >= 0 ? "+" : "") + fmt(v, digits);
// The cards above the tree write their numbers as the pages do (cfrviz.util.text.number); the tables keep
// fixed decimals, a column's digits under each other.
/** @param {number} v */
const plus = (v) => number(v, { signed: true });
/** @param {number} v */
const exploitabilityText = (v) => number(clampedExploitability(v));

/** @param {any} tl @param {any} st */
function brBuild(tl, st) {
  brPanels(tl, st);
  buildTree(tl);
  // The marks lie above the shaded groups and under the edges: an edge and its label stay on top.
  const b = tl.b, overlay = el("svg:g", { class: "br-overlay" });
  tl.svg.insertBefore(overlay, tl.svg.children[1]);
  st.marks = [];
  for (const e of tl.edges) {
    if (e.chance) continue;
    const s = b.nodes.set[e.p];
    if (s < 0) continue;
    const line = el("svg:line", { class: "br-mark", x1: e.line.getAttribute("x1"), y1: e.line.getAttribute("y1"),
                                  x2: e.line.getAttribute("x2"), y2: e.line.getAttribute("y2"),
                                  "data-node": b.nodes.id[e.k], "data-set": b.sets[s].key,
                                  "data-action": b.sets[s].actions[b.nodes.action[e.k]] }, overlay);
    // Its rim, 2 px each side in a dark shade of the yellow: the mark reads against a light page too.
    const rim = el("svg:line", { class: "br-rim", x1: e.line.getAttribute("x1"), y1: e.line.getAttribute("y1"),
                                 x2: e.line.getAttribute("x2"), y2: e.line.getAttribute("y2") });
    line.remove();     // in the drawing only while marked, so downloaded figures hold only what is shown
    st.marks.push({ line, rim, overlay, edge: e.line, s, player: b.sets[s].player, action: b.nodes.action[e.k], on: false, width: "" });
  }
  brBuildTable(tl, st);
}

/** @param {any} tl @param {any} st */
function brDraw(tl, st) {
  if (!tl.edges || !st.marks) return;
  drawTree(tl);
  /** @type {Payload} */
  const b = tl.b, x = brOf(b), g = brFrame(tl, st), me = st.exploiter;
  if (g < 0 || !x) { st.cells.exploitability.textContent = "–"; return; }
  const best = x.best[g];
  for (const m of st.marks) {
    const on = m.player === me && best[m.s] === m.action;
    if (on !== m.on) { m.on = on; if (on) m.overlay.append(m.rim, m.line); else { m.rim.remove(); m.line.remove(); } }
    if (!on) continue;
    // A band of the same width around the edge, however thick the average strategy draws it.
    const width = Number(m.edge.getAttribute("stroke-width")) + 8;
    if (width.toFixed(1) !== m.width) {
      m.width = width.toFixed(1);
      m.line.style.strokeWidth = m.width;
      m.rim.style.strokeWidth = (width + 4).toFixed(1);
    }
  }
  const [v1, v2] = x.values[g], exploitability = (v1 + v2) / 2;
  const c = st.cells;
  c.exploitability.textContent = exploitabilityText(exploitability);
  c.first.textContent = plus(v1);
  c.second.textContent = plus(v2);
  const V = x.gameValue;
  const gains = V === null ? [v1, v2] : [v1 - V, v2 + V];
  const mean = (gains[0] + gains[1]) / 2;
  const low = Math.min(0, ...gains), top = Math.max(...gains, mean, 1e-12);
  /** @param {number} v */
  const at = (v) => (100 * (v - low) / (top - low));
  st.bars.forEach((/** @type {{ bar: any, mean: any, text: any }} */ bar, /** @type {number} */ p) => {
    const a = at(Math.min(0, gains[p])), z = at(Math.max(0, gains[p]));
    bar.bar.style.left = `${a.toFixed(2)}%`;
    bar.bar.style.width = `${Math.max(0.5, z - a).toFixed(2)}%`;
    bar.mean.style.left = `${at(mean).toFixed(2)}%`;
    bar.text.textContent = V === null ? `earns ${plus(x.values[g][p])}`
      : `${plus(gains[p])} (earns ${plus(x.values[g][p])})`;
  });
  if (st.locked && b.exploitability) {
    st.locked.textContent = `Locked run: exploitability in the locked game, where a best response may not change a `
      + `locked set: ${exploitabilityText(b.exploitability[tl.f])}. In the full game, where it may (above): ${exploitabilityText(exploitability)}.`;
  }
  brDrawTable(tl, st, g);
}

// ---------------------------------------------------------------- the exploiter's information sets
/** @param {any} tl @param {any} st */
function brBuildTable(tl, st) {
  /** @type {Payload} */
  const b = tl.b;
  const box = st.tableBox, me = st.exploiter;
  if (!box || me === undefined) return;
  box.replaceChildren();
  el("h4", { class: "br-table-title" }, box, `${cap(b.players[me])}'s best response at t, by information set`);
  el("div", { class: "tl-note" }, box, "Gain: how much more the best action earns than the average strategy's own mix at "
     + "that information set, weighted by how often the opponent and chance reach it (chips). Largest gain first"
     + (brOf(b)?.whole === false ? "; the sets with a history in the drawn part of the tree." : "."));
  const scroll = el("div", { class: "br-scroll" }, box);
  const table = el("table", { class: "tl-table br-table", "data-testid": "br-table" }, scroll);
  const head = el("tr", {}, el("thead", {}, table));
  for (const h of ["information set", "average strategy", "best response", "action values", "gain"]) el("th", {}, head, h);
  st.tbody = el("tbody", {}, table);
  st.rows = [];
  b.sets.forEach((set, s) => {
    if (set.player !== me) return;
    const tr = el("tr", { "data-set": set.key });
    const cells = [0, 1, 2, 3, 4].map(() => el("td", {}, tr));
    cells[0].textContent = set.key;
    st.rows.push({ s, tr, cells, key: set.key });
  });
  st.order = "";
}

/** @param {any} tl @param {any} st @param {number} g */
function brDrawTable(tl, st, g) {
  /** @type {Payload} */
  const b = tl.b, x = brOf(b), avg = tl.strategyAt("average", tl.f);
  if (!st.rows || !x) return;
  const gain = x.gain[g], best = x.best[g], values = x.actionValue[g];
  for (const row of st.rows) {
    const set = b.sets[row.s];
    row.cells[1].textContent = avg ? set.actions.map((a, j) => `${a} ${avg[row.s][j].toFixed(3)}`).join(" / ") : "–";
    row.cells[2].textContent = set.actions[best[row.s]] ?? "–";
    row.cells[3].textContent = set.actions.map((_, j) => signed(values[row.s][j], 4)).join(" / ");
    row.cells[4].textContent = fmt(gain[row.s], 5);
  }
  const sorted = [...st.rows].sort((p, q) => gain[q.s] - gain[p.s] || (p.key < q.key ? -1 : p.key > q.key ? 1 : 0));
  const order = sorted.map((r) => r.s).join(",");
  if (order !== st.order) { st.order = order; st.tbody.append(...sorted.map((r) => r.tr)); }
}

// ---------------------------------------------------------------- the inspector's best-response lines
/** @param {any} tl @param {any} st */
function brDrawInspector(tl, st) {
  /** @type {Payload} */
  const b = tl.b, x = brOf(b);
  const k = tl.inspected, box = tl.inspector, g = brFrame(tl, st);
  if (g < 0 || !st.marks || !x) return;
  if (k === null || k === undefined || k < 0 || b.nodes.set[k] < 0) return;
  let here = box.querySelector(".br-here");
  if (!here) {
    here = el("div", { class: "br-here", "data-testid": "br-here" });
    const table = box.querySelector(".tl-table");
    if (table) table.after(here); else box.appendChild(here);
  }
  const s = b.nodes.set[k], set = b.sets[s], me = st.exploiter;
  here.replaceChildren();
  if (set.player !== me) {
    el("div", {}, here, `${cap(b.players[me])}'s best response answers the average strategy played here.`);
    return;
  }
  const line = el("div", {}, here, `${cap(b.players[me])}'s best response at t: `);
  el("b", {}, line, set.actions[x.best[g][s]]);
  line.append(`, gain ${fmt(x.gain[g][s], 5)}`);
  const table = el("table", { class: "tl-table" }, here);
  const head = el("tr", {}, el("thead", {}, table));
  el("th", {}, head, "best response below");
  set.actions.forEach((a, j) => el("th", { style: `color:${(b.colors.actionText ?? b.colors.actions)[j]}` }, head, a));
  const tr = el("tr", {}, el("tbody", {}, table));
  el("td", { title: "Counterfactual value of each action over the set, the best response played after it." }, tr, "cf value, whole set");
  set.actions.forEach((_, j) => el("td", {}, tr, fmt(x.actionValue[g][s][j], 4)));
}
