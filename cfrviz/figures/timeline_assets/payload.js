// The payload (cfrviz.figures.timeline.build_payload) and the header line, written once: these
// typedefs are what tsc --checkJs holds every module to (tests/run.sh), and what a Python test holds
// build_payload's fields to (tests/unit/figures/test_timeline_modules.py).

/**
 * A drawn part's nodes as they are sent, [M] arrays in the order of the part's sorted node ids (local
 * indices).
 * @typedef {Object} Nodes
 * @property {number[]} id
 * @property {number[]} actor 0 and 1 the players, 2 chance, 3 terminal
 * @property {number[]} set index into `sets`, -1 off a decision node
 * @property {string[]} label
 * @property {(number | null)[]} payoff player 1's payoff at a terminal node
 */

/**
 * Each node's parent and the edge into it (action index, letter, chance probability; -1, 0, "" and
 * null at the root), [M] arrays added to the nodes on arrival from `edges` (intoNodes).
 * @typedef {Object} NodeLinks
 * @property {number[]} parent
 * @property {number[]} action
 * @property {string[]} edge
 * @property {(number | null)[]} chance the edge's probability when the parent is a chance node, else null
 */

/**
 * The tree edges, [E] arrays of local indices.
 * @typedef {Object} Edges
 * @property {number[]} parent
 * @property {number[]} child
 * @property {string[]} name
 * @property {number[]} action
 * @property {string[]} letter
 * @property {(number | null)[]} chance
 */

/**
 * One arrangement of the deals: each node's column and row.
 * @typedef {Object} Layout
 * @property {string} name
 * @property {number} by
 * @property {number[]} column
 * @property {number[]} row
 * @property {number} columns
 * @property {number} rows
 */

/**
 * A drawn information set. histories: [node id, label, local index or -1 when not drawn].
 * @typedef {Object} InfoSet
 * @property {number} index
 * @property {string} key
 * @property {number} player
 * @property {string[]} actions
 * @property {string[]} letters
 * @property {[number, string, number][]} histories
 * @property {number[] | null} lock
 */

/**
 * @typedef {Object} Colors
 * @property {string} chance
 * @property {string[]} player
 * @property {string} terminal
 * @property {string[]} actions
 * @property {string[]} actionText the action colours in shades that reach 4.5:1 on white, for text
 * @property {string[]} pills each player's pill colour with white text on it at 4.5:1
 */

/** @typedef {(number | null)[][][]} PerSet [F, S, A] over the frames, sets and actions */

/**
 * One drawn part of a run (or of a tree with no run: then `frames` is empty and the run's fields
 * are absent). `extra` is a page mode's own data.
 * @typedef {Object} Payload
 * @property {number} version
 * @property {string} title
 * @property {string[]} players
 * @property {Colors} colors
 * @property {Nodes & NodeLinks} nodes linked on arrival (intoNodes)
 * @property {Edges} edges
 * @property {[number, number][]} links
 * @property {number[][]} groups
 * @property {Layout[]} layouts
 * @property {boolean} cardView the tree splits by private cards (cfrviz.tree.parts.card_view): a set can be drawn whole
 * @property {InfoSet[]} sets
 * @property {number[]} order
 * @property {number[]} frames
 * @property {any} [extra]
 * @property {number} [iterations]
 * @property {number[]} [exploitability]
 * @property {number[] | null} [currentExploitability]
 * @property {number[]} [value]
 * @property {number[]} [expectedValue]
 * @property {PerSet} [current]
 * @property {PerSet} [average]
 * @property {PerSet} [regret]
 * @property {PerSet} [instantRegret]
 * @property {PerSet} [setValue]
 * @property {(number | null)[][]} [ownReach]
 * @property {(number | null)[][]} [othersReach]
 * @property {PerSet} [cfValue]
 * @property {string} [numbersSource]
 * @property {string} [algorithm]
 * @property {string} [updates]
 */

/**
 * The header line: the payload's id and the server's view. t, node and kind apply when they differ
 * from the last header's (a header that repeats them leaves the user's choice), or all three when
 * `ask` differs from the last header's: a host raises it to have its view shown as it says (a URL
 * fragment, a trait set in Python), node null then clearing a clicked node. Streamlit sends none.
 * @typedef {Object} Header
 * @property {string} id
 * @property {string} [mode]
 * @property {number | null} [t]
 * @property {number | null} [node]
 * @property {string | null} [kind]
 * @property {number} [ask]
 * @property {boolean} [wholeSets] the home redraws a node's information set whole when the inspector asks
 *   (the app's Game tree); elsewhere the inspector offers no such button
 * @property {string} [locks] the home opens a lock editor for a set when the tree sends `lockSet` (the app's
 *   Game tree, when its editor is enabled): the CSS selector of that editor's element in the page, "{set}"
 *   standing for the set's index. The inspector then offers "Lock this set", and after it (or L) the
 *   keyboard focus moves to the editor's first control once it shows
 * @property {string[]} [focus]
 * @property {boolean} [log]
 * @property {any} [state]
 */

const decoder = new TextDecoder();
/** @type {Map<string, Payload>} payload id -> parsed body, shared by every mount on the page */
const payloads = new Map();

/**
 * The component's data: the header line, then the payload (parsed once per id).
 * @param {Uint8Array | ArrayBuffer | null | undefined} data
 * @returns {{ header: Header, body: Payload }}
 */
export function parse(data) {
  const bytes = data instanceof Uint8Array ? data : new Uint8Array(data || []);
  const cut = bytes.indexOf(10);
  const header = JSON.parse(decoder.decode(bytes.subarray(0, cut)));
  let body = payloads.get(header.id);
  if (!body) {
    body = intoNodes(/** @type {Sent} */ (JSON.parse(decoder.decode(bytes.subarray(cut + 1)))));
    payloads.set(header.id, body);
    const oldest = payloads.keys().next().value;
    if (payloads.size > 6 && oldest !== undefined) payloads.delete(oldest);
  }
  return { header, body };
}

/** @typedef {Omit<Payload, "nodes"> & { nodes: Nodes }} Sent a payload as it is sent: its nodes not linked yet */

/**
 * The payload's tree edges (networkx's, see cfrviz/figures/timeline.py) as per-node arrays: each
 * node's parent, and the action index, letter and chance probability of the edge into it. The
 * payload is changed in place (its nodes gain the links) and returned.
 * @param {Sent} body
 * @returns {Payload}
 */
export function intoNodes(body) {
  const n = body.nodes, e = body.edges, N = n.id.length;
  /** @type {NodeLinks} */
  const links = { parent: new Array(N).fill(-1), action: new Array(N).fill(0), edge: new Array(N).fill(""), chance: new Array(N).fill(null) };
  for (let j = 0; j < e.child.length; j++) {
    const c = e.child[j];
    links.parent[c] = e.parent[j]; links.action[c] = e.action[j]; links.edge[c] = e.letter[j]; links.chance[c] = e.chance[j];
  }
  return Object.assign(body, { nodes: Object.assign(n, links) });
}
