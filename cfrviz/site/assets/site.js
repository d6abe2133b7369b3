// cfrviz's static site: the host adapter of one page. It reads the app's own link parameters from the
// address (?game=kuhn&algo=cfr%2B&updates=alternating&t=40&node=7), picks the built run they name,
// loads its data file with a <script> element (which works from disk, where fetch does not), and
// mounts the timeline (window.mountTimeline, the host interface every home uses). What the timeline
// reports (t, node, edge widths, the exploiter, the walkthrough's step) goes back into the address,
// so the address bar's link reopens the same view here and in the app.
(function () {
  "use strict";
  const config = JSON.parse(document.getElementById("cfrviz-site").textContent);
  const element = document.getElementById("cfrviz-timeline");
  const notices = document.getElementById("cfrviz-notices");
  const runSelect = document.getElementById("cfrviz-run");
  const partSelect = document.getElementById("cfrviz-part");
  const asked = new URLSearchParams(location.search);
  const encoder = new TextEncoder();
  const whole = (text) => /^[0-9]{1,9}$/.test((text ?? "").trim()) ? Number(text.trim()) : undefined;

  // Data files call cfrvizData(their path, their payload text) when they have loaded.
  const waiting = new Map();
  const loaded = new Map();
  window.cfrvizData = (name, text) => { loaded.set(name, text); waiting.get(name)?.ok(text); waiting.delete(name); };
  function load(path) {
    if (loaded.has(path)) return Promise.resolve(loaded.get(path));
    return new Promise((ok, fail) => {
      waiting.set(path, { ok, fail });
      const script = document.createElement("script");
      script.src = config.root + path;
      script.onerror = () => { waiting.delete(path); fail(new Error(`The data file ${path} could not be loaded.`)); };
      document.head.appendChild(script);
    });
  }

  function say(text, link) {
    const p = document.createElement("p");
    p.textContent = text;
    if (link) {
      const a = document.createElement("a");
      a.href = link; a.textContent = " Open it in the full app ↗"; a.className = "cfrviz-app-link";
      p.appendChild(a);
    }
    notices.appendChild(p);
  }

  // A link's value as the app reads it (cfrviz/app/links.py): trimmed, lower case where the app
  // lowers it, and a '+' that arrived as a space read back as '+' ("cfr+" typed into a link).
  function same(key, raw, built) {
    const text = (raw ?? "").trim();
    if (["iters", "seed", "walk_t", "walk_seed", "rm_iters", "rm_seed"].includes(key)) {
      if (built === undefined) return key === "seed" || key === "walk_seed";   // the app drops a seed that changes nothing
      return whole(text) === Number(built);
    }
    if (key === "lock" || key === "walk_deal") return text === (built ?? "") || (text === "random" && built === undefined);
    const lower = text.toLowerCase();
    if (built === undefined) return lower === "";
    return lower === built || (raw.endsWith(" ") && lower + "+" === built);
  }

  const given = config.keys.filter((k) => asked.has(k));
  let build = config.builds.find((b) => given.every((k) => same(k, asked.get(k), b.params[k])));
  if (!build) {
    build = config.builds[0];
    const wanted = given.map((k) => `${k}=${asked.get(k)}`).join(", ");
    say(`This site has no run of ${wanted}; it shows ${build.label}. The full app solves any settings.`,
        appLink(Object.fromEntries(given.map((k) => [k, asked.get(k)]))));
  }
  let t = whole(asked.get(config.tKey));
  // Regret matching's rm_t=0 is the app's "the last iteration".
  if (config.tKey === "rm_t" && t === 0) t = undefined;
  let node = whole(asked.get("node"));
  // A bad value falls back with one sentence, as in the app (cfrviz/app/links.py).
  const walk = config.tKey !== "t";
  if (asked.has(config.tKey) && asked.get(config.tKey).trim() !== "0" &&
      (t === undefined || t < 1 || (!walk && t > build.last))) {
    say(walk ? `The walkthrough step must be a whole number from 1, not "${asked.get(config.tKey)}"; showing step 1.`
             : `The iteration t must be a whole number from 1 to ${build.last.toLocaleString("en")}, not ` +
               `"${asked.get(config.tKey)}"; showing the last iteration.`);
    t = undefined;
  }
  if (asked.has("node") && node === undefined && !["", "none"].includes(asked.get("node").trim())) {
    say(`Node "${asked.get("node")}" is not a node number; no node is selected.`);
  }
  let kind = asked.get("edges") === "current" ? "current" : "average";
  let exploiter = asked.get("br_player") === "2" ? 2 : 1;
  if (node !== undefined && !(node < (build.nodes ?? Infinity))) {
    say(`Node ${node} is not in the ${config.games[build.game]?.title ?? ""} tree (nodes 0 to ${build.nodes - 1}); no node is selected.`);
    node = undefined;
  }
  let part = partOf(node);
  if (part === undefined) {
    say(`Node ${node} lies in a part of the tree this site did not build; it shows ${build.files[0].label}.`,
        appLink(viewParams()));
    part = 0;
    node = undefined;
  }

  function partOf(n) {
    if (n === undefined) return 0;
    const k = build.files.findIndex((f) => !f.nodes || f.nodes.includes(n));
    return k < 0 ? undefined : k;
  }

  function viewParams() {
    const params = { ...build.params };
    if (t !== undefined && t !== null) params[config.tKey] = String(t);
    if (node !== undefined && node !== null) params.node = String(node);
    if (config.mode === "tree" && kind === "current") params.edges = "current";
    if (config.mode === "best_response" && exploiter === 2) params.br_player = "2";
    return params;
  }

  function appLink(params) {
    const query = new URLSearchParams(params).toString();
    return `${config.app}/${config.page}${query ? "?" + query : ""}`;
  }

  function writeAddress() {
    const params = viewParams();
    history.replaceState(null, "", "?" + new URLSearchParams(params).toString());
    document.getElementById("cfrviz-app").href = appLink(params);
    // Other pages open with the same run (as the app's links keep the sidebar's solve).
    const runQuery = config.navParams ? "?" + new URLSearchParams(build.params).toString() : "";
    for (const a of document.querySelectorAll("a[data-page]")) a.search = runQuery;
    for (const a of document.querySelectorAll("a[data-app-page]")) {
      a.href = `${config.app}/${a.dataset.appPage}${runQuery}`;
    }
  }

  function heard(name, value) {
    // Regret matching reports "t" and the page keeps it as the app's rm_t.
    if (name === config.tKey || (name === "t" && config.tKey === "rm_t")) t = value;
    else if (name === "node") node = value;
    else if (name === "kind") kind = value === "current" ? "current" : "average";
    else if (name === "exploiter") { exploiter = value === 2 ? 2 : 1; show(); }
    else if (name === "wholeSet") {
      // The inspector asks for the node's set drawn whole: the built part holding it, if any.
      node = value;
      const k = partOf(value);
      if (k !== undefined && k !== part) { part = k; partSelect.value = String(k); show(); }
    }
    writeAddress();
  }

  function fillControls() {
    runSelect.replaceChildren(...config.builds.map((b, k) => {
      const option = new Option(b.label, String(k));
      option.selected = b === build;
      return option;
    }));
    const label = document.getElementById("cfrviz-part-label");
    label.hidden = build.files.length < 2;
    partSelect.replaceChildren(...build.files.map((f, k) => new Option(f.label, String(k), false, k === part)));
    const game = config.games[build.game] ?? {};
    const rules = document.getElementById("cfrviz-rules");
    rules.querySelector("summary").textContent = `Rules of ${game.title ?? "this game"}`;
    rules.querySelector("div").innerHTML = game.rules ?? "";   // escaped by the build (cfrviz.site.markup)
    document.getElementById("cfrviz-legend").innerHTML = game.legend ?? "";
    document.getElementById("cfrviz-summary").textContent = build.summary;
    // Convergence: the chosen run's picture against the equilibria, drawn at build time (or why there is none).
    const equilibrium = document.getElementById("cfrviz-equilibrium");
    if (equilibrium) {
      equilibrium.hidden = !build.equilibrium;
      document.getElementById("cfrviz-no-equilibrium").hidden = !!build.equilibrium;
      if (build.equilibrium) {
        equilibrium.querySelector("img").src = config.root + build.equilibrium.path;
        equilibrium.querySelector("figcaption").textContent = build.equilibrium.caption;
      }
    }
  }

  runSelect.addEventListener("change", () => {
    build = config.builds[Number(runSelect.value)];
    t = undefined;
    if (node !== undefined && !(node < (build.nodes ?? Infinity))) node = undefined;
    part = partOf(node) ?? 0;
    fillControls();
    show();
    writeAddress();
  });
  partSelect.addEventListener("change", () => {
    part = Number(partSelect.value);
    node = undefined;
    show();
    writeAddress();
  });

  // Play: the page deals and the bot plays, with the HTML file's own hand host (assets/play.js); the
  // hand reaches the play mode as the header state the app's server would send.
  // Its deal button appears once the first data file has loaded.
  let playText = null;
  let playState = { seat: 0, pending: null, decisions: [], path: null };

  let first = true;
  async function show() {
    const file = build.files[part];
    let text;
    try {
      text = await load(file.path);
    } catch (problem) {
      say(`${problem.message} ${location.protocol === "file:" ? "Is the site's data folder beside this page?" : ""}`);
      return;
    }
    const header = { id: file.id, t: t ?? build.last, node: node ?? null, kind, mode: config.mode,
                     focus: file.focus ?? [], log: config.log };
    if (config.mode === "best_response") header.state = { exploiter };
    if (config.mode === "play") {
      if (playText === null) {
        window.playHost(() => playText, element, () => t ?? build.last, (state) => { playState = state; show(); });
      }
      playText = text;
      header.state = playState;
    }
    window.mountTimeline({ key: "timeline", data: encoder.encode(JSON.stringify(header) + "\n" + text),
                           parentElement: element, setStateValue: heard, setTriggerValue: heard });
    if (first) {
      first = false;
      requestAnimationFrame(() => performance.mark("cfrviz-first-picture"));
    }
  }

  fillControls();
  writeAddress();
  show();
  window.cfrvizView = () => ({ build: build.label, t, node, kind, exploiter, part });
})();
