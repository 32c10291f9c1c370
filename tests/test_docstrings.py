"""The public API's docstring examples run, as pyoxigraph's do: a docstring states its
contract and shows it on the bundled anthology, and this test keeps the two true."""

from __future__ import annotations

import doctest
import importlib

import pytest

import anthology_kg


def _public_examples() -> dict[str, doctest.DocTest]:
    """The doctests of every name of ``anthology_kg.__all__`` (a class's methods too),
    each run in its module's namespace."""
    finder = doctest.DocTestFinder()
    found = {}
    for name, module_name in anthology_kg._PUBLIC.items():
        module = importlib.import_module(f"anthology_kg.{module_name}")
        for test in finder.find(getattr(anthology_kg, name), name, module, globs=vars(module)):
            if test.examples:
                found[test.name] = test
    return found


EXAMPLES = _public_examples()


def test_the_main_calls_show_an_example():
    assert {
        "load_anthology",
        "build_export",
        "to_turtle",
        "to_ntriples",
        "read_folder",
        "diff_states",
        "diff_query",
        "compare_to_baseline",
    } <= set(EXAMPLES)


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_the_example_runs(name):
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(EXAMPLES[name])
    outcome = runner.summarize(verbose=False)
    assert outcome.failed == 0 and outcome.attempted > 0, f"{name}: see the output above"
