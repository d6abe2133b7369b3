"""Strangers' text never renders as markup: link values, file names and typed names.

Reference: CommonMark (a backslash-escaped punctuation character is literal text) and
Streamlit's markdown extensions (`:red[x]` colour, `$x$` LaTeX, `:material/x:` icons,
`:smile:` emoji). A body is safe when, after dropping every backslash escape, none of those
constructs is left in the part that came from the URL.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest

from cfrviz.util.text import escape_markdown, quoted

ROOT = Path(__file__).resolve().parents[2]
PAGES = ["app.py"] + sorted(f"pages/{p.name}" for p in (ROOT / "pages").glob("*.py"))

# Markup a rendered body must not contain once backslash escapes are removed.
MARKUP = {
    "link": re.compile(r"\]\("),
    "image": re.compile(r"!\["),
    "directive": re.compile(r":[A-Za-z]+\["),          # :red[x], :blue-background[x]
    "shortcode": re.compile(r":[A-Za-z0-9_+/-]+:"),     # :smile:, :material/home:
    "latex": re.compile(r"\$[^$]+\$"),
    "strong": re.compile(r"\*\*[^*]+\*\*|__[^_]+__"),
    "emphasis": re.compile(r"(?<![\w*])\*[^*\s][^*]*\*(?![\w*])"),
    "code": re.compile(r"`"),
    "html": re.compile(r"<[A-Za-z/!]"),
    "autolink": re.compile(r"https?://|www\.", re.IGNORECASE),
    "strike": re.compile(r"~~?[^~]+~"),
}


def unescaped_markup(body: str) -> list[str]:
    """Names of the constructs left in `body` after removing backslash escapes and word joiners."""
    bare = re.sub(r"\\[!-/:-@\[-`{-~]", "", body).replace("\u2060", "")
    return [name for name, pattern in MARKUP.items() if pattern.search(bare)]


def _unescaped(body: str) -> str:
    """What a body shows on screen: backslash escapes resolved, word joiners dropped."""
    return re.sub(r"\\(.)", r"\1", body).replace("\u2060", "")


def test_the_checker_finds_each_construct() -> None:
    # Reference: each sample is the construct named, unescaped; escaped, none may remain.
    samples = {"link": "[a](https://example.org/)", "image": "![x](http://h/x.png)", "directive": ":red[x]",
               "shortcode": ":material/home:", "latex": "$x^2$", "strong": "**b**", "emphasis": "*i*",
               "code": "`c`", "html": "<img src=x>", "autolink": "www.example.org", "strike": "~~s~~"}
    for name, sample in samples.items():
        assert name in unescaped_markup(f"Unknown game {sample!r} in the link."), name
        assert unescaped_markup(escape_markdown(f"Unknown game {sample!r} in the link.")) == [], name


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60))
def test_escaped_text_has_no_markup(text: str) -> None:
    # Property: whatever the text, its escaped form carries no construct, and escaping only adds
    # backslashes and joiners (so the words on screen are the text's own).
    escaped = escape_markdown(text)
    assert unescaped_markup(escaped) == []
    assert "\n" not in escaped
    if text.isprintable():
        assert _unescaped(escaped) == text.lstrip()


def test_sentences_stay_readable() -> None:
    # Reference: numbers, commas, hyphens and "one of: x" are not markup, so they stay as typed.
    sentence = "Kuhn poker is capped at 100,000 iterations; -5 is not one of: kuhn, leduc."
    assert escape_markdown(sentence) == sentence
    assert quoted("x" * 100) == "'" + "x" * 40 + "…'"


# One AppTest run per page and payload set: every echoed parameter carries a construct.
PAYLOAD_SETS = [
    {"game": "[text](https://example.org/)", "algo": "![x](http://host/x.png)", "iters": ":red[x]",
     "updates": "$x^2$", "seed": "**b**", "t": ":material/home:", "node": "<img src=x>"},
    {"game": "**b**", "algo": "[text](https://example.org/)", "iters": "![x](http://host/x.png)",
     "updates": ":red[x]", "seed": "www.example.org", "t": "$x$", "node": "`code` ~~s~~ _i_"},
]


def _bodies(at: AppTest) -> list[str]:
    bodies = []
    for kind in ("warning", "error", "info", "success", "markdown", "caption"):
        bodies += [str(element.value) for element in getattr(at, kind)]
    return bodies


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize("payloads", range(len(PAYLOAD_SETS)))
def test_link_values_render_as_text_on_every_page(page: str, payloads: int) -> None:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    if page != "app.py":
        at.switch_page(page)
    for name, value in PAYLOAD_SETS[payloads].items():
        at.query_params[name] = value
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    payloads_shown = 0
    for body in _bodies(at):
        shown = [value for value in PAYLOAD_SETS[payloads].values() if value[:6] in _unescaped(body)]
        if shown:
            payloads_shown += len(shown)
            found = unescaped_markup(body)
            assert not found, f"{page} renders {found} from the link: {body!r}"
    # Every value is bad, so the notices quote most of them (the game's notice wins over algo's).
    assert payloads_shown >= 4
