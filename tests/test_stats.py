from collections import Counter

import pyoxigraph as ox
import pytest
from conftest import FIXTURES, run_cli

from anthology_kg.resources import bundled_dir

AK = "https://w3id.org/anthology-kg/ns#"
RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
IDENTIFIER = "http://purl.org/dc/terms/identifier"


def test_stats_on_bundled_anthology():
    """The counts are the ones read here from the files with pyoxigraph alone: distinct
    triples (a file's blank nodes its own), entries (the subjects of dcterms:identifier),
    and their classes and categories."""
    files = sorted((bundled_dir() / "data").glob("*.ttl"))
    triples = {q.triple for f in files for q in ox.parse(path=f, format=ox.RdfFormat.TURTLE)}
    entries = {t.subject for t in triples if t.predicate.value == IDENTIFIER}
    by = Counter(
        (t.predicate.value, t.object.value.removeprefix(AK))
        for t in triples
        if t.subject in entries and t.predicate.value in (RDF_TYPE, AK + "category")
    )
    result = run_cli("stats")
    assert result.exit_code == 0, result.output
    classes = sorted((o, n) for (p, o), n in by.items() if p == RDF_TYPE)
    categories = sorted((o, n) for (p, o), n in by.items() if p == AK + "category")
    assert result.stdout.splitlines() == [
        f"triples: {len(triples)}",
        f"entries: {len(entries)}",
        "entries by class:",
        *(f"  ak:{name}: {n}" for name, n in classes),
        "entries by category:",
        *(f"  ak:{name}: {n}" for name, n in categories),
        f"files read: {len(files)}",
        *(f"  {f.name}" for f in files),
    ]
    assert ("Reference", 1) in classes and categories == [("infrastructure", 1)]


def test_stats_on_fixture_root():
    result = run_cli("--root", str(FIXTURES / "minimal"), "stats")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[:2] == ["triples: 4", "entries: 1"]
    assert "  ak:method: 1" in result.stdout
    assert "files read: 1" in result.stdout


def test_version_and_help():
    assert run_cli("--version").stdout.startswith("anthology-kg, version ")
    result = run_cli("--help")
    assert result.exit_code == 0 and "--root" in result.stdout
    assert run_cli("stats", "--help").exit_code == 0


def test_the_tools_prefixes_are_written_as_rdflib_writes_them():
    """``prefixes.prefixed_name`` names an IRI without rdflib where one of the tool's
    prefixes fits; its answer is rdflib's on a graph with those prefixes bound, and it
    leaves every other IRI to rdflib (None)."""
    from rdflib import Graph, URIRef

    from anthology_kg.namespaces import bind_prefixes
    from anthology_kg.prefixes import PREFIXES, prefixed_name

    for base in ("https://w3id.org/anthology-kg/id/", "https://example.org/e#"):
        names = bind_prefixes(Graph(), base).namespace_manager
        iris = [
            base + "LIT-168",
            base + "ARXIV-2409.19256",  # a dot: left to rdflib
            base + "_x",
            base + "9x",
            "https://schema.org/Thing",
            "https://w3id.org/anthology-kg/ns#",
            "https://w3id.org/anthology-kg/ns#a/b",
            "urn:x:y",
        ]
        for namespace in PREFIXES.values():
            iris += [namespace + local for local in ("Reference", "a-b_c", "x.y", "é", "a b")]
        for iri in iris:
            fast = prefixed_name(iri, base)
            assert fast is None or fast == names.normalizeUri(URIRef(iri)), iri
        assert prefixed_name("https://w3id.org/anthology-kg/ns#method", base) == "ak:method"
        assert prefixed_name(base + "LIT-168", base) == "id:LIT-168"
    assert prefixed_name("http://purl.org/dc/terms/x", "http://purl.org/dc/terms/") is None


