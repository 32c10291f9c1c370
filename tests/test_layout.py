"""The layout rule's text scan, done by the loaders as they read each data file once."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from anthology_kg import sources
from anthology_kg.engine import ENGINES, open_engine
from anthology_kg.layout import _IDENTIFIER_TEXT, anthology_layout_warnings, written_identifiers
from anthology_kg.namespaces import DEFAULT_BASE


def _misfiled(root: Path) -> Path:
    """The bundled data with a misnamed file and an entry described in two files."""
    data = root / "data"
    shutil.copy(data / "SOTA-154.ttl", data / "sota.ttl")
    (data / "LIT-168.ttl").rename(data / "lit-168.ttl")
    return root


@pytest.mark.parametrize("engine", ENGINES)
def test_the_loaders_scan_gives_the_warnings_of_a_scan_of_its_own(bundled_copy, engine):
    root = _misfiled(bundled_copy)
    expected = anthology_layout_warnings(root, DEFAULT_BASE)
    assert len(expected) == 3, expected
    scanned = open_engine(engine, root=root, layout=True)
    assert scanned.layout_warnings() == expected
    assert open_engine(engine, root=root).layout_warnings() == expected


def test_the_fast_loader_reads_each_data_file_once_for_the_layout_rule(bundled_copy, monkeypatch):
    root = _misfiled(bundled_copy)
    reads: list[str] = []
    read_source = sources.read_source

    def counted(path, **options):
        if Path(path).parent == root / "data":
            reads.append(Path(path).name)
        return read_source(path, **options)

    for module in ("anthology_kg.sources", "anthology_kg.fast", "anthology_kg.layout"):
        monkeypatch.setattr(f"{module}.read_source", counted)
    engine = open_engine("fast", root=root, layout=True)
    files = sorted(p.name for p in (root / "data").glob("*.ttl"))
    assert sorted(reads) == files
    reads.clear()
    assert len(engine.layout_warnings()) == 3
    # Only the suspects are parsed again: the misnamed file, and the two of SOTA-154.
    assert sorted(set(reads)) == ["SOTA-154.ttl", "lit-168.ttl", "sota.ttl"]


_PIECES = st.sampled_from(
    [
        "dcterms:identifier",
        "<http://purl.org/dc/terms/identifier>",
        " ",
        "\n",
        '"',
        '"A-1"',
        '"B-2" ',
        "\\",
        "x",
        ";",
    ]
)


@given(st.lists(_PIECES, max_size=14).map("".join))
def test_the_quick_identifier_search_finds_what_the_full_pattern_finds(text):
    assert written_identifiers(text) == set(_IDENTIFIER_TEXT.findall(text))


_IDENTIFIER_CHARS = st.text(st.sampled_from(list("AZaz09-._ \"\\'#é\t")), min_size=1, max_size=8)


def _turtle_string(value: str) -> str:
    escaped = value.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t")
    return f'"{escaped}"'


@given(st.lists(_IDENTIFIER_CHARS, min_size=1, max_size=3))
def test_the_identifier_search_finds_what_the_parser_reads_and_never_more(identifiers):
    """The layout rule's text search is the one definition both the layout scan and the
    fast engine's location lookup use: on valid Turtle it finds each identifier written
    without escapes, and never a value the parser does not read."""
    lines = ["@prefix dcterms: <http://purl.org/dc/terms/> ."]
    for number, identifier in enumerate(identifiers):
        lines.append(f"<urn:x:e{number}> dcterms:identifier {_turtle_string(identifier)} .")
    text = "\n".join(lines) + "\n"
    parsed = {
        quad.object.value
        for quad in sources.parse_quads(text, None, DEFAULT_BASE)
        if quad.predicate.value == "http://purl.org/dc/terms/identifier"
    }
    found = written_identifiers(text)
    assert found <= parsed
    assert found >= {i for i in identifiers if _turtle_string(i) == f'"{i}"'}


def test_no_module_keeps_an_identifier_search_of_its_own():
    """fast.py once kept its own copy of the pattern, slightly different; the layout
    rule's ``written_identifiers`` is now the only one (a copy would drift again)."""
    package = Path(sources.__file__).parent
    pattern = "dcterms:identifier|<http"
    holders = sorted(p.name for p in package.rglob("*.py") if pattern in p.read_text("utf-8"))
    assert holders == ["layout.py"]
