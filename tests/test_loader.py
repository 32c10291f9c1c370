from pathlib import Path

import pytest
from conftest import FIXTURES, run_cli
from rdflib import URIRef

from anthology_kg.errors import AnthologyError
from anthology_kg.loader import load_anthology
from anthology_kg.namespaces import AK, DEFAULT_BASE


def test_bundled_anthology_loads_every_file_and_knows_lines():
    anthology = load_anthology()
    names = [p.name for p in anthology.data_files]
    assert "ARXIV-2409.19256.ttl" in names and "ADR-032.ttl" in names
    location = anthology.location(URIRef(DEFAULT_BASE + "ARXIV-2409.19256"))
    assert location.path.name == "ARXIV-2409.19256.ttl"
    text = location.path.read_text(encoding="utf-8").splitlines()
    assert text[location.line - 1].startswith("id:ARXIV-2409.19256 a ak:Reference")


def test_a_blank_node_is_located_at_its_owner_entry():
    anthology = load_anthology()
    entry = URIRef(DEFAULT_BASE + "ARXIV-2409.19256")
    takeaway = next(anthology.data.objects(entry, AK.takeaway))
    assert anthology.owner(takeaway) == entry
    assert anthology.location(takeaway) == anthology.location(entry)


def test_minimal_fixture_loads():
    anthology = load_anthology(FIXTURES / "minimal")
    assert [p.name for p in anthology.data_files] == ["LIT-001.ttl"]
    assert anthology.identifier(URIRef(DEFAULT_BASE + "LIT-001")) == "LIT-001"


def test_syntax_error_names_file_and_line():
    with pytest.raises(AnthologyError) as info:
        load_anthology(FIXTURES / "broken-syntax")
    assert Path(info.value.path).name == "LIT-001.ttl"
    assert info.value.line == 8


def test_cli_reports_syntax_error_as_file_line_and_exit_2():
    result = run_cli("--root", str(FIXTURES / "broken-syntax"), "stats")
    assert result.exit_code == 2
    assert "broken-syntax/data/LIT-001.ttl:8: Turtle syntax error" in result.stderr
    assert "Traceback" not in result.output
    assert result.stdout == ""


def test_folder_without_data_is_an_input_error(tmp_path):
    result = run_cli("--root", str(tmp_path), "stats")
    assert result.exit_code == 2
    assert "no data/ folder" in result.stderr


def test_relative_iris_resolve_against_the_entry_base(tmp_path):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "SOTA-001.ttl").write_text(
        "<SOTA-001> a <https://w3id.org/anthology-kg/ns#SotaRecord> ;\n"
        '    <http://purl.org/dc/terms/identifier> "SOTA-001" .\n',
        encoding="utf-8",
    )
    anthology = load_anthology(tmp_path)
    assert anthology.resolve_entry("SOTA-001") == URIRef(DEFAULT_BASE + "SOTA-001")
    assert anthology.location(URIRef(DEFAULT_BASE + "SOTA-001")).line == 1


def test_root_queries_and_shapes_are_added_to_bundled(tmp_path):
    (tmp_path / "data").mkdir()
    (tmp_path / "queries").mkdir()
    anthology = load_anthology(tmp_path)
    assert anthology.query_dirs[-1] == tmp_path / "queries"
    assert len(anthology.query_dirs) == 2


def test_turtle_files_are_the_folders_ttl_files_as_glob_lists_them(tmp_path):
    """The compact list of data files (names, a Path on access) lists what
    ``sorted(folder.glob("*.ttl"))`` lists but hidden files (an editor's lock file:
    ``sources.listed_name``): a folder or a dangling symlink named *.ttl too (reading
    refuses those, naming them), in the same order."""
    from anthology_kg.loader import TurtleFiles

    for name in ("b.ttl", "A.ttl", ".hidden.ttl", "c.ttl.bak", "x.TTL", "a b.ttl"):
        (tmp_path / name).write_text("", encoding="utf-8")
    (tmp_path / "folder.ttl").mkdir()
    (tmp_path / "dangling.ttl").symlink_to(tmp_path / "nowhere")
    files = TurtleFiles.of(tmp_path)
    listed = sorted(p for p in tmp_path.glob("*.ttl") if not p.name.startswith("."))
    assert list(files) == listed and ".hidden.ttl" in {p.name for p in tmp_path.glob("*")}
    assert len(files) == 5 and files[0] == tmp_path / "A.ttl"
    assert files[1:3] == listed[1:3]
    assert list(TurtleFiles.of(tmp_path / "missing")) == []


