"""Plotly figure builders: pure functions from a tree, a run and an iteration to a `go.Figure`.

Pages call them and tests assert on their JSON; nothing here imports streamlit. Importing the package
loads no figure module: the timeline's payload (`cfrviz.figures.timeline`) needs neither plotly nor
pandas, so Home, which draws only the timeline, does not load them; the names below load
`cfrviz.figures.tree` when first used.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cfrviz.figures.tree import inspect_node, inspection_table, tree_figure, tree_layout, tree_part

__all__ = ["inspect_node", "inspection_table", "tree_figure", "tree_layout", "tree_part"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from cfrviz.figures import tree

        return getattr(tree, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
