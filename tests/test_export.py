"""Export: byte-stable across runs and hash seeds, round trips, independent parsers, fmt."""

import os
import shutil
import subprocess
import sys

import pytest
from conftest import FIXTURES, run_cli
from rdflib import Dataset, Graph, URIRef
from rdflib.compare import isomorphic

from anthology_kg import files
from anthology_kg.errors import AnthologyError
from anthology_kg.export import INFERRED_GRAPH, build_export
from anthology_kg.export_files import FolderSource
from anthology_kg.export_writers import WRITERS, to_nquads, to_turtle
from anthology_kg.loader import load_anthology
from anthology_kg.namespaces import AK, DEFAULT_BASE, RDF
from anthology_kg.terms import nt_term
from anthology_kg.turtle import canonical_turtle

FORMATS = {
    "turtle": "turtle",
    "ntriples": "nt",
    "nquads": "nquads",
    "jsonld": "json-ld",
    "rdfxml": "xml",
}


def exported(fmt: str, *args: str) -> bytes:
    result = run_cli("export", "--format", fmt, *args)
    assert result.exit_code == 0, result.stderr
    return result.stdout_bytes


def nt(*triple):
    """A triple of rdflib terms as the N-Triples text an Export holds."""
    return tuple(nt_term(t) for t in triple)


def asserted_graph():
    anthology = load_anthology()
    return anthology.data + anthology.ontology


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_round_trip_is_isomorphic(fmt):
    parsed = Graph().parse(data=exported(fmt), format=FORMATS[fmt])
    assert isomorphic(parsed, asserted_graph())


# One subprocess per hash seed writes every format (with inference) for the bundled
# anthology and, with a shared blank node, for a small one.
_ALL_FORMATS = """
import sys
from pathlib import Path
from anthology_kg.export import build_export
from anthology_kg.export_files import FolderSource
from anthology_kg.export_writers import WRITERS
out, shared = Path(sys.argv[1]), Path(sys.argv[2])
for name, source in (("bundled", FolderSource()), ("shared", FolderSource(shared))):
    for inference in ("none", "owlrl"):
        export = build_export(source, inference=inference)
        for fmt, write in WRITERS.items():
            (out / f"{name}-{inference}.{fmt}").write_text(write(export), encoding="utf-8")
"""

SHARED = """@prefix ak: <https://w3id.org/anthology-kg/ns#> .
@prefix dcterms: <http://purl.org/dc/terms/> .
<LIT-001> a ak:LiteratureRecord ; dcterms:identifier "LIT-001" ; ak:cites _:x , _:y .
<LIT-002> a ak:LiteratureRecord ; dcterms:identifier "LIT-002" ; ak:cites _:x .
_:x ak:label "shared" ; ak:next _:y .
_:y ak:label "cited twice" .
"""


