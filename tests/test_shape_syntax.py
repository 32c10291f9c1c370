"""An anthology's own shapes are checked against SHACL's syntax rules before they are
used (anthology_kg/shacl/syntax.py): an ill-formed shape is exit 2 at its file and line
on both engines, the same message, where before the fast engine read the first value and
went on, and pySHACL refused some with no file, crashed on others (a traceback, exit 1)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import REPO, run_cli

from anthology_kg import resources
from anthology_kg.errors import AnthologyError
from anthology_kg.ruleset import load_rules
from anthology_kg.shacl.syntax import syntax_results

ENGINES = ["fast", "reference"]
HEADER = (
    "@prefix sh: <http://www.w3.org/ns/shacl#> .\n"
    "@prefix ak: <https://w3id.org/anthology-kg/ns#> .\n"
    "@prefix dcterms: <http://purl.org/dc/terms/> .\n"
    "ak:MyShape a sh:NodeShape ; sh:targetClass ak:Entry ;\n"
    "  sh:property [ sh:path dcterms:title ;\n"
)


def anthology_with_shapes(root: Path, text: str) -> Path:
    """The minimal fixture's data with ``ontology/shapes/mine.ttl`` holding ``text``."""
    shutil.copytree(REPO / "tests" / "fixtures" / "minimal" / "data", root / "data")
    (root / "ontology" / "shapes").mkdir(parents=True)
    (root / "ontology" / "shapes" / "mine.ttl").write_text(text, encoding="utf-8")
    return root


#: (what line 6 of mine.ttl says inside a property shape, what the error says there; the
#: line where the first value of the property at fault is written is 6 unless given)
ILL_FORMED = [
    ('sh:minCount "one"', 'sh:minCount "one": not a literal of datatype xsd:integer'),
    ("sh:minCount 1, 2", "sh:minCount: more than one value"),
    ("sh:maxCount -1", "sh:maxCount -1: not a number of at least 0"),
    ('sh:datatype "xsd:string"', 'sh:datatype "xsd:string": not an IRI'),
    ('sh:class "Foo"', 'sh:class "Foo": not an IRI'),
    ("sh:pattern 5", "sh:pattern 5: not a literal of datatype xsd:string"),
    ('sh:pattern "("', 'sh:pattern "(": not a regular expression SPARQL\'s REGEX takes'),
    ('sh:pattern "a" ; sh:flags "z"', 'sh:pattern "a": not a regular expression'),
    ("sh:nodeKind sh:Foo", "sh:nodeKind sh:Foo: not one of sh:BlankNode, sh:IRI, sh:Literal"),
    ("sh:in ( 1 ) , ( 2 )", "sh:in: more than one value"),
    ("sh:path dcterms:creator", "sh:path: more than one value", 5),
    (
        "sh:qualifiedValueShape [ sh:class ak:Entry ]",
        "sh:qualifiedValueShape []: neither sh:qualifiedMinCount nor sh:qualifiedMaxCount",
    ),
]


@pytest.mark.parametrize("case", ILL_FORMED, ids=[case[0] for case in ILL_FORMED])
def test_an_ill_formed_shape_is_an_input_error_at_its_line(tmp_path, case):
    written, said, line = (*case, 6)[:3]
    root = anthology_with_shapes(tmp_path, f"{HEADER}     {written} ] .\n")
    with pytest.raises(AnthologyError) as raised:
        load_rules(root).shape_triples  # noqa: B018 (read: the shapes are checked)
    error = raised.value
    assert (error.path, error.line) == (root / "ontology" / "shapes" / "mine.ttl", line)
    assert error.message.startswith(f"a shape in ak:MyShape: {said}"), error.message
    assert error.message.endswith(" (a syntax rule of SHACL)") and "\n" not in error.message


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("written", ['sh:minCount "one"', "sh:pattern 5", "sh:minCount 1, 2"])
def test_both_engines_refuse_an_ill_formed_shape_with_exit_2_at_its_line(tmp_path, engine, written):
    """The same message on both; before, pySHACL crashed on ``sh:pattern 5`` (exit 1, a
    traceback) and the fast engine read the first of two counts."""
    root = anthology_with_shapes(tmp_path, f"{HEADER}     {written} ] .\n")
    result = run_cli("--root", str(root), "check", "--engine", engine)
    assert result.exit_code == 2, result.output
    said = result.stderr.replace(str(root) + "/", "")
    assert said.startswith("ontology/shapes/mine.ttl:6: a shape in ak:MyShape: sh:"), said
    assert said.count("\n") == 1 and "Traceback" not in result.output, said


@pytest.mark.parametrize("engine", ENGINES)
def test_a_problem_inside_a_shape_is_said_once_not_again_for_the_shape_holding_it(tmp_path, engine):
    root = anthology_with_shapes(tmp_path, f'{HEADER}     sh:or ( [ sh:datatype "x" ] ) ] .\n')
    result = run_cli("--root", str(root), "check", "--engine", engine)
    assert result.exit_code == 2, result.output
    assert result.stderr.count("\n") == 1, result.stderr  # one problem, one line
    assert 'a shape in ak:MyShape: sh:datatype "x": not an IRI' in result.stderr


