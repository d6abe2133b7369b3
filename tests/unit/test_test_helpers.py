"""The tests' own helpers are written once: no top-level function or class name is defined in two
test modules (tests/**/*.py, tests/support/ and the conftest files included).

Reference: issue 27's "no test helper is defined in two places". A helper two modules need lives in
tests/support/ or a conftest.py; a name that two modules define on purpose for different things is
listed below with the reason.
"""
from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]

#: Names defined in more than one module on purpose, each with why.
MEANT_TO_DIFFER = {
    "runs": "a fixture of different runs in each module: the inspector's solve-on-demand cache "
            "(test_inspector.py) and a locked and an unlocked Kuhn run (test_timeline_locks.py)",
}


def top_level_names(source: str) -> set[str]:
    """The functions and classes a module defines at its top level, but pytest's test_* and Test*."""
    return {node.name for node in ast.parse(source).body
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
            and not node.name.startswith(("test_", "Test"))}


def defined_twice(modules: dict[str, str]) -> dict[str, list[str]]:
    """{name: the modules that define it} for every name defined in two or more of `modules` ({path: source})."""
    places: dict[str, list[str]] = defaultdict(list)
    for path, source in sorted(modules.items()):
        for name in top_level_names(source):
            places[name].append(path)
    return {name: paths for name, paths in places.items() if len(paths) > 1}


def test_the_check_finds_a_helper_written_twice_and_nothing_else() -> None:
    # Hand-built modules: `share_link` twice is found; tests, a nested function and a name used
    # twice but defined once are not.
    first = "def share_link(page):\n    return 1\n\ndef test_a():\n    def inner():\n        pass\n"
    second = "from a import share_link\n\ndef share_link(page):\n    return 2\n\nclass TestB:\n    pass\n" \
             "\ndef test_a():\n    pass\n"
    third = "def inner():\n    return share_link\n"
    assert defined_twice({"a.py": first, "b.py": second, "c.py": third}) == {"share_link": ["a.py", "b.py"]}


def test_no_test_helper_is_defined_in_two_modules() -> None:
    modules = {path.relative_to(TESTS).as_posix(): path.read_text(encoding="utf-8") for path in TESTS.rglob("*.py")}
    twice = {name: paths for name, paths in defined_twice(modules).items() if name not in MEANT_TO_DIFFER}
    assert twice == {}, "move these to tests/support/ or a conftest.py (or rename one): " + "; ".join(
        f"{name} in {', '.join(paths)}" for name, paths in sorted(twice.items()))


def test_every_name_meant_to_differ_is_still_defined_twice() -> None:
    # A stale entry would let a later copy of that name through unnoticed.
    modules = {path.relative_to(TESTS).as_posix(): path.read_text(encoding="utf-8") for path in TESTS.rglob("*.py")}
    assert set(MEANT_TO_DIFFER) <= set(defined_twice(modules)), set(MEANT_TO_DIFFER) - set(defined_twice(modules))
