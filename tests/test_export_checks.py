"""What an export refuses rather than write wrong: RDF/XML's reserved names, unknown parts."""

import pytest
from conftest import run_cli
from rdflib import Graph
from rdflib.compare import isomorphic

from anthology_kg.export import build_export
from anthology_kg.export_files import FolderSource

RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"


def one_entry(tmp_path, statement: str):
    """An anthology whose one data file, LIT-903.ttl, says ``statement`` (predicates and
    objects) of LIT-903."""
    root = tmp_path / "anthology"
    (root / "data").mkdir(parents=True)
    (root / "data" / "LIT-903.ttl").write_text(
        f"<https://w3id.org/anthology-kg/id/LIT-903> {statement} .\n", encoding="utf-8"
    )
    return root


def refused_by_rdfxml(tmp_path, predicate: str) -> str:
    """stderr of an RDF/XML export of an entry stating ``predicate``, which must be
    refused: exit 2, no traceback, no output file."""
    root = one_entry(tmp_path, f'<{predicate}> "v"')
    out = tmp_path / "out.rdf"
    result = run_cli("--root", str(root), "export", "--format", "rdfxml", "-o", str(out))
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    assert not out.exists()
    return result.stderr


@pytest.mark.parametrize("name", ["li", "Description", "about", "nodeID", "ID", "aboutEach"])
def test_rdfxml_refuses_a_predicate_named_as_its_own_syntax(bundled_copy, tmp_path, name):
    root = bundled_copy
    (root / "data" / "LIT-903.ttl").write_text(
        f'<https://w3id.org/anthology-kg/id/LIT-903> <{RDF}{name}> "x" .\n', encoding="utf-8"
    )
    out = tmp_path / "out.rdf"
    result = run_cli("--root", str(root), "export", "--format", "rdfxml", "-o", str(out))
    assert result.exit_code == 2, result.output
    assert f"cannot write the predicate <{RDF}{name}>" in result.stderr
    assert "Traceback" not in result.stderr and not out.exists()
    turtle = run_cli("--root", str(root), "export", "--format", "turtle")
    assert turtle.exit_code == 0 and f"rdf:{name}" in turtle.stdout


@pytest.mark.parametrize(
    "predicate",
    ["http://example.org/é", "http://example.org/ns#aé", "http://example.org/日本語·名"],
)
def test_rdfxml_writes_a_predicate_whose_name_ends_in_other_than_ascii(tmp_path, predicate):
    """XML names have the letters of every script: such a predicate is written (it was
    refused as one RDF/XML cannot write) and reads back the same in rdflib (expat)."""
    root = one_entry(tmp_path, f'<{predicate}> "v"')
    result = run_cli("--root", str(root), "export", "--format", "rdfxml", "--include", "data")
    assert result.exit_code == 0, result.output
    expected = Graph().parse(root / "data" / "LIT-903.ttl", format="turtle")
    assert isomorphic(Graph().parse(data=result.stdout, format="xml"), expected)


@pytest.mark.parametrize(
    "predicate", ["http://example.org/\u3400", "http://example.org/a\U0001f600", "http://x/a\u203f"]
)
def test_rdfxml_refuses_a_name_that_xml_readers_of_the_fourth_edition_refuse(tmp_path, predicate):
    """XML 1.0's fifth edition names allow U+3400, U+1F600 or U+203F where expat (rdflib)
    and the JDK's Xerces (Jena, Protégé) do not: written, no reader of theirs could read
    the file (review7), so the export says it cannot write it."""
    said = refused_by_rdfxml(tmp_path, predicate)
    assert f"RDF/XML cannot write the predicate <{predicate}>" in said


def test_rdfxml_writes_the_rdf_names_that_are_properties(tmp_path):
    """rdf:value and rdf:_1 are ordinary property elements: written, read back the same."""
    root = one_entry(tmp_path, f'<{RDF}value> "v" ; <{RDF}_1> "one"')
    result = run_cli("--root", str(root), "export", "--format", "rdfxml", "--include", "data")
    assert result.exit_code == 0, result.output
    expected = Graph().parse(root / "data" / "LIT-903.ttl", format="turtle")
    assert isomorphic(Graph().parse(data=result.stdout, format="xml"), expected)


@pytest.mark.parametrize("include", ["data", ["shapez"], ("data", "everything")])
def test_build_export_refuses_what_is_no_sequence_of_parts(include):
    """A plain string was read as its letters and "shapez" as the shapes: the export of
    the wrong part, silently."""
    with pytest.raises(ValueError, match="include is a sequence of parts"):
        build_export(FolderSource(), include)


def test_rdfxml_refuses_a_predicate_in_the_namespace_xml_reserves(tmp_path):
    """Written, ``xmlns:ns1="http://www.w3.org/2000/xmlns/"`` made the file unreadable
    to pyoxigraph and rdflib (hunt2)."""
    predicate = "http://www.w3.org/2000/xmlns/foo"
    said = refused_by_rdfxml(tmp_path, predicate)
    assert f"RDF/XML cannot write the predicate <{predicate}>: no prefix may be" in said
