"""The vetted OpenSpiel games: each game's name, parameters with their allowed ranges, and title in
words ("Liar's dice, 1 die, 5 sides"). `cfrviz.catalog.openspiel_menu` holds the rule that a hosted app
loads only these; the catalog's loader titles them from here (this module imports nothing of the catalog).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Literal

from cfrviz.util.text import quoted

__all__ = ["OPENSPIEL_MENU", "MenuParameter", "OpenSpielMenuGame", "openspiel_menu", "openspiel_menu_string",
           "openspiel_menu_title", "openspiel_menu_values"]


@dataclass(frozen=True)
class MenuParameter:
    """One parameter of a vetted OpenSpiel game, with the values the menu allows.

    kind "int": whole numbers from low to high; "bool": True or False; "choice": one of
    `choices`. `default` is OpenSpiel's own default, as OpenSpiel writes it (a game string
    that leaves the parameter out gets it). A parameter with one allowed value is pinned
    and not offered; `always` writes it in the game string even at OpenSpiel's default.
    `initial` is the value the sidebar starts from.
    """

    name: str
    label: str
    kind: Literal["int", "bool", "choice"]
    default: str
    initial: str
    low: int = 0
    high: int = 0
    choices: tuple[str, ...] = ()
    always: bool = False

    @property
    def allowed(self) -> tuple[str, ...]:
        """Every value the menu allows, as OpenSpiel text."""
        if self.kind == "int":
            return tuple(str(v) for v in range(self.low, self.high + 1))
        return ("False", "True") if self.kind == "bool" and not self.choices else self.choices

    @property
    def pinned(self) -> bool:
        return len(self.allowed) == 1

    def read(self, text: str) -> str | None:
        """`text` as the menu writes it ("04" -> "4", "true" -> "True"), or None when not allowed."""
        if self.kind == "int":
            if not (text.isascii() and text.isdigit()) or len(text) > 6:
                return None
            value = str(int(text))
        elif self.kind == "bool":
            value = {"true": "True", "false": "False"}.get(text) or (text if text in ("True", "False") else "")
        else:
            value = text
        return value if value in self.allowed else None


@dataclass(frozen=True)
class OpenSpielMenuGame:
    """A vetted OpenSpiel game: its name, title and parameters with their allowed ranges.

    `largest` is the game string with the most histories the ranges allow (measured by
    scripts/openspiel_menu.py, which times every combination in the loader's child process).
    `title` names the menu entry; `words` titles one game of it from its parameter values
    (every parameter, as the menu writes them): "Liar's dice, 1 die, 5 sides".
    """

    name: str
    title: str
    parameters: tuple[MenuParameter, ...] = ()
    largest: str = ""
    description: str = ""
    words: Callable[[Mapping[str, str]], str] | None = None

    def game_title(self, values: Mapping[str, str] | None = None) -> str:
        """The readable title of the game `values` choose (the rest from `initial`)."""
        chosen = {p.name: p.initial for p in self.parameters}
        chosen.update(values or {})
        return self.words(chosen) if self.words is not None else self.title.removesuffix(" (OpenSpiel)")

    def game_string(self, values: Mapping[str, str] | None = None) -> str:
        """The game string of `values` (parameter name -> text; the rest from `initial`), as the menu
        writes it: parameters in menu order, each only when pinned as `always`, or not OpenSpiel's default.
        ValueError when a value is not allowed."""
        chosen = {p.name: p.initial for p in self.parameters}
        chosen.update(values or {})
        parts = []
        for p in self.parameters:
            value = p.read(str(chosen[p.name]))
            if value is None:
                raise ValueError(f"OpenSpiel's {self.name} takes {p.name} in {', '.join(p.allowed)} on this server, "
                                 f"not {quoted(chosen[p.name])}.")
            if p.always or value != p.default:
                parts.append(f"{p.name}={value}")
        return f"{self.name}({','.join(parts)})" if parts else self.name


def _choice(name: str, label: str, default: str, choices: tuple[str, ...], initial: str | None = None,
            always: bool = False) -> MenuParameter:
    return MenuParameter(name, label, "choice", default, initial or choices[0], choices=choices, always=always)


def _whole(name: str, label: str, default: str, low: int, high: int, initial: int,
           always: bool = False) -> MenuParameter:
    return MenuParameter(name, label, "int", default, str(initial), low, high, always=always)


_TWO_PLAYERS = _choice("players", "Players", "2", ("2",))


def _count(n: str, one: str, many: str) -> str:
    """"1 die", "2 dice"."""
    return f"{n} {one if n == '1' else many}"


def _leduc_words(v: Mapping[str, str]) -> str:
    return "Leduc poker" + (", suits merged" if v["suit_isomorphism"] == "True" else "")


def _liars_dice_words(v: Mapping[str, str]) -> str:
    return f"Liar's dice, {_count(v['numdice'], 'die', 'dice')}, {v['dice_sides']} sides"


def _goofspiel_words(v: Mapping[str, str]) -> str:
    paid = ", paid the point difference" if v["returns_type"] == "point_difference" else ""
    return f"Goofspiel, {_count(v['num_cards'], 'card', 'cards')}, points in {v['points_order']} order{paid}"


def _oshi_zumo_words(v: Mapping[str, str]) -> str:
    return (f"Oshi-zumo, {_count(v['coins'], 'coin', 'coins')}, {_count(v['size'], 'step', 'steps')} to the edge, "
            f"at most {_count(v['horizon'], 'round', 'rounds')}" + (", Alesia rules" if v["alesia"] == "True" else ""))


def _blotto_words(v: Mapping[str, str]) -> str:
    return f"Colonel Blotto, {_count(v['coins'], 'soldier', 'soldiers')}, {v['fields']} battlefields"
#: The OpenSpiel games a hosted app offers, with parameter ranges measured to enumerate within the
#: loader's limits (at most 51,181 histories, well under a second of the child's CPU; table in the
#: README) and to compile within cfrviz's tree bounds (`cfrviz.util.memory.check_tree_size`). Every one is
#: two-player zero-sum with explicit chance and perfect recall. Not here: liars_dice with 6 sides
#: (294,883 histories, over the cap), goofspiel without imp_info (turn-based, player 1 forgets its
#: bids), first_sealed_auction (general-sum) and blotto with 4 battlefields (too many actions with 8 soldiers).
OPENSPIEL_MENU: tuple[OpenSpielMenuGame, ...] = (
    OpenSpielMenuGame("kuhn_poker", "Kuhn poker (OpenSpiel)", (_TWO_PLAYERS,), largest="kuhn_poker",
                      description="OpenSpiel's Kuhn poker: 3 cards, one bet.", words=lambda v: "Kuhn poker"),
    OpenSpielMenuGame("leduc_poker", "Leduc poker (OpenSpiel)", (
        _TWO_PLAYERS,
        MenuParameter("suit_isomorphism", "Merge suits", "bool", "False", "False"),
    ), largest="leduc_poker", description="OpenSpiel's Leduc poker: 6 cards, two betting rounds.",
       words=_leduc_words),
    OpenSpielMenuGame("liars_dice", "Liar's dice (OpenSpiel)", (
        _choice("numdice", "Dice per player", "1", ("1",), always=True),
        _whole("dice_sides", "Sides of a die", "6", 2, 5, 3),
        _TWO_PLAYERS,
    ), largest="liars_dice(numdice=1,dice_sides=5)",
        description="Each player rolls one hidden die and bids on the faces, or calls liar.", words=_liars_dice_words),
    OpenSpielMenuGame("goofspiel", "Goofspiel (OpenSpiel)", (
        _whole("num_cards", "Cards", "13", 1, 4, 3),
        MenuParameter("imp_info", "Bids hidden", "bool", "False", "True", choices=("True",)),
        _choice("points_order", "Order of the point cards", "random", ("descending", "ascending", "random")),
        _choice("returns_type", "Payoff", "win_loss", ("win_loss", "point_difference")),
        _TWO_PLAYERS,
    ), largest="goofspiel(num_cards=4,imp_info=True)",
        description="Both players bid a card for each point card, unseen; played turn-based.", words=_goofspiel_words),
    OpenSpielMenuGame("oshi_zumo", "Oshi-zumo (OpenSpiel)", (
        _whole("coins", "Coins per player", "50", 1, 4, 3),
        _whole("size", "Steps to the edge", "3", 1, 2, 1),
        _whole("horizon", "Most rounds", "1000", 1, 5, 3),
        _choice("min_bid", "Smallest bid", "0", ("0",)),
        MenuParameter("alesia", "Alesia rules", "bool", "False", "False"),
    ), largest="oshi_zumo(coins=4,size=2,horizon=5)",
        description="Two wrestlers bid coins, unseen, to push each other off a small board.", words=_oshi_zumo_words),
    OpenSpielMenuGame("blotto", "Colonel Blotto (OpenSpiel)", (
        _whole("coins", "Soldiers", "10", 1, 8, 5, always=True),
        # Not 4 fields: with 8 soldiers that is 165 ways to split them at 27,391 histories, more numbers per
        # [N, A] table than cfrviz compiles (cfrviz.util.memory.MAX_NODE_ACTION_CELLS).
        _whole("fields", "Battlefields", "3", 2, 3, 3, always=True),
        _TWO_PLAYERS,
    ), largest="blotto(coins=8,fields=3)",
        description="Both players split their soldiers over the battlefields at once; most fields won wins.",
        words=_blotto_words),
)


def openspiel_menu() -> tuple[OpenSpielMenuGame, ...]:
    """The vetted OpenSpiel games the hosted app offers, in menu order."""
    return OPENSPIEL_MENU


def openspiel_menu_values(game_string: str) -> tuple[OpenSpielMenuGame, dict[str, str]] | None:
    """The menu game `game_string` ("openspiel:" optional) names and every parameter's value as the menu
    writes it, when the game is on the menu with every parameter in range, compared canonically (any
    order, "04" as 4, "true" as True, left-out parameters at OpenSpiel's defaults); else None."""
    from cfrviz.games.openspiel import parse_game_string

    text = str(game_string).strip()
    if text.lower().startswith("openspiel:"):
        text = text[len("openspiel:"):].strip()
    try:
        parsed = parse_game_string(text)
    except ValueError:
        return None
    found = next((g for g in OPENSPIEL_MENU if g.name == parsed.name), None)
    if found is None:
        return None
    given = dict(parsed.params)
    known = {p.name: p for p in found.parameters}
    if len(given) != len(parsed.params) or not set(given) <= set(known):
        return None   # a parameter twice (OpenSpiel keeps the last) or one the menu does not vet
    values = {}
    for name, p in known.items():
        raw = given.get(name, p.default)
        value = p.read(raw) if isinstance(raw, str) else None
        if value is None:
            return None
        values[name] = value
    return found, values


def openspiel_menu_string(game_string: str) -> str | None:
    """The menu's own form of `game_string` when it names a menu game within its ranges (see
    `openspiel_menu_values`), else None.

    >>> openspiel_menu_string("goofspiel(imp_info=true,num_cards=04)")
    'goofspiel(num_cards=4,imp_info=True)'
    >>> openspiel_menu_string("liars_dice(numdice=1,dice_sides=6)") is None   # 294,883 histories
    True
    """
    found = openspiel_menu_values(game_string)
    return None if found is None else found[0].game_string(found[1])


def openspiel_menu_title(game_string: str) -> str | None:
    """The readable title of `game_string` when it names a menu game within its ranges, else None.

    >>> openspiel_menu_title("liars_dice(numdice=1,dice_sides=5)")
    "Liar's dice, 1 die, 5 sides"
    >>> openspiel_menu_title("tic_tac_toe") is None
    True
    """
    found = openspiel_menu_values(game_string)
    return None if found is None else found[0].game_title(found[1])
