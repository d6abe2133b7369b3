"""A plotly figure read back as plotly's JSON (what the browser is sent), for assertions on traces."""
from __future__ import annotations

import json
from typing import Any


def plotly_json(figure: Any) -> dict[str, Any]:
    """`figure` (a plotly Figure) as the JSON plotly sends to the browser: {"data": [...], "layout": {...}}."""
    parsed: dict[str, Any] = json.loads(figure.to_json())
    return parsed
