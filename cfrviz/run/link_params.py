"""A solve's deep-link query parameters, written one way for every front end that links to a view
(the app's Share box and address bar, the static site's pages and menus).

Pure: the names are the app's (`game`, `algo`, `iters`, `updates`, `seed`, `lock`); the view's `t`
and `node` are added by whoever shows it.
"""
from __future__ import annotations

from cfrviz.run.record import RunSettings
from cfrviz.solvers import ALGORITHMS


def link_params(settings: RunSettings) -> dict[str, str]:
    """The query parameters naming `settings`' solve: `game` (when a link can carry the game),
    `algo`, `iters`, `updates`, `seed` (only for algorithms that sample) and `lock` (only when locked)."""
    params = {"algo": str(settings.algorithm), "iters": str(settings.iterations), "updates": str(settings.updates)}
    if settings.spec.link is not None:
        params = {"game": settings.spec.link, **params}
    if ALGORITHMS[settings.algorithm].sampling:
        params["seed"] = str(settings.seed)
    if settings.locks:
        params["lock"] = settings.locks.text()
    return params
