// The modes: what the timeline draws for each frame. The core (store.js) keeps frames, keys, focus,
// the server's view and the figure downloads for every mode; a mode registers here once, under one
// of the names in TIMELINE_MODES (cfrviz.figures.timeline.TimelineMode's values, which
// cfrviz.figures.timeline_code writes into the script), and never replaces a method of the core:
// it changes the view only through the hooks below.

/**
 * A mode's hooks. Each gets the timeline (`tl`, a Timeline of store.js) and the mode's own state
 * (`st`, an object the core keeps for it, empty at first).
 * @typedef {Object} Mode
 * @property {boolean} inspector true: the tree beside an inspector (tl.treeBox, tl.inspector,
 *   tl.legend); false: a grid of charts (tl.main)
 * @property {string | null} kind a label: offer average/current strategy, reported to Python as `kind`
 * @property {(tl: any, st: any) => void} build lay the drawing out for tl.width
 * @property {(tl: any, st: any) => void} draw show frame tl.f
 * @property {(body: import("./payload.js").Payload) => number[]} [frames] the iterations the bar steps
 *   through (default body.frames)
 * @property {(tl: any, st: any) => string} [label] names the frame in the bar and in figures
 *   (default "Iteration t = … of …")
 * @property {(tl: any, st: any, value: any) => void} [state] the header's `state` (`mount(..., state=...)`
 *   in Python), before each redraw
 * @property {string} [unit] the frame's word in file names (default "t", an iteration; the Walkthrough's "step")
 * @property {string} [report] the state name the frame is sent back under on a pause (default "t")
 * @property {(tl: any, st: any, kind: string, f: number) => any} [strategy] what edge widths show at frame f
 *   (default the payload's `kind` strategy)
 * @property {(tl: any, st: any, k: number) => void} [click] a click on drawn node k (default: select it)
 * @property {(tl: any, st: any) => void} [card] draws its own card in the inspector's place, in place of the core's
 * @property {(tl: any, st: any) => void} [inspect] adds to the core's inspector after each update
 * @property {Record<string, (tl: any, st: any) => void>} [keys] the mode's own keys (lower case), with
 *   no modifier and outside text fields
 * @property {[string, string, (tl: any, st: any) => void][]} [buttons] (text, label, action) after
 *   the bar's buttons
 */

/** @type {Map<string, Mode>} */
const modes = new Map();

/**
 * Add mode `name` (one of TIMELINE_MODES, once).
 * @param {string} name
 * @param {Mode} mode
 */
export function registerMode(name, mode) {
  if (!TIMELINE_MODES.includes(name)) throw new Error(`cfrviz timeline: ${name} is not a TimelineMode.`);
  if (modes.has(name)) throw new Error(`cfrviz timeline: the mode ${name} is registered twice.`);
  modes.set(name, Object.freeze({ ...mode }));
}

/**
 * The mode `name` names, else the Game tree's ("tree": a header without a known mode draws the tree).
 * @param {string | undefined | null} name @returns {{ name: string, mode: Mode }}
 */
export function modeOrTree(name) {
  const mode = name ? modes.get(name) : undefined;
  if (name && mode) return { name, mode };
  const tree = modes.get("tree");
  if (!tree) throw new Error("cfrviz timeline: no module for the mode tree.");
  return { name: "tree", mode: tree };
}

/** Every TimelineMode has its module: else the script is incomplete. */
export function checkModes() {
  const missing = TIMELINE_MODES.filter((name) => !modes.has(name));
  if (missing.length) throw new Error(`cfrviz timeline: no module for the modes ${missing.join(", ")}.`);
}
