"""Inference on the fast engine (inference.py): its closure is owlrl's on the anthology's
own terms, and what it cannot infer as owlrl does it refuses rather than half infers.

The differential tests compare the inferred triples an export writes (the closure less
the asserted triples, about the anthology's entries and ``ak:`` terms: see
``about_the_anthology`` in ``export_inference.infer``), computed by the fast rules and by
owlrl on rdflib graphs, blank nodes labelled by RDFC-1.0 over asserted and inferred
triples alike.
"""

from __future__ import annotations

import functools
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pyoxigraph as ox
import pytest
from conftest import run_cli
from rdflib import BNode, Literal
from rdflib.namespace import RDF, RDFS

from anthology_kg import resources
from anthology_kg.engine import open_engine
from anthology_kg.errors import AnthologyError
from anthology_kg.export import build_export, owlrl_export
from anthology_kg.export_files import FolderSource
from anthology_kg.generate import generate
from anthology_kg.inference import (
    INFERRED,
    PROFILES,
    InferenceUnsupported,
    equal_value_literals,
    materialize,
)
from anthology_kg.terms import GRAPHS
from anthology_kg.validation import validate

FIXTURES = Path(__file__).parent / "fixtures"
PREFIXES = """@prefix ak: <https://w3id.org/anthology-kg/ns#> .
@prefix dcterms: <http://purl.org/dc/terms/> .
@prefix ex: <https://example.org/terms#> .
@prefix id: <https://w3id.org/anthology-kg/id/> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
"""
# Every rule implemented, fired by an anthology that extends the ontology in its data:
# sub- and equivalent properties and classes, inverse, symmetric and transitive
# properties, the ontology's own property chains and functional properties (two
# reading statuses make them owl:sameAs, and equality rewrites the triples), an inverse
# functional property, literals of equal value written differently.
RULES_EXERCISED = (
    PREFIXES
    + """
ex:cites a owl:ObjectProperty ; rdfs:subPropertyOf ex:relatesTo ; rdfs:domain ex:Citing .
ex:relatesTo a owl:ObjectProperty ; rdfs:range ex:Related ; owl:equivalentProperty ex:touches .
ex:Citing rdfs:subClassOf ak:Entry ; owl:equivalentClass ex:Quoting .
ex:Related rdfs:subClassOf ex:Thing .
ex:Thing rdfs:subClassOf ex:Related .
ex:near a owl:SymmetricProperty .
ex:before a owl:TransitiveProperty ; owl:inverseOf ex:after .
ex:doi a owl:InverseFunctionalProperty .
ex:score a owl:DatatypeProperty ; rdfs:subPropertyOf ex:value .

id:LIT-001 a ak:LiteratureRecord ;
    dcterms:identifier "LIT-001" ;
    dcterms:title "One"@en ;
    ak:readingStatus ak:read, ex:finished ;
    ex:cites id:LIT-002 ;
    ex:near id:LIT-002 ;
    ex:before id:LIT-002 ;
    ex:doi ex:doi-1 ;
    ex:score 1, "1.0"^^xsd:decimal ;
    ak:takeaway [ a ak:Takeaway ; rdf:value "One" ; ak:position 1 ] .

id:LIT-002 a ak:LiteratureRecord ;
    dcterms:identifier "LIT-002" ;
    dcterms:title "One" ;
    ex:before id:LIT-003 ;
    ex:doi ex:doi-1 .

id:LIT-003 a ex:Quoting ;
    dcterms:identifier "LIT-003" ;
    ex:touches id:LIT-001 .

id:ADR-001 a ak:DecisionRecord ;
    dcterms:identifier "ADR-001" ;
    ak:admits [ a ak:CategoryAdmission ; ak:admittedCategory ak:survey ;
                ak:example id:LIT-001 ; ak:position 1 ] .
"""
)


def anthology(tmp_path: Path, name: str, text: str) -> Path:
    root = tmp_path / name
    (root / "data").mkdir(parents=True)
    (root / "data" / "ENTRIES.ttl").write_text(text, encoding="utf-8")
    return root


def fixture_roots() -> list[Path]:
    """The bundled anthology and every fixture anthology that loads."""
    roots = [resources.find_root()]
    for data in sorted(FIXTURES.glob("**/data")):
        if data.is_dir() and data.parent.name not in ("bad", "broken-syntax"):
            roots.append(data.parent)
    return roots