def test_same_bytes_under_different_hash_seeds(tmp_path):
    (tmp_path / "shared" / "data").mkdir(parents=True)
    (tmp_path / "shared" / "data" / "LIT-001.ttl").write_text(SHARED, encoding="utf-8")
    outputs = {}
    for seed in ("1", "2", "random"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        folder = tmp_path / seed
        folder.mkdir()
        subprocess.run(
            [sys.executable, "-c", _ALL_FORMATS, str(folder), str(tmp_path / "shared")],
            check=True,
            env=env,
            cwd=tmp_path,
        )
        outputs[seed] = {p.name: p.read_bytes() for p in sorted(folder.iterdir())}
    assert len(outputs["1"]) == 2 * 2 * len(FORMATS)
    assert outputs["1"] == outputs["2"] == outputs["random"]
    assert b"_:c14n" in outputs["1"]["shared-none.turtle"]  # shared blank nodes: labelled


def test_cli_export_writes_what_the_library_builds(tmp_path):
    """The CLI with ``--inferred owlrl -o`` gives the library's bytes (one format each way
    of writing: stdout and a file)."""
    export = build_export(FolderSource(), inference="owlrl")
    target = tmp_path / "a.nq"
    result = run_cli("export", "--format", "nquads", "--inferred", "owlrl", "-o", str(target))
    assert result.exit_code == 0, result.stderr
    assert target.read_text(encoding="utf-8") == WRITERS["nquads"](export)
    assert exported("turtle", "--inferred", "owlrl").decode("utf-8") == to_turtle(export)


def test_default_is_turtle_of_data_and_ontology():
    text = exported("turtle").decode("utf-8")
    assert text.startswith("@prefix ak: <https://w3id.org/anthology-kg/ns#> .\n")
    assert "id:ARXIV-2409.19256 a ak:Reference ;" in text
    assert "ak:Entry a owl:Class ;" in text
    assert "sh:NodeShape" not in text
    with_shapes = exported("turtle", "--include", "data,shapes").decode("utf-8")
    assert "sh:NodeShape" in with_shapes and "ak:Entry a owl:Class" not in with_shapes


def test_inferred_triples_appear_only_when_inferred():
    root = FIXTURES / "rules" / "rule5-good"
    lit = URIRef(DEFAULT_BASE + "LIT-001")
    note = URIRef(DEFAULT_BASE + "NOTE-001")
    plain = build_export(FolderSource(root))
    assert nt(lit, AK.hasNote, note) not in plain.asserted
    assert nt(lit, RDF.type, AK.Entry) not in plain.asserted
    inferred = build_export(FolderSource(root), inference="owlrl")
    assert nt(lit, AK.hasNote, note) in inferred.inferred
    assert nt(lit, RDF.type, AK.Entry) in inferred.inferred
    assert not any(s.startswith("<http://www.w3.org/") for s, _, _ in inferred.inferred)
    turtle = to_turtle(inferred)
    marker = turtle.index("# Inferred (owlrl closure")
    assert turtle.index("ak:hasNote id:NOTE-001") > marker
    dataset = Dataset()
    dataset.parse(data=to_nquads(inferred), format="nquads")
    named = dataset.graph(URIRef(INFERRED_GRAPH))
    assert (lit, AK.hasNote, note) in named
    assert (lit, AK.hasNote, note) not in dataset.default_graph


def test_turtle_with_inferred_section_reads_back_as_both_graphs(tmp_path):
    """Turtle merges the inferred section: read back, it is the asserted and the inferred
    triples together, a blank node both name being one node."""
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "LIT-001.ttl").write_text(SHARED, encoding="utf-8")
    for root in (tmp_path, None):
        export = build_export(FolderSource(root), inference="owlrl")
        assert export.inferred
        expected = Graph().parse(data=WRITERS["ntriples"](export), format="nt")
        turtle = to_turtle(export)
        assert "# Inferred (owlrl closure" in turtle
        assert isomorphic(Graph().parse(data=turtle, format="turtle"), expected)


def test_takeaways_come_in_position_order_nested_and_indented():
    graph = Graph().parse(
        data="""@prefix ak: <https://w3id.org/anthology-kg/ns#> .
        @prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
        <https://w3id.org/anthology-kg/id/LIT-001> ak:takeaway
          [ a ak:Takeaway ; ak:position 10 ; rdf:value "a" ;
            ak:figure [ ak:unit "x" ] ],
          [ a ak:Takeaway ; ak:position 2 ; rdf:value "c" ],
          [ a ak:Takeaway ; ak:position 1 ; rdf:value "b" ] .
        """,
        format="turtle",
    )
    text = canonical_turtle(graph)
    assert text.index('"b"') < text.index('"c"') < text.index('"a"')
    assert "id:LIT-001 ak:takeaway [\n        a ak:Takeaway ;\n" in text
    assert '        ak:figure [\n            ak:unit "x"\n        ] ;\n' in text
    assert "\n    ], [\n" in text and text.endswith("\n    ] .\n")
    assert isomorphic(Graph().parse(data=text, format="turtle"), graph)


def test_canonical_turtle_does_not_depend_on_blank_node_labels_or_order():
    """Shared blank nodes are written with RDFC-1.0 labels, whatever they were called."""
    texts = set()
    for a, b in (("x", "y"), ("y", "x"), ("n1", "zz")):
        lines = SHARED.replace("_:x", "_:A").replace("_:y", "_:B")
        lines = lines.replace("_:A", f"_:{a}").replace("_:B", f"_:{b}")
        texts.add(
            canonical_turtle(Graph().parse(data=lines, format="turtle", publicID=DEFAULT_BASE))
        )
    (text,) = texts
    assert "_:c14n0" in text and "_:c14n1" in text


