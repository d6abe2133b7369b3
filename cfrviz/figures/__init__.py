"""Plotly figure builders: pure functions from a tree, a run and an iteration to a `go.Figure`.

Pages call them and tests assert on their JSON; nothing here imports streamlit. Importing the package
loads no figure module: the timeline's payload (`cfrviz.figures.timeline`) needs neither plotly nor
pandas, so Home, which draws only the timeline, does not load them.
"""
