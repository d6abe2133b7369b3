"""Convergence: average strategy against the equilibrium, player 1's value, exploitability."""
from __future__ import annotations

import streamlit as st

from cfrviz import app as ui
from cfrviz.teaching import texts
from cfrviz.util.text import clamped_exploitability, escape_markdown as md, number
from cfrviz.app import practice_box
from cfrviz.app.components import timeline
from cfrviz.teaching import practice
from cfrviz.figures.timeline import TimelineMode

view = ui.setup_page("Convergence")
run = ui.solved_run(view)

# The app's one timeline: its cards follow t in the browser; the metrics and charts below on release.
timeline.mount(view, nodes=[], mode=TimelineMode.CHARTS, key="convergence_timeline", log=True)

# Plotly's figure code and pandas load only once the timeline has been sent (about half a second on
# a first visit to a fresh server).
from cfrviz.figures.convergence import (  # noqa: E402
    STRATEGY_CHOICES,
    equilibrium_figure,
    equilibrium_reference,
    exploitability_figure,
    game_value,
    value_figure,
)

m1, m2, m3 = st.columns(3)
m1.metric(f"Exploitability at iteration {view.t:,}", number(clamped_exploitability(run.exploitability[view.snapshot])),
          help="(best-response value against player 2 + best-response value against player 1) / 2, "
               "of the average strategy.")
m2.metric("Running mean value (chips/hand)", f"{run.expected_value[view.snapshot]:+.4f}",
          help="The running mean of iteration values, as in the classic tutorial code (Neller and Lanctot): the mean of player 1's value over iterations 1..t.")
value = game_value(run)
m3.metric("Game value (chips/hand)", "unknown" if value is None else f"{value:+.4f}")
st.caption(texts.CONVERGENCE_UNITS)
if view.settings.spec.alpha_family and not view.settings.locks:
    # Asked before the chart that shows the nearest α: predict, then look.
    practice_box.ask(practice.Practice.CONVERGENCE,
                     lambda: practice.alpha_family(view.tree, run.average_strategy[view.snapshot], view.t),
                     (view.settings, view.t))

st.subheader("Average strategy against the equilibrium")
if equilibrium_reference(run) is None:
    st.info(f"No closed-form equilibrium is known for {md(view.tree.game.title)}; the exploitability below "
            "shows how close the average strategy is.")
else:
    figure = equilibrium_figure(run, view.t)
    st.plotly_chart(figure, key="convergence_equilibrium")
    alpha = figure.layout.meta.get("alpha")
    if alpha is not None:
        st.caption(texts.CONVERGENCE_ALPHA.format(t=view.t, alpha=alpha))

left, right = st.columns(2)
with left:
    st.plotly_chart(value_figure(run, view.t), key="convergence_value")
with right:
    shown = st.radio("Exploitability of the strategy", STRATEGY_CHOICES, horizontal=True, key="convergence_strategy",
                     help="average: what CFR's guarantee is about. current: the strategy played at each "
                          "iteration (the last iterate), which predictive methods such as PCFR+ also drive down.")
    st.plotly_chart(exploitability_figure(run, view.t, strategy=shown), key="convergence_exploitability")
