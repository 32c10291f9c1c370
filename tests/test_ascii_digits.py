"""Identifiers, years and positions take ASCII digits only (hunt1 F5): Python's ``\\d``
matches any script's digits, which the rules' patterns, xsd:gYear and xsd:integer do not."""

import pytest
from conftest import FIXTURES, run_cli
from rdflib import Graph, URIRef
from rdflib.namespace import DCTERMS

from anthology_kg.namespaces import DEFAULT_BASE
from anthology_kg.records import entry_class

FULLWIDTH = str.maketrans("0123456789", "０１２３４５６７８９")
ARABIC_INDIC = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")
LIT_201 = FIXTURES / "records" / "LIT-201.txt"


@pytest.mark.parametrize("digits", [FULLWIDTH, ARABIC_INDIC], ids=["fullwidth", "arabic-indic"])
@pytest.mark.parametrize(
    "identifier", ["LIT-123", "ADR-123", "SOTA-123", "NOTE-123", "ARXIV-2409.19256"]
)
def test_an_identifier_of_other_digits_has_no_class(identifier, digits):
    assert entry_class(identifier) is not None
    assert entry_class(identifier.translate(digits)) is None
    # One digit of another script is enough.
    assert entry_class(identifier[:-1] + identifier[-1].translate(digits)) is None


@pytest.mark.parametrize(
    ("kind", "identifier"), [("lit", "LIT-１２３"), ("reference", "ARXIV-２４０９.19256")]
)
def test_new_refuses_an_identifier_of_other_digits(bundled_copy, kind, identifier):
    result = run_cli("--root", str(bundled_copy), "new", kind, identifier, "--title", "x")
    assert result.exit_code == 2, result.stdout
    assert f"{identifier!r} is not an identifier for a {kind} entry" in result.stderr
    assert not (bundled_copy / "data" / f"{identifier}.ttl").exists()


def _import(tmp_path, text: str):
    path = tmp_path / "r.txt"
    path.write_text(text, encoding="utf-8")
    return run_cli("import", str(path))


def test_import_refuses_a_heading_identifier_of_other_digits(tmp_path):
    text = LIT_201.read_text("utf-8").replace("— LIT-201", "— LIT-２０１", 1)
    result = _import(tmp_path, text)
    assert result.exit_code == 2
    assert "r.txt:1: identifier 'LIT-２０１' has none of the forms" in result.stderr


def test_import_refuses_a_year_of_other_digits(tmp_path):
    text = LIT_201.read_text("utf-8").replace("(2025)", "(２０２５)", 1)
    result = _import(tmp_path, text)
    assert result.exit_code == 2
    assert "r.txt:1: expected the heading '<authors> (<year>) — <identifier>'" in result.stderr


def test_import_reads_no_mention_of_other_digits(tmp_path):
    def imported(text: str) -> Graph:
        result = _import(tmp_path, text)
        assert result.exit_code == 0, result.stderr
        return Graph().parse(data=result.stdout, format="turtle")

    text = LIT_201.read_text("utf-8")
    before = imported(text)
    after = imported(text.replace("Filed as method.", "Filed as method. See LIT-１６８."))
    # (ADR-032 in the prose, NOTE-012 on the status line: test_status_note_mention)
    assert set(before.objects(None, DCTERMS.references)) == {
        URIRef(DEFAULT_BASE + "ADR-032"),
        URIRef(DEFAULT_BASE + "NOTE-012"),
    }
    assert set(after.objects(None, DCTERMS.references)) == set(
        before.objects(None, DCTERMS.references)
    )


def test_import_refuses_a_withholding_of_other_digits(tmp_path):
    """Not read as ADR-032, nor (since hunt18 #14) kept as prose: a sentence of no known
    form, an error at its line."""
    text = LIT_201.read_text("utf-8")
    sentence = "Carries no practice, deliberately — ADR-０３２."
    result = _import(tmp_path, text.replace("Filed as method.", f"Filed as method. {sentence}"))
    assert result.exit_code == 2, result.output
    assert "a 'Carries no practice' sentence of no known form" in result.stderr