#: (what follows ``ak:ruleNumber`` on line 4 of mine.ttl, what the error says of it)
ILL_NUMBERED = [
    ('"abc"', 'ak:ruleNumber "abc": not a rule\'s number, an integer from 1'),
    ("1.5", "ak:ruleNumber 1.5: not a rule's number"),
    ("0", "ak:ruleNumber 0: not a rule's number"),  # (before: AK000, the waivers' code)
    ("-1", "ak:ruleNumber -1: not a rule's number"),  # (before: AK-01)
    ('" 5"^^xsd:integer', 'ak:ruleNumber " 5"^^xsd:integer: not a rule\'s number'),
    ("1, 2", "ak:ruleNumber: more than one value (a shape encodes one rule"),
]


@pytest.mark.parametrize("case", ILL_NUMBERED, ids=[case[0] for case in ILL_NUMBERED])
def test_a_rule_number_that_is_not_one_integer_from_1_is_an_input_error_at_its_line(tmp_path, case):
    """Before, ``int()`` of it in rules.rule_catalog: a ValueError traceback and exit 1
    ("abc", 1.5), or a code of AK000 or AK-01 (0, -1)."""
    written, said = case
    text = HEADER.replace("sh:NodeShape ;", f"sh:NodeShape ;\n  ak:ruleNumber {written} ;")
    text = "@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n" + text
    root = anthology_with_shapes(tmp_path, f"{text}     sh:minCount 1 ] .\n")
    with pytest.raises(AnthologyError) as raised:
        load_rules(root).shape_triples  # noqa: B018 (read: the shapes are checked)
    error = raised.value
    assert (error.path, error.line) == (root / "ontology" / "shapes" / "mine.ttl", 6)
    assert error.message.startswith(f"ak:MyShape: {said}"), error.message
    assert "syntax rule of SHACL" not in error.message


@pytest.mark.parametrize("engine", ENGINES)
def test_both_engines_refuse_a_rule_number_that_is_no_integer_with_exit_2(tmp_path, engine):
    text = HEADER.replace("sh:NodeShape ;", 'sh:NodeShape ; ak:ruleNumber "abc" ;')
    root = anthology_with_shapes(tmp_path, f"{text}     sh:minCount 1 ] .\n")
    result = run_cli("--root", str(root), "check", "--engine", engine)
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    said = result.stderr.replace(str(root) + "/", "")
    assert said == (
        'ontology/shapes/mine.ttl:4: ak:MyShape: ak:ruleNumber "abc": not a rule\'s number,'
        " an integer from 1 (rule 2's code is AK002)\n"
    ), said


def test_a_shape_of_the_anthology_numbered_as_a_rule_has_its_code(tmp_path):
    text = HEADER.replace("sh:NodeShape ;", "sh:NodeShape ; ak:ruleNumber 12 ;")
    root = anthology_with_shapes(tmp_path, f"{text}     sh:minCount 1 ] .\n")
    result = run_cli("--root", str(root), "check", "--select", "AK012")
    assert result.exit_code == 1 and "AK012 Violation" in result.stdout, result.output


NODE_SHAPE_WITH_A_COUNT = (
    HEADER.replace("  sh:property [ sh:path dcterms:title ;\n", "")
    + "  sh:minCount 1 .\nak:Other a sh:NodeShape ; sh:targetNode ak:x .\n"
)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_node_shape_with_a_count_says_only_a_property_shape_has_one(tmp_path, engine):
    root = anthology_with_shapes(tmp_path, NODE_SHAPE_WITH_A_COUNT)
    result = run_cli("--root", str(root), "check", "--engine", engine)
    assert result.exit_code == 2, result.output
    said = "mine.ttl:4: ak:MyShape: sh:path: missing: only a property shape (one with sh:path) has"
    assert said in result.stderr and result.stderr.count("\n") == 1, result.stderr


@pytest.mark.parametrize("engine", ENGINES)
def test_an_edited_copy_of_a_bundled_shapes_file_is_refused_naming_both_files(bundled_copy, engine):
    """An anthology whose ontology/shapes holds its own edit of a bundled file (a fork
    of this repository run by the installed tool): the two files' triples merge, and a
    shape written with an RDF list as its path gets two sh:path. Before, the fast engine
    read one of them and checked on; pySHACL refused, naming no file."""
    own = bundled_copy / "ontology" / "shapes" / "adr-032.ttl"
    own.parent.mkdir(parents=True)
    bundled = resources.bundled_shapes_dir() / "adr-032.ttl"
    text = bundled.read_text(encoding="utf-8")
    own.write_text(text.replace("sh:maxCount 1 ;", "sh:maxCount 2 ;"), encoding="utf-8")
    line = 1 + text[: text.index("sh:path ( ak:notStated")].count("\n")
    result = run_cli("--root", str(bundled_copy), "check", "--engine", engine)
    assert result.exit_code == 2, result.output
    first, second = result.stderr.strip().splitlines()
    note = "(written in more than one shapes file: their triples merge)"
    assert first.startswith(f"{own}:{line}: aks:Rule1CategoryNotStated: sh:path: more than"), first
    assert second.startswith(f"{bundled}:{line}: aks:") or second.startswith(
        f"{bundled.relative_to(REPO)}:{line}: aks:"
    ), second
    assert first.endswith(note) and second.endswith(note)


