"""export writes its output in chunks (no joined copy of the whole text, no encoded
copy of it): the same bytes as the writers' text, and nothing half-written on failure."""

from __future__ import annotations

import pytest
from conftest import FIXTURES, run_cli

from anthology_kg import export_writers
from anthology_kg.errors import AnthologyError
from anthology_kg.export import build_export
from anthology_kg.export_files import FolderSource
from anthology_kg.export_writers import WRITERS, _utf8_chunks, export_bytes

NON_ASCII = """@prefix ak: <https://w3id.org/anthology-kg/ns#> .
@prefix dcterms: <http://purl.org/dc/terms/> .
<LIT-001> a ak:LiteratureRecord ; dcterms:identifier "LIT-001" ;
    ak:label "Gödel, Escher, 巴赫 — 𝄞"@de-CH , "plain" ; ak:cites [ ak:label "ß" ] .
"""


@pytest.fixture
def non_ascii(tmp_path):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "LIT-001.ttl").write_text(NON_ASCII, encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("fmt", sorted(WRITERS))
@pytest.mark.parametrize("inference", ["none", "rdfs"])
def test_the_chunks_are_the_writers_bytes(non_ascii, fmt, inference):
    for source in (FolderSource(), FolderSource(non_ascii)):
        built = build_export(source, inference=inference)
        expected = WRITERS[fmt](built).encode("utf-8")
        assert b"".join(export_bytes(built, fmt)) == expected


def test_chunks_cut_pieces_between_characters_never_inside_one():
    pieces = ["ab", "", "巴赫𝄞" * 5, "é", "xyz" * 3]
    chunks = list(_utf8_chunks(list(pieces), size=4))
    assert b"".join(chunks) == "".join(pieces).encode("utf-8")
    assert len(chunks) > 3 and all(chunk.decode("utf-8") for chunk in chunks)
    assert list(_utf8_chunks([])) == []


@pytest.mark.parametrize("fmt", sorted(WRITERS))
def test_the_command_writes_the_writers_bytes_to_stdout_and_to_a_file(non_ascii, tmp_path, fmt):
    expected = WRITERS[fmt](build_export(FolderSource(non_ascii))).encode("utf-8")
    printed = run_cli("--root", str(non_ascii), "export", "--format", fmt)
    assert printed.exit_code == 0 and printed.stdout_bytes == expected
    target = tmp_path / f"out.{fmt}"
    written = run_cli("--root", str(non_ascii), "export", "--format", fmt, "-o", str(target))
    assert written.exit_code == 0 and target.read_bytes() == expected


def test_turtle_is_never_joined_into_one_text(monkeypatch):
    """Before: the command wrote ``to_turtle``'s one str, encoded again as a whole (two
    copies of the document: peak RSS 747 MiB at 100,000 entries, 674 MiB without)."""

    def joined(_export):
        raise AssertionError("the whole Turtle text was made")

    monkeypatch.setattr(export_writers, "to_turtle", joined)
    monkeypatch.setitem(export_writers.WRITERS, "turtle", joined)
    result = run_cli("--root", str(FIXTURES / "minimal"), "export")
    assert result.exit_code == 0 and result.stdout.startswith("@prefix ")


def test_a_failure_midway_leaves_the_old_output(tmp_path, monkeypatch):
    """The chunks go to a temporary file renamed into place at the end: a writer that
    fails after its first chunk leaves the old file as it was and no temporary file."""
    target = tmp_path / "out" / "a.ttl"
    target.parent.mkdir()
    target.write_bytes(b"old")

    def failing(_export, _fmt):
        yield b"@prefix half: <urn:half#> .\n"
        raise AnthologyError("the writer failed")

    monkeypatch.setattr(export_writers, "export_bytes", failing)
    result = run_cli("--root", str(FIXTURES / "minimal"), "export", "-o", str(target))
    assert result.exit_code == 2 and "the writer failed" in result.stderr
    assert target.read_bytes() == b"old"
    assert [p.name for p in target.parent.iterdir()] == ["a.ttl"]
