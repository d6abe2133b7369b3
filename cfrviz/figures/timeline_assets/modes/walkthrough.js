// Walkthrough mode: one CFR iteration, step by step, on the Game tree's drawing.
// The payload's `extra` is cfrviz/figures/walkthrough.py's `walkthrough_payload`: every step of the
// traversal (a frame each), the parts of the tree they are drawn on (one part for Kuhn, one
// betting round at a time for Leduc), and the information sets' numbers before and after.
// The tree is the tree view's (buildTree / drawTree); this mode swaps in the step's part, rings the
// node being visited, draws the path to it (orange going down with the reach, blue coming back with
// the values and regrets), and keeps the step card and the table of information sets in step.
import { el, fmt, thousands } from "../util.js";
import { intoNodes } from "../payload.js";
import { buildTree, drawTree } from "../tree.js";
import { registerMode } from "../registry.js";

const WALK_DOWN = "#E69F00", WALK_UP = "#0072B2";
const WALK_KINDS = { visit: "Visit", chance: "Chance", terminal: "Terminal", return: "Return", finish: "End of the pass" };

/**
 * The walkthrough's data, the payload's `extra` (cfrviz/figures/walkthrough.py's walkthrough_payload,
 * which names the shapes).
 * @typedef {Object} Walk
 * @property {WalkSteps} steps
 * @property {Pick<import("../payload.js").Sent, "nodes" | "edges" | "links" | "groups" | "layouts" | "sets">[]} parts
 * @property {WalkTable} table
 */
/**
 * The trace's S steps as columns.
 * @typedef {Object} WalkSteps
 * @property {(keyof typeof WALK_KINDS)[]} kind
 * @property {number[]} node
 * @property {number[]} part
 * @property {number[]} traverser -1 when both players update in the pass
 * @property {number[]} player
 * @property {number[]} set
 * @property {string[]} history
 * @property {string[]} text
 * @property {string[][]} actions
 * @property {number[][]} reach [S][3]: player 1, player 2, chance
 * @property {number[][]} strategy
 * @property {number[][]} utility
 * @property {number[]} nodeUtility
 * @property {number[][]} regret
 * @property {number[]} weight
 * @property {number[][]} regretUpdate
 * @property {number[]} ownWeight
 * @property {number[][]} sumUpdate
 */
/**
 * Every information set's numbers before and after the iteration, [I] and [I][A].
 * @typedef {Object} WalkTable
 * @property {string[]} key
 * @property {number[]} player
 * @property {string[][]} actions
 * @property {number[]} first
 * @property {number[]} final
 * @property {boolean[]} changed
 * @property {number[][]} strategy
 * @property {number[][]} next
 * @property {number[][]} regretBefore
 * @property {number[][]} regretAfter
 * @property {number[][]} sumBefore
 * @property {number[][]} sumAfter
 */

// The mode's own state (st): `base` is the payload the component was mounted with (the tree
// mode's fields of the first part, and `extra`: the trace's numbers as they are sent), `first` the
// first step at each node, `updates` the steps that update the sums, `parts` the parts' payloads,
// `part` the part drawn, `strategy` this iteration's current strategy of the drawn sets.
/** @param {any} st @returns {Walk} */
const walkOf = (st) => st.base.extra;

/** @param {any} tl @param {any} st */
function walkSetup(tl, st) {
  const base = st.base = tl.b;
  const w = walkOf(st), S = w.steps;
  // First step at each node (a click on a node goes there) and the update steps (N and P).
  st.first = new Map();
  S.node.forEach((n, i) => { if (S.kind[i] !== "finish" && !st.first.has(n)) st.first.set(n, i); });
  st.updates = S.kind.map((k, i) => (k === "return" || k === "finish") ? i : -1).filter((i) => i >= 0);
  st.parts = w.parts.map(() => null);
  st.part = -1;
  tl.root.classList.add("tl-walk");
  const legend = el("span", { class: "tl-legend-text wt-legend" }, tl.legend);
  legend.innerHTML = `<b style="color:${WALK_DOWN}">━</b> going down: the path to the step's node and the reach passed on · ` +
    `<b style="color:${WALK_UP}">━</b> coming back: utilities, regrets and the sums' updates · ` +
    "dashed edges: not walked yet. Edge widths show this iteration's current strategy.";
  walkTable(tl, st);
}

