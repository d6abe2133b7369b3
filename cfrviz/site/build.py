"""`cfrviz site build DIR`: solve the menu's runs once, then write the static site: HTML pages, the
timeline's script and style (one shared file each), and one data file per run and view.

The folder afterwards:
    index.html, Game_tree/index.html, ...   a page per built page (the app's paths, so a link names
                                            the same view on the site and in the app)
    assets/timeline.js, timeline.css        the timeline (`timeline_code`), loaded by every page
    assets/site.js, site.css                the site's host adapter and frame
    assets/play.js                          Play's hand host, the HTML file's own (`html_play.PLAY_HOST`)
    data/<run>/<view>.js                    payloads, as `cfrviz.site.data` writes them
Classic scripts only (no module, no fetch), so pages open from disk as well as from any static host.
"""
from __future__ import annotations

import hashlib
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from cfrviz import solving
from cfrviz.catalog import GameSpec
from cfrviz.figures.convergence import equilibrium_figure, equilibrium_reference
from cfrviz.figures.drawn import is_drawn_whole
from cfrviz.figures.html_play import PLAY_HOST, PLAY_STYLE
from cfrviz.figures.svg import grid_svg
from cfrviz.figures.timeline_code import MOUNT_FUNCTION, timeline_script, timeline_source
from cfrviz.run import Run, RunSettings
from cfrviz.run.link_params import link_params
from cfrviz.site import comparison, data, pages
from cfrviz.site.markup import blocks, legend_html
from cfrviz.site.menu import Menu, Walk
from cfrviz.solvers import ALGORITHMS
from cfrviz.teaching import texts
from cfrviz.util.text import clamped_exploitability, number
from cfrviz.util.vocabulary import Algorithm, UpdateScheme

#: Written at the top of a built folder: a rebuild may replace what a build wrote, and nothing else.
MARKER = ".cfrviz-site"
_WRITTEN = ("index.html", "assets", "data", *[p.path for p in pages.BUILT if p.path])
_RUN_KEYS = ("game", "algo", "iters", "updates", "seed", "lock")
_WALK_KEYS = ("walk_game", "walk_algo", "walk_updates", "walk_t", "walk_deal", "walk_seed")
#: The app's Regret matching page's own link parameters (cfrviz.app.registry); its t is rm_t.
_RM_KEYS = ("rm_game", "rm_mode", "rm_update", "rm_iters", "rm_seed")


@dataclass(frozen=True)
class Built:
    """What a build wrote: the folder, its files and their bytes."""

    folder: Path
    files: int
    total_bytes: int


def _prepare(folder: Path) -> None:
    """An empty or new folder, or one an earlier build wrote (its old files are removed)."""
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"{folder} is a file; give a folder for the site.")
    if folder.is_dir() and any(folder.iterdir()) and not (folder / MARKER).exists():
        raise ValueError(f"{folder} holds files a site build did not write; give an empty or new folder.")
    folder.mkdir(parents=True, exist_ok=True)
    for name in _WRITTEN:
        target = folder / name
        if target.is_dir():
            shutil.rmtree(target)
        elif target.exists():
            target.unlink()
    (folder / MARKER).write_text("Written by `cfrviz site build`; a rebuild replaces this folder's site files.\n",
                                 encoding="utf-8")


def _slug(params: dict[str, str]) -> str:
    """A file-name-safe, unique folder name for a run or walk named by its link parameters."""
    text = "_".join(params.values()).replace("+", "plus")
    safe = "".join(c if c.isascii() and (c.isalnum() or c in "-_") else "-" for c in text)[:80]
    digest = hashlib.blake2b("&".join(f"{k}={v}" for k, v in params.items()).encode(), digest_size=4).hexdigest()
    return f"{safe}_{digest}"


def _run_label(settings: RunSettings) -> str:
    label = (f"{settings.spec.title} · {ALGORITHMS[settings.algorithm].title} · {settings.updates} · "
             f"{settings.iterations:,} iterations")
    if ALGORITHMS[settings.algorithm].sampling:
        label += f" · seed {settings.seed}"
    if settings.locks:
        label += f" · locked {settings.locks.text()}"
    return label


def _walk_label(walk: Walk) -> str:
    label = f"{walk.game.title} · {ALGORITHMS[walk.algorithm].title} · {walk.updates} · iteration {walk.t}"
    return label + (f" · deal {walk.deal}" if walk.deal else "")


def timeline_file() -> str:
    """The timeline's script as a classic script (pages opened from disk cannot load modules): its own
    scope, strict, with the host interface published as `window.mountTimeline`."""
    return (f'(function () {{\n"use strict";\n{timeline_script()}\n'
            f"window.{MOUNT_FUNCTION} = {MOUNT_FUNCTION};\n}})();\n")


def play_file() -> str:
    """Play's hand host (`html_play.PLAY_HOST`, the HTML file's own) as a classic script publishing
    `window.playHost`: the page deals and the bot plays in the browser, as in the file."""
    return f'(function () {{\n"use strict";\n{PLAY_HOST}\nwindow.playHost = playHost;\n}})();\n'