def test_the_bundled_shapes_keep_every_syntax_rule():
    """Why an anthology without shapes of its own is not checked (no cost to ``check``)."""
    rules = load_rules(resources.bundled_dir())
    assert rules.shape_triples and syntax_results(rules.shape_triples) == []


def test_the_rules_are_the_w3cs_shapes_for_shapes_as_published():
    bundled = Path(resources.__file__).parent / "shacl" / "shacl-shacl.ttl"
    lines = bundled.read_text(encoding="utf-8").splitlines(keepends=True)
    header = [line for line in lines if line.startswith("#")][:7]
    assert all(line.startswith("# ") for line in header) and lines[7] == "\n"
    suite = REPO / "tests" / "w3c" / "shacl-tests" / "core" / "complex"
    assert "".join(lines[8:]) == (suite / "shacl-shacl-data-shapes.ttl").read_text("utf-8")


def test_well_formed_shapes_of_the_anthology_are_used_as_before(tmp_path):
    root = anthology_with_shapes(
        tmp_path,
        f'{HEADER}     sh:minCount 1 ; sh:pattern "^Z" ; sh:message "Local: a title in Z" ] .\n'
        "@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n"
        'ak:Declared sh:declare [ sh:prefix "dcterms" ;\n'
        '    sh:namespace "http://purl.org/dc/terms/"^^xsd:anyURI ] .\n'
        "ak:Q a sh:NodeShape ; sh:targetClass ak:Entry ; sh:sparql [ sh:prefixes ak:Declared ;\n"
        '  sh:select """SELECT $this WHERE { $this dcterms:identifier ?t }""" ;\n'
        '  sh:message "Local: titled" ] .\n',
    )
    for engine in ENGINES:
        result = run_cli("--root", str(root), "check", "--engine", engine)
        assert result.exit_code == 1 and "Local: a title in Z" in result.stdout, result.output
        assert "Local: titled" in result.stdout


def test_a_pattern_pythons_re_cannot_read_is_read_as_sparql_reads_it_on_both_engines(tmp_path):
    """SPARQL's REGEX reads \\p{L}; pySHACL compiled sh:pattern with Python's re, which
    does not (exit 2 on the reference engine): both engines now match it as REGEX does."""

    def on_the_identifier(pattern: str) -> str:
        return (
            HEADER.replace("dcterms:title", "dcterms:identifier") + f' sh:pattern "{pattern}" ] .\n'
        )

    # "LIT-001" starts with a letter, not a digit.
    for pattern, found in (("^\\\\p{N}", 1), ("^\\\\p{L}", 0)):
        folder = anthology_with_shapes(tmp_path / pattern[-2], on_the_identifier(pattern))
        for engine in ("fast", "reference"):
            result = run_cli("--root", str(folder), "validate", "--format", "json",
                             "--engine", engine)  # fmt: skip
            assert result.exit_code == 1, result.output  # the fixture breaks rule 1 in any case
            results = json.loads(result.stdout)["results"]
            mine = [r["value"] for r in results if r["path"] == "dcterms:identifier"]
            assert mine == ["LIT-001"] * found, (engine, results)


def sparql_shape(select: str, holder: str = "ak:MyShape a sh:NodeShape") -> str:
    return (
        "@prefix sh: <http://www.w3.org/ns/shacl#> .\n"
        "@prefix ak: <https://w3id.org/anthology-kg/ns#> .\n"
        f"{holder} ; sh:targetClass ak:Entry ;\n"
        f'  sh:sparql [ sh:select """{select}""" ] .\n'
    )


#: (a sh:select of a node shape's SPARQL constraint, what the error says of it)
ILL_FORMED_QUERIES = [
    (
        "SELECT $this WHERE {\n  $this ?p ?o . FILTER(",
        "not a SPARQL SELECT query: at line 2, column 24: the text ends where the '(' of "
        "line 2, column 23 is open: a ')' is missing",
    ),
    ("ASK { ?s ?p ?o }", "not a SPARQL SELECT query ("),
    (
        "SELECT $this WHERE { $this ex:p ?o }",
        "not a SPARQL SELECT query: at line 1, column 28: the prefix ex: is declared by no "
        "sh:prefixes nor PREFIX",
    ),
    ("SELECT $this WHERE { $this $PATH ?o }", "$PATH in a constraint of a node shape"),
    # (before: a result at every focus node on the fast engine, none on pySHACL)
    ("SELECT ?x WHERE { ?x ?p ?o }", "sh:select: the query does not project $this"),
    # (before: pyoxigraph's RuntimeError, a traceback and exit 1 on both engines)
    (
        "SELECT $this WHERE { $this ?p ?o FILTER(<http://e/f>(?o)) }",
        "sh:select: not a query the fast engine runs: The custom function <http://e/f>",
    ),
]


