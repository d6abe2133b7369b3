"""The visitors of a class (scripts/load_class.py): each opens Home, then its heavy page, maybe the run
download, and records what it saw in a `Visit`. Two kinds:

- wire visitors (`run_wire_class`, scripts/streamlit_wire.py): Streamlit's websocket protocol and
  the HTTP a page load asks for, no browser: what the server does for a visitor whose browser runs
  on a machine of its own. A page is timed until the element it draws from has arrived (the
  timeline component's data; Compare's plotly figure) and its script run has ended;
- browser visitors (`run_class`): a context each in ONE headless Chromium on the server's machine,
  timed until the drawing is on screen and the script is idle; `probe_home` is one such visitor
  that opens Home once, at a given moment.

Both sort what a page showed the same way: Streamlit's exception element (the generic error), the
app's own error box (a refusal), warnings. Every wait has a timeout; loopback only.
"""
from __future__ import annotations

import asyncio
import json
import os
import shutil
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from streamlit.proto.Element_pb2 import Element  # noqa: E402

from streamlit_wire import Page, WireVisitor, timeline_element  # noqa: E402
from tests.support.browser import APP_IDLE, CHROMIUM, CHROMIUM_ARGS, VIEWPORT  # noqa: E402

#: Home's first chart: the exploitability on the browser timeline (app.py; the cold-start test waits on it).
HOME_CHART = ".tl svg.tl-chart"
#: What ends a wait early: Streamlit's exception element, or an error box of the app's own.
ERROR_MARK = '[data-testid="stException"], [data-testid="stAlertContentError"]'
DOWNLOAD_BUTTON = "Download run (.npz)"
#: Seconds a first click on the download may take to start one before the visitor clicks again.
FIRST_CLICK_WAIT_S = 60.0
GENERIC_TEXT = "This app has encountered an error"
#: Classifies what is on screen once a page has settled (error boxes inside an exception are the exception's).
ON_SCREEN = """() => {
  const text = (e) => (e.innerText || '').trim().replace(/\\s+/g, ' ').slice(0, 300);
  const exceptions = [...document.querySelectorAll('[data-testid="stException"]')];
  const generic = exceptions.map(text);
  if (!exceptions.length && document.body.innerText.includes(GENERIC)) generic.push(GENERIC);
  const inException = (e) => e.closest('[data-testid="stException"]') || e.querySelector('[data-testid="stException"]');
  const refusals = [...document.querySelectorAll('[data-testid="stAlertContentError"]')]
    .filter((e) => !inException(e)).map(text);
  const notices = [...document.querySelectorAll('[data-testid="stAlertContentWarning"]')].map(text);
  return {generic, refusals, notices};
}""".replace("GENERIC", json.dumps(GENERIC_TEXT))


@dataclass
class Visit:
    """What one visitor saw. Seconds from the start of the page's navigation; None when not reached."""

    index: int
    kind: str
    link: str
    arrival: float                                   # seconds after the first visitor's arrival
    download_asked: bool
    home_seconds: float | None = None
    heavy_seconds: float | None = None
    download_seconds: float | None = None
    download_megabytes: float | None = None
    generic: list[str] = field(default_factory=list)     # "page: text" of Streamlit's exception element
    refusals: list[str] = field(default_factory=list)    # "page: sentence" of the app's own error boxes
    notices: list[str] = field(default_factory=list)     # "page: sentence" of warnings (a link read otherwise)
    failed: list[str] = field(default_factory=list)      # "page: what happened" (timeout, crash)
    download_failure: str | None = None                  # what Chromium said of a download that did not complete
    download_retried: bool = False                       # the first click downloaded nothing (clicked again)



async def _settle(page: Any, drawn: str, deadline: float) -> bool:
    """Wait until `drawn` or an error mark is visible, then until the script is idle; True when `drawn` shows."""
    from playwright.async_api import TimeoutError as PlaywrightTimeout

    left = max(1.0, deadline - time.monotonic()) * 1000
    await page.locator(f"{drawn}, {ERROR_MARK}").first.wait_for(state="visible", timeout=left)
    shown = await page.locator(drawn).count() > 0
    try:
        await page.wait_for_selector(APP_IDLE, timeout=max(1.0, deadline - time.monotonic()) * 1000)
    except PlaywrightTimeout:
        pass                        # drawn but still running at the deadline: the drawing counts
    return bool(shown)


