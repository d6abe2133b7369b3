"""Names vulture (the dead-code check in tests/run.sh, configured in pyproject.toml) cannot see used.

Vulture reads cfrviz/, pages/, app.py, scripts/ and benchmarks/, not the tests: a name only a test
reads is reported, which is how dead product code is found. Each entry here is read by something
vulture does not follow, and says what. `_` stands for any object (vulture matches by name); this
file is only parsed, never run.
"""

# Enum machinery: Algorithm._missing_ is called by Enum for a value not among the members (a
# registered update rule, cfrviz.util.vocabulary); _name_ and _value_ are the fields Enum reads.
_._missing_
_._name_
_._value_

# Imported by their "module:Class" path in cfrviz/util/vocabulary.py's ALGORITHMS (solver_class).
CFRPlus
LinearCFR
PredictiveCFRPlus
PredictiveDiscountedCFRPlus

# Fields of result values that the tests read to check the numbers the product computes.
_.action_names        # analysis.best_responses.BestResponse: the tests name the best action
_.value_player_2_lp   # analysis.lp.Equilibrium: player 2's LP optimum, checked equal to player 1's (LP duality)
_.payoff_shift        # games.efg.EfgGame: the c/2 taken off a constant-sum file's payoffs
_.num_decision_nodes  # tree.compiled.GameTree: node counts pinned against the published sizes of Kuhn and Leduc

# What the tests observe of the shared caches, pools and budgets (the product only uses them).
_.stats               # app.page_results.ResultCache (and run.cache.RunCache): counts of computes, hits, pins
_.computes
_.hits
_.waits               # run.cache.CacheStats: solves that waited for a solver slot
_.pinned_bytes
_.native_ids          # run.pool.SolvePool: the workers' thread ids, whose nice value a test reads in /proc
_.held_bytes          # run.uploads: the bytes of uploaded runs held, checked against the budget
_.holds_turn          # run.admission.Admission: whether this thread holds a turn (the tests check turns are given back)
_.pids                # solving.workers.SolveWorkers: the worker processes' ids, which the tests kill and read in /proc
forget_openspiel_games  # games.openspiel: tests empty the accepted/refused game caches between cases

# cfrviz/__init__.py: a module's __getattr__ is called by Python itself for a missing attribute (PEP 562);
# it imports `cfrviz.solve` on first use.
__getattr__

# scripts/load_class.py: fields of a visit, read back through dataclasses.asdict for the report.
_.download_megabytes
_.download_retried

# The notebook widget (cfrviz.widget): its class is made by notebooks (examples/), its synced traits
# are read by its front-end module, and traitlets calls its validate/observe methods by trait name.
Timeline
_._host_keys
_._payload
_._check_t
_._check_node
_._check_kind
_._check_step
_._t_changed
_._node_changed
# cfrviz/site/data.py: the inverse of the data files' wrapping, read by the test that compares them with the app's payload.
payload_text

# Protobuf fields scripts/streamlit_wire.py sets for the server to read (a rerun's ClientState).
_.trigger_value
_.page_name
_.timezone_offset
_.is_embedded
_.color_scheme

# cfrviz/app/outbound_guard.py: Streamlit reads a message's metadata (an error box is not kept for reuse).
_.cacheable
