"""A marimo notebook for the widget's browser test (tests/browser/test_widget_browser.py), served by
`marimo run`: Kuhn poker's timeline as a widget, a number whose cell sets the widget's t from
Python, a line that shows what Python reads back, and (with `-- --efg FILE`) a second widget of
the game in FILE, whose names a stranger wrote."""

import marimo

app = marimo.App()


@app.cell
def _():
    import marimo as mo

    import cfrviz
    from cfrviz.widget import Timeline
    return Timeline, cfrviz, mo


@app.cell
def _(Timeline, cfrviz):
    kuhn_run = cfrviz.solve("kuhn", "cfr", iterations=50)
    kuhn_widget = Timeline(kuhn_run, view="tree", t=10)
    return kuhn_run, kuhn_widget


@app.cell
def _(kuhn_widget, mo):
    kuhn = mo.ui.anywidget(kuhn_widget)
    kuhn
    return (kuhn,)


@app.cell
def _(mo):
    t_from_python = mo.ui.number(start=1, stop=50, value=10, label="t from Python")
    node_from_python = mo.ui.number(start=-1, stop=54, value=-1, label="node from Python (-1 for none)")
    kind_from_python = mo.ui.dropdown(["average", "current"], value="average", label="edge widths from Python")
    # Sets the same values again (after the page changed them), which the inputs alone cannot.
    again = mo.ui.button(value=0, on_click=lambda clicks: clicks + 1, label="Set these again from Python")
    mo.hstack([t_from_python, node_from_python, kind_from_python, again])
    return again, kind_from_python, node_from_python, t_from_python


@app.cell
def _(again, kind_from_python, kuhn_widget, node_from_python, t_from_python):
    # Python moves the drawing: this cell reruns when an input or the button changes (not when the
    # widget does). A trait set to the value it holds changes nothing.
    _ = again.value
    kuhn_widget.t = int(t_from_python.value)
    kuhn_widget.node = None if node_from_python.value < 0 else int(node_from_python.value)
    kuhn_widget.kind = kind_from_python.value
    return


@app.cell
def _(kuhn, mo):
    # Reruns whenever the page changes a trait: what Python reads back.
    mo.md(f"Python sees t = {kuhn.widget.t}, node = {kuhn.widget.node}, kind = {kuhn.widget.kind}")
    return


@app.cell
def _(mo):
    from cfrviz.figures.html_page import HTML_VIEWS

    view_choice = mo.ui.dropdown(list(HTML_VIEWS), value="tree", label="Another view of the same run")
    view_choice
    return (view_choice,)


@app.cell
def _(Timeline, kuhn_run, mo, view_choice):
    any_view = mo.ui.anywidget(Timeline(kuhn_run, view=view_choice.value))
    any_view
    return (any_view,)


@app.cell
def _(any_view, mo):
    mo.md(f"The {any_view.widget.view} view: Python reads t = {any_view.widget.t}, step = {any_view.widget.step}")
    return


@app.cell
def _(Timeline, cfrviz, mo):
    efg = mo.cli_args().get("efg")
    stranger = mo.ui.anywidget(Timeline(cfrviz.solve(str(efg), "cfr", iterations=20), view="tree")) if efg else None
    stranger
    return


if __name__ == "__main__":
    app.run()
