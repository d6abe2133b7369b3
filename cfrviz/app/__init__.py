"""The one place in `cfrviz` that speaks Streamlit: shared sidebar, deep links, cached solve.

Every page starts with::

    from cfrviz import app as ui
    view = ui.setup_page("Page title")             # or solve=False

The shell is split by job: `page` (page list, `setup_page`, the page's solve), `state` (session
keys, the `View`, the link adopted), `solving` (shared run cache, warm-up thread), `sidebar`,
`share` (link, downloads, uploads), `settings` (a page's own settings), `widgets` (notices, rules
card, legend, iteration slider), `page_results` (Compare's, Regret matching's and the Walkthrough's
own results, shared by every session; pages import it as `from cfrviz.app import page_results`). Parsing and checking the query parameters is pure and lives in
`cfrviz.app.links`. This module re-exports what pages use.

Session-state keys that tests and pages may use:
  `ui.T_KEY`     the iteration shown (an int), shared by every page
  `ui.NODE_KEY`  the selected tree node id (an int or None)
"""
from __future__ import annotations

from cfrviz.app.admission import heavy_build, heavy_page
from cfrviz.app.links import MAX_SEED, Choice, iteration_cap, page_setting
from cfrviz.app.registry import Page
from cfrviz.app.page import LEARNING_PATH, PAGES, pin_first_views, setup_page, solve_view, solved_run
from cfrviz.app.sessions import start_session_reaper
from cfrviz.app.sidebar import set_locks
from cfrviz.app.settings import bind, page_value, set_page_value
from cfrviz.app.solving import (
    CONCURRENT_SOLVES,
    RUN_CACHE_BYTES,
    RUN_CACHE_ENTRIES,
    cached_solve,
    one_solve_at_a_time,
    shared_runs,
    start_warmup,
    wait_until_warm,
)
from cfrviz.app.state import CHOICE_KEY, NODE_KEY, PAGE_SETTINGS_KEY, T_KEY, UPLOAD_KEY, UPLOAD_NAME_KEY, View
from cfrviz.app.widgets import action_legend, error, legend_text, notice, rules_card
from cfrviz.solvers import ALGORITHMS

__all__ = [
    "ALGORITHMS", "CHOICE_KEY", "CONCURRENT_SOLVES", "LEARNING_PATH", "MAX_SEED", "NODE_KEY", "PAGES",
    "PAGE_SETTINGS_KEY", "Page", "RUN_CACHE_BYTES", "RUN_CACHE_ENTRIES", "T_KEY", "UPLOAD_KEY", "UPLOAD_NAME_KEY",
    "Choice", "View", "action_legend", "bind", "cached_solve", "error", "heavy_build", "heavy_page", "iteration_cap",
    "legend_text", "notice", "page_setting", "page_value", "rules_card", "set_locks", "set_page_value", "setup_page",
    "one_solve_at_a_time", "pin_first_views", "shared_runs", "solve_view", "solved_run", "start_session_reaper", "start_warmup",
    "wait_until_warm",
]
