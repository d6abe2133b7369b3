// The bar above the drawing: first/previous/play/next/last, the slider, the iteration, the
// options (log scale, edge widths, the deals' arrangement), the small exploitability chart and the
// downloads; and the keys (← → Home End space Escape, and a mode's own).
import { el } from "./util.js";
import { closeSheet } from "./inspector.js";
import { downloadSVG } from "./figure.js";
import { downloadPNG, downloadAnimation } from "./record.js";

/**
 * The bar of timeline `tl` (a Timeline of store.js), drawn into tl.root.
 * @param {any} tl
 */
export function buildBar(tl) {
  const bar = {
    playButton: /** @type {any} */ (null), slider: /** @type {any} */ (null), tLabel: /** @type {any} */ (null),
    /** @type {any[]} */ kindInputs: [], exp: /** @type {any} */ (null), expCursor: /** @type {any} */ (null),
    animPanel: /** @type {any} */ (null), animStatus: /** @type {any} */ (null),
    /** @param {KeyboardEvent} e */ onKey: (e) => onKey(tl, e),
    showFrame: () => showFrame(tl, bar),
  };
  const box = el("div", { class: "tl-bar" }, tl.root);
  const buttons = el("div", { class: "tl-buttons" }, box);
  /** @param {string} text @param {string} label @param {() => void} action @returns {any} */
  const button = (text, label, action, parent = buttons, attrs = {}) => {
    const b = el("button", { type: "button", "aria-label": label, title: label, ...attrs }, parent, text);
    b.addEventListener("click", () => { action(); tl.root.focus({ preventScroll: true }); });
    return b;
  };
  button("|◀", "First iteration (Home)", () => tl.go(0, true));
  button("‹", "Previous frame (←)", () => tl.go(tl.f - 1, true));
  bar.playButton = button("▶", "Play or pause (space)", () => tl.toggle());
  button("›", "Next frame (→)", () => tl.go(tl.f + 1, true));
  button("▶|", "Last iteration (End)", () => tl.go(tl.frames.length - 1, true));
  for (const [text, label, action] of tl.spec.buttons || []) {
    button(text, label, () => action(tl, tl.modeState), buttons, { class: "tl-mode-button" });
  }
  bar.slider = el("input", { type: "range", class: "tl-slider", "aria-label": "Iteration t" }, box);
  bar.slider.addEventListener("input", () => tl.go(fromSlider(tl, bar), false));
  bar.slider.addEventListener("change", () => tl.sendT());
  // The iteration and the small exploitability chart with its cursor at t, kept on one line.
  const at = el("span", { class: "tl-at" }, box);
  bar.tLabel = el("span", { class: "tl-t", "data-testid": "timeline-t" }, at);
  const options = el("div", { class: "tl-options" }, box);
  /** @param {string} text @param {boolean} checked @param {(on: boolean) => void} action */
  const check = (text, checked, action) => {
    const label = el("label", {}, options);
    const input = el("input", { type: "checkbox" }, label);
    input.checked = checked;
    label.appendChild(document.createTextNode(" " + text));
    input.addEventListener("change", () => action(input.checked));
    return input;
  };
  check("log scale", tl.log, (on) => { tl.log = on; setupSlider(tl, bar); tl.sparksChanged(); tl.draw(); });
  if (tl.spec.kind) {
    /** @param {string} value @param {string} text */
    const radio = (value, text) => {
      const label = el("label", {}, options);
      const input = el("input", { type: "radio", name: `kind-${tl.id}`, value }, label);
      input.checked = tl.kind === value;
      label.appendChild(document.createTextNode(" " + text));
      input.addEventListener("change", () => tl.setKind(value, true));
      bar.kindInputs.push(input);
    };
    options.appendChild(document.createTextNode(tl.spec.kind));
    radio("average", "average strategy");
    radio("current", "current");
  }
  if (tl.spec.inspector && tl.b.layouts.length > 1) {
    const select = el("select", { "aria-label": "Arrange the deals by" }, options);
    tl.b.layouts.forEach((/** @type {import("./payload.js").Layout} */ lay, /** @type {number} */ k) =>
      el("option", { value: String(k) }, select, `deals by ${lay.name}`));
    select.addEventListener("change", () => { tl.layout = Number(select.value); tl.width = 0; tl.layoutChanged(); });
  }
  // Drawn in a 170 × 30 box stretched to the room left beside the iteration (timeline.css).
  bar.exp = el("svg:svg", { class: "tl-spark-exp", width: 170, height: 30, viewBox: "0 0 170 30",
                            preserveAspectRatio: "none", role: "img",
                            "aria-label": "exploitability over the iterations" }, at);
  // Figures for slides: built here from the drawing, nothing asked of the server.
  const exportBox = el("div", { class: "tl-export", role: "group", "aria-label": "Download the view" }, box);
  exportBox.appendChild(document.createTextNode("Download "));
  button("SVG", "Download SVG", () => downloadSVG(tl), exportBox);
  button("PNG", "Download PNG", () => downloadPNG(tl), exportBox);
  button("PNG 16:9", "Download a 16:9 slide PNG (1,920 × 1,080 at 2×)", () => downloadPNG(tl, true), exportBox);
  button("Animation…", "Download animation", () => toggleAnimationPanel(tl, bar), exportBox);
  bar.animPanel = el("div", { class: "tl-anim", hidden: "" }, tl.root);
  setupSlider(tl, bar);
  return bar;
}