def test_predicates_in_iri_order_when_one_is_a_prefix_of_another():
    graph = Graph().parse(
        data="<http://e.org/s> <http://e.org/p2> 1 ; <http://e.org/p> 2 ; <http://e.org/p-x> 3 .",
        format="turtle",
    )
    text = canonical_turtle(graph)
    assert text.index("<http://e.org/p> 2") < text.index("<http://e.org/p-x> 3")
    assert text.index("<http://e.org/p-x> 3") < text.index("<http://e.org/p2> 1")


def test_rdfs_inference_adds_subclass_types():
    export = build_export(FolderSource(), inference="rdfs")
    entry = URIRef(DEFAULT_BASE + "ARXIV-2409.19256")
    assert nt(entry, RDF.type, AK.Entry) in export.inferred


def test_pyoxigraph_reads_turtle_and_ntriples(tmp_path):
    ox = pytest.importorskip("pyoxigraph", reason="pyoxigraph is not installed")
    expected = asserted_graph()
    for fmt, ox_format in (("turtle", ox.RdfFormat.TURTLE), ("ntriples", ox.RdfFormat.N_TRIPLES)):
        quads = list(ox.parse(exported(fmt), format=ox_format))
        assert len(quads) == len(expected)
        nt = ox.serialize(quads, format=ox.RdfFormat.N_QUADS).decode("utf-8")
        assert isomorphic(Graph().parse(data=nt, format="nt"), expected)


@pytest.mark.skipif(shutil.which("rapper") is None, reason="rapper (raptor2-utils) not installed")
def test_rapper_reads_turtle_and_ntriples(tmp_path):
    expected = asserted_graph()
    for fmt, name in (("turtle", "turtle"), ("ntriples", "ntriples")):
        path = tmp_path / f"a.{fmt}"
        path.write_bytes(exported(fmt))
        out = subprocess.run(
            ["rapper", "-q", "-i", name, "-o", "ntriples", str(path)],
            capture_output=True,
            check=True,
            text=True,
        ).stdout
        parsed = Graph().parse(data=out, format="nt")
        assert len(parsed) == len(expected)
        assert isomorphic(parsed, expected)


