"""cfrviz: the landing page (Home). Run with `streamlit run app.py`."""
from __future__ import annotations

import streamlit as st

from cfrviz import app as ui
from cfrviz.teaching import texts
from cfrviz.util.text import clamped_exploitability, escape_markdown as md, number as shown_number
from cfrviz.app.components import timeline
from cfrviz.figures.timeline import TimelineMode
from cfrviz.app.locks import LOCK_STEP

view = ui.setup_page("cfrviz: counterfactual regret minimization, visible", solve=False)

st.markdown(texts.HOME_INTRO)

st.subheader("Start here")
st.caption("A learner's order through the app. Each link keeps the sidebar's game and solve.")
game = view.tree.game
for number, (path, label, notice) in enumerate(ui.LEARNING_PATH, start=1):
    link, line = st.columns([1, 3], vertical_alignment="center")
    with link:
        st.page_link(path, label=f"{number}. {label}", query_params=view.params)
    if path == "pages/3_Convergence.py" and not view.settings.spec.alpha_family:
        notice = "the exploitability of the average strategy falling like 1/√T."   # Kuhn's α-family is Kuhn's only
    line.markdown(f"Notice {notice}")
path, label, notice, params = LOCK_STEP
link, line = st.columns([1, 3], vertical_alignment="center")
with link:
    st.page_link(path, label=f"{len(ui.LEARNING_PATH) + 1}. {label}", query_params=params)
# The lock step is a Kuhn poker link: on any other game it says that it opens Kuhn poker instead.
line.markdown(notice if view.settings.spec.link == params["game"] else
              f"{notice} This step opens **Kuhn poker** in place of your game, {md(game.title)}"
              + (", which a link cannot carry: download its run under Share first to keep it." if view.choice.game_param
                 is None else "; the sidebar can bring yours back."))
st.caption("Also: **Evolution** (regret and strategy of each information set over the iterations) and "
           "**Compare** (several algorithms on one chart).")

ui.rules_card(view.tree.game)

view = ui.solve_view(view)
st.caption(f"{md(view.tree.game.title)} · {ui.ALGORITHMS[view.settings.algorithm].title} · "
           f"{view.settings.iterations:,} iterations, {view.settings.updates} updates. Change the solve in "
           "the sidebar: the pages that follow it show the same run; the ones with their own settings say so "
           "at their top.")
if view.run is not None:
    st.markdown(f"**Exploitability of the average strategy: {shown_number(clamped_exploitability(view.run.exploitability[-1]))} chips per hand "
                f"after {int(view.run.iterations[-1]):,} iterations**")
    # The app's timeline, drawn in the browser without plotly: the first chart a visitor sees.
    timeline.mount(view, nodes=[], mode=TimelineMode.EXPLOITABILITY, key="landing_timeline", log=True)
