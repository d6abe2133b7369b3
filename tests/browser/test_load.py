"""Load: 20 browser sessions at once against one `streamlit run` server.

Each session asks for its own solve (game, algorithm, iterations, seed, iteration t) and moves
between pages in its own way. References:
- its numbers: the exploitability `cfrviz.solve` gives for the same settings in this process,
  so a session that saw another session's run (a mixed cache or session state) fails;
- no exceptions: the house rule;
- memory: the app's solve cache is bounded (`max_entries`), so after the first rounds have
  filled it, more rounds of the same traffic must not keep adding to the server's RSS.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode

import pytest
from tests.support.browser import APP_IDLE, RENDER_TIMEOUT_MS
from tests.support.server import streamlit_server

import cfrviz
from cfrviz.solvers import ALGORITHMS
from cfrviz.util.text import clamped_exploitability, number

SESSIONS = 20
ROUNDS = 3
# Loaded 2-core machine: 20 sessions share it, so give each wait several first-render times.
LOAD_TIMEOUT_MS = 6 * RENDER_TIMEOUT_MS


@dataclass(frozen=True)
class Session:
    game: str          # query value: kuhn, kuhn4, leduc, rps
    algorithm: str
    iterations: int
    seed: int
    t: int
    updates: str

    @property
    def params(self) -> dict[str, str]:
        return {"game": self.game, "algo": self.algorithm, "iters": str(self.iterations),
                "updates": self.updates, "seed": str(self.seed), "t": str(self.t)}

    def expected_exploitability(self, t: int) -> str:
        """The metric text the Convergence page must show for this session at iteration t."""
        game, params = (("kuhn", {"cards": int(self.game[4:])}) if self.game.startswith("kuhn") and self.game != "kuhn"
                        else (self.game, {}))
        sampling = ALGORITHMS[self.algorithm].sampling
        run = cfrviz.solve(game, self.algorithm, iterations=self.iterations, updates=self.updates,
                           seed=self.seed if sampling else 0, **params)
        # Up to 1,000 iterations every iteration is a snapshot, so t is snapshot t - 1.
        return number(clamped_exploitability(float(run.exploitability[run.snapshot_at(t)])))   # the app's formatter


def _sessions() -> list[Session]:
    plan = [("kuhn", "cfr"), ("kuhn", "cfr+"), ("kuhn", "lcfr"), ("kuhn", "dcfr"), ("kuhn", "chance"),
            ("kuhn", "external"), ("kuhn", "outcome"), ("kuhn4", "cfr"), ("kuhn4", "cfr+"), ("leduc", "cfr"),
            ("leduc", "cfr+"), ("leduc", "outcome"), ("rps", "rm"), ("kuhn", "cfr"), ("kuhn", "outcome"),
            ("kuhn4", "external"), ("leduc", "dcfr"), ("rps", "rm"), ("kuhn", "cfr+"), ("kuhn", "chance")]
    # Distinct iteration counts (and seeds) make every session's run, and so its numbers, its own.
    # External and outcome sampling update one player at a time, so they need alternating updates.
    return [Session(game, algorithm, 60 + 13 * i, 1000 + i, 20 + 3 * i,
                    "alternating" if algorithm in ("external", "outcome") or i % 2 else "simultaneous")
            for i, (game, algorithm) in enumerate(plan)]


def _rss_megabytes(pid: int) -> float:
    """Resident memory of a process and its children, from /proc (Linux)."""
    total_kb = 0
    pids = [pid]
    children = Path(f"/proc/{pid}/task/{pid}/children")
    if children.exists():
        pids += [int(p) for p in children.read_text().split()]
    for p in pids:
        for line in Path(f"/proc/{p}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total_kb += int(line.split()[1])
    return total_kb / 1024


def _wait_heading(page, heading: str) -> None:
    page.locator("h1", has_text=heading).first.wait_for(state="visible", timeout=LOAD_TIMEOUT_MS)
    page.wait_for_selector(APP_IDLE, timeout=LOAD_TIMEOUT_MS)


def _metric(page, t: int) -> str:
    label = f"Exploitability at iteration {t:,}"
    metric = page.locator('[data-testid="stMetric"]', has_text=label).first
    metric.wait_for(state="visible", timeout=LOAD_TIMEOUT_MS)
    # The value reads "<number> chips/hand"; the number is what identifies the run.
    return metric.locator('[data-testid="stMetricValue"]').inner_text().split()[0]


def _nav_link(page, label: str):
    # The app draws its own navigation (st.page_link, first item "Home"); Streamlit's list is hidden.
    return page.locator('[data-testid="stSidebar"] [data-testid="stPageLink"]', has_text=label).first


def _no_exception(page, session: Session) -> None:
    errors = page.locator('[data-testid="stException"]')
    assert errors.count() == 0, f"exception on screen for {session}: {errors.first.inner_text()[:3000]}"


@pytest.mark.browser
def test_twenty_sessions_keep_their_own_numbers_and_memory_settles(browser) -> None:
    sessions = _sessions()
    expected = {s: {t: s.expected_exploitability(t) for t in (s.t, s.t + 5)} for s in sessions}
    rss: list[float] = []
    with streamlit_server() as (url, process):
        contexts = [browser.new_context(viewport={"width": 1280, "height": 800}) for _ in sessions]
        pages = [context.new_page() for context in contexts]
        shown_t = {s: s.t for s in sessions}
        try:
            for round_number in range(ROUNDS):
                t_of = {s: s.t + (5 if round_number == 2 else 0) for s in sessions}
                # Fire every session's request before waiting on any, so the server runs them together.
                for i, (session, page) in enumerate(zip(sessions, pages)):
                    route = i % 3 if round_number else 2
                    if route == 2:   # a fresh deep link (a new Streamlit session)
                        shown_t[session] = t_of[session]
                        query = urlencode({**session.params, "t": str(t_of[session])})
                        page.goto(f"{url}/Convergence?{query}", wait_until="commit", timeout=LOAD_TIMEOUT_MS)
                    else:            # sidebar navigation inside the same session
                        target = "Evolution" if route == 0 else "Game tree"
                        _nav_link(page, target).click(
                            timeout=LOAD_TIMEOUT_MS)
                for i, (session, page) in enumerate(zip(sessions, pages)):
                    route = i % 3 if round_number else 2
                    if route != 2:
                        _wait_heading(page, "Evolution" if route == 0 else "Game tree")
                        _no_exception(page, session)
                        _nav_link(page, "Convergence").click(
                            timeout=LOAD_TIMEOUT_MS)
                for session, page in zip(sessions, pages):
                    _wait_heading(page, "Convergence")
                    # A deep link sets t; session state carries it across page switches.
                    t = shown_t[session]
                    assert _metric(page, t) == expected[session][t], f"round {round_number}: {session}"
                    _no_exception(page, session)
                    share = page.locator('[data-testid="stSidebar"] [data-testid="stCode"]').first.inner_text()
                    assert f"iters={session.iterations}" in share and f"game={session.game}" in share, share
                rss.append(_rss_megabytes(process.pid))
        finally:
            for context in contexts:
                context.close()
    print(f"server RSS after each round of {SESSIONS} sessions (MB): {[round(m) for m in rss]}")
    # Round 1 fills the solve cache; later rounds repeat the same traffic and must not keep growing.
    growth = rss[-1] - rss[1]
    assert growth < max(0.25 * rss[1], 150.0), f"server RSS keeps growing: {rss}"



@pytest.mark.browser
def test_server_memory_after_distinct_leduc_solves_at_the_cap(browser, monkeypatch) -> None:
    # Reports the server's resident memory (the budget itself is the deploy's): one session asks
    # for every algorithm on Leduc at the app's cap, then for all of them again one iteration
    # short, so every request is a new solve. Reference: the run cache is bounded in bytes, so
    # the second round replaces cached runs instead of adding to them. The server runs with the
    # deploy's malloc settings (scripts/deploy.sh); with glibc's defaults freed runs stay mapped
    # (measured here: 70 MB idle, 730 MB after one round, 1,033 MB after two).
    from cfrviz import catalog

    monkeypatch.setenv("MALLOC_ARENA_MAX", "2")
    monkeypatch.setenv("MALLOC_MMAP_THRESHOLD_", "1048576")

    cap = catalog.lookup("leduc").app_iteration_cap
    algorithms = [a for a in ALGORITHMS if a != "rm"]
    rss: list[float] = []
    with streamlit_server() as (url, process):
        rss.append(_rss_megabytes(process.pid))
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        page = context.new_page()
        try:
            for iterations in (cap, cap - 1):
                for algorithm in algorithms:
                    query = urlencode({"game": "leduc", "algo": algorithm, "iters": str(iterations),
                                       "updates": "alternating", "seed": "0"})
                    page.goto(f"{url}/Convergence?{query}", timeout=LOAD_TIMEOUT_MS)
                    _wait_heading(page, "Convergence")
                    _metric(page, iterations)
                    _no_exception(page, f"leduc {algorithm} x {iterations}")  # type: ignore[arg-type]
                rss.append(_rss_megabytes(process.pid))
        finally:
            context.close()
    print(f"server RSS: idle {rss[0]:.0f} MB; after {len(algorithms)} distinct Leduc solves at the cap "
          f"({cap:,} iterations) {rss[1]:.0f} MB; after {len(algorithms)} more {rss[2]:.0f} MB")
    assert rss[2] - rss[1] < max(0.25 * rss[1], 150.0), f"server RSS keeps growing: {rss}"
