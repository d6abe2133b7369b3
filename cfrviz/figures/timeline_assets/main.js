// cfrviz timeline: the run's frames scrubbed in the browser. This is the host interface every home
// uses (the Streamlit component, the HTML file, the notebook widget): the default export mounts the
// timeline into component.parentElement with component.data (one JSON header line, the payload id
// and the host's view, then the payload body of cfrviz/figures/timeline.py) and reports t, node,
// kind and the page events through component.setStateValue / setTriggerValue. Called again with a
// new header, it redraws; a header with a new `ask` shows the host's t, node and kind whatever the
// user chose since (payload.js's Header). cfrviz.figures.timeline_code joins the modules into one script.
import { parse } from "./payload.js";
import { modeOrTree, checkModes } from "./registry.js";
import { Timeline } from "./store.js";
import { holdFocus, restoreFocus, revealFocus } from "./focus.js";
import { followHost } from "./theme.js";
import { paperOf, rgba } from "./util.js";
import "./tree.js";
import "./charts.js";
import "./modes/best_response.js";
import "./modes/play.js";
import "./modes/regret_matching.js";
import "./modes/walkthrough.js";

checkModes();

/**
 * @typedef {Object} Component what the host passes (Streamlit's components v2 shape)
 * @property {string} [key]
 * @property {Uint8Array | ArrayBuffer} data
 * @property {any} parentElement
 * @property {(name: string, value: any) => void} setStateValue
 * @property {(name: string, value: any) => void} setTriggerValue
 */

/** @param {Component} component @returns {() => void} */
export default function (component) {
  const { data, parentElement, setStateValue, setTriggerValue } = component;
  const key = component.key ?? "timeline";
  const { header, body } = parse(data);
  const mode = modeOrTree(header.mode).name;
  let root = parentElement.querySelector(".tl");
  if (root && (root.tl?.id !== header.id || root.tl?.mode !== mode)) {
    // A new part or mode: a new drawing in the same element, which keeps the focus.
    root.tl?.destroy();
    root.replaceChildren();
    new Timeline(root, header, body);
  }
  if (!root) {
    root = document.createElement("div");
    parentElement.appendChild(root);
    new Timeline(root, header, body);
  }
  holdFocus(root, key);
  revealFocus(root);
  followHost(root);
  const tl = root.tl;
  tl.send = { setStateValue, setTriggerValue };
  tl.applyHeader(header);
  // The tree paints its label chips and bands in the paper's colour when built (tl.paper): a host
  // whose theme changed since (a notebook's) has it built again.
  if (tl.paper && String(rgba(paperOf(root)) || [255, 255, 255, 1]) !== String(tl.paper)) tl.width = 0;
  tl.layoutChanged();
  restoreFocus(root, key);
  return () => tl.pause(false);
}