/** @param {any} tl @param {any} bar */
function toggleAnimationPanel(tl, bar) {
  const panel = bar.animPanel;
  if (!panel.hidden) { panel.hidden = true; return; }
  panel.replaceChildren();
  panel.hidden = false;
  if (tl.frames.length < 2) { el("span", {}, panel, "A run with one snapshot has nothing to animate."); return; }
  const first = tl.frames[0], last = tl.frames[tl.frames.length - 1];
  /** @param {string} label @param {number} value */
  const field = (label, value) => {
    const l = el("label", {}, panel, label + " ");
    return el("input", { type: "number", min: first, max: last, step: 1, value, "aria-label": `Animation ${label}` }, l);
  };
  panel.appendChild(document.createTextNode("WebM of the view from iteration "));
  const from = field("from", first);
  const to = field("to", tl.frames[tl.f] > first ? tl.frames[tl.f] : last);
  const sizeLabel = el("label", {}, panel, "size ");
  const size = el("select", { "aria-label": "Animation size" }, sizeLabel);
  el("option", { value: "view" }, size, "as on screen");
  el("option", { value: "1080p" }, size, "1080p slide (1,920 × 1,080)");
  const go = el("button", { type: "button", class: "tl-record" }, panel, "Record and download");
  bar.animStatus = el("span", { class: "tl-note", "data-testid": "timeline-animation-status" }, panel);
  go.addEventListener("click", () => {
    const a = tl.nearest(Number(from.value)), z = tl.nearest(Number(to.value));
    downloadAnimation(tl, Math.min(a, z), Math.max(a, z), go, size.value === "1080p");
  });
}

/** @param {any} tl @param {any} bar */
function setupSlider(tl, bar) {
  const n = tl.frames.length;
  const s = bar.slider;
  if (n < 2) { s.disabled = true; return; }
  if (tl.log) { s.min = 0; s.max = 1000; s.step = 1; }
  else { s.min = tl.frames[0]; s.max = tl.frames[n - 1]; s.step = 1; }
  drawExploitability(tl, bar);
}

/** @param {any} tl @param {any} bar */
function fromSlider(tl, bar) {
  const v = Number(bar.slider.value);
  const first = tl.frames[0], last = tl.frames[tl.frames.length - 1];
  const t = tl.log ? first * Math.pow(last / first, v / 1000) : v;
  return tl.nearest(t);
}

// The frame's name, the slider and the exploitability cursor at t.
/** @param {any} tl @param {any} bar */
function showFrame(tl, bar) {
  bar.tLabel.textContent = tl.frameLabel();
  if (tl.frames.length) {
    const t = tl.frames[tl.f];
    bar.slider.value = tl.log ? Math.round(1000 * tl.axis(t)) : t;
    if (bar.expCursor) { const X = 4 + tl.axis(t) * 162; bar.expCursor.setAttribute("x1", X); bar.expCursor.setAttribute("x2", X); }
  }
}

/** @param {any} tl @param {any} [bar] */
export function drawExploitability(tl, bar = tl.bar) {
  const e = tl.b.exploitability, svg = bar.exp;
  if (!svg) return;
  svg.replaceChildren();
  bar.expCursor = null;
  // The chart modes draw exploitability in full: no small copy in the bar.
  if (!e || tl.frames.length < 2 || tl.mode === "charts" || tl.mode === "exploitability") { svg.style.display = "none"; return; }
  const vals = e.map((/** @type {number} */ v) => Math.log10(Math.max(v, 1e-12)));
  const lo = Math.min(...vals), hi = Math.max(...vals) + 1e-9;
  const pts = vals.map((/** @type {number} */ v, /** @type {number} */ f) =>
    `${(4 + tl.axis(tl.frames[f]) * 162).toFixed(1)},${(26 - (v - lo) / (hi - lo) * 22).toFixed(1)}`);
  el("svg:title", {}, svg, "Exploitability of the average strategy (log scale)");
  el("svg:polyline", { points: pts.join(" "), fill: "none", stroke: "#555", "stroke-width": 1.5,
                       "vector-effect": "non-scaling-stroke" }, svg);
  bar.expCursor = el("svg:line", { y1: 0, y2: 30, stroke: "#E69F00", "stroke-width": 2, "vector-effect": "non-scaling-stroke" }, svg);
}

/** @param {any} tl @param {KeyboardEvent} e */
function onKey(tl, e) {
  const target = /** @type {any} */ (e.target), tag = target && target.tagName;
  // On a tree node the arrows move between nodes (tree.js); time steps with , and . there.
  if (target?.classList?.contains("tl-node") && tl.treeKey?.(e)) return;
  // A mode's own keys (a walkthrough's N and P): not while typing, nor with a modifier.
  const own = tl.spec.keys?.[e.key.toLowerCase()];
  if (own && tag !== "INPUT" && tag !== "SELECT" && !e.ctrlKey && !e.metaKey && !e.altKey) {
    own(tl, tl.modeState);
    e.preventDefault();
    e.stopPropagation();
    return;
  }
  if (tag === "SELECT" || tag === "INPUT" && target.type === "number") return;
  /** @type {Record<string, number>} */
  const keys = { ArrowLeft: -1, ArrowDown: -1, ArrowRight: 1, ArrowUp: 1 };
  if (e.key in keys) tl.go(tl.f + keys[e.key], true);
  else if (e.key === "Home") tl.go(0, true);
  else if (e.key === "End") tl.go(tl.frames.length - 1, true);
  else if (e.key === " " && tag !== "BUTTON") tl.toggle();
  else if (e.key === "Escape" && tl.inspector?.classList.contains("tl-open")) { closeSheet(tl); }
  else return;
  e.preventDefault();
  e.stopPropagation();
}