async def _check(page: Any, name: str, visit: Visit) -> None:
    """Record the generic errors, refusals and warnings on `page` now (nothing when the page has gone)."""
    from playwright.async_api import Error as PlaywrightError

    try:
        seen = await page.evaluate(ON_SCREEN)
    except PlaywrightError:
        return                      # a crashed page: its step has recorded why
    visit.generic += [f"{name}: {text}" for text in seen["generic"]]
    visit.refusals += [f"{name}: {text}" for text in seen["refusals"]]
    visit.notices += [f"{name}: {text}" for text in seen["notices"]]


async def _browser_page(page: Any, url: str, visit: Visit, name: str, path: str, mark: str,
                        timeout: float) -> float | None:
    """Open `path` in `page` and time it until `mark` is drawn and the script is idle; None (and why,
    in `visit.failed`) when it is not drawn."""
    from playwright.async_api import Error as PlaywrightError

    began = time.monotonic()
    try:
        await page.goto(url + path, wait_until="commit", timeout=timeout * 1000)
        shown = await _settle(page, mark, began + timeout)
    except PlaywrightError as failure:     # a timeout, or the page or browser failed
        what = f"nothing drawn within {timeout:.0f} s" if "Timeout" in type(failure).__name__ \
            else str(failure).splitlines()[0][:200]
        visit.failed.append(f"{name}: {what}")
        await _check(page, name, visit)
        return None
    seconds = time.monotonic() - began
    await _check(page, name, visit)
    if not shown:
        visit.failed.append(f"{name}: an error instead of the drawing")
        return None
    return round(seconds, 2)


async def _visitor(page: Any, url: str, visit: Visit, timeout: float, start: float, drawn: str) -> None:
    """One visitor, from its arrival: Home, its heavy page, maybe the download."""
    await asyncio.sleep(max(0.0, start + visit.arrival - time.monotonic()))   # the arrival schedule
    try:
        visit.home_seconds = await _browser_page(page, url, visit, "Home", "/", HOME_CHART, timeout)
        if visit.home_seconds is None:
            return
        visit.heavy_seconds = await _browser_page(page, url, visit, visit.kind, visit.link, drawn, timeout)
        if visit.heavy_seconds is not None and visit.download_asked:
            await _download(page, visit, timeout)
    finally:
        _log(visit)


def _log(visit: Visit) -> None:
    print(f"visitor {visit.index + 1:2d} ({visit.kind}): Home {visit.home_seconds} s, heavy page "
          f"{visit.heavy_seconds} s, download {visit.download_seconds} s, problems "
          f"{visit.generic + visit.refusals + visit.failed or 'none'}, download failure {visit.download_failure}",
          file=sys.stderr, flush=True)


async def _download(page: Any, visit: Visit, timeout: float) -> None:
    """Click the sidebar's run download and time it until the file is complete."""
    from playwright.async_api import Error as PlaywrightError

    began = time.monotonic()
    refused: list[str] = []          # what went wrong on the wire while downloading, for the record

    def on_response(response: Any) -> None:
        if response.status >= 400:
            refused.append(f"HTTP {response.status} for {'/'.join(response.url.split('?')[0].rsplit('/', 2)[-2:])}")

    def on_failed(request: Any) -> None:
        refused.append(f"{request.failure} for {'/'.join(request.url.split('?')[0].rsplit('/', 2)[-2:])} "
                       f"after {time.monotonic() - began:.1f} s")

    page.on("response", on_response)
    page.on("requestfailed", on_failed)
    try:
        try:
            async with page.expect_download(timeout=min(timeout, FIRST_CLICK_WAIT_S) * 1000) as started:
                await page.get_by_role("button", name=DOWNLOAD_BUTTON).click(timeout=timeout * 1000)
        except (PlaywrightError, TimeoutError):
            # Streamlit's own race: a rerun of the page (a timeline step reported back) revokes the
            # button's deferred file while the click is on its way ("Deferred file ... not found" in
            # the server's log), and nothing downloads. A visitor clicks again; so does this one, once.
            visit.download_retried = True
            async with page.expect_download(timeout=max(1.0, began + timeout - time.monotonic()) * 1000) as started:
                await page.get_by_role("button", name=DOWNLOAD_BUTTON).click(timeout=timeout * 1000)
        download = await started.value
        path = await asyncio.wait_for(download.path(), timeout=max(1.0, began + timeout - time.monotonic()))
        failure = await download.failure()
    except (PlaywrightError, TimeoutError) as problem:
        said = (str(problem) or "no file within the timeout").splitlines()[0][:200]
        visit.download_failure = said + (f" ({', '.join(refused)})" if refused else "")
        await _check(page, "download", visit)
        return
    finally:
        page.remove_listener("response", on_response)
        page.remove_listener("requestfailed", on_failed)
    if failure or path is None:
        visit.download_failure = (failure or "no file") + (f" ({', '.join(refused)})" if refused else "")
        return
    visit.download_seconds = round(time.monotonic() - began, 2)
    visit.download_megabytes = round(Path(path).stat().st_size / 2**20, 1)
    await _check(page, "download", visit)


