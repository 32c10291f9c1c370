"""Differential test: the fast engine gives exactly the reference engine's answers (results,
stored queries, stats, rendered entries, export bytes), and ``open_engine`` picks them."""

import functools
import json
from pathlib import Path

import pytest
from conftest import FIXTURES, reference_results

from anthology_kg.engine import open_engine
from anthology_kg.errors import AnthologyError
from anthology_kg.export import build_export
from anthology_kg.export_writers import to_nquads, to_turtle
from anthology_kg.fast import load_fast
from anthology_kg.generate import generate
from anthology_kg.loader import load_anthology
from anthology_kg.local_query import run_local
from anthology_kg.queries import bind_params, catalog
from anthology_kg.records import render_record
from anthology_kg.resources import bundled_dir
from anthology_kg.stats import compute_stats
from anthology_kg.validation import validate

ROOTS = [
    bundled_dir(),
    FIXTURES / "minimal",
    FIXTURES / "queries-trained",
    FIXTURES / "queries-two",
    *sorted((FIXTURES / "rules").iterdir()),
]
SEEDS = [1, 2, 3, 4, 5]


def results(anthology, found=None):
    return sorted(
        tuple(
            "" if v is None else str(v)
            for v in (r.focus, r.path, r.value, r.shape, r.severity, r.file, r.line)
        )
        for r in (validate(anthology).results if found is None else found)
    )


def answers(anthology):
    out = {}
    entry = next(iter(dict(anthology.entries()).values()), None)
    for name, stored in catalog(anthology).items():
        values = {p.name: entry for p in stored.params}
        result = run_local(anthology, stored.text, bind_params(anthology, stored, values))
        out[name] = (result.variables, result.rows)
    return out


def rendered(anthology, graph_of):
    """Each entry as ``render`` prints it from ``graph_of(entry)``, or the refusal."""
    out = {}
    for entry, identifier in anthology.entries():
        try:
            out[identifier] = render_record(graph_of(entry), entry)
        except AnthologyError as exc:
            out[identifier] = f"refused: {exc}"
    return out


@functools.cache
def observed(root: Path, engine: str) -> dict:
    """What the tests compare, computed once per anthology and engine for the session
    (the reference engine's validation is the slow part of the suite)."""
    anthology = load_fast(root) if engine == "fast" else load_anthology(root)
    built = build_export(anthology, ("data", "ontology", "shapes"))
    out = {
        # the reference results once per session, shared with test_rules (conftest)
        "results": results(anthology, reference_results(root) if engine == "reference" else None),
        "answers": answers(anthology),
        "stats": compute_stats(anthology),
        "render": rendered(anthology, anthology.describe),
        "export": (to_turtle(built), to_nquads(built)),
    }
    if engine == "reference":
        out["render from the whole graph"] = rendered(anthology, lambda _: anthology.data)
    return out


@pytest.mark.parametrize("root", ROOTS, ids=lambda p: p.name)
def test_same_results_on_every_fixture(root):
    fast, reference = observed(root, "fast"), observed(root, "reference")
    assert fast["results"] == reference["results"]
    assert fast["answers"] == reference["answers"]


@pytest.mark.parametrize("root", ROOTS, ids=lambda p: p.name)
def test_same_stats_render_and_export_bytes_on_every_fixture(root):
    fast, reference = observed(root, "fast"), observed(root, "reference")
    assert fast["stats"] == reference["stats"]
    assert fast["render"] == reference["render"]
    assert fast["export"] == reference["export"]
    # render reads only what Engine.describe gives, and that is enough to print an entry
    assert reference["render"] == reference["render from the whole graph"]


#: Entries of each generated anthology: the fewest with which every seed writes every kind
#: of entry the generator knows (a sweep is written at its 50th unit of work, 130 to 140
#: entries) besides the 18 planted violations, two of each rule's; the reference engine's
#: cost grows with it.
GENERATED_ENTRIES = 140
KINDS = ("ADR", "ARXIV", "CODEBASE", "COMPARISON", "LIT", "NOTE", "QUESTION", "SOTA", "SWEEP")