// The next (+1) or previous (-1) step that updates the sums: a return or the end of a pass.
/** @param {any} tl @param {any} st @param {number} direction */
function walkJump(tl, st, direction) {
  /** @type {number[] | undefined} */
  const u = st.updates, f = tl.f;
  if (!u) return f;
  if (direction > 0) return u.find((i) => i > f) ?? tl.frames.length - 1;
  for (let j = u.length - 1; j >= 0; j--) if (u[j] < f) return u[j];
  return 0;
}

// Draw part p of the tree (the tree mode's buildTree on that part's nodes).
/** @param {any} tl @param {any} st @param {number} p */
function walkShowPart(tl, st, p) {
  const w = walkOf(st);
  if (!st.parts[p]) st.parts[p] = intoNodes({ ...st.base, ...w.parts[p] });
  /** @type {import("../payload.js").Payload} */
  const body = st.parts[p];
  tl.b = body;
  tl.local = new Map(body.nodes.id.map((n, k) => [n, k]));
  tl.selected = -1;
  tl.hovered = -1;
  st.strategy = body.sets.map((s) => w.table.strategy[s.index]);
  buildTree(tl);
  st.path = el("svg:g", { class: "wt-path" });
  tl.svg.insertBefore(st.path, tl.gLinks);
  st.part = p;
  st.drawnStep = -1;
}

/** @param {any} tl @param {any} st */
function walkDraw(tl, st) {
  const S = walkOf(st).steps, f = tl.f;
  if (S.part[f] !== st.part) walkShowPart(tl, st, S.part[f]);
  const k = tl.local.get(S.node[f]);
  tl.selected = k === undefined ? -1 : k;
  drawTree(tl);
  if (st.drawnStep !== f) { walkPath(tl, st); walkRows(tl, st); walkInView(tl); st.drawnStep = f; }
}

// A tree wider than the screen (a phone) pans to keep the step's node in sight.
/** @param {any} tl */
function walkInView(tl) {
  const k = tl.selected, box = tl.treeBox;
  if (k < 0 || box.scrollWidth <= box.clientWidth) return;
  const x = tl.pos.x(k), margin = 60;
  if (x - margin < box.scrollLeft || x + margin > box.scrollLeft + box.clientWidth) {
    box.scrollLeft = Math.max(0, x - box.clientWidth / 2);
  }
}

// The path from the root to the step's node, and which edges the walk has not taken yet.
/** @param {any} tl @param {any} st */
function walkPath(tl, st) {
  const S = walkOf(st).steps, f = tl.f, b = tl.b, { x, y, half } = tl.pos;
  const up = S.kind[f] === "return" || S.kind[f] === "finish";
  st.path.replaceChildren();
  st.path.dataset.direction = up ? "up" : "down";
  for (let k = tl.selected; k >= 0 && b.nodes.parent[k] >= 0; k = b.nodes.parent[k]) {
    const p = b.nodes.parent[k];
    el("svg:line", { x1: x(p) + half[p], y1: y(p), x2: x(k) - half[k], y2: y(k), stroke: up ? WALK_UP : WALK_DOWN,
                     "stroke-width": 7, "stroke-opacity": 0.55, "stroke-linecap": "round" }, st.path);
  }
  for (const e of tl.edges) {
    const first = st.first.get(b.nodes.id[e.k]);
    e.line.classList.toggle("wt-later", first === undefined || first > f);
  }
}

// ---------------------------------------------------------------- the step card (the inspector's place)
/** @param {number} x @param {number} [digits] */
const signed = (x, digits = 4) => (x > 0 ? "+" : "") + fmt(x, digits);
// A row of a set's numbers: signed with `digits` decimals (sums), else a strategy's 3.
/** @param {number[]} row @param {number} [digits] */
const join = (row, digits) => row.map((v) => digits ? signed(v, digits) : fmt(v, 3)).join(" / ");

