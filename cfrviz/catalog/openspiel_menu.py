"""The OpenSpiel games a hosted app offers: a menu of game strings with checked parameters, and the
rule that a shared server loads only those (unless started with CFRVIZ_OPENSPIEL_ANY=1). The
package and the CLI load any OpenSpiel game.
"""
from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from cfrviz.util.text import quoted
from cfrviz.catalog.entries import MAX_LINK_LENGTH
from cfrviz.catalog.lookups import lookup
# The menu itself (names, ranges, titles) lives apart, so the catalog's loader can title its games.
from cfrviz.catalog.openspiel_vetted import (OPENSPIEL_MENU, MenuParameter, OpenSpielMenuGame, openspiel_menu,
                                             openspiel_menu_string, openspiel_menu_title, openspiel_menu_values)

if TYPE_CHECKING:
    from cfrviz.catalog.entries import GameSpec

__all__ = ["OPENSPIEL_ANY_ENV", "OPENSPIEL_MENU", "MenuParameter", "OpenSpielMenuGame", "check_hosted",
           "hosted_openspiel_string", "lookup_hosted", "openspiel_allowed", "openspiel_any", "openspiel_menu",
           "openspiel_menu_string", "openspiel_menu_title", "openspiel_menu_values"]


# ---------------------------------------------------------------------------------------------
# The OpenSpiel menu: the games a hosted app loads from links, uploads and its sidebar.


#: Set to 1 to let the app load any OpenSpiel game string (still in a child process with limits);
#: otherwise links, uploads and the sidebar take only `OPENSPIEL_MENU`. The CLI and package never ask.
OPENSPIEL_ANY_ENV = "CFRVIZ_OPENSPIEL_ANY"


def openspiel_allowed(game_string: str) -> bool:
    """Whether the hosted app may load `game_string`: a menu game within its ranges."""
    return openspiel_menu_string(game_string) is not None


def openspiel_any() -> bool:
    """Whether this app was started with `CFRVIZ_OPENSPIEL_ANY=1` (any OpenSpiel game string)."""
    return os.environ.get(OPENSPIEL_ANY_ENV, "").strip() == "1"


def hosted_openspiel_string(game_string: str, *, any_game: bool | None = None) -> str:
    """The game string a hosted app loads for `game_string`: the menu's form of a menu game, or with
    `any_game` (default: `openspiel_any()`) the string itself. ValueError (one sentence) otherwise."""
    text = str(game_string).strip()
    if text.lower().startswith("openspiel:"):
        text = text[len("openspiel:"):].strip()
    if openspiel_any() if any_game is None else any_game:
        return text
    found = openspiel_menu_string(text)
    if found is None:
        names = ", ".join(g.name for g in OPENSPIEL_MENU)
        raise ValueError(f"The OpenSpiel game {quoted(text, 60)} is not on this server's menu ({names}, within "
                         "their ranges); the cfrviz package and CLI load any OpenSpiel game.")
    return found


def lookup_hosted(value: str, *, any_game: bool | None = None) -> GameSpec:
    """`lookup` for the hosted app: an OpenSpiel game only from the menu (see `hosted_openspiel_string`);
    other games as `lookup`."""
    text = str(value).strip()
    if text[:len("openspiel:")].lower() == "openspiel:" and len(text) <= MAX_LINK_LENGTH:
        return lookup("openspiel:" + hosted_openspiel_string(text, any_game=any_game))
    return lookup(value)


def check_hosted(game: object, params: Mapping[str, Any], *, any_game: bool | None = None) -> None:
    """ValueError (the menu's sentence) when saved settings (a run, a strategy file) name an OpenSpiel game
    the hosted app does not offer; nothing for other games."""
    if game == "openspiel":
        hosted_openspiel_string(str(params.get("game_string", "")), any_game=any_game)
