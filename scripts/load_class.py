"""A class at once: many visitors open the app within a short window, each on a heavy page.

    python scripts/load_class.py [--visitors 30] [--arrival 30] [--clients wire|browser] [--probe]
                                 [--timeout 600] [--json FILE]

What it does, in order:
1. Starts the server exactly as deployed: `bash scripts/deploy.sh warm` (as the Dockerfile does at
   build time), then `bash scripts/deploy.sh serve` with its memory settings, on 127.0.0.1 and a free
   port, tracebacks hidden from visitors, numba's cache where deploy.sh puts it (NUMBA_CACHE_DIR,
   default `.numba-cache/`), under an address-space cap (`--address-space`, 3 GB as the tests'
   deployed server; 0 for none). It waits for `/_stcore/health` and the server's "page modules
   loaded" line (its last start-up step, after the kernels and the pinned first views), then takes
   the idle memory: the server's resident memory (VmRSS of itself and every process below it,
   /proc), the median of 3 s of samples.
2. `--visitors` visitors arrive evenly spread over `--arrival` seconds (a class clicking a shared
   link), by one of two clients (scripts/class_visitors.py):
   - `--clients wire` (the default): each visitor speaks Streamlit's websocket protocol and fetches
     what a page load fetches over HTTP (scripts/streamlit_wire.py), with no browser: in a real
     class every browser runs on its student's own laptop, so this measures what the SERVER does
     for the class. A page is timed until the element its drawing comes from (the timeline
     component's data, Compare's plotly figure) has arrived and its script run has ended; the
     visitor's own drawing (a browser's few hundred ms) is not in it. With `--probe`, one real
     Chromium visitor at normal priority, started before the class, opens Home when the last
     visitor arrives (every one is in flight then) and is timed until the chart is on screen:
     the end-to-end number for one visitor whose browser does not compete with the others;
   - `--clients browser`: each visitor is a browser context of its own in ONE headless Chromium
     (Debian's /usr/bin/chromium, driven by Playwright) on the same machine as the server:
     contexts share no cookies or storage, and each page still gets its own renderer process;
     with 30 visitors the renderers starve the server (load average ~51), so the numbers are
     mostly the browsers' (`--browser-nice` lowers their priority).
   Each visitor
   - opens Home (`/`) and times it until Home's first chart (its exploitability on the browser
     timeline, `.tl svg.tl-chart`) is drawn (browser) or its element has arrived (wire);
   - then opens one heavy page, round robin over HEAVY_PAGES: a locked Leduc Game tree at the
     iteration cap, Compare at its cap (the page's default algorithms, iterations raised until the
     comparison is just under its node-visit cap), Best response on Leduc at the cap, the Walkthrough
     of Leduc with vanilla CFR at its last iteration, Play on Liar's dice (one 5-sided die) at its
     cap; timed until its drawing (timeline or plotly chart) is on screen and the script is idle
     (browser), or as Home (wire).
     Unless `--shared-links`, every visitor's heavy link differs a little (one iteration less per
     round of the mix), so each asks for a computation of its own: the worst case for the server;
   - every `--download-every`-th visitor whose heavy page has a solved run clicks the sidebar's
     "Download run (.npz)" and is timed until the file is complete (a wire visitor does what the
     frontend does: the button's rerun, the request for its deferred file, the HTTP GET).
   Every page is checked for errors, counted apart:
   - generic error: Streamlit's exception element (`stException`; as deployed it reads "This app
     has encountered an error...") - an uncaught exception on the server (wire: an `exception`
     element in the page's finished run);
   - refusal: the app's own error box with one sentence (`st.error`), e.g. "too much work";
   - failed: a page with nothing drawn within `--timeout` seconds (or an error instead), or a page
     or the browser that crashed;
   - a download that did not complete (what Chromium or the server said, and any HTTP error).
   The server log's exception types (MemoryError, ...) are counted too.
3. Memory is sampled every 0.5 s from before the first arrival to the end (the peak). When every
   visitor is done, all contexts and the browser (wire: all websockets) are closed, and the memory is read 60 s after the
   last tab closed: a measured interval (the deploy keeps a closed tab's session 20 s and reaps
   every 5 s), not a wait for the app. With CFRVIZ_MEMORY_REPORT=1 in the environment the server
   writes to its log what it holds at start and once the class has gone (`cfrviz.app.serve`):
   where the memory is, and every array of 1 MB or more with what keeps it.
4. Prints one markdown table (timings p50 / p95 / worst by nearest rank, memory, errors, host facts
   and the targets of the issue "A class at once"), and with `--json FILE` writes the numbers.

It only measures: the exit status is 0 whatever the app does, 1 when the harness itself failed
(the server did not start, the browser did not launch). Bounded: loopback only, every wait has a
timeout, the whole class has a deadline, and the server's process group is ended in a `finally`.
Latencies are upper bounds: the visitors and the server share the machine's cores, so the load
average is printed beside them. tests/browser/test_class_load.py runs this with 10 wire visitors
and the probe.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from streamlit.proto.Element_pb2 import Element

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cfrviz.app.serve import REPORT_SIGNAL, memory_report_asked  # noqa: E402
from class_visitors import Visit, niced_browser, run_class, run_wire_class, serves_home  # noqa: E402
from streamlit_wire import plotly_element, timeline_element  # noqa: E402
from tests.support.memory import RssSampler, descendants, rss_megabytes  # noqa: E402
from tests.support.server import deployed_server, healthy, wait_for_log_line  # noqa: E402

#: The server log's exception lines (the last line of each traceback).
EXCEPTION_LINE = re.compile(r"^([A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt))\b(?::|$)")
#: Terminal colour codes: Streamlit prints a script's traceback through rich, in colour, even to a file.
ANSI_CODE = re.compile(r"\x1b\[[0-9;]*m")
#: What a page's seconds mean, by client (the table says it).
CLIENT_SAID = {
    True: "Wire visitors: a page is timed until the element its drawing comes from (the timeline's data, "
          "Compare's figure) has arrived and its script run has ended: the server's part of a first chart, "
          "without the visitor's own drawing.",
    False: "Browser visitors: a page is timed until its drawing is on screen and the script is idle.",
}
#: The targets of the issue "A class at once", for the table's last column.
TARGETS = {"home_p95": 5.0, "home_worst": 10.0, "peak_mb": 1536.0, "back_mb": 200.0}
IDLE_SECONDS = 3.0
AFTER_CLOSE_SECONDS = 60.0
SAMPLE_INTERVAL = 0.5
#: Seconds a new visitor's Home may take once the class has gone (the server's real liveness check).
END_CHECK_SECONDS = 60.0


@dataclass(frozen=True)
class Heavy:
    """One kind of heavy page: its name in the table, its path, what marks it drawn, whether it has a run to download."""

    kind: str
    path: str
    drawn: str                                  # for a browser: the CSS of the drawing
    element: Callable[[Element], bool]          # for a wire visitor: the element it is drawn from
    has_run: bool


LIARS_DICE = "openspiel:liars_dice(numdice=1,dice_sides=5)"


def _many(name: str) -> tuple[str, ...]:
    """The default of a page setting that holds several values (Compare's algorithms, its schemes)."""
    from cfrviz.app.links import page_setting

    default = page_setting(name).default
    assert isinstance(default, tuple), name
    return default


def compare_at_cap() -> dict[str, str]:
    """Compare's own settings for Leduc just under its node-visit cap: the page's default algorithms
    and update schemes, its default seeds and timed solves, the sidebar's run drawn too, and the
    largest iteration count (in hundreds, the same for sampling) that `check_work` still accepts."""
    from cfrviz import catalog
    from cfrviz.app.links import parse_query_params
    from cfrviz.app.compare_budget import check_work
    from cfrviz.solving.compare import DEFAULT_REPEATS, DEFAULT_SEEDS, Entry, plan

    game = catalog.lookup("leduc")
    nodes = game.tree().num_nodes
    algorithms = [str(a) for a in _many("cmp_algos")]
    updates = [str(u) for u in _many("cmp_updates")]
    link = {"game": "leduc"}
    shown = parse_query_params(link).choice          # the sidebar's run on the page, drawn too by default
    sidebar = Entry(str(shown.algorithm), str(shown.updates), shown.iterations, (shown.seed,), sidebar=True)

    def accepted(iterations: int) -> bool:
        entries, _ = plan(algorithms, updates, iterations, iterations, DEFAULT_SEEDS)
        try:
            check_work([*entries, sidebar], nodes, DEFAULT_REPEATS)
        except ValueError:
            return False
        return True

    iterations = 100
    while iterations + 100 <= game.app_iteration_cap and accepted(iterations + 100):
        iterations += 100
    return {**link, "cmp_algos": ",".join(algorithms), "cmp_updates": ",".join(updates),
            "cmp_iters": str(iterations), "cmp_sampling_iters": str(iterations)}


def heavy_pages() -> tuple[list[Heavy], dict[str, int]]:
    """The mix in round-robin order, and the caps its paths are filled with (`{cap}` Leduc's
    iterations, `{dice}` Liar's dice's, `{walk}` the Walkthrough's last iteration on Leduc, `{cmp}`
    Compare's iterations just under its node-visit cap)."""
    from cfrviz import catalog

    cap = catalog.lookup("leduc").app_iteration_cap
    dice_cap = catalog.lookup(LIARS_DICE).app_iteration_cap
    walk_cap = catalog.lookup("leduc").walkthrough_iteration_cap
    compare = compare_at_cap()
    compare_link = urlencode({**compare, "cmp_iters": "{cmp}", "cmp_sampling_iters": "{cmp}"}).replace(
        "%7Bcmp%7D", "{cmp}")
    tree = ".tl-tree svg"
    return [
        Heavy("locked Leduc Game tree",
              "/Game_tree?game=leduc&algo=cfr%2B&iters={cap}&updates=alternating&lock=J%3D0%2C1", tree,
              timeline_element, True),
        Heavy("Compare at its cap", f"/Compare?{compare_link}", ".js-plotly-plot svg.main-svg", plotly_element, False),
        Heavy("Best response", "/Best_response?game=leduc&algo=dcfr&iters={cap}&updates=alternating", tree,
              timeline_element, True),
        Heavy("Walkthrough", "/Walkthrough?walk_game=leduc&walk_algo=cfr&walk_updates=simultaneous&walk_t={walk}",
              ".tl-walk .tl-tree svg", timeline_element, False),
        Heavy("Play on Liar's dice", "/Play?" + urlencode({"game": LIARS_DICE, "algo": "cfr+", "iters": "{dice}"})
              .replace("%7Bdice%7D", "{dice}"), tree, timeline_element, True),
    ], {"cap": cap, "dice": dice_cap, "walk": walk_cap, "cmp": int(compare["cmp_iters"])}



def nearest_rank(values: Sequence[float], percent: float) -> float | None:
    """The `percent` percentile by nearest rank (a value that occurred), None for no values."""
    ordered = sorted(values)
    if not ordered:
        return None
    return ordered[max(1, math.ceil(percent / 100 * len(ordered))) - 1]


def host_facts() -> dict[str, Any]:
    """What the numbers depend on: cores, CPU model, memory, the commit measured."""
    cpuinfo = Path("/proc/cpuinfo").read_text()
    model = next((line.split(":", 1)[1].strip() for line in cpuinfo.splitlines() if line.startswith("model name")),
                 "unknown")
    total_kb = next((int(line.split()[1]) for line in Path("/proc/meminfo").read_text().splitlines()
                     if line.startswith("MemTotal:")), 0)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                            timeout=10).stdout.strip() or "unknown"
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT, capture_output=True,
                           text=True, timeout=10).stdout.strip()
    return {"nproc": os.cpu_count(), "cores_usable": len(os.sched_getaffinity(0)), "cpu_model": model,
            "memory_gb": round(total_kb / 2**20, 1), "commit": commit + ("+changes" if dirty else ""),
            "date_utc": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")}


def log_exceptions(log_path: Path) -> dict[str, int]:
    """Exception types in the server's log, counted (the last line of each traceback)."""
    if not log_path.is_file():
        return {}
    text = ANSI_CODE.sub("", log_path.read_text(errors="replace"))
    return dict(Counter(match.group(1) for line in text.splitlines() if (match := EXCEPTION_LINE.match(line))))


def own_megabytes(pid: int) -> float:
    """VmRSS of `pid` plus the private memory (USS: Private_Clean + Private_Dirty) of every process
    below it, MB: the libraries the server and its solve workers both map counted once, where the
    VmRSS sum counts them in every worker (about 96 MB each). Unlike Pss it does not depend on
    other programs on the host that map the same files."""
    total_kb = 0.0
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            total_kb += int(line.split()[1])
    for process in descendants(pid):
        try:
            for line in Path(f"/proc/{process}/smaps_rollup").read_text().splitlines():
                if line.startswith(("Private_Clean:", "Private_Dirty:")):
                    total_kb += int(line.split()[1])
        except (OSError, ValueError):
            pass
    return total_kb / 1024


class OwnSampler(RssSampler):
    """`RssSampler`'s schedule and phases, sampling `own_megabytes`."""

    def run(self) -> None:
        while not self.stop.is_set():
            try:
                megabytes = own_megabytes(self.pid)
            except (OSError, ValueError):
                megabytes = 0.0         # the server has ended
            self.samples.append((time.monotonic() - self.start_time, self.phase, megabytes))
            self.stop.wait(self.interval)


def report_at_height(pid: int, log_path: Path, timeout: float) -> None:
    """Ask the server for its memory report (cfrviz.app.serve.REPORT_SIGNAL) while every visitor's
    pages are open, and wait until the report's list of large arrays is in its log."""
    before = log_path.read_text(errors="replace").count("large arrays and byte strings:")
    os.kill(pid, REPORT_SIGNAL)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if log_path.read_text(errors="replace").count("large arrays and byte strings:") > before:
            return
        time.sleep(0.5)         # polling a file another process writes: a bounded wait on a condition
    print("the server wrote no memory report at the class's height", file=sys.stderr)


def measure(options: argparse.Namespace) -> dict[str, Any]:
    """Start the server, run the class, and return every number (what --json writes)."""
    kinds, fill = heavy_pages()
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    log_path = ROOT / "test-results" / f"load-class-{stamp}-{os.getpid()}.log"
    visits: list[Visit] = []
    with_run = 0
    for i in range(options.visitors):
        heavy = kinds[i % len(kinds)]
        step = 0 if options.shared_links else i // len(kinds)
        link = heavy.path.format(cap=fill["cap"] - step, dice=fill["dice"] - step, walk=fill["walk"] - step,
                                 cmp=fill["cmp"] - 100 * step)
        asked = False
        if heavy.has_run:
            asked = options.download_every > 0 and with_run % options.download_every == 0
            with_run += 1
        arrival = round(options.arrival * i / max(1, options.visitors - 1), 2)
        visits.append(Visit(i, heavy.kind, link, arrival, asked))
    drawn = {heavy.kind: heavy.drawn for heavy in kinds}
    elements = {heavy.kind: heavy.element for heavy in kinds}
    # The probe opens Home at the class's peak: when the last visitor arrives, every one is in flight.
    probe = Visit(-1, "probe", "/", visits[-1].arrival, False) if options.probe else None

    # The server imports this checkout's code whatever the caller's environment.
    env = {"PYTHONPATH": os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])}
    print("deploy.sh warm (compiles the kernels into numba's cache unless they are there)...", file=sys.stderr)
    subprocess.run(["bash", str(ROOT / "scripts" / "deploy.sh"), "warm"], cwd=ROOT,
                   env={**os.environ, "PYTHON": sys.executable, **env},
                   check=True, timeout=options.timeout + 600, stdout=subprocess.DEVNULL)
    address_space = int(options.address_space * 2**30) if options.address_space > 0 else None
    result: dict[str, Any] = {"visitors": options.visitors, "arrival_seconds": options.arrival,
                              "timeout_seconds": options.timeout, "shared_links": options.shared_links,
                              "download_every": options.download_every, "address_space_gb": options.address_space,
                              "browser_nice": options.browser_nice, "clients": options.clients,
                              "server_log": str(log_path), "host": host_facts()}
    with deployed_server(address_space, env, health_timeout=180.0, log_path=log_path, process_group=True) \
            as (url, process):
        wait_for_log_line(log_path, "page modules loaded", process, timeout=options.timeout)
        sampler = RssSampler(process.pid, SAMPLE_INTERVAL)
        shared_once = OwnSampler(process.pid, SAMPLE_INTERVAL)
        try:
            sampler.phase = shared_once.phase = "idle"
            sampler.start()
            shared_once.start()
            time.sleep(IDLE_SECONDS)              # the idle reading is a median over this interval
            idle = statistics.median(sampler.megabytes("idle") or [rss_megabytes(process.pid)])
            result["load_average_start"] = list(os.getloadavg())
            sampler.phase = shared_once.phase = "class"
            print(f"{options.visitors} visitors arriving over {options.arrival:g} s at {url}", file=sys.stderr)
            if options.clients == "wire":
                cpu = time.process_time()
                browser_version, closed = asyncio.run(run_wire_class(
                    url, visits, elements, options.timeout, probe,
                    at_height=(lambda: report_at_height(process.pid, log_path, options.timeout))
                    if memory_report_asked() else None))
                # The wire visitors' own cost: this process's CPU (the server and the probe's browser are others).
                result["client_cpu_seconds"] = round(time.process_time() - cpu, 1)
            else:
                with tempfile.TemporaryDirectory(prefix="cfrviz-class-") as folder:
                    executable = niced_browser(options.browser_nice, Path(folder))
                    browser_version, closed = asyncio.run(run_class(url, visits, drawn, options.timeout, executable))
            sampler.phase = shared_once.phase = "after"
            at_close = rss_megabytes(process.pid)
            # The measurement's own interval: memory 60 s after the last tab closed.
            time.sleep(max(0.0, closed + AFTER_CLOSE_SECONDS - time.monotonic()))
            after = rss_megabytes(process.pid)
            result["load_average_end"] = list(os.getloadavg())
            result["server_alive"] = process.poll() is None and healthy(url)
            # /_stcore/health answers "ok" even when Streamlit's message loop has died (seen with
            # 30 visitors: an EncodeError under the address-space cap); a new visitor tells.
            result["serves_home_at_end"] = result["server_alive"] and asyncio.run(serves_home(url, END_CHECK_SECONDS))
        finally:
            for thread in (sampler, shared_once):
                thread.stop.set()
                thread.join(timeout=5)
    if options.clients == "wire":
        result["browser"] = ("wire clients (scripts/streamlit_wire.py: Streamlit's websocket protocol and the page "
                             f"load's HTTP, no browser; {result['client_cpu_seconds']:g} s of CPU for all of them)"
                             + (f"; probe: Chromium {browser_version}" if probe else ""))
    else:
        result["browser"] = (f"Chromium {browser_version} (one browser, one context per visitor"
                             + (f", at nice {options.browser_nice}" if options.browser_nice > 0 else "") + ")")
    result["probe"] = asdict(probe) if probe is not None else None
    everything = sampler.megabytes()
    result["memory_mb"] = {"idle": round(idle), "peak": round(max(everything)), "at_last_close": round(at_close),
                           "after_60s": round(after), "after_60s_minus_idle": round(after - idle),
                           "own_idle": round(statistics.median(shared_once.megabytes("idle") or [0.0])),
                           "own_peak": round(max(shared_once.megabytes() or [0.0]))}
    result["server_log_exceptions"] = log_exceptions(log_path)
    result["visits"] = [asdict(v) for v in visits]
    result["heavy_kinds"] = [heavy.kind for heavy in kinds]
    return result