def test_stats_are_the_same_on_both_engines(tmp_path):
    """The Oxigraph engine counts from pyoxigraph terms, the reference engine from
    rdflib's: the same counts and names, a class outside the tool's prefixes included
    (named by rdflib on both)."""
    import shutil

    from anthology_kg.engine import open_engine
    from anthology_kg.stats import compute_stats

    root = tmp_path / "anthology"
    shutil.copytree(FIXTURES / "minimal", root)
    (root / "data" / "LIT-002.ttl").write_text(
        '<https://w3id.org/anthology-kg/id/LIT-002> a <https://schema.org/Thing>, "odd" ;\n'
        '    <http://purl.org/dc/terms/identifier> "LIT-002" ;\n'
        "    <https://w3id.org/anthology-kg/ns#category> [] .\n",
        encoding="utf-8",
    )
    fast = compute_stats(open_engine("fast", root=root))
    reference = compute_stats(open_engine("reference", root=root))
    assert fast.by_class == reference.by_class
    assert fast.by_class["schema:Thing"] == 1 and fast.by_class["odd"] == 1
    assert (fast.triples, fast.entries, fast.files) == (
        reference.triples,
        reference.entries,
        reference.files,
    )
    assert sorted(fast.by_category.values()) == sorted(reference.by_category.values())
    assert "ak:method" in fast.by_category


def test_an_anthology_without_entries_counts_nothing_on_both_engines(tmp_path):
    """rdflib answers an aggregate over nothing with one empty row, pyoxigraph with none:
    both count zero."""
    from anthology_kg.engine import ENGINES, open_engine
    from anthology_kg.stats import Stats, compute_stats

    (tmp_path / "data").mkdir()
    for engine in ENGINES:
        assert compute_stats(open_engine(engine, root=tmp_path)) == Stats(0, 0, {}, {}, [])


COUNT_ALL = "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"


@pytest.mark.parametrize("inference", ["none", "rdfs"])
def test_the_oxigraph_engine_counts_triples_as_the_query_does(tmp_path, inference):
    """``triple_count`` reads the store's size instead of running ``COUNT(*)``: the same
    number for the data (a triple written in two files counts once), for every union of
    parts (the rules copied into the store, the closure), and on the reference engine."""
    import shutil

    from anthology_kg.engine import open_engine
    from anthology_kg.parts import PARTS

    root = tmp_path / "anthology"
    shutil.copytree(FIXTURES / "minimal", root)
    (root / "data" / "LIT-001-again.ttl").write_text(
        (root / "data" / "LIT-001.ttl").read_text(encoding="utf-8"), encoding="utf-8"
    )
    fast = open_engine("fast", root=root, inference=inference)
    for parts in [("data",), PARTS, ("ontology",), ("data", "shapes")]:
        (row,) = fast.select(COUNT_ALL, parts)
        assert fast.triple_count(parts) == int(row[0].value) > 0, parts
    if inference == "none":
        reference = open_engine("reference", root=root)
        assert fast.triple_count(("data",)) == reference.triple_count(("data",)) == 4
        assert fast.triple_count(PARTS) == reference.triple_count(PARTS)


def test_stats_on_the_oxigraph_engine_does_not_run_the_count_query(monkeypatch):
    from anthology_kg.engine import open_engine
    from anthology_kg.stats import compute_stats

    engine = open_engine("fast", root=FIXTURES / "minimal")
    asked = []
    select = engine.select
    monkeypatch.setattr(
        engine, "select", lambda text, parts=(): asked.append(text) or select(text, parts)
    )
    assert compute_stats(engine).triples == 4
    assert asked and COUNT_ALL not in asked


#: stats' count by class and by category as first written: the (entry, identifier) pairs
#: made distinct by a subquery, which rdflib joins to the rest by a nested loop.
DISTINCT_PAIRS = """SELECT ?by ?value (COUNT(*) AS ?n) WHERE {
  { SELECT DISTINCT ?entry ?id WHERE { ?entry <http://purl.org/dc/terms/identifier> ?id } }
  { ?entry <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> ?value BIND("class" AS ?by) }
  UNION
  { ?entry <https://w3id.org/anthology-kg/ns#category> ?value BIND("category" AS ?by) }
} GROUP BY ?by ?value"""