@pytest.mark.parametrize("case", ILL_FORMED_QUERIES, ids=[q for q, _ in ILL_FORMED_QUERIES])
def test_a_sparql_constraint_that_is_no_select_query_is_an_input_error(tmp_path, case):
    """Before, the fast engine handed such shapes to pySHACL, which crashed (a pyparsing
    or TypeError traceback, exit 1)."""
    query, said = case
    root = anthology_with_shapes(tmp_path, sparql_shape(query))
    with pytest.raises(AnthologyError) as raised:
        load_rules(root).shape_triples  # noqa: B018 (read: the shapes are checked)
    assert raised.value.line == 4
    assert raised.value.message.startswith("a shape in ak:MyShape: sh:select: "), raised.value
    assert said in raised.value.message


@pytest.mark.parametrize("engine", ENGINES)
def test_both_engines_refuse_a_sparql_syntax_error_with_exit_2(tmp_path, engine):
    root = anthology_with_shapes(tmp_path, sparql_shape(ILL_FORMED_QUERIES[0][0]))
    result = run_cli("--root", str(root), "check", "--engine", engine)
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    assert "mine.ttl:4: a shape in ak:MyShape: sh:select: not a SPARQL SELECT" in result.stderr


def test_a_path_neither_a_list_nor_a_path_node_is_refused(tmp_path):
    """W3C core/path/path-strange-002's shape (a node both a list and an inverse path),
    which the suite runs to see what a processor makes of it, is ill-formed here."""
    root = anthology_with_shapes(
        tmp_path,
        "@prefix sh: <http://www.w3.org/ns/shacl#> .\n@prefix ex: <http://example.org/> .\n"
        "@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .\n"
        "ex:s1 a sh:PropertyShape ; sh:targetClass ex:C ;\n"
        "  sh:path [ rdf:first ex:p ; rdf:rest () ; sh:inversePath ( ex:p ) ] .\n",
    )
    with pytest.raises(AnthologyError) as raised:
        load_rules(root).shape_triples  # noqa: B018 (read: the shapes are checked)
    assert "ex:s1" not in raised.value.message  # (no prefix of the tool's for example.org)
    assert raised.value.message.startswith("<http://example.org/s1>: sh:path []: not a well")


def test_sparql_only_the_fast_engine_reads_is_exit_2_on_the_reference_engine(tmp_path):
    """An RDF 1.2 triple term in a constraint: pyoxigraph reads it, rdflib's parser (and
    so pySHACL) does not: a refusal saying so, not pyparsing's traceback and exit 1."""
    select = "SELECT $this WHERE { $this ?p ?o . FILTER(isTRIPLE(?o)) }"
    root = anthology_with_shapes(tmp_path, sparql_shape(select))
    assert run_cli("--root", str(root), "check").exit_code in (0, 1)
    reference = run_cli("--root", str(root), "check", "--engine", "reference")
    assert reference.exit_code == 2 and "Traceback" not in reference.output, reference.output
    assert "rdflib cannot read a SPARQL query of theirs" in reference.stderr


def test_the_rules_skipped_for_properties_no_shape_uses_would_find_nothing(tmp_path):
    """syntax_results leaves out the per-value rules of properties no triple uses (for
    speed): every rule run gives the same rows, on each ill-formed case above."""
    import pyoxigraph as ox

    texts = [f"{HEADER}     {case[0]} ] .\n" for case in ILL_FORMED]
    texts += [sparql_shape(query) for query, _ in ILL_FORMED_QUERIES]
    texts.append(NODE_SHAPE_WITH_A_COUNT)  # a missing sh:path: a rule on an unused property
    for text in texts:
        quads = ox.parse(text, format=ox.RdfFormat.TURTLE)
        triples = [(q.subject, q.predicate, q.object) for q in quads]
        skipping = syntax_results(triples)
        assert skipping and set(skipping) == set(syntax_results(triples, skip_unused=False))


def test_a_shape_query_calling_service_is_not_sent_when_the_shapes_are_read(tmp_path):
    """pyoxigraph parses a query only to evaluate it: fe8ddba's check ran each query of
    the shapes on an empty store, so a SERVICE in one reached the network as soon as a
    command read the shapes (rules, query, site; check before its own refusal). A real
    HTTP server on this machine counts the requests: none."""
    from stores import recording_store

    with recording_store(status=500) as (store, requests):
        url = f"{store}/leak"
        select = f"SELECT $this WHERE {{ SERVICE <{url}> {{ $this ?p ?o }} }}"
        root = anthology_with_shapes(tmp_path, sparql_shape(select))
        for command in (("rules",), ("query", "unread"), ("export", "--include", "shapes")):
            result = run_cli("--root", str(root), *command)
            assert result.exit_code == 0, result.output
        check = run_cli("--root", str(root), "check")
        assert check.exit_code == 2 and "--allow-service" in check.stderr, check.output
    assert requests == []


