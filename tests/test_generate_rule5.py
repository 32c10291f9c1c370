"""A generated anthology breaks only the rules it plants: a literature record marked read
always has its note (rule 5), the last entry of the budget too (hunt5 #4: the record took
the last place and its note was never written, an unplanted violation)."""

from __future__ import annotations

import pytest

from anthology_kg.engine import open_engine
from anthology_kg.generate import generate
from anthology_kg.validation import validate

# Sizes and seeds whose last entry was a literature record marked read (of 20-160 x 0-2).
LAST_ENTRY_READ = [(26, 1), (38, 0), (44, 2), (100, 2)]


@pytest.mark.parametrize("entries, seed", LAST_ENTRY_READ)
def test_every_record_marked_read_has_its_note(tmp_path, entries, seed):
    generate(entries, seed, tmp_path / "g")
    texts = {p.name: p.read_text("utf-8") for p in (tmp_path / "g" / "data").glob("*.ttl")}
    read = {
        name.removesuffix(".ttl")
        for name, text in texts.items()
        if name.startswith("LIT-") and "ak:readingStatus ak:read" in text
    }
    assert read
    noted = {lit for text in texts.values() for lit in _noted(text)}
    assert read <= noted, sorted(read - noted)


def _noted(text: str) -> list[str]:
    return [line.split("id:")[1].strip(" ;.") for line in text.splitlines() if "ak:noteOn" in line]


def test_the_reported_case_conforms(tmp_path):
    generate(100, 2, tmp_path / "g")
    report = validate(open_engine("fast", root=tmp_path / "g"))
    assert report.conforms, [r.message for r in report.results if r.severity != "Info"]
