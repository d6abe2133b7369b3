"""The little markdown the shared texts use (paragraphs, `- ` lists, **bold**, *italic*, `code`), as HTML.

Every text is escaped first, so a game's labels or a rule can never become markup; only the five
forms above are turned into tags afterwards.
"""
from __future__ import annotations

import html
import re

_BOLD = re.compile(r"\*\*(.+?)\*\*")
_ITALIC = re.compile(r"(?<![*\w])\*([^*\s][^*]*?)\*(?![*\w])")
_CODE = re.compile(r"`([^`]+)`")


def inline(text: str) -> str:
    """One line of markdown as escaped HTML with <strong>, <em> and <code>."""
    escaped = html.escape(text, quote=True)
    return _CODE.sub(r"<code>\1</code>", _ITALIC.sub(r"<em>\1</em>", _BOLD.sub(r"<strong>\1</strong>", escaped)))


def blocks(text: str) -> str:
    """Paragraphs (blank-line separated) and `- ` lists as HTML."""
    out: list[str] = []
    for block in re.split(r"\n\s*\n", text.strip()):
        lines = block.splitlines()
        para = [line for line in lines if not line.startswith("- ")]
        items = [line[2:] for line in lines if line.startswith("- ")]
        if para:
            out.append(f"<p>{inline(' '.join(para))}</p>")
        if items:
            out.append("<ul>" + "".join(f"<li>{inline(item)}</li>" for item in items) + "</ul>")
    return "\n".join(out)


def legend_html(legend: dict[str, str]) -> str:
    """The letters line of a game (as the app's `legend_text`): "Letters: k check · b bet · ..."."""
    return "<strong>Letters:</strong> " + " · ".join(
        f"<code>{html.escape(letter)}</code> {html.escape(meaning)}" for letter, meaning in legend.items())