@pytest.fixture(scope="module", params=SEEDS)
def generated(request, tmp_path_factory):
    out = tmp_path_factory.mktemp(f"seed{request.param}")
    generate(GENERATED_ENTRIES, request.param, out, violations=18)
    return out


def test_same_results_on_generated_anthologies_with_planted_violations(generated):
    fast, reference = observed(generated, "fast"), observed(generated, "reference")
    got = fast["results"]
    assert got == reference["results"]
    expected = json.loads((generated / "expected-violations.json").read_text("utf-8"))
    assert sorted((r[0], r[3]) for r in got) == sorted((e["focus"], e["shape"]) for e in expected)
    assert len(expected) == 18
    assert fast["answers"] == reference["answers"]
    assert fast["stats"] == reference["stats"] and fast["stats"].entries >= GENERATED_ENTRIES
    assert {path.name.split("-")[0] for path in (generated / "data").iterdir()} == set(KINDS)
    assert fast["render"] == reference["render"]
    assert fast["export"] == reference["export"]


def test_generate_is_reproducible(tmp_path):
    generate(200, 7, tmp_path / "a", violations=9)
    generate(200, 7, tmp_path / "b", violations=9)
    files = sorted(p.name for p in (tmp_path / "a" / "data").iterdir())
    assert files == sorted(p.name for p in (tmp_path / "b" / "data").iterdir())
    for name in files:
        assert (tmp_path / "a" / "data" / name).read_bytes() == (
            tmp_path / "b" / "data" / name
        ).read_bytes()


def test_fast_engine_reports_syntax_errors_with_file_and_line():
    from anthology_kg.errors import AnthologyError

    with pytest.raises(AnthologyError) as info:
        load_fast(FIXTURES / "broken-syntax")
    assert Path(info.value.path).name == "LIT-001.ttl" and info.value.line == 8


LITERALS = """@prefix ak: <https://w3id.org/anthology-kg/ns#> .
@prefix dcterms: <http://purl.org/dc/terms/> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
<LIT-001> a ak:LiteratureRecord ; dcterms:identifier "LIT-001" ;
    ak:authors "Doe et al." ; dcterms:issued "2024"^^xsd:gYear ; ak:standing "Read." ;
    ak:readingStatus ak:unread ; ak:takeaway [ ak:position "01"^^xsd:integer ;
        <http://www.w3.org/1999/02/22-rdf-syntax-ns#value> "First." ] ;
    <urn:x:count> "007"^^xsd:integer, "1.0E6"^^xsd:double, "4.0"^^xsd:decimal .
"""


def test_export_and_render_keep_literals_as_written_on_the_fast_engine(tmp_path):
    """pyoxigraph's store keeps numbers in canonical form (007 is 7); the fast engine
    writes the graph back out from the files as written, as the reference engine does."""
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "LIT-001.ttl").write_text(LITERALS, encoding="utf-8")
    outputs = {}
    for name, anthology in (("fast", load_fast(tmp_path)), ("reference", load_anthology(tmp_path))):
        built = build_export(anthology, ("data",))
        entry = anthology.resolve_entry("LIT-001")
        outputs[name] = (to_nquads(built), render_record(anthology.describe(entry), entry))
    assert outputs["fast"] == outputs["reference"]
    assert '"007"^^' in outputs["fast"][0] and '"1.0E6"^^' in outputs["fast"][0]
    assert "- First." in outputs["fast"][1]


def test_open_engine_picks_the_engine_in_one_place(tmp_path):
    root = FIXTURES / "minimal"
    warnings: list[str] = []
    assert open_engine(root=root, warn=warnings.append).name == "fast"
    assert open_engine("reference", root=root).name == "reference"
    # inference runs in the fast engine's store too (inference.py), without a warning
    assert open_engine(root=root, inference="rdfs", validates=True).name == "fast"
    assert open_engine("reference", root=root, inference="owlrl").name == "reference"
    # a remote engine reads the local rules and touches no network until asked
    remote = open_engine(root=root, endpoint="http://127.0.0.1:9/query")
    assert remote.name == "remote" and len(remote.shapes) > 0
    assert warnings == []
    with pytest.raises(AnthologyError, match="unknown engine"):
        open_engine("turbo", root=root)


