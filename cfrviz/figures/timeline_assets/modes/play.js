// Play (pages/8_Play.py): the tree at t with the bot's strategy as edge widths, the human's
// information set ringed, and a panel with what each of the human's decisions this hand costs
// against the average strategy of iteration t. The hand itself lives on the server; it reaches
// this mode as the header's `state` ({seat, pending, decisions, path}), the EV-loss numbers per
// frame as the payload's `extra` (cfrviz/figures/play.py: frames, keys, value, setValue).
import { el, fmt, prob, thousands } from "../util.js";
import { buildTree, drawTree } from "../tree.js";
import { registerMode } from "../registry.js";

/** @typedef {import("../payload.js").Payload} Payload */
/**
 * The payload's `extra` here (cfrviz/figures/play.py's play_extra); null where a set is not reached
 * or an action is illegal.
 * @typedef {Object} PlayNumbers
 * @property {number[]} frames [F] iterations
 * @property {string[]} keys [S] set keys
 * @property {(number | null)[][][]} value [F][S][A] the value of each action
 * @property {(number | null)[][]} setValue [F][S] the set's value
 */
/**
 * The hand, the header's `state` (cfrviz/figures/play.py's hand_state).
 * @typedef {Object} Hand
 * @property {number} seat the human's player index
 * @property {string | null} pending the key of the set where the human must act
 * @property {[string, number][]} decisions [set key, action index]
 * @property {number[] | null} path node ids, once the hand is over
 */
/** @param {Payload} b @returns {PlayNumbers | undefined} */
const playOf = (b) => b.extra;

// The mode's own state (st): the hand (the header's state), the panel and the tree's marks.
/** @param {any} tl @param {any} st @param {string} key */
function playSetIndex(tl, st, key) {
  if (!st.sets) st.sets = new Map(/** @type {Payload} */ (tl.b).sets.map((s, k) => [s.key, k]));
  return st.sets.get(key) ?? -1;
}

// The extra's frame for the timeline's frame f (the same list unless a link added one).
/** @param {any} tl @param {any} st */
function playFrame(tl, st) {
  const x = playOf(tl.b);
  if (!x || !x.frames.length) return -1;
  if (x.frames[tl.f] === tl.frames[tl.f]) return tl.f;
  if (!st.frames) st.frames = new Map(x.frames.map((t, k) => [t, k]));
  return st.frames.get(tl.frames[tl.f]) ?? -1;
}

/** @param {any} tl @param {any} st */
function playBuild(tl, st) {
  buildTree(tl);
  if (!st.panel) {
    tl.inspector.classList.add("tl-play-hidden");
    st.panel = el("div", { class: "tl-play", "aria-live": "polite", "data-testid": "play-panel" }, tl.main);
    tl.legend.appendChild(el("span", { class: "tl-legend-text" }, null,
      "Orange rings: the histories of your information set (you cannot tell them apart); once the hand is over, its path is shaded orange. Edge width: the probability of each action in the average strategy at t, which the bot plays."));
  }
  st.layer = el("svg:g", { class: "tl-play-marks" });
  tl.svg.insertBefore(st.layer, tl.gLinks.nextSibling);
  // The finished hand's path: a halo under the tree's edges, so no label is covered.
  st.path = el("svg:g", { class: "tl-play-path" });
  tl.svg.insertBefore(st.path, tl.svg.firstChild.nextSibling);
  st.marked = null;
  st.built = null;
}

/** @param {any} tl @param {any} st */
function playMarks(tl, st) {
  /** @type {Partial<Hand>} */
  const s = st.hand || {};
  /** @type {Payload} */
  const b = tl.b;
  const key = JSON.stringify([s.pending, s.path]);
  if (st.marked === key || !tl.pos) return;
  st.marked = key;
  st.layer.replaceChildren();
  st.path.replaceChildren();
  const { x, y, half } = tl.pos;
  /** @param {number} k @param {string} cls */
  const ring = (k, cls) => el("svg:rect", { class: cls, x: x(k) - half[k] - 5, y: y(k) - 15, width: 2 * half[k] + 10,
                                             height: 30, rx: 14 }, st.layer);
  const set = s.pending ? playSetIndex(tl, st, s.pending) : -1;
  const here = set >= 0 ? b.sets[set].histories.map((h) => h[2]).filter((k) => k >= 0) : [];
  for (const k of here) ring(k, "tl-play-here");
  // A tree wider than the screen (a phone) pans to the human's set, so the move is in view.
  const box = tl.treeBox;
  if (here.length && box.scrollWidth > box.clientWidth) box.scrollLeft = Math.max(0, x(here[0]) - box.clientWidth / 2);
  /** @type {Map<number, number>} */
  const local = tl.local;
  const path = (s.path || []).map((id) => local.get(id)).filter((k) => k !== undefined);
  for (let j = 1; j < path.length; j++) {
    const p = path[j - 1], k = path[j];
    el("svg:line", { x1: x(p), y1: y(p), x2: x(k), y2: y(k) }, st.path);
  }
}