#: A shape the fast engine cannot compile (recursive), so that it falls back to pySHACL.
RECURSIVE = (
    "ak:Chain a sh:NodeShape ; sh:targetClass ak:Entry ;\n"
    "  sh:property [ sh:path [ sh:zeroOrMorePath ak:about ] ; sh:node ak:Chain ] .\n"
)


@pytest.mark.parametrize("fallback", [False, True], ids=["reference", "fast falling back"])
def test_shapes_graph_is_exit_2_at_its_line_where_pyshacl_would_run_it(tmp_path, fallback):
    """pySHACL does not bind $shapesGraph: a NotImplementedError traceback and exit 1 on
    the reference engine and whenever the fast engine fell back to it. Now exit 2 at the
    query's line; the fast engine, which binds it, runs it."""
    select = "SELECT $this WHERE { $this ?p ?o . GRAPH $shapesGraph { ?s ?q ?o } }"
    root = anthology_with_shapes(tmp_path, sparql_shape(select) + (RECURSIVE if fallback else ""))
    engine = "fast" if fallback else "reference"
    result = run_cli("--root", str(root), "check", "--engine", engine)
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    last = result.stderr.splitlines()[-1].replace(str(root) + "/", "")
    assert last == (
        "ontology/shapes/mine.ttl:4: a shape in ak:MyShape: sh:select: uses $shapesGraph, which"
        " the reference engine (pySHACL) does not bind: the fast engine runs it"
    ), result.stderr
    if not fallback:
        assert run_cli("--root", str(root), "check", "--engine", "fast").exit_code in (0, 1)


def test_any_crash_of_pyshacl_is_an_input_error_of_one_line(monkeypatch):
    from rdflib import Graph

    from anthology_kg import reference_shacl

    def crashing(*args, **kwargs):
        raise KeyError("something pySHACL did not expect")

    monkeypatch.setattr(reference_shacl.pyshacl, "validate", crashing)
    with pytest.raises(AnthologyError) as raised:
        reference_shacl.shacl_report(Graph(), Graph())
    assert raised.value.message == (
        "the shapes cannot be used on the reference engine: pySHACL failed on them "
        "(KeyError: 'something pySHACL did not expect')"
    )


DECLARED = (
    "@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n"
    'ak:Declared sh:declare [ sh:prefix "ex" ; sh:namespace "http://ex.org/"^^xsd:anyURI ] .\n'
)


@pytest.mark.parametrize("engine", ENGINES)
def test_names_and_strings_that_spell_minus_or_values_are_no_clauses(tmp_path, engine):
    """Before, ``\\b(MINUS|SERVICE|VALUES)\\b`` found a clause in ``?values``, ``ex:MINUS``
    and ``'VALUES'``: the fast engine fell back, pySHACL (the same mistake) refused the
    shape, exit 2 on both with no file or line. Now the constraint runs on both."""
    select = (
        "SELECT $this ?values WHERE { $this a ?values . OPTIONAL { $this ex:MINUS ?minus }"
        " FILTER (STR(?values) != 'VALUES' && !BOUND(?minus)) }"
    )
    text = sparql_shape(select).replace(
        '""" ] .', '""" ; sh:prefixes ak:Declared ; sh:message "Local: typed" ] .'
    )
    root = anthology_with_shapes(tmp_path, text + DECLARED)
    result = run_cli("--root", str(root), "check", "--engine", engine)
    assert result.exit_code == 1 and "Local: typed" in result.stdout, result.output
    assert "cannot run these shapes" not in result.stderr, result.stderr


