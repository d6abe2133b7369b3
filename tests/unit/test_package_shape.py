"""The shape of the package that `ls` and the imports show.

Reference: the project's rules (issue 27, docs/ARCHITECTURE.md): no import circle between cfrviz
modules, even inside a folder, and no module in cfrviz/ over 600 lines. The layers between folders
are import-linter's contracts (pyproject.toml); these are the rules it cannot state.
"""
from __future__ import annotations

from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[2]
MAX_MODULE_LINES = 600



def _circle(graph: grimp.ImportGraph) -> tuple[str, ...] | None:
    """One import circle among cfrviz's modules (the modules in import order, the first again at the
    end), or None. An import under TYPE_CHECKING counts: the reader and mypy still follow it."""
    for module in sorted(graph.modules):
        for imported in sorted(graph.find_modules_directly_imported_by(module)):
            back = graph.find_shortest_chain(importer=imported, imported=module)
            if back is not None:
                return (module, *back)
    return None


def test_no_import_circle_among_cfrviz_modules() -> None:
    graph = grimp.build_graph("cfrviz", cache_dir=None)
    circle = _circle(graph)
    assert circle is None, "Import circle: " + " -> ".join(circle or ())


def test_a_circle_is_found_and_named() -> None:
    # Hand-made: a graph where a imports b, b imports c and c imports a.
    graph = grimp.ImportGraph()
    for importer, imported in (("p.a", "p.b"), ("p.b", "p.c"), ("p.c", "p.a")):
        graph.add_import(importer=importer, imported=imported)
    assert _circle(graph) == ("p.a", "p.b", "p.c", "p.a")
    graph.remove_import(importer="p.c", imported="p.a")
    assert _circle(graph) is None


def test_no_module_over_600_lines() -> None:
    sizes = {path.relative_to(ROOT).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
             for path in sorted((ROOT / "cfrviz").rglob("*.py"))}
    assert sizes, "no module found under cfrviz/"
    assert {path: n for path, n in sizes.items() if n > MAX_MODULE_LINES} == {}
