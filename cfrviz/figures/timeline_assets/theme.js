// The view follows its host's theme. Streamlit gives its colours as --st-* variables (the CSS reads
// them first); any other host (a notebook, the HTML file's page) is read here: the nearest
// ancestor with a background, light or dark, picks the timeline's palette (timeline.css's
// .tl-light / .tl-dark) and its paper. With no background anywhere, the reader's
// prefers-color-scheme decides (timeline.css).
import { rgba, contrast } from "./util.js";

/** @param {Element} node @returns {Element | null} its parent, across a shadow root's edge */
function up(node) {
  if (node.parentElement) return node.parentElement;
  const top = node.getRootNode();
  return top instanceof ShadowRoot ? top.host : null;
}

/** @param {HTMLElement} root the timeline's element */
export function followHost(root) {
  /** @type {string | null} */
  let paper = null;
  for (let n = up(root); n; n = up(n)) {
    const color = getComputedStyle(n).backgroundColor, c = rgba(color);
    if (c && c[3] >= 0.5) { paper = color; break; }
  }
  const c = paper ? rgba(paper) : null;
  const dark = !!c && contrast(c, [255, 255, 255, 1]) > contrast(c, [0, 0, 0, 1]);
  root.classList.toggle("tl-dark", !!c && dark);
  root.classList.toggle("tl-light", !!c && !dark);
  if (paper) root.style.setProperty("--tl-host-paper", paper);
  else root.style.removeProperty("--tl-host-paper");
}
