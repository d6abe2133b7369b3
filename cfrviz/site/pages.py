"""The site's pages as HTML: one file per page of the learner's path, each a frame (navigation, rules
card, explanation, the run picker, the timeline's element) and the page's own configuration (the
runs it offers, their data files), which `assets/site.js` reads to mount the timeline.

Every text reaches the page escaped (`markup`), and the configuration as JSON with `<`, `>` and `&`
as \\u escapes, so no game label can end a script or open a tag.
"""
from __future__ import annotations

import html
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cfrviz.site.markup import blocks, inline
from cfrviz.teaching import texts
from cfrviz.util.version import VERSION


@dataclass(frozen=True)
class PageSpec:
    """One page: its path (the app's, such as "Game_tree"; "" for Home), its title in the navigation,
    the timeline mode it mounts and whether its slider starts on a log scale."""

    path: str
    label: str
    mode: str
    log: bool = False


#: The pages the site builds, in the learner's order (Home first), and the app's pages it links to.
HOME = PageSpec("", "Home", "exploitability", log=True)
GAME_TREE = PageSpec("Game_tree", "Game tree", "tree")
EVOLUTION = PageSpec("Evolution", "Evolution", "sets")
CONVERGENCE = PageSpec("Convergence", "Convergence", "charts", log=True)
BEST_RESPONSE = PageSpec("Best_response", "Best response", "best_response")
WALKTHROUGH = PageSpec("Walkthrough", "Walkthrough", "walkthrough")
#: Regret matching: the menu's regret-matching runs on matrix games; Play: the runs drawn whole.
REGRET_MATCHING = PageSpec("Regret_matching", "Regret matching", "regret_matching", log=True)
PLAY = PageSpec("Play", "Play", "play")
BUILT = (HOME, REGRET_MATCHING, WALKTHROUGH, GAME_TREE, CONVERGENCE, BEST_RESPONSE, EVOLUTION, PLAY)
#: Compare: figures and a table written at build time (no timeline), built when the menu has comparisons.
COMPARE = PageSpec("Compare", "Compare", "compare")
#: The navigation: the learner's order (`texts.LEARNING_PATH`), with Evolution beside the Game tree and
#: Convergence, and Compare last. A page the menu gave nothing to links to the app.
NAVIGATION = ("", "Regret_matching", "Walkthrough", "Game_tree", "Evolution", "Convergence", "Best_response", "Play",
              "Compare")

_STYLE_LINKS = ('<link rel="stylesheet" href="{root}assets/site.css">\n'
                '<link rel="stylesheet" href="{root}assets/timeline.css">')

_INTROS: Mapping[str, str] = {
    "": texts.HOME_INTRO,
    "Best_response": texts.BEST_RESPONSE_INTRO,
    "Walkthrough": texts.WALKTHROUGH_INTRO,
}
_HOW: Mapping[str, str] = {
    "": "The exploitability of the average strategy, iteration by iteration (log-log): drag the slider or press ▶.",
    "Game_tree": texts.TREE_HOW,
    "Evolution": "Every information set's strategy at iteration t, with the first ones' curves: press ▶ or drag "
                 "the slider, all in your browser.",
    "Convergence": texts.CONVERGENCE_UNITS,
    "Best_response": texts.BEST_RESPONSE_HOW,
    "Walkthrough": texts.WALKTHROUGH_KEYS,
    "Regret_matching": "Regret matching on the run's matrix game, both players learning (self-play): each player's "
                       "current and average strategy at iteration t, against the equilibrium. Drag the slider, "
                       "press ▶ or the arrow keys.",
    "Play": "Deal a hand and play against a bot that plays the average strategy at the iteration t on the slider; "
            "the cards are dealt in your browser, at random. Each of your decisions shows its EV loss (chips per "
            "hand) against that strategy.",
}


def script_json(value: Any) -> str:
    """JSON safe inside a <script> element."""
    text = json.dumps(value, separators=(",", ":"), allow_nan=False)
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


def _root(page: PageSpec) -> str:
    return "../" if page.path else ""


def _href(page_path: str, root: str) -> str:
    return f"{root}{page_path}/index.html" if page_path else f"{root}index.html"


def _navigation(page: PageSpec, built: set[str], app_url: str) -> str:
    labels = {p.path: p.label for p in (*BUILT, COMPARE)}
    items = []
    for path in NAVIGATION:
        label = html.escape(labels[path])
        if path in built:
            current = ' aria-current="page"' if path == page.path else ""
            items.append(f'<li><a data-page="{path}" href="{_href(path, _root(page))}"{current}>{label}</a></li>')
        else:
            items.append(f'<li><a class="cfrviz-app-link" data-app-page="{path}" href="{html.escape(app_url)}/{path}" '
                         f'title="On the full app">{label} ↗</a></li>')
    return '<nav class="cfrviz-nav" aria-label="Pages"><ul>' + "".join(items) + "</ul></nav>"


