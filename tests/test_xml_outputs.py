"""The XML outputs are well-formed XML 1.0 and keep the data (review3 B8).

``validate --format junit`` shows data text escaped (a U+0001 or ESC in a message made
it ill-formed); ``export --format rdfxml`` writes CR as ``&#13;`` (written raw it read
back as LF: another graph) and refuses, exit 2 naming the triple, a literal holding a
character XML 1.0 cannot carry even as a reference (written raw: ill-formed, exit 0).
Proven with real XML parsers (xml.etree, rapper where installed) and by reading the
RDF/XML back with rdflib and pyoxigraph."""

from __future__ import annotations

import shutil
import subprocess
from xml.etree import ElementTree as ET

import pyoxigraph as ox
import pytest
from conftest import FIXTURES, run_cli
from hypothesis import given
from hypothesis import strategies as st
from rdflib import Graph
from rdflib.compare import isomorphic

from anthology_kg.export_writers import NOT_XML, xml_escape
from anthology_kg.layout import printable

PREFIXES = (
    "@prefix ak: <https://w3id.org/anthology-kg/ns#> .\n"
    "@prefix dcterms: <http://purl.org/dc/terms/> .\n"
    "@prefix id: <https://w3id.org/anthology-kg/id/> .\n"
    "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n\n"
)


def _note(root, identifier: str, label: str = "a note") -> None:
    (root / "data" / "NOTE-777.ttl").write_text(
        PREFIXES
        + f'id:NOTE-777 a ak:Note ;\n    rdfs:label "{label}" ;\n'
        + "    rdfs:seeAlso <https://example.org/?a=1&b=%22> ;\n"
        + f'    dcterms:identifier "{identifier}" .\n',
        encoding="utf-8",
    )


def test_junit_is_well_formed_whatever_the_data_holds(bundled_copy, tmp_path):
    _note(bundled_copy, "NOTE-\\u0001\\u001b[31m\\r\\n\\uFFFE")
    out = tmp_path / "report.xml"
    result = run_cli("--root", str(bundled_copy), "validate", "--format", "junit", "-o", str(out))
    assert result.exit_code == 1, result.output
    text = out.read_text(encoding="utf-8")
    assert not NOT_XML.search(text) and "\r" not in text
    (failure,) = [f for f in ET.fromstring(text).iter("failure") if "NOTE-" in (f.text or "")]
    shown = "NOTE-\\x01\\x1b[31m\\r\\n\\ufffe"
    assert f"({shown}, dcterms:identifier {shown})" in failure.text
    if shutil.which("xmllint"):
        subprocess.run(["xmllint", "--noout", str(out)], check=True)


OWN_SHAPES = """@prefix ak: <https://w3id.org/anthology-kg/ns#> .
@prefix sh: <http://www.w3.org/ns/shacl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
<urn:x:NeedsLabel> a sh:NodeShape ; sh:targetClass ak:LiteratureRecord ;
    sh:property [ sh:path rdfs:label ; sh:minCount 1 ] .
<urn:x:NeedsComment> a sh:NodeShape ; sh:targetClass ak:LiteratureRecord ;
    sh:property [ sh:path rdfs:comment ; sh:minCount 1 ; sh:severity sh:Warning ] .
"""

EXPIRED_WAIVER = """@prefix ak: <https://w3id.org/anthology-kg/ns#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
<waiver/old> a ak:Waiver ; ak:waives <LIT-001> ; ak:rule "AK001" ;
    rdfs:comment "old" ; ak:expires "2020-01-01"^^xsd:date .
"""


@pytest.mark.parametrize(
    ("fail_on", "exit_code", "failing"),
    [
        (
            "violation",
            1,
            ["aks:Rule1AdmittedCategory", "aks:WaiverNotExpired", "urn:x:NeedsLabel"],
        ),
        (
            "warning",
            1,
            [
                "aks:Rule1AdmittedCategory",
                "aks:WaiverNotExpired",
                "urn:x:NeedsComment",
                "urn:x:NeedsLabel",
            ],
        ),
        ("none", 0, []),
    ],
)
def test_junit_fails_a_testcase_for_every_result_the_exit_code_counts(
    tmp_path, fail_on, exit_code, failing
):
    """Own shapes and the waivers' problems have testcases too, and a testcase fails on
    the severities ``--fail-on`` fails on: the file and the exit code agree."""
    shutil.copytree(FIXTURES / "minimal", tmp_path, dirs_exist_ok=True)
    (tmp_path / "ontology" / "shapes").mkdir(parents=True)
    (tmp_path / "ontology" / "shapes" / "mine.ttl").write_text(OWN_SHAPES, encoding="utf-8")
    (tmp_path / "waivers.ttl").write_text(EXPIRED_WAIVER, encoding="utf-8")
    root = ("--root", str(tmp_path))
    result = run_cli(*root, "validate", "--format", "junit", "--fail-on", fail_on)
    assert result.exit_code == exit_code, result.output
    suite = ET.fromstring(result.stdout).find("testsuite")
    cases = {case.get("name"): case for case in suite.iter("testcase")}
    assert sorted(name for name, case in cases.items() if case.find("failure") is not None) == (
        failing
    )
    assert suite.get("failures") == str(len(failing))
    assert suite.get("tests") == str(len(cases))
    assert cases["urn:x:NeedsLabel"].get("classname") == "own shape"
    assert cases["aks:WaiverNotExpired"].get("classname") == "integrity"
    if fail_on == "violation":
        # a warning that does not fail the run is written out, not failed
        assert " Warning fails sh:minCount" in cases["urn:x:NeedsComment"].find("system-out").text
    selected = run_cli(*root, "validate", "--format", "junit", "--select", "urn:x:NeedsLabel")
    assert selected.exit_code == 1
    assert 'tests="1" failures="1"' in selected.stdout


