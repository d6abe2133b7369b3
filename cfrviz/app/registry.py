"""The app's pages, one entry each: its script, its label and icon in the navigation, and the settings
it owns beyond the sidebar (carried in its links). `links` reads the settings from here; a page names
itself with its `Page` member."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from cfrviz.app.page_setting import PageSetting
from cfrviz.games.matrix import PRESETS as MATRIX_PRESETS
from cfrviz.solvers import ALGORITHMS, UPDATE_SCHEMES
from cfrviz.teaching.practice import Practice
from cfrviz.teaching.walkthrough import WALKTHROUGH_ALGORITHMS
from cfrviz.util.vocabulary import DECISION_PLAYERS, Algorithm, Player, StrategyKind, UpdateScheme, parse_player, \
    player_text
from cfrviz.util.whole_numbers import MAX_SEED

__all__ = ["ALTERNATE_SEAT", "PAGES", "PAGE_SETTINGS", "SEAT_PREFIX", "Page", "PageEntry", "PageSetting", "page_entry",
           "parse_seat"]


class Page(StrEnum):
    """The app's pages (the values are the names a page's settings were filed under)."""

    HOME = "home"
    GAME_TREE = "game_tree"
    EVOLUTION = "evolution"
    CONVERGENCE = "convergence"
    COMPARE = "compare"
    REGRET_MATCHING = "regret_matching"
    WALKTHROUGH = "walkthrough"
    BEST_RESPONSE = "best_response"
    PLAY = "play"


@dataclass(frozen=True)
class PageEntry:
    """One page: its script (the path Streamlit knows it by), its label and Material icon in the
    navigation, and its own settings (labelled by the page itself, with format_func)."""

    page: Page
    script: str
    label: str
    icon: str
    settings: tuple[PageSetting, ...] = ()


#: The Play page's seat in a link: a player's `player_text` with this prefix ("p1", "p2"), or `ALTERNATE_SEAT`.
SEAT_PREFIX = "p"
ALTERNATE_SEAT = "alternate"
_SEATS = tuple(player_text(p, SEAT_PREFIX) for p in DECISION_PLAYERS) + (ALTERNATE_SEAT,)


def parse_seat(text: str) -> Player | None:
    """The seat a `play_seat` value names: a player, or None to alternate (ValueError otherwise)."""
    return None if text == ALTERNATE_SEAT else parse_player(text, SEAT_PREFIX)


_COMPARED = tuple(Algorithm(a) for a in ALGORITHMS if a != Algorithm.REGRET_MATCHING)
_COMPARED_FIRST = (Algorithm.CFR, Algorithm.CFR_PLUS, Algorithm.DISCOUNTED_CFR, Algorithm.PREDICTIVE_CFR_PLUS,
                   Algorithm.PREDICTIVE_DISCOUNTED_CFR_PLUS, Algorithm.EXTERNAL_SAMPLING)

# Material icons ship with Streamlit; emoji would need a font the server's browser may lack.
#: Every page, in the navigation's order.
PAGES: tuple[PageEntry, ...] = (
    PageEntry(Page.HOME, "app.py", "Home", ":material/home:", (
        # The practice questions answered right (`cfrviz.teaching.practice`): carried by every page's link.
        PageSetting("practice", "practice questions answered", (), tuple(p.value for p in Practice), many=True),
    )),
    PageEntry(Page.GAME_TREE, "pages/1_Game_tree.py", "Game tree", ":material/account_tree:", (
        PageSetting("edges", "edge widths", StrategyKind.AVERAGE.value, tuple(k.value for k in StrategyKind)),
    )),
    PageEntry(Page.EVOLUTION, "pages/2_Evolution.py", "Evolution", ":material/timeline:", (
        # The chosen information sets by index ("0,5"), "none", or "auto" (the selected node's set or the first two).
        PageSetting("evo_sets", "chosen information sets", "auto", token=True),
    )),
    PageEntry(Page.CONVERGENCE, "pages/3_Convergence.py", "Convergence", ":material/trending_down:"),
    PageEntry(Page.COMPARE, "pages/4_Compare.py", "Compare", ":material/compare_arrows:", (
        PageSetting("cmp_algos", "list of algorithms to compare", tuple(a for a in _COMPARED if a in _COMPARED_FIRST),
                    _COMPARED, many=True),
        PageSetting("cmp_updates", "list of update schemes to compare", (UpdateScheme.ALTERNATING,), UPDATE_SCHEMES,
                    many=True),
        PageSetting("cmp_iters", "iterations of the full-traversal algorithms", 1000, low=1, high=100_000),
        PageSetting("cmp_sampling_iters", "iterations of the sampling algorithms", 10_000, low=1, high=100_000),
    )),
    PageEntry(Page.REGRET_MATCHING, "pages/5_Regret_matching.py", "Regret matching", ":material/change_history:", (
        PageSetting("rm_game", "matrix game", "rps", tuple(MATRIX_PRESETS)),
        PageSetting("rm_mode", "opponent", "self", ("self", "fixed")),
        PageSetting("rm_update", "kind of update", "expected", ("expected", "sampled")),
        PageSetting("rm_iters", "number of iterations", 10_000, low=1, high=100_000),
        PageSetting("rm_seed", "seed", 0, low=0, high=MAX_SEED),
        # The page opens at t = 1, where the current strategy starts circling (issue 30); 0 shows the last.
        PageSetting("rm_t", "iteration shown (0 for the last)", 1, low=0, high=100_000),
    )),
    PageEntry(Page.WALKTHROUGH, "pages/6_Walkthrough.py", "Walkthrough", ":material/footprint:", (
        PageSetting("walk_game", "walkthrough game", "kuhn", token=True),
        # Plain strings (`.value`) where the page's widget lists plain strings: Streamlit refuses an enum member
        # as the value of a widget whose options are not of its enum.
        PageSetting("walk_algo", "walkthrough algorithm", Algorithm.CHANCE_SAMPLING.value,
                    tuple(a.value for a in WALKTHROUGH_ALGORITHMS)),
        PageSetting("walk_updates", "walkthrough update scheme", UpdateScheme.SIMULTANEOUS, UPDATE_SCHEMES),
        PageSetting("walk_t", "walkthrough iteration", 1, low=1, high=100_000),
        PageSetting("walk_deal", "deal", "QK", token=True),
        PageSetting("walk_seed", "walkthrough seed", 0, low=0, high=MAX_SEED),
        PageSetting("walk_step", "walkthrough step", 1, low=1, high=1_000_000),
    )),
    PageEntry(Page.BEST_RESPONSE, "pages/7_Best_response.py", "Best response", ":material/swords:", (
        PageSetting("br_player", "best responder", player_text(Player.FIRST),
                    tuple(player_text(p) for p in DECISION_PLAYERS)),
    )),
    PageEntry(Page.PLAY, "pages/8_Play.py", "Play", ":material/playing_cards:", (
        PageSetting("play_seat", "seat", _SEATS[0], _SEATS),
        PageSetting("play_deals", "way of dealing", "secret", ("secret", "seeded")),
        PageSetting("play_seed", "seed of the hands", 0, low=0, high=MAX_SEED),
    )),
)
_ENTRY: Mapping[Page, PageEntry] = {entry.page: entry for entry in PAGES}
#: Every page's own settings, in the pages' order (their names are unique across pages).
PAGE_SETTINGS: tuple[PageSetting, ...] = tuple(setting for entry in PAGES for setting in entry.settings)


def page_entry(page: Page) -> PageEntry:
    """The registry's entry of `page`."""
    return _ENTRY[page]
