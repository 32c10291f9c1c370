"""The export's lines read straight from an anthology folder (FolderSource.statement_lines):
the triples ``quads`` gives, serialized file by file as they are parsed, with the same
checks and messages."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from anthology_kg import export as export_module
from anthology_kg.errors import AnthologyError
from anthology_kg.export import Export, FolderSource, build_export, to_turtle
from anthology_kg.turtle import statement_lines

PARTS = [("data",), ("data", "ontology"), ("data", "ontology", "shapes"), ("ontology",)]


def _without_blank_nodes(lines: list[str]) -> Counter[str]:
    """The lines naming no blank node (their labels are made anew by each parse)."""
    return Counter(line for line in lines if "_:" not in line)


@pytest.mark.parametrize("parts", PARTS)
def test_the_lines_are_those_of_the_quads_and_write_the_same_turtle(bundled_copy, parts):
    source = FolderSource(bundled_copy)
    lines = source.statement_lines(parts)
    from_quads = statement_lines(source.quads(parts))
    assert len(lines) == len(from_quads)
    assert _without_blank_nodes(lines) == _without_blank_nodes(from_quads)
    written = to_turtle(Export(lines, [], source.base, "none"))
    assert written == to_turtle(Export(from_quads, [], source.base, "none"))
    assert to_turtle(build_export(source, parts)) == written


def test_files_past_a_batch_all_come_and_a_repeated_triple_comes_twice(tmp_path, monkeypatch):
    monkeypatch.setattr(export_module, "_FILES_AT_A_TIME", 4)
    data = tmp_path / "data"
    data.mkdir()
    for n in range(12):  # three batches of 4 and one file more; one file empty
        text = "" if n == 5 else f"<urn:x:{n}> <urn:p> <urn:o> , <urn:x:0> .\n"
        (data / f"E{n:02d}.ttl").write_text(text, encoding="utf-8")
    (data / "E99.ttl").write_text("<urn:x:1> <urn:p> <urn:o> .\n", encoding="utf-8")
    lines = FolderSource(tmp_path).statement_lines(("data",))
    written = [n for n in range(12) if n != 5]
    expected = Counter(f"<urn:x:{n}> <urn:p> <urn:o>" for n in written)
    expected += Counter(f"<urn:x:{n}> <urn:p> <urn:x:0>" for n in written)
    expected["<urn:x:1> <urn:p> <urn:o>"] += 1  # E99's, a triple E01 writes too
    assert Counter(lines) == expected


def _error(root: Path, name: str, content: bytes) -> AnthologyError:
    (root / "data" / name).write_bytes(content)
    with pytest.raises(AnthologyError) as raised:
        build_export(FolderSource(root))
    return raised.value


def test_a_file_that_does_not_parse_is_named_with_its_line(bundled_copy):
    error = _error(bundled_copy, "ZZ-BROKEN.ttl", b"<urn:a> <urn:b> <urn:c> .\n<urn:a> <urn:b> .\n")
    assert Path(str(error.path)).name == "ZZ-BROKEN.ttl" and error.line == 2


def test_bytes_that_are_not_utf8_are_refused_even_in_a_comment(bundled_copy):
    # pyoxigraph's parser skips a comment's bytes unchecked: the export still refuses
    # the file, as every loader does.
    error = _error(bundled_copy, "ZZ-LATIN1.ttl", b"# caf\xe9\n<urn:a> <urn:b> <urn:c> .\n")
    assert "not UTF-8 text" in str(error)
    assert Path(str(error.path)).name == "ZZ-LATIN1.ttl" and error.line == 1