/** @param {any} tl @param {any} st */
function walkCard(tl, st) {
  const box = tl.inspector, f = tl.f, w = walkOf(st), S = w.steps;
  tl.inspected = f;      // the figure downloads include the card
  if (st.cardStep === f) return;
  st.cardStep = f;
  box.classList.remove("tl-open", "tl-peek");
  box.replaceChildren();
  box.dataset.testid = "walk-card";
  const kind = S.kind[f], who = S.player[f], pass = S.traverser[f];
  el("h4", {}, box, `${WALK_KINDS[kind]} · ${S.history[f]}`);
  const sub = [];
  if (who === 0 || who === 1) sub.push(`${tl.b.players[who]} to act · information set ${w.table.key[S.set[f]]}`);
  sub.push(pass < 0 ? "both players updated in this pass" : `pass of ${tl.b.players[pass]} (alternating updates)`);
  el("div", { class: "tl-sub" }, box, sub.join(" · "));
  el("p", { class: "wt-text" }, box, S.text[f]);
  /** @param {string[]} head @param {[string, string[], string?][]} rows @param {string} testid */
  const table = (head, rows, testid) => {
    const t = el("table", { class: "tl-table", "data-testid": testid }, box);
    const tr = el("tr", {}, el("thead", {}, t));
    head.forEach((h, j) => el("th", j ? { style: `color:${(tl.b.colors.actionText ?? tl.b.colors.actions)[(j - 1) % 10]}` } : {}, tr, h));
    const body = el("tbody", {}, t);
    for (const [label, cells, help] of rows) {
      const r = el("tr", {}, body);
      el("td", help ? { title: help } : {}, r, label);
      for (const c of cells) el("td", {}, r, c);
    }
  };
  if (kind !== "finish") {
    const r = S.reach[f];
    const t = el("table", { class: "tl-table wt-reach", "data-testid": "walk-reach" }, box);
    const head = el("tr", {}, el("thead", {}, t));
    ["", "player 1", "player 2", "chance"].forEach((h) => el("th", {}, head, h));
    const row = el("tr", {}, el("tbody", {}, t));
    el("td", { title: "The probability of reaching this history: each player's own part, and chance's." }, row,
       kind === "return" ? "reach" : "reach passed down");
    r.forEach((v) => el("td", {}, row, fmt(v, 4)));
  }
  const actions = S.actions[f];
  if (kind === "visit" || kind === "chance") {
    table(["action", ...actions], [[kind === "chance" ? "probability" : "current strategy", S.strategy[f].map((v) => fmt(v, 3))]], "walk-strategy");
  } else if (kind === "return") {
    const weight = S.weight[f], own = S.ownWeight[f];
    table(["at this node", ...actions], [
      ["current strategy", S.strategy[f].map((v) => fmt(v, 3))],
      ["utility", S.utility[f].map((v) => signed(v)), `Player ${who + 1}'s utility after each action.`],
      ["regret", S.regret[f].map((v) => signed(v)), "Utility of the action minus the node's utility."],
      ["+ regret sum", S.regretUpdate[f].map((v) => signed(v)), `${fmt(weight, 4)} × regret: the opponent's and chance's reach.`],
      ["+ strategy sum", S.sumUpdate[f].map((v) => signed(v)), `${fmt(own, 4)} × strategy: the player's own reach.`],
    ], "walk-return");
    el("div", { class: "tl-note" }, box, `Node utility for player ${who + 1}: ${signed(S.nodeUtility[f])}. ` +
       `Regret sum += ${fmt(weight, 4)} × regret; strategy sum += ${fmt(own, 4)} × strategy.`);
  } else if (kind === "terminal") {
    el("div", { class: "tl-reach" }, box, `Player 1 gets ${signed(S.nodeUtility[f], 2)} chips, player 2 ${signed(-S.nodeUtility[f], 2)}.`);
  }
}

// ---------------------------------------------------------------- the table of information sets
// After a step, a set's "after" numbers are pending (the walk has not added to them yet), so far
// (part of its updates added), or final; a set this iteration leaves alone is unchanged.
/** @param {any} tl @param {any} st */
function walkTable(tl, st) {
  const w = walkOf(st), T = w.table;
  const box = el("div", { class: "wt-sets", "data-testid": "walk-sets" }, tl.root);
  const head = el("div", { class: "wt-sets-head" }, box);
  el("h5", {}, head, "Every information set, before and after this iteration");
  const label = el("label", {}, head);
  const only = el("input", { type: "checkbox" }, label);
  only.checked = true;
  label.appendChild(document.createTextNode(" only the sets this iteration changes"));
  el("div", { class: "tl-note" }, box, "“pending”: the walk has not added to the set yet; “so far”: part of its " +
     "updates are in; the rest are final. The next strategy is regret matching on the cumulative regret after.");
  const scroll = el("div", { class: "wt-sets-scroll" }, box);
  const table = el("table", { class: "tl-table wt-table" }, scroll);
  const tr = el("tr", {}, el("thead", {}, table));
  ["information set", "player", "actions", "strategy", "regret sum before", "regret sum after",
   "strategy sum before", "strategy sum after", "next strategy"].forEach((h) => el("th", {}, tr, h));
  const body = el("tbody", {}, table);
  st.rowsOf = T.key.map((key, i) => {
    const r = el("tr", { "data-set": key }, body);
    const cells = [key, String(T.player[i] + 1), T.actions[i].join(" / "), join(T.strategy[i]),
                   join(T.regretBefore[i], 4), "", join(T.sumBefore[i], 4), "", ""].map((text) => el("td", {}, r, text));
    return { r, after: [cells[5], cells[7], cells[8]], shown: ["", "", ""] };
  });
  const filter = () => T.key.forEach((_, i) => { st.rowsOf[i].r.hidden = only.checked && !T.changed[i]; });
  only.addEventListener("change", () => { filter(); st.drawnStep = -1; tl.draw(); });
  filter();
  st.scroll = scroll;
}