#: (line 4 of mine.ttl: the SPARQL constraint of ak:MyShape, what the error says there)
ILL_FORMED_CONSTRAINTS = [
    (
        '[ sh:select """SELECT $this WHERE { $this a ?t MINUS { $this a <urn:x:t> } }""" ]',
        "a shape in ak:MyShape: sh:select: a MINUS clause, which SHACL-SPARQL forbids",
    ),
    (
        '[ sh:select """SELECT $this WHERE { VALUES ?t { 1 } $this ?p ?t }""" ]',
        "a shape in ak:MyShape: sh:select: a VALUES clause, which SHACL-SPARQL forbids",
    ),
    (
        '[ sh:ask "ASK { FILTER (false) }" ]',
        "ak:MyShape: sh:sparql []: no sh:select (SHACL 5.1: a SPARQL constraint has exactly"
        " one; sh:ask is a validator's (6.2))",
    ),
    (
        '[ sh:select "SELECT $this {}", "SELECT $this { $this ?p ?o }" ]',
        "a shape in ak:MyShape: sh:select: more than one value (SHACL 5.1",
    ),
]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(
    "case", ILL_FORMED_CONSTRAINTS, ids=["MINUS", "VALUES", "sh:ask", "two sh:select"]
)
def test_a_constraint_only_pyshacl_refused_is_exit_2_at_its_line_on_both(tmp_path, case, engine):
    """Before, the fast engine fell back ("cannot run these shapes") and pySHACL refused
    in its own words, with its ``ConstraintLoadError: …`` lines on stderr and no file."""
    constraint, said = case
    root = anthology_with_shapes(
        tmp_path,
        "@prefix sh: <http://www.w3.org/ns/shacl#> .\n"
        "@prefix ak: <https://w3id.org/anthology-kg/ns#> .\n"
        "ak:MyShape a sh:NodeShape ; sh:targetClass ak:Entry ;\n"
        f"  sh:sparql {constraint} .\n",
    )
    result = run_cli("--root", str(root), "check", "--engine", engine)
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    stderr = result.stderr.replace(str(root) + "/", "")
    assert stderr.startswith(f"ontology/shapes/mine.ttl:4: {said}"), stderr
    assert stderr.count("\n") == 1, stderr


#: (a sh:select SHACL refuses, the clause named) A query of three VALUES blocks sorted:
#: evaluated on an empty store, it took 11 s of CPU to be refused (review46 N4).
VALUES_ROWS = " ".join(map(str, range(150)))
REFUSED_UNPARSED = [
    (
        f"SELECT $this WHERE {{ VALUES ?a {{ {VALUES_ROWS} }} VALUES ?b {{ {VALUES_ROWS} }} "
        f"VALUES ?c {{ {VALUES_ROWS} }} }} ORDER BY ?a ?b ?c",
        "VALUES",
    ),
    ("SELECT $this WHERE { $this a ?t MINUS { $this a <urn:x:t> } } ORDER BY ?t", "MINUS"),
]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(("select", "keyword"), REFUSED_UNPARSED, ids=["VALUES", "MINUS"])
def test_a_forbidden_clause_is_refused_before_the_query_is_evaluated(
    tmp_path, monkeypatch, engine, select, keyword
):
    """SHACL 1.0, Appendix A (Pre-binding of Variables in SPARQL Queries): a query with a
    MINUS, a SERVICE or a VALUES clause is refused (the W3C suite's unsupported-sparql
    tests expect a failure). Said without parsing it, which pyoxigraph does by running
    it: before, its three VALUES blocks of 150 made 3,375,000 rows to sort on an empty
    store, 11 s of CPU, before the same refusal."""
    from anthology_kg.shacl import syntax

    parsed: list[str] = []
    parse = syntax._parse_problem

    def recorded(empty, declared, text, form, answer):
        parsed.append(text)
        return parse(empty, declared, text, form, answer)

    monkeypatch.setattr(syntax, "_parse_problem", recorded)
    root = anthology_with_shapes(tmp_path, sparql_shape(select))
    result = run_cli("--root", str(root), "check", "--engine", engine)
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    said = f"a {keyword} clause, which SHACL-SPARQL forbids"
    assert result.stderr.replace(str(root) + "/", "").startswith(
        f"ontology/shapes/mine.ttl:4: a shape in ak:MyShape: sh:select: {said}"
    ), result.stderr
    assert select not in parsed


QUIET_ON_BOTH = {
    # Legal SHACL that pySHACL refused (ConstraintLoadError, exit 2): constrains nothing.
    "ignoredProperties alone": "ak:S a sh:NodeShape ; sh:targetClass ak:Entry ;"
    " sh:ignoredProperties ( ak:z ) .\n",
    # pySHACL wrote a ShapeRecursionWarning with its evaluation path, twelve shapes long.
    "recursive": RECURSIVE,
}


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name", sorted(QUIET_ON_BOTH))
def test_shapes_pyshacl_warned_of_validate_as_before_without_its_lines(tmp_path, name, engine):
    prefixes = (
        "@prefix sh: <http://www.w3.org/ns/shacl#> .\n"
        "@prefix ak: <https://w3id.org/anthology-kg/ns#> .\n"
    )
    import warnings

    root = anthology_with_shapes(tmp_path, prefixes + QUIET_ON_BOTH[name])
    with warnings.catch_warnings(record=True) as warned:  # (pytest would catch them)
        warnings.simplefilter("always")
        result = run_cli("--root", str(root), "check", "--engine", engine)
    assert result.exit_code == 1, result.output  # the fixture breaks rule 1
    said = [line for line in result.stderr.splitlines() if "cannot run these shapes" not in line]
    assert said == [] and [str(w.message) for w in warned] == [], result.stderr


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(
    "text, line, said",
    [
        (f"{HEADER}     sh:qualifiedMinCount 1 ] .\n", 4, "a shape in ak:MyShape: "),
        # (pySHACL warned on stderr that only a property shape has one, and went on)
        (NODE_SHAPE_WITH_A_COUNT.replace("sh:minCount", "sh:qualifiedMaxCount"), 4, "ak:MyShape: "),
    ],
    ids=["property shape", "node shape"],
)
def test_a_qualified_count_without_a_qualified_shape_is_exit_2_on_both(
    tmp_path, text, line, said, engine
):
    """Before, the fast engine ignored it and pySHACL refused it in its own words, with no
    file (exit 2), or on a node shape warned on stderr and went on (exit 1 here)."""
    root = anthology_with_shapes(tmp_path, text)
    result = run_cli("--root", str(root), "check", "--engine", engine)
    assert result.exit_code == 2, result.output
    assert result.stderr.replace(str(root) + "/", "") == (
        f"ontology/shapes/mine.ttl:{line}: {said}sh:qualifiedValueShape: missing beside"
        " sh:qualifiedMinCount or sh:qualifiedMaxCount (a syntax rule of SHACL)\n"
    )


