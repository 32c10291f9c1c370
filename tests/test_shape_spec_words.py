"""A shape's refusals cite SHACL as it is written: the rule refusing a MINUS or VALUES
clause in a shape's SPARQL is SHACL 1.0's Appendix A (Pre-binding of Variables in SPARQL
Queries), where the messages cited 5.2.1 (Prefix Declarations for SPARQL Queries); a
term a SHACL 1.2 draft adds was refused as 'not a term of SHACL', offered a SHACL 1.0
term it is not a misspelling of; and a sh:select syntax error was placed at the end of
its text, where pyoxigraph stopped reading, not where the error is."""

from __future__ import annotations

import pytest
from conftest import ENGINES, own_shapes, run_cli

PREFIXES = "@prefix sh: <http://www.w3.org/ns/shacl#> .\n@prefix ex: <http://ex.org/> .\n"
DATA = "<http://ex.org/a> <http://ex.org/p> 1 .\n"


def _refused(tmp_path, shapes: str, engine: str) -> str:
    result = run_cli(*own_shapes(tmp_path, PREFIXES + shapes, DATA), "--engine", engine)
    assert result.exit_code == 2 and result.stdout == "", result.output
    return result.stderr


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("clause", ["VALUES ?o { 1 }", "MINUS { ?o ?q ?r }"])
def test_a_forbidden_clause_cites_the_pre_binding_appendix(tmp_path, engine, clause):
    shapes = (
        "ex:S a sh:NodeShape ; sh:targetNode ex:a ;\n"
        f'  sh:sparql [ sh:select "SELECT $this WHERE {{ $this ?p ?o {clause} }}" ] .\n'
    )
    keyword = clause.split()[0]
    assert _refused(tmp_path, shapes, engine).endswith(
        f"s.ttl:4: a shape in <http://ex.org/S>: sh:select: a {keyword} clause, which "
        "SHACL-SPARQL forbids (SHACL 1.0, Appendix A: pre-binding) (a syntax rule of SHACL)\n"
    )


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(
    "written",
    [
        "sh:reifierShape ex:R",
        "sh:nodeByExpression ex:x",
        "sh:singleLine true",
        "sh:memberShape ex:M",
        "sh:severity sh:Debug",
    ],
)
def test_a_shacl_1_2_draft_term_is_said_to_be_one(tmp_path, engine, written):
    shapes = f"ex:T a sh:NodeShape ; sh:targetNode ex:a ; {written} .\n"
    said = _refused(tmp_path, shapes, engine)
    term = written.split()[1] if written.startswith("sh:severity") else written.split()[0]
    shown = f"sh:severity {term}" if written.startswith("sh:severity") else term
    assert said.endswith(
        f"s.ttl:3: <http://ex.org/T>: {shown}: a term of the SHACL 1.2 drafts, not of "
        "SHACL 1.0 or its 2017 notes, which this tool reads\n"
    ), said


@pytest.mark.parametrize("engine", ENGINES)
def test_a_select_syntax_error_is_placed_where_it_is(tmp_path, engine):
    shapes = (
        "ex:U a sh:NodeShape ; sh:targetNode ex:a ;\n"
        '  sh:sparql [ sh:select """SELECT $this WHERE {\n'
        "  $this ?p ?o .\n"
        "  FILTER(regex(?o))\n"
        '}""" ] .\n'
    )
    said = _refused(tmp_path, shapes, engine)
    # (pyoxigraph stopped at the end: line 4, column 2)
    assert "sh:select: not a SPARQL SELECT query: at line 3, column 3: " in said, said


def test_no_draft_term_is_a_term_this_tool_reads():
    from anthology_kg.shacl.vocabulary import SHACL_12_DRAFT_TERMS, SHACL_TERMS

    assert len(SHACL_12_DRAFT_TERMS) > 30 and not SHACL_12_DRAFT_TERMS & SHACL_TERMS
