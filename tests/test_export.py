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
from anthology_kg.export import INFERRED_GRAPH, build_export, to_nquads, to_turtle
from anthology_kg.loader import load_anthology
from anthology_kg.namespaces import AK, DEFAULT_BASE, RDF

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


def asserted_graph():
    anthology = load_anthology()
    return anthology.data + anthology.ontology


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_round_trip_is_isomorphic(fmt):
    parsed = Graph().parse(data=exported(fmt), format=FORMATS[fmt])
    assert isomorphic(parsed, asserted_graph())


def test_same_bytes_under_different_hash_seeds(tmp_path):
    outputs = {}
    for seed in ("1", "2", "random"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        folder = tmp_path / seed
        folder.mkdir()
        for fmt in FORMATS:
            subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "anthology_kg",
                    "export",
                    "--format",
                    fmt,
                    "--inferred",
                    "owlrl",
                    "-o",
                    str(folder / f"a.{fmt}"),
                ],
                check=True,
                env=env,
                cwd=tmp_path,
            )
        outputs[seed] = {fmt: (folder / f"a.{fmt}").read_bytes() for fmt in FORMATS}
    assert outputs["1"] == outputs["2"] == outputs["random"]


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
    plain = build_export(load_anthology(root))
    assert (lit, AK.hasNote, note) not in plain.asserted
    assert (lit, RDF.type, AK.Entry) not in plain.asserted
    inferred = build_export(load_anthology(root), inference="owlrl")
    assert (lit, AK.hasNote, note) in inferred.inferred
    assert (lit, RDF.type, AK.Entry) in inferred.inferred
    assert not any(str(s).startswith("http://www.w3.org/") for s in inferred.inferred.subjects())
    turtle = to_turtle(inferred)
    marker = turtle.index("# Inferred (owlrl closure")
    assert turtle.index("ak:hasNote id:NOTE-001") > marker
    dataset = Dataset()
    dataset.parse(data=to_nquads(inferred), format="nquads")
    named = dataset.graph(INFERRED_GRAPH)
    assert (lit, AK.hasNote, note) in named
    assert (lit, AK.hasNote, note) not in dataset.default_graph


def test_rdfs_inference_adds_subclass_types():
    export = build_export(load_anthology(), inference="rdfs")
    entry = URIRef(DEFAULT_BASE + "ARXIV-2409.19256")
    assert (entry, RDF.type, AK.Entry) in export.inferred


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
    assert result.stdout.endswith("0 of 9 file(s) would change\n")


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
