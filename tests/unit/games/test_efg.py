"""Gambit `.efg` files: the reader, its refusals, and the games that ship with cfrviz.

References: Kuhn poker read from `cfrviz/games/data/games/kuhn.efg` must be the built-in Kuhn poker
(Kuhn 1950) node for node, with the same CFR iterates; its value is -1/18. Myerson's card
game (Myerson 1991, section 2.1) has value 1/3 (player 1 raises black 1/3, player 2 meets
2/3; solved by hand from the two indifference conditions). Every refusal below is a file
built by hand here with the stated defect on the stated line.
"""
from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cfrviz
from cfrviz.games import efg
from cfrviz.games.efg_tokens import EfgError
from cfrviz.games.efg import bundled_games, load_efg, read_bundled, read_efg
from cfrviz.util.vocabulary import Player
from cfrviz.analysis.lp import solve_lp
from cfrviz.tree import GameTree, build_tree
from cfrviz.catalog import compile_game

HEADER = 'EFG 2 R "t" { "A" "B" }\n'
# Matching pennies with player 2's second node in the same information set.
PENNIES = HEADER + """p "" 1 1 "x" { "H" "T" } 0
p "" 2 1 "y" { "h" "t" } 0
t "" 1 "win" { 1 -1 }
t "" 2 "lose" { -1 1 }
p "" 2 1 "y" { "h" "t" } 0
t "" 2
t "" 1
"""


@pytest.fixture(scope="module")
def kuhn_pair() -> tuple[GameTree, GameTree]:
    return compile_game("kuhn"), build_tree(read_bundled("kuhn"))


def test_bundled_kuhn_is_the_built_in_kuhn_node_for_node(kuhn_pair: tuple[GameTree, GameTree]) -> None:
    built_in, from_file = kuhn_pair
    # 1 deal, 6 deals x (2 + 2 player-1 decisions... ) : 1 chance + 24 decisions + 30 terminals, 12 sets.
    assert (from_file.num_nodes, from_file.num_decision_nodes, from_file.num_terminals,
            from_file.num_infosets) == (55, 24, 30, 12)
    for name in ("parent", "actor", "action_index", "chance_probability", "payoff", "num_children"):
        np.testing.assert_array_equal(getattr(from_file, name), getattr(built_in, name), err_msg=name)
    # The mapping between the two sets of keys, found through the nodes, not through the names.
    mapping: dict[str, str] = {}
    for node in np.flatnonzero(built_in.actor < Player.CHANCE):
        ours = from_file.infosets[from_file.infoset[node]].key
        theirs = built_in.infosets[built_in.infoset[node]].key
        assert mapping.setdefault(ours, theirs) == theirs
    assert len(set(mapping.values())) == len(mapping) == 12
    for key, other in mapping.items():
        a, b = from_file.infosets[from_file.infoset_index(key)], built_in.infosets[built_in.infoset_index(other)]
        assert (a.player, a.actions, a.history) == (b.player, b.actions, b.history)
    # The file names its sets like the built-in keys, so the mapping is the identity.
    assert all(k == v for k, v in mapping.items())


@pytest.mark.parametrize("algorithm", ["cfr", "cfr+", "external"])
def test_bundled_kuhn_gives_the_same_strategies_and_values(algorithm: str) -> None:
    built_in = cfrviz.solve("kuhn", algorithm, iterations=300, seed=7)
    from_file = cfrviz.solve("efg:kuhn", algorithm, iterations=300, seed=7)
    assert from_file.settings.spec.name == "efg" and from_file.tree.game.title == "Kuhn poker"
    for field in ("average_strategy", "current_strategy", "cumulative_regret"):
        np.testing.assert_allclose(getattr(from_file, field), getattr(built_in, field), rtol=0, atol=1e-12,
                                   err_msg=field)
    assert abs(from_file.average_strategy_value - built_in.average_strategy_value) < 1e-12
    np.testing.assert_allclose(from_file.exploitability, built_in.exploitability, rtol=0, atol=1e-12)
    # The exact value both converge to (Kuhn 1950): -1/18, from the sequence-form LP of the file's tree.
    assert abs(solve_lp(from_file.tree)[0] + 1 / 18) < 1e-12


def test_bundled_games_list_titles_and_solve_to_their_published_values() -> None:
    games = bundled_games()
    assert games == {"kuhn": "Kuhn poker", "matching_pennies": "Matching pennies, hidden coin",
                     "myerson_card_game": "Myerson's card game"}
    expected = {"kuhn": Fraction(-1, 18), "matching_pennies": Fraction(0), "myerson_card_game": Fraction(1, 3)}
    for name in games:
        game = read_bundled(name)
        assert game.bundled == name and game.name == name and game.description
        value, _ = solve_lp(build_tree(game))
        assert abs(value - float(expected[name])) < 1e-9, name
    assert read_bundled("kuhn") is read_bundled("kuhn")     # read once per process