def inferred(export) -> set:
    return set(export.canonical()[1])


@functools.cache
def _read_only_source(root: Path) -> FolderSource:
    """One FolderSource of a folder no test writes to (the bundled anthology, a fixture),
    for both profiles: the rdflib graphs it parses for owlrl's closure are only read."""
    return FolderSource(root)


def assert_same_closure(root: Path, profile: str) -> set:
    """The inferred triples of the export (the fast rules, or owlrl's where they refuse),
    once they are shown to be owlrl's own closure of ``root``."""
    read_only = root in FIXTURE_ROOTS
    source = _read_only_source(root) if read_only else FolderSource(root)
    fast, reference = (
        inferred(build_export(source, inference=profile)),
        inferred(owlrl_export(source, inference=profile)),
    )
    assert fast == reference, (
        f"{root} {profile}: only the fast rules derive {sorted(fast - reference)[:5]}, "
        f"only owlrl derives {sorted(reference - fast)[:5]}"
    )
    return fast


FIXTURE_ROOTS = fixture_roots()


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("root", FIXTURE_ROOTS, ids=lambda p: p.name)
def test_fast_closure_is_owlrls_on_the_fixtures(root, profile):
    assert_same_closure(root, profile)


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("generated")
    generate(40, 1, root, violations=4)
    return root


@pytest.mark.parametrize("profile", PROFILES)
def test_fast_closure_is_owlrls_on_a_generated_anthology(generated, profile):
    assert_same_closure(generated, profile)


@pytest.mark.parametrize("profile", PROFILES)
def test_fast_closure_is_owlrls_where_every_rule_fires(tmp_path, profile):
    root = anthology(tmp_path, "rules", RULES_EXERCISED)
    assert assert_same_closure(root, profile)


def test_the_property_chains_and_inverses_of_the_ontology_fire(tmp_path):
    root = anthology(tmp_path, "chains", RULES_EXERCISED)
    lines = {" ".join(t) for t in inferred(build_export(FolderSource(root), inference="owlrl"))}
    ak, ex, entry = (
        "https://w3id.org/anthology-kg/ns#",
        "https://example.org/terms#",
        "https://w3id.org/anthology-kg/id/",
    )
    assert f"<{entry}ADR-001> <{ak}admitsCategory> <{ak}survey>" in lines
    assert f"<{entry}ADR-001> <{ak}usesAsExample> <{entry}LIT-001>" in lines
    assert f"<{entry}LIT-003> <{ex}after> <{entry}LIT-002>" in lines  # inverse
    assert f"<{entry}LIT-001> <{ex}before> <{entry}LIT-003>" in lines  # transitive
    assert f"<{entry}LIT-002> <{ex}near> <{entry}LIT-001>" in lines  # symmetric
    assert f"<{entry}LIT-001> <{ex}sameAs> <{entry}LIT-002>" not in lines
    assert f"<{entry}LIT-001> <http://www.w3.org/2002/07/owl#sameAs> <{entry}LIT-002>" in lines


UNSUPPORTED = (
    PREFIXES
    + """
ex:Cited owl:equivalentClass [ a owl:Restriction ; owl:onProperty ex:cites ;
                              owl:someValuesFrom ak:Entry ] .
id:LIT-001 a ak:LiteratureRecord ; dcterms:identifier "LIT-001" ; ex:cites id:LIT-001 .
"""
)


def test_an_unimplemented_owl_construct_is_refused_and_export_takes_owlrl(tmp_path):
    """cls-svf1 (owl:someValuesFrom) has no rule here: the store refuses to infer rather
    than give a closure short of owlrl's, and the export then uses owlrl's."""
    root = anthology(tmp_path, "svf", UNSUPPORTED)
    store = ox.Store()
    for part in ("data", "ontology"):
        for quad in FolderSource(root).quads((part,)):
            store.add(ox.Quad(quad.subject, quad.predicate, quad.object, GRAPHS[part]))
    with pytest.raises(InferenceUnsupported, match="someValuesFrom"):
        materialize(store, [GRAPHS["data"], GRAPHS["ontology"]], "owlrl")
    assert not list(store.quads_for_pattern(None, None, None, INFERRED))
    assert not list(store.quads_for_pattern(None, None, None, ox.DefaultGraph()))
    # the export's inferred triples (build_export, owlrl's through the fallback) are
    # owlrl's closure, and hold its cls-svf1
    lines = {" ".join(t) for t in assert_same_closure(root, "owlrl")}
    assert (
        "<https://w3id.org/anthology-kg/id/LIT-001> "
        "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <https://example.org/terms#Cited>"
    ) in lines


