"""Writing a compiled tree as Gambit `.efg` text (the reader is `cfrviz.games.efg`).

Nodes are named by their labels and information sets by their keys; each leaf gets its own outcome
with player 1's payoff u and player 2's -u, written exactly; chance probabilities are fractions that
sum to exactly 1, so the reader gives back the same tree.
"""
from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from cfrviz.util.vocabulary import Player
from cfrviz.games.efg_tokens import fraction_text

if TYPE_CHECKING:
    from cfrviz.tree.compiled import GameTree

__all__ = ["write_efg"]


# --- writing ----------------------------------------------------------------------------------

def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _exact_probabilities(probabilities: tuple[float, ...]) -> tuple[Fraction, ...]:
    """Fractions that sum to exactly 1 and round to the given floats (1/3, not 0.333...)."""
    simple = tuple(Fraction(p).limit_denominator(1_000_000) for p in probabilities)
    if sum(simple) == 1 and all(float(q) == p for q, p in zip(simple, probabilities)):
        return simple
    exact = [Fraction(p) for p in probabilities]
    exact[-1] = 1 - sum(exact[:-1], Fraction(0))     # the floats' own rounding, put on the last outcome
    return tuple(exact)


def write_efg(tree: GameTree, comment: str | None = None) -> str:
    """The compiled game `tree` as Gambit `.efg` text, which `read_efg` reads back to the same tree.

    Nodes are named by their labels and information sets by their keys; each leaf gets its own
    outcome with payoffs (u, -u) for player 1's payoff u, written exactly (the float's `repr`);
    chance probabilities are written as fractions summing to exactly 1.

    >>> from cfrviz.catalog import compile_game
    >>> write_efg(compile_game("rps")).splitlines()[3]
    'p "start" 1 1 "player 1" { "rock" "paper" "scissors" } 0'
    """
    game = tree.game
    players = getattr(game, "players", ("Player 1", "Player 2"))
    numbers: dict[int, int] = {}
    per_player = [0, 0]
    for i, record in enumerate(tree.infosets):
        per_player[record.player] += 1
        numbers[i] = per_player[record.player]
    if comment is None:
        comment = str(getattr(game, "description", "") or "")
    lines = [f"EFG 2 R {_quoted(game.title)} {{ {_quoted(players[0])} {_quoted(players[1])} }}",
             _quoted(comment), ""]
    events = leaves = 0
    stack = [0]
    while stack:
        node = stack.pop()
        who = int(tree.actor[node])
        name = _quoted(tree.node_label[node])
        kids = tree.children(node)
        if who == Player.CHANCE:
            events += 1
            exact = _exact_probabilities(tuple(float(tree.chance_probability[c]) for c in kids))
            outcomes = " ".join(f"{_quoted(tree.edge_label[c])} {fraction_text(p)}" for c, p in zip(kids, exact))
            lines.append(f'c {name} {events} "" {{ {outcomes} }} 0')
        elif who == Player.TERMINAL:
            leaves += 1
            u = float(tree.payoff[node]) + 0.0
            lines.append(f"t {name} {leaves} {name} {{ {u!r} {-u + 0.0!r} }}")
        else:
            i = int(tree.infoset[node])
            actions = " ".join(_quoted(tree.edge_label[c]) for c in kids)
            lines.append(f"p {name} {who + 1} {numbers[i]} {_quoted(tree.infosets[i].key)} {{ {actions} }} 0")
        stack.extend(reversed(kids))
    return "\n".join(lines) + "\n"
