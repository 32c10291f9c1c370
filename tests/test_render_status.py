"""render's status line never says other than the graph (hunt19 #7): an entry marked
unread that has a note is refused, as the printed form has no line for it. Its refusals
name the entry by its identifier (#12)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import run_cli

from anthology_kg.resources import bundled_dir

ENTRY = "ARXIV-2409.19256"
NOTE = """@prefix ak: <https://w3id.org/anthology-kg/ns#> .
@prefix dcterms: <http://purl.org/dc/terms/> .
@prefix id: <https://w3id.org/anthology-kg/id/> .

id:NOTE-001 a ak:Note ;
    dcterms:identifier "NOTE-001" {link} .
"""


@pytest.fixture
def anthology(tmp_path: Path, monkeypatch) -> Path:
    """A copy of the bundled anthology's data/ (its ARXIV-2409.19256 unread), the
    working directory."""
    root = tmp_path / "anthology"
    shutil.copytree(bundled_dir() / "data", root / "data")
    assert "ak:readingStatus ak:unread" in (root / "data" / f"{ENTRY}.ttl").read_text("utf-8")
    monkeypatch.chdir(root)
    return root


@pytest.mark.parametrize(
    "link", [f"; ak:noteOn id:{ENTRY}", f". id:{ENTRY} ak:hasNote id:NOTE-001"]
)
def test_an_unread_entry_with_a_note_is_not_printed_unread_with_no_note(anthology, link):
    (anthology / "data" / "NOTE-001.ttl").write_text(NOTE.format(link=link), "utf-8")
    result = run_cli("render", ENTRY, "-o", "record.txt")
    assert (result.exit_code, result.stdout) == (2, ""), result.output
    assert result.stderr == (
        f"anthology-kg: {ENTRY} cannot be printed: it is marked ak:unread but has a note "
        "(NOTE-001; ak:hasNote or ak:noteOn), and its status line 'Unread — no NOTE.' says "
        "it has none\n"
    )
    assert not (anthology / "record.txt").exists()


def test_an_unread_entry_with_no_note_is_printed_unread(anthology):
    (anthology / "data" / "NOTE-001.ttl").write_text(NOTE.format(link=""), "utf-8")
    result = run_cli("render", ENTRY)
    assert result.exit_code == 0, result.output
    assert result.stdout.rstrip("\n").endswith("\nUnread — no NOTE.")


@pytest.mark.parametrize("entry", ["LIT-168", "CODEBASE-verl"])
def test_an_entry_without_its_printed_fields_is_named_by_its_identifier(anthology, entry):
    # (hunt19 #12: this refusal named the entry's whole IRI, the others its identifier)
    result = run_cli("render", entry)
    assert (result.exit_code, result.stdout) == (2, ""), result.output
    assert result.stderr == (
        f"anthology-kg: {entry} cannot be printed: it has no ak:authors, dcterms:issued, "
        "ak:standing, ak:readingStatus\n"
    )