def niced_browser(niceness: int, folder: Path) -> str:
    """The browser to launch: Debian's Chromium, or a wrapper that starts it `niceness` lower in CPU
    priority than the server (the visitors' browsers stand in for their own machines: they take the
    cores the server leaves, instead of 30 renderers taking turns with its threads)."""
    if niceness <= 0:
        return CHROMIUM
    wrapper = folder / "chromium-niced"
    # As root, Chromium raises its own browser and compositor threads to nice -8 (a 30-page
    # software compositor then outranks the server); without CAP_SYS_NICE it cannot.
    drop = "setpriv --bounding-set=-sys_nice " if os.geteuid() == 0 and shutil.which("setpriv") else ""
    wrapper.write_text(f'#!/bin/sh\nexec {drop}nice -n {int(niceness)} {CHROMIUM} "$@"\n', encoding="utf-8")
    wrapper.chmod(0o755)
    return str(wrapper)


async def run_class(url: str, visits: list[Visit], drawn: dict[str, str], timeout: float,
                    executable: str = CHROMIUM) -> tuple[str, float]:
    """Every visitor at its arrival time, each in a browser context of its own; all closed at the end.
    Returns (browser version, monotonic time the last tab closed)."""
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            contexts = [await browser.new_context(
                viewport={"width": VIEWPORT["width"], "height": VIEWPORT["height"]}, accept_downloads=True) for _ in visits]
            pages = [await context.new_page() for context in contexts]
            start = time.monotonic()
            tasks = {asyncio.create_task(_visitor(page, url, visit, timeout, start, drawn[visit.kind])): visit
                     for page, visit in zip(pages, visits)}
            # Each visitor's steps have their own timeouts; this bounds the whole class as well.
            last = max(visit.arrival for visit in visits)
            done, pending = await asyncio.wait(tasks, timeout=last + 3 * timeout + 120)
            for task in pending:
                task.cancel()
                tasks[task].failed.append("the class's deadline passed")
            for task in done:
                if task.exception() is not None:
                    raise RuntimeError(f"visitor {tasks[task].index + 1}: {task.exception()!r}")
            for context in contexts:
                await context.close()
            return browser.version, time.monotonic()
        finally:
            await browser.close()



async def probe_home(url: str, visit: Visit, at: float, timeout: float) -> str:
    """One real Chromium visitor (at the scheduler's normal priority) that opens Home `at` (a monotonic
    time) and is timed until Home's first chart is drawn and the script is idle, into `visit.home_seconds`.
    The browser starts before `at`, so its own start-up is not in the number. Returns its version."""
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            context = await browser.new_context(viewport={"width": VIEWPORT["width"], "height": VIEWPORT["height"]})
            page = await context.new_page()
            await asyncio.sleep(max(0.0, at - time.monotonic()))
            visit.home_seconds = await _browser_page(page, url, visit, "Home", "/", HOME_CHART, timeout)
            await context.close()
            return str(browser.version)
        finally:
            await browser.close()


# ---------------------------------------------------------------------------------------------
# Wire visitors


