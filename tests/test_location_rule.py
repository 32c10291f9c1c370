"""Where a result is written, when its entry is described in more than one file: the
entry's own file first, the same on both engines and whatever was located before (the
reference engine took the first file by name, and the Oxigraph engine's answer
depended on which files earlier lookups had read)."""

import pytest
from conftest import run_cli
from rdflib import URIRef

from anthology_kg.engine import ENGINES, open_engine

ENTRY = URIRef("https://w3id.org/anthology-kg/id/LIT-168")
#: Sorted before LIT-168.ttl, it says one more thing of LIT-168, and holds an orphan
#: blank node (no owner: it sends a lookup through every file).
EXTRA = (
    "@prefix ak: <https://w3id.org/anthology-kg/ns#> .\n"
    "@prefix id: <https://w3id.org/anthology-kg/id/> .\n"
    "id:LIT-168 ak:readingStatus ak:unread .\n"
    "[] ak:readingStatus ak:read .\n"
)


@pytest.fixture
def anthology(bundled_copy):
    (bundled_copy / "data" / "AAA-extra.ttl").write_text(EXTRA, encoding="utf-8")
    return bundled_copy


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("orphan_first", [False, True])
def test_an_entry_is_located_in_its_own_file(anthology, engine, orphan_first):
    opened = open_engine(engine, root=anthology)
    if orphan_first:  # a lookup that reads every file, before the entry's own
        assert opened.location(URIRef("https://w3id.org/anthology-kg/id/nowhere")) is None
    where = opened.location(ENTRY)
    assert where is not None and where.path.name == "LIT-168.ttl", where


def test_check_names_the_same_file_and_line_on_both_engines(anthology):
    root = ("--root", str(anthology))
    fast = run_cli(*root, "check", "--fail-on", "info")
    reference = run_cli(*root, "check", "--fail-on", "info", "--engine", "reference")
    assert fast.stdout == reference.stdout
    assert "data/LIT-168.ttl:" in fast.stdout and "AAA-extra.ttl:3" not in fast.stdout


@pytest.mark.parametrize("engine", ENGINES)
def test_an_entry_in_its_own_file_is_located_without_reading_the_others(
    bundled_copy, engine, monkeypatch
):
    """Searching every file's text for the identifier (~0.3 s at 10,000 entries, once)
    is for an entry not in the file its identifier or IRI names."""
    from anthology_kg.entries import EntryIndex

    def every_file(self):
        raise AssertionError("every file's text read")

    monkeypatch.setattr(EntryIndex, "_files_by_identifier", every_file)
    where = open_engine(engine, root=bundled_copy).location(ENTRY)
    assert where is not None and where.path.name == "LIT-168.ttl"


def test_a_node_in_no_entry_is_placed_by_the_nearest_iri_pointing_at_it(bundled_copy):
    """An arm of a comparison with no identifier belongs to no entry: its result was at
    "<graph>", no file or line, though the comparison's statement is written."""
    (bundled_copy / "data" / "LIT-400.ttl").write_text(
        "@prefix ak: <https://w3id.org/anthology-kg/ns#> .\n\n"
        "<X> a ak:Comparison ;\n    ak:arm [ a ak:Arm ] .\n",
        encoding="utf-8",
    )
    root = ("--root", str(bundled_copy))
    fast = run_cli(*root, "check")
    reference = run_cli(*root, "check", "--engine", "reference")
    assert fast.exit_code == reference.exit_code == 1
    assert fast.stdout == reference.stdout
    arm = [line for line in fast.stdout.splitlines() if "an arm of a comparison" in line]
    # At the triple that holds the arm (hunt7 #8; the comparison's line before).
    assert len(arm) == 1 and "data/LIT-400.ttl:4:5: AK010" in arm[0], arm
    assert "<graph>" not in fast.stdout
