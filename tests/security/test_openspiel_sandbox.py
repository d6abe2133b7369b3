"""OpenSpiel in a child process: its limits, crashes, file-naming strings, caches and the hosted menu.

References: the hostile strings here were found by running every registered OpenSpiel 2.0.2 game
with parameters 0, -1 and 1,000,000 through the loader (crashes: the worker ended with exit
status 139 = SIGSEGV or 134 = SIGABRT when run by hand); the memory and CPU figures are the
ones scripts/openspiel_menu.py measured (liars_dice with 5 sides peaks at 54 MB of address
space in the child, kuhn_poker at 44 MB); the sentences are the ones `cfrviz.games.openspiel`
promises for each way a child can end.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cfrviz
from cfrviz import catalog
from cfrviz.games import openspiel
from cfrviz.games.openspiel import FILE_REFUSAL, GameString, load_openspiel, parse_game_string
from cfrviz.run import export_strategy, save_run
from tests.support.messages import one_sentence

ROOT = Path(__file__).resolve().parents[2]
# Forget OpenSpiel's game strings (and built games) around every test: tests/security/conftest.py.
pytestmark = pytest.mark.usefixtures("fresh_caches")


@pytest.fixture
def no_child(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail the test if any OpenSpiel child process is started."""
    def refuse(text: str, cap: int) -> dict[str, Any]:
        raise AssertionError(f"a child process was started for {text!r}")

    monkeypatch.setattr(openspiel, "_run_child", refuse)


@pytest.fixture
def child_calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The game strings a child process is started for, in order."""
    calls: list[str] = []
    real = openspiel._run_child

    def counted(text: str, cap: int) -> dict[str, Any]:
        calls.append(text)
        return real(text, cap)

    monkeypatch.setattr(openspiel, "_run_child", counted)
    return calls


# ---------------------------------------------------------------------------------------------
# The child's limits, each ending in one sentence that names the game string.


@pytest.mark.parametrize("game_string, signal_name", [
    ("connect_four(rows=0)", "SIGSEGV"),
    ("havannah(board_size=-1)", "SIGSEGV"),
    ("hanabi(colors=0)", "SIGABRT"),
])
def test_a_crash_in_openspiel_is_one_sentence_and_the_caller_lives(game_string: str, signal_name: str) -> None:
    with pytest.raises(ValueError) as caught:
        load_openspiel(game_string)
    message = str(caught.value)
    assert message == f"OpenSpiel crashed ({signal_name}) while loading {game_string!r}, so that game cannot be used."
    assert one_sentence(message)


def test_the_memory_cap_ends_in_one_sentence(monkeypatch: pytest.MonkeyPatch) -> None:
    # Measured: kuhn_poker peaks at 44 MB of address space in the child, liars_dice with 5 sides at 54 MB,
    # so a 48 MB cap takes the first and refuses the second.
    # Where the cap is met is not fixed: mostly in Python (MemoryError: the memory sentence), but now and
    # then inside OpenSpiel's C++, which then dies of SIGSEGV or SIGABRT with nothing on standard error
    # (measured: 6 of 40 children run 4 at a time; 1 of 3 full test runs). Either way: one sentence
    # naming the game, no traceback.
    monkeypatch.setattr(openspiel, "CHILD_MEMORY_MB", 48)
    assert load_openspiel("kuhn_poker").num_nodes == 58
    with pytest.raises(ValueError) as caught:
        load_openspiel("liars_dice(numdice=1,dice_sides=5)")
    game = "'liars_dice(numdice=1,dice_sides=5)'"
    assert str(caught.value) in (
        f"Loading {game} needed more than 48 MB of memory, the limit for one OpenSpiel game here; choose smaller "
        "parameters.",
        f"OpenSpiel crashed (SIGSEGV) while loading {game}, so that game cannot be used.",
        f"OpenSpiel crashed (SIGABRT) while loading {game}, so that game cannot be used."), str(caught.value)


def test_a_game_that_allocates_without_bound_meets_the_default_memory_cap() -> None:
    with pytest.raises(ValueError) as caught:
        load_openspiel("gomoku(dims=1000000)")
    assert str(caught.value) == (f"Loading 'gomoku(dims=1000000)' needed more than {openspiel.CHILD_MEMORY_MB} MB of "
                                 "memory, the limit for one OpenSpiel game here; choose smaller parameters.")


def test_the_cpu_limit_ends_in_one_sentence(monkeypatch: pytest.MonkeyPatch) -> None:
    # crazyhouse with an "insanity" of a million spends its CPU in OpenSpiel's C++ (the GIL held);
    # the wall-clock bound is raised so that the CPU limit, not a busy machine, ends it.
    monkeypatch.setattr(openspiel, "CHILD_CPU_SECONDS", 1)
    monkeypatch.setattr(openspiel, "CHILD_WALL_SECONDS", 120)
    with pytest.raises(ValueError) as caught:
        load_openspiel("crazyhouse(insanity=1000000)")
    assert str(caught.value) == ("Loading 'crazyhouse(insanity=1000000)' used more than 1 s of CPU, the limit for "
                                 "one OpenSpiel game here; choose smaller parameters.")


def fake_worker(tmp_path: Path, body: str) -> Path:
    """A stand-in for the worker script: the parent runs it exactly as it runs the real one."""
    script = tmp_path / "worker.py"
    script.write_text(textwrap.dedent(body), encoding="utf-8")
    return script


def gone(pid: int) -> bool:
    """Whether process `pid` no longer runs (absent, or a zombie nobody has reaped yet)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return True
    return state in ("Z", "X")