def test_open_engine_falls_back_for_shapes_the_compiler_refuses_and_says_so(tmp_path):
    shapes = tmp_path / "advanced.ttl"
    shapes.write_text(
        "@prefix ak: <https://w3id.org/anthology-kg/ns#> .\n"
        "@prefix sh: <http://www.w3.org/ns/shacl#> .\n"
        "<urn:x:Q> a sh:NodeShape ; sh:targetClass ak:Comparison ;\n"
        "  sh:rule [ a sh:TripleRule ; sh:subject sh:this ; sh:predicate ak:checked ;\n"
        "            sh:object true ] .\n",
        encoding="utf-8",
    )
    root = FIXTURES / "minimal"
    warnings: list[str] = []
    engine = open_engine(root=root, extra_shapes=[shapes], validates=True, warn=warnings.append)
    assert engine.name == "reference"
    assert len(warnings) == 1 and "using the reference engine" in warnings[0]
    # a command that does not validate keeps the fast engine and hears nothing
    engine = open_engine(root=root, extra_shapes=[shapes], warn=warnings.append)
    assert engine.name == "fast" and len(warnings) == 1


AS_WRITTEN = """@prefix dcterms: <http://purl.org/dc/terms/> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
<N-1> dcterms:identifier "N-1" ;
    <urn:x:v> "007"^^xsd:integer, "  x  "^^xsd:token, "1.50"^^xsd:decimal, "+5"^^xsd:int,
        "1"^^xsd:boolean, "true"^^xsd:boolean .
"""


def test_the_fast_engines_store_answers_with_canonical_literals(tmp_path):
    """The documented difference (README, "Two engines"): pyoxigraph's store keeps a
    literal of a numeric or boolean datatype as its value, so what a query or a
    validation result reads back on the fast engine is the canonical form
    ("007" is "7", "1.50" is "1.5"), a derived integer type reads back as xsd:integer
    (oxigraph issue 1413), and two forms of one value ("1" and "true" as xsd:boolean)
    are one triple. A string-like literal ("  x  "^^xsd:token) keeps its text. The
    reference engine answers with the literals as written; export, render and fmt read
    the files, so they write what was written on both engines (test above)."""
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "N-1.ttl").write_text(AS_WRITTEN, encoding="utf-8")
    query = "SELECT ?v WHERE { ?s <urn:x:v> ?v }"
    xsd = "http://www.w3.org/2001/XMLSchema#"
    found = {}
    for name, anthology in (("fast", load_fast(tmp_path)), ("reference", load_anthology(tmp_path))):
        rows = run_local(anthology, query).rows
        found[name] = sorted((str(v), str(v.datatype)) for (v,) in rows)
        found[name + " triples"] = compute_stats(anthology).triples
    assert found["reference"] == sorted(
        [
            ("007", xsd + "integer"),
            ("  x  ", xsd + "token"),
            ("1.50", xsd + "decimal"),
            ("+5", xsd + "int"),
            ("1", xsd + "boolean"),
            ("true", xsd + "boolean"),
        ]
    )
    assert found["fast"] == sorted(
        [
            ("7", xsd + "integer"),
            ("  x  ", xsd + "token"),
            ("1.5", xsd + "decimal"),
            ("5", xsd + "integer"),
            ("true", xsd + "boolean"),
        ]
    )
    assert found["reference triples"] == found["fast triples"] + 1


VALUES_SHAPE = """@prefix sh: <http://www.w3.org/ns/shacl#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
<urn:x:Strings> a sh:NodeShape ; sh:targetSubjectsOf <urn:x:n> ;
    sh:property [ sh:path <urn:x:n> ; sh:datatype xsd:string ] .
"""


