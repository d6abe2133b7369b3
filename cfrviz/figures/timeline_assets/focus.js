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
