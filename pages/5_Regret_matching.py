"""Regret matching in a matrix game: why the average strategy, not the current one, converges."""
from __future__ import annotations

import functools
from dataclasses import replace

import numpy as np
import pandas as pd
import streamlit as st

from cfrviz import catalog, app as ui
from cfrviz.app import page_events, page_results, practice_box
from cfrviz.analysis.equilibria import best_response_to
from cfrviz.analysis import matrix_equilibrium
from cfrviz.app.components import timeline
from cfrviz.figures.regret_matching import index_of_iteration, linked_point, regret_matching_payload
from cfrviz.figures.timeline import TimelineMode
from cfrviz.games.matrix import MAX_MATRIX_SIZE, MAX_NAME_LENGTH, PRESETS, MatrixGame, parse_probabilities, \
    payoff_table
from cfrviz.solvers.matrix import TUTORIAL_OPPONENT
from cfrviz.tree import build_tree
from cfrviz.teaching import practice
from cfrviz.util.text import escape_markdown, number

view = ui.setup_page(
    "Regret matching in a matrix game", solve=False, page=ui.Page.REGRET_MATCHING,
    own_settings="This page has its own settings: the matrix game, opponent, iterations and iteration t below. "
                 "The sidebar's solve is not used here.")

MAX_ITERATIONS = catalog.lookup("rps").app_iteration_cap   # the catalog's cap for matrix games
EDITOR_KEY = "rm_editor_"
# Longest typed lists: the largest matrix's names (or probabilities) with a comma and a space each.
# The boxes refuse more, and the page counts before it builds anything from what arrives.
NAMES_CHARS = MAX_MATRIX_SIZE * (MAX_NAME_LENGTH + 2)
PROBABILITIES_CHARS = MAX_MATRIX_SIZE * 24


st.markdown(
    "Regret matching plays each action in proportion to its positive cumulative regret. Against a "
    "fixed opponent it learns the best response. In self-play the **current** strategy keeps circling, "
    "while the **average** strategy settles on the equilibrium — the reason CFR reports the average.")

c1, c2 = st.columns([1, 2])
preset_key = c1.selectbox("Game", list(PRESETS), format_func=page_events.labels(PRESETS, lambda k: PRESETS[k].title),
                          **ui.bind("rm_game"))
preset = PRESETS[preset_key]
c2.caption(preset.note)

# The editable matrix: rows named in the first column, columns named below.
column_text = st.text_input("Column names (player 2's actions, comma-separated)", ", ".join(preset.column_names),
                            key=f"rm_columns_{preset_key}", max_chars=NAMES_CHARS)
if len(column_text) > NAMES_CHARS or column_text.count(",") >= MAX_MATRIX_SIZE:
    ui.error(f"The matrix has at most {MAX_MATRIX_SIZE} columns, each named in up to {MAX_NAME_LENGTH} characters; "
             "shorten the column names.")
    st.stop()
column_names: list[str] | tuple[str, ...] = [c.strip() for c in column_text.split(",")]
editor_key = f"{EDITOR_KEY}{preset_key}_{len(column_names)}_{st.session_state.get('rm_editor_generation', 0)}"
edits = st.session_state.get(editor_key)
if isinstance(edits, dict) and len(edits.get("added_rows") or ()) > 2 * MAX_MATRIX_SIZE:
    # Rows pasted by the thousand: the table starts again from the game's rows (a fresh editor).
    st.session_state["rm_editor_generation"] = int(st.session_state.get("rm_editor_generation", 0)) + 1
    editor_key = f"{EDITOR_KEY}{preset_key}_{len(column_names)}_{st.session_state['rm_editor_generation']}"
    ui.notice(f"The matrix has at most {MAX_MATRIX_SIZE} rows; the table is back to {preset.title}'s rows.")
start = pd.DataFrame(page_results.preset_rows(preset, column_names))
edited = st.data_editor(start, num_rows="dynamic", hide_index=True, key=editor_key,
                        column_config={"action": st.column_config.TextColumn("row (player 1's action)")})
st.caption(f"Player 1's payoffs; player 2 gets the negative. Up to {MAX_MATRIX_SIZE}×{MAX_MATRIX_SIZE}: "
           "add or delete rows in the table, columns through their names.")
try:
    payoffs, row_names, column_names = payoff_table(edited.to_dict("records"), column_names)
except ValueError as error:
    ui.error(str(error))
    st.stop()

m1, m2, m3, m4 = st.columns([1.3, 1.2, 1, 1])
mode = m1.radio("Opponent", ["self", "fixed"], horizontal=True, **ui.bind("rm_mode"),
                format_func={"self": "self-play", "fixed": "fixed strategy"}.get)
