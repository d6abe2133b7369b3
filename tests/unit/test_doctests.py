"""Every docstring example in the package runs and prints what it says.

Reference: each example's own expected output (Python's doctest). A module whose import needs an
optional extra that is missing (OpenSpiel) is reported as skipped, never silently passed.
"""
from __future__ import annotations

import doctest
import importlib
import pkgutil
from types import ModuleType

import pytest

import cfrviz

FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def _examples(module: ModuleType) -> int:
    """Examples doctest would run (those marked +SKIP do not count)."""
    return sum(1 for test in doctest.DocTestFinder().find(module, module.__name__) for example in test.examples
               if not example.options.get(doctest.SKIP))


def _modules_with_examples() -> list[str]:
    names = []
    for info in pkgutil.walk_packages(cfrviz.__path__, prefix="cfrviz."):
        if info.name.endswith("__main__"):
            continue
        try:
            module = importlib.import_module(info.name)
        except ImportError:
            names.append(info.name)   # skipped with its reason below, not dropped
            continue
        if _examples(module):
            names.append(info.name)
    return sorted(names)


MODULES = _modules_with_examples()


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    try:
        module = importlib.import_module(name)
    except ImportError as error:
        pytest.skip(f"{name} needs an optional package: {error}")
    result = doctest.testmod(module, optionflags=FLAGS, verbose=False, report=True)
    assert result.attempted > 0
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in {name} failed (see above)"


def test_the_examples_are_found() -> None:
    # Reference: these modules hold runnable examples in their docstrings today; finding fewer
    # means the collection above is broken, not that the package lost its examples.
    assert {"cfrviz.solving.entry", "cfrviz.run.cache", "cfrviz.solvers.base"} <= set(MODULES), MODULES
