// Figures for slides, made in the browser from the live drawing (nothing asked of the server).
// The view as a standalone SVG: each panel of the live drawing copied with its computed styles
// inlined (SVG parts cloned, HTML text and boxes placed where the browser laid them out).
import { el, rgba, paperOf } from "./util.js";

const SVG_STYLE = ["fill", "fill-opacity", "stroke", "stroke-width", "stroke-opacity", "stroke-dasharray",
                   "stroke-linecap", "stroke-linejoin", "paint-order", "opacity", "font-family", "font-size",
                   "font-weight", "text-anchor"];

// The page's font first, then fonts most viewers have.
/** @param {string} css */
const family = (css) => `${css}, "Source Sans Pro", "Source Sans 3", "Helvetica Neue", Arial, sans-serif`;

/** @param {Element} live @param {any} copy */
function inlineStyle(live, copy) {
  const cs = getComputedStyle(live);
  copy.setAttribute("style", SVG_STYLE.map((p) => `${p}:${p === "font-family" ? family(cs.getPropertyValue(p)) : cs.getPropertyValue(p)}`).join(";"));
  copy.removeAttribute("class");
}

// Copy an <svg> of the page into group `into` at (dx, dy), styles inlined.
/** @param {Element} svg @param {Element} into @param {number} dx @param {number} dy */
function copySVG(svg, into, dx, dy) {
  const g = el("svg:g", { transform: `translate(${dx.toFixed(1)},${dy.toFixed(1)})` }, into);
  for (const child of svg.children) {
    if (child.tagName === "title") continue;
    const copy = /** @type {Element} */ (child.cloneNode(true));
    const lives = [child, ...child.querySelectorAll("*")], copies = [copy, ...copy.querySelectorAll("*")];
    lives.forEach((/** @type {any} */ live, i) => {
      if (copies[i].tagName === "title") return;
      inlineStyle(live, copies[i]);
      if (live.tagName === "text" && live.textContent.trim()) fitText(copies[i], live.getComputedTextLength());
    });
    copy.querySelectorAll("title").forEach((t) => t.remove());
    g.appendChild(copy);
  }
}

// A viewer without the page's font draws the text in the width the browser laid it out in, so
// neighbouring texts never run into each other.
/** @param {Element} text @param {number} width */
function fitText(text, width) {
  text.setAttribute("textLength", width.toFixed(1));
  text.setAttribute("lengthAdjust", "spacingAndGlyphs");
}

/** @type {Map<string, number>} */
const fontMetrics = new Map();
// The font's ascent, measured on a canvas. A browser that gives no 2D canvas context (canvas
// blocked) gets 0.8 of the font size, a Latin font's usual ascent: its SVG's text may sit a pixel off.
/** @param {string} font @param {number} size px @returns {number} */
function ascent(font, size) {
  let a = fontMetrics.get(font);
  if (a === undefined) {
    const ctx = document.createElement("canvas").getContext("2d");
    if (ctx) {
      ctx.font = font;
      const m = ctx.measureText("Hg");
      a = m.fontBoundingBoxAscent ?? m.actualBoundingBoxAscent;
    } else a = 0.8 * size;
    fontMetrics.set(font, a);
  }
  return a;
}

// Copy what the browser shows inside `box` (HTML with text, borders, filled bars and SVGs) into
// group `into`, at the positions it has relative to `box`'s top left corner, moved by (dx, dy).
/** @param {any} box @param {Element} into @param {number} dx @param {number} dy */
function copyPanel(box, into, dx, dy) {
  const origin = box.getBoundingClientRect();
  const ox = origin.left - box.scrollLeft - dx, oy = origin.top - box.scrollTop - dy;
  if (!box.scrollTop && !box.scrollLeft && box.scrollHeight <= box.clientHeight + 1) copyBox(box, into, origin.left - dx, origin.top - dy);
  /** @param {Element} e */
  const visible = (e) => { const cs = getComputedStyle(e); return cs.display !== "none" && cs.visibility !== "hidden"; };
  /** @param {Node} child */
  const walk = (child) => {
    if (child.nodeType === Node.TEXT_NODE) { copyText(child, into, ox, oy); return; }
    if (child.nodeType !== Node.ELEMENT_NODE) return;
    const node = /** @type {Element} */ (child);
    if (!visible(node) || node.classList.contains("tl-close")) return;
    if (node instanceof SVGSVGElement) {
      const r = node.getBoundingClientRect();
      copySVG(node, into, r.left - ox, r.top - oy);
      return;
    }
    copyBox(node, into, ox, oy);
    for (const child of node.childNodes) walk(child);
  };
  for (const child of box.childNodes) walk(child);
}