def test_open_engine_falls_back_to_owlrl_where_the_rules_refuse(tmp_path):
    """The fast engine cannot infer owlrl's closure of a graph with owl:someValuesFrom:
    open_engine says so through ``warn`` and gives the reference engine, with owlrl."""
    root = anthology(tmp_path, "svf", UNSUPPORTED)
    said: list[str] = []
    engine = open_engine("fast", root=root, inference="owlrl", warn=said.append)
    assert engine.name == "reference" and engine.inference == "owlrl"
    assert len(said) == 1 and "someValuesFrom" in said[0]
    assert said[0].endswith("; using the reference engine (owlrl)")


def test_an_ill_formed_literal_is_refused_for_owl_rl(tmp_path):
    """owlrl reports an ill-formed literal of an OWL 2 RL datatype as an inconsistency
    (an error node in the closure); the fast rules do not mimic it, they refuse."""
    root = anthology(
        tmp_path,
        "ill",
        PREFIXES
        + 'id:LIT-001 dcterms:identifier "LIT-001" ; ak:techniqueCount "many"^^xsd:integer .',
    )
    store = ox.Store()
    for quad in FolderSource(root).quads(("data",)):
        store.add(ox.Quad(quad.subject, quad.predicate, quad.object, GRAPHS["data"]))
    with pytest.raises(InferenceUnsupported, match="ill-formed"):
        materialize(store, [GRAPHS["data"]], "owlrl")
    materialize(store, [GRAPHS["data"]], "rdfs")  # RDFS has no such check
    assert_same_closure(root, "owlrl")


def test_a_node_typed_with_a_datatype_is_refused_for_owl_rl(tmp_path):
    """owlrl types such a node with the datatype's supertypes too (``x a xsd:int`` gives
    ``x a xsd:integer``), which the fast rules do not: they refuse."""
    root = anthology(tmp_path, "typed", PREFIXES + "id:LIT-001 a xsd:int .")
    store = ox.Store()
    for quad in FolderSource(root).quads(("data",)):
        store.add(ox.Quad(quad.subject, quad.predicate, quad.object, GRAPHS["data"]))
    with pytest.raises(InferenceUnsupported, match="a node typed with a datatype"):
        materialize(store, [GRAPHS["data"]], "owlrl")


def test_equal_values_are_owlrls_not_sparqls():
    """owlrl's RDFS rule repeats a triple with each literal of equal Python value."""
    subject, predicate = ox.NamedNode("urn:s"), ox.NamedNode("urn:p")
    one = ox.Literal("1", datatype=ox.NamedNode("http://www.w3.org/2001/XMLSchema#integer"))
    decimal = ox.Literal("1.0", datatype=ox.NamedNode("http://www.w3.org/2001/XMLSchema#decimal"))
    text, english = ox.Literal("one"), ox.Literal("one", language="en")
    quads = [ox.Quad(subject, predicate, o) for o in (one, text)]
    quads += [ox.Quad(ox.NamedNode("urn:t"), predicate, o) for o in (decimal, english)]
    assert set(equal_value_literals(quads)) == {
        ox.Triple(subject, predicate, decimal),
        ox.Triple(subject, predicate, english),
        ox.Triple(ox.NamedNode("urn:t"), predicate, one),
        ox.Triple(ox.NamedNode("urn:t"), predicate, text),
    }


def test_materialize_refuses_an_unknown_profile_and_a_busy_target_graph():
    store = ox.Store()
    with pytest.raises(AnthologyError, match="unknown inference"):
        materialize(store, [], "owl-dl")
    target = ox.NamedNode("urn:target")
    store.add(ox.Quad(ox.NamedNode("urn:s"), ox.NamedNode("urn:p"), ox.NamedNode("urn:o"), target))
    with pytest.raises(AnthologyError, match="urn:target> empty"):
        materialize(store, [], "rdfs", target)


