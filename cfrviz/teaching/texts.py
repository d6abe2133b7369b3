"""The explanations a learner reads, written once for every home that shows them (the Streamlit app's
pages and the static site). Markdown with **bold** and `code` only; rules cards and letter legends
come from the games themselves (`game.rules`, `game.action_legend`)."""
from __future__ import annotations

#: Home's opening paragraph.
HOME_INTRO = (
    "Counterfactual regret minimization (CFR; Zinkevich et al. 2007) solves imperfect-information games by "
    "playing against itself. At every **information set** (what a player knows when it is their turn) it keeps "
    "a **cumulative regret** for each action: how much better that action would have done, weighted by the "
    "chance that the opponent and the deal led here. The next strategy plays actions in proportion to their "
    "positive regret (regret matching; Hart and Mas-Colell 2000). The **average strategy** over all "
    "iterations approaches a Nash equilibrium, and its **exploitability** (how much a best-responding "
    "opponent wins, in chips per hand) falls towards zero.")

#: A learner's order through the pages, with what to notice on each: (page path, label, what to notice).
#: The path is the app's address of the page (`/Regret_matching`), which the static site keeps too.
LEARNING_PATH: tuple[tuple[str, str, str], ...] = (
    ("Regret_matching", "Regret matching",
     "how the current strategy keeps circling while the average settles on the equilibrium."),
    ("Walkthrough", "Walkthrough",
     "how one CFR iteration passes reach probabilities down the tree and regrets back up."),
    ("Game_tree", "Game tree",
     "which histories a player cannot tell apart (one information set), and the strategy on the edges."),
    ("Convergence", "Convergence",
     "the average strategy walking into Kuhn's family of equilibria as exploitability falls like 1/√T."),
    ("Best_response", "Best response",
     "who could still exploit the strategy, and where."),
    ("Play", "Play",
     "that over many hands you cannot beat the solved strategy."),
)

#: The locked example that ends Home's path: its label, sentence and link parameters (on the Game tree).
LOCK_EXAMPLE_LABEL = "Lock a set"
LOCK_EXAMPLE_NOTICE = "Lock a set: make player 1 never bluff with the jack, and watch player 2 stop calling."
LOCK_EXAMPLE_PARAMS = {"game": "kuhn", "algo": "cfr+", "iters": "10000", "updates": "alternating", "lock": "J=1,0",
                       "node": "1"}

#: Home's line about the pages off the path.
ALSO_PAGES = ("Also: **Evolution** (regret and strategy of each information set over the iterations) and "
              "**Compare** (several algorithms on one chart).")

#: How the Game tree's timeline is used.
TREE_HOW = ("Drag the slider, press ▶, or click the tree and use ← → Home End and space: everything moves in "
            "your browser. Click a node to inspect it; hover one to peek at its numbers at t.")

#: What the Best response page shows, and how its timeline is used.
BEST_RESPONSE_INTRO = (
    "A **best response** plays, at every information set, the action that earns most against the "
    "other player's fixed strategy. **Exploitability** is the average of the two best-response "
    "values: zero exactly at an equilibrium. When it is not zero yet, the bars, the marked edges and "
    "the table below show which player can still gain, and where.")
BEST_RESPONSE_HOW = (
    "Drag the slider, press ▶, or click the tree and use ← → Home End and space: the best responses of "
    "every iteration shown are computed once, so everything moves in your browser. Yellow marks the "
    "exploiter's best-response action at each of its information sets; edge widths are the average strategy.")

#: What the Walkthrough shows, and its keys.
WALKTHROUGH_INTRO = (
    "CFR walks the game tree once per iteration. Going down, each decision node plays its **current "
    "strategy** and passes the **reach probabilities** on. Coming back, it gets each action's "
    "**utility**, forms the node's utility, and adds the **regrets**, weighted by how likely the "
    "opponent and chance were to get there, to the cumulative regret. The defaults replay the "
    "worked example: chance sampling, as in Neller and Lanctot's Kuhn trainer, deals Q against K from a "
    "uniform start.")
WALKTHROUGH_KEYS = ("Click the tree, then → and ← step, N and P jump to the next or previous update (a node whose "
                    "regrets are added), Home and End go to the first and last step, and space plays. Click a node "
                    "to go to its visit. Everything moves in your browser.")

#: The unit every number of the Convergence page is in.
CONVERGENCE_UNITS = "Every number here is in chips per hand, from player 1's side."

#: The Compare page's opening (the app adds its per-click budget; `{game}` is the game's title, in markdown).
COMPARE_INTRO = ("Several solvers on **{game}**, each judged by the exploitability of its average strategy, or of its "
                 "current strategy (the last iterate). Sampling methods do far less work per iteration, so they get "
                 "their own iteration count and run with several fixed seeds; the *nodes touched* chart puts everyone "
                 "on the same budget.")
#: What the Compare charts' colours and dashes say.
COMPARE_LEGEND = "Colour: the algorithm. Dash: the update scheme (solid alternating, dashed simultaneous)."
#: Under the Convergence page's average strategy against Kuhn's equilibria, at iteration t.
CONVERGENCE_ALPHA = ("At iteration {t:,} the average strategy is closest to the equilibrium with α = {alpha:.3f} (dashed "
                     "orange): player 1 bets J with α, bets K with 3α and calls with Q at α + 1/3. Player 2's equilibrium "
                     "strategy is unique (green lines).")