def test_a_child_that_never_answers_is_killed_with_its_whole_process_group(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The worker starts a grandchild and both sleep; the parent's wall-clock bound must end both.
    pid_file = tmp_path / "grandchild.pid"
    worker = fake_worker(tmp_path, f"""
        import subprocess, time
        grandchild = subprocess.Popen(["sleep", "600"])
        open({str(pid_file)!r}, "w").write(str(grandchild.pid))
        time.sleep(600)
    """)
    monkeypatch.setattr(openspiel, "_WORKER", worker)
    monkeypatch.setattr(openspiel, "CHILD_WALL_SECONDS", 2)
    with pytest.raises(ValueError) as caught:
        load_openspiel("kuhn_poker")
    assert str(caught.value) == ("Loading 'kuhn_poker' took longer than 2 s, the limit for one OpenSpiel game here; "
                                 "choose smaller parameters.")
    assert gone(int(pid_file.read_text()))


def test_a_child_that_closes_its_output_and_hangs_is_still_bounded(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    worker = fake_worker(tmp_path, """
        import os, time
        os.close(1); os.close(2)
        time.sleep(600)
    """)
    monkeypatch.setattr(openspiel, "_WORKER", worker)
    monkeypatch.setattr(openspiel, "CHILD_WALL_SECONDS", 2)
    with pytest.raises(ValueError, match=r"^Loading 'kuhn_poker' took longer than 2 s, the limit"):
        load_openspiel("kuhn_poker")


@pytest.mark.parametrize("body, sentence", [
    ("import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)\n",
     "OpenSpiel crashed (SIGSEGV) while loading 'kuhn_poker', so that game cannot be used."),
    ("print('not json')\n",
     "OpenSpiel stopped without an answer while loading 'kuhn_poker' (exit status 0)."),
    ("import sys\nsys.exit(3)\n",
     "OpenSpiel stopped without an answer while loading 'kuhn_poker' (exit status 3)."),
    ("import json\nprint(json.dumps({'tree': {'actor': [0], 'first': [5], 'count': [2], 'infoset': [0], "
     "'chance': [], 'returns': [], 'sets': [[0, 'x', ['a', 'b'], [0, 1]]]}}))\n",
     "OpenSpiel's answer for 'kuhn_poker' has a child before its parent."),
    ("import json\nprint(json.dumps({'tree': {'actor': [7]}}))\n",
     "OpenSpiel's answer for 'kuhn_poker' could not be read (KeyError)."),
])
def test_any_way_a_child_ends_is_one_sentence(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              body: str, sentence: str) -> None:
    monkeypatch.setattr(openspiel, "_WORKER", fake_worker(tmp_path, body))
    with pytest.raises(ValueError) as caught:
        load_openspiel("kuhn_poker")
    assert str(caught.value) == sentence


def test_the_answer_read_back_is_size_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    # Leduc's answer is about 0.5 MB of JSON: past a 0.01 MB bound the parent stops reading and kills the child.
    monkeypatch.setattr(openspiel, "MAX_ANSWER_BYTES", 10_000)
    with pytest.raises(ValueError) as caught:
        load_openspiel("leduc_poker")
    assert str(caught.value) == ("'leduc_poker' gave more than 0.01 MB of tree data, more than cfrviz reads back; "
                                 "choose smaller parameters.")


def test_one_child_at_a_time_and_a_waiting_request_gets_a_sentence(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(openspiel, "QUEUE_SECONDS", 0.05)
    assert openspiel._CHILD_SLOT.acquire(timeout=1)
    try:
        with pytest.raises(ValueError) as caught:
            load_openspiel("kuhn_poker")
    finally:
        openspiel._CHILD_SLOT.release()
    assert str(caught.value) == ("The server is busy loading another OpenSpiel game, so 'kuhn_poker' was not "
                                 "loaded; try again in a few seconds.")
    # Being busy is not remembered as a refusal: once the slot is free the game loads.
    assert load_openspiel("kuhn_poker").num_nodes == 58


def test_a_busy_server_is_not_remembered_by_the_catalog(monkeypatch: pytest.MonkeyPatch) -> None:
    # The catalog remembers refusals by the game's settings; "busy" says nothing about the game, so the
    # same game must load once the child slot is free (reference: Kuhn poker has 58 OpenSpiel histories).
    monkeypatch.setattr(openspiel, "QUEUE_SECONDS", 0.05)
    catalog.clear_caches()
    assert openspiel._CHILD_SLOT.acquire(timeout=1)
    try:
        with pytest.raises(ValueError, match="busy"):
            catalog.get("openspiel", game_string="kuhn_poker")
    finally:
        openspiel._CHILD_SLOT.release()
    assert catalog.get("openspiel", game_string="kuhn_poker").tree().num_nodes == 58


# ---------------------------------------------------------------------------------------------
# The walk keeps states along one path only.


class PathState:
    """A perfect-information game state for the worker's walk: 3 moves per turn, DEPTH turns; counts live states."""

    DEPTH = 8
    live = 0
    most = 0

    def __init__(self, path: tuple[int, ...]) -> None:
        self.path = path
        PathState.live += 1
        PathState.most = max(PathState.most, PathState.live)

    def __del__(self) -> None:
        PathState.live -= 1

    def is_terminal(self) -> bool:
        return len(self.path) == self.DEPTH

    def is_chance_node(self) -> bool:
        return False

    def current_player(self) -> int:
        return len(self.path) % 2

    def legal_actions(self) -> list[int]:
        return [0, 1, 2]

    def action_to_string(self, player: int, action: int) -> str:
        return "abc"[action]

    def information_state_string(self, player: int) -> str:
        return "".join("abc"[a] for a in self.path)

    def returns(self) -> list[float]:
        return [1.0, -1.0] if sum(self.path) % 2 else [-1.0, 1.0]

    def child(self, action: int) -> PathState:
        return PathState(self.path + (action,))


class PathGame:
    def new_initial_state(self) -> PathState:
        return PathState(())


def test_the_walk_keeps_states_only_along_the_current_path() -> None:
    # Reference (hand count): a tree with 3 moves per turn over 8 turns has (3^9 - 1) / 2 = 9,841 histories;
    # a depth-first walk holding only the current path keeps at most 9 states (root to leaf) and one
    # being made, where a pending frontier would hold 2 siblings per level besides.
    from cfrviz.games import openspiel_worker

    PathState.live = PathState.most = 0
    tree = openspiel_worker.enumerate_tree(None, PathGame(), "path", 200_000)
    assert len(tree["actor"]) == 9_841 and len(tree["returns"]) == 3 ** 8
    assert sum(tree["count"]) == 9_840 and PathState.live == 0
    assert PathState.most <= PathState.DEPTH + 2
    with pytest.raises(openspiel_worker.Refused, match=r"^'path' has more than 1,000 histories"):
        openspiel_worker.enumerate_tree(None, PathGame(), "path", 1_000)


# ---------------------------------------------------------------------------------------------
# Caches: a refusal costs one child, ever; accepted games are kept, a few.


def test_a_refusal_is_remembered_whatever_the_parameter_order(child_calls: list[str]) -> None:
    # Reference: OpenSpiel reads parameters in any order (goofspiel(num_cards=3,players=3) is 3 players).
    first = "goofspiel(num_cards=3,players=3)"
    with pytest.raises(ValueError) as caught:
        load_openspiel(first)
    assert str(caught.value) == f"{first!r} has 3 players; cfrviz solves two-player games only."
    for again in (first, "goofspiel(players=3,num_cards=3)", "openspiel:" + first):
        with pytest.raises(ValueError) as repeated:
            load_openspiel(again)
        assert str(repeated.value) == str(caught.value)
    assert child_calls == [first]


def test_accepted_games_are_shared_by_equal_strings_and_kept_bounded(child_calls: list[str]) -> None:
    written = "goofspiel(num_cards=3,imp_info=True,points_order=descending)"
    reordered = "goofspiel(points_order=descending,imp_info=True,num_cards=3)"
    game = load_openspiel(written)
    again = load_openspiel(reordered)
    assert child_calls == [written]
    assert again.game_string == reordered and again.name == "openspiel:" + reordered
    assert again.actor is game.actor and again.information_state_strings == game.information_state_strings
    for dice_sides in (2, 3, 4, 5):
        load_openspiel(f"liars_dice(numdice=1,dice_sides={dice_sides})")
    assert len(openspiel._ACCEPTED.items) == openspiel._ACCEPTED.items.max_entries == 4


# ---------------------------------------------------------------------------------------------
# Strings that would read a file: one sentence for every value, before any child starts.


@pytest.mark.parametrize("template", [
    "efg_game(filename={})",
    "crossword(word_list_file={})",
    "crossword(puzzles_root={})",
    "cached_tree(game=nfg_game(filename={}))",
    "turn_based_simultaneous_game(game=efg_game(filename={}))",
    "kuhn_poker(log_dir={})",
    "leduc_poker(players=2,ConfigPath={})",
    "start_at(game=kuhn_poker(output_file={}),history=0)",
])
def test_file_naming_strings_get_one_sentence_for_an_existing_and_a_missing_file(
        template: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_child: None) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".env").write_text("SECRET=1\n", encoding="utf-8")
    sentences = set()
    for name in (".env", ".envx", "README.md", "no_such_file.efg"):
        with pytest.raises(ValueError) as caught:
            load_openspiel(template.format(name))
        sentences.add(str(caught.value))
    assert sentences == {FILE_REFUSAL}
    assert one_sentence(FILE_REFUSAL)


def test_file_games_are_refused_even_without_a_file_and_as_a_nested_value(no_child: None) -> None:
    for text in ("nfg_game", "efg_game()", "crossword", "cached_tree(game=efg_game)", "zerosum(game=nfg_game)"):
        with pytest.raises(ValueError) as caught:
            load_openspiel(text)
        assert str(caught.value) == FILE_REFUSAL


# ---------------------------------------------------------------------------------------------
# A fuzz through the child-process loader.


def _registered() -> list[tuple[str, tuple[str, ...]]]:
    import pyspiel   # the test process only; the server never imports it

    return [(game.short_name, (*game.parameter_specification, "x")) for game in pyspiel.registered_games()]


REGISTERED = _registered()
VALUES = ("0", "-1", "1000000", "99999999999999999999", "", "abc", "1.5", "True", "kuhn_poker()")


@st.composite
def game_strings(draw: st.DrawFn) -> str:
    name, parameters = draw(st.sampled_from(REGISTERED))
    chosen = draw(st.lists(st.sampled_from(parameters), max_size=2, unique=True))
    inside = ",".join(f"{p}={draw(st.sampled_from(VALUES))}" for p in chosen)
    return f"{name}({inside})" if chosen else name


@settings(max_examples=25, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(game_string=game_strings())
def test_fuzzed_openspiel_strings_end_in_a_game_or_one_sentence(game_string: str) -> None:
    # Each example starts a child; tight limits keep the test short (they are the mechanism under test).
    saved = openspiel.CHILD_CPU_SECONDS, openspiel.CHILD_WALL_SECONDS
    openspiel.CHILD_CPU_SECONDS, openspiel.CHILD_WALL_SECONDS = 1, 6
    try:
        try:
            game = load_openspiel(game_string)
        except ValueError as refusal:
            message = str(refusal)
            assert one_sentence(message), message
            assert len(message) < 500
        else:
            assert 0 < game.num_nodes <= openspiel.MAX_OPENSPIEL_NODES
    finally:
        openspiel.CHILD_CPU_SECONDS, openspiel.CHILD_WALL_SECONDS = saved


# ---------------------------------------------------------------------------------------------
# Game strings, parsed.


def test_game_strings_parse_and_normalise() -> None:
    nested = parse_game_string("turn_based_simultaneous_game(game=goofspiel(num_cards=3,imp_info=True))")
    assert nested == GameString("turn_based_simultaneous_game", (
        ("game", GameString("goofspiel", (("num_cards", "3"), ("imp_info", "True")), True)),), True)
    assert str(nested) == "turn_based_simultaneous_game(game=goofspiel(num_cards=3,imp_info=True))"
    assert nested.normalised() == "turn_based_simultaneous_game(game=goofspiel(imp_info=True,num_cards=3))"
    assert parse_game_string("kuhn_poker()").normalised() == "kuhn_poker"
    assert parse_game_string("chess(50_move_rule=False)").params == (("50_move_rule", "False"),)


@pytest.mark.parametrize("text", ["kuhn_poker(", "kuhn_poker(players=2,)", "kuhn_poker(=2)", "kuhn_poker)",
                                  "a(b=c(d=e(f=g(h=i(j=k(l=1))))))", "kuhn_poker(players)", "kuhn_poker(a=1)(b=2)"])
def test_malformed_game_strings_are_one_sentence(text: str, no_child: None) -> None:
    with pytest.raises(ValueError) as caught:
        load_openspiel(text)
    assert str(caught.value).startswith(f"{text!r} is not an OpenSpiel game string such as")
    assert one_sentence(str(caught.value))


# ---------------------------------------------------------------------------------------------
# The hosted menu.


@pytest.mark.parametrize("game", catalog.OPENSPIEL_MENU, ids=lambda g: g.name)
def test_each_menu_game_loads_at_its_largest_within_the_limits(game: catalog.OpenSpielMenuGame) -> None:
    # Reference: scripts/openspiel_menu.py timed every combination; `largest` has the most histories.
    assert catalog.openspiel_menu_string(game.largest) == game.largest
    loaded = load_openspiel(game.largest)
    assert 0 < loaded.num_nodes <= 60_000


def test_menu_defaults_are_openspiels_own() -> None:
    # Reference: OpenSpiel's parameter_specification of each game (a left-out parameter takes it).
    import pyspiel

    specification = {g.short_name: g.parameter_specification for g in pyspiel.registered_games()}
    for game in catalog.OPENSPIEL_MENU:
        for parameter in game.parameters:
            assert str(specification[game.name][parameter.name]) == parameter.default, (game.name, parameter.name)
            assert parameter.read(parameter.initial) == parameter.initial
            # A parameter whose OpenSpiel default is off the menu must be written, so the menu's form names it.
            if parameter.read(parameter.default) is None:
                assert f"{parameter.name}=" in game.game_string()


@pytest.mark.parametrize("given, menu_form", [
    ("goofspiel(imp_info=true,num_cards=04)", "goofspiel(num_cards=4,imp_info=True)"),
    ("openspiel:liars_dice(dice_sides=4)", "liars_dice(numdice=1,dice_sides=4)"),
    ("liars_dice(players=2,dice_sides=2,numdice=1)", "liars_dice(numdice=1,dice_sides=2)"),
    ("kuhn_poker()", "kuhn_poker"),
    ("blotto(fields=2,coins=8)", "blotto(coins=8,fields=2)"),
    ("oshi_zumo(horizon=1,size=1,coins=1,alesia=true)", "oshi_zumo(coins=1,size=1,horizon=1,alesia=True)"),
    ("liars_dice", None),                                   # OpenSpiel's default of 6 sides: 294,883 histories
    ("liars_dice(numdice=1,dice_sides=6)", None),
    ("goofspiel(num_cards=3)", None),                       # imp_info left False: player 1 forgets its bids
    ("goofspiel(num_cards=3,num_cards=2,imp_info=True)", None),   # twice: OpenSpiel keeps the last
    ("kuhn_poker(players=3)", None),
    ("leduc_poker(action_mapping=True)", None),             # a parameter the menu does not vet
    ("blotto(coins=9,fields=4)", None),
    ("turn_based_simultaneous_game(game=blotto(coins=2,fields=2))", None),
    ("dots_and_boxes", None),
    ("liars_dice(dice_sides=4", None),
])
def test_menu_membership_is_canonical(given: str, menu_form: str | None) -> None:
    assert catalog.openspiel_menu_string(given) == menu_form
    assert catalog.openspiel_allowed(given) is (menu_form is not None)


def test_hosted_lookup_takes_menu_games_and_refuses_the_rest(no_child: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(catalog.OPENSPIEL_ANY_ENV, raising=False)
    with pytest.raises(ValueError) as caught:
        catalog.lookup_hosted("openspiel:connect_four(rows=0)")
    assert str(caught.value) == ("The OpenSpiel game 'connect_four(rows=0)' is not on this server's menu (kuhn_poker, "
                                 "leduc_poker, liars_dice, goofspiel, oshi_zumo, blotto, within their ranges); "
                                 "the cfrviz package and CLI load any OpenSpiel game.")
    assert catalog.hosted_openspiel_string("connect_four(rows=0)", any_game=True) == "connect_four(rows=0)"
    monkeypatch.setenv(catalog.OPENSPIEL_ANY_ENV, "1")
    assert catalog.hosted_openspiel_string("openspiel:connect_four(rows=0)") == "connect_four(rows=0)"


# ---------------------------------------------------------------------------------------------
# The paths a visitor or a local user takes.


def test_the_server_process_never_imports_pyspiel() -> None:
    # A link to a menu game, loaded and solved through the app (AppTest runs app.py in this process),
    # then the sidebar's menu: pyspiel stays out of sys.modules.
    script = textwrap.dedent(f"""
        import sys
        from streamlit.testing.v1 import AppTest
        at = AppTest.from_file({str(ROOT / "app.py")!r}, default_timeout=120)
        at.query_params["game"] = "openspiel:liars_dice(numdice=1,dice_sides=3)"
        at.query_params["iters"] = "50"
        at.run()
        assert not at.exception, at.exception
        assert at.sidebar.selectbox(key="cfrviz_w_game").value == "openspiel:liars_dice(numdice=1,dice_sides=3)"
        at.sidebar.selectbox(key="cfrviz_w_os_game").set_value("blotto").run()
        at.sidebar.button(key="cfrviz_w_os_load").click().run()
        assert at.sidebar.selectbox(key="cfrviz_w_game").value == "openspiel:blotto(coins=5,fields=3)"
        print("pyspiel" in sys.modules)
    """)
    env = {k: v for k, v in os.environ.items() if k != catalog.OPENSPIEL_ANY_ENV}
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=600,
                          env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1] == "False"


def test_a_crash_is_a_sentence_for_the_cli_and_the_package() -> None:
    done = subprocess.run([sys.executable, "-m", "cfrviz", "solve", "openspiel:y(board_size=-1)", "-n", "10"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.strip() == ("cfrviz: OpenSpiel crashed (SIGSEGV) while loading 'y(board_size=-1)', "
                                   "so that game cannot be used.")
    with pytest.raises(ValueError, match=r"^OpenSpiel crashed \(SIGSEGV\) while loading 'go_fish\(initial_cards=0\)'"):
        cfrviz.solve("openspiel:go_fish(initial_cards=0)", "cfr", iterations=10)


def test_uploads_naming_an_off_menu_game_are_refused_like_links(monkeypatch: pytest.MonkeyPatch,
                                                                tmp_path: Path) -> None:
    from cfrviz.run.uploads import read_upload

    monkeypatch.delenv(catalog.OPENSPIEL_ANY_ENV, raising=False)
    run = cfrviz.solve("openspiel:liars_dice(numdice=1,dice_sides=2)", "cfr", iterations=20)
    strategy = json.loads(export_strategy(run))
    assert read_upload("s.json", json.dumps(strategy).encode()).tree.num_nodes == run.tree.num_nodes
    path = tmp_path / "run.npz"
    save_run(run, path)
    assert read_upload("run.npz", path.read_bytes()).tree.num_nodes == run.tree.num_nodes

    def refuse(text: str, cap: int) -> dict[str, Any]:
        raise AssertionError(f"a child process was started for {text!r}")

    monkeypatch.setattr(openspiel, "_run_child", refuse)
    hostile = "hanabi(colors=0)"
    expected = str(pytest.raises(ValueError, catalog.lookup_hosted, "openspiel:" + hostile).value)
    strategy["game_params"]["game_string"] = hostile
    with pytest.raises(ValueError) as caught:
        read_upload("s.json", json.dumps(strategy).encode())
    assert str(caught.value) == expected
    # The same run saved with the hostile string in its settings (the arrays stay Liar's dice's).
    import numpy as np

    with np.load(path, allow_pickle=False) as archive:
        arrays = {name: archive[name] for name in archive.files}
    settings = json.loads(str(arrays["settings"]))
    settings["game_params"]["game_string"] = hostile
    arrays["settings"] = np.array(json.dumps(settings))
    hostile_path = tmp_path / "hostile.npz"
    np.savez_compressed(hostile_path, **arrays)
    with pytest.raises(ValueError) as caught:
        read_upload("hostile.npz", hostile_path.read_bytes())
    assert str(caught.value) == expected


def test_the_sidebar_offers_the_menu_and_opt_in_offers_any_string(monkeypatch: pytest.MonkeyPatch) -> None:
    from streamlit.testing.v1 import AppTest

    monkeypatch.delenv(catalog.OPENSPIEL_ANY_ENV, raising=False)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.run()
    assert not [w for w in at.sidebar.text_input if w.key == "cfrviz_w_openspiel"]
    at.sidebar.selectbox(key="cfrviz_w_os_game").set_value("liars_dice").run()
    at.sidebar.number_input(key="cfrviz_w_os_liars_dice_dice_sides").set_value(4).run()
    at.sidebar.button(key="cfrviz_w_os_load").click().run()
    assert not at.exception, at.exception
    assert at.sidebar.selectbox(key="cfrviz_w_game").value == "openspiel:liars_dice(numdice=1,dice_sides=4)"

    monkeypatch.setenv(catalog.OPENSPIEL_ANY_ENV, "1")
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.run()
    at.sidebar.text_input(key="cfrviz_w_openspiel").input("hanabi(colors=0)").run()
    assert not at.exception, at.exception
    shown = " ".join(str(element.value) for element in [*at.warning, *at.info, *at.error])
    assert "OpenSpiel crashed (SIGABRT) while loading" in shown.replace("\\", "")
    assert at.sidebar.selectbox(key="cfrviz_w_game").value == "kuhn"


def test_the_remembered_games_are_bounded_in_bytes_and_in_count() -> None:
    # By hand: sizes 40 + 40 + 40 bytes fit a 100-byte bound only two at a time; with 1-byte
    # values the count bound (3) decides; a value over the whole bound is not kept at all.
    by_bytes = openspiel._Remembered(3, 100, lambda value: int(value))
    for key in ("a", "b", "c"):
        by_bytes.put((key, 0), 40)
    assert list(by_bytes.items) == [("b", 0), ("c", 0)]
    by_count = openspiel._Remembered(3, 100, lambda value: int(value))
    for key in ("a", "b", "c", "d"):
        by_count.put((key, 0), 1)
    assert list(by_count.items) == [("b", 0), ("c", 0), ("d", 0)]
    by_count.put(("huge", 0), 101)
    assert by_count.get(("huge", 0)) is None and len(by_count.items) == 3
