"""Compare algorithms: exploitability against iterations, nodes touched and seconds."""
from __future__ import annotations

import streamlit as st

from cfrviz import ui
from cfrviz.compare import plan, summary
from cfrviz.figures.compare import comparison_figure
from cfrviz.solvers import ALGORITHMS, UPDATE_SCHEMES

view = ui.setup_page("Compare algorithms", solve=False)
settings = view.settings
game = view.choice.catalog_game

if game.matrix:
    st.info("Comparisons run the CFR family on an extensive-form game. Choose another game in the sidebar; "
            "the Regret matching page covers matrix games.")
    st.stop()

st.markdown(
    f"Several solvers on **{view.tree.game.title}**, each judged by the exploitability of its average "
    "strategy. Sampling methods do far less work per iteration, so they get their own iteration count; "
    "the *nodes touched* chart puts everyone on the same budget (Lanctot et al. 2009 compare MCCFR variants this way).")

cap = ui.iteration_cap(game)
choices = [a for a in ALGORITHMS if game.offers(a)]
c1, c2 = st.columns([3, 2])
algorithms = c1.multiselect("Algorithms", choices, default=["cfr", "cfr+", "chance", "external"],
                            format_func=lambda a: ALGORITHMS[a][0], key="cmp_algos")
updates = c2.multiselect("Update schemes", list(UPDATE_SCHEMES), default=["alternating"], key="cmp_updates")
i1, i2 = st.columns(2)
iterations = int(i1.number_input(f"Iterations, full-traversal algorithms (≤ {cap:,})", min_value=1, max_value=cap,
                                 value=min(1000, cap), step=100, key="cmp_iters"))
sampling_iterations = int(i2.number_input(f"Iterations, sampling algorithms (≤ {cap:,})", min_value=1,
                                          max_value=cap, value=min(10_000, cap), step=1000, key="cmp_sampling_iters"))
seeds: dict[str, int] = {}
sampled = [a for a in algorithms if ALGORITHMS[a][2]]
if sampled:
    columns = st.columns(len(sampled))
    for column, algorithm in zip(columns, sampled):
        seeds[algorithm] = int(column.number_input(f"Seed, {ALGORITHMS[algorithm][0]}", min_value=0,
                                                   max_value=ui.MAX_SEED, value=0, step=1, key=f"cmp_seed_{algorithm}"))

if not algorithms or not updates:
    st.info("Pick at least one algorithm and one update scheme.")
    st.stop()

entries, skipped = plan(algorithms, updates, iterations, sampling_iterations, seeds)
for note in skipped:
    st.caption(note)

# Each run is solved (and cached) on its own, so a long comparison shows which one is running
# and finished runs are kept when the page reruns.
runs = []
status = st.status(f"Solving {len(entries)} runs…", expanded=False)
for k, entry in enumerate(entries):
    status.update(label=f"Solving {k + 1} of {len(entries)}: {entry.label}…")
    with status:
        try:
            runs.append(ui.cached_solve(settings.game, settings.game_params, entry.algorithm, entry.iterations,
                                        entry.updates, entry.seed))
        except ValueError as error:
            st.error(f"{entry.label}: {error}")
            st.stop()
status.update(label=f"{len(entries)} runs solved.", state="complete")

labels = [e.label for e in entries]
tab_iterations, tab_nodes, tab_seconds = st.tabs(["vs iterations", "vs nodes touched", "vs seconds"])
for tab, axis in ((tab_iterations, "iterations"), (tab_nodes, "nodes"), (tab_seconds, "seconds")):
    with tab:
        st.plotly_chart(comparison_figure(runs, labels, axis), width="stretch", key=f"cmp_chart_{axis}")
st.caption("Dotted lines: simultaneous updates; solid: alternating. Seconds are solver time on a shared "
           "machine, so they are noisy; the first solve of a kind also pays for loading compiled code.")

rows = summary(entries, runs)
is_kuhn = game.alpha_family
st.dataframe(rows, hide_index=True, width="stretch", column_config={
    "exploitability": st.column_config.NumberColumn(format="%.2e"),
    "nodes touched": st.column_config.NumberColumn(format="localized"),
    "seconds": st.column_config.NumberColumn(format="%.3f"),
    "α heads for": st.column_config.NumberColumn(format="%.3f",
                                                 help="Kuhn's equilibria form a family in α ∈ [0, 1/3]: the "
                                                      "nearest one to the final average strategy."),
}, column_order=None if is_kuhn else ["algorithm", "iterations", "exploitability", "nodes touched", "seconds"])