def _seconds(value: float | None) -> str:
    return "–" if value is None else f"{value:.1f}"


def _row(name: str, values: list[float], expected: int, target: str = "", missing_word: str = "not drawn") -> str:
    missing = expected - len(values)
    counted = f"{len(values)}" + (f" ({missing} {missing_word})" if missing else "")
    return (f"| {name} | {_seconds(nearest_rank(values, 50))} | {_seconds(nearest_rank(values, 95))} | "
            f"{_seconds(max(values) if values else None)} | {counted} | {target} |")


def downloads_said(every: int) -> str:
    """Which visitors download their run, in words."""
    if every <= 0:
        return "no run downloads"
    which = "every visitor" if every == 1 else f"one in {every} of the visitors"
    return f"run downloads by {which} whose heavy page has a run"


def table(result: dict[str, Any]) -> str:
    """The markdown the script prints."""
    visits = result["visits"]
    host, memory = result["host"], result["memory_mb"]
    homes = [v["home_seconds"] for v in visits if v["home_seconds"] is not None]
    downloads = [v["download_seconds"] for v in visits if v["download_seconds"] is not None]
    home_p95, home_worst = nearest_rank(homes, 95), max(homes) if homes else None
    generic = [v for v in visits if v["generic"]]
    refused = [v for v in visits if v["refusals"]]
    failed = [v for v in visits if v["failed"]]

    def met(ok: bool) -> str:
        return "met" if ok else "**not met**"

    wire = result.get("clients", "browser") == "wire"
    cap = f"{result['address_space_gb']:g} GB address-space cap" if result["address_space_gb"] > 0 else "no cap"
    lines = [
        f"### A class at once: {result['visitors']} visitors arriving over {result['arrival_seconds']:g} s",
        "",
        f"cfrviz {host['commit']}, {host['date_utc']}. Host: {host['nproc']} CPUs ({host['cpu_model']}), "
        f"{host['memory_gb']} GB RAM; load average (1, 5, 15 min) "
        f"{', '.join(f'{x:.1f}' for x in result['load_average_start'])} at the first arrival, "
        f"{', '.join(f'{x:.1f}' for x in result['load_average_end'])} at the end. Server: `deploy.sh serve` on "
        f"127.0.0.1 ({cap}). Visitors: {result['browser']}, on the same machine. {CLIENT_SAID[wire]} "
        f"Heavy links: {'shared by visitors of a kind' if result['shared_links'] else 'one computation per visitor'}; "
        f"{downloads_said(result['download_every'])}. Seconds from the "
        "start of each navigation; p50/p95 by nearest rank.",
        "",
        f"| seconds ({'wire visitors' if wire else 'browser visitors'}) | p50 | p95 | worst | visitors | target |",
        "|---|---:|---:|---:|---|---|",
        _row("Home's first chart", homes, len(visits),
             f"p95 ≤ {TARGETS['home_p95']:g} s, worst ≤ {TARGETS['home_worst']:g} s: "
             + met(home_p95 is not None and home_p95 <= TARGETS["home_p95"] and len(homes) == len(visits)
                   and home_worst is not None and home_worst <= TARGETS["home_worst"])),
    ]
    probe = result.get("probe")
    if probe is not None:
        seconds = probe["home_seconds"]
        said = "; ".join(probe["generic"] + probe["refusals"] + probe["failed"]).replace("|", "/")[:200]
        lines.append(f"| Home's first chart in one real browser (the probe: Chromium at normal priority, opening "
                     f"Home {probe['arrival']:g} s after the first arrival) | | | {_seconds(seconds)} | 1"
                     f"{' (not drawn)' if seconds is None else ''} | {said} |")
    for kind in result["heavy_kinds"]:
        of_kind = [v for v in visits if v["kind"] == kind]
        if of_kind:
            lines.append(_row(kind, [v["heavy_seconds"] for v in of_kind if v["heavy_seconds"] is not None],
                              len(of_kind)))
    asked = [v for v in visits if v["download_asked"]]
    sizes = sorted({v["download_megabytes"] for v in asked if v["download_megabytes"] is not None})
    lines.append(_row("run download (.npz" + (f", {sizes[0]:g} to {sizes[-1]:g} MB)" if sizes else ")"),
                      downloads, len(asked), missing_word="failed"))
    peak_ok = memory["peak"] <= TARGETS["peak_mb"]
    back_ok = memory["after_60s_minus_idle"] <= TARGETS["back_mb"]
    exceptions = ", ".join(f"{name} ×{count}" for name, count in sorted(result["server_log_exceptions"].items()))
    lines += [
        "",
        "| server memory (VmRSS, itself and its children) | MB | target |",
        "|---|---:|---|",
        f"| idle (kernels, first views and page modules loaded, before the first visitor) | {memory['idle']:,} | |",
        f"| peak during the class | {memory['peak']:,} | ≤ {TARGETS['peak_mb']:,.0f}: {met(peak_ok)} |",
        f"| the same, the workers' shared libraries counted once (server VmRSS + children's private): "
        f"idle, peak | {memory.get('own_idle', 0):,}, {memory.get('own_peak', 0):,} | |",
        f"| when the last tab closed | {memory['at_last_close']:,} | |",
        f"| 60 s after the last tab closed | {memory['after_60s']:,} ({memory['after_60s_minus_idle']:+,} on idle) | "
        f"within {TARGETS['back_mb']:g} of idle: {met(back_ok)} |",
        "",
        "| visitors with | count | target |",
        "|---|---:|---|",
        f"| the generic error (Streamlit's exception element) | {len(generic)} of {len(visits)} | none: "
        f"{met(not generic)} |",
        f"| a one-sentence refusal (the app's error box) | {len(refused)} of {len(visits)} | |",
        f"| a page not drawn (within {result['timeout_seconds']:g} s, or an error instead) | "
        f"{len(failed)} of {len(visits)} | |",
        f"| a run download that did not complete | {len(asked) - len(downloads)} of {len(asked)} | |",
        f"| a run download that needed a second click | {sum(1 for v in asked if v.get('download_retried'))} of "
        f"{len(asked)} | |",
        f"| exceptions in the server log | {exceptions or 'none'} | |",
        f"| server alive and healthy at the end | {'yes' if result['server_alive'] else '**no**'} | |",
        f"| a new (wire) visitor gets Home's chart after the class, within {END_CHECK_SECONDS:g} s | "
        f"{'yes' if result.get('serves_home_at_end') else '**no**'} | |",
        "",
        "| visitor | arrives, s | heavy page | Home chart, s | heavy page, s | download, s | problems |",
        "|---:|---:|---|---:|---:|---:|---|",
    ]
    for v in visits:
        download_failure = [f"download: {v['download_failure']}"] if v["download_failure"] else []
        problems = "; ".join(v["generic"] + v["refusals"] + v["failed"] + download_failure).replace("|", "/")[:300]
        download = _seconds(v["download_seconds"]) if v["download_asked"] else ""
        lines.append(f"| {v['index'] + 1} | {v['arrival']:.1f} | {v['kind']} | {_seconds(v['home_seconds'])} | "
                     f"{_seconds(v['heavy_seconds'])} | {download} | {problems} |")
    notices = sorted({n for v in visits for n in v["notices"]})
    if notices:
        lines += ["", "Warnings on screen (a link value read otherwise): " + "; ".join(notices)[:600]]
    lines += ["", f"Server log: {result['server_log']}"]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--visitors", type=int, default=30, help="visitors in the class (1-60)")
    parser.add_argument("--arrival", type=float, default=30.0,
                        help="seconds over which the visitors arrive, evenly spread (a class clicking a shared link)")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds any one page or download may take")
    parser.add_argument("--download-every", type=int, default=2,
                        help="every Nth visitor whose heavy page has a run downloads it (0: none)")
    parser.add_argument("--shared-links", action="store_true",
                        help="visitors of one kind open the same heavy link (default: each its own computation)")
    parser.add_argument("--address-space", type=float, default=3.0,
                        help="the server's address-space cap in GB, as the tests' deployed server (0: none)")
    parser.add_argument("--clients", choices=("wire", "browser"), default="wire",
                        help="wire: visitors speak Streamlit's websocket protocol, no browser (what the server does "
                             "for visitors on machines of their own); browser: a Chromium context each, here")
    parser.add_argument("--probe", action="store_true",
                        help="with --clients wire: one real Chromium visitor opens Home when the last visitor arrives")
    parser.add_argument("--browser-nice", type=int, default=0,
                        help="--clients browser: start the browser this much lower in CPU priority than the server "
                             "(0-19; 0: the same)")
    parser.add_argument("--json", type=Path, help="also write every number to this file")
    options = parser.parse_args(argv)
    if not 1 <= options.visitors <= 60 or options.arrival < 0 or options.timeout <= 0 or options.download_every < 0 \
            or not 0 <= options.browser_nice <= 19:
        parser.error("visitors 1-60, arrival ≥ 0, timeout > 0, download-every ≥ 0, browser-nice 0-19")
    if options.probe and options.clients != "wire":
        parser.error("--probe goes with --clients wire (with browsers, every visitor is one)")
    # A plain SIGTERM would skip the `finally` that stops the server.
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(f"stopped by signal {signum}"))
    try:
        result = measure(options)
    except (RuntimeError, OSError, subprocess.SubprocessError) as failure:
        print(f"load_class: the harness failed: {failure}", file=sys.stderr)
        return 1
    print(table(result))
    if options.json is not None:
        options.json.write_text(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
