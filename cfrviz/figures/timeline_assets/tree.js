// The tree view: the drawn part of the game tree with its information sets (shaded groups, dashed
// links), edge widths by the strategy at t, node emphasis by reach, the selection's rings, and the
// legend. The "tree" mode, and the drawing the tree-based page modes build on.
import { el, prob, rgba, over, contrast, paperOf } from "./util.js";
import { LOCK_ROOM, padlock, comparison, movedAt, movedColor } from "./locks.js";
import { drawInspector } from "./inspector.js";
import { registerMode } from "./registry.js";
import { keyHint, buildTable, clicked, fillTable, keyboard } from "./tree_access.js";

const PITCH = 24;          // px between leaf rows: a 14 px label and its neighbour never touch
const TEXT_CONTRAST = 4.5; // WCAG 2.1's least contrast for normal text (1.4.3, AA), as _style.py's

/** @typedef {import("./payload.js").Payload} Payload */

/** A player's pill colour: the payload's shade of the player's colour that carries white text at 4.5:1.
 * @param {Payload} b @param {number} player */
const pill = (b, player) => b.colors.pills[player];


/**
 * Lay the tree out for tl.width and draw it into tl.treeBox (tl.svg); keeps the geometry (tl.pos),
 * the edges (tl.edges) and the selection's layer (tl.gLinks) for the modes.
 * @param {any} tl a Timeline (store.js)
 */
