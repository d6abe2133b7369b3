"""No page script hands Streamlit a function of its own to keep.

Streamlit keeps a widget's format function and callbacks (and the timeline's event callbacks) for
as long as the widget is on the page; a lambda or `def` in a page script has the script's whole
namespace as its globals, so it keeps every run the page solved, per open tab (see
cfrviz/app/page_events.py). Reference: the rule itself, read from the pages' syntax trees; on the
pages before the change it found 13 such callables in six pages (Game tree 3, Evolution 1, Compare
1, Regret matching 2, Walkthrough 4, Best response 2).
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
SCRIPTS = [ROOT / "app.py", *sorted((ROOT / "pages").glob("*.py"))]
#: Keywords whose value Streamlit keeps beyond the script run.
KEPT = {"format_func", "on_change", "on_click"}


def own_callables(source: str) -> list[str]:
    """Where `source` passes a lambda, or a function it defines itself, to be kept: as a KEPT keyword,
    or as a value of an `events=` mapping."""
    tree = ast.parse(source)
    defined = {node.name for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}

    def own(value: ast.expr) -> bool:
        return isinstance(value, ast.Lambda) or (isinstance(value, ast.Name) and value.id in defined)

    found = []
    for call in (node for node in ast.walk(tree) if isinstance(node, ast.Call)):
        for keyword in call.keywords:
            values = [keyword.value] if keyword.arg in KEPT else \
                list(keyword.value.values) if keyword.arg == "events" and isinstance(keyword.value, ast.Dict) else []
            found += [f"line {value.lineno}: {keyword.arg}" for value in values if value is not None and own(value)]
    return found


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: path.name)
def test_a_page_hands_streamlit_no_function_of_its_own(script: Path) -> None:
    assert own_callables(script.read_text()) == []


def test_the_rule_finds_a_lambda_a_page_function_and_an_event() -> None:
    # Reference: the three shapes the pages used before cfrviz.app.page_events, by hand.
    source = ("def on_t(value):\n    pass\n"
              "st.selectbox('a', keys, format_func=lambda k: labels[k])\n"
              "st.multiselect('b', keys, on_change=on_t)\n"
              "timeline.mount(view, events={'t': on_t, 'u': page_events.walkthrough_step})\n"
              "st.button('c', on_click=page_events.reset, format_func=page_events.labels(keys, lambda k: k))\n")
    assert own_callables(source) == ["line 3: format_func", "line 4: on_change", "line 5: events"]
