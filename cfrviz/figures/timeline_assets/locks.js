// Node locking on the tree: the padlock on a locked set's pill (and in the legend and inspector),
// and the locked-vs-unlocked comparison behind the rings round the sets a lock moved.
import { el, rgba } from "./util.js";

export const LOCK_ROOM = 13;   // px a padlock adds to a locked set's pill

// A padlock centred at (cx, cy), 8 px wide and 12 px tall, in the CSS colour of its group (.tl-lock).
/** @param {Element} parent @param {number} cx @param {number} cy */
export function padlock(parent, cx, cy) {
  const g = el("svg:g", { class: "tl-lock" }, parent);
  el("svg:path", { d: `M${cx - 2.5},${cy - 0.5}v-2.5a2.5,2.5 0 0 1 5,0v2.5`, fill: "none" }, g);
  el("svg:rect", { x: cx - 4, y: cy - 0.5, width: 8, height: 6.5, rx: 1.2 }, g);
  return g;
}

/**
 * The locked-vs-unlocked comparison of the payload's extra (cfrviz.figures.timeline.lock_comparison)
 * matched to the timeline's payload: its index for each drawn set (by key), and for each frame its
 * frame at or before that iteration. Null without one.
 * @param {any} tl a Timeline (store.js)
 * @returns {{ c: any, setIndex: number[], frameIndex: number[], stops: any[] } | null}
 */
export function comparison(tl) {
  if (tl.compared !== undefined) return tl.compared;
  const c = tl.b.extra;
  if (!c || c.kind !== "lock comparison" || !tl.frames.length) return (tl.compared = null);
  const index = new Map(c.keys.map((/** @type {string} */ key, /** @type {number} */ j) => [key, j]));
  const setIndex = tl.b.sets.map((/** @type {import("./payload.js").InfoSet} */ s) => index.get(s.key) ?? -1);
  const frameIndex = tl.frames.map((/** @type {number} */ t) => {
    let lo = 0, hi = c.frames.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (c.frames[mid] <= t) lo = mid + 1; else hi = mid; }
    return lo - 1;
  });
  return (tl.compared = { c, setIndex, frameIndex, stops: c.colors.map(rgba) });
}

// How far set s's average strategy moved from the unlocked run's at frame f, or null.
/** @param {any} tl @param {number} f @param {number} s @returns {number | null} */
export function movedAt(tl, f, s) {
  const m = comparison(tl), j = m ? m.frameIndex[f] : -1, i = m ? m.setIndex[s] : -1;
  return j >= 0 && i >= 0 ? m.c.moved[j][i] : null;
}

/** @param {any} tl @param {number} f @param {number} s @returns {number[] | null} */
export function unlockedAt(tl, f, s) {
  const m = comparison(tl), j = m ? m.frameIndex[f] : -1, i = m ? m.setIndex[s] : -1;
  return j >= 0 && i >= 0 ? m.c.unlocked[j][i] : null;
}

// The ring's colour for a move v in [0, 1]: the payload's colours, light to dark, mixed linearly.
/** @param {any} tl @param {number} v */
export function movedColor(tl, v) {
  const stops = comparison(tl).stops, at = Math.max(0, Math.min(1, v)) * (stops.length - 1);
  const i = Math.min(stops.length - 2, Math.floor(at)), w = at - i;
  const mix = stops[i].slice(0, 3).map((/** @type {number} */ x, /** @type {number} */ j) => Math.round((1 - w) * x + w * stops[i + 1][j]));
  return `rgb(${mix.join(", ")})`;
}