DECLARING_PREFIXES = (
    "@prefix sh: <http://www.w3.org/ns/shacl#> .\n"
    "@prefix ak: <https://w3id.org/anthology-kg/ns#> .\n"
    "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(
    "shape, said",
    [
        ("ak:S a sh:PropertyShape ; sh:targetClass ak:Note .", "missing on a sh:PropertyShape"),
        (
            "ak:S a sh:NodeShape ; sh:targetClass ak:Note ; sh:path rdfs:comment ; sh:minCount 1 .",
            "not allowed on a sh:NodeShape",
        ),
    ],
    ids=["property shape without a path", "node shape with a path"],
)
def test_a_shape_declared_against_its_path_is_exit_2_on_both(tmp_path, shape, said, engine):
    """SHACL 2.3 and 2.2: a sh:PropertyShape has one sh:path, a sh:NodeShape none. The
    fast engine ignored the first and ran the second as a property shape; pySHACL refused
    both in its own words, naming no file (hunt18 #4)."""
    root = anthology_with_shapes(tmp_path, DECLARING_PREFIXES + shape + "\n")
    result = run_cli("--root", str(root), "check", "--engine", engine)
    assert result.exit_code == 2, result.output
    assert result.stderr.replace(str(root) + "/", "") == (
        f"ontology/shapes/mine.ttl:4: ak:S: sh:path: {said} (a syntax rule of SHACL)\n"
    )


#: (what replaces what in mine.ttl, the line of the error, what it says after the shape's
#: name): a term of SHACL's namespace that SHACL does not define, and an ak: class or
#: property the ontology does not declare, where a shape names a class or a property.
MISNAMED = [
    (
        ("sh:targetClass ak:Entry", "sh:targetClas ak:Entry"),
        4,
        "ak:MyShape: sh:targetClas: not a term of SHACL 1.0 or its 2017 notes, which this tool "
        "reads; did you mean 'sh:targetClass'?",
    ),
    (
        ("a sh:NodeShape", "a sh:NodeShap"),
        4,
        "ak:MyShape: rdf:type sh:NodeShap: not a term of SHACL 1.0 or its 2017 notes, which "
        "this tool reads; did you mean 'sh:NodeShape'?",
    ),
    (
        ("dcterms:title ;\n", "dcterms:title ;\n sh:minCont 1 ;\n"),
        6,
        "a shape in ak:MyShape: sh:minCont: not a term of SHACL 1.0 or its 2017 notes, which "
        "this tool reads; did you mean 'sh:minCount'?",
    ),
    (
        ("dcterms:title ;\n", "dcterms:title ;\n sh:severity sh:Warnng ;\n"),
        6,
        "a shape in ak:MyShape: sh:severity sh:Warnng: not a term of SHACL 1.0 or its 2017 "
        "notes, which this tool reads;"
        " did you mean 'sh:Warning'?",
    ),
    (
        ("sh:targetClass ak:Entry", "sh:targetClass ak:Entyr"),
        4,
        "ak:MyShape: sh:targetClass ak:Entyr: not a class the ontology declares;"
        " did you mean 'ak:Entry'?",
    ),
    (
        ("sh:targetClass ak:Entry", "sh:targetClass ak:authors"),
        4,
        "ak:MyShape: sh:targetClass ak:authors: a property of the ontology, not a class",
    ),
    (
        ("dcterms:title ;\n", "dcterms:title ;\n sh:class ak:Referece ;\n"),
        6,
        "a shape in ak:MyShape: sh:class ak:Referece: not a class the ontology declares;"
        " did you mean 'ak:Reference'?",
    ),
    (
        ("sh:targetClass ak:Entry", "sh:targetSubjectsOf ak:categry"),
        4,
        "ak:MyShape: sh:targetSubjectsOf ak:categry: not a property the ontology declares;"
        " did you mean 'ak:category'?",
    ),
    (
        ("sh:targetClass ak:Entry", "sh:targetObjectsOf ak:Note"),
        4,
        "ak:MyShape: sh:targetObjectsOf ak:Note: a class of the ontology, not a property",
    ),
    (
        ("sh:path dcterms:title", "sh:path ak:athors"),
        5,
        "a shape in ak:MyShape: sh:path ak:athors: not a property the ontology declares;"
        " did you mean 'ak:authors'?",
    ),
    (
        ("sh:path dcterms:title", "sh:path ( ak:about\n ak:athors )"),
        6,
        "a shape in ak:MyShape: sh:path ak:athors: not a property the ontology declares;"
        " did you mean 'ak:authors'?",
    ),
    (
        (
            "sh:path dcterms:title",
            "sh:path [ sh:alternativePath ( dcterms:title\n [ sh:inversePath ak:abot ] ) ]",
        ),
        6,
        "a shape in ak:MyShape: sh:path ak:abot: not a property the ontology declares;"
        " did you mean 'ak:about'?",
    ),
    (
        ("dcterms:title ;\n", "dcterms:title ;\n sh:equals ak:filingReasn ;\n"),
        6,
        "a shape in ak:MyShape: sh:equals ak:filingReasn: not a property the ontology"
        " declares; did you mean 'ak:filingReason'?",
    ),
]