def test_validation_results_name_values_as_written_on_both_engines(tmp_path):
    """A result's value is the literal as the file writes it on the fast engine too:
    the canonical form the store gives back is mapped to the entry file's literal."""
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "N-1.ttl").write_text(
        '<N-1> <http://purl.org/dc/terms/identifier> "N-1" ;\n'
        '    <urn:x:n> 007, 1.50, "+5"^^<http://www.w3.org/2001/XMLSchema#int> .\n',
        encoding="utf-8",
    )
    shapes = tmp_path / "strings.ttl"
    shapes.write_text(VALUES_SHAPE, encoding="utf-8")
    found = {}
    for name, load in (("fast", load_fast), ("reference", load_anthology)):
        engine = load(tmp_path, extra_shapes=[shapes])
        # The fast engine's own results, though validate would hand "+5"^^xsd:int (held
        # as "5"^^xsd:integer, read as written by sh:datatype) to the reference engine:
        # its mapping of the store's values to the text as written is what is tested.
        engine.validates_as_written = True
        report = validate(engine)
        assert report.engine.name == name
        found[name] = sorted(
            (r.value, r.line, r.column) for r in report.results if "Datatype" in (r.component or "")
        )
    assert [value for value, _, _ in found["reference"]] == ["+5", "007", "1.50"]
    assert found["fast"] == found["reference"]


def test_ill_typed_literal_quieting_overlapping_in_two_threads_puts_the_logger_back():
    """Validation converts terms on several threads at once: blocks of
    ``quiet_ill_typed`` overlap out of order, and rdflib's logger ends as it was."""
    import logging

    from anthology_kg.terms import quiet_ill_typed

    logger = logging.getLogger("rdflib.term")
    assert not logger.disabled
    first, second = quiet_ill_typed(), quiet_ill_typed()
    first.__enter__()
    second.__enter__()
    first.__exit__(None, None, None)  # the first thread is done, the second is not
    assert logger.disabled
    second.__exit__(None, None, None)
    assert not logger.disabled


def test_a_large_anthologys_lean_query_forms_give_the_same_results(generated, monkeypatch):
    """Above fast.HASH_JOINED_TARGETS_UP_TO data files the compiled shapes look up class
    targets' focus nodes instead of hash-joining them (less memory): same results."""
    import anthology_kg.fast
    from anthology_kg.shacl import Compiler

    chosen = []
    for_store = Compiler.for_store.__func__

    def recording(cls, *args, **kwargs):
        compiler = for_store(cls, *args, **kwargs)
        chosen.append(compiler.path_targets)
        return compiler

    monkeypatch.setattr(Compiler, "for_store", classmethod(recording))
    monkeypatch.setattr(anthology_kg.fast, "HASH_JOINED_TARGETS_UP_TO", 0)
    assert results(load_fast(generated)) == observed(generated, "fast")["results"]
    assert chosen and not any(chosen)


def test_the_reference_engine_queries_what_its_graphs_hold_after_it_validates():
    """A query asked after a validation sees the graphs as they are, not the union
    copied for the queries before; pySHACL's additions to the shapes graph it is given
    are taken back (``reference_shacl._shapes_left_as_they_were``), so they are as they
    were before too."""
    from anthology_kg.loader import load_anthology
    from anthology_kg.parts import PARTS
    from anthology_kg.validation import validate

    engine = load_anthology()
    count = "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"
    before = int(engine.query(count).rows[0][0])
    validate(engine)
    held = len({triple for part in PARTS for triple in engine.graph(part)})
    assert held == before  # pySHACL's system triples were taken back (hunt5 #6)
    assert int(engine.query(count).rows[0][0]) == held


# A triple the data restates from the ontology (ADR-032: ak:trainedWith a
# ak:ConfounderProperty) is one triple of the queried graph, whose default graph is
# the merge of data, ontology and shapes: Oxigraph's union of the named graphs kept it
# once per graph, two rows where the reference engine gave one (hunt5 #3).
RESTATED = (
    "SELECT ?p WHERE { ?p a <https://w3id.org/anthology-kg/ns#ConfounderProperty> }",
    "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }",
)


@pytest.mark.parametrize("inference", ["none", "rdfs"])
def test_a_triple_in_the_data_and_the_ontology_is_one_triple_on_both_engines(inference):
    fast = open_engine("fast", root=bundled_dir(), inference=inference)
    reference = open_engine("reference", root=bundled_dir())
    rows = [len(run_local(fast, q).rows) for q in RESTATED]
    assert rows == [1, 1]
    if inference == "none":  # the reference engine infers ~owlrl's axioms beside
        for query in RESTATED:
            assert run_local(fast, query).rows == run_local(reference, query).rows, query
    assert fast.triple_count(("data", "ontology", "shapes")) == int(
        run_local(fast, RESTATED[1]).rows[0][0]
    )