def test_output_file_is_written_atomically(tmp_path, monkeypatch):
    target = tmp_path / "a.ttl"
    target.write_text("old", encoding="utf-8")

    def broken_replace(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(files.os, "replace", broken_replace)
    with pytest.raises(AnthologyError, match="cannot write: disk full"):
        files.write_atomic(target, "new")
    assert target.read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["a.ttl"]


def test_export_to_a_missing_folder_exits_2(tmp_path):
    result = run_cli("export", "-o", str(tmp_path / "nope" / "a.ttl"))
    assert result.exit_code == 2 and "no such folder" in result.stderr


def test_bad_include_exits_2():
    result = run_cli("export", "--include", "data,everything")
    assert result.exit_code == 2 and "--include" in result.stderr


# ---- fmt ----------------------------------------------------------------------------------

MESSY = """@prefix ak: <https://w3id.org/anthology-kg/ns#> .
@prefix dcterms: <http://purl.org/dc/terms/> .
# A literature record, written by hand.
<https://w3id.org/anthology-kg/id/LIT-001> ak:category ak:method ; a ak:LiteratureRecord ;
  dcterms:identifier "LIT-001" ;
  ak:takeaway [ ak:position 2 ; <http://www.w3.org/1999/02/22-rdf-syntax-ns#value> "b" ] ,
  [ <http://www.w3.org/1999/02/22-rdf-syntax-ns#value> "a" ; ak:position 1 ] .
"""


def test_fmt_check_passes_on_the_bundled_data():
    result = run_cli("fmt", "--check")
    assert result.exit_code == 0, result.stdout
    assert result.stdout.endswith("0 of 8 file(s) would change\n")


def test_fmt_check_lists_files_then_fmt_rewrites_without_changing_meaning(tmp_path):
    (tmp_path / "data").mkdir()
    path = tmp_path / "data" / "LIT-001.ttl"
    path.write_text(MESSY, encoding="utf-8")
    before = Graph().parse(path, format="turtle")
    check = run_cli("--root", str(tmp_path), "fmt", "--check")
    assert check.exit_code == 1 and "would reformat" in check.stdout
    assert path.read_text(encoding="utf-8") == MESSY
    assert run_cli("--root", str(tmp_path), "fmt").exit_code == 0
    text = path.read_text(encoding="utf-8")
    assert isomorphic(before, Graph().parse(path, format="turtle"))
    assert "# A literature record, written by hand.\nid:LIT-001 a ak:LiteratureRecord ;" in text
    assert text.index("ak:position 1") < text.index("ak:position 2")
    assert run_cli("--root", str(tmp_path), "fmt", "--check").exit_code == 0


def test_fmt_leaves_everything_alone_when_a_file_is_broken(tmp_path):
    shutil.copytree(FIXTURES / "broken-syntax", tmp_path / "b")
    (tmp_path / "b" / "data" / "AAA.ttl").write_text(MESSY, encoding="utf-8")
    result = run_cli("--root", str(tmp_path / "b"), "fmt")
    assert result.exit_code == 2 and "LIT-001.ttl:8" in result.stderr
    assert (tmp_path / "b" / "data" / "AAA.ttl").read_text(encoding="utf-8") == MESSY


def _pyoxigraph_canonical(quads):
    """The quads canonicalized by pyoxigraph (RDFC-1.0), as sorted N-Quads lines."""
    import pyoxigraph as ox

    text = "".join(f"{s} {p} {o} {g} .\n" for s, p, o, g in quads)
    dataset = ox.Dataset(ox.parse(text, format=ox.RdfFormat.N_QUADS))
    dataset.canonicalize(ox.CanonicalizationAlgorithm.RDFC_1_0)
    return sorted(ox.serialize(dataset, format=ox.RdfFormat.N_QUADS).decode().splitlines())


def _random_blank_quads(rng, nodes, terms):
    """Random quads over ``nodes`` blank nodes and the first ``terms`` IRIs and literals
    (some needing escapes), in two graphs (few terms: blank nodes alike more often)."""
    blanks = [f"_:n{i}" for i in range(nodes)]
    iris = ["<http://e.org/a>", "<http://e.org/b>", "<http://e.org/é>"][:terms]
    literals = ['"x"', '"x"@en', '"007"^^<http://www.w3.org/2001/XMLSchema#integer>']
    literals += ['"a\\nb \\"q\\" \\\\ é"', '"\\u0001"']
    graphs = ["<urn:g:0>", "<urn:g:1>"][: 1 + terms // 3]
    quads = set()
    for _ in range(rng.randint(1, 3 * nodes)):
        s = rng.choice(blanks + iris[:1])
        o = rng.choice(blanks + iris + literals[:terms])
        if "_:" in s + o:
            quads.add((s, rng.choice(iris), o, rng.choice(graphs)))
    return sorted(quads)


def test_first_degree_labels_are_rdfc_labels():
    """Where every blank node has a first-degree hash of its own, the labels written
    without pyoxigraph are the ones its RDFC-1.0 implementation gives; where two share
    one, there are none (pyoxigraph's N-degree step is needed)."""
    import random

    from anthology_kg.bnodes import first_degree_labels

    rng = random.Random(14)
    settled = unsettled = 0
    for _ in range(300):
        quads = _random_blank_quads(rng, rng.randint(1, 6), rng.randint(1, 5))
        labels = first_degree_labels(quads)
        if labels is None:
            unsettled += 1
            continue
        settled += 1
        relabelled = {(labels.get(s, s), p, labels.get(o, o), g) for s, p, o, g in quads}
        assert sorted(f"{s} {p} {o} {g} ." for s, p, o, g in relabelled) == (
            _pyoxigraph_canonical(quads)
        )
    assert settled > 100 and unsettled > 10  # both paths were taken
    twins = [("<http://e.org/a>", "<http://e.org/b>", f"_:{n}", "<urn:g:0>") for n in "xy"]
    assert first_degree_labels(twins) is None


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_export_keeps_every_literal_as_written(fmt, tmp_path):
    """``007`` stays ``007`` and a token keeps its spaces in every format (the Oxigraph
    store would write ``7``; the export reads the files with pyoxigraph's parser)."""
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "LIT-001.ttl").write_text(
        "@prefix ak: <https://w3id.org/anthology-kg/ns#> .\n"
        "@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n"
        '<LIT-001> ak:count "007"^^xsd:integer ; ak:code "  x  "^^xsd:token ;\n'
        '    ak:size "1.0E6"^^xsd:double ; ak:note [ ak:count "+01"^^xsd:integer ] .\n',
        encoding="utf-8",
    )
    text = run_cli("--root", str(tmp_path), "export", "--format", fmt, "--include", "data").stdout
    quoted = {"turtle": "", "rdfxml": ">"}.get(fmt, '"')
    for lexical in ("007", "  x  ", "1.0E6", "+01"):
        assert f"{quoted}{lexical}" in text, lexical
    assert '"7"' not in text and ">7<" not in text and " 7 " not in text


class QuadsSource:
    """An export's source holding given quads as its data (a library caller's own
    ``Source``): the one way a triple term (RDF 1.2) reaches the writers, since every
    command refuses a file holding one (tests/test_triple_terms_reference.py)."""

    base = DEFAULT_BASE

    def __init__(self, turtle: str):
        import pyoxigraph as ox

        self.data = list(ox.parse(turtle, format=ox.RdfFormat.TURTLE))

    def quads(self, parts):
        return iter(self.data if "data" in parts else [])

    def graph(self, part):
        raise NotImplementedError("no inference here")


def test_a_blank_node_in_a_triple_term_gets_its_canonical_label():
    """A triple term (RDF 1.2) naming a blank node names it by the label its own
    statements get, so that reading the export back joins them."""
    export = build_export(
        QuadsSource(
            "<http://e.org/a> <http://e.org/b> <<( _:x <http://e.org/c> <http://e.org/d> )>> .\n"
            "_:x <http://e.org/c> <http://e.org/d> .\n"
        ),
        include=("data",),
    )
    for fmt in ("turtle", "ntriples"):
        text = WRITERS[fmt](export)
        assert "<<( _:c14n0 <http://e.org/c> <http://e.org/d> )>>" in text
        assert "\n_:c14n0 <http://e.org/c> <http://e.org/d> .\n" in text


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_a_triple_stated_twice_is_written_once(fmt, tmp_path):
    """A graph is a set: a triple two files (or data and ontology) both state is written
    once in every format, N-Quads included, as N-Triples always did."""
    (tmp_path / "data").mkdir()
    twice = (
        "@prefix ak: <https://w3id.org/anthology-kg/ns#> .\n"
        '<LIT-001> ak:label "twice" ; ak:note _:n .\n_:n ak:label "note" .\n'
    )
    for name in ("LIT-001.ttl", "LIT-002.ttl"):
        (tmp_path / "data" / name).write_text(twice, encoding="utf-8")
    text = run_cli("--root", str(tmp_path), "export", "--format", fmt, "--include", "data").stdout
    assert text.count("twice") == 1, text
    parsed = Graph().parse(data=text, format=FORMATS[fmt])
    assert len(parsed) == 5  # one label; each file its own note: two links, two labels


def test_export_loads_no_rdflib(tmp_path):
    """The common export (data and ontology, no inference) reads with pyoxigraph and
    writes text in every format: rdflib, owlrl and the loader stay unloaded (an import
    of rdflib costs more than a tenth of a second of every such run)."""
    script = (
        "import sys\n"
        "from anthology_kg.cli import main\n"
        f"for fmt in {sorted(FORMATS)!r}:\n"
        f"    out = {str(tmp_path)!r} + '/export.' + fmt\n"
        "    main(['export', '--format', fmt, '-o', out], standalone_mode=False)\n"
        "heavy = ('rdflib', 'owlrl', 'anthology_kg.loader', 'anthology_kg.export_inference',"
        " 'xml.sax')\n"
        "print([m for m in heavy if m in sys.modules])\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
    assert (tmp_path / "export.turtle").read_bytes() == exported("turtle")
    # The probe sees an import when there is one: inference needs the loader (one
    # format shows it; each more cost ~0.05 s of inference).
    script = script.replace("'-o', out]", "'-o', out, '--inferred', 'rdfs']")
    script = script.replace(f"for fmt in {sorted(FORMATS)!r}:", "for fmt in ['nquads']:")
    assert "for fmt in ['nquads']:" in script
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert "'rdflib'" in done.stdout, done.stderr


def test_the_prefixes_are_the_namespaces():
    """prefixes.py (plain strings, for the writers) names what namespaces.py binds."""
    from anthology_kg import namespaces, prefixes

    assert namespaces.PREFIXES is prefixes.PREFIXES
    for prefix, namespace in prefixes.PREFIXES.items():
        bound = {"id": DEFAULT_BASE}.get(prefix) or str(getattr(namespaces, prefix.upper()))
        assert namespace == bound, prefix


def test_jsonld_text_is_what_json_dumps_writes(tmp_path):
    """The JSON-LD writer writes its text itself (json.dumps with indent encodes in
    Python, object by object): it is byte for byte what json.dumps writes for the same
    document, with escapes, languages, datatypes, blank nodes and the inferred graph."""
    import json

    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "LIT-001.ttl").write_text(
        SHARED + '<LIT-001> ak:note "tab\\t quote\\" back\\\\ nl\\n bell\\u0007 é 𝄞"@en-gb ,\n'
        '    "2024"^^<http://www.w3.org/2001/XMLSchema#gYear> , "plain" .\n',
        encoding="utf-8",
    )
    for inference in ("none", "owlrl"):
        text = WRITERS["jsonld"](build_export(FolderSource(tmp_path), inference=inference))
        document = json.loads(text)
        assert text == json.dumps(document, indent=2, ensure_ascii=False) + "\n"
        assert ("@graph" in text) == (inference == "owlrl")
    note = next(node for node in document if node["@id"].endswith("LIT-001"))
    values = note["https://w3id.org/anthology-kg/ns#note"]
    assert {"@value": 'tab\t quote" back\\ nl\n bell\u0007 é 𝄞', "@language": "en-gb"} in values
    empty = tmp_path / "empty"
    (empty / "data").mkdir(parents=True)
    assert WRITERS["jsonld"](build_export(FolderSource(empty), ("data",))) == "[]\n"


def test_jsonld_types_that_are_blank_nodes_or_literals_read_back_as_written(tmp_path):
    """JSON-LD 1.1 (Serialize RDF as JSON-LD) writes rdf:type as ``@type`` only where the
    object is an IRI or a blank node identifier, which keeps its ``_:`` (without it a
    reader takes it for a relative IRI); a literal type stays an rdf:type value. Read
    back, the JSON-LD is the graph the Turtle export says."""
    import json

    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "LIT-001.ttl").write_text(
        SHARED
        + '<LIT-001> a _:kind , ak:LiteratureRecord , "a literal type" .\n'
        + '_:kind a _:kind ; ak:label "a class with no IRI" .\n',
        encoding="utf-8",
    )
    export = build_export(FolderSource(tmp_path), ("data",))
    text = WRITERS["jsonld"](export)
    document = json.loads(text)
    record = next(node for node in document if node["@id"].endswith("LIT-001"))
    kind = next(t for t in record["@type"] if t.startswith("_:c14n"))
    assert record["@type"] == sorted([kind, str(AK.LiteratureRecord)])
    assert record[str(RDF.type)] == [{"@value": "a literal type"}]
    assert next(node for node in document if node["@id"] == kind)["@type"] == [kind]
    from_jsonld = Graph().parse(data=text, format="json-ld", base="http://relative.invalid/")
    from_turtle = Graph().parse(data=WRITERS["turtle"](export), format="turtle")
    assert not any("relative.invalid" in str(term) for triple in from_jsonld for term in triple)
    assert isomorphic(from_jsonld, from_turtle)


@pytest.mark.parametrize("fmt", ["jsonld", "rdfxml"])
def test_a_triple_term_is_an_input_error_where_the_format_has_none(fmt):
    """JSON-LD and RDF/XML cannot state a triple term (RDF 1.2), which a library
    caller's source may hold: an AnthologyError (exit 2) naming it."""
    export = build_export(
        QuadsSource(
            "<http://e.org/a> <http://e.org/b> <<( <http://e.org/x> <http://e.org/c> 1 )>> ."
        ),
        include=("data",),
    )
    with pytest.raises(
        AnthologyError, match=r"cannot write the triple term <<\( <http://e\.org/x>"
    ):
        WRITERS[fmt](export)


def test_the_collector_is_as_it_was_after_an_export():
    """An export pauses Python's cyclic collector while it builds and writes, and puts
    it back as it was, even when it was off."""
    import gc

    export = build_export(FolderSource(), ("data",))
    for enabled in (True, False):
        gc.enable() if enabled else gc.disable()
        try:
            for write in WRITERS.values():
                write(export)
            build_export(FolderSource(), ("data",))
            assert gc.isenabled() is enabled
        finally:
            gc.enable()