def _wire_page(page: Page, name: str, visit: Visit) -> float | None:
    """Record what `page` showed; its seconds (the drawing's element arrived and the run ended, as a
    browser's drawn-and-idle), or None (and why, in `visit.failed`) when the element never came."""
    print(f"visitor {visit.index + 1:2d} {name}: {page.http_bytes / 2**20:.1f} MB over HTTP in {page.http_seconds:.2f} s, "
          f"{page.messages} messages ({page.ws_bytes / 2**20:.1f} MB) over the websocket", file=sys.stderr, flush=True)
    visit.generic += [f"{name}: {text}" for text in page.exceptions]
    visit.refusals += [f"{name}: {text}" for text in page.errors]
    visit.notices += [f"{name}: {text}" for text in page.warnings]
    if page.marked_seconds is None:
        why = "an error instead of the drawing" if page.exceptions or page.errors else \
            "; ".join(page.problems) or "the run ended without the drawing"
        visit.failed.append(f"{name}: {why}")
        return None
    if page.problems and page.finished_seconds is None:
        visit.failed.append(f"{name}: drawn, then {'; '.join(page.problems)}")
    # Drawn but still running at the deadline: the drawing counts (as for a browser).
    return round(max(page.marked_seconds, page.finished_seconds or 0.0), 2)


async def _wire_visitor(visitor: WireVisitor, visit: Visit, timeout: float, start: float,
                        drawn: Callable[[Element], bool]) -> None:
    """One wire visitor, from its arrival: Home, its heavy page, maybe the download."""
    await asyncio.sleep(max(0.0, start + visit.arrival - time.monotonic()))   # the arrival schedule
    try:
        home = await visitor.open("/", timeline_element, timeout)
        visit.home_seconds = _wire_page(home, "Home", visit)
        if visit.home_seconds is None:
            return
        heavy = await visitor.open(visit.link, drawn, timeout)
        visit.heavy_seconds = _wire_page(heavy, visit.kind, visit)
        if visit.heavy_seconds is not None and visit.download_asked:
            before = set(heavy.exceptions), set(heavy.errors)
            download = await visitor.download(DOWNLOAD_BUTTON, timeout)   # the click's rerun updates `heavy`
            visit.download_retried = download.attempts > 1
            if download.seconds is None or download.size_bytes is None:
                visit.download_failure = download.failure or "no file"
            else:
                visit.download_seconds = round(download.seconds, 2)
                visit.download_megabytes = round(download.size_bytes / 2**20, 1)
            visit.generic += [f"download: {text}" for text in heavy.exceptions if text not in before[0]]
            visit.refusals += [f"download: {text}" for text in heavy.errors if text not in before[1]]
    finally:
        _log(visit)


async def run_wire_class(url: str, visits: list[Visit], drawn: dict[str, Callable[[Element], bool]],
                         timeout: float, probe: Visit | None = None,
                         at_height: Callable[[], None] | None = None) -> tuple[str | None, float]:
    """Every visitor at its arrival time, each a `WireVisitor`; all sessions closed at the end. With
    `probe`, one real Chromium visitor opens Home at `probe.arrival` (seconds after the first arrival).
    `at_height` is called when every visitor is done, before any session closes (every page still open).
    Returns (the probe's browser version, monotonic time the last session closed)."""
    visitors = [WireVisitor(url) for _ in visits]
    start = time.monotonic()
    tasks: dict[asyncio.Task[Any], Visit] = {
        asyncio.create_task(_wire_visitor(visitor, visit, timeout, start, drawn[visit.kind])): visit
        for visitor, visit in zip(visitors, visits)}
    probing = asyncio.create_task(probe_home(url, probe, start + probe.arrival, timeout)) if probe else None
    try:
        last = max(visit.arrival for visit in visits)
        done, pending = await asyncio.wait([*tasks, *([probing] if probing else [])], timeout=last + 3 * timeout + 120)
        for task in pending:
            task.cancel()
            late = tasks.get(task) or probe
            if late is not None:
                late.failed.append("the class's deadline passed")
        for task in done:
            if task.exception() is not None:
                who = f"visitor {tasks[task].index + 1}" if task in tasks else "the probe"
                raise RuntimeError(f"{who}: {task.exception()!r}")
        version = probing.result() if probing is not None and probing in done else None
        if at_height is not None:
            await asyncio.to_thread(at_height)
    finally:
        for visitor in visitors:
            await visitor.close()
    return version, time.monotonic()


async def serves_home(url: str, timeout: float) -> bool:
    """Whether a new wire visitor gets Home's chart element, without an exception, within `timeout` seconds."""
    async with WireVisitor(url) as visitor:
        page = await visitor.open("/", timeline_element, timeout)
    return page.marked_seconds is not None and not page.exceptions