export function buildTree(tl) {
  /** @type {Payload} */
  const b = tl.b;
  const N = b.nodes.id.length, lay = b.layouts[tl.layout];
  const actor = b.nodes.actor, set = b.nodes.set;
  const C = lay.columns;
  // Shapes: a pill with the information-set key, a chance diamond, a terminal triangle.
  /** @param {number} k */
  const keyOf = (k) => set[k] >= 0 ? b.sets[set[k]].key : "";
  // A locked set's pill holds a padlock at its left end (cfrviz.tree.locks: the set plays its lock).
  /** @param {number} k */
  const lockOf = (k) => set[k] >= 0 ? b.sets[set[k]].lock : null;
  /** @type {number[]} */
  let half = new Array(N);
  /** @param {number} k */
  const pillHalf = (k) => (tl.measure(keyOf(k), true) + 14 + (lockOf(k) ? LOCK_ROOM : 0)) / 2;
  for (let k = 0; k < N; k++) half[k] = actor[k] <= 1 ? pillHalf(k) : 7;
  /** @param {number[]} h */
  const colHalf = (h) => { const m = new Array(C).fill(7); for (let k = 0; k < N; k++) m[lay.column[k]] = Math.max(m[lay.column[k]], h[k]); return m; };
  let ch = colHalf(half);
  /** @param {number} k */
  const payoffText = (k) => b.nodes.payoff[k] === null ? "" : (b.nodes.payoff[k] > 0 ? "+" : "") + b.nodes.payoff[k].toString().replace("-", "−");
  let right = 10;
  for (let k = 0; k < N; k++) if (actor[k] === 3) right = Math.max(right, tl.measure(payoffText(k), true) + 18);
  const padL = ch[0] + 4;
  // Pills side by side need this much room per column (the test below that keeps the keys).
  let need = 0;
  for (let c = 0; c + 1 < C; c++) need = Math.max(need, ch[c] + ch[c + 1] + 24);
  const wide = Math.ceil(padL + right + ch[C - 1] + (C - 1) * need);
  // On a narrow screen the tree keeps its labels and pans sideways instead (at most 3 screens).
  let W = tl.narrow && wide > tl.width ? Math.min(wide, 3 * tl.width) : tl.width;
  tl.panNote.hidden = W <= tl.width;
  /** @param {number[]} h */
  const span = (h) => (W - padL - right - h[C - 1]) / Math.max(1, C - 1);
  let colW = span(ch);
  // Pills that do not fit side by side become plain dots; the key stays in the inspector.
  tl.keysShown = true;
  for (let c = 0; c + 1 < C; c++) if (ch[c] + ch[c + 1] + 24 > colW) tl.keysShown = false;
  if (!tl.keysShown) { half = half.map((h, k) => actor[k] <= 1 ? 9 : 7); ch = colHalf(half); colW = span(ch); }
  // Edge labels (bids, moves) need room too: rather than drop them all, widen the tree (at most 3
  // screens) and let it pan sideways.
  let labelNeed = 0;
  for (let j = 0; j < b.edges.child.length; j++) {
    const k = b.edges.child[j];
    labelNeed = Math.max(labelNeed, tl.measure(b.edges.letter[j]) + half[k] + ch[lay.column[k] - 1] + 12);
  }
  if (labelNeed > colW) {
    W = Math.max(W, Math.min(Math.ceil(padL + right + ch[C - 1] + (C - 1) * labelNeed), 3 * tl.width));
    tl.panNote.hidden = W <= tl.width;
    colW = span(ch);
  }
  /** @param {number} k */
  const x = (k) => padL + lay.column[k] * colW;
  const top = 24;
  /** @param {number} k */
  const y = (k) => top + lay.row[k] * PITCH;
  const H = top + (lay.rows - 1) * PITCH + 24;
  tl.pos = { x, y, half };

  tl.treeBox.replaceChildren();
  const svg = el("svg:svg", { width: W, height: H, role: "group", "aria-label": `${b.title} game tree` }, tl.treeBox);
  el("svg:title", {}, svg, `${b.title} game tree: ${N} nodes drawn. ${keyHint(tl)}`);
  tl.svg = svg;
  const gGroups = el("svg:g", {}, svg), gEdges = el("svg:g", {}, svg), gMoved = el("svg:g", {}, svg);
  const gLinks = el("svg:g", {}, svg);
  const gLabels = el("svg:g", {}, svg), gNodes = el("svg:g", {}, svg);
  tl.gLinks = gLinks;

  // Shaded groups: the connected components of the information-set links (the payload's
  // `groups`), each drawn as one band over its members that are neighbours in their column.
  const rank = new Array(N);
  const byColumn = new Map();
  for (let k = 0; k < N; k++) { const c = lay.column[k]; if (!byColumn.has(c)) byColumn.set(c, []); byColumn.get(c).push(k); }
  for (const members of byColumn.values()) { members.sort((/** @type {number} */ a, /** @type {number} */ c) => lay.row[a] - lay.row[c]); members.forEach((/** @type {number} */ k, /** @type {number} */ r) => { rank[k] = r; }); }
  tl.groupOf = new Array(N).fill(-1);
  tl.shade = new Array(N).fill(false);
  b.groups.forEach((group, g) => {
    for (const k of group) tl.groupOf[k] = g;
    const members = [...group].sort((a, c) => lay.column[a] - lay.column[c] || lay.row[a] - lay.row[c]);
    let start = 0;
    for (let i = 1; i <= members.length; i++) {
      const prev = members[i - 1], next = members[i];
      if (i < members.length && lay.column[next] === lay.column[prev] && rank[next] === rank[prev] + 1) continue;
      if (i - start >= 2) {
        const a = members[start], z = members[i - 1], w = ch[lay.column[a]];
        el("svg:rect", { class: "tl-group", x: x(a) - w - 5, y: y(a) - 15, width: 2 * w + 10,
                         height: y(z) - y(a) + 30, rx: 10 }, gGroups);
        for (let j = start; j < i; j++) tl.shade[members[j]] = true;
      }
      start = i;
    }
  });
  tl.linksOf = b.groups.map(() => []);
  for (const [a, c] of b.links) tl.linksOf[tl.groupOf[a]].push([a, c]);

  // The page's background: behind the edge labels, and what a pill's key is read against.
  const paper = rgba(paperOf(tl.root)) || [255, 255, 255, 1];
  // Tree edges: the payload's `edges` (the graph's), one line each.
  tl.edges = [];
  tl.edgeLabels = [];
  for (let j = 0; j < b.edges.child.length; j++) {
    const k = b.edges.child[j], p = b.edges.parent[j];
    const line = el("svg:line", { x1: x(p) + half[p], y1: y(p), x2: x(k) - half[k], y2: y(k),
                                  "stroke-linecap": "round" }, gEdges);
    const chance = actor[p] === 2;
    line.setAttribute("stroke", chance ? b.colors.chance : b.colors.player[actor[p]]);
    tl.edges.push({ k, p, line, chance });
    // The label sits just left of the child, above its edge, inside the gap between columns.
    const room = x(k) - half[k] - 6 - (x(k) - colW + ch[lay.column[k] - 1] + 6);
    const letter = b.edges.letter[j];
    const full = chance ? letter : `${letter} 1.00`;
    let mode = 0;
    if (tl.measure(full) <= room) mode = 2; else if (tl.measure(letter) <= room) mode = 1;
    if (chance && mode) mode = 1;
    if (!mode) continue;
    // On its own edge, just left of the child: a label above or below a sloped edge met the edge
    // itself, a neighbour's pill or the next row's label. Its chip of the page's background cuts
    // the edge (up to 10.5 px thick) and any line crossing there.
    const x1 = x(p) + half[p], x2 = x(k) - half[k] - 6;
    // The edge's height at the label's right end: siblings' labels stay about a row apart.
    const yAt = y(p) + (y(k) - y(p)) * Math.max(0, Math.min(1, (x2 - x1) / Math.max(1, x(k) - half[k] - x1)));
    const w = tl.measure(full) + 8;
    el("svg:rect", { class: "tl-edge-chip", x: x2 - w + 4, y: (yAt - 10).toFixed(1), width: w, height: 20, rx: 5,
                     fill: `rgb(${paper.slice(0, 3).join(",")})` }, gLabels);
    const text = el("svg:text", { x: x2, y: (yAt + 5).toFixed(1), "text-anchor": "end",
                                  class: "tl-edge-label" }, gLabels, letter);
    tl.edgeLabels.push({ k, p, text, mode, letter });
  }

  tl.nodeShapes = [];
  for (let k = 0; k < N; k++) {
    const g = el("svg:g", { class: "tl-node", "data-node": b.nodes.id[k], tabindex: -1, role: "button" }, gNodes);

    let shape, text = null;
    if (actor[k] <= 1) {
      shape = el("svg:rect", { x: x(k) - half[k], y: y(k) - 10, width: 2 * half[k], height: 20, rx: 10,
                               fill: pill(b, actor[k]) }, g);
      const shift = lockOf(k) && tl.keysShown ? LOCK_ROOM / 2 : 0;
      if (tl.keysShown) text = el("svg:text", { x: x(k) + shift, y: y(k) + 5, "text-anchor": "middle", class: "tl-key" }, g, keyOf(k));
    } else if (actor[k] === 2) {
      shape = el("svg:path", { d: `M${x(k) - 8},${y(k)}l8,-8l8,8l-8,8z`, fill: b.colors.chance }, g);
    } else {
      shape = el("svg:path", { d: `M${x(k) - 6},${y(k) - 5}h12l-6,10z`, fill: b.colors.terminal, class: "tl-terminal" }, g);
      // Its own dark fill on a halo of the page's background: readable over any edge or band.
      el("svg:text", { x: x(k) + 10, y: y(k) + 5, class: "tl-payoff" }, g, payoffText(k));
    }
    // Drawn after the key, so the element before a key stays its pill (what the key is read against).
    const lock = lockOf(k) ? padlock(g, tl.keysShown ? x(k) - half[k] + 11 : x(k), y(k)) : null;
    const name = b.nodes.label[k] + (set[k] >= 0 ? ` · information set ${keyOf(k)}` : "") + (lockOf(k) ? " · locked" : "");
    el("svg:title", {}, g, name);
    g.setAttribute("aria-label", name);
    // A pointer click leaves the focus on the timeline (arrows then step time, as before); only
    // the keyboard moves it between nodes.
    g.addEventListener("mousedown", (/** @type {MouseEvent} */ e) => { e.preventDefault(); tl.root.focus({ preventScroll: true }); });
    g.addEventListener("click", () => clicked(tl, k));
    g.addEventListener("mouseenter", () => { if (!tl.hoverFrozen) { tl.hovered = k; tl.inspected = null; tl.draw(); } });
    g.addEventListener("mouseleave", () => { if (!tl.hoverFrozen) { tl.hovered = -1; tl.inspected = null; tl.draw(); } });
    // The keyboard focus ring, right after its node (shown on the node's :focus-visible, timeline.css):
    // outside the node's group, so the group's box, where a click lands, stays its shape's.
    el("svg:rect", { class: "tl-focus-ring", x: x(k) - half[k] - 7, y: y(k) - 17, width: 2 * half[k] + 14, height: 34, rx: 17 }, gNodes);
    const base = rgba(actor[k] <= 1 ? pill(b, actor[k]) : "#fff");
    tl.nodeShapes.push({ g, shape, k, text, lock, base, opacity: -1 });
  }
  // Rings round the sets whose average strategy moved from the unlocked run's (drawTree colours them).
  tl.movedRings = [];
  const cmp = comparison(tl);
  if (cmp) {
    for (let k = 0; k < N; k++) {
      if (set[k] < 0 || cmp.setIndex[set[k]] < 0) continue;
      const rect = el("svg:rect", { class: "tl-moved", x: x(k) - half[k] - 6, y: y(k) - 16, width: 2 * half[k] + 12,
                                    height: 32, rx: 16, fill: "none", stroke: "none", "data-node": b.nodes.id[k] }, gMoved);
      tl.movedRings.push({ k, s: set[k], rect, shown: null });
    }
  }
  // The shaded band's colour over the page's background (behind a pill in a group).
  tl.paper = paper;
  tl.bandPaper = over([0, 158, 115], 0.10, paper);
  keyboard(tl);
  buildTable(tl);
}