def test_myerson_card_game_equilibrium_is_the_closed_form() -> None:
    tree = build_tree(read_bundled("myerson_card_game"))
    _, strategy = solve_lp(tree)
    rows = {record.key: strategy[i, :len(record.actions)] for i, record in enumerate(tree.infosets)}
    np.testing.assert_allclose(rows["red"], [1, 0], atol=1e-9)          # raise, fold
    np.testing.assert_allclose(rows["black"], [1 / 3, 2 / 3], atol=1e-9)
    np.testing.assert_allclose(rows["raise"], [2 / 3, 1 / 3], atol=1e-9)  # meet, pass


def test_reads_the_format_details() -> None:
    text = ('EFG 2 R "A \\"quoted\\" title" { "Ann" "Bob" }\n"a comment\nover two lines"\n'
            'c "root" 1 "deal" { "x" 0.25 "y" 3/4 } 0\n'
            'p "" 1 1 "" { "" "" } 7 "entry fee" { -1, 1 }\n'   # inner outcome, empty action names
            't "" 1 "a" { 2 -2 }\n'
            't "" 0\n'
            'p "" 2 1 "" { "l" "r" } 0\n'
            't "" 1 "a" { 2 -2 }\n'
            't "" 2 "b" { 1.5e0 -3/2 }\n')
    game = read_efg(text)
    assert game.title == 'A "quoted" title' and game.players == ("Ann", "Bob")
    assert game.comment == "a comment\nover two lines"
    tree = build_tree(game)
    assert tree.chance_probability[1:3].tolist() == [0.25, 0.75]
    # Inner outcome adds to both leaves below it: 2 - 1 and 0 - 1.
    leaves = {tree.node_label[n]: tree.payoff[n] for n in np.flatnonzero(tree.actor == Player.TERMINAL)}
    assert leaves == {"x · 1": 1.0, "x · 2": -1.0, "y · l": 2.0, "y · r": 1.5}
    assert tree.infosets[0].actions == ("1", "2")
    assert [r.key for r in tree.infosets] == ["P1:1", "P2:1"]      # names missing: numbered keys
    assert len(set(tree.node_label)) == tree.num_nodes


def test_repeated_chance_events_and_outcomes_may_omit_or_repeat_their_description() -> None:
    text = (HEADER + 'c "" 1 "coin" { "h" 1/2 "t" 1/2 } 0\n'
            'c "" 2 "die" { "1" 0.5 "2" 0.5 } 0\np "" 1 1 "x" { "a" } 0\nt "" 1 "o" { 1 -1 }\nt "" 2 "p" { 2 -2 }\n'
            'c "" 2 0\np "" 1 1 0\nt "" 1\nt "" 2 "p" { 2 -2 }\n')
    tree = build_tree(read_efg(text))
    assert tree.num_nodes == 9 and tree.num_infosets == 1
    assert sorted(tree.payoff[tree.actor == Player.TERMINAL].tolist()) == [1.0, 1.0, 2.0, 2.0]
    with pytest.raises(EfgError, match=r"^Line 7 of the file: chance event 2 is described differently here and on "
                                        r"line 3\.$"):
        read_efg(text.replace('c "" 2 0', 'c "" 2 "die" { "1" 0.5 "3" 0.5 } 0'))
    with pytest.raises(EfgError, match=r"^Line 10 of the file: outcome 2 is described differently here and on line 6"):
        read_efg(text[:text.rindex('t "" 2')] + 't "" 2 "p" { 3 -3 }\n')


def test_constant_sum_is_shifted_to_zero_sum_and_said_so() -> None:
    zero_sum = read_efg(PENNIES)
    constant = read_efg(PENNIES.replace("{ 1 -1 }", "{ 3 1 }").replace("{ -1 1 }", "{ 1 3 }"))
    assert constant.payoff_shift == 2 and "sum to 4" in constant.description
    assert constant.payoff == zero_sum.payoff
    assert zero_sum.payoff_shift == 0 and zero_sum.description == ""


def test_load_efg_reads_a_path_and_refuses_a_missing_one(tmp_path: Path) -> None:
    path = tmp_path / "pennies.efg"
    path.write_text(PENNIES, encoding="utf-8")
    assert load_efg(path).title == "t"
    with pytest.raises(EfgError, match=r"^Cannot read missing\.efg: .*\.$"):
        load_efg(tmp_path / "missing.efg")
    big = tmp_path / "big.efg"
    big.write_bytes(b" " * (efg.MAX_EFG_BYTES + 1))
    with pytest.raises(EfgError, match=r"^big\.efg is 1,000,001 bytes; .* up to 1,000,000 bytes\.$"):
        load_efg(big)