def test_materialize_reads_and_writes_only_its_graphs():
    """The closure is matched on the sources in place: the default graph (or any other)
    is neither a premise nor written, and the scratch graphs are gone afterwards."""
    store = ox.Store()
    source, other = ox.NamedNode("urn:source"), ox.NamedNode("urn:other")
    a, b, c, x, y, z = (ox.NamedNode(f"urn:{name}") for name in "abcxyz")
    subclass, typed = ox.NamedNode(str(RDFS.subClassOf)), ox.NamedNode(str(RDF.type))
    kept = [ox.Quad(a, subclass, c, ox.DefaultGraph()), ox.Quad(z, typed, a, other)]
    store.extend([*kept, ox.Quad(a, subclass, b, source), ox.Quad(x, typed, a, source)])
    added = materialize(store, [source], "owlrl")
    inferred = {
        (q.subject, q.predicate, q.object)
        for q in store.quads_for_pattern(None, None, None, INFERRED)
    }
    assert (x, typed, b) in inferred and added == len(inferred)
    assert (x, typed, c) not in inferred and z not in {s for s, _, _ in inferred}
    assert {q.graph_name for q in store} == {ox.DefaultGraph(), other, source, INFERRED}
    assert all(q in store for q in kept) and len(store) == 4 + len(inferred)


# -- the engines: validation and queries with inference --------------------------------

ENGINE_ROOTS = [
    resources.find_root(),
    FIXTURES / "rules" / "rule1-nary",  # property chains
    FIXTURES / "rules" / "rule5-bad",  # inverse properties
    FIXTURES / "rules" / "rule9-bad",  # dangling references: gone once x owl:sameAs x
    FIXTURES / "rules" / "rule10-bad",
]


def results(anthology, inference):
    return sorted(
        tuple("" if v is None else str(v) for v in (r.focus, r.path, r.value, r.shape, r.file))
        for r in validate(anthology, inference).results
    )


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("root", ENGINE_ROOTS, ids=lambda p: p.name)
def test_fast_engine_validates_with_inference_as_the_reference(root, profile):
    fast = open_engine("fast", root=root, inference=profile, validates=True)
    assert fast.name == "fast"
    reference = open_engine("reference", root=root, inference=profile, validates=True)
    assert results(fast, profile) == results(reference, profile)


@pytest.mark.parametrize("profile", PROFILES)
def test_fast_engine_validates_where_every_rule_fires(tmp_path, profile):
    root = anthology(tmp_path, "rules", RULES_EXERCISED)
    fast = open_engine("fast", root=root, inference=profile, validates=True)
    assert fast.name == "fast"
    reference = open_engine("reference", root=root, inference=profile, validates=True)
    assert results(fast, profile) == results(reference, profile)


def test_an_unsupported_graph_takes_the_reference_engine_and_says_so(tmp_path):
    root = anthology(tmp_path, "svf", UNSUPPORTED)
    said = []
    engine = open_engine(root=root, inference="owlrl", validates=True, warn=said.append)
    assert engine.name == "reference"
    assert "someValuesFrom" in said[0] and "reference engine" in said[0]
    assert open_engine(root=root, inference="rdfs", warn=said.append).name == "fast"


ENTRIES = "PREFIX ak: <https://w3id.org/anthology-kg/ns#>\nSELECT ?e WHERE { ?e a ak:Entry }\n"


@pytest.mark.parametrize("profile", PROFILES)
def test_query_and_check_with_inference_answer_as_the_reference_engine(tmp_path, profile):
    query = tmp_path / "entries.rq"
    query.write_text(ENTRIES, encoding="utf-8")
    runs = {}
    for engine in ("fast", "reference"):
        for args in (
            ("check", "--inference", profile),
            ("sparql", str(query), "--format", "csv", "--inference", profile),
            ("query", "unread", "--format", "json", "--inference", profile),
        ):
            result = run_cli(*args, "--engine", engine)
            assert result.exit_code == 0, result.output
            assert "reference engine" not in result.stderr
            runs[engine, args[0]] = sorted(result.stdout.splitlines())
    for command in ("check", "sparql", "query"):
        assert runs["fast", command] == runs["reference", command], command
    asserted = run_cli("sparql", str(query), "--format", "csv")
    # no entry is typed ak:Entry as written: by a subclass (ak:Reference, ...) it is
    assert asserted.stdout.splitlines() == ["e"]
    assert len(runs["fast", "sparql"]) > 5