/**
 * Show frame tl.f on the built tree: edge widths and labels, node emphasis, rings, the selection
 * and the inspector.
 * @param {any} tl
 */
export function drawTree(tl) {
  if (!tl.edges) return;
  /** @type {Payload} */
  const b = tl.b;
  const strategy = tl.strategyAt(tl.kind, tl.f);
  const set = b.nodes.set, action = b.nodes.action, parent = b.nodes.parent, N = b.nodes.id.length;
  /** @param {number} k @returns {number | null} */
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
  for (const e of tl.edges) {
    const p = e.chance ? null : edgeP(e.k);
    e.line.setAttribute("stroke-width", e.chance ? 2 : (p === null ? 2 : 1.5 + 9 * p).toFixed(2));
    e.line.setAttribute("stroke-opacity", e.chance || p === null ? 0.6 : (0.25 + 0.75 * p).toFixed(2));
  }
  const path = new Set();
  const focus = tl.hovered >= 0 ? tl.hovered : tl.selected;
  for (let k = focus; k >= 0; k = parent[k]) path.add(k);
  for (const l of tl.edgeLabels) {
    const p = l.mode === 2 ? edgeP(l.k) : null;
    l.text.textContent = p === null ? l.letter : `${l.letter} ${prob(p)}`;
    l.text.classList.toggle("tl-on-path", path.has(l.k));
  }
  for (const s of tl.nodeShapes) {
    const o = Math.round(100 * (0.3 + 0.7 * Math.sqrt(reach[s.k]))) / 100;
    if (o === s.opacity) continue;
    s.opacity = o;
    if (!s.text && !s.lock) { s.shape.setAttribute("fill-opacity", o.toFixed(2)); continue; }
    // A pill is painted opaque, in its colour faded by reach over the band or the page: no edge end
    // or best-response mark shows through under its key, so the key is read against this colour.
    const behind = over(s.base, o, tl.shade[s.k] ? tl.bandPaper : tl.paper).map(Math.round);
    s.shape.setAttribute("fill", `rgb(${behind.slice(0, 3).join(",")})`);
    // White on the pill's shade (made for white text at 4.5:1); black once reach fades it light.
    const white = contrast(behind, [255, 255, 255]);
    const ink = white >= TEXT_CONTRAST || white >= contrast(behind, [0, 0, 0]) ? "#fff" : "#000";
    if (s.text) s.text.style.fill = ink;
    if (s.lock) s.lock.style.color = ink;
  }
  const cmp = comparison(tl), least = cmp?.c.movedAtLeast ?? 0;
  for (const r of tl.movedRings || []) {
    const v = movedAt(tl, tl.f, r.s);
    const shown = v !== null && v >= least ? v : null;
    if (shown === r.shown) continue;
    r.shown = shown;
    if (shown === null) delete r.rect.dataset.moved; else r.rect.dataset.moved = String(shown);
    // The ring's look changes in steps of 0.01: most frames repaint no ring.
    const look = shown === null ? -1 : Math.round(100 * shown);
    if (look === r.look) continue;
    r.look = look;
    // Hidden rings keep stroke "none" (not display:none), so a downloaded figure leaves them out too.
    r.rect.setAttribute("stroke", shown === null || !cmp ? "none" : movedColor(cmp, look / 100));
    r.rect.setAttribute("stroke-width", shown === null ? 0 : (3 + 0.03 * look).toFixed(2));
  }
  drawSelection(tl);
  fillTable(tl, strategy);
  if (tl.spec.card) tl.spec.card(tl, tl.modeState); else drawInspector(tl);
}

