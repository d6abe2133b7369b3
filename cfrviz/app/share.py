"""The sidebar's Share box: the link to this view, the run's downloads, and the uploader."""
from __future__ import annotations

import functools
import os
from collections.abc import Callable
from urllib.parse import urlsplit

import streamlit as st

from cfrviz.app import share_box
from cfrviz.app.download_files import run_file_bytes
from cfrviz.app.solving import shared_run
from cfrviz.app.state import LIVE_UPLOADS, NODE_KEY, NOTICE_KEY, T_KEY, UPLOAD_KEY, UPLOAD_NAME_KEY, W, View, adopt_game
from cfrviz.run import Run, export_strategy
from cfrviz.run.uploads import MAX_UPLOAD_MB

def share(view: View) -> None:
    share_box.forget()   # a box from an earlier run is not this run's
    with st.sidebar:
        st.subheader("Share")
        if view.uploaded:
            st.caption("You are viewing an uploaded run; a link cannot carry it.")
        elif view.choice.game_param is None:
            st.caption("A link cannot carry your uploaded game; download the run to keep it.")
        else:
            st.caption("Link to this view (copy button on the right):")
            share_box.draw(_page_url(), view.params)
        if view.run is not None:
            try:
                # Callables: the bytes are built only when clicked (compressing a Leduc run at the
                # cap took about 2 s of CPU, which every rerun used to pay).
                source = _run_source(view)
                st.download_button("Download run (.npz)", data=functools.partial(_run_bytes, source),
                                   file_name=f"cfrviz_{_file_stem(view)}_{view.settings.algorithm}.npz",
                                   # An .npz is a zip file: said so, the server sends it as it is
                                   # (Streamlit gzips octet-streams again, for nothing, under load).
                                   mime="application/zip", on_click="ignore", key=W + "dl_run")
                st.download_button("Download average strategy (.json)",
                                   data=functools.partial(_strategy_json, source),
                                   file_name=f"cfrviz_{_file_stem(view)}_strategy.json",
                                   mime="application/json", on_click="ignore", key=W + "dl_json")
            except (AttributeError, NotImplementedError):
                st.caption("Downloads need `save_run` and `export_strategy`.")
        st.file_uploader(f"View a saved run (.npz) or strategy (.json), up to {MAX_UPLOAD_MB} MB, "
                         "or solve your own game (Gambit .efg, up to 1 MB)",
                         type=["npz", "json", "efg"], key=W + "upload", on_change=_on_upload)
        if view.uploaded and st.button("Back to the sidebar's solve", key=W + "drop_upload"):
            st.session_state.pop(UPLOAD_KEY, None)
            st.rerun()


def _file_stem(view: View) -> str:
    """A file-name-safe name of the view's game."""
    name = view.settings.spec.link or view.settings.spec.name
    return "".join(c if c.isascii() and (c.isalnum() or c in "-_") else "_" for c in name)[:40]


#: The app's public address (scheme and host, such as https://cfrviz.example.org), when the address the
#: server sees is not the one visitors should share (a proxy, a container, `localhost`).
PUBLIC_URL_VARIABLE = "CFRVIZ_PUBLIC_URL"


def public_page_url(url: str | None, public: str | None) -> str:
    """The address a link to this page shares: `url` without its query, its scheme and host replaced
    by `public` when that is an http(s) address (a bad value is ignored: links then keep the server's)."""
    page = url.split("?")[0].split("#")[0] if url else "/"
    base = (public or "").strip().rstrip("/")
    if not base.startswith(("http://", "https://")) or any(c.isspace() or c in "\"'<>`?#" for c in base):
        return page
    path = urlsplit(page).path if "://" in page else page
    return base + (path if path.startswith("/") else "/" + path)


def _page_url() -> str:
    """This page's address without its query (the path alone under AppTest, which has no URL), on the
    public address when CFRVIZ_PUBLIC_URL names one."""
    try:
        url = st.context.url
    except Exception:
        url = None
    return public_page_url(url, os.environ.get(PUBLIC_URL_VARIABLE))


def _run_source(view: View) -> Callable[[], Run]:
    """What the downloads build from. A solved run is named by its settings and fetched from the
    shared cache when clicked, so a session holds no solved run between its reruns: a tab that
    left would otherwise keep its run in memory until Streamlit drops the session. An uploaded
    run lives in the session anyway."""
    if view.uploaded and view.run is not None:
        return functools.partial(_same_run, view.run)
    return functools.partial(shared_run, view.settings)


def _same_run(run: Run) -> Run:
    return run


def _run_bytes(source: Callable[[], Run]) -> bytes:
    return run_file_bytes(source())


def _strategy_json(source: Callable[[], Run]) -> str:
    text = export_strategy(source())
    return text if isinstance(text, str) else str(text)


def _on_upload() -> None:
    upload = st.session_state.get(W + "upload")
    if upload is None:  # the user removed the file: back to the sidebar's solve
        st.session_state.pop(UPLOAD_KEY, None)
        return
    if str(upload.name).lower().endswith(".efg"):
        adopt_game(upload.name, upload.getvalue())
        return
    # A refused file loses nothing: the run shown before stays until the new one is read.
    try:
        run, _ = LIVE_UPLOADS.read(upload.name, upload.getvalue())  # checks the size caps and the budget
    except ValueError as problem:
        st.session_state[NOTICE_KEY] = (str(problem),)
        return
    st.session_state[UPLOAD_KEY] = run
    st.session_state[UPLOAD_NAME_KEY] = str(upload.name)
    st.session_state[T_KEY] = None
    st.session_state[NODE_KEY] = None
    st.session_state[NOTICE_KEY] = ()