/** @param {any} tl @param {any} st */
function playPanel(tl, st) {
  /** @type {Pick<Hand, "decisions"> & Partial<Hand>} */
  const s = st.hand || { decisions: [] };
  /** @type {Payload} */
  const b = tl.b;
  const box = st.panel;
  const built = JSON.stringify([s.pending, s.decisions, s.seat]);
  if (st.built !== built) {
    st.built = built;
    box.replaceChildren();
    st.head = el("h4", {}, box);
    if (s.pending) {
      const p = el("p", { "data-testid": "play-pending" }, box, "Your move at ");
      el("b", {}, p, s.pending);
      p.append(" (ringed in the tree). What it costs against the strategy shows once you choose.");
    } else if (!s.decisions.length) {
      el("p", {}, box, "Deal a hand: your decisions and what each one costs show here.");
    }
    st.rows = [];
    s.decisions.forEach(([key, chosen], n) => {
      const set = playSetIndex(tl, st, key), k = playOf(b)?.keys.indexOf(key) ?? -1;
      if (set < 0) return;
      const info = b.sets[set];
      const card = el("div", { class: "tl-play-decision", "data-testid": "play-decision" }, box);
      const title = el("div", { class: "tl-play-title" }, card, `Decision ${n + 1} at `);
      el("b", {}, title, key);
      title.append(`: you chose ${info.actions[chosen]}.`);
      const loss = el("div", { class: "tl-play-loss", "data-testid": "play-loss" }, card);
      const table = el("table", { class: "tl-table" }, card);
      const head = el("tr", {}, el("thead", {}, table));
      ["action", "strategy", "value", "EV loss"].forEach((h) => el("th", {}, head, h));
      const body = el("tbody", {}, table);
      const cells = info.actions.map((a, j) => {
        const tr = el("tr", { class: j === chosen ? "tl-play-chosen" : "" }, body);
        const name = el("td", {}, tr);
        el("b", { style: `color:${b.colors.actions[j]}`, "aria-hidden": "true" }, name, "■ ");
        name.append(a + (j === chosen ? " (yours)" : ""));
        return [el("td", {}, tr), el("td", {}, tr), el("td", {}, tr)];
      });
      st.rows.push({ set, k, chosen, loss, cells, actions: info.actions });
    });
    el("p", { class: "tl-note" }, box, "value: your expected chips after the action, given what you knew there, " +
       "when both play the strategy at t from then on. EV loss: the strategy's value at the set minus the action's.");
  }
  const t = tl.frames.length ? tl.frames[tl.f] : null;
  st.head.textContent = t === null ? "No snapshots" : `The bot plays iteration t = ${thousands(t)}`;
  const fe = playFrame(tl, st), x = playOf(b);
  for (const row of st.rows) {
    const p = tl.strategyAt("average", tl.f)?.[row.set] ?? [];
    const v = x && fe >= 0 && row.k >= 0 ? x.value[fe][row.k] : null, sv = x && fe >= 0 && row.k >= 0 ? x.setValue[fe][row.k] : null;
    /** @param {number} j @returns {number | null} */
    const lossOf = (j) => { const vj = v ? v[j] : null; return vj !== null && sv !== null ? sv - vj : null; };
    row.cells.forEach((/** @type {[any, any, any]} */ [ps, vs, ls], /** @type {number} */ j) => {
      ps.textContent = p[j] === undefined ? "–" : prob(p[j]);
      vs.textContent = v ? fmt(v[j], 4) : "–";
      ls.textContent = fmt(lossOf(j), 4);
    });
    const lost = lossOf(row.chosen);
    row.loss.textContent = lost === null || !v ? "This set is not reached at t: no cost to show."
      : `EV loss at t = ${thousands(t)}: ${fmt(lost, 4)} chips (strategy ${fmt(sv, 4)}, ${row.actions[row.chosen]} ${fmt(v[row.chosen], 4)})`;
    row.loss.dataset.loss = lost === null ? "" : String(lost);
  }
}

registerMode("play", {
  inspector: true,
  kind: null,
  build: (tl, st) => playBuild(tl, st),
  draw: (tl, st) => { drawTree(tl); if (st.layer) { playMarks(tl, st); playPanel(tl, st); } },
  state: (tl, st, value) => {
    st.hand = value || null; st.marked = null; st.built = null;
    // Deals arranged by the human's card, so the deals they might be in sit together; the payload
    // has both arrangements, so a change of seat needs no new payload.
    const k = value ? tl.b.layouts.findIndex((/** @type {any} */ lay) => lay.by === value.seat) : -1;
    if (k >= 0 && value.seat !== st.seat) {
      st.seat = value.seat;
      if (k !== tl.layout) {
        tl.layout = k; tl.width = 0;
        const select = tl.root.querySelector(".tl-bar select");
        if (select) select.value = String(k);
      }
    }
  },
});
