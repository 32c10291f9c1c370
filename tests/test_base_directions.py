"""A literal with an RDF 1.2 base direction (``"…"@ar--rtl``) is refused where it is
written, as a triple term is: rdflib's terms cannot hold the direction, and the
export formats dropped or mangled it (JSON-LD lost the triple, RDF/XML wrote a
language tag no parser reads, answers named another literal)."""

from __future__ import annotations

import pytest
from conftest import run_cli

from anthology_kg.errors import AnthologyError
from anthology_kg.sourcemap import refuse_rdf12_terms

PREFIX = "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
#: Marks of a direction that are none: in a comment, a string, an IRI.
NO_DIRECTION = (
    "# a comment with --ltr in it\n"
    '<X> rdfs:comment "a --rtl string", """--ltr""" .\n'
    '<X> rdfs:label "tagged"@en-GB, "plain"@ar ; rdfs:seeAlso <http://e.org/a--rtl> .\n'
)


def anthology(tmp_path, text: str):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "X.ttl").write_text(PREFIX + text, encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(
    "command",
    [
        ["check"],
        ["check", "--engine", "reference"],
        ["stats"],
        ["export"],
        ["export", "--format", "jsonld"],
        ["fmt", "--check"],
    ],
    ids=" ".join,
)
@pytest.mark.parametrize("direction", ["rtl", "ltr"])
def test_a_base_direction_is_exit_2_at_its_file_and_line(tmp_path, command, direction):
    root = anthology(tmp_path, NO_DIRECTION + f'<X> rdfs:label "dir"@ar--{direction} .\n')
    result = run_cli("--root", str(root), *command)
    assert result.exit_code == 2, result.output
    assert (
        f'X.ttl:5: RDF 1.2 base directions are not supported: "dir"@ar--{direction}'
        in result.stderr
    )
    assert "Traceback" not in result.stderr


def test_marks_of_a_direction_in_comments_strings_and_tags_are_none(tmp_path):
    root = anthology(tmp_path, NO_DIRECTION)
    data = (root / "data" / "X.ttl").read_bytes()
    refuse_rdf12_terms(data, "X.ttl", "https://w3id.org/anthology-kg/id/")  # no error
    result = run_cli("--root", str(root), "export", "--format", "ntriples")
    assert result.exit_code == 0, result.output
    assert "<http://e.org/a--rtl>" in result.stdout


def test_the_line_is_the_literal_s_not_its_subject_s():
    text = PREFIX + '<X> rdfs:comment "a" ;\n\n  rdfs:label "b"@he--rtl .\n'
    with pytest.raises(AnthologyError) as raised:
        refuse_rdf12_terms(text.encode(), "X.ttl", "https://w3id.org/anthology-kg/id/")
    assert raised.value.line == 4


@pytest.mark.parametrize("output", ["table", "json", "csv"])
def test_an_answer_with_a_base_direction_is_exit_2(output):
    query = 'SELECT (STRLANGDIR("x", "ar", "rtl") AS ?l) {}'
    result = run_cli("sparql", "-", "--format", output, input=query)
    assert result.exit_code == 2, result.output
    assert (
        'the answer holds a literal with a base direction, "x"@ar--rtl: RDF 1.2 base '
        "directions are not supported" in result.stderr
    )
