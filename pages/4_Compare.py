"""Compare algorithms: exploitability against iterations, nodes touched and timed seconds."""
from __future__ import annotations

import functools

import streamlit as st

from cfrviz import app as ui
from cfrviz.app import page_events, page_results
from cfrviz.util.text import ROUNDING_NOTE, clamped_exploitability, escape_markdown as md, number
from cfrviz.app.compare_budget import MAX_NODE_VISITS, MAX_SEEDS
from cfrviz.solving.compare import (
    CONFIDENCE,
    DEFAULT_REPEATS,
    DEFAULT_SEEDS,
    MAX_REPEATS,
    Line,
    band_words,
    curves_csv,
    summary,
    table_csv,
)
from cfrviz.figures.compare import comparison_figure
from cfrviz.figures.convergence import STRATEGY_CHOICES
from cfrviz.solvers import ALGORITHMS, UPDATE_SCHEMES
from cfrviz.teaching import texts
from cfrviz.util.vocabulary import StrategyKind

view = ui.setup_page(
    "Compare algorithms", solve=False, page=ui.Page.COMPARE,
    own_settings="This page follows the sidebar's game and runs its own list of algorithms, chosen below.",
    sidebar_note="Compare uses the game chosen here (and draws this solve too); its algorithms are on the page.")
settings = view.settings
game = view.choice.spec

if game.matrix:
    st.info("Comparisons run the CFR family on an extensive-form game. Choose another game in the sidebar; "
            "the Regret matching page covers matrix games.")
    st.stop()


def remembered(key: str, default: object, most: int | None = None) -> str:
    """`key`, with the widget's last value restored: Streamlit forgets a widget's value when a
    page without it runs, so a copy is kept under another key and put back (at most `most`)."""
    if key not in st.session_state:
        st.session_state[key] = st.session_state.get(f"_kept_{key}", default)
    if most is not None and st.session_state[key] > most:
        st.session_state[key] = most
    return key


def keep(*keys: str) -> None:
    for key in keys:
        st.session_state[f"_kept_{key}"] = st.session_state[key]


st.markdown(
    texts.COMPARE_INTRO.format(game=md(view.tree.game.title)) + " On this shared server one comparison may cost at most "
    f"{MAX_NODE_VISITS / 1e6:,.0f} million node visits and {MAX_SEEDS} seeds a method; `cfrviz compare` and "
    "`cfrviz.compare` on your own machine have no such budget.")

cap = ui.iteration_cap(game)
# The page's default iterations, scaled to fit the budget on this game (Leduc's refused themselves): a
# default held anywhere (link, widget, kept copy) becomes the fitted one; a value the visitor chose is kept.
fitted = dict(zip(("cmp_iters", "cmp_sampling_iters"), page_results.compare_defaults(game, settings)))
for name, value in fitted.items():
    if ui.page_value(name) == ui.page_setting(name).default:
        ui.set_page_value(name, value)
    for held in (name, f"_kept_{name}"):
        if st.session_state.get(held) == ui.page_setting(name).default:
            st.session_state[held] = value
default_iterations, default_sampling = ui.page_value("cmp_iters"), ui.page_value("cmp_sampling_iters")
choices = page_results.compare_choices(game)
if any(a not in choices for a in st.session_state.get("cmp_algos", [])):
    st.session_state["cmp_algos"] = [a for a in st.session_state["cmp_algos"] if a in choices]
c1, c2 = st.columns([3, 2])
algorithms = c1.multiselect("Algorithms", choices, format_func=page_events.labels(choices, lambda a: ALGORITHMS[a].title),
                            key=remembered("cmp_algos", [a for a in ui.page_value("cmp_algos") if a in choices]))
# The box shows as many chips as fit on one line and hides the rest: say every chosen one underneath.
if len(algorithms) > 1:
    c1.caption(f"{len(algorithms)} chosen: " + ", ".join(ALGORITHMS[a].title for a in algorithms) + ".")
updates = c2.multiselect("Update schemes", list(UPDATE_SCHEMES),
                         key=remembered("cmp_updates", list(ui.page_value("cmp_updates"))))
i1, i2, i3, i4 = st.columns(4)
iterations = int(i1.number_input(f"Iterations, full traversal (≤ {cap:,})", min_value=1, max_value=cap, step=100,
                                 key=remembered("cmp_iters", min(int(default_iterations), cap), cap)))
sampling_iterations = int(i2.number_input(f"Iterations, sampling (≤ {cap:,})", min_value=1, max_value=cap,
                                          step=1000, key=remembered("cmp_sampling_iters", min(int(default_sampling), cap), cap)))
seed_count = int(i3.number_input("Seeds per sampling method", min_value=1, max_value=MAX_SEEDS, step=1,
                                 key=remembered("cmp_seeds", len(DEFAULT_SEEDS)),
                                 help="Each sampling method runs with seeds 0, 1, 2, …: the chart shows the "
                                      f"median and a band, the {CONFIDENCE:.0%} t-interval of the geometric mean "
                                      f"across seeds. This shared server runs at most {MAX_SEEDS} seeds and "
                                      f"{MAX_NODE_VISITS / 1e6:,.0f} million node visits a click; `cfrviz compare` "
                                      "on your own machine takes any number."))
repeats = int(i4.number_input("Timed solves per run", min_value=1, max_value=MAX_REPEATS, step=1,
                              key=remembered("cmp_repeats", DEFAULT_REPEATS),
                              help="After one warm-up solve (which loads or compiles the code), each run is "
                                   "timed this many times and the median is shown."))