def test_both_engines_list_the_data_files_compactly():
    from anthology_kg.fast import load_fast
    from anthology_kg.loader import TurtleFiles

    for anthology in (load_anthology(FIXTURES / "minimal"), load_fast(FIXTURES / "minimal")):
        assert isinstance(anthology.data_files, TurtleFiles)
        assert list(anthology.data_files) == [
            FIXTURES.resolve() / "minimal" / "data" / "LIT-001.ttl"
        ]


def test_rules_are_parsed_once_but_each_load_gets_its_own_and_sees_edits(tmp_path):
    """load_rules keeps the parsed rules per file contents: each caller still gets its own
    graphs, and a changed shapes file is read again."""
    from rdflib import Literal

    from anthology_kg.loader import load_rules

    root = tmp_path / "anthology"
    (root / "data").mkdir(parents=True)
    (root / "ontology" / "shapes").mkdir(parents=True)
    extra = root / "ontology" / "shapes" / "extra.ttl"
    extra.write_text("<urn:x:S> <urn:x:p> 1 .\n", encoding="utf-8")
    first = load_rules(root)
    first.shapes.add((URIRef("urn:x:S"), URIRef("urn:x:mutated"), Literal(1)))
    second = load_rules(root)
    assert second.shapes is not first.shapes and second.ontology is not first.ontology
    assert (URIRef("urn:x:S"), URIRef("urn:x:mutated"), None) not in second.shapes
    assert list(second.shapes.namespaces()) == list(first.shapes.namespaces())
    extra.write_text("<urn:x:S> <urn:x:p> 2 .\n", encoding="utf-8")  # same size, new text
    third = load_rules(root)
    assert third.shapes.value(URIRef("urn:x:S"), URIRef("urn:x:p")) == Literal(2)


def _with_byte_order_mark(tmp_path: Path, fixture: str) -> Path:
    """A copy of ``fixture`` whose data files start with a UTF-8 byte order mark."""
    import shutil

    root = tmp_path / fixture
    shutil.copytree(FIXTURES / fixture, root)
    for path in (root / "data").glob("*.ttl"):
        path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    return root


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_a_file_with_a_byte_order_mark_reads_as_the_same_file_without(tmp_path, engine):
    """A UTF-8 file that starts with a byte order mark (Notepad writes one) is UTF-8
    text: both engines read it as the same file without the mark, at the same lines."""
    marked = _with_byte_order_mark(tmp_path, "minimal")
    plain = run_cli("--root", str(FIXTURES / "minimal"), "check", "--engine", engine)
    found = run_cli("--root", str(marked), "check", "--engine", engine)
    assert found.exit_code == plain.exit_code == 1, found.output
    assert found.stdout.split("data/", 1)[1] == plain.stdout.split("data/", 1)[1]
    assert ":7:5: AK001" in found.stdout  # the line and column of the plain file
    for command in (["stats"], ["export", "--format", "ntriples"]):
        assert (
            run_cli("--root", str(marked), *command).stdout
            == run_cli("--root", str(FIXTURES / "minimal"), *command).stdout
        )


def test_a_byte_order_mark_is_taken_off_the_start_only(tmp_path):
    """Only a leading mark goes: one inside the text is a character of the data, which
    the parser refuses where it stands (``file:line``, exit 2)."""
    from anthology_kg.sources import read_source

    path = tmp_path / "x.ttl"
    path.write_bytes(b"\xef\xbb\xbf<urn:a> <urn:b> <urn:c> .\n\xef\xbb\xbf")
    assert read_source(path) == b"<urn:a> <urn:b> <urn:c> .\n\xef\xbb\xbf"
    root = _with_byte_order_mark(tmp_path, "minimal")
    data = root / "data" / "LIT-001.ttl"
    written = data.read_bytes() + b"\n"
    data.write_bytes(written + b"\xef\xbb\xbf<urn:a> <urn:b> <urn:c> .\n")
    line = written.count(b"\n") + 1
    for engine in ("fast", "reference"):
        result = run_cli("--root", str(root), "check", "--engine", engine)
        assert result.exit_code == 2
        assert f"LIT-001.ttl:{line}: Turtle syntax error" in result.stderr