update = m2.radio("Updates from", ["expected", "sampled"], horizontal=True, **ui.bind("rm_update"),
                  format_func={"expected": "expected values", "sampled": "sampled actions"}.get,
                  help="Expected: each player answers the other's whole mixed strategy, so self-play circles "
                       "smoothly. Sampled: one action pair per iteration, as Neller and Lanctot's trainer does.")
iterations = int(m3.number_input(f"Iterations (≤ {MAX_ITERATIONS:,})", min_value=1, max_value=MAX_ITERATIONS,
                                 step=1000, **ui.bind("rm_iters")))
seed = int(m4.number_input("Seed", min_value=0, max_value=ui.MAX_SEED, step=1, **ui.bind("rm_seed"),
                           disabled=update == "expected"))
opponent = None
if mode == "fixed":
    default = TUTORIAL_OPPONENT if len(column_names) == 3 else tuple([1 / len(column_names)] * len(column_names))
    text = st.text_input(f"Player 2's fixed strategy over {', '.join(column_names)}",
                         ", ".join(f"{p:g}" for p in default), key=f"rm_opponent_{len(column_names)}",
                         max_chars=PROBABILITIES_CHARS)
    try:
        if len(text) > PROBABILITIES_CHARS:
            raise ValueError(f"Type one probability per column of player 2, at most {PROBABILITIES_CHARS} "
                             "characters in all.")
        opponent = parse_probabilities(text, column_names)
    except ValueError as error:
        ui.error(str(error))
        st.stop()

request = page_results.PathRequest.of(payoffs, iterations, opponent, update, seed)
if request.start_regret is not None:
    st.caption(f"Self-play with expected values starts with player 1 playing {escape_markdown(row_names[0])} "
               f"and player 2 playing {escape_markdown(column_names[1])} (one unit of regret each), away from "
               "the equilibrium, so you can watch the current strategies circle.")
path = page_results.regret_matching_path(request)


# The page's own iteration t (1 by default, so a learner watches the path start; 0 in the link: the last
# one). The timeline steps through the run in the browser and tells the page t when the visitor stops.
kept_t = int(ui.page_value("rm_t"))
t = iterations if kept_t == 0 or kept_t > iterations else kept_t
row_eq, column_eq, value = matrix_equilibrium(payoffs)

if opponent is None:
    targets: list[np.ndarray | None] = [row_eq, column_eq]
    target_name = "equilibrium"
    st.caption("Exact equilibrium: player 1 " + ", ".join(f"{escape_markdown(n)} {p:.3f}" for n, p in zip(row_names, row_eq))
               + "; player 2 " + ", ".join(f"{escape_markdown(n)} {p:.3f}" for n, p in zip(column_names, column_eq))
               + f"; value {number(value, signed=True)} for player 1.")
else:
    response = best_response_to(payoffs, opponent)
    targets, target_name = [response, None], "best response to player 2"
    st.caption("Against a fixed player 2, player 1's average heads for the best response: "
               + escape_markdown(row_names[int(np.argmax(response))]) + f" (expected payoff {number(float(np.max(payoffs @ opponent)), signed=True)}).")

path_key = (request.payoffs, row_names, tuple(column_names), iterations, request.opponent, update, seed,
            request.start_regret)
shown_index = index_of_iteration(path.iterations, t)
include = linked_point(path.iterations, t)   # a linked t that is not a frame gets its own


game = MatrixGame(tuple(map(tuple, payoffs.tolist())), tuple(row_names), tuple(column_names), title=preset.title)
timeline.mount(replace(view, tree=build_tree(game), run=None, t=int(path.iterations[shown_index]), node=None),
               nodes=[], mode=TimelineMode.REGRET_MATCHING, key="rm_timeline", log=True, events={"t": functools.partial(page_events.regret_matching_t, np.array(path.iterations), iterations)},
               file_about={"page": "regret matching", "opponent": "self-play" if opponent is None else "fixed",
                           "updates from": update, "iterations": f"{iterations}", "seed": f"{seed}"},
               extra=timeline.Extra(key=(path_key, include), build=lambda: regret_matching_payload(
                   path, row_names, column_names, targets, target_name, fixed_opponent=opponent is not None,
                   include=include)))
st.caption("Use the timeline's arrow keys, slider or play button to move through the iterations; each player's "
           "simplex draws the current strategy's path up to t (grey) and the average strategy (in the player's "
           "colour, its point at t). The link keeps t.")
if shown_index + 1 < len(path.iterations):
    practice_box.ask(practice.Practice.REGRET_MATCHING,
                     lambda: practice.next_favoured_action(path, shown_index, row_names), (path_key, shown_index))