o1, o2 = st.columns([2, 3])
strategy = o1.radio("Exploitability of the strategy", STRATEGY_CHOICES, horizontal=True,
                    key=remembered("cmp_strategy", StrategyKind.AVERAGE.value),
                    help="average: what CFR's guarantee is about. current: the strategy played at each "
                         "iteration, the last iterate that predictive methods (PCFR+, PDCFR+) also drive down.")
# Streamlit cuts a long checkbox label on a phone, so what the sidebar's run is goes underneath.
with_sidebar = o2.checkbox("Also draw the sidebar's run", key=remembered("cmp_sidebar", page_results.COMPARE_WITH_SIDEBAR))
o2.caption(f"{ALGORITHMS[settings.algorithm].title}, {settings.updates}, {settings.iterations:,} iterations")
keep("cmp_algos", "cmp_updates", "cmp_iters", "cmp_sampling_iters", "cmp_seeds", "cmp_repeats", "cmp_strategy",
     "cmp_sidebar")
# The share link carries the comparison (a link opened elsewhere starts from it).
ui.set_page_value("cmp_algos", tuple(a for a in ui.page_setting("cmp_algos").options if a in algorithms))
ui.set_page_value("cmp_updates", tuple(u for u in UPDATE_SCHEMES if u in updates))
ui.set_page_value("cmp_iters", iterations)
ui.set_page_value("cmp_sampling_iters", sampling_iterations)

if not algorithms or not updates:
    st.info("Pick at least one algorithm and one update scheme.")
    st.stop()

try:
    entries, skipped = page_results.compare_entries(game, settings, algorithms, updates, iterations,
                                                    sampling_iterations, seed_count, with_sidebar, repeats)
except ValueError as error:
    ui.error(str(error))
    st.stop()
for note in skipped:
    st.caption(note)

# Each line is solved and cached on its own, so a long comparison shows which one is running and
# finished lines are kept when the page reruns.
lines: list[Line] = []
status = st.status(f"Solving and timing {len(entries)} lines…", expanded=False)
# Lines not kept yet wait in line once for them all, told in the status label (it stays in view).
with ui.heavy_page(show=lambda line: status.update(label=line or f"Solving and timing {len(entries)} lines…")):
    for k, entry in enumerate(entries):
        label = f"Solving and timing {k + 1} of {len(entries)}: {entry.label}…"
        status.update(label=label)
        waiting = functools.partial(status.update, label=label + " (waiting for another visitor's solve: one solve "
                                    "at a time on this shared server)")
        with status:
            try:
                lines.append(page_results.compare_line(game, entry, repeats, waiting))
            except ValueError as error:
                ui.error(f"{entry.label}: {error}")
                st.stop()
status.update(label=f"{len(entries)} lines solved and timed.", state="complete")

tab_iterations, tab_nodes, tab_seconds = st.tabs(["vs iterations", "vs nodes touched", "vs seconds"])
for tab, axis in ((tab_iterations, "iterations"), (tab_nodes, "nodes"), (tab_seconds, "seconds")):
    with tab:
        st.plotly_chart(comparison_figure(lines, axis, strategy), width="stretch", key=f"cmp_chart_{axis}")
band = f", with a band: the {band_words(seed_count)}" if seed_count > 1 else ""
st.caption(f"{texts.COMPARE_LEGEND} Sampling "
           f"methods: the median of seeds 0–{seed_count - 1}{band}. Seconds: "
           f"the median of {repeats} timed solves after a warm-up solve, so compiling is not counted; the machine "
           "may be shared, so small differences are noise.")

EXPLOITABILITY_COLUMNS = ("exploitability", "current exploitability")
# Rounding noise below zero is 0 in the table and both CSV files (`curves_csv` clamps its own); the
# screen writes numbers as every page does.
rows = [{k: clamped_exploitability(v) if k in EXPLOITABILITY_COLUMNS else v  # type: ignore[arg-type]
         for k, v in row.items()} for row in summary(lines)]
shown = [{k: number(v) if k in EXPLOITABILITY_COLUMNS else v for k, v in row.items()}  # type: ignore[arg-type]
         for row in rows]
is_kuhn = game.alpha_family
st.dataframe(shown, hide_index=True, width="stretch", column_config={
    "exploitability": st.column_config.TextColumn(help="Of the final average strategy (median over seeds)."),
    "current exploitability": st.column_config.TextColumn(help="Of the final current strategy (median over seeds)."),
    "nodes touched": st.column_config.NumberColumn(format="localized"),
    "seconds": st.column_config.NumberColumn(format="%.4f", help="Median of the timed solves."),
    "α heads for": st.column_config.NumberColumn(format="%.3f",
                                                 help="Kuhn's equilibria form a family in α ∈ [0, 1/3]: the "
                                                      "nearest one to the final average strategy."),
}, column_order=None if is_kuhn else ["algorithm", "updates", "seeds", "iterations", "exploitability",
                                      "current exploitability", "nodes touched", "seconds"])
st.caption(ROUNDING_NOTE + " Both CSV files write it as 0 too.")
d1, d2, _ = st.columns([1, 1, 3])
# Partials, not lambdas: a lambda would keep this page's globals (the view and its run) alive with the button.
d1.download_button("Table (CSV)", data=functools.partial(table_csv, rows), file_name=f"cfrviz_compare_{game.name}.csv",
                   mime="text/csv", on_click="ignore", key="cmp_table_csv")
d2.download_button("Curves (CSV)", data=functools.partial(curves_csv, lines),
                   file_name=f"cfrviz_compare_{game.name}_curves.csv", mime="text/csv", on_click="ignore",
                   key="cmp_curves_csv")