def _asset(name: str) -> str:
    return resources.files("cfrviz.site").joinpath("assets", name).read_text(encoding="utf-8")


class _Writer:
    def __init__(self, folder: Path) -> None:
        self.folder, self.files, self.bytes = folder, 0, 0

    def write(self, relative: str, text: str) -> None:
        target = self.folder / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        raw = text.encode("utf-8")
        target.write_bytes(raw)
        self.files += 1
        self.bytes += len(raw)

    def payload(self, relative: str, payload: dict[str, Any]) -> str:
        payload_id, text = data.data_script(relative, payload)
        self.write(relative, text)
        return payload_id


def build_site(folder: Path, menu: Menu, app_url: str, say: Callable[[str], object] = print) -> Built:
    """Solve `menu` and write the site into `folder` (see the module's docstring). `app_url` is the full
    app's public address, where every view the site did not build is linked. ValueError for a folder
    that holds other files."""
    _prepare(folder)
    out = _Writer(folder)
    app = app_url.rstrip("/")
    out.write("assets/timeline.js", timeline_file())
    out.write("assets/timeline.css", timeline_source(".css"))
    out.write("assets/site.js", _asset("site.js"))
    out.write("assets/site.css", _asset("site.css") + PLAY_STYLE)
    out.write("assets/play.js", play_file())

    views: dict[str, list[dict[str, Any]]] = {p.path: [] for p in pages.BUILT}
    games: dict[str, Any] = {}
    solved: dict[RunSettings, Run] = {}
    for k, settings in enumerate(menu.runs, start=1):
        say(f"[{k}/{len(menu.runs)}] {_run_label(settings)}")
        run = solved.get(settings) or solving.solve_settings(settings)
        solved[settings] = run
        unlocked = None
        if settings.locks:
            plain = settings.without_locks()
            unlocked = solved.get(plain) or solving.solve_settings(plain)
            solved[plain] = unlocked
        _games(games, settings.spec, run)
        if settings.spec.matrix:
            _regret_matching_view(out, views, settings, run)
        else:
            _run_views(out, views, settings, run, unlocked)
    for k, walk in enumerate(menu.walks, start=1):
        say(f"[walkthrough {k}/{len(menu.walks)}] {_walk_label(walk)}")
        _games(games, walk.game, None)
        params = walk.params()
        path = f"data/{_slug(params)}/walkthrough.js"
        payload_id = out.payload(path, data.walk_payload(walk.game.tree(), walk.algorithm, walk.updates, walk.t,
                                                        walk.deal, walk.seed))
        views["Walkthrough"].append({"params": params, "label": _walk_label(walk), "game": walk.game.link,
                                     "last": 1, "summary": _walk_label(walk),
                                     "files": [{"path": path, "id": payload_id, "label": "iteration"}]})

    built = {p.path for p in pages.BUILT if views[p.path]} | ({pages.COMPARE.path} if menu.compares else set())
    # Home's locked example opens the built run with its locks (at the menu's iterations), else the app's.
    example = texts.LOCK_EXAMPLE_PARAMS
    locked = [link_params(s) for s in menu.runs if s.locks and s.spec.link == example["game"]
              and link_params(s).get("lock") == example["lock"]]
    lock_link = {**locked[0], "node": example["node"]} if locked else None
    for page in pages.BUILT:
        if page.path not in built:
            continue
        keys, t_key = {pages.WALKTHROUGH.path: (_WALK_KEYS, "walk_step"),
                       pages.REGRET_MATCHING.path: (_RM_KEYS, "rm_t")}.get(page.path, (_RUN_KEYS, "t"))
        config = pages.build_config(page, views[page.path], games, app, keys, t_key,
                                    nav_params=keys == _RUN_KEYS)
        relative = "index.html" if not page.path else f"{page.path}/index.html"
        out.write(relative, pages.page_html(page, config, built, app, lock_link))
    if menu.compares:
        sections = []
        for k, wanted in enumerate(menu.compares, start=1):
            say(f"[compare {k}/{len(menu.compares)}] {', '.join(wanted.algorithms)} on {', '.join(wanted.games)}")
            sections.append(comparison.section_html(comparison.solve(wanted)))
        main = comparison.intro_html(menu.compares) + "\n" + "\n".join(sections)
        out.write(f"{pages.COMPARE.path}/index.html", pages.compare_html(built, app, main))
    return Built(folder, out.files, out.bytes)


def _games(games: dict[str, Any], spec: GameSpec, run: Run | None) -> None:
    if spec.link in games:
        return
    game = spec.tree().game
    legend = getattr(game, "action_legend", {})
    games[str(spec.link)] = {"title": spec.title, "rules": blocks(getattr(game, "rules", "")),
                             "legend": legend_html(legend) if legend else ""}


