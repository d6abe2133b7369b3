"""cfrviz.app.links: deep-link parsing, fallbacks with notices, caps."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cfrviz import catalog
from cfrviz.app import links

PARAM_NAMES = ("game", "algo", "iters", "updates", "seed", "t", "node")


def test_no_parameters_give_the_defaults_without_notices():
    # Reference: the defaults stated in links.Choice (3-card Kuhn, vanilla CFR, 1000 simultaneous iterations).
    link = links.parse_query_params({})
    assert link.choice == links.Choice(catalog.get("kuhn"), "cfr", 1000, "simultaneous", 0)
    assert (link.t, link.node, link.notices) == (None, None, ())


def test_a_valid_link_round_trips():
    # Reference: query_params_of is the inverse of parse_query_params on valid values.
    params = {"game": "kuhn5", "algo": "external", "iters": "2500", "updates": "alternating", "seed": "7",
              "t": "1200", "node": "30"}
    link = links.parse_query_params(params)
    assert link.notices == ()
    assert link.choice.spec.name == "kuhn" and link.choice.spec.params == (("cards", 5),)
    assert links.query_params_of(link.choice, link.t, link.node) == params


def test_bad_values_fall_back_each_with_one_sentence():
    # Reference: hand count of Kuhn's tree: 1 chance node + 6 deals x 9 histories = 55 nodes (0..54).
    link = links.parse_query_params({"game": "chess", "iters": "abc", "updates": "sometimes", "seed": "-3",
                                  "t": "0", "node": "55"})
    assert link.choice == links.DEFAULT_CHOICE
    assert link.t is None and link.node is None
    assert len(link.notices) == 6
    assert all(n.endswith(".") and "Traceback" not in n for n in link.notices)
    assert links.parse_query_params({"node": "54"}).node == 54


def test_iterations_over_the_cap_are_capped_with_a_notice():
    # Reference: the catalog's app cap for Leduc (25,000 on the shared server: tests/unit/catalog/test_catalog.py works it out).
    link = links.parse_query_params({"game": "leduc", "iters": "1000000"})
    assert link.choice.iterations == links.iteration_cap("leduc") == 25_000
    assert "capped" in link.notices[0]


def test_regret_matching_is_only_offered_for_matrix_games():
    # Reference: the brief: "rm only for matrix games".
    assert "rm" not in links.algorithms_for("kuhn") and "rm" in links.algorithms_for("rps")
    link = links.parse_query_params({"game": "kuhn", "algo": "rm"})
    assert link.choice.algorithm == "cfr" and len(link.notices) == 1
    assert links.parse_query_params({"game": "rps"}).choice.algorithm == "rm"


def test_seed_is_only_in_links_of_sampling_algorithms():
    # Reference: ALGORITHMS marks cfr deterministic and outcome sampling random.
    assert "seed" not in links.query_params_of(links.Choice(algorithm="cfr", seed=5), None, None)
    assert links.query_params_of(links.Choice(algorithm="outcome", seed=5), None, None)["seed"] == "5"
    assert links.Choice(algorithm="cfr", seed=5).settings().seed == 0


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from(PARAM_NAMES), st.text(max_size=30) | st.integers().map(str)))
def test_any_query_parameters_parse_to_a_valid_view(params):
    # Property: parsing never raises and always yields values inside their ranges.
    link = links.parse_query_params(params)
    choice = link.choice
    assert choice.game_param is not None and choice.algorithm in links.algorithms_for(choice.spec)
    assert 1 <= choice.iterations <= links.iteration_cap(choice.spec)
    assert link.t is None or 1 <= link.t <= choice.iterations
    assert link.node is None or 0 <= link.node < choice.tree().num_nodes
    reparsed = links.parse_query_params(links.query_params_of(choice, link.t, link.node))
    assert reparsed.choice == choice and reparsed.notices == ()


def test_alternating_only_algorithms_switch_the_update_scheme():
    # Reference: external and outcome sampling declare update_schemes == ("alternating",)
    # (each traversal samples for one player), so a link asking simultaneous falls back.
    link = links.parse_query_params({"algo": "external", "updates": "simultaneous"})
    assert link.choice.algorithm == "external" and link.choice.updates == "alternating"
    assert any("one player per traversal" in n for n in link.notices)
    # Without an explicit request there is nothing to explain: the default just adapts.
    quiet = links.parse_query_params({"algo": "outcome"})
    assert quiet.choice.updates == "alternating" and quiet.notices == ()
    assert links.supported_updates(links.Choice(algorithm="cfr", updates="simultaneous")).updates == "simultaneous"


# --- hostile links (issue: non-ASCII digits, huge numbers, never raising) -------------------

# Each passes str.isdigit() but is not an ASCII digit: superscript, circled, Arabic-Indic,
# fullwidth, mathematical bold, NKo, Devanagari. int() reads some of them and refuses others.
NON_ASCII_DIGITS = ["³", "①", "١٢", "１２", "𝟏", "߁", "४"]


def test_non_ascii_digits_after_kuhn_are_an_unknown_game():
    # Reference: game names are ASCII ("kuhn4" ... "kuhn13"); anything else falls back to Kuhn poker.
    for digits in NON_ASCII_DIGITS + ["1" * 5000, "0" * 5000 + "5", "+4", "-4", "4.0"]:
        link = links.parse_query_params({"game": "kuhn" + digits})
        assert link.choice.spec.name == "kuhn" and link.choice.spec.params == (), digits
        assert len(link.notices) == 1 and "Unknown game" in link.notices[0], digits
        assert len(link.notices[0]) < 300  # the value is quoted cut short, not echoed whole


def test_non_ascii_and_oversized_numbers_fall_back_with_a_notice():
    # Reference: links.parse_whole_number accepts ASCII digits only, at most 12 of them.
    for name in ("iters", "seed", "t", "node"):
        for value in NON_ASCII_DIGITS + ["9" * 13, "9" * 5000, "1e3", "0x10", "١" * 4400]:
            link = links.parse_query_params({name: value})
            assert len(link.notices) == 1, (name, value, link.notices)
            assert link.notices[0].endswith(".") and len(link.notices[0]) < 300
    assert links.parse_query_params({"iters": "123456789012"}).choice.iterations == 100_000  # capped, 12 digits
    assert links.parse_whole_number(" +7 ") == 7


def test_parse_never_raises_even_on_hostile_values():
    # Reference: the never-raise promise of parse_query_params (values of any type, any size).
    class Hostile:
        def __str__(self) -> str:
            raise RuntimeError("boom")

    for params in ({"game": Hostile()}, {"iters": [Hostile()]}, {"t": []}, {"node": None}, {"seed": 10**5000},
                   {"game": "x" * 1_000_000}, {1: 2}, {"game": ["kuhn", "leduc"]}):
        link = links.parse_query_params(params)
        assert link.choice.game_param is not None
        assert all(len(n) < 400 for n in link.notices)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from(PARAM_NAMES),
                       st.text(alphabet=st.characters(categories=("Nd", "No", "Nl")), max_size=20)
                       | st.from_regex(r"kuhn[\d\u00b2\u00b3\u2460-\u2473]{1,8}", fullmatch=True)
                       | st.sampled_from(["[a](https://example.org/)", "![x](http://h/x.png)", ":red[x]", "$x$",
                                          "**b**", "<img src=x>", "`c`", ":material/home:"])))
def test_any_digits_or_markup_parse_to_a_valid_view(params):
    # Property: Unicode digits and markdown in any parameter never raise and never leave range.
    link = links.parse_query_params(params)
    assert 1 <= link.choice.iterations <= links.iteration_cap(link.choice.spec)
    assert link.t is None or 1 <= link.t <= link.choice.iterations
    assert link.node is None or 0 <= link.node < link.choice.tree().num_nodes
    for value in params.values():
        if not value.isascii():  # a non-ASCII value is never a valid number or name
            assert link.notices


# OpenSpiel games in links: the server's menu only, unless the app opted in (CFRVIZ_OPENSPIEL_ANY=1).

def _no_openspiel_child(monkeypatch):
    from cfrviz.games import openspiel

    def refuse(text, cap):
        raise AssertionError(f"a child process was started for {text!r}")

    openspiel.forget_openspiel_games()
    monkeypatch.setattr(openspiel, "_run_child", refuse)


def test_an_openspiel_link_off_the_menu_gets_a_sentence_and_the_default_view(monkeypatch):
    # Reference: catalog.OPENSPIEL_MENU (six games with ranges); a segfaulting, a memory-hungry and a
    # file-naming string are all off it, and are refused before any child process starts.
    from cfrviz import catalog

    monkeypatch.delenv(catalog.OPENSPIEL_ANY_ENV, raising=False)
    _no_openspiel_child(monkeypatch)
    for value in ("openspiel:connect_four(rows=0)", "openspiel:gomoku(dims=1000000)",
                  "OpenSpiel:bargaining(instances_file=.env)", "openspiel:liars_dice(numdice=1,dice_sides=6)"):
        link = links.parse_query_params({"game": value, "iters": "500"})
        assert link.choice == links.Choice(catalog.get("kuhn"), "cfr", 500, "simultaneous", 0)
        assert len(link.notices) == 1
        assert link.notices[0].startswith("The OpenSpiel game ")
        assert link.notices[0].endswith("the cfrviz package and CLI load any OpenSpiel game. Showing Kuhn poker.")


def test_a_menu_link_loads_in_the_menus_own_form():
    # Reference: OpenSpiel reads parameters in any order and "02" as 2; the menu writes numdice first.
    from cfrviz.games import openspiel

    openspiel.forget_openspiel_games()
    link = links.parse_query_params({"game": "openspiel:liars_dice(dice_sides=02,numdice=1)"})
    assert link.notices == ()
    assert link.choice.spec.name == "openspiel"
    assert link.choice.spec.params == (("game_string", "liars_dice(numdice=1,dice_sides=2)"),)
    assert links.query_params_of(link.choice, None, None)["game"] == "openspiel:liars_dice(numdice=1,dice_sides=2)"
    assert link.choice.tree().num_nodes == 127   # OpenSpiel's history count of 1 die with 2 sides (measured)


def test_an_app_that_opted_in_takes_any_openspiel_link_and_a_crash_is_a_sentence(monkeypatch):
    from cfrviz import catalog
    from cfrviz.games import openspiel

    monkeypatch.setenv(catalog.OPENSPIEL_ANY_ENV, "1")
    openspiel.forget_openspiel_games()
    link = links.parse_query_params({"game": "openspiel:matrix_mp"})
    assert link.notices == () and link.choice.tree().num_nodes == 7   # matching pennies, played turn-based
    link = links.parse_query_params({"game": "openspiel:go_fish(initial_cards=0)"})
    assert link.choice == links.DEFAULT_CHOICE
    assert link.notices == ("OpenSpiel crashed (SIGSEGV) while loading 'go_fish(initial_cards=0)', so that game "
                            "cannot be used. Showing Kuhn poker.",)


def test_a_lock_on_a_game_shown_with_regret_matching_falls_back_with_one_notice():
    # Reference: rock-paper-scissors' default view solves with regret matching, and a locked game is no
    # matrix game (cfrviz.solving.locked.solve_locked refuses rm): the link shows the game without locks.
    from cfrviz import solving

    link = links.parse_query_params({"game": "rps", "lock": "player 1=1,0,0"})
    assert link.choice.algorithm == "rm" and not link.choice.locks
    (notice,) = link.notices
    assert "regret matching" in notice and notice.endswith("showing the game without locks."), notice
    choice = link.choice
    assert solving.solve(choice.spec, choice.algorithm, 10, locks=choice.locks).iterations[-1] == 10


def test_every_lock_a_link_keeps_can_be_solved():
    # Reference: the runner's own check (solve_locked): whatever locks parse_query_params keeps, the view solves.
    from cfrviz import solving

    for game, lock in (("rps", "player 1=1,0,0"), ("kuhn", "J=0,1")):
        for algorithm in links.algorithms_for(game):
            choice = links.parse_query_params({"game": game, "algo": str(algorithm), "lock": lock}).choice
            assert choice.algorithm == algorithm
            run = solving.solve(choice.spec, choice.algorithm, 5, updates=choice.updates, seed=choice.seed,
                               locks=choice.locks)
            assert run.settings.locks == choice.locks, (game, algorithm)
            assert bool(choice.locks) == (algorithm != "rm"), (game, algorithm)


def test_a_linked_game_over_the_tree_bounds_is_a_notice_naming_the_bound(monkeypatch):
    # Reference: cfrviz.util.memory.MAX_NODE_ACTION_CELLS (4,000,000); blotto with 8 soldiers on 4 fields has
    # 27,391 histories and 165 ways to split (C(11, 3)), 4,519,515 numbers per history table (measured).
    from cfrviz import catalog

    monkeypatch.setenv(catalog.OPENSPIEL_ANY_ENV, "1")
    link = links.parse_query_params({"game": "openspiel:blotto(coins=8,fields=4)", "iters": "500"})
    assert link.choice == links.Choice(catalog.get("kuhn"), "cfr", 500, "simultaneous", 0)
    (notice,) = link.notices
    assert "4,519,515 numbers per history table" in notice and notice.endswith("Showing Kuhn poker."), notice