@pytest.mark.parametrize("case", MISNAMED, ids=[case[0][1] for case in MISNAMED])
def test_a_misnamed_shacl_or_ontology_term_is_an_input_error_at_its_line(tmp_path, case):
    """hunt21 #4: before, ``sh:targetClas`` or ``sh:targetClass ak:LiteratureRecrod``
    made a shape that targets nothing, and it checked nothing, silently (exit 0)."""
    (old, new), line, said = case
    assert old in HEADER
    root = anthology_with_shapes(tmp_path, f"{HEADER.replace(old, new)}     sh:minCount 1 ] .\n")
    with pytest.raises(AnthologyError) as raised:
        load_rules(root).shape_triples  # noqa: B018 (read: the shapes are checked)
    error = raised.value
    assert (error.path, error.line, error.message) == (
        root / "ontology" / "shapes" / "mine.ttl",
        line,
        said,
    )


OWN_RULE = """@prefix ak: <https://w3id.org/anthology-kg/ns#> .
@prefix sh: <http://www.w3.org/ns/shacl#> .
@prefix my: <https://example.org/my-shapes#> .

my:LitHasAuthors a sh:NodeShape ;
    sh:targetClass ak:LiteratureRecrod ;
    sh:property [ sh:path ak:authors ; sh:minCount 1 ] .

my:ArmHasFramework a sh:NodeShape ;
    sh:targetClas ak:Arm ;
    sh:property [ sh:path ak:trainedWith ; sh:minCount 1 ] .
"""


@pytest.mark.parametrize("engine", ENGINES)
def test_both_engines_refuse_an_own_rule_whose_target_is_misspelt(tmp_path, engine):
    """hunt21 #4's own rules, each problem on its line (before: exit 0, nothing said)."""
    root = anthology_with_shapes(tmp_path, OWN_RULE)
    result = run_cli("--root", str(root), "check", "--engine", engine)
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    assert result.stderr.replace(str(root) + "/", "") == (
        "ontology/shapes/mine.ttl:6: <https://example.org/my-shapes#LitHasAuthors>:"
        " sh:targetClass ak:LiteratureRecrod: not a class the ontology declares;"
        " did you mean 'ak:LiteratureRecord'?\n"
        "ontology/shapes/mine.ttl:10: <https://example.org/my-shapes#ArmHasFramework>:"
        " sh:targetClas: not a term of SHACL 1.0 or its 2017 notes, which this tool reads;"
        " did you mean 'sh:targetClass'?\n"
    )


def test_the_shacl_terms_are_those_of_the_w3c_vocabulary():
    """``SHACL_TERMS`` is the W3C's SHACL vocabulary (http://www.w3.org/ns/shacl.ttl, with
    the terms of SHACL-AF and SHACL-JS), as pySHACL ships it."""
    import pyshacl
    import rdflib

    from anthology_kg.shacl.vocabulary import SH, SHACL_TERMS

    published = rdflib.Graph().parse(Path(pyshacl.__file__).parent / "assets" / "shacl.ttl")
    named = {str(n) for n in published.all_nodes() if isinstance(n, rdflib.URIRef)}
    assert SHACL_TERMS == {n[len(SH.iri) :] for n in named if n.startswith(SH.iri)}


def test_the_bundled_shapes_name_only_declared_terms():
    """Why the bundled shapes are not checked for it either."""
    from anthology_kg.ruleset import check_shape_syntax

    rules = load_rules(resources.bundled_dir())
    check_shape_syntax(rules.shape_files, rules.shape_triples, rules.base, rules.ontology_triples)
