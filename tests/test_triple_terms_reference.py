"""A data file holding an RDF 1.2 triple term, which rdflib's graph cannot hold, is
refused by every command that reads the data, on both engines, at its file and line
(review3 R4: no file, no line; then the Oxigraph engine kept such data, so that `check`
passed on one engine and failed on the other)."""

from __future__ import annotations

import pytest
from conftest import run_cli

#: Each way Turtle 1.2 writes a triple term, and the line the refusal names: that of its
#: mark (``<<``, ``~`` or ``{|``; it named the line of the statement's subject before).
WRITTEN = {
    "reifier": "ak:noteOn id:LIT-168 ~ id:r1 .",
    "annotation": 'ak:noteOn id:LIT-168 {| dcterms:source "a talk" |} .',
    "reified": "ak:noteOn id:LIT-168 .\n"
    "<< id:NOTE-900 ak:noteOn id:LIT-168 >> dcterms:source id:LIT-168 .",
    "triple term": "ak:noteOn id:LIT-168 .\n"
    "id:r2 rdf:reifies <<( id:NOTE-900 ak:noteOn id:LIT-168 )>> .",
    # No subject IRI of the file names it: the line of its ``<<``.
    "reified, no subject": "ak:noteOn id:LIT-168 .\n"
    '# << a comment >>\n<< <urn:x:a> <urn:x:b> "<<" >> <urn:x:p> "v" .',
    # An escaped # in a name is no comment: the ~ after it is read (review7).
    "reifier after a name with an escaped #": "ak:noteOn id:LIT-168 .\n"
    "_:s dcterms:source id:a\\#b ~ _:r .",
}
LINES = {
    "reifier": 7,
    "annotation": 7,
    "reified": 8,
    "triple term": 8,
    "reified, no subject": 9,
    "reifier after a name with an escaped #": 8,
}
#: Every command that reads the data files (``fmt`` has its own test in test_formatting).
COMMANDS = {
    "check": ("check",),
    "validate": ("validate", "--format", "json"),
    "stats": ("stats",),
    "query": ("query", "unread"),
    "render": ("render", "LIT-168"),
    "export turtle": ("export", "--format", "turtle"),
    "export nquads": ("export", "--format", "nquads"),
    "export jsonld": ("export", "--format", "jsonld"),
    "site": ("site", "-o", "{tmp}/site"),
}


def _note(root, written: str):
    note = root / "data" / "NOTE-900.ttl"
    note.write_text(
        "@prefix ak: <https://w3id.org/anthology-kg/ns#> .\n"
        "@prefix dcterms: <http://purl.org/dc/terms/> .\n"
        "@prefix id: <https://w3id.org/anthology-kg/id/> .\n"
        "@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .\n"
        'id:NOTE-900 a ak:Note ;\n    dcterms:identifier "NOTE-900" ;\n'
        f"    {written}\n",
        encoding="utf-8",
    )
    return note


@pytest.mark.parametrize("engine", ["fast", "reference"])
@pytest.mark.parametrize("way", WRITTEN)
def test_both_engines_refuse_a_triple_term_at_its_file_and_line(bundled_copy, way, engine):
    note = _note(bundled_copy, WRITTEN[way])
    result = run_cli("--root", str(bundled_copy), "check", "--engine", engine)
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    assert result.stderr.startswith(
        f"{note}:{LINES[way]}: RDF-star triple terms are not supported: "
    )


@pytest.mark.parametrize("command", COMMANDS.values(), ids=COMMANDS.keys())
def test_every_command_reading_the_data_refuses_a_triple_term(bundled_copy, tmp_path, command):
    note = _note(bundled_copy, WRITTEN["annotation"])
    args = [arg.format(tmp=tmp_path) for arg in command]
    result = run_cli("--root", str(bundled_copy), *args)
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    assert result.stderr == (
        f"{note}:7: RDF-star triple terms are not supported: "
        "<https://w3id.org/anthology-kg/id/NOTE-900> "
        "<https://w3id.org/anthology-kg/ns#noteOn> <https://w3id.org/anthology-kg/id/LIT-168>\n"
    )
    assert not (tmp_path / "site").exists()


def test_an_iri_with_a_tilde_is_data_as_any_other(bundled_copy):
    """A mark of a reifier (``~``) inside an IRI or a string is no triple term: the file
    is read again to make sure, and loads."""
    (bundled_copy / "data" / "NOTE-900.ttl").write_text(
        "@prefix ak: <https://w3id.org/anthology-kg/ns#> .\n"
        "@prefix dcterms: <http://purl.org/dc/terms/> .\n"
        '<https://w3id.org/anthology-kg/id/NOTE-900> a ak:Note ; dcterms:identifier "NOTE-900" ;\n'
        "    dcterms:source <https://example.org/~user/talk> ; ak:noteOn <LIT-168> ;\n"
        '    dcterms:description "<< {| ~ |} >>" .\n',
        encoding="utf-8",
    )
    for engine in ("fast", "reference"):
        result = run_cli("--root", str(bundled_copy), "query", "unread", "--engine", engine)
        assert result.exit_code == 0, result.output


def test_diff_refuses_a_triple_term_in_either_side(bundled_copy):
    from anthology_kg import resources

    note = _note(bundled_copy, WRITTEN["reifier"])
    result = run_cli("diff", str(resources.bundled_dir()), str(bundled_copy))
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    assert result.stderr.startswith(f"{note}:7: RDF-star triple terms are not supported: ")


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_a_shapes_file_holding_a_triple_term_is_refused_on_both_engines(bundled_copy, engine):
    shapes = bundled_copy / "ontology" / "shapes" / "y.ttl"
    shapes.parent.mkdir(parents=True)
    shapes.write_text(
        "@prefix ex: <http://example.org/> .\n\nex:s ex:p <<( ex:a ex:b ex:c )>> .\n",
        encoding="utf-8",
    )
    result = run_cli("--root", str(bundled_copy), "check", "--engine", engine)
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    assert result.stderr.startswith(f"{shapes}:3: RDF-star triple terms are not supported: ")