/** @param {any} node @param {Element} into @param {number} ox @param {number} oy */
function copyBox(node, into, ox, oy) {
  const cs = getComputedStyle(node), r = node.getBoundingClientRect();
  if (!r.width || !r.height) return;
  const bg = rgba(cs.backgroundColor);
  const radius = parseFloat(cs.borderTopLeftRadius) || 0;
  const x = r.left - ox, y = r.top - oy;
  const sides = ["top", "right", "bottom", "left"].map((s) => cs.getPropertyValue(`border-${s}-style`) !== "none" ? parseFloat(cs.getPropertyValue(`border-${s}-width`)) : 0);
  const boxed = sides.every((w) => w > 0);
  if ((bg && bg[3] > 0) || boxed) {
    el("svg:rect", { x: x.toFixed(1), y: y.toFixed(1), width: r.width.toFixed(1), height: r.height.toFixed(1), rx: radius,
                     style: `fill:${bg && bg[3] > 0 ? cs.backgroundColor : "none"};stroke:${boxed ? cs.borderTopColor : "none"};stroke-width:${sides[0]}` }, into);
  } else if (sides[2] > 0) {
    const yb = y + r.height - sides[2] / 2;
    el("svg:line", { x1: x.toFixed(1), x2: (x + r.width).toFixed(1), y1: yb.toFixed(1), y2: yb.toFixed(1),
                     style: `stroke:${cs.borderBottomColor};stroke-width:${sides[2]}` }, into);
  }
}

// A text node's words, grouped into the lines the browser broke them into.
/** @param {any} node @param {Element} into @param {number} ox @param {number} oy */
function copyText(node, into, ox, oy) {
  const text = node.textContent;
  if (!text.trim()) return;
  const cs = getComputedStyle(node.parentElement);
  const font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
  const range = document.createRange();
  const lines = [];
  const re = /\S+/g;
  let m;
  while ((m = re.exec(text))) {
    range.setStart(node, m.index);
    range.setEnd(node, m.index + m[0].length);
    const r = range.getBoundingClientRect();
    if (!r.width) continue;
    const line = lines[lines.length - 1];
    if (line && Math.abs(line.top - r.top) < 2) { line.words.push(m[0]); line.right = r.right; }
    else lines.push({ top: r.top, left: r.left, right: r.right, words: [m[0]] });
  }
  for (const line of lines) {
    const t = el("svg:text", { x: (line.left - ox).toFixed(1), y: (line.top - oy + ascent(font, parseFloat(cs.fontSize))).toFixed(1),
                               style: `fill:${cs.color};font-family:${family(cs.fontFamily)};font-size:${cs.fontSize};font-weight:${cs.fontWeight}` },
                 into, line.words.join(" "));
    fitText(t, line.right - line.left);
  }
}

// The figure of the current view: a title line, the drawing (the tree, or the charts), the
// inspector beside the tree when a node is shown, and the legend under them.
// Presentation mode zooms the timeline (store.js fitText): screen boxes would then be zoomed and the SVGs'
// own units not, so the figure is measured unzoomed (put back before the browser paints or lays out again).
/** @param {any} tl a Timeline (store.js) @returns {{ svg: any, width: number, height: number }} */
export function figure(tl) {
  const zoom = tl.root.style.zoom;
  if (!zoom) return drawnFigure(tl);
  tl.root.style.zoom = "";
  try { return drawnFigure(tl); } finally { tl.root.style.zoom = zoom; }
}

// The page's other figures (plotly charts, as the Convergence page draws beside its timeline), as
// they sit on the page: each chart's layered SVGs, for a figure of the whole page.
/** @returns {{ layers: Element[], left: number, top: number, width: number, height: number }[]} */
function pageCharts() {
  return [...document.querySelectorAll(".js-plotly-plot")].map((chart) => {
    const r = chart.getBoundingClientRect();
    return { layers: [...chart.querySelectorAll("svg.main-svg")], left: r.left, top: r.top, width: r.width, height: r.height };
  }).filter((c) => c.layers.length && c.width && c.height);
}