# (file text, line, words the sentence must contain): each file has exactly one defect.
REFUSALS = [
    ('EFG 2 R "t" { "A" "B" "C" }\nt "" 0\n', 1, "3 players; cfrviz solves two-player games only"),
    ('EFG 2 R "t" { "A" }\nt "" 0\n', 1, "1 player;"),
    (PENNIES.replace('t "" 2\n', 't "" 3 "draw" { 0 1 }\n'), 7, "payoffs here sum to 1 but to 0 on line 4"),
    (HEADER + 'c "" 1 "" { "a" 1/3 "b" 0.333 } 0\nt "" 0\nt "" 0\n', 2, "sum to 1999/3000, not exactly 1"),
    (HEADER + 'c "" 1 "" { "a" -1/2 "b" 3/2 } 0\nt "" 0\nt "" 0\n', 2, "-1/2 is negative"),
    (PENNIES.replace('p "" 2 1 "y" { "h" "t" } 0\nt "" 2', 'p "" 2 1 "y" { "t" "h" } 0\nt "" 2'), 6,
     "actions t, h here but h, t on line 3; the actions of one information set must be the same"),
    (PENNIES.replace('p "" 2 1 "y" { "h" "t" } 0\nt "" 2', 'p "" 2 1 "z" { "h" "t" } 0\nt "" 2'), 6,
     'is named "z" here but "y" on line 3'),
    (PENNIES.replace("{ 1 -1 }", "{ 1 -1 ]"), 4, "unexpected character ']'"),
    (PENNIES.replace('"win" { 1 -1 }', '"win" { 1 -1'), 5,
     "expected a payoff or '}' to close the list opened on line 4, found 't'"),
    (PENNIES.replace('{ "H" "T" }', '{ "H" "T" } }'), 2, "expected an outcome number (0 for none), found '}'"),
    (HEADER + 'p "" 1 1 "x { "H" } 0\n', 2, "a quoted text starts here and never ends"),
    (HEADER + 'p "" 1 1 "x" { H } 0\n', 2, "expected an action name in quotes or '}' to close the list opened on line 2, found 'H'"),
    (HEADER + 'p "unended 1 1 "x" { "H" } 0\n', 2, None),
    (PENNIES.replace('t "" 1\n', ""), 8, "the file ends before the tree is complete (1 more node expected)"),
    (PENNIES + 't "" 0\n', 9, "text follows the last node of the tree ('t')"),
    (PENNIES.replace('t "" 2\n', 't "" 9\n'), 7, "outcome 9 is used before its payoffs are given"),
    (HEADER + 'p "" 1 4 0\n', 2, "information set 4 of player 1 is used before its actions are listed"),
    (HEADER + 'p "" 3 1 "x" { "H" } 0\nt "" 0\n', 2, "player 3 is not one of the game's 2 players"),
    (HEADER + 'p "" 1 1 "x" { "H" } 0 "o" { 1 -1 }\nt "" 0\n', 2, "outcome 0 means no outcome"),
    (HEADER + 'p "" 1 1 "x" { "H" } 0\nt "" 1 "o" { 1 -1 2 }\n', 3, "outcome 1 gives 3 payoffs for 2 players"),
    (HEADER + 'p "" 1 1 "x" { "H" "H" } 0\nt "" 0\nt "" 0\n', 2, 'an action is named "H" twice'),
    (HEADER + 'c "" 1 "" { "a" 1 } 0\nt "" 1 "o" { 1/0 -1 }\n', 3, "'1/0' is not a number"),
    (HEADER + 't "" 1 "o" { 1 -1 }\n', 2, "no decisions for either player"),
    ('EFG 3 R "t" { "A" "B" }\n', 1, "only version 2"),
    ('NFG 1 R "t" { "A" "B" }\n', 1, "starts with 'EFG 2 R'"),
    ("", 1, "the file is empty"),
    (HEADER + 'p "" 1 1 "x" { "H" } 0\nt "" 1 "o" { 1' + "0" * 50 + " -1 }\n", 3, "longer than 40 characters"),
    # Player 1 forgets their own first move: both second-move nodes share one set.
    (HEADER + 'p "" 1 1 "first" { "L" "R" } 0\np "" 1 2 "second" { "l" "r" } 0\nt "" 1 "o" { 1 -1 }\n'
     't "" 2 "p" { -1 1 }\np "" 1 2 "second" { "l" "r" } 0\nt "" 2\nt "" 1\n', 6,
     "player 1 would forget at information set 2 what they did or saw before (this node and line 3"),
]