def test_the_fast_engine_parses_the_rules_only_when_asked(tmp_path):
    """Loading and counting need no rules; a query of the ontology, validation, or the
    rules themselves parse them then (a broken shapes file is an error there)."""
    import shutil

    from anthology_kg.fast import ONTOLOGY, load_fast
    from anthology_kg.stats import compute_stats

    engine = load_fast(FIXTURES / "minimal")
    assert compute_stats(engine).entries == 1
    assert not engine.rules.parsed
    rows = engine.select("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }", parts=("ontology",))
    assert int(rows[0][0].value) == len(engine.ontology) > 0
    assert engine.rules.parsed
    assert len(list(engine.store.quads_for_pattern(None, None, None, ONTOLOGY))) > 0

    root = tmp_path / "broken"
    shutil.copytree(FIXTURES / "minimal", root)
    (root / "ontology" / "shapes").mkdir(parents=True)
    (root / "ontology" / "shapes" / "mine.ttl").write_text("<urn:a> <urn:b> .\n", "utf-8")
    assert run_cli("--root", str(root), "stats").exit_code == 0
    result = run_cli("--root", str(root), "check")
    assert result.exit_code == 2 and "mine.ttl:1: Turtle syntax error" in result.stderr


def test_only_files_the_listing_shows_as_regular_are_opened_unlooked(tmp_path):
    """The fast loader skips the look before opening only for what the folder's listing
    showed as a regular file; a symlink is looked at (and read through), a FIFO refused."""
    import os

    from anthology_kg.loader import TurtleFiles
    from anthology_kg.sources import read_source

    (tmp_path / "a.ttl").write_text("<urn:a> <urn:b> <urn:c> .\n", encoding="utf-8")
    (tmp_path / "link.ttl").symlink_to(tmp_path / "a.ttl")
    os.mkfifo(tmp_path / "pipe.ttl")
    files = TurtleFiles.of(tmp_path)
    assert files.names == ("a.ttl", "link.ttl", "pipe.ttl")
    assert [files.listed_regular(n) for n in files.names] == [True, False, False]
    assert not TurtleFiles(tmp_path, ["a.ttl"]).listed_regular("a.ttl")  # never listed
    assert read_source(tmp_path / "link.ttl") == read_source(tmp_path / "a.ttl")
    with pytest.raises(AnthologyError, match="not a regular file"):
        read_source(tmp_path / "pipe.ttl")
    # Told wrongly that a FIFO is regular, the check after opening still refuses it.
    with pytest.raises(AnthologyError, match="not a regular file"):
        read_source(tmp_path / "pipe.ttl", listed_regular=True)


def test_the_fast_engine_locates_waivers_and_data_alike_for_either_librarys_terms(tmp_path):
    """A waiver is located in waivers.ttl before any result asks (validation reads
    ``locations`` for an expired waiver of a conforming anthology); the data's subjects
    are located the same for an rdflib and a pyoxigraph term."""
    import shutil

    import pyoxigraph as ox

    from anthology_kg.fast import load_fast

    root = tmp_path / "anthology"
    shutil.copytree(FIXTURES / "minimal", root)
    (root / "waivers.ttl").write_text(
        "\n<https://example.org/w/1> <urn:x:p> 1 .\n", encoding="utf-8"
    )
    engine = load_fast(root)
    waiver = URIRef("https://example.org/w/1")
    assert len(engine.waivers) == 1
    assert engine.locations[waiver].line == 2
    assert engine.location(ox.NamedNode(str(waiver))) == engine.locations[waiver]
    entry = URIRef(DEFAULT_BASE + "LIT-001")
    assert engine.location(entry) == engine.location(ox.NamedNode(str(entry)))
    assert engine.location(entry).path.name == "LIT-001.ttl"
    assert engine.owner(ox.NamedNode(str(entry))) == ox.NamedNode(str(entry))
    assert engine.owner(entry) == entry