def _read_back(path):
    """The RDF/XML file ``path`` as read by rdflib and by pyoxigraph (canonicalized)."""
    by_rdflib = Graph().parse(path, format="xml")
    dataset = ox.Dataset(ox.parse(path=str(path), format=ox.RdfFormat.RDF_XML))
    dataset.canonicalize(ox.CanonicalizationAlgorithm.RDFC_1_0)
    return by_rdflib, dataset


def test_rdfxml_reads_back_as_the_same_graph_with_cr_lf_and_tabs(bundled_copy, tmp_path):
    _note(bundled_copy, "NOTE-777", 'a\\rb\\r\\nc\\td &amp; <x> \\"q\\" \\u2028')
    rdfxml, nt = tmp_path / "out.rdf", tmp_path / "out.nt"
    for path in (rdfxml, nt):
        result = run_cli("--root", str(bundled_copy), "export", "-o", str(path))
        assert result.exit_code == 0, result.output
    ET.parse(rdfxml)  # well-formed
    expected_rdflib = Graph().parse(nt, format="nt")
    expected_ox = ox.Dataset(ox.parse(path=str(nt), format=ox.RdfFormat.N_TRIPLES))
    expected_ox.canonicalize(ox.CanonicalizationAlgorithm.RDFC_1_0)
    by_rdflib, by_ox = _read_back(rdfxml)
    assert isomorphic(by_rdflib, expected_rdflib)
    assert set(by_ox) == set(expected_ox)
    label = ox.Literal('a\rb\r\nc\td &amp; <x> "q" \u2028')
    note = ox.NamedNode("https://w3id.org/anthology-kg/id/NOTE-777")
    assert ox.Quad(note, ox.NamedNode("http://www.w3.org/2000/01/rdf-schema#label"), label) in (
        by_ox
    )
    if shutil.which("rapper"):
        read = subprocess.run(
            ["rapper", "-q", "-i", "rdfxml", "-o", "ntriples", str(rdfxml)],
            capture_output=True,
            text=True,
            check=True,
        )
        assert isomorphic(Graph().parse(data=read.stdout, format="nt"), expected_rdflib)


@pytest.mark.parametrize("character", ["\\u0001", "\\u001B", "\\uFFFF", "\\u0000"])
def test_rdfxml_refuses_a_literal_xml_cannot_carry(bundled_copy, tmp_path, character):
    _note(bundled_copy, f"NOTE-{character}x")
    out = tmp_path / "out.rdf"
    result = run_cli("--root", str(bundled_copy), "export", "--format", "rdfxml", "-o", str(out))
    assert result.exit_code == 2, result.output
    assert not out.exists() and result.stdout == ""
    code = int(character[2:], 16)
    assert result.stderr.startswith(
        "anthology-kg: RDF/XML cannot write <https://w3id.org/anthology-kg/id/NOTE-777> "
        "<http://purl.org/dc/terms/identifier> "
    )
    assert f"holds U+{code:04X}, which XML 1.0 cannot carry" in result.stderr
    assert result.stderr.count("\n") == 1
    # The other formats carry it.
    result = run_cli("--root", str(bundled_copy), "export", "--format", "ntriples")
    assert result.exit_code == 0 and chr(code) not in result.stdout


_XML_TEXT = st.text(st.characters(blacklist_categories=("Cs",))).filter(
    lambda t: not NOT_XML.search(t)
)


@given(_XML_TEXT)
def test_xml_escape_reads_back_as_the_same_text(text):
    assert (ET.fromstring(f"<e>{xml_escape(text)}</e>").text or "") == text


@given(st.text())
def test_printable_text_is_always_xml(text):
    assert not NOT_XML.search(printable(text))
