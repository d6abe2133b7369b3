"""Gambit .efg texts made here rather than stored: extreme shapes (deep chains, wide nodes, many
histories), random games with perfect recall, and Myerson's card game under any names.

Used by the memory-bound, tree-part and analysis tests and by `scripts/budget.py`.
"""
from __future__ import annotations

import numpy as np


def myerson_named(name: str) -> str:
    """Myerson's card game (Myerson 1991, section 2.1) as .efg text, `name` appended to every
    title, player, label and outcome: for labels a stranger writes (markup, script, links)."""
    n = name
    return f'''EFG 2 R "T {n}" {{ "P1 {n}" "P2 {n}" }}
"About {n}"

c "draw {n}" 1 "deal {n}" {{ "red {n}" 1/2 "black {n}" 1/2 }} 0
p "r {n}" 1 1 "set red {n}" {{ "raise {n}" "fold {n}" }} 0
p "rr {n}" 2 1 "set raised {n}" {{ "meet {n}" "pass {n}" }} 0
t "rrm {n}" 1 "o1 {n}" {{ 2 -2 }}
t "rrp {n}" 2 "o2 {n}" {{ 1 -1 }}
t "rf {n}" 2 "o2 {n}" {{ 1 -1 }}
p "b {n}" 1 2 "set black {n}" {{ "raise {n}" "fold {n}" }} 0
p "br {n}" 2 1 "set raised {n}" {{ "meet {n}" "pass {n}" }} 0
t "brm {n}" 3 "o3 {n}" {{ -2 2 }}
t "brp {n}" 2 "o2 {n}" {{ 1 -1 }}
t "bf {n}" 4 "o4 {n}" {{ -1 1 }}
'''


def chain_efg(decisions: int) -> str:
    """A chain of `decisions` decisions, players alternating, each "go" on or "stop".

    Stopping gives the player who stops 1 chip; going on after the last decision ends at 0.
    Every decision is its own information set, so the game has perfect recall and its own
    sequences are as long as the chain: the shape that made own reach grow with depth squared.
    Nodes in prefix order: the decisions, the final leaf, then each "stop" leaf from the deepest up.
    """
    lines = ['EFG 2 R "Chain" { "Player 1" "Player 2" }', '"Players alternate; each goes on or stops."']
    for d in range(decisions):
        lines.append(f'p "" {d % 2 + 1} {d // 2 + 1} "move {d + 1}" {{ "go" "stop" }} 0')
    lines.append('t "" 1 "end" { 0 0 }')
    for d in reversed(range(decisions)):
        win = 1 if d % 2 == 0 else -1
        lines.append(f't "" {d + 2} "stop {d + 1}" {{ {win} {-win} }}')
    return "\n".join(lines) + "\n"


def wide_efg(actions: int, answers: int = 2) -> str:
    """Player 1 picks one of `actions` actions at the root; player 2 sees it and answers with one
    of `answers` actions. I = actions + 1 information sets, A = actions: one wide node makes every
    [I, A] array wide (player 1's payoff is 1 when the answer's index matches the action's mod answers).
    With answers=0 each action ends the game (30,000 actions then fit in under 1 MB, as in the issue's file)."""
    names = " ".join(f'"a{k}"' for k in range(actions))
    replies = " ".join(f'"r{k}"' for k in range(answers))
    lines = ['EFG 2 R "Wide" { "Player 1" "Player 2" }', '""', f'p "" 1 1 "root" {{ {names} }} 0']
    outcome = 0
    for k in range(actions):
        if answers == 0:
            outcome += 1
            lines.append(f't "" {outcome} "" {{ {k % 2} {-(k % 2)} }}')
            continue
        lines.append(f'p "" 2 {k + 1} "after a{k}" {{ {replies} }} 0')
        for r in range(answers):
            outcome += 1
            win = 1 if r == k % answers else -1
            lines.append(f't "" {outcome} "" {{ {win} {-win} }}')
    return "\n".join(lines) + "\n"


def seen_rounds_efg(width: int) -> str:
    """Three moves of `width` actions each, every move seen by both players: 1 + width + width^2
    information sets (1,641 for width 40, each with 40 actions) over 1 + width + width^2 + width^3
    histories (65,641 in about 0.9 MB). Its [sets x actions] arrays are as large as a tree under the
    reader's caps makes them, so a solve keeps few, large snapshots. Player 1 wins 1 when the three
    indices sum to an even number, else loses 1."""
    names = " ".join(f'"{k}"' for k in range(width))
    lines = ['EFG 2 R "Seen rounds" { "Player 1" "Player 2" }', '""', f'p "" 1 1 "" {{ {names} }} 0']
    described: set[int] = set()
    for a in range(width):
        lines.append(f'p "" 2 {a + 1} "" {{ {names} }} 0')
        for b in range(width):
            lines.append(f'p "" 1 {2 + a * width + b} "" {{ {names} }} 0')
            for c in range(width):
                outcome = 1 if (a + b + c) % 2 == 0 else 2
                if outcome in described:
                    lines.append(f't "" {outcome}')
                else:
                    described.add(outcome)
                    win = 1 if outcome == 1 else -1
                    lines.append(f't "" {outcome} "" {{ {win} {-win} }}')
    return "\n".join(lines) + "\n"


def random_perfect_recall_efg(seed: int, depth: int = 7) -> str:
    """A random two-player game in which each player sees only their own moves, so each set is
    the player's own sequence: perfect recall by construction, with sets spanning many histories."""
    rng = np.random.default_rng(seed)
    sets: dict[tuple[int, tuple[tuple[int, int], ...]], tuple[int, int]] = {}   # key -> (number, actions)
    lines = ['EFG 2 R "Random" { "A" "B" }', '""']
    leaves = 0

    def node(level: int, own: tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]) -> None:
        nonlocal leaves
        kind = rng.integers(0, 4) if level < depth else 3
        if level == 0:
            kind = 0
        if kind == 0:
            lines.append('c "" 1 "deal" { "x" 1/3 "y" 2/3 } 0' if level == 0 else 'c "" 1 0')
            for _ in range(2):
                node(level + 1, own)
        elif kind in (1, 2):
            player = int(kind) - 1
            key = (player, own[player])
            if key not in sets:
                sets[key] = (sum(1 for p, _ in sets if p == player) + 1, int(rng.integers(2, 4)))
            number, actions = sets[key]
            names = " ".join(f'"m{k}"' for k in range(actions))
            lines.append(f'p "" {player + 1} {number} "{player}:{number}" {{ {names} }} 0'
                         if sum(1 for line in lines if f'"{player}:{number}"' in line) == 0
                         else f'p "" {player + 1} {number} 0')
            for a in range(actions):
                step = own[player] + ((number, a),)
                node(level + 1, (step, own[1]) if player == 0 else (own[0], step))
        else:
            leaves += 1
            value = int(rng.integers(-3, 4))
            lines.append(f't "" {leaves} "" {{ {value} {-value} }}')

    node(0, ((), ()))
    return "\n".join(lines) + "\n"
