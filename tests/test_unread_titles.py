"""unread lists an entry once, whatever number of titles it has (hunt19 #6: a title in
two languages was two rows, two unread entries to a count of the CSV's lines). Its
title is the one with no language tag, else an English one, else the first by tag and
text, on both engines."""

from __future__ import annotations

import json

import pytest
from conftest import run_cli

ENTRY = "ARXIV-2409.19256"  # the bundled anthology's one unread entry


@pytest.mark.parametrize("engine", ["fast", "reference"])
@pytest.mark.parametrize(
    ("titles", "title"),
    [
        (
            '"HybridFlow: A Flexible and Efficient RLHF Framework"@en, "HybridFlow"@de',
            ("HybridFlow: A Flexible and Efficient RLHF Framework", "en"),
        ),
        ('"HybridFlow"@de, "Hybrid"@en, "HybridFlow"', ("HybridFlow", None)),
        ('"Zeta"@de, "Alpha"@fr, "Alpha"@de', ("Alpha", "de")),  # the tag, then the text
        ('"B"@en-gb, "C"@en, "A"@fr', ("C", "en")),
    ],
)
def test_an_entry_with_several_titles_is_one_row(anthology, engine, titles, title):
    with (anthology / "data" / f"{ENTRY}.ttl").open("a", encoding="utf-8") as file:
        file.write(f"\nid:{ENTRY} dcterms:title {titles} .\n")
    result = run_cli("query", "unread", "--engine", engine, "--format", "json")
    assert result.exit_code == 0, result.output
    (row,) = json.loads(result.stdout)["results"]["bindings"]
    assert row["entry"]["value"].endswith(f"/{ENTRY}")
    assert (row["title"]["value"], row["title"].get("xml:lang")) == title