def test_a_shape_counting_a_restated_triple_counts_it_once(tmp_path):
    """Validation's default graph too (the data and the vocabulary skeleton)."""
    from conftest import run_cli

    root = tmp_path / "a"
    root.mkdir()
    (root / "data").symlink_to(bundled_dir() / "data")
    shapes = root / "ontology" / "shapes"
    shapes.mkdir(parents=True)
    (root / "ontology" / "anthology.ttl").symlink_to(bundled_dir() / "ontology" / "anthology.ttl")
    (shapes / "once.ttl").write_text(
        "@prefix sh: <http://www.w3.org/ns/shacl#> .\n"
        "<urn:once> a sh:NodeShape ; sh:targetNode "
        "<https://w3id.org/anthology-kg/ns#trainedWith> ; sh:sparql [ sh:select "
        '"SELECT $this WHERE { { SELECT $this (COUNT(*) AS ?n) WHERE { $this a '
        "<https://w3id.org/anthology-kg/ns#ConfounderProperty> } GROUP BY $this } "
        'FILTER (?n > 1) }" ] .\n',
        encoding="utf-8",
    )
    for engine in ("fast", "reference"):
        result = run_cli("--root", str(root), "check", "--engine", engine)
        assert result.exit_code == 0, (engine, result.output)
        assert "urn:once" not in result.output


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_a_validation_leaves_the_graph_the_queries_see_as_it_was(engine):
    """pySHACL added its system triples (owl:Class rdfs:subClassOf rdfs:Class…) to the
    reference engine's shapes, part of the queried graph: 1056 -> 1058 (hunt5 #6)."""
    anthology = open_engine(engine, root=bundled_dir())
    count = "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"
    before = run_local(anthology, count).rows
    validate(anthology)
    assert run_local(anthology, count).rows == before


NESTED_SHAPES = """@prefix sh: <http://www.w3.org/ns/shacl#> .
<urn:x:Outer> a sh:NodeShape ; sh:targetSubjectsOf <urn:x:n> ; sh:node <urn:x:Inner> ;
    sh:property [ sh:path <urn:x:n> ;
                  sh:node [ sh:property [ sh:path <urn:x:m> ; sh:minCount 1 ] ] ] .
<urn:x:Inner> a sh:NodeShape ; sh:property [ sh:path <urn:x:k> ; sh:minCount 1 ] .
"""


def test_sh_node_gives_one_result_per_failing_node_on_both_engines(tmp_path):
    """pySHACL writes the results of an ``sh:node``'s shape under the ``sh:detail`` of
    its result: the reference engine reads only the report's ``sh:result`` values, so
    both engines give one result per value node that fails (SHACL 4.8.1), and the same
    W3C report."""
    from anthology_kg.w3c_report import shacl_turtle

    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "N-1.ttl").write_text(
        '<N-1> <http://purl.org/dc/terms/identifier> "N-1" ; <urn:x:n> <urn:x:a>, <urn:x:b> .\n',
        encoding="utf-8",
    )
    shapes = tmp_path / "nested.ttl"
    shapes.write_text(NESTED_SHAPES, encoding="utf-8")
    found = {}
    for name, load in (("fast", load_fast), ("reference", load_anthology)):
        report = validate(load(tmp_path, extra_shapes=[shapes]))
        found[name] = (
            sorted((r.shape, r.value or "", r.component or "") for r in report.results),
            shacl_turtle(report, "https://example.org/"),
        )
    # N-1 fails <urn:x:Inner>, and each of its two values the blank sh:node
    assert [(shape, component.split("#")[-1]) for shape, _, component in found["fast"][0]] == [
        ("urn:x:Outer", "NodeConstraintComponent")
    ] * 3
    assert found["reference"] == found["fast"]


