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
    kuhn_widget = Timeline(cfrviz.solve("kuhn", "cfr", iterations=50), view="tree", t=10)
    return (kuhn_widget,)


@app.cell
def _(kuhn_widget, mo):
    kuhn = mo.ui.anywidget(kuhn_widget)
    kuhn
    return (kuhn,)


@app.cell
def _(mo):
    t_from_python = mo.ui.number(start=1, stop=50, value=10, label="t from Python")
    t_from_python
    return (t_from_python,)


@app.cell
def _(kuhn_widget, t_from_python):
    # Python moves the drawing: this cell reruns when the number changes (not when the widget does).
    kuhn_widget.t = int(t_from_python.value)
    return


@app.cell
def _(kuhn, mo):
    # Reruns whenever the page changes a trait: what Python reads back.
    mo.md(f"Python sees t = {kuhn.widget.t}, node = {kuhn.widget.node}, kind = {kuhn.widget.kind}")
    return


@app.cell
def _(Timeline, cfrviz, mo):
    efg = mo.cli_args().get("efg")
    stranger = mo.ui.anywidget(Timeline(cfrviz.solve(str(efg), "cfr", iterations=20), view="tree")) if efg else None
    stranger
    return


if __name__ == "__main__":
    app.run()
