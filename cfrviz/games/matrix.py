"""Two-player zero-sum matrix games as a turn-based game with a hidden first move.

Player 1 picks a row, then player 2 picks a column without seeing it, so each
player has exactly one information set. Payoffs are player 1's.
"""
from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from cfrviz.games.base import InformationSet
from cfrviz.util.vocabulary import Player
from cfrviz.util.text import quoted

MAX_ACTIONS = 10
#: Action names are shown as labels in pages and charts, so they stay plain text: no markup.
MAX_NAME_LENGTH = 24
_ACTION_NAME = re.compile(rf"[^\W_](?:[^\W_]|[ .-]){{0,{MAX_NAME_LENGTH - 1}}}")
#: Largest matrix a user edits in the app.
MAX_MATRIX_SIZE = 5
#: Largest payoff size accepted. Equilibrium arithmetic multiplies up to ten payoffs together
#: (determinants of 10 x 10 supports), which overflows a float long before 1e200.
MAX_PAYOFF = 1_000_000


@dataclass(frozen=True)
class MatrixGame:
    """A payoff matrix for player 1 (rows) against player 2 (columns)."""

    payoffs: tuple[tuple[float, ...], ...]
    row_names: tuple[str, ...]
    column_names: tuple[str, ...]
    name: str = "matrix"
    title: str = "Matrix game"

    def __post_init__(self) -> None:
        rows = len(self.payoffs)
        if rows < 2 or rows > MAX_ACTIONS:
            raise ValueError(f"A matrix game needs 2 to {MAX_ACTIONS} rows; this one has {rows}.")
        cols = {len(r) for r in self.payoffs}
        if len(cols) != 1:
            raise ValueError("Every row of the payoff matrix must have the same number of columns.")
        (ncols,) = cols
        if ncols < 2 or ncols > MAX_ACTIONS:
            raise ValueError(f"A matrix game needs 2 to {MAX_ACTIONS} columns; this one has {ncols}.")
        for r, row in enumerate(self.payoffs):
            for c, v in enumerate(row):
                if not isinstance(v, (int, float)) or isinstance(v, bool) or not math.isfinite(v):
                    raise ValueError(f"Payoff in row {r + 1}, column {c + 1} must be a finite number, not {quoted(v)}.")
                if abs(v) > MAX_PAYOFF:
                    raise ValueError(f"Payoff in row {r + 1}, column {c + 1} is {v:.3g}; payoffs must lie "
                                     f"between -{MAX_PAYOFF:,} and {MAX_PAYOFF:,}.")
        for what, names, n in (("row", self.row_names, rows), ("column", self.column_names, ncols)):
            if len(names) != n:
                raise ValueError(f"Give exactly {n} {what} names; {len(names)} were given.")
            if any(not isinstance(s, str) or not s.strip() for s in names):
                raise ValueError(f"Every {what} name must be non-empty text.")
            for label in names:
                if not _ACTION_NAME.fullmatch(label):
                    raise ValueError(f"The {what} name {label[:30]!r} may use only letters, digits, spaces, "
                                     f"'-' and '.', up to {MAX_NAME_LENGTH} characters.")
            if len(set(names)) != len(names):
                raise ValueError(f"The {what} names must all differ.")

    @classmethod
    def from_lists(cls, payoffs: Sequence[Sequence[float]], row_names: Sequence[str] | None = None,
                   column_names: Sequence[str] | None = None, name: str = "matrix",
                   title: str = "Matrix game") -> MatrixGame:
        """Build from nested lists, naming actions a1, a2, ... and b1, b2, ... when no names are given."""
        try:
            table = tuple(tuple(float(v) if isinstance(v, int) and not isinstance(v, bool) else v
                                for v in row) for row in payoffs)
        except TypeError:
            raise ValueError("The payoff matrix must be a list of rows of numbers.") from None
        except OverflowError:  # a whole number too big for a float
            raise ValueError(f"Payoffs must lie between -{MAX_PAYOFF:,} and {MAX_PAYOFF:,}.") from None
        rows = row_names or tuple(f"a{i + 1}" for i in range(len(table)))
        cols = column_names or tuple(f"b{j + 1}" for j in range(len(table[0]) if table else 0))
        return cls(table, tuple(rows), tuple(cols), name, title)

    def initial_state(self) -> MatrixState:
        return MatrixState(self, ())

    @property
    def rules(self) -> str:
        """The rules as a person reads them (markdown)."""
        return (
            f"**One move each, at the same time:** player 1 picks a row ({', '.join(self.row_names)}), "
            f"player 2 picks a column ({', '.join(self.column_names)}) without seeing player 1's choice.\n\n"
            "**Payoff:** player 1 wins the number in the table at that row and column; player 2 wins its "
            "negative (a zero-sum game).")

    @property
    def action_legend(self) -> dict[str, str]:
        """Actions are spelled out in full, so there are no letters to explain."""
        return {}


def rock_paper_scissors() -> MatrixGame:
    """Rock-paper-scissors, win +1, loss -1 (the game of Neller and Lanctot's regret-matching example)."""
    names = ("rock", "paper", "scissors")
    table = ((0.0, -1.0, 1.0), (1.0, 0.0, -1.0), (-1.0, 1.0, 0.0))
    return MatrixGame(table, names, names, "rps", "Rock-paper-scissors")


