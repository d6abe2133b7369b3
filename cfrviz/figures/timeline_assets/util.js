// Small helpers every part of the timeline shares: making elements, number formats, colours.
export const SVG = "http://www.w3.org/2000/svg";

/**
 * A new element (`svg:name` for an SVG one) with attributes, appended to `parent` when given, and
 * its text (as text, never markup).
 * @param {string} tag
 * @param {Record<string, string | number>} [attrs]
 * @param {Node | null} [parent]
 * @param {string | null} [text]
 * @returns {any}
 */
export function el(tag, attrs = {}, parent = null, text = null) {
  const node = tag.startsWith("svg:") ? document.createElementNS(SVG, tag.slice(4)) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== null) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}

/** @param {number | null | undefined} x @param {number} [digits] */
export const fmt = (x, digits = 4) => (x === null || x === undefined || Number.isNaN(x)) ? "–"
  : (Math.abs(x) < 0.5 * 10 ** -digits ? (0).toFixed(digits) : x.toFixed(digits)).replace("-", "−");
/** @param {number} p */
export const prob = (p) => p >= 0.995 ? "1" : p.toFixed(2).replace(/^0/, "");
/** @param {number} t */
export const thousands = (t) => t.toLocaleString("en-US");
/** @param {number} x */
export const sci = (x) => x.toExponential(2).replace(/e([+-])(\d)$/, "e$10$2");  // as Python's :.2e
/** @param {string} s */
export const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);

// ---------------------------------------------------------------- colour (WCAG 2 contrast)
/** @typedef {number[]} RGBA [r, g, b, alpha], 0-255 and 0-1 */

/** @param {string} color @returns {RGBA | null} */
export function rgba(color) {
  const c = String(color).trim();
  if (c.startsWith("#")) {
    const h = c.length === 4 ? c.slice(1).split("").map((x) => x + x).join("") : c.slice(1, 7);
    return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)).concat([1]);
  }
  const m = c.match(/[\d.]+/g);
  if (!m || m.length < 3) return null;
  return [Number(m[0]), Number(m[1]), Number(m[2]), m.length > 3 ? Number(m[3]) : 1];
}
/** @param {RGBA} top @param {number} alpha @param {RGBA} under @returns {RGBA} */
export const over = (top, alpha, under) => top.slice(0, 3).map((v, i) => alpha * v + (1 - alpha) * under[i]).concat([1]);
/** @param {RGBA} c */
function luminance(c) {
  const [r, g, b] = c.slice(0, 3).map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
/** @param {RGBA} a @param {RGBA} b */
export function contrast(a, b) {
  const x = luminance(a), y = luminance(b);
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}

// The timeline's paper (timeline.css's --tl-paper: Streamlit's background, else the host's, else
// white or the dark theme's), so the drawing's halos and the figures' paper follow the host.
/** @param {Element} root @returns {string} */
export function paperOf(root) {
  const cs = getComputedStyle(root);
  return cs.getPropertyValue("--st-background-color").trim() || cs.getPropertyValue("--tl-paper").trim() || "#ffffff";
}
