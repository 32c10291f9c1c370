"""Compiler.compile keeps what it compiled by everything the compilation reads
(``compiler._COMPILED``): the same shapes, hierarchy and options give the same list
without compiling again; any other input compiles anew, to what no cache would give."""

from __future__ import annotations

import pyoxigraph as ox
import pytest

from anthology_kg.resources import bundled_dir
from anthology_kg.ruleset import load_rules
from anthology_kg.shacl import compiler
from anthology_kg.shacl.compiler import Compiler
from anthology_kg.shacl.graph import ShapesGraph

ENTRY = ox.NamedNode("https://w3id.org/anthology-kg/ns#Entry")
RECORD = ox.NamedNode("https://w3id.org/anthology-kg/ns#LiteratureRecord")
COMPILE = Compiler._compile  # compiling itself, uncounted and uncached


@pytest.fixture
def compiled(monkeypatch) -> list[int]:
    """An empty cache, and the number of compilations done (one item each)."""
    monkeypatch.setattr(compiler, "_COMPILED", type(compiler._COMPILED)())
    done: list[int] = []

    def counted(self):
        done.append(1)
        return COMPILE(self)

    monkeypatch.setattr(Compiler, "_compile", counted)
    return done


def uncached(*args, **options) -> list:
    """What ``Compiler(*args, **options).compile()`` gives with nothing kept."""
    return COMPILE(Compiler(*args, **options))


def test_the_same_inputs_are_compiled_once_and_give_the_same_constraints(compiled):
    shapes = load_rules(bundled_dir()).shapes_view
    again = load_rules(bundled_dir()).shapes_view  # another graph, the same triples as read
    assert again is not shapes
    first = Compiler(shapes, "urn:g", {ENTRY: [ENTRY, RECORD]}, True, True, True)
    second = Compiler(again, "urn:g", {ENTRY: [ENTRY, RECORD]}, True, True, True)
    found = first.compile()
    assert second.compile() == found and len(compiled) == 1
    assert found == uncached(shapes, "urn:g", {ENTRY: [ENTRY, RECORD]}, True, True, True)
    assert second.fresh() == first.fresh()  # numbered on as after compiling
    found.clear()  # a caller's list is its own
    assert Compiler(shapes, "urn:g", {ENTRY: [ENTRY, RECORD]}, True, True, True).compile()


@pytest.mark.parametrize(
    "options",
    [
        {"shapes_graph": "urn:other"},
        {"hierarchy": {ENTRY: [ENTRY]}},
        {"path_targets": False},
        {"tested_after": False},
        {"bound_paths": False},
    ],
    ids=lambda o: next(iter(o)),
)
def test_any_other_input_is_compiled_anew(compiled, options):
    shapes = load_rules(bundled_dir()).shapes_view
    given = {
        "shapes_graph": "urn:g",
        "hierarchy": {ENTRY: [ENTRY, RECORD]},
        "path_targets": True,
        "tested_after": True,
        "bound_paths": True,
    }
    Compiler(shapes, **given).compile()
    changed = {**given, **options}
    assert Compiler(shapes, **changed).compile() == uncached(shapes, **changed)
    assert len(compiled) == 2


def test_other_triples_or_another_order_are_compiled_anew(compiled):
    shapes = load_rules(bundled_dir()).shapes_view
    triples = list(shapes)
    Compiler(shapes).compile()
    fewer = ShapesGraph(triples[:-1])
    reordered = ShapesGraph(reversed(triples))  # the first value read is another one
    assert Compiler(fewer).compile() == uncached(fewer)
    assert Compiler(reordered).compile() == uncached(reordered)
    assert len(compiled) == 3


def test_a_compiler_that_wrote_a_variable_compiles_itself(compiled):
    shapes = load_rules(bundled_dir()).shapes_view
    Compiler(shapes).compile()
    used = Compiler(shapes)
    used.fresh()
    assert used.compile() != Compiler(shapes).compile()  # its variables numbered on
    assert len(compiled) == 2
