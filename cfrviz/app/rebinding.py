"""Rebind a private name of Streamlit's to a wrapper of it, once, before the deployed server starts.

cfrviz changes four things Streamlit offers no setting for, each by rebinding a name that
Streamlit's own code looks up when it calls it. The deployed server (`cfrviz.app.serve`) changes
the inbound websocket frame cap (`websocket_limits`), the outbound serializer's guard
(`outbound_guard`) and turns that last a page's whole run (`admission`); every server keeps a
download's answer through a rerun (`download_files`). Those names are private and may go in any
Streamlit release: then the server starts without the change, and the log says what it lost.
"""
from __future__ import annotations

import importlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["rebind"]

Wrap = Callable[[Callable[..., Any]], Callable[..., Any]]

_LOGGER = logging.getLogger(__name__)


@dataclass(frozen=True)
class _Rebound:
    wrapper: Callable[..., Any]
    original: Callable[..., Any]
    wrap: Wrap


# What this process rebound, by (module, name): so that a wrapper is never wrapped again.
_REBOUND: dict[tuple[str, str], _Rebound] = {}


def rebind(module: str, name: str, wrap: Wrap, what_is_lost: str) -> bool:
    """Bind `module.name` to `wrap(original)`; False, and one log line ending in `what_is_lost`
    (what the server goes without), when the module or a callable of that name is missing. A dotted
    `name` ("Class.method") rebinds a class's attribute, so every instance calls the wrapper.

    A second call with the same `wrap` leaves the binding as it is; another `wrap` replaces the
    first one's wrapper by a wrapper of the original, so wrappers never stack."""
    *path, attribute = name.split(".")
    owner: Any
    try:
        owner = importlib.import_module(module)
    except ImportError:
        owner = None
    for part in path:
        owner = getattr(owner, part, None)
    current = getattr(owner, attribute, None)
    if not callable(current):
        _LOGGER.warning("cfrviz: this Streamlit has no %s.%s; %s", module, name, what_is_lost)
        return False
    rebound = _REBOUND.get((module, name))
    original = current
    if rebound is not None and current is rebound.wrapper:
        if wrap is rebound.wrap:
            return True
        original = rebound.original
    wrapper = wrap(original)
    _REBOUND[module, name] = _Rebound(wrapper, original, wrap)
    setattr(owner, attribute, wrapper)
    return True