/** @param {any} tl @returns {{ svg: any, width: number, height: number }} */
function drawnFigure(tl) {
  const rootStyle = getComputedStyle(tl.root);
  const paper = paperOf(tl.root);
  const ink = rootStyle.color;
  const pad = 16, gap = 16, titleH = 30;
  const svg = el("svg:svg", { version: "1.1" });
  const back = el("svg:rect", { x: 0, y: 0, style: `fill:${paper}` }, svg);
  const title = [tl.b.title, tl.frameLabel()];
  if (tl.spec.kind) title.push(`${tl.spec.kind.replace(/:\s*$/, "")}: ${tl.kind === "current" ? "current strategy" : "average strategy"}`);
  el("svg:text", { x: pad, y: pad + 16, style: `fill:${ink};font-family:${family(rootStyle.fontFamily)};font-size:16px;font-weight:600` },
     svg, title.join(" · "));
  const body = el("svg:g", {}, svg);
  let width = 0, height = 0;
  /** @param {Element} box @param {number} x @param {number} y */
  const place = (box, x, y) => {
    copyPanel(box, body, x, y);
    width = Math.max(width, x + Math.max(box.scrollWidth, box.getBoundingClientRect().width));
    height = Math.max(height, y + Math.max(box.scrollHeight, box.getBoundingClientRect().height));
  };
  const top = pad + titleH;
  if (tl.spec.inspector) {
    const treeW = Math.max(tl.treeBox.scrollWidth, Number(tl.svg?.getAttribute("width")) || 0);
    place(tl.treeBox, pad, top);
    const shown = tl.inspected !== null && tl.inspected !== undefined && tl.inspected >= 0;
    if (shown) place(tl.inspector, pad + treeW + gap, top);
    place(tl.legend, pad, height + 12);
  } else {
    place(tl.main, pad, top);
    // Every figure of the page: the charts beside the timeline, below its own, arranged as on the page.
    const charts = pageCharts();
    if (charts.length) {
      const x0 = Math.min(...charts.map((c) => c.left)), y0 = Math.min(...charts.map((c) => c.top)), below = height + gap;
      for (const c of charts) {
        for (const layer of c.layers) {
          const r = layer.getBoundingClientRect();
          copySVG(layer, body, pad + r.left - x0, below + r.top - y0);
        }
        width = Math.max(width, pad + c.left - x0 + c.width);
        height = Math.max(height, below + c.top - y0 + c.height);
      }
    }
  }
  const W = Math.ceil(width + pad), H = Math.ceil(height + pad);
  svg.setAttribute("width", W); svg.setAttribute("height", H); svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  back.setAttribute("width", W); back.setAttribute("height", H);
  return { svg, width: W, height: H };
}

/** @param {any} tl @param {string} ext @param {string} [suffix] after the frame ("-1080p" for a slide) */
export const fileName = (tl, ext, suffix = "") => `cfrviz-${tl.b.title.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "")}` +
  `-${tl.spec.unit ?? "t"}${tl.frames[tl.f] ?? 0}${suffix}.${ext}`;

// A slide: 1,920 × 1,080 CSS px (16:9), drawn at 2× for a PNG.
export const SLIDE = { width: 1920, height: 1080 };

/** The figure fitted into a slide (scaled to fit, centred, on the figure's paper).
 * @param {{ svg: any, width: number, height: number }} fig @param {string} paper
 * @returns {{ svg: any, width: number, height: number }} */
export function onSlide(fig, paper) {
  const s = Math.min(SLIDE.width / fig.width, SLIDE.height / fig.height);
  const svg = el("svg:svg", { version: "1.1", width: SLIDE.width, height: SLIDE.height, viewBox: `0 0 ${SLIDE.width} ${SLIDE.height}` });
  el("svg:rect", { x: 0, y: 0, width: SLIDE.width, height: SLIDE.height, style: `fill:${paper}` }, svg);
  const dx = (SLIDE.width - fig.width * s) / 2, dy = (SLIDE.height - fig.height * s) / 2;
  const g = el("svg:g", { transform: `translate(${dx.toFixed(1)},${dy.toFixed(1)}) scale(${s.toFixed(4)})` }, svg);
  for (const child of [...fig.svg.children]) g.appendChild(child);
  return { svg, width: SLIDE.width, height: SLIDE.height };
}

/** @param {Blob} blob @param {string} name */
export function save(blob, name) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 60_000);
}

/** @param {any} tl */
export function downloadSVG(tl) {
  const { svg } = figure(tl);
  const text = '<?xml version="1.0" encoding="UTF-8"?>\n' + new XMLSerializer().serializeToString(svg);
  save(new Blob([text], { type: "image/svg+xml" }), fileName(tl, "svg"));
}
