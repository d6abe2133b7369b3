// Node locking on the tree: asking the host to lock a set (and moving the keyboard focus into its
// lock editor), the padlock on a locked set's pill (and in the legend and inspector), and the
// locked-vs-unlocked comparison behind the rings round the sets a lock moved.
import { el, rgba } from "./util.js";
import { reveal } from "./focus.js";

const EDITOR_WAIT = 20000;   // ms: the rerun that opens the editor, on a busy server

/**
 * "Lock this set" for drawn node k's set (the tree's L key, the inspector's button): select the node
 * and ask the host to open its lock editor; where the header names that editor (`locks`), the
 * keyboard focus then moves to its first control, so a keyboard user need not tab through the
 * inspector to reach it.
 * @param {any} tl @param {number} k
 */
export function askLock(tl, k) {
  const s = tl.b.nodes.set[k];
  if (s < 0) return;
  if (tl.selected !== k) { tl.selected = k; tl.inspected = null; tl.draw(); }
  tl.send?.setTriggerValue("lockSet", tl.b.nodes.id[k]);
  if (tl.locks) focusEditor(tl, tl.locks.replaceAll("{set}", String(tl.b.sets[s].index)));
}

// Wait (a frame at a time) for the editor found by `selector` to show a control, and focus the first.
// Given up after EDITOR_WAIT, or at the user's next key or click: they have gone on elsewhere.
/** @param {any} tl @param {string} selector */
function focusEditor(tl, selector) {
  tl.stopEditorWait?.();
  const until = performance.now() + EDITOR_WAIT;
  let frame = 0;
  const stop = () => {
    cancelAnimationFrame(frame);
    removeEventListener("keydown", stop, true);
    removeEventListener("pointerdown", stop, true);
    tl.stopEditorWait = null;
  };
  const look = () => {
    const control = firstControl(document.querySelector(selector));
    control?.focus({ preventScroll: true });
    // Focus taken only where the control can have it (not yet, say, while its expander opens).
    if (control && /** @type {Document | ShadowRoot} */ (control.getRootNode()).activeElement === control) {
      stop();
      reveal(control);
    } else if (performance.now() > until) stop();
    else frame = requestAnimationFrame(look);
  };
  addEventListener("keydown", stop, true);
  addEventListener("pointerdown", stop, true);
  tl.stopEditorWait = stop;
  frame = requestAnimationFrame(look);
}

// The first control in `box` a keyboard can use now: enabled and shown (a closed expander's content
// still has boxes, so its visibility is asked: checkVisibility, where the browser has it).
/** @param {Element | null} box @returns {HTMLElement | null} */
function firstControl(box) {
  if (!box) return null;
  for (const c of box.querySelectorAll("button, input, select, textarea, [tabindex]:not([tabindex='-1'])")) {
    const e = /** @type {HTMLElement & { disabled?: boolean }} */ (c);
    if (!e.disabled && (e.checkVisibility ? e.checkVisibility() : e.getClientRects().length > 0)) return e;
  }
  return null;
}

export const LOCK_ROOM = 13;   // px a padlock adds to a locked set's pill

// A padlock centred at (cx, cy), 8 px wide and 12 px tall, in the CSS colour of its group (.tl-lock).
/** @param {Element} parent @param {number} cx @param {number} cy */
export function padlock(parent, cx, cy) {
  const g = el("svg:g", { class: "tl-lock" }, parent);
  el("svg:path", { d: `M${cx - 2.5},${cy - 0.5}v-2.5a2.5,2.5 0 0 1 5,0v2.5`, fill: "none" }, g);
  el("svg:rect", { x: cx - 4, y: cy - 0.5, width: 8, height: 6.5, rx: 1.2 }, g);
  return g;
}

/** @typedef {{ c: any, setIndex: number[], frameIndex: number[], stops: any[] }} Comparison */

/**
 * The locked-vs-unlocked comparison of the payload's extra (cfrviz.figures.timeline.lock_comparison)
 * matched to the timeline's payload: its index for each drawn set (by key), and for each frame its
 * frame at or before that iteration. Null without one.
 * @param {any} tl a Timeline (store.js)
 * @returns {Comparison | null}
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
  const m = comparison(tl);
  if (!m) return null;
  const j = m.frameIndex[f], i = m.setIndex[s];
  return j >= 0 && i >= 0 ? m.c.moved[j][i] : null;
}

/** @param {any} tl @param {number} f @param {number} s @returns {number[] | null} */
export function unlockedAt(tl, f, s) {
  const m = comparison(tl);
  if (!m) return null;
  const j = m.frameIndex[f], i = m.setIndex[s];
  return j >= 0 && i >= 0 ? m.c.unlocked[j][i] : null;
}

// The ring's colour for a move v in [0, 1]: the payload's colours, light to dark, mixed linearly.
/** @param {Comparison} cmp the timeline's comparison @param {number} v */
export function movedColor(cmp, v) {
  const stops = cmp.stops, at = Math.max(0, Math.min(1, v)) * (stops.length - 1);
  const i = Math.min(stops.length - 2, Math.floor(at)), w = at - i;
  const mix = stops[i].slice(0, 3).map((/** @type {number} */ x, /** @type {number} */ j) => Math.round((1 - w) * x + w * stops[i + 1][j]));
  return `rgb(${mix.join(", ")})`;
}
