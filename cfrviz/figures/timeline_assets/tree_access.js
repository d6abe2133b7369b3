// The tree by keyboard and for screen readers: one tab stop on the tree (arrows move between nodes,
// Enter or Space select, L asks the host to lock the node's set) and the drawn decision nodes as a
// table, kept in step with t. tree.js builds the drawing and calls these.
import { el, prob } from "./util.js";
import { select } from "./inspector.js";
import { reveal } from "./focus.js";
import { askLock } from "./locks.js";

/** @typedef {import("./payload.js").Payload} Payload */

// A click on node k (or Enter on it): the mode's, or select it.
/** @param {any} tl @param {number} k */
export function clicked(tl, k) {
  if (tl.spec.click) tl.spec.click(tl, tl.modeState, k); else select(tl, k);
}

// ------------------------------------------------------------------ keyboard
/**
 * What the tree's keys do, said in the tree's title and its hint line. L only where the host opens a
 * lock editor (the app's Game tree): elsewhere the key does nothing, so the hint does not offer it.
 * @param {any} tl
 */
export function keyHint(tl) {
  return "Tab reaches the tree; ← parent, → first child, ↑ ↓ the node above or below in its column, " +
    `Enter or Space select${tl.locks ? ", L lock this set" : ""}; the , and . keys step time (the bar's ← → step time too).`;
}

// One tab stop on the tree (roving tabindex): the focused node, else the selection, else the root.
/** @param {any} tl */
export function keyboard(tl) {
  /** @type {Payload} */
  const b = tl.b;
  const N = b.nodes.id.length, lay = b.layouts[tl.layout], parent = b.nodes.parent;
  /** @type {number[][]} */
  const children = Array.from({ length: N }, () => []);
  /** @type {Map<number, number[]>} */
  const columns = new Map();
  for (let k = 0; k < N; k++) {
    const p = parent[k];
    if (p >= 0) children[p].push(k);
    const c = lay.column[k];
    if (!columns.has(c)) columns.set(c, []);
    /** @type {number[]} */ (columns.get(c)).push(k);
  }
  for (const list of [...children, ...columns.values()]) list.sort((a, c) => lay.row[a] - lay.row[c]);
  tl.treeMoves = { children, columns };
  const start = tl.focusNode >= 0 && tl.focusNode < N ? tl.focusNode
    : tl.selected >= 0 ? tl.selected : Math.max(0, parent.findIndex((p) => p < 0));
  tl.focusNode = start;
  for (const s of tl.nodeShapes) s.g.setAttribute("tabindex", s.k === start ? 0 : -1);
  tl.treeKey = (/** @type {KeyboardEvent} */ e) => treeKey(tl, e);
  tl.hint = el("div", { class: "tl-note tl-tree-hint", "data-testid": "timeline-tree-keys" }, tl.treeBox);
  tl.hint.textContent = "Keys on the tree: " + keyHint(tl).replace("Tab reaches the tree; ", "");
}

/** Move the tree's tab stop to node k and focus it. @param {any} tl @param {number} k */
function focusNode(tl, k) {
  const old = tl.nodeShapes[tl.focusNode], now = tl.nodeShapes[k];
  if (!now) return;
  if (old) old.g.setAttribute("tabindex", -1);
  now.g.setAttribute("tabindex", 0);
  tl.focusNode = k;
  now.g.focus({ preventScroll: true });
  reveal(now.g);
}

/**
 * A key pressed on a tree node (the bar's key handler asks first): true when the tree took it.
 * @param {any} tl @param {KeyboardEvent} e
 */
function treeKey(tl, e) {
  if (e.ctrlKey || e.metaKey || e.altKey) return false;
  const k = tl.focusNode, { children, columns } = tl.treeMoves;
  const parent = tl.b.nodes.parent[k];
  const column = columns.get(tl.b.layouts[tl.layout].column[k]), at = column.indexOf(k);
  /** @type {Record<string, () => void>} */
  const keys = {
    ArrowLeft: () => { if (parent >= 0) focusNode(tl, parent); },
    ArrowRight: () => { if (children[k].length) focusNode(tl, children[k][Math.floor((children[k].length - 1) / 2)]); },
    ArrowUp: () => { if (at > 0) focusNode(tl, column[at - 1]); },
    ArrowDown: () => { if (at + 1 < column.length) focusNode(tl, column[at + 1]); },
    Enter: () => clicked(tl, k),
    " ": () => clicked(tl, k),
    ...(tl.locks ? { l: () => askLock(tl, k), L: () => askLock(tl, k) } : {}),
    ",": () => tl.go(tl.f - 1, true),
    ".": () => tl.go(tl.f + 1, true),
  };
  const act = keys[e.key];
  if (!act) return false;
  act();
  e.preventDefault();
  e.stopPropagation();
  return true;
}

// ------------------------------------------------------------------ text alternative
// The drawn decision nodes as a table (node, information set, player, strategy at t): visually
// hidden for screen readers, shown by its button.
/** @param {any} tl */
export function buildTable(tl) {
  /** @type {Payload} */
  const b = tl.b;
  const box = el("div", { class: "tl-tree-table" }, tl.treeBox);
  const button = el("button", { type: "button", class: "tl-table-toggle", "aria-expanded": "false" }, box,
                    tl.tableShown ? "Hide the table" : "Show as a table");
  // Hidden by its wrapper: a table keeps its content's width whatever width it is given, so hidden
  // itself it would still widen the page (a phone scrolled sideways by 35 px).
  const wrap = el("div", { class: tl.tableShown ? "" : "tl-sr-only" }, box);
  const table = el("table", { class: "tl-sets-table", "data-testid": "timeline-tree-table" }, wrap);
  button.setAttribute("aria-expanded", String(!!tl.tableShown));
  button.addEventListener("click", () => {
    tl.tableShown = !tl.tableShown;
    wrap.classList.toggle("tl-sr-only", !tl.tableShown);
    button.textContent = tl.tableShown ? "Hide the table" : "Show as a table";
    button.setAttribute("aria-expanded", String(tl.tableShown));
  });
  el("caption", {}, table, `${b.title}: the drawn nodes where a player acts, and the strategy at t`);
  const head = el("tr", {}, el("thead", {}, table));
  for (const h of ["Node", "Information set", "Player", "Strategy at t"]) el("th", { scope: "col" }, head, h);
  const body = el("tbody", {}, table);
  tl.tableCells = [];
  for (let k = 0; k < b.nodes.id.length; k++) {
    const s = b.nodes.set[k];
    if (s < 0 || b.nodes.actor[k] > 1) continue;
    const row = el("tr", { "data-node": b.nodes.id[k] }, body);
    el("th", { scope: "row" }, row, b.nodes.label[k]);
    el("td", {}, row, b.sets[s].key);
    el("td", {}, row, b.players[b.nodes.actor[k]]);
    tl.tableCells.push({ s, cell: el("td", {}, row, ""), shown: "" });
  }
}

/** @param {any} tl @param {any} strategy [S][A] at t, or null */
export function fillTable(tl, strategy) {
  /** @type {Payload} */
  const b = tl.b;
  for (const c of tl.tableCells || []) {
    const names = b.sets[c.s].actions;
    const text = strategy ? names.map((n, a) => `${n} ${strategy[c.s][a] === null ? "–" : prob(strategy[c.s][a])}`).join(", ") : "";
    if (text !== c.shown) { c.shown = text; c.cell.textContent = text; }
  }
}

