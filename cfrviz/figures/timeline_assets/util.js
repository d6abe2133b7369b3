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
// ---------------------------------------------------------------- numbers as the pages write them
/**
 * The twin of cfrviz.util.text.number, the app's one way of writing a number: three significant
 * digits, plain decimals from 0.001 to 1,000, powers of ten below, thousands separated above; 0 is
 * "0", NaN "n/a", minus the minus sign; `signed` puts "+" before a positive number. Rounds as
 * Python's format does: the double's exact value, an exact tie to even (100.5 is "100").
 * @param {number} value @param {{ signed?: boolean }} [options]
 */
export function number(value, { signed = false } = {}) {
  if (Number.isNaN(value)) return "n/a";
  const size = Math.abs(value);
  let text;
  if (size === 0) text = "0";
  else if (!Number.isFinite(size)) text = "inf";
  // Python's .2e: no exact tie can occur below 1e-3 (a double is no multiple of 5⁻⁴), so JS's rounding agrees.
  else if (size < 1e-3) text = size.toExponential(2).replace(/e([+-])(\d)$/, "e$10$2");
  else if (size < 1e3) text = general3(size);
  else text = grouped(size);
  if (value < 0) return "−" + text;
  return signed && size ? "+" + text : text;
}

/** Exploitability as the pages show it (cfrviz.util.text.clamped_exploitability's twin): never negative, so a
 * value within 1e-9 below zero is floating-point rounding, shown as 0. @param {number} x */
export const clampedExploitability = (x) => x < 0 && x > -1e-9 ? 0 : x;

/** Python's f"{x:.3g}" for 1e-3 <= x < 1e3, from x's exact decimal digits. @param {number} x */
function general3(x) {
  const [whole, fraction] = x.toFixed(100).split(".");      // exact: x has at most 62 binary places here
  const all = whole + fraction, first = all.search(/[1-9]/);
  let exp = whole.length - first - 1;
  let digits = Number(all.slice(first, first + 3));
  const rest = all.slice(first + 3);
  if (rest[0] > "5" || (rest[0] === "5" && (/[1-9]/.test(rest.slice(1)) || digits % 2 === 1))) digits += 1;
  if (digits === 1000) { digits = 100; exp += 1; }
  const sig = String(digits);
  /** @param {string} t */
  const trim = (t) => t.includes(".") ? t.replace(/0+$/, "").replace(/\.$/, "") : t;
  if (exp >= 3) return `${trim(sig[0] + "." + sig.slice(1))}e+${String(exp).padStart(2, "0")}`;
  if (exp >= 0) return trim(sig.slice(0, exp + 1) + "." + sig.slice(exp + 1));
  return trim("0." + "0".repeat(-exp - 1) + sig);
}

/** Python's f"{x:,.0f}" for x >= 1e3: rounded to a whole number, a tie to even. @param {number} x */
function grouped(x) {
  let whole = x;
  if (x < 2 ** 52) {
    const low = Math.floor(x), part = x - low;        // exact for a double below 2^52
    whole = part > 0.5 || (part === 0.5 && low % 2 === 1) ? low + 1 : low;
  }
  return BigInt(whole).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

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
