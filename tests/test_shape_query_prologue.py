"""A shape's SPARQL SELECT may start with its own prologue (PREFIX, BASE: SPARQL 1.1,
4.1.1): the fast engine's compiler nested the query, prologue and all, in a subquery,
where a prologue may not stand (exit 2, 'bad SPARQL: ... expected OPTIONAL'); it is now
moved to the top of the compiled query. The same results as the reference engine."""

from __future__ import annotations

import pytest
from conftest import own_shapes, validated_alike

DATA = "<http://ex.org/a> <http://ex.org/p> 1 .\n"


@pytest.mark.parametrize(
    "prologue",
    ["PREFIX ex: <http://ex.org/>", "BASE <http://ex.org/>\nPREFIX ex: <>"],
    ids=["prefix", "base and prefix"],
)
def test_a_select_with_its_own_prologue_runs_on_both_engines(tmp_path, prologue):
    shapes = (
        "@prefix sh: <http://www.w3.org/ns/shacl#> .\n@prefix ex: <http://ex.org/> .\n"
        'ex:S a sh:NodeShape ; sh:targetNode ex:a ; sh:sparql [ sh:message "has ex:p" ;'
        f' sh:select """{prologue}\nSELECT $this WHERE {{ $this ex:p ?v }}""" ] .\n'
    )
    printed = validated_alike(*own_shapes(tmp_path, shapes, DATA))
    assert "has ex:p" in printed