@dataclass(frozen=True)
class MatrixState:
    game: MatrixGame
    moves: tuple[int, ...]

    def actor(self) -> Player:
        return Player.TERMINAL if len(self.moves) == 2 else Player(len(self.moves))

    def legal_actions(self) -> tuple[str, ...]:
        return self.game.row_names if not self.moves else self.game.column_names

    def chance_outcomes(self) -> tuple[tuple[str, float], ...]:
        return ()

    def child(self, index: int) -> MatrixState:
        return MatrixState(self.game, self.moves + (index,))

    def payoff(self) -> float:
        return float(self.game.payoffs[self.moves[0]][self.moves[1]])

    def information_set(self) -> InformationSet:
        player = Player(len(self.moves))
        # Player 2 does not see player 1's move: the history shown to them is empty.
        return InformationSet(f"player {player + 1}", player, None, None, (), self.legal_actions())

    def label(self) -> str:
        names = [self.game.row_names[self.moves[0]]] if self.moves else []
        if len(self.moves) == 2:
            names.append(self.game.column_names[self.moves[1]])
        return " / ".join(names) or "start"


@dataclass(frozen=True)
class MatrixPreset:
    """A named payoff matrix (player 1's payoffs) with action names, and why it is interesting."""

    title: str
    payoffs: tuple[tuple[float, ...], ...]
    row_names: tuple[str, ...]
    column_names: tuple[str, ...]
    note: str


RPS = ("rock", "paper", "scissors")
PRESETS: dict[str, MatrixPreset] = {
    "rps": MatrixPreset("Rock-paper-scissors", ((0, -1, 1), (1, 0, -1), (-1, 1, 0)), RPS, RPS,
                        "The classic regret-matching example; the equilibrium plays each action a third of the time."),
    "weighted_rps": MatrixPreset(
        "Weighted rock-paper-scissors", ((0, -1, 2), (1, 0, -1), (-2, 1, 0)), RPS, RPS,
        "Rock beating scissors pays 2: the equilibrium (hand-solved) is rock 1/4, paper 1/2, scissors 1/4."),
    "pennies": MatrixPreset("Matching pennies", ((1, -1), (-1, 1)), ("heads", "tails"), ("heads", "tails"),
                            "Player 1 wins on a match; the equilibrium is 1/2, 1/2 for both."),
    "saddle": MatrixPreset("2×2 with a pure equilibrium", ((3, 1), (2, 0)), ("up", "down"), ("left", "right"),
                           "Up dominates down and player 2 then prefers right: the pure equilibrium "
                           "(up, right) is worth 1 to player 1."),
}


def payoff_table(rows: Sequence[Mapping[str, object]], column_names: Sequence[str],
                 name_key: str = "action") -> tuple[np.ndarray, tuple[str, ...], tuple[str, ...]]:
    """Check an edited table (one mapping per row: its name under `name_key`, then one cell per
    column name) and return (payoffs [R, C], row names, column names).

    Every problem is a ValueError naming the cell to fix.
    """
    columns = tuple(str(c).strip() for c in column_names)
    if not 2 <= len(columns) <= MAX_MATRIX_SIZE or not 2 <= len(rows) <= MAX_MATRIX_SIZE:
        raise ValueError(f"The matrix needs 2 to {MAX_MATRIX_SIZE} rows and 2 to {MAX_MATRIX_SIZE} columns; "
                         f"it has {len(rows)} rows and {len(columns)} columns.")
    if any(not c for c in columns) or len(set(columns)) != len(columns):
        raise ValueError("Every column needs its own non-empty name.")
    names: list[str] = []
    table = np.zeros((len(rows), len(columns)))
    for r, row in enumerate(rows):
        raw = row.get(name_key)
        name = "" if raw is None or (isinstance(raw, float) and math.isnan(raw)) else str(raw).strip()
        if not name:
            raise ValueError(f"Row {r + 1} needs a name.")
        names.append(name)
        for c, column in enumerate(columns):
            cell = row.get(column)
            try:
                value = float(cell)  # type: ignore[arg-type]  # any cell is tried; a non-number is caught below as one sentence
            except (TypeError, ValueError):
                value = math.nan
            if isinstance(cell, bool) or not math.isfinite(value):
                raise ValueError(f"The payoff in row {name!r}, column {column!r} must be a number, not {quoted(cell)}.")
            table[r, c] = value
    if len(set(names)) != len(names):
        raise ValueError("Every row needs its own name; two rows share one.")
    # The game's own checks (names plain text, sizes) apply to what a user typed too.
    MatrixGame(tuple(map(tuple, table.tolist())), tuple(names), columns)
    return table, tuple(names), columns


def parse_probabilities(text: str, names: Sequence[str]) -> np.ndarray:
    """[C] a strategy typed as comma-separated probabilities, one per name, summing to 1."""
    parts = [p.strip() for p in str(text).replace(";", ",").split(",") if p.strip()]
    if len(parts) != len(names):
        raise ValueError(f"Give {len(names)} probabilities, one for each of {', '.join(names)}, separated by commas.")
    try:
        values = np.array([float(p) for p in parts])
    except ValueError:
        raise ValueError("The opponent's probabilities must be numbers like 0.4, 0.3, 0.3.") from None
    if not np.all(np.isfinite(values)) or np.any(values < 0):
        raise ValueError("The opponent's probabilities must be numbers of 0 or more.")
    if not math.isclose(values.sum(), 1.0, abs_tol=1e-6):
        raise ValueError(f"The opponent's probabilities must sum to 1; they sum to {values.sum():.4g}.")
    return values