TINY_PREFIXES = (
    "@prefix ex: <http://ex.org/> .\n@prefix sh: <http://www.w3.org/ns/shacl#> .\n"
    "@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n"
)


def tiny_results(tmp_path: Path, shapes: str, data: str, engine: str) -> list[dict]:
    """The JSON results of ``validate --shapes`` on an anthology of one data file."""
    from conftest import run_cli

    root = tmp_path / engine
    (root / "data").mkdir(parents=True)
    (root / "data" / "X-1.ttl").write_text(TINY_PREFIXES + data, encoding="utf-8")
    (root / "s.ttl").write_text(TINY_PREFIXES + shapes, encoding="utf-8")
    args = ["--root", str(root), "validate", "--shapes", str(root / "s.ttl")]
    result = run_cli(*args, "--format", "json", "--engine", engine)
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.stdout)["results"]


ASK_VALIDATOR = """ex:MaxLen a sh:ConstraintComponent ; sh:parameter [ sh:path ex:maxLen ] ;
  sh:validator [ a sh:SPARQLAskValidator ; {message}
    sh:ask "ASK {{ FILTER (STRLEN(STR($value)) <= $maxLen) }}" ] .
ex:S a sh:NodeShape ; sh:targetClass ex:T ; sh:property [ sh:path ex:n ; ex:maxLen 2 ] .
"""


@pytest.mark.parametrize(
    "message, said",
    [
        ('sh:message "longer than {$maxLen}: {$value}"@en ;', "longer than 2: abc"),
        ("", "fails <http://ex.org/MaxLen>"),
    ],
    ids=["templated", "none"],
)
def test_an_ask_validators_message_is_its_results_on_both_engines(tmp_path, message, said):
    """Before, the fast engine dropped an ASK validator's sh:message, and the reference
    engine gave pySHACL's "Parameterised SHACL Query generated …" where it has none."""
    shapes = ASK_VALIDATOR.format(message=message)
    for engine in ("fast", "reference"):
        found = tiny_results(tmp_path, shapes, 'ex:a a ex:T ; ex:n "abc" .\n', engine)
        assert [r["message"] for r in found] == [said], (engine, found)


#: (a property shape on ex:a, whether ex:a fails it: ex:f false, ex:t true)
BOOLEAN_ORDER = [
    ("sh:path ex:f ; sh:maxInclusive true", False),
    ("sh:path ex:f ; sh:maxExclusive true", False),
    ("sh:path ex:t ; sh:minExclusive false", False),
    ("sh:path ex:f ; sh:minExclusive false", True),
    ("sh:path ex:f ; sh:lessThan ex:t", False),
    ("sh:path ex:t ; sh:lessThan ex:f", True),
    ("sh:path ex:f ; sh:lessThanOrEquals ex:f", False),
]


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_booleans_compare_as_sparql_orders_them_on_both_engines(tmp_path, engine):
    """SPARQL 1.1 orders xsd:boolean (false < true); Oxigraph's comparison of two is an
    error, which the fast engine took for a result."""
    shapes = "ex:S a sh:NodeShape ; sh:targetClass ex:T ;\n  sh:property " + " ,\n    ".join(
        f"[ {shape} ; sh:name {index} ]" for index, (shape, _) in enumerate(BOOLEAN_ORDER)
    )
    found = tiny_results(
        tmp_path, shapes + " .\n", "ex:a a ex:T ; ex:f false ; ex:t true .\n", engine
    )
    failing = sorted(r["component"].rsplit("#")[-1] + " " + r["path"] for r in found)
    assert failing == [
        "LessThanConstraintComponent <http://ex.org/t>",
        "MinExclusiveConstraintComponent <http://ex.org/f>",
    ], found
    assert sum(failed for _, failed in BOOLEAN_ORDER) == len(failing)


def tiny_anthology(tmp_path: Path, shapes: str, data: str) -> tuple[Path, Path]:
    """An anthology of one data file (``data``) and a shapes file (``shapes``) beside it."""
    (tmp_path / "data").mkdir(parents=True)
    (tmp_path / "data" / "X-1.ttl").write_text(TINY_PREFIXES + data, encoding="utf-8")
    (tmp_path / "s.ttl").write_text(TINY_PREFIXES + shapes, encoding="utf-8")
    return tmp_path, tmp_path / "s.ttl"


