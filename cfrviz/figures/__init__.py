"""Plotly figure builders: pure functions from a tree, a run and an iteration to a `go.Figure`.

Pages call them and tests assert on their JSON; nothing here imports streamlit.
"""
from __future__ import annotations

from cfrviz.figures.tree import inspect_node, inspection_table, tree_figure, tree_layout, tree_part

__all__ = ["inspect_node", "inspection_table", "tree_figure", "tree_layout", "tree_part"]
