import pytest
from conftest import FIXTURES, run_cli


def test_stats_on_bundled_anthology():
    result = run_cli("stats")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("triples: ")
    assert int(lines[0].split(": ")[1]) > 50
    assert "  ak:Reference: 2" in lines
    assert "  ak:infrastructure: 1" in lines
    assert "  ARXIV-2409.19256.ttl" in lines


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