# Literals of the datatypes owlrl treats apart: typed (and so declared disjoint in pairs),
# untyped on rdflib (a simple and a language-tagged literal, written ^^xsd:string too).
DATATYPES = (
    PREFIXES
    + """
id:LIT-001 a ak:LiteratureRecord ; dcterms:identifier "LIT-001" ;
    dcterms:title "One"@en, "Eins"^^xsd:string, "Un" ;
    ex:when "2024-01-02T03:04:05Z"^^xsd:dateTime ; ex:on "2024-01-02"^^xsd:date ;
    ex:flag true ; ex:score 1.5, 2 ;
    ex:link "https://example.org/"^^xsd:anyURI .
"""
)


def _answer_rows(root: Path, kind: str, profile: str) -> Counter:
    """Every triple a query of the whole graph answers on the ``kind`` engine under
    ``profile``: blank nodes as one term, a typed literal by its value (the fast engine
    keeps "2.0"^^xsd:decimal as "2", README: canonical literals)."""

    def term(node: object) -> object:
        if isinstance(node, BNode):
            return "_"
        if isinstance(node, Literal) and node.datatype is not None and node.value is not None:
            return (node.datatype, node.value)
        return node

    engine = open_engine(kind, root=root, inference=profile)
    assert engine.name == kind
    answer = engine.query("SELECT ?s ?p ?o WHERE { ?s ?p ?o }")
    return Counter(tuple(term(t) for t in row) for row in answer.rows)


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("name", ["bundled", "rules", "datatypes", "rule6-bad", "generated"])
def test_an_ad_hoc_query_sees_the_same_closure_on_both_engines(tmp_path, generated, name, profile):
    """The whole graph under inference, not only the stored queries: the same triples on
    both engines. owlrl's generalized triples (a literal subject: "x" rdf:type
    rdfs:Resource, "x" owl:sameAs "x") are not RDF and are left out on the reference
    engine; its dt-type1 axioms, datatype disjointness and owl:sameAs owl:sameAs
    owl:sameAs are on the fast one; rdfs4b types rdfs:Resource on neither."""
    roots = {
        "bundled": resources.find_root(),
        "rule6-bad": FIXTURES / "rules" / "rule6-bad",  # decimals written as 2.0
        "generated": generated,
    }
    root = roots.get(name) or anthology(
        tmp_path, name, {"rules": RULES_EXERCISED, "datatypes": DATATYPES}[name]
    )
    fast, reference = _answer_rows(root, "fast", profile), _answer_rows(root, "reference", profile)
    assert fast == reference, (
        f"only fast: {list(fast - reference)[:5]}, only reference: {list(reference - fast)[:5]}"
    )


def test_the_datatype_axioms_are_owlrls():
    """dt-type1's datatypes and the datatype disjointness are owlrl's own tables (less the
    pairs with xsd:string, a datatype no literal has on rdflib)."""
    from owlrl.AxiomaticTriples import OWLRL_Datatypes_Disjointness
    from owlrl.XsdDatatypes import OWL_RL_Datatypes
    from rdflib.namespace import XSD

    from anthology_kg.inference import OWLRL_DATATYPES, _datatype_disjointness

    assert list(OWLRL_DATATYPES) == list(OWL_RL_Datatypes)
    used = {ox.NamedNode(str(d)) for d in OWLRL_DATATYPES}
    expected = {t for t in OWLRL_Datatypes_Disjointness if XSD.string not in t}
    assert len(expected) < len(OWLRL_Datatypes_Disjointness)
    assert set(_datatype_disjointness(used)) == expected


def test_inference_with_an_endpoint_is_refused(tmp_path):
    result = run_cli(
        "query", "unread", "--inference", "rdfs", "--endpoint", "http://127.0.0.1:9/query"
    )
    assert result.exit_code == 2
    assert "--inference applies to the local anthology" in result.stderr


def test_the_fast_path_infers_without_owlrl(tmp_path):
    """check, query and export with inference on the fast engine never import owlrl."""
    script = (
        "import sys\n"
        "from click.testing import CliRunner\n"
        "from anthology_kg.cli import main\n"
        "runner = CliRunner()\n"
        "for args in (['check', '--inference', 'owlrl'], "
        "['query', 'unread', '--inference', 'rdfs'], "
        "['export', '--inferred', 'owlrl', '--format', 'nquads']):\n"
        "    result = runner.invoke(main, args)\n"
        "    assert result.exit_code == 0, result.output\n"
        "print('owlrl' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "False"
