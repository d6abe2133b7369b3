// Keyboard focus across remounts. A rerun may mount the component afresh (a new part, or the host
// replacing the element); the new mount takes the focus back when nothing else has it, so arrow
// keys keep working.

/** @type {Map<string, boolean>} component key -> true while that timeline holds the keyboard focus */
const focusHeld = new Map();

/** @param {any} root @param {string} key */
export function holdFocus(root, key) {
  if (root.focusWatched) return;
  root.focusWatched = true;
  root.addEventListener("focusin", () => focusHeld.set(key, true));
  root.addEventListener("focusout", (/** @type {FocusEvent} */ e) => {
    if (e.relatedTarget && root.contains(e.relatedTarget)) return;
    const left = /** @type {any} */ (e.target);
    // Focus that leaves because its element was removed (a rebuild, a remount) stays ours.
    setTimeout(() => { if (root.isConnected && left.isConnected && !root.contains(focused())) focusHeld.set(key, false); }, 0);
  });
}

// The element with the focus, looking into shadow roots.
function focused() {
  let a = document.activeElement;
  while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
  return a;
}

/** @param {any} root @param {string} key */
export function restoreFocus(root, key) {
  if (!focusHeld.get(key)) return;
  const take = () => {
    const a = document.activeElement;
    if (root.isConnected && (!a || a === document.body) && focusHeld.get(key)) root.focus({ preventScroll: true });
  };
  take();
  requestAnimationFrame(take);
}

// Streamlit's sticky header covers the top of the page: the bottom of that header, or 0.
function headerBottom() {
  return document.querySelector('[data-testid="stHeader"]')?.getBoundingClientRect().bottom ?? 0;
}

/**
 * Scroll just enough that element e is on the screen and not under the host's sticky header
 * (sideways too, inside a tree that pans).
 * @param {any} e
 */
export function reveal(e) {
  e.scrollIntoView?.({ block: "nearest", inline: "nearest" });
  const box = e.getBoundingClientRect(), top = headerBottom() + 8;
  let dy = 0;
  if (box.top < top) dy = box.top - top;
  else if (box.bottom > innerHeight - 8) dy = Math.min(box.bottom - innerHeight + 8, box.top - top);
  if (Math.abs(dy) < 1) return;
  let n = e.parentElement || e.getRootNode().host;
  while (n && n !== document.documentElement) {
    const cs = getComputedStyle(n);
    if (/(auto|scroll)/.test(cs.overflowY) && n.scrollHeight > n.clientHeight) break;
    n = n.parentElement || n.getRootNode().host;
  }
  (n && n !== document.documentElement ? n : document.scrollingElement).scrollBy({ top: dy });
}

// Keyboard focus on any of the timeline's controls (not the timeline itself, which is taller than
// the screen) comes out from under the header.
/** @param {any} root */
export function revealFocus(root) {
  if (root.revealWatched) return;
  root.revealWatched = true;
  root.addEventListener("focusin", (/** @type {FocusEvent} */ e) => {
    const t = /** @type {any} */ (e.composedPath()[0]);
    if (t !== root && t.matches?.(":focus-visible")) reveal(t);
  });
}
