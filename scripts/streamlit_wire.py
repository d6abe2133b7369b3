"""A visitor that speaks Streamlit 1.67's browser protocol, with almost no CPU of its own: what the
server does for a visitor, without a browser drawing on the server's machine.

    async with WireVisitor("http://127.0.0.1:8501") as visitor:
        page = await visitor.open("/Game_tree?game=leduc", timeline_element, timeout=60)
        download = await visitor.download("Download run (.npz)", timeout=60)

What a browser does, and so this does, on each navigation (a page load: a new session each time):
- HTTP: the page's HTML (`index.html`), on the visitor's first page also the assets that HTML names,
  six at a time (a browser with an empty cache fetches them before any JavaScript runs; they are
  cached for a year after that; the chunks the frontend imports later, e.g. plotly's, about as many
  bytes again on Home, are not fetched here), then `/_stcore/health` (which sets the XSRF cookie
  `_streamlit_xsrf`) and `/_stcore/host-config`; each visitor has its own six HTTP connections;
- the websocket `/_stcore/stream` with the subprotocols the frontend sends, `streamlit` and the
  XSRF cookie's value (its third, a session id to resume, only on a reconnect), the cookie and a
  same-origin `Origin` header, permessage-deflate as Chromium negotiates it;
- one `rerun_script` BackMsg with the ClientState of a first load: the query string, `page_name`
  the URL path without its leading slash ("" for Home), no page script hash yet, no widget states,
  no cached message hashes, the context info (time zone, locale, URL without its query, light
  theme). Streamlit 1.67 serves no cached message over HTTP (there is no `/_stcore/message`): the
  server sends a `ref_hash` reference only for a hash the client listed as cached, and the
  frontend's cache lives in the page, so a page load starts it empty; a `ref_hash` would be
  counted as a problem.
Then it reads ForwardMsgs until the page's script run ends (`script_finished`, other than "early
for a rerun"), noting when the first delta matching a predicate arrived, and sorting what the
finished run left on the page: Streamlit's exception elements (the generic error), the app's
error alerts (`st.error`, a refusal) and warnings. The drawings of this app travel inside the
elements (the timeline's data in the component's bytes, a plotly figure's JSON): no media file.

A download (`download`): the frontend's click on a deferred `st.download_button`: the button's
trigger value in a rerun (unless the button ignores reruns), a `backend_operation_request` for its
deferred file, then an HTTP GET of the URL the answer names (gzip accepted, as Chromium does),
timed until the last byte; the click's rerun is read to its end after that.

Not done (a browser does): running the page's JavaScript (drawing; the timeline reports `t`,
`kind` and clicks back through `setStateValue`/`setTriggerValue` only when the visitor acts, so a
first view sends nothing back), fetching lazily imported frontend chunks, favicon and fonts,
`HEAD` checks of download URLs, and the heartbeat Streamlit answers when a host page asks for one.

Bounded: every wait has a timeout (TimeoutError); loopback URLs only.
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import gzip
import http.client
import http.cookiejar
import re
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urljoin, urlsplit

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.Element_pb2 import Element
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed
from websockets.typing import Origin, Subprotocol

#: The XSRF cookie the frontend reads and sends back as the websocket's second subprotocol.
XSRF_COOKIE = "_streamlit_xsrf"
#: What the frontend sends when there is no XSRF cookie.
NO_TOKEN = "PLACEHOLDER_AUTH_TOKEN"
#: Largest message read (the app sends at most 37 MB; the deploy's cap is 50 MB).
MAX_MESSAGE_BYTES = 64 * 2**20
#: The assets index.html names: script, modulepreload, stylesheet and preloaded font.
ASSET = re.compile(r'<(?:script|link)\b[^>]*?\b(?:src|href)="(\./static/[^"]+)"')
#: HTTP requests one visitor has in flight at most (Chromium's connections per host).
CONNECTIONS = 6
#: The timeline component (cfrviz.app.components.timeline registers it under this name).
TIMELINE = "cfrviz_timeline"
FINISHED = ForwardMsg.ScriptFinishedStatus
EARLY = FINISHED.Value("FINISHED_EARLY_FOR_RERUN")


def timeline_element(element: Element) -> bool:
    """The timeline component's element with its data (what the browser draws Home's first chart from)."""
    return (element.WhichOneof("type") == "bidi_component" and TIMELINE in element.bidi_component.component_name
            and element.bidi_component.WhichOneof("data") is not None)


def plotly_element(element: Element) -> bool:
    """A plotly chart element with its figure."""
    return element.WhichOneof("type") == "plotly_chart" and bool(element.plotly_chart.spec)


@dataclass
class Page:
    """What one navigation got. Seconds from the start of the navigation; None when not reached."""

    path: str
    marked_seconds: float | None = None      # the first delta matching the predicate arrived
    finished_seconds: float | None = None    # the script run ended (and every message before it read)
    exceptions: list[str] = field(default_factory=list)   # Streamlit's exception elements: "Type: message"
    errors: list[str] = field(default_factory=list)       # the app's error alerts (st.error)
    warnings: list[str] = field(default_factory=list)     # the app's warning alerts (st.warning)
    problems: list[str] = field(default_factory=list)     # protocol trouble: a closed socket, a ref_hash
    http_seconds: float = 0.0                # the page's HTML, assets, health and host-config
    http_bytes: int = 0
    ws_bytes: int = 0                        # ForwardMsg bytes received (after permessage-deflate)
    messages: int = 0
    page_script_hash: str = ""


@dataclass
class Download:
    """A click on a deferred download button. Seconds from the click."""

    label: str
    seconds: float | None = None
    size_bytes: int | None = None
    attempts: int = 0
    failure: str | None = None
    body: bytes | None = None                # the file, when asked to keep it


@dataclass
class _Run:
    """The elements of the current script run, by delta path (a later delta at a path replaces the earlier)."""

    elements: dict[tuple[int, ...], Element] = field(default_factory=dict)


class WireVisitor:
    """One visitor: a cookie jar, and one websocket session per page it opens (async context manager)."""

    def __init__(self, base_url: str, *, timezone: str = "UTC", locale: str = "en-US") -> None:
        parts = urlsplit(base_url)
        if parts.hostname not in {"127.0.0.1", "localhost", "::1"}:
            raise ValueError(f"The wire visitor talks to loopback servers only, not {base_url!r}.")
        self.base = base_url.rstrip("/")
        self.timezone, self.locale = timezone, locale
        self.cookies = http.cookiejar.CookieJar()
        # No proxy from the environment: loopback only.
        self._opener = urllib.request.build_opener(urllib.request.ProxyHandler({}),
                                                   urllib.request.HTTPCookieProcessor(self.cookies))
        self._assets_fetched = False
        self._socket: ClientConnection | None = None
        self._reader: asyncio.Task[None] | None = None
        self._inbox: asyncio.Queue[ForwardMsg | BaseException] = asyncio.Queue()
        self._query_string = ""
        self._page_script_hash = ""
        self._run = _Run()
        self._last_finished: dict[tuple[int, ...], Element] = {}
        self._pending: dict[str, asyncio.Future[Any]] = {}
        self._page: Page | None = None
        self._session_id = ""
        self._page_name = ""
        # This visitor's own HTTP connections (not a pool shared with the others), as a browser's.
        self._http: concurrent.futures.ThreadPoolExecutor | None = None

    async def __aenter__(self) -> WireVisitor:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.close()

    async def close(self) -> None:
        """Close the page's websocket (as a tab closing, or leaving the page) and this visitor's HTTP threads."""
        await self._leave()
        if self._http is not None:
            self._http.shutdown(wait=False, cancel_futures=True)
            self._http = None

    async def _leave(self) -> None:
        """Close the page's websocket (the next page load opens another)."""
        if self._socket is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._socket.close(), timeout=10)
            self._socket = None
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(BaseException):
                await self._reader
            self._reader = None

    # ------------------------------------------------------------------ HTTP
    def _get(self, url: str, timeout: float) -> bytes:
        # Chromium accepts gzip, and Streamlit gzips what it may (an .npz download too, on every click).
        request = urllib.request.Request(url, headers={"Accept-Encoding": "gzip"})
        with self._opener.open(request, timeout=timeout) as answer:
            body = bytes(answer.read())
            return gzip.decompress(body) if answer.headers.get("Content-Encoding") == "gzip" else body

    async def fetch(self, url: str, timeout: float) -> bytes:
        """GET `url` (relative to the server) with this visitor's cookies, within `timeout` seconds (TimeoutError)."""
        absolute = urljoin(self.base + "/", url.lstrip("/")) if not url.startswith("http") else url
        if urlsplit(absolute).netloc != urlsplit(self.base).netloc:
            raise ValueError(f"Not this server's URL: {url!r}.")
        # urllib's timeout bounds each socket wait; wait_for bounds the whole body.
        if self._http is None:
            self._http = concurrent.futures.ThreadPoolExecutor(CONNECTIONS, thread_name_prefix="wire-http")
        fetching = asyncio.get_running_loop().run_in_executor(self._http, self._get, absolute, timeout)
        return await asyncio.wait_for(fetching, timeout=timeout)

    def _xsrf(self) -> str:
        return next((cookie.value for cookie in self.cookies if cookie.name == XSRF_COOKIE and cookie.value), NO_TOKEN)

    # ------------------------------------------------------------------ pages
    async def open(self, path: str, mark: Callable[[Element], bool] | None, timeout: float) -> Page:
        """Navigate to `path` (with its query string) as a page load does, and read until the script
        run ends; `mark` picks the element whose arrival is timed. Never raises for what the server
        does: a timeout or a closed socket is written in `Page.problems`."""
        began = time.monotonic()
        deadline = began + timeout
        await self._leave()                      # the previous page's session is left, as on a page load
        page = self._page = Page(path)
        self._run, self._last_finished = _Run(), {}
        split = urlsplit(path)
        self._query_string, self._page_script_hash = split.query, ""
        self._page_name = split.path.lstrip("/")      # "" for Home
        try:
            html = await self.fetch(path, _left(deadline))
            page.http_bytes += len(html)
            if not self._assets_fetched:
                assets = dict.fromkeys(ASSET.findall(html.decode(errors="replace")))
                bodies = await asyncio.gather(*(self.fetch(asset, _left(deadline)) for asset in assets))
                page.http_bytes += sum(len(body) for body in bodies)
                self._assets_fetched = True
            for probe in ("/_stcore/health", "/_stcore/host-config"):
                page.http_bytes += len(await self.fetch(probe, _left(deadline)))
            page.http_seconds = time.monotonic() - began
            ws_url = "ws" + self.base[len("http"):] + "/_stcore/stream"
            cookie = "; ".join(f"{c.name}={c.value}" for c in self.cookies)
            socket = self._socket = await asyncio.wait_for(connect(
                ws_url, subprotocols=[Subprotocol("streamlit"), Subprotocol(self._xsrf())],
                origin=Origin(self.base), additional_headers={"Cookie": cookie} if cookie else None,
                max_size=MAX_MESSAGE_BYTES, proxy=None, open_timeout=_left(deadline)), timeout=_left(deadline))
            self._inbox = asyncio.Queue()        # this page's messages only
            self._reader = asyncio.create_task(self._read(socket, self._inbox))
            await self._send_rerun(widgets=())
            await self._until_finished(page, mark, began, deadline)
        except TimeoutError:
            page.problems.append(f"nothing more within {timeout:g} s")
        except (OSError, urllib.error.URLError, http.client.HTTPException, ConnectionClosed) as failure:
            page.problems.append(f"{type(failure).__name__}: {failure}"[:200])
        self._classify(page)
        return page

    async def _send_rerun(self, widgets: tuple[str, ...]) -> None:
        """A `rerun_script` as the frontend sends it: the page by name until the server has named its
        script, then by that hash; `widgets` are the ids of buttons whose trigger is set."""
        assert self._socket is not None
        back = BackMsg()
        state = back.rerun_script
        state.query_string = self._query_string
        state.page_script_hash = self._page_script_hash
        state.page_name = "" if self._page_script_hash else self._page_name
        for widget_id in widgets:
            widget = state.widget_states.widgets.add()
            widget.id = widget_id
            widget.trigger_value = True
        state.context_info.timezone = self.timezone
        state.context_info.timezone_offset = 0
        state.context_info.locale = self.locale
        state.context_info.url = f"{self.base}/{self._page_name}"     # without the query, as the frontend sends it
        state.context_info.is_embedded = False
        state.context_info.color_scheme = "light"
        await self._socket.send(back.SerializeToString())

    async def _read(self, socket: ClientConnection, inbox: asyncio.Queue[ForwardMsg | BaseException]) -> None:
        """Read every frame as it comes (a browser never leaves the server's send queue waiting)."""
        try:
            async for frame in socket:
                if isinstance(frame, str):
                    raise ValueError("the server sent a text frame")
                msg = ForwardMsg()
                msg.ParseFromString(frame)
                if self._page is not None:
                    self._page.ws_bytes += len(frame)
                    self._page.messages += 1
                if msg.WhichOneof("type") == "backend_operation_response":
                    future = self._pending.pop(msg.backend_operation_response.request_id, None)
                    if future is not None and not future.done():
                        future.set_result(msg.backend_operation_response)
                    continue
                inbox.put_nowait(msg)
            inbox.put_nowait(ConnectionClosed(None, None))
        except (ConnectionClosed, ValueError, OSError) as failure:
            inbox.put_nowait(failure)

    async def _next(self, deadline: float) -> ForwardMsg:
        item = await asyncio.wait_for(self._inbox.get(), timeout=_left(deadline))
        if isinstance(item, BaseException):
            raise item
        return item

    async def _until_finished(self, page: Page, mark: Callable[[Element], bool] | None, began: float,
                              deadline: float) -> None:
        """Handle messages until a script run ends for good (not "early for a rerun")."""
        while True:
            msg = await self._next(deadline)
            kind = msg.WhichOneof("type")
            if kind == "new_session":
                self._run = _Run()
                if msg.new_session.HasField("initialize"):
                    self._session_id = msg.new_session.initialize.session_id
            elif kind == "navigation":              # the page the run resolved (the frontend keeps it)
                self._page_script_hash = page.page_script_hash = msg.navigation.page_script_hash
            elif kind == "page_info_changed":
                self._query_string = msg.page_info_changed.query_string
            elif kind == "ref_hash":
                page.problems.append(f"a cached-message reference ({msg.ref_hash}) this visitor never cached")
            elif kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
                element = msg.delta.new_element
                self._run.elements[tuple(msg.metadata.delta_path)] = element
                if mark is not None and page.marked_seconds is None and mark(element):
                    page.marked_seconds = round(time.monotonic() - began, 3)
            elif kind == "script_finished" and msg.script_finished != EARLY:
                self._last_finished = dict(self._run.elements)
                page.finished_seconds = round(time.monotonic() - began, 3)
                return

    def _classify(self, page: Page) -> None:
        """The generic errors, refusals and warnings the last finished run (else the current one) left."""
        for found in (page.exceptions, page.errors, page.warnings):
            found.clear()
        for element in (self._last_finished or self._run.elements).values():
            kind = element.WhichOneof("type")
            if kind == "exception":
                page.exceptions.append(f"{element.exception.type}: {element.exception.message}"[:300])
            elif kind == "alert" and element.alert.format == element.alert.ERROR:
                page.errors.append(element.alert.body[:300])
            elif kind == "alert" and element.alert.format == element.alert.WARNING:
                page.warnings.append(element.alert.body[:300])

    def elements(self) -> list[Element]:
        """The elements the page's last finished script run left (else the current run's)."""
        return list((self._last_finished or self._run.elements).values())

    # ------------------------------------------------------------------ downloads
    def _button(self, label: str) -> Element | None:
        return next((e for e in reversed(self.elements())
                     if e.WhichOneof("type") == "download_button" and e.download_button.label == label), None)

    async def download(self, label: str, timeout: float, keep: bool = False) -> Download:
        """Click the deferred download button `label` on the open page as the frontend does, then
        fetch the file (kept in `body` with `keep`); once more (as a visitor clicks again) when the
        server could not build it."""
        began = time.monotonic()
        deadline = began + timeout
        result = Download(label)
        page = self._page
        if self._socket is None or page is None:
            result.failure = "no page is open"
            return result
        try:
            for attempt in (1, 2):
                result.attempts = attempt
                button = self._button(label)
                if button is None or not button.download_button.HasField("deferred_file_id"):
                    result.failure = f"no deferred download button {label!r} on the page"
                    return result
                rerun = not button.download_button.ignore_rerun
                if rerun:
                    await self._send_rerun(widgets=(button.download_button.id,))
                answer = await self._deferred(button.download_button.deferred_file_id, deadline)
                if answer.error_msg:
                    result.failure = answer.error_msg
                    if rerun:                    # the button of the click's rerun is the one to click again
                        await self._after_click(page, deadline)
                    continue
                body = await self.fetch(answer.deferred_file.url, _left(deadline))
                result.seconds = round(time.monotonic() - began, 3)
                result.size_bytes = len(body)
                result.body = body if keep else None
                result.failure = None
                if rerun:                        # read to the end of the click's rerun, as a browser draws it
                    await self._after_click(page, deadline)
                return result
        except TimeoutError:
            result.failure = f"no file within {timeout:g} s"
        except urllib.error.HTTPError as failure:
            result.failure = f"HTTP {failure.code} for {failure.url}"
        except (OSError, urllib.error.URLError, http.client.HTTPException, ConnectionClosed) as failure:
            result.failure = f"{type(failure).__name__}: {failure}"[:200]
        finally:
            self._classify(page)
        return result

    async def _after_click(self, page: Page, deadline: float) -> None:
        """Read the click's rerun until it ends (its messages were buffered meanwhile); its timings
        are not the page's."""
        rerun = Page(page.path)
        await self._until_finished(rerun, None, time.monotonic(), deadline)
        page.problems += rerun.problems

    async def _deferred(self, file_id: str, deadline: float) -> Any:
        """Ask the server to build a deferred file; its `BackendOperationResponse`."""
        assert self._socket is not None
        request_id = str(uuid.uuid4())
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending[request_id] = future
        back = BackMsg()
        back.backend_operation_request.request_id = request_id
        back.backend_operation_request.session_id = self._session_id
        back.backend_operation_request.deferred_file.file_id = file_id
        await self._socket.send(back.SerializeToString())
        try:
            return await asyncio.wait_for(future, timeout=_left(deadline))
        finally:
            self._pending.pop(request_id, None)


def _left(deadline: float) -> float:
    """Seconds left until `deadline`; TimeoutError when none."""
    left = deadline - time.monotonic()
    if left <= 0:
        raise TimeoutError
    return left