/** @param {any} tl @param {any} st */
function walkRows(tl, st) {
  const w = walkOf(st), T = w.table, S = w.steps, f = tl.f;
  // The sums as they stand after step f: the "before" values plus the updates of the returns so far.
  const regret = T.regretBefore.map((r) => r.slice()), sums = T.sumBefore.map((r) => r.slice());
  for (let i = 0; i <= f; i++) {
    if (S.kind[i] !== "return") continue;
    const s = S.set[i];
    S.regretUpdate[i].forEach((v, a) => { regret[s][a] += v; });
    S.sumUpdate[i].forEach((v, a) => { sums[s][a] += v; });
  }
  const current = S.set[f];
  T.key.forEach((_, i) => {
    const row = st.rowsOf[i];
    let texts, state;
    if (T.first[i] < 0) { texts = [join(T.regretBefore[i], 4), join(T.sumBefore[i], 4), join(T.next[i])]; state = "unchanged"; }
    else if (f < T.first[i]) { texts = ["pending", "pending", "pending"]; state = "pending"; }
    else if (f < T.final[i]) { texts = [`${join(regret[i], 4)} so far`, `${join(sums[i], 4)} so far`, "pending"]; state = "so-far"; }
    else { texts = [join(T.regretAfter[i], 4), join(T.sumAfter[i], 4), join(T.next[i])]; state = "final"; }
    texts.forEach((text, j) => { if (row.shown[j] !== text) { row.after[j].textContent = text; row.shown[j] = text; } });
    if (row.r.dataset.state !== state) row.r.dataset.state = state;
    row.r.classList.toggle("wt-current", i === current);
  });
  // Keep the step's set in view inside the table's own scroll box (the page does not move).
  const now = current >= 0 ? st.rowsOf[current].r : null;
  if (now && !now.hidden) {
    const box = st.scroll, top = now.offsetTop, head = box.querySelector("thead").offsetHeight;
    if (top < box.scrollTop + head || top + now.offsetHeight > box.scrollTop + box.clientHeight) {
      box.scrollTop = Math.max(0, top - head - box.clientHeight / 3);
    }
  }
}

registerMode("walkthrough", {
  build: (tl, st) => {
    if (!st.base) walkSetup(tl, st);
    st.part = -1;
    walkShowPart(tl, st, walkOf(st).steps.part[tl.f]);
  },
  draw: (tl, st) => { if (st.base) walkDraw(tl, st); },
  inspector: true,
  kind: null,
  report: "walk_step",
  unit: "step",
  frames: (body) => /** @type {Walk} */ (body.extra).steps.kind.map((_, i) => i + 1),
  label: (tl, st) => {
    if (!st.base) return "";
    const S = walkOf(st).steps, f = tl.f;
    return `Step ${f + 1} of ${thousands(S.kind.length)} · ${WALK_KINDS[S.kind[f]].toLowerCase()} ${S.history[f]}`;
  },
  // The tree view, changed for a walk: edge widths are this iteration's current strategy; a click
  // on a node goes to its visit; the inspector's place holds the step card; N and P jump.
  strategy: (tl, st) => st.strategy ?? null,
  click: (tl, st, k) => { const s = st.first?.get(tl.b.nodes.id[k]); if (s !== undefined) tl.go(s, true); },
  card: (tl, st) => walkCard(tl, st),
  keys: { n: (tl, st) => tl.go(walkJump(tl, st, 1), true), p: (tl, st) => tl.go(walkJump(tl, st, -1), true) },
  buttons: [["« update", "Previous update (P)", (tl, st) => tl.go(walkJump(tl, st, -1), true)],
            ["update »", "Next update (N)", (tl, st) => tl.go(walkJump(tl, st, 1), true)]],
});
