"""cfrviz: the landing page. Run with `streamlit run app.py`."""
from __future__ import annotations

import streamlit as st

from cfrviz import ui
from cfrviz.figures.convergence import exploitability_figure

view = ui.setup_page("cfrviz: counterfactual regret minimization, visible")

st.markdown(
    "Counterfactual regret minimization (CFR) solves imperfect-information games by playing against "
    "itself. At every **information set** (what a player knows when it is their turn) it keeps a "
    "**cumulative regret** for each action: how much better that action would have done, weighted by "
    "the chance that the opponent and the deal led here. The next strategy plays actions in proportion "
    "to their positive regret. The **average strategy** over all iterations approaches a Nash "
    "equilibrium, and its **exploitability** (how much a best-responding opponent wins, in chips per "
    "hand) falls towards zero."
)
st.caption(f"{view.tree.game.title} · {ui.ALGORITHMS[view.settings.algorithm][0]} · "
           f"{view.settings.iterations:,} iterations, {view.settings.updates} updates. "
           "Change the solve in the sidebar; every page shows the same run.")
if view.run is not None:
    st.plotly_chart(exploitability_figure(view.run, view.t, title=(
        f"Exploitability of the average strategy: {view.run.exploitability[-1]:.2e} chips per hand "
        f"after {int(view.run.iterations[-1]):,} iterations")), key="landing_exploitability")

st.subheader("Pages")
ui.page_links(view, exclude="app.py")