@pytest.mark.parametrize("text, line, words", REFUSALS, ids=[f"refusal{k}" for k in range(len(REFUSALS))])
def test_refusals_are_one_sentence_naming_the_line(text: str, line: int, words: str | None) -> None:
    with pytest.raises(EfgError) as caught:
        read_efg(text)
    message = str(caught.value)
    assert message.startswith(f"Line {line} of the file: "), message
    assert message.endswith(".") and "\n" not in message, message
    if words is not None:
        assert words in message, message


def test_size_and_node_caps(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(EfgError, match=r"^The file is 1,000,001 bytes; cfrviz reads \.efg files up to"):
        read_efg(" " * (efg.MAX_EFG_BYTES + 1))
    monkeypatch.setattr(efg, "MAX_EFG_NODES", 5)
    with pytest.raises(EfgError, match=r"^Line 7 of the file: the tree has more than 5 nodes"):
        read_efg(PENNIES)


def test_bytes_must_be_utf8() -> None:
    assert read_efg(PENNIES.encode("utf-8")).title == "t"
    with pytest.raises(EfgError, match=r"^Line 2 of the file: the file is not UTF-8 text\.$"):
        read_efg(HEADER.encode() + b'p "\xff" 1 1 "x" { "H" } 0\n')


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_damaged_files_give_a_sentence_or_a_game(data: st.DataObject) -> None:
    text = read_bundled("kuhn").text
    start = data.draw(st.integers(0, len(text)))
    stop = data.draw(st.integers(start, min(len(text), start + 40)))
    insert = data.draw(st.text(alphabet='{}"\\ 01/.-,cpt\n', max_size=8))
    try:
        game = read_efg(text[:start] + insert + text[stop:])
    except EfgError as error:
        assert str(error).endswith(".") and "\n" not in str(error)
    else:
        build_tree(game)


@pytest.mark.parametrize("name", ["rps", "kuhn", "leduc"])
def test_written_files_read_back_to_the_same_tree(name: str) -> None:
    from cfrviz.tree.efg_export import write_efg

    tree = compile_game(name)
    text = write_efg(tree)
    again = build_tree(read_efg(text))
    for array in ("parent", "actor", "infoset", "action_index", "chance_probability", "payoff"):
        np.testing.assert_array_equal(getattr(again, array), getattr(tree, array), err_msg=array)
    assert again.node_label == tree.node_label and again.edge_label == tree.edge_label
    assert [(r.key, r.player, r.actions) for r in again.infosets] == [(r.key, r.player, r.actions)
                                                                     for r in tree.infosets]
    # Kuhn's deal is written as six exact sixths, not as 0.16666666666666666.
    assert name != "kuhn" or '"JQ" 1/6 "JK" 1/6' in text


def test_a_strangers_names_are_kept_as_plain_text() -> None:
    # Markdown, HTML and LaTeX in names would reach captions and figure titles; they are dropped.
    text = ('EFG 2 R "<b>*Big*</b> $x$ [link](http://e.x)\n`code`" { "P_1" "P~2" }\n'
            '"# Heading\n- item <script>alert(1)</script>"\n'
            'p "**node**" 1 1 "{set}" { "a*b" "c\\\\d" } 0\nt "" 1 "o" { 1 -1 }\nt "" 2 "p" { -1 1 }\n')
    game = read_efg(text)
    assert game.title == "bBig/b x link(http://e.x) code"
    assert game.players == ("P_1", "P2")
    assert game.comment == "Heading\nitem scriptalert(1)/script"
    assert game.labels[0] == "node" and game.infosets[0].key == "set"
    assert game.infosets[0].actions == ("ab", "cd")
    assert game.text == text              # the file itself is kept as given, for saving runs
    long_title = read_efg(text.replace("<b>*Big*</b>", "x" * 300)).title
    assert len(long_title) == 100 and long_title.endswith("…")


def test_windows_line_ends_and_a_byte_order_mark_read_the_same() -> None:
    text = read_bundled("kuhn").text
    game = read_efg(("\ufeff" + text.replace("\n", "\r\n")).encode("utf-8"))
    assert game.payoff == read_bundled("kuhn").payoff and game.labels == read_bundled("kuhn").labels
    with pytest.raises(EfgError, match=r"^Line 4 of the file: the chance probabilities here sum to 41/42, not"):
        read_efg(text.replace("\n", "\r\n").replace('1/6 "JK"', '1/7 "JK"'))
