"""The site's menu and command line: bad entries are one sentence each and exit status 2.

References: the app's iteration caps (`GameSpec.app_iteration_cap`), which algorithms sample
(`ALGORITHMS[...].sampling`) and which update schemes each implements (`update_schemes`); the menu
format written in cfrviz/site/menu.py.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from cfrviz import catalog
from cfrviz.site import command
from cfrviz.site.menu import checked_menu, default_menu, read_menu_file
from cfrviz.solvers import ALGORITHMS, update_schemes

KUHN = {"game": "kuhn", "algo": "cfr+", "iters": 100, "updates": "alternating"}


def test_the_default_menu_is_the_issues_list() -> None:
    menu = default_menu()
    kuhn_cap = catalog.lookup("kuhn").app_iteration_cap
    kuhn = [s for s in menu.runs if s.spec.link == "kuhn" and not s.locks]
    deterministic = {(a, u) for a, info in ALGORITHMS.items() if not info.sampling for u in update_schemes(a)}
    assert {(s.algorithm, s.updates) for s in kuhn if not ALGORITHMS[s.algorithm].sampling} == deterministic
    assert all(s.iterations == kuhn_cap for s in kuhn)
    assert {str(s.algorithm) for s in kuhn if ALGORITHMS[s.algorithm].sampling} == {"chance", "external", "outcome"}
    leduc = [s for s in menu.runs if s.spec.link == "leduc"]
    assert {str(s.algorithm) for s in leduc} == {"cfr", "cfr+", "dcfr+", "pcfr+"}
    assert {str(s.updates) for s in leduc} == {"alternating"}
    assert [s.locks.text() for s in menu.runs if s.locks] == ["J=1,0"]
    assert menu.runs[0].spec.link == "kuhn"   # Home's first view
    # Regret matching's page: rock-paper-scissors by regret matching, simultaneous (the app page's updates).
    assert [(str(s.algorithm), str(s.updates)) for s in menu.runs if s.spec.matrix] == [("rm", "simultaneous")]


@pytest.mark.parametrize(("entry", "sentence"), [
    ({**KUHN, "game": "chess"}, "The menu's run 1: "),
    ({**KUHN, "algo": "rm"}, "does not solve Kuhn poker"),
    ({**KUHN, "iters": 10**9}, "iters must be a whole number from 1 to 100,000"),
    ({**KUHN, "iters": "100"}, "iters must be a whole number"),
    ({**KUHN, "updates": "both"}, "has simultaneous or alternating updates"),
    ({**KUHN, "algo": "pcfr+", "updates": "simultaneous"}, "has alternating updates"),
    ({**KUHN, "seed": 3}, "does not sample"),
    ({**KUHN, "lock": "Z=1,0"}, "The menu's run 1: "),
    ({**KUHN, "colour": "red"}, "unknown key 'colour'"),
    ({"game": "rps", "algo": "cfr", "iters": 100}, "draws regret matching (algo rm) with simultaneous updates"),
    ({"game": "rps", "algo": "rm", "iters": 100, "updates": "alternating"}, "draws regret matching (algo rm)"),
])
def test_a_bad_run_is_refused_with_one_sentence_naming_it(entry: dict[str, object], sentence: str) -> None:
    with pytest.raises(ValueError) as refused:
        checked_menu({"runs": [entry]})
    text = str(refused.value)
    assert sentence in text and text.startswith("The menu") and "\n" not in text


def test_menus_refuse_duplicates_unknown_sections_and_bad_walks() -> None:
    with pytest.raises(ValueError, match="twice"):
        checked_menu({"runs": [KUHN, dict(KUHN)]})
    with pytest.raises(ValueError, match="unknown section"):
        checked_menu({"runs": [KUHN], "pages": []})
    with pytest.raises(ValueError, match="walk_deal 'AA' is not a deal"):
        checked_menu({"runs": [KUHN], "walkthroughs": [{"walk_game": "kuhn", "walk_algo": "chance", "walk_deal": "AA"}]})
    with pytest.raises(ValueError, match="at least one run"):
        checked_menu({"runs": []})


def test_json_and_toml_files_read_the_same(tmp_path: Path) -> None:
    (tmp_path / "m.json").write_text(json.dumps({"runs": [KUHN]}), encoding="utf-8")
    (tmp_path / "m.toml").write_text('[[runs]]\ngame = "kuhn"\nalgo = "cfr+"\niters = 100\nupdates = "alternating"\n',
                                     encoding="utf-8")
    assert read_menu_file(tmp_path / "m.json") == read_menu_file(tmp_path / "m.toml")
    (tmp_path / "bad.toml").write_text("[[runs]\n", encoding="utf-8")
    with pytest.raises(ValueError, match="is not valid TOML"):
        read_menu_file(tmp_path / "bad.toml")


def test_the_command_says_one_sentence_and_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    menu = tmp_path / "m.json"
    menu.write_text(json.dumps({"runs": [{**KUHN, "iters": 0}]}), encoding="utf-8")
    assert command.main(["build", str(tmp_path / "site"), "--menu", str(menu)]) == command.USAGE_ERROR
    err = capsys.readouterr().err
    assert err.startswith("cfrviz: The menu's run 1: iters must be") and err.count("\n") == 1
    assert not (tmp_path / "site").exists()     # nothing written before the menu is checked
    assert command.main(["build", str(tmp_path / "x"), "--app-url", "javascript:alert(1)"]) == command.USAGE_ERROR
    assert "--app-url must be" in capsys.readouterr().err
    other = tmp_path / "other"
    other.mkdir()
    (other / "mine.txt").write_text("keep", encoding="utf-8")
    assert command.main(["build", str(other), "--menu", str(tmp_path / "m.json")]) == command.USAGE_ERROR
    menu.write_text(json.dumps({"runs": [KUHN]}), encoding="utf-8")
    assert command.main(["build", str(other), "--menu", str(menu)]) == command.USAGE_ERROR
    assert "did not write" in capsys.readouterr().err and (other / "mine.txt").read_text() == "keep"


def test_cfrviz_site_is_a_command_of_cfrviz(tmp_path: Path) -> None:
    # Reference: the CLI's rule, one sentence on stderr and exit status 2 (cfrviz/cli.py).
    from tests.support.cli import run_cli

    done = run_cli("site", "build")
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "DIR" in done.stderr
    menu = tmp_path / "m.json"
    menu.write_text(json.dumps({"runs": [{**KUHN, "algo": "nope"}]}), encoding="utf-8")
    done = run_cli("site", "build", str(tmp_path / "site"), "--menu", str(menu))
    assert done.returncode == 2 and "The menu's run 1: algo 'nope' is not an algorithm" in done.stderr