/** @param {any} tl */
function drawSelection(tl) {
  /** @type {Payload} */
  const b = tl.b;
  const { x, y, half } = tl.pos;
  // Rings and links depend on the selection only: redraw them when it changes, not every frame.
  const drawn = `${tl.selected}/${tl.hovered}`;
  if (tl.gLinks.dataset.drawn === drawn) return;
  tl.gLinks.dataset.drawn = drawn;
  tl.gLinks.replaceChildren();
  for (const k of [tl.selected, tl.hovered]) {
    if (k < 0) continue;
    const g = tl.groupOf[k];
    const members = g >= 0 ? b.groups[g] : [k];
    for (const m of members) {
      el("svg:rect", { class: "tl-ring", x: x(m) - half[m] - 4, y: y(m) - 14, width: 2 * half[m] + 8, height: 28,
                       rx: 13, "stroke-width": m === k ? 4 : 2 }, tl.gLinks);
    }
    // The graph's same-information-set links: the textbook dashed line, on hover or selection.
    for (const [a, c] of g >= 0 ? tl.linksOf[g] : []) {
      const bow = Math.max(half[a], half[c]) + 18;
      el("svg:path", { class: "tl-link", d: `M${x(a) + half[a] + 4},${y(a)} C${x(a) + bow + 30},${y(a)} ${x(c) + bow + 30},${y(c)} ${x(c) + half[c] + 4},${y(c)}` }, tl.gLinks);
    }
  }
}