def _equilibrium(out: _Writer, folder: str, run: Run) -> dict[str, str] | None:
    """Convergence's average strategy against the known equilibria (Kuhn's α-family band), drawn as an
    SVG file at the run's last iteration: a static picture cannot follow t, and its caption says so."""
    if equilibrium_reference(run) is None:
        return None
    last = int(run.iterations[-1])
    figure = equilibrium_figure(run, last)
    path = f"{folder}/equilibrium.svg"
    out.write(path, grid_svg(figure))
    alpha = figure.layout.meta.get("alpha")
    caption = f"Drawn at the run's last iteration, {last:,} (this picture does not follow t)."
    if alpha is not None:
        caption += " " + texts.CONVERGENCE_ALPHA.format(t=last, alpha=alpha)
    return {"path": path, "caption": caption}


#: The runs Play is built for (the app's own defaults): a Play file is about 0.7 MB, and one for every
#: Kuhn run of the default menu (16) took the site to 64 MB, over its 60 MB budget. Others link to the app.
PLAY_ALGORITHMS = (Algorithm.CFR, Algorithm.CFR_PLUS)


def run_summary(label: str, exploitability: float, last: int) -> str:
    """A built run's one-line summary (site.js shows it above the timeline), its exploitability written as
    the app writes it (rounding noise below zero as 0: `clamped_exploitability`, then `number`)."""
    return (f"{label}: exploitability of the average strategy {number(clamped_exploitability(exploitability))} "
            f"chips per hand after {last:,} iterations.")


def _run_views(out: _Writer, views: dict[str, list[dict[str, Any]]], settings: RunSettings, run: Run,
               unlocked: Run | None) -> None:
    """One data file per view of `run`, and its entry on every page that shows it."""
    params = link_params(settings)
    folder = f"data/{_slug(params)}"
    last = int(run.iterations[-1])
    summary = run_summary(_run_label(settings), float(run.exploitability[-1]), last)
    base = {"params": params, "label": _run_label(settings), "game": settings.spec.link, "last": last,
            "nodes": run.tree.num_nodes, "summary": summary}

    charts: dict[str, Any] = {"path": f"{folder}/charts.js", "label": "charts"}
    charts["id"] = out.payload(charts["path"], data.charts_payload(run))
    views[""].append({**base, "files": [charts]})
    views["Convergence"].append({**base, "files": [charts], "equilibrium": _equilibrium(out, folder, run)})

    nodes, focus = data.evolution_sets(run.tree)
    sets: dict[str, Any] = {"path": f"{folder}/sets.js", "label": "information sets", "focus": focus}
    sets["id"] = out.payload(sets["path"], data.sets_payload(run, nodes))
    views["Evolution"].append({**base, "files": [sets]})

    tree_files: list[dict[str, Any]] = []
    br_files: list[dict[str, Any]] = []
    for k, part in enumerate(data.tree_parts_of(run.tree)):
        drawn = None if part.nodes is None else list(part.nodes)
        tree_file: dict[str, Any] = {"path": f"{folder}/tree-{k}.js", "label": part.label, "nodes": drawn}
        tree_file["id"] = out.payload(tree_file["path"], data.tree_payload(run, part, unlocked))
        tree_files.append(tree_file)
        br_file: dict[str, Any] = {"path": f"{folder}/best_response-{k}.js", "label": part.label, "nodes": drawn}
        br_file["id"] = out.payload(br_file["path"], data.best_response_payload(run, part))
        br_files.append(br_file)
    views["Game_tree"].append({**base, "files": tree_files})
    views["Best_response"].append({**base, "files": br_files})
    if is_drawn_whole(run.tree) and run.settings.algorithm in PLAY_ALGORITHMS and not run.settings.locks:
        views["Play"].append({**base, "files": [_body_file(out, f"{folder}/play.js", "hands", data.play_view(run))]})


def _body_file(out: _Writer, path: str, label: str, view: tuple[bytes, dict[str, Any]]) -> dict[str, Any]:
    body, header = view
    out.write(path, data.body_script(path, body))
    return {"path": path, "id": header["id"], "label": label}


def _regret_matching_view(out: _Writer, views: dict[str, list[dict[str, Any]]], settings: RunSettings,
                          run: Run) -> None:
    """A matrix-game run's one view, Regret matching, named by the app's page's own parameters when
    the app draws the same path (regret matching itself: sampled self-play from the run's seed)."""
    params = link_params(settings)
    view = data.regret_matching_view(run)
    last = int(view[1]["t"])
    label = _run_label(settings)
    if settings.algorithm == Algorithm.REGRET_MATCHING and settings.updates == UpdateScheme.SIMULTANEOUS:
        params = {"rm_game": str(settings.spec.link), "rm_mode": "self", "rm_update": "sampled",
                  "rm_iters": str(settings.iterations), "rm_seed": str(settings.seed)}
    summary = f"{label}: both players learn by regret matching (self-play), {last:,} iterations."
    file = _body_file(out, f"data/{_slug(params)}/regret_matching.js", "regret matching", view)
    views["Regret_matching"].append({"params": params, "label": label, "game": settings.spec.link, "last": last,
                                     "summary": summary, "files": [file]})
