"""A page's own settings (declared in `cfrviz.app.registry`): kept per session, tied to widgets, linked."""
from __future__ import annotations

from typing import Any

import streamlit as st

from cfrviz.app import share_box
from cfrviz.app.registry import Page
from cfrviz.app.links import Choice, page_params_of, page_setting, query_params_of
from cfrviz.app.state import PAGE_SETTINGS_KEY, UPLOAD_KEY, WRITTEN_KEY, state_presentation


def page_value(name: str) -> Any:
    """This session's value of a page setting (declared in `cfrviz.app.registry`): from the link, the
    widget or the default. It survives page switches; widget values do not."""
    return st.session_state.get(PAGE_SETTINGS_KEY, {}).get(name, page_setting(name).default)


def set_page_value(name: str, value: Any) -> None:
    """Keep a page setting and write it into the current link at once."""
    setting = page_setting(name)
    if not setting.accepts(value):
        return
    st.session_state.setdefault(PAGE_SETTINGS_KEY, {})[name] = value
    if st.session_state.get(UPLOAD_KEY) is not None:
        return
    written = dict(st.session_state.get(WRITTEN_KEY) or {})
    if value == setting.default:
        written.pop(name, None)
        if name in st.query_params:
            del st.query_params[name]
    else:
        written[name] = setting.encode(value)
        st.query_params[name] = written[name]
    st.session_state[WRITTEN_KEY] = written
    share_box.refresh(written)


def bind(name: str) -> dict[str, Any]:
    """Keyword arguments that tie a widget to a page setting: `st.radio(..., **ui.bind("rm_mode"))`.

    The widget shows the kept value and its changes are kept (and linked). Give the widget no
    `value`, `index` or `default` of its own.
    """
    setting = page_setting(name)
    key = name  # the link parameter names the widget too (pages and tests find it by that key)
    value = page_value(name)
    st.session_state[key] = list(value) if setting.many else value
    return {"key": key, "on_change": _on_page_setting, "args": (name, key)}


def _on_page_setting(name: str, key: str) -> None:
    setting = page_setting(name)
    raw = st.session_state.get(key)
    if setting.many:
        value: Any = tuple(o for o in setting.options if o in (raw or ()))
    elif not setting.options and not setting.token:
        try:
            value = int(raw)  # type: ignore[arg-type]  # raw is whatever the widget held; int() says if it fits
        except (TypeError, ValueError):
            return
    else:
        value = raw
    if setting.accepts(value):
        st.session_state.setdefault(PAGE_SETTINGS_KEY, {})[name] = value


def link_params(choice: Choice, t: int | None, node: int | None, page: Page | None) -> dict[str, str]:
    """The query parameters of a view: the sidebar's solve, t, the node, `page`'s own settings and
    presentation mode (so it survives page switches and is in the Share link)."""
    params = query_params_of(choice, t, node)
    values = st.session_state.get(PAGE_SETTINGS_KEY, {})
    if page is not None:
        params.update(page_params_of(page, values))
    params.update(page_params_of(Page.HOME, values))   # the practice progress travels on every page
    params.update(state_presentation().params())
    return params
