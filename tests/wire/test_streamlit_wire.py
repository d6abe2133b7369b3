"""scripts/streamlit_wire.py against a real `streamlit run app.py`: a visitor that speaks Streamlit's
websocket protocol gets what a browser gets, with no browser (scripts/load_class.py's class of wire
visitors rests on it).

References: app.py draws Home's first chart with the timeline component (cfrviz.app.components.timeline,
registered as "cfrviz_timeline"; the cold-start browser test waits on that chart); Compare refuses a
comparison over its node-visit cap with the sentence `cfrviz.app.compare_budget.check_work` raises,
shown escaped (`cfrviz.app.widgets.error`); a run download is the `.npz` of the run the link names
(`cfrviz.run.save_run`, read back with `load_run`). No page of the app raises on purpose, so the
exception element (the generic error) has no test of its own here.
"""
from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest

from tests.support.coroutines import run_apart
from tests.support.server import REPO_ROOT, streamlit_server

sys.path.insert(0, str(REPO_ROOT / "scripts"))

from streamlit_wire import Download, Page, WireVisitor, plotly_element, timeline_element  # noqa: E402

TIMEOUT_S = 240.0


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with streamlit_server() as (base, _process):
        yield base


def _wire_visit(url: str, path: str, mark: object) -> tuple[Page, list[str]]:
    """The page and the element types its finished run left."""
    async def visit() -> tuple[Page, list[str]]:
        async with WireVisitor(url) as visitor:
            page = await visitor.open(path, mark, TIMEOUT_S)  # type: ignore[arg-type]
            return page, [str(e.WhichOneof("type")) for e in visitor.elements()]
    return run_apart(visit)


def test_home_sends_the_timeline_element_and_no_exception(url: str) -> None:
    page, kinds = _wire_visit(url, "/", timeline_element)
    assert page.problems == [], page.problems
    assert page.marked_seconds is not None, f"no timeline element; the page sent {kinds}"
    assert page.finished_seconds is not None and page.finished_seconds >= page.marked_seconds
    assert page.exceptions == [] and page.errors == [], (page.exceptions, page.errors)
    assert page.page_script_hash, "the server named the page's script (navigation)"


def test_a_compare_link_over_the_cap_gets_the_apps_one_sentence_error(url: str) -> None:
    from cfrviz import catalog
    from cfrviz.app.compare_budget import check_work
    from cfrviz.app.links import page_setting, parse_query_params
    from cfrviz.solving.compare import DEFAULT_REPEATS, DEFAULT_SEEDS, Entry, plan
    from cfrviz.util.text import escape_markdown

    # The page's default algorithms and schemes on Leduc at 25,000 iterations, the sidebar's run drawn
    # too (what the link below asks for): check_work's own sentence is the reference.
    iterations = catalog.lookup("leduc").app_iteration_cap
    algorithms, updates = page_setting("cmp_algos").default, page_setting("cmp_updates").default
    assert isinstance(algorithms, tuple) and isinstance(updates, tuple)
    shown = parse_query_params({"game": "leduc"}).choice
    sidebar = Entry(str(shown.algorithm), str(shown.updates), shown.iterations, (shown.seed,), sidebar=True)
    entries, _ = plan([str(a) for a in algorithms], [str(u) for u in updates], iterations, iterations, DEFAULT_SEEDS)
    with pytest.raises(ValueError) as refused:
        check_work([*entries, sidebar], catalog.lookup("leduc").tree().num_nodes, DEFAULT_REPEATS)

    page, kinds = _wire_visit(url, f"/Compare?game=leduc&cmp_iters={iterations}&cmp_sampling_iters={iterations}",
                        plotly_element)
    assert page.problems == [] and page.finished_seconds is not None, page.problems
    assert page.errors == [escape_markdown(str(refused.value))], page.errors
    assert page.exceptions == [], page.exceptions
    assert page.marked_seconds is None and "plotly_chart" not in kinds, "nothing is drawn for a refused comparison"


def test_a_click_on_the_run_download_gets_the_runs_file_and_stays_on_the_page(url: str) -> None:
    from cfrviz.run import load_run

    async def visit() -> tuple[Page, str, Download, list[str]]:
        async with WireVisitor(url) as visitor:
            page = await visitor.open("/Game_tree?game=kuhn&algo=cfr&iters=200", timeline_element, TIMEOUT_S)
            before = page.page_script_hash
            download = await visitor.download("Download run (.npz)", TIMEOUT_S, keep=True)
            headings = [e.heading.body for e in visitor.elements() if e.WhichOneof("type") == "heading"]
            return page, before, download, headings

    page, before, download, headings = run_apart(visit)
    assert page.problems == [] and page.exceptions == [], (page.problems, page.exceptions)
    assert download.failure is None, download
    body = download.body
    assert body is not None and download.size_bytes == len(body)
    run = load_run(body)
    assert int(run.iterations[-1]) == 200, run.iterations
    # The click's rerun (the button's trigger) ran the same page again, as in a browser.
    assert page.page_script_hash == before and "Game tree" in headings, headings


def test_the_wire_visitor_refuses_a_server_that_is_not_on_loopback() -> None:
    with pytest.raises(ValueError, match="loopback"):
        WireVisitor("http://example.org:8501")
