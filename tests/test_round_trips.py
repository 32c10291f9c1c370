"""records.round_trips: each record file printed back from its parse and compared with
the file byte for byte (what `import --check` reports)."""

from __future__ import annotations

import pytest
from conftest import RECORDS

from anthology_kg.records import RoundTrip, read_records, round_trips


def test_the_fixture_records_print_back_byte_for_byte():
    assert list(round_trips(read_records(RECORDS))) == [RoundTrip(p, "") for p in RECORDS]


def test_a_record_that_prints_back_otherwise_has_its_diff(tmp_path):
    # The parser refuses a record it would not print back (an empty Practices section,
    # say); the file is compared as it is when printed back, so one edited since it was
    # parsed differs.
    text = RECORDS[0].read_text("utf-8")
    assert "Standing in the anthology\n" in text
    path = tmp_path / RECORDS[0].name
    path.write_bytes(RECORDS[0].read_bytes())
    kept = tmp_path / "kept.txt"
    kept.write_bytes(RECORDS[1].read_bytes())
    parsed = read_records([path, kept])
    path.write_text(
        text.replace("Standing in the anthology\n", "Practices\nStanding in the anthology\n"),
        encoding="utf-8",
    )
    trips = list(round_trips(parsed))
    assert [t.path for t in trips] == [path, kept]
    assert trips[0].diff.startswith(f"--- {path}\n+++ {path} (printed back)\n")
    assert "\n-Practices\n" in trips[0].diff
    assert trips[1].diff == ""


def test_a_record_not_read_from_a_file_is_refused():
    record = read_records(RECORDS[:1])[0]
    record.path = None
    with pytest.raises(ValueError, match="was not read from a file"):
        list(round_trips([record]))
