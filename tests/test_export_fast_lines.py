"""The export's lines read straight from an anthology folder (FolderSource.statement_lines):
the triples ``quads`` gives, serialized file by file as they are parsed, with the same
checks and messages."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from anthology_kg import export_files
from anthology_kg.errors import AnthologyError
from anthology_kg.export import Export, build_export
from anthology_kg.export_files import FolderSource
from anthology_kg.export_writers import to_turtle
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
    monkeypatch.setattr(export_files, "_FILES_AT_A_TIME", 4)
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


#: A file of each fault the reading of a file finds, with what its error says.
FAULTS = {
    "parse": (b"<urn:a> <urn:b> <urn:c> .\n<urn:a> <urn:b> .\n", "Turtle syntax error"),
    "utf8": (b"# caf\xe9\n<urn:a> <urn:b> <urn:c> .\n", "not UTF-8 text"),
    "triple term": (b"<urn:a> <urn:b> <<( <urn:c> <urn:d> <urn:e> )>> .\n", "triple terms"),
    "unreadable": (None, "cannot read"),  # a folder named as a data file
}


def _write_fault(data: Path, name: str, fault: str) -> None:
    content = FAULTS[fault][0]
    if content is None:
        (data / name).mkdir()
    else:
        (data / name).write_bytes(content)


@pytest.mark.parametrize("batch", [64, 2])
@pytest.mark.parametrize("later", list(FAULTS))
@pytest.mark.parametrize("first", list(FAULTS))
def test_of_two_faulty_files_the_first_is_reported(tmp_path, monkeypatch, first, later, batch):
    # The files of a batch are read before they are checked and parsed: the errors
    # still come file by file, whichever kinds they are and wherever a batch ends.
    monkeypatch.setattr(export_files, "_FILES_AT_A_TIME", batch)
    data = tmp_path / "data"
    data.mkdir()
    (data / "A.ttl").write_bytes(b"<urn:x> <urn:p> <http://e.org/~a> .\n")  # a mark, no term
    _write_fault(data, "B.ttl", first)
    _write_fault(data, "C.ttl", later)
    with pytest.raises(AnthologyError) as raised:
        FolderSource(tmp_path).statement_lines(("data",))
    assert Path(str(raised.value.path)).name == "B.ttl"
    assert FAULTS[first][1] in str(raised.value)


def test_a_mark_of_a_triple_term_that_is_none_is_read(tmp_path):
    # "~" and "<<" in an IRI and a string: the batch's files are checked one by one,
    # and none holds a triple term.
    data = tmp_path / "data"
    data.mkdir()
    (data / "A.ttl").write_bytes(b'<urn:x> <urn:p> <http://e.org/~a>, "<< {| ~" .\n')
    (data / "B.ttl").write_bytes(b"<urn:y> <urn:p> <urn:o> .\n")
    lines = FolderSource(tmp_path).statement_lines(("data",))
    assert sorted(lines) == [
        '<urn:x> <urn:p> "<< {| ~"',
        "<urn:x> <urn:p> <http://e.org/~a>",
        "<urn:y> <urn:p> <urn:o>",
    ]


def test_a_batch_ends_at_the_file_that_brings_it_to_its_bytes(tmp_path, monkeypatch):
    # A batch holds its files' bytes, their joined copy and its decoded text at once:
    # large files make small batches, and every file still comes, in order.
    monkeypatch.setattr(export_files, "_BYTES_AT_A_TIME", 60)
    batches: list[list[str]] = []
    group_lines = export_files._group_lines

    def spy(batch, base, unread):
        batches.append([Path(path).name for path, _ in batch])
        return group_lines(batch, base, unread)

    monkeypatch.setattr(export_files, "_group_lines", spy)
    data = tmp_path / "data"
    data.mkdir()
    sizes = {"A": 1, "B": 2, "C": 1, "D": 1, "E": 3}  # statements of 26 bytes each
    for name, count in sizes.items():
        text = "".join(f"<urn:{name}> <urn:p> <urn:{n}> .\n" for n in range(count))
        (data / f"{name}.ttl").write_text(text, encoding="utf-8")
    lines = FolderSource(tmp_path).statement_lines(("data",))
    assert batches == [["A.ttl", "B.ttl"], ["C.ttl", "D.ttl", "E.ttl"]]
    assert len(lines) == sum(sizes.values())