@pytest.mark.parametrize("entries", [20, 120])
def test_stats_on_generated_anthologies_of_several_sizes(tmp_path, entries):
    """Both engines count what the reference engine's graph holds, counted here in
    Python, and the count query answers as the one with distinct (entry, identifier)
    pairs did."""
    from collections import Counter

    from rdflib import RDF, URIRef

    from anthology_kg.engine import open_engine
    from anthology_kg.generate import generate
    from anthology_kg.namespaces import AK
    from anthology_kg.stats import _BY, compute_stats

    generate(entries, 3, tmp_path, violations=entries // 10)
    fast, reference = open_engine("fast", root=tmp_path), open_engine("reference", root=tmp_path)
    counted = {RDF.type: Counter[str](), AK.category: Counter[str]()}
    for entry, _ in set(reference.identifier_pairs()):
        for predicate, counter in counted.items():
            for value in reference.data.objects(entry, predicate):
                counter[
                    reference.normalize(value) if isinstance(value, URIRef) else str(value)
                ] += 1
    stats = compute_stats(reference)
    assert stats == compute_stats(fast)
    assert stats.entries == len(set(reference.identifier_pairs())) >= entries
    assert stats.by_class == dict(sorted(counted[RDF.type].items()))
    assert stats.by_category == dict(sorted(counted[AK.category].items()))
    for engine in (fast, reference):
        assert sorted(map(str, engine.select(_BY, ("data",)))) == sorted(
            map(str, engine.select(DISTINCT_PAIRS, ("data",)))
        )


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_stats_count_each_entry_once_under_inference(engine):
    """Under inference the data's default graph is the data and its closure's new triples
    (a set still): the count query answers as the one with distinct pairs does."""
    from anthology_kg.engine import open_engine
    from anthology_kg.stats import _BY

    anthology = open_engine(engine, root=FIXTURES / "minimal", inference="rdfs")
    rows = sorted(map(str, anthology.select(_BY, ("data",))))
    assert rows == sorted(map(str, anthology.select(DISTINCT_PAIRS, ("data",))))
    assert len(rows) > 2  # the inferred classes are counted too


def test_rdflib_joins_the_stats_patterns_entry_by_entry():
    """rdflib evaluates a join lazily (the right side looked up for each row of the left)
    only when neither side is a subquery with DISTINCT; else it tests every row of one
    side against every row of the other: at 1,000 entries 4.0 s instead of 0.19 s."""
    from rdflib.plugins.sparql.parserutils import CompValue

    from anthology_kg.rdflib_sparql import prepare
    from anthology_kg.stats import _BY

    def joins(node):
        if isinstance(node, CompValue) and node.name == "Join":
            yield node
        children = node.values() if isinstance(node, dict) else node
        if isinstance(node, (dict, list)):
            for child in children:
                yield from joins(child)

    found = list(joins(prepare(_BY).algebra))
    assert found and all(join.lazy for join in found)
    assert not all(join.lazy for join in joins(prepare(DISTINCT_PAIRS).algebra))


@pytest.mark.parametrize("inference", ["none", "rdfs"])
def test_the_reference_engine_counts_triples_as_the_query_does(inference):
    """The reference engine's ``triple_count`` is the size of the graph a query runs on,
    not the query: the same number for every union of parts, under inference too."""
    from anthology_kg.engine import open_engine
    from anthology_kg.parts import PARTS

    reference = open_engine("reference", root=FIXTURES / "minimal", inference=inference)
    for parts in [("data",), PARTS, ("ontology",), ("data", "shapes"), ("shapes", "data")]:
        (row,) = reference.select(COUNT_ALL, parts)
        assert reference.triple_count(parts) == int(row[0].value) > 0, parts
    if inference == "none":
        assert reference.triple_count(("data",)) == 4