def _home_path(built: set[str], app_url: str, lock_link: Mapping[str, str] | None) -> str:
    rows = []
    for number, (path, label, notice) in enumerate(texts.LEARNING_PATH, start=1):
        if path in built:
            link = f'<a data-page="{path}" href="{_href(path, "")}">{number}. {html.escape(label)}</a>'
        else:
            link = (f'<a class="cfrviz-app-link" data-app-page="{path}" href="{html.escape(app_url)}/{path}">'
                    f'{number}. {html.escape(label)} ↗</a> <small>(on the full app)</small>')
        rows.append(f"<li>{link} <span>Notice {inline(notice)}</span></li>")
    query = "&".join(f"{k}={v}" for k, v in _quoted(lock_link or texts.LOCK_EXAMPLE_PARAMS).items())
    target = f"Game_tree/index.html?{query}" if lock_link else f"{html.escape(app_url)}/Game_tree?{query}"
    rows.append(f'<li><a href="{target}">{len(texts.LEARNING_PATH) + 1}. {html.escape(texts.LOCK_EXAMPLE_LABEL)}</a> '
                f"<span>{inline(texts.LOCK_EXAMPLE_NOTICE)}</span></li>")
    return ('<section class="cfrviz-path"><h2>Start here</h2><p class="cfrviz-caption">A learner\'s order through '
            "the pages. Each link keeps the run chosen below.</p><ol>" + "".join(rows) + "</ol>"
            f'<p class="cfrviz-caption">{inline(texts.ALSO_PAGES)}</p></section>')


def _quoted(params: Mapping[str, str]) -> dict[str, str]:
    from urllib.parse import quote

    return {k: quote(v, safe="") for k, v in params.items()}


#: Convergence's picture of the average strategy against the known equilibria (an SVG file per run,
#: drawn at build time at the run's last iteration); site.js shows the chosen run's, or hides it.
_EQUILIBRIUM = ('<h2>Average strategy against the equilibrium</h2>'
                '<figure id="cfrviz-equilibrium" class="cfrviz-equilibrium" data-testid="cfrviz-equilibrium" hidden>'
                '<div class="cfrviz-scroll"><img alt="The average strategy of every information set over the '
                'iterations, against the equilibria" width="760"></div>'
                '<figcaption class="cfrviz-caption"></figcaption></figure>'
                '<p class="cfrviz-caption" id="cfrviz-no-equilibrium" hidden>No closed-form equilibrium is known for '
                "this game; the exploitability above shows how close the average strategy is.</p>")


def page_html(page: PageSpec, config: Mapping[str, Any], built: set[str], app_url: str,
              lock_link: Mapping[str, str] | None) -> str:
    """The HTML of `page`: `config` is what site.js reads (the runs, their data files, the games' rules);
    `lock_link` the link parameters of Home's locked example when the site built it."""
    root = _root(page)
    intro = _INTROS.get(page.path)
    how = _HOW.get(page.path, "")
    path = _home_path(built, app_url, lock_link) if not page.path else ""
    main = f"""{"" if intro is None else blocks(intro)}
{path}
<div id="cfrviz-notices" class="cfrviz-notices" role="status"></div>
<form class="cfrviz-controls" onsubmit="return false">
<label>Run <select id="cfrviz-run"></select></label>
<label id="cfrviz-part-label" hidden>Part of the tree <select id="cfrviz-part"></select></label>
<a id="cfrviz-app" class="cfrviz-app-link" href="{html.escape(app_url)}/{page.path}">Open this view in the full app ↗</a>
</form>
<details class="cfrviz-rules" id="cfrviz-rules"><summary>Rules</summary><div></div></details>
<p class="cfrviz-caption" id="cfrviz-summary" data-testid="cfrviz-summary"></p>
<div id="cfrviz-timeline" class="cfrviz-timeline"></div>
<p class="cfrviz-caption">{inline(how)}</p>
<p class="cfrviz-caption" id="cfrviz-legend"></p>""" + (_EQUILIBRIUM if page is CONVERGENCE else "")
    scripts = f"""<script type="application/json" id="cfrviz-site">{script_json(config)}</script>
<script src="{root}assets/timeline.js"></script>
{f'<script src="{root}assets/play.js"></script>' if page.mode == "play" else ""}
<script src="{root}assets/site.js"></script>"""
    return _document(page, built, app_url, main, scripts)


def compare_html(built: set[str], app_url: str, main: str) -> str:
    """The Compare page: `main` (its comparisons' figures and tables, written at build time) in the site's
    frame, with no script."""
    return _document(COMPARE, built, app_url, main, "")


def _document(page: PageSpec, built: set[str], app_url: str, main: str, scripts: str) -> str:
    root = _root(page)
    title = "cfrviz: counterfactual regret minimization, visible" if not page.path else page.label
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="cfrviz {html.escape(VERSION)}">
<title>{html.escape(title)} · cfrviz</title>
{_STYLE_LINKS.format(root=root)}
</head>
<body>
<header class="cfrviz-top">
<a class="cfrviz-brand" href="{root}index.html">♠ cfrviz</a>
{_navigation(page, built, app_url)}
</header>
<main class="cfrviz-main">
<h1>{html.escape(title)}</h1>
{main}
</main>
<footer class="cfrviz-foot">Built by cfrviz {html.escape(VERSION)} from runs computed when the site was built. The full
app solves any game and settings: <a class="cfrviz-app-link" href="{html.escape(app_url)}/">{html.escape(app_url)}</a>.</footer>
{scripts}
</body>
</html>
"""


def build_config(page: PageSpec, builds: Sequence[Mapping[str, Any]], games: Mapping[str, Any], app_url: str,
                 keys: Sequence[str], t_key: str, nav_params: bool) -> dict[str, Any]:
    """What site.js reads on `page`: its mode, the address of the app, the link keys a view is named by,
    the runs (`builds`: params, label, files) and the games' rules (`games`, by link name)."""
    return {"page": page.path, "mode": page.mode, "log": page.log, "root": _root(page), "app": app_url,
            "keys": list(keys), "tKey": t_key, "builds": list(builds), "games": dict(games), "navParams": nav_params}
