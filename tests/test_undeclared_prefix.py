"""A prefix no PREFIX (nor, in a shape, sh:prefixes) declares is said by name, where it
is written, alike on both engines: pyoxigraph said 'expected OPTIONAL' or a list of
tokens, mostly at the end of the text (a shape's SPARQL: the shared syntax check), and
rdflib 'Unknown namespace prefix : ex' at no line (a query on the reference engine)."""

from __future__ import annotations

import pytest
from conftest import ENGINES, own_shapes, run_cli

from anthology_kg.sparql_text import undeclared_prefix_error, undeclared_prefixes

DATA = "<http://ex.org/a> <http://ex.org/p> 1 .\n"
HEAD = "@prefix sh: <http://www.w3.org/ns/shacl#> .\n@prefix ex: <http://ex.org/> .\n"
#: (the shapes after HEAD, the line of the query's triple, what is said of it)
SHAPES = {
    # pyoxigraph: 'expected OPTIONAL' at the end
    "sh:sparql": (
        "ex:S a sh:NodeShape ; sh:targetNode ex:a ;\n"
        '  sh:sparql [ sh:select """SELECT $this WHERE { $this ?p ?o . ?o ex:q ?w }""" ] .\n',
        4,
        "<http://ex.org/S>: sh:select: not a SPARQL SELECT query: at line 1, column 39",
    ),
    # pyoxigraph: 'expected one of LANGDIR, MINUTES, ..., [_], hasLang, isBLANK'
    "an ASK validator": (
        "ex:C a sh:ConstraintComponent ; sh:parameter [ sh:path ex:needs ] ;\n"
        '  sh:validator [ a sh:SPARQLAskValidator ; sh:message "no {$needs}" ;\n'
        '    sh:ask """ASK {\n  $this ?p ?v FILTER(?v = ex:x) }""" ] .\n'
        "ex:S a sh:NodeShape ; sh:targetNode ex:a ; ex:needs 2 .\n",
        5,
        "<http://ex.org/C>: sh:ask: not a SPARQL ASK query: at line 2, column 27",
    ),
    # with sh:prefixes of another prefix and a PREFIX of a third
    "a SELECT validator": (
        'ex:Decl sh:declare [ sh:prefix "e" ; sh:namespace "http://ex.org/" ] .\n'
        "ex:C a sh:ConstraintComponent ; sh:parameter [ sh:path ex:needs ] ;\n"
        '  sh:nodeValidator [ a sh:SPARQLSelectValidator ; sh:prefixes ex:Decl ; sh:select """'
        "PREFIX f: <http://ex.org/>\n"
        'SELECT $this WHERE { $this e:p ?v ; f:p ?v ; ex:p ?v }""" ] .\n'
        "ex:S a sh:NodeShape ; sh:targetNode ex:a ; ex:needs 2 .\n",
        5,
        "<http://ex.org/C>: sh:select: not a SPARQL SELECT query: at line 2, column 46",
    ),
}


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("case", SHAPES, ids=list(SHAPES))
def test_a_shapes_undeclared_prefix_is_named_at_its_place(tmp_path, engine, case):
    shapes, line, where = SHAPES[case]
    args = own_shapes(tmp_path, HEAD + shapes, DATA)
    result = run_cli(*args, "--engine", engine)
    assert (result.exit_code, result.stdout) == (2, ""), result.stderr
    assert result.stderr == (
        f"{tmp_path / 's.ttl'}:{line}: a shape in {where}: the prefix ex: is declared by no "
        "sh:prefixes nor PREFIX (a syntax rule of SHACL)\n"
    )


#: (a query, its first undeclared prefix, the line and column of its name)
QUERIES = [
    ("SELECT * WHERE { ?s ex:p ?o }", "ex", 1, 21),  # pyoxigraph: 'expected OPTIONAL' at 1:26
    ("SELECT * WHERE {\n  ?s ?p ?o FILTER(?o = ex:o) }", "ex", 2, 24),  # tokens, at the end
    ("PREFIX ex: <x:>\nSELECT * WHERE { ?s a ex:C ; ?p foo:o }\nLIMIT 1", "foo", 2, 33),
    ('SELECT * WHERE { ?s ?p "ex:p", <ex:p>, ?ex # ex:p\n . ?s :p ?o }', "", 2, 7),
]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(("text", "prefix", "line", "column"), QUERIES)
def test_a_querys_undeclared_prefix_is_named_at_its_place(
    nothing, engine, text, prefix, line, column
):
    query = nothing / "q.rq"
    query.write_text(text + "\n", encoding="utf-8")
    result = run_cli("--root", str(nothing), "sparql", str(query), "--engine", engine)
    assert (result.exit_code, result.stdout) == (2, ""), result.stderr
    assert result.stderr == (
        f"{query}:{line}: SPARQL syntax error at column {column}: "
        f"the prefix {prefix}: is declared by no PREFIX\n"
    )


def test_an_error_before_the_prefix_is_said_first():
    # (pyoxigraph stopped at the end of the text; with ex: declared, at x)
    said = undeclared_prefix_error("SELECT * WHERE { ?s ?p ?o } LIMIT x ex:y")
    assert said is not None and said[1:] == (1, 35) and said[0].startswith("expected one of")


def test_the_prefixes_are_read_from_the_querys_own_terminals():
    text = (
        'PREFIX a: <x:> PREFIX : <y:> SELECT * WHERE { ?s a:p "b:x", <c:x>, _:d, ?e, $f ;'
        " :p g:x, h:, g:y . # i:x\n ?s a ?k:x }"
    )
    assert undeclared_prefixes(text) == {"g": text.index("g:x"), "h": text.index("h:")}
    assert undeclared_prefixes("SELECT * { ?s a:p ?o } ; PREFIX a: <x:>") == {"a": 14}


def test_a_text_calling_service_is_not_parsed_again(monkeypatch):
    """(pyoxigraph answers an ASK as it parses it: the SERVICE would be called.)"""
    import pyoxigraph as ox

    def refused(*args, **kwargs):
        raise AssertionError("parsed again")

    monkeypatch.setattr(ox.Store, "query", refused)
    said = undeclared_prefix_error("ASK { SERVICE <http://localhost:9/> { ?s ex:p ?o } }")
    assert said == ("the prefix ex: is declared by no PREFIX", 1, 42)
