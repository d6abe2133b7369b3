"""Play against the strategy with no server: the hand host of the timeline's play mode in the homes
other than Streamlit (the HTML file, `cfrviz.figures.html_page`, and the notebook widget, `cfrviz.widget`).

On the app's Play page the server deals and keeps the hand; here the page does, from the payload
alone, and hands the play mode the same header state the server would send.
"""
from __future__ import annotations

#: Play with no server (the HTML file's and the notebook widget's host): `playHost(readBody, element,
#: readT, publish)` puts the deal and action buttons before `element`; the page deals and the bot acts
#: from the payload alone. Chance draws with the payload's chance probabilities and the bot with the
#: average strategy of the iteration t shown (`readT()`), both from crypto.getRandomValues; the hand
#: goes to `publish(state)` as the play mode's header state, and the mode shows each decision's EV
#: loss from the payload's numbers (its "extra"). Needs the whole tree in the payload.
PLAY_HOST = """
function playHost(readBody, element, readT, publish) {
  let text = null, data = null, local = null, out = null;
  const read = () => {
    const now = readBody();
    if (now !== text) {
      text = now; data = JSON.parse(now);
      local = new Map(data.nodes.id.map((id, k) => [id, k]));
      out = new Map();
      data.edges.parent.forEach((p, j) => { if (!out.has(p)) out.set(p, []); out.get(p).push(j); });
    }
    return data;
  };
  const uniform = () => { const u = new Uint32Array(1); crypto.getRandomValues(u); return u[0] / 4294967296; };
  const pick = (edges, weights) => {
    const total = weights.reduce((a, w) => a + (w > 0 ? w : 0), 0);
    let u = uniform() * total;
    for (let j = 0; j < edges.length; j++) { u -= weights[j] > 0 ? weights[j] : 0; if (u < 0) return edges[j]; }
    return edges[edges.length - 1];
  };
  const frameAt = () => {
    const t = readT() ?? data.frames[data.frames.length - 1];
    let f = 0;
    data.frames.forEach((frame, k) => { if (frame <= t) f = k; });
    return f;
  };
  const box = document.createElement("section");
  box.className = "cfrviz-play";
  box.dataset.testid = "file-play";
  element.before(box);
  let hand = null, played = 0;
  const at = (id) => local.get(id);
  function advance() {
    const n = read().nodes, e = data.edges;
    for (;;) {
      const who = n.actor[at(hand.node)];
      if (who === 3 || who === hand.seat) return;
      const edges = out.get(hand.node), set = n.set[at(hand.node)];
      const weights = who === 2 ? edges.map((j) => e.chance[j])
        : edges.map((j) => data.average[frameAt()][set][e.action[j]]);
      hand.node = e.child[pick(edges, weights)];
      hand.path.push(hand.node);
    }
  }
  function changed() {
    const n = read().nodes, k = at(hand.node), over = n.actor[k] === 3;
    draw();
    publish({ seat: hand.seat, pending: over ? null : data.sets[n.set[k]].key, decisions: hand.decisions,
              path: over ? [...hand.path] : null });
  }
  function deal() {
    read();
    hand = { seat: played % 2, node: data.nodes.id[0], path: [data.nodes.id[0]], decisions: [] };
    played += 1;
    advance();
    changed();
  }
  function take(j) {
    const e = read().edges;
    hand.decisions = [...hand.decisions, [data.sets[data.nodes.set[at(hand.node)]].key, e.action[j]]];
    hand.node = e.child[j];
    hand.path.push(hand.node);
    advance();
    changed();
  }
  function button(text, testid, onClick) {
    const b = document.createElement("button");
    b.textContent = text;
    b.dataset.testid = testid;
    b.addEventListener("click", onClick);
    box.appendChild(b);
    return b;
  }
  function draw() {
    box.replaceChildren();
    const line = document.createElement("p");
    box.appendChild(line);
    if (!hand) {
      line.textContent = "You play against a bot that plays the average strategy at the iteration t on the timeline; the cards are dealt here, at random.";
      button("Deal a hand", "file-play-deal", deal);
      return;
    }
    const n = read().nodes, k = at(hand.node);
    line.textContent = `Hand ${played} · you are player ${hand.seat + 1}. `;
    if (n.actor[k] === 3) {
      line.append(`The hand is over: player 1's payoff is ${n.payoff[k]}.`);
      button("Deal the next hand", "file-play-deal", deal);
      return;
    }
    const set = data.sets[n.set[k]];
    line.append(`Your move at ${set.key}: `);
    for (const j of out.get(hand.node)) {
      const name = set.actions[data.edges.action[j]];
      button(name, "file-play-action", () => take(j)).dataset.action = name;
    }
  }
  draw();
}
"""

#: The play buttons' style (the file's and the widget's).
PLAY_STYLE = """
.cfrviz-play { margin: 0 0 10px; }
.cfrviz-play button { margin: 0 6px 0 0; padding: 4px 12px; font: inherit; }
"""