def test_a_sparql_constraint_may_bind_value_itself_on_the_fast_engine(tmp_path):
    """SHACL pre-binds $value only in a validator's query (section 6): ``(?v AS ?value)``
    in a SPARQL constraint made the fast engine fall back for nothing."""
    select = "SELECT $this (?v AS ?value) WHERE { $this ex:n ?v . FILTER (?v > 3) }"
    root, shapes = tiny_anthology(
        tmp_path,
        'ex: sh:declare [ sh:prefix "ex" ; sh:namespace "http://ex.org/"^^xsd:anyURI ] .\n'
        f'ex:S a sh:NodeShape ; sh:targetClass ex:T ; sh:sparql [ sh:select "{select}" ;'
        " sh:prefixes ex: ] .\n",
        "ex:a a ex:T ; ex:n 5 .\n",
    )
    said: list[str] = []
    engine = open_engine(root=root, extra_shapes=[shapes], validates=True, warn=said.append)
    assert engine.name == "fast" and said == []
    reference = open_engine("reference", root=root, extra_shapes=[shapes])
    assert results(engine) == results(reference) and len(results(engine)) == 1


@pytest.mark.parametrize(
    "shape, reason",
    [
        ("sh:property [ sh:path ex:n ; sh:in ( [ ] ) ]", "(a blank node as a constant (in sh:in"),
        ("sh:property [ sh:path ex:n ; sh:node ex:S ]", "(recursive shape http://ex.org/S)"),
    ],
    ids=["blank node in sh:in", "recursive"],
)
def test_the_fallback_notice_names_the_shapes_file_and_line(tmp_path, shape, reason):
    """It named an internal blank-node label ("blank node b202fbbc… used as a constant"),
    and no file."""
    root, shapes = tiny_anthology(
        tmp_path,
        f"\n\nex:S a sh:NodeShape ; sh:targetClass ex:T ;\n  {shape} .\n",
        "ex:a a ex:T .\n",
    )
    said: list[str] = []
    engine = open_engine(root=root, extra_shapes=[shapes], validates=True, warn=said.append)
    assert engine.name == "reference" and len(said) == 1
    assert said[0].startswith(f"{shapes}:6: the fast engine cannot run these shapes {reason}")


#: (a value as Turtle writes it, sh:pattern, sh:flags, whether the value fails it)
PATTERNS = [
    (r'"2024\n"', "^[0-9]{4}$", "", True),  # XPath's $ is the end: no final newline
    (r'"x\n2024"', "^2024$", "m", False),
    ('"abc"', "a.c", "q", True),  # q: the pattern is the text itself
    ('"a.c"', "a.c", "q", False),
    (r'"a\nb"', "^a.b$", "s", False),  # s: . matches a newline too
    (r'"a\nb"', "^a.b$", "", True),
    ('"abc"', "^a b c$", "x", False),  # x: whitespace in the pattern dropped
]


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_pattern_flags_and_dollar_are_xpaths_on_both_engines(tmp_path, engine):
    """pySHACL read only the flags i and m and Python's $ (a match before a final
    newline): "2024\\n" passed ^[0-9]{4}$ and "abc" passed "a.c" with q there."""
    shapes = "ex:S a sh:NodeShape ; sh:targetClass ex:T ;\n  sh:property " + " ,\n    ".join(
        f'[ sh:path ex:p{i} ; sh:pattern "{pattern}"'
        + (f' ; sh:flags "{flags}"' if flags else "")
        + " ]"
        for i, (_, pattern, flags, _) in enumerate(PATTERNS)
    )
    data = "ex:a a ex:T ;\n" + " ;\n".join(
        f"  ex:p{i} {value}" for i, (value, *_) in enumerate(PATTERNS)
    )
    found = tiny_results(tmp_path, shapes + " .\n", data + " .\n", engine)
    failing = sorted(r["path"] for r in found)
    assert failing == [f"<http://ex.org/p{i}>" for i, case in enumerate(PATTERNS) if case[3]]