/** The legend under the tree: what the colours, shapes, bands, padlocks and rings mean. @param {any} tl */
export function fillLegend(tl) {
  /** @type {Payload} */
  const b = tl.b;
  const c = b.colors, legend = tl.legend;
  legend.innerHTML = "";
  /** @param {string} color @param {string} text */
  const item = (color, text) => { const s = el("span", { class: "tl-key-item" }, legend); s.innerHTML = `<b style="color:${color}">■</b> `; s.appendChild(document.createTextNode(text)); };
  item(c.pills[0], "player 1 to act"); item(c.pills[1], "player 2 to act");
  // The terminal's swatch in the page's text colour, as its triangles (timeline.css, .tl-terminal).
  item(c.chance, "chance deals"); item("var(--tl-ink)", "terminal: player 1's payoff in chips");
  el("span", { class: "tl-legend-text" }, legend, "Nodes with the same label form one information set: the player to act cannot tell them apart (shaded when they are neighbours). Edge width: probability of the action.");
  if (b.sets.some((s) => s.lock)) {
    const s = el("span", { class: "tl-key-item", "data-testid": "timeline-lock-legend" }, legend);
    padlock(el("svg:svg", { width: 12, height: 14, class: "tl-lock-icon", "aria-hidden": "true" }, s), 6, 8);
    s.appendChild(document.createTextNode(" locked set: it plays its lock"));
  }
  const cmp = comparison(tl);
  if (cmp) {
    el("span", { class: "tl-legend-text", "data-testid": "timeline-moved-legend" }, legend,
       `Ring: how far the set's average strategy at t moved from the unlocked run's (the same settings without ` +
       `${cmp.c.locks}), as total variation: 0 same, 1 disjoint.`);
    const scale = el("span", { class: "tl-key-item" }, legend);
    const steps = [cmp.c.movedAtLeast, 0.25, 0.5, 0.75, 1];
    const svg = el("svg:svg", { width: 46 * steps.length, height: 40, class: "tl-moved-scale", role: "img",
                                "aria-label": "ring colours from a small move to a move of 1" }, scale);
    steps.forEach((v, i) => {
      el("svg:rect", { x: 46 * i + 7, y: 3, width: 32, height: 14, rx: 7, fill: "none", stroke: movedColor(cmp, v),
                       "stroke-width": (3 + 3 * v).toFixed(2) }, svg);
      el("svg:text", { x: 46 * i + 23, y: 36, "text-anchor": "middle" }, svg, String(v));
    });
  }
}

registerMode("tree", { build: buildTree, draw: drawTree, inspector: true, kind: "edge width: " });