@pytest.mark.parametrize("engine", ["fast", "reference"])
@pytest.mark.parametrize(
    "on_demand", [True, False], ids=["on demand", "rdflib without the property"]
)
def test_a_described_entry_has_the_tools_prefixes_as_a_graph_bound_at_once(
    engine, on_demand, monkeypatch
):
    """``describe`` binds the prefixes only when they are first asked for: its graph
    lists, names and writes what a graph with them bound at once does (rdflib's and the
    tool's), a prefix bound on it afterwards included."""
    from rdflib import Graph

    from anthology_kg import loader
    from anthology_kg.engine import open_engine
    from anthology_kg.namespaces import bind_prefixes

    # Without rdflib 7's namespace_manager property, the graph is bound at once.
    monkeypatch.setattr(loader, "_NAMESPACE_MANAGER_IS_A_PROPERTY", on_demand)
    anthology = open_engine(engine, root=FIXTURES / "minimal")
    for entry, _ in anthology.entries():
        assert isinstance(anthology.describe(entry), loader.PrefixedOnDemand) is on_demand
        for ask in ("namespaces", "serialize", "bind"):
            described = anthology.describe(entry)
            bound = bind_prefixes(Graph(), DEFAULT_BASE)
            for triple in described:
                bound.add(triple)
            if ask == "bind":
                for graph in (described, bound):
                    graph.bind("x", "urn:x:")
            if ask == "serialize":
                assert described.serialize(format="turtle") == bound.serialize(format="turtle")
            assert list(described.namespaces()) == list(bound.namespaces())
            assert described.namespace_manager.normalizeUri(entry) == "id:LIT-001"


def test_a_union_of_parts_holds_their_triples_and_shares_nothing_with_them():
    """``Anthology.union`` copies the data's store indexes: the same triples, found by
    every pattern, and a change to the copy or to the data is not seen by the other."""
    from rdflib import Literal

    anthology = load_anthology(FIXTURES / "minimal")
    data, ontology, shapes = (set(anthology.graph(part)) for part in ("data", "ontology", "shapes"))
    union = anthology.union(shapes=True)
    assert set(union) == data | ontology | shapes and len(union) == len(data | ontology | shapes)
    for s, p, o in list(data)[:3]:
        for pattern in ((s, None, None), (None, p, None), (None, None, o), (s, p, o)):
            assert set(anthology.data.triples(pattern)) <= set(union.triples(pattern))
    entry = next(s for s, _ in anthology.entries())
    union.add((entry, AK.note, Literal("only in the union")))
    union.remove((entry, None, None))
    assert set(anthology.data) == data and (entry, AK.note, None) not in anthology.data
    anthology.data.add((entry, AK.note, Literal("only in the data")))
    assert (entry, AK.note, None) not in union


def test_the_data_is_labelled_as_relabel_labels_the_graph_of_the_files(tmp_path):
    """The loader labels the parsed triples' blank nodes before building rdflib's graph:
    the same triples, labels included, as ``bnodes.relabel`` of the files' graph (blank
    nodes named alike in two files, lists, nested and tied nodes, an ill-typed literal)."""
    import shutil

    from rdflib import Graph

    from anthology_kg.bnodes import relabel
    from anthology_kg.generate import generate
    from anthology_kg.loader import parse_turtle
    from anthology_kg.resources import bundled_dir

    generate(20, 5, tmp_path / "generated", violations=3)
    odd = tmp_path / "odd"
    shutil.copytree(FIXTURES / "minimal", odd)
    for name in ("A", "B"):
        (odd / "data" / f"{name}.ttl").write_text(
            f"<urn:x:{name}> <urn:x:p> _:b0 , [ <urn:x:q> ( 1 [ <urn:x:r> 2 ] ) ] , [] , [] .\n"
            f'_:b0 <urn:x:v> "x"^^<http://www.w3.org/2001/XMLSchema#integer> ; <urn:x:w> _:b0 .\n',
            encoding="utf-8",
        )
    for root in (bundled_dir(), tmp_path / "generated", odd):
        graph = Graph()
        for path in sorted((root / "data").glob("*.ttl")):
            parse_turtle(path, DEFAULT_BASE, graph)
        data = load_anthology(root).data
        assert set(data) == set(relabel(graph)) and len(data) == len(graph), root
