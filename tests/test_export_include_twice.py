"""A part named twice in ``export --include`` is read once (hunt1 F15): each reading of a
part mints its own blank nodes, so ``data,data`` wrote every takeaway, figure and
admission twice (146 -> 203 N-Triples lines on the bundled anthology): another graph."""

from __future__ import annotations

import pytest
from conftest import run_cli

from anthology_kg.export import build_export, parse_include
from anthology_kg.export_files import FolderSource
from anthology_kg.export_writers import export_bytes
from anthology_kg.resources import bundled_dir


def _exported(include: str, *args: str) -> bytes:
    result = run_cli("export", "--format", "ntriples", "--include", include, *args)
    assert result.exit_code == 0, result.stderr
    return result.stdout_bytes


@pytest.mark.parametrize("part", ["data", "ontology"])
def test_a_part_named_twice_is_exported_once(part):
    once = _exported(part)
    assert b"_:" in once  # blank nodes: a second reading would add a copy of each
    assert _exported(f"{part},{part}") == once
    assert _exported(f" {part} ,ontology,{part}") == _exported(f"{part},ontology")


def test_a_part_named_twice_with_inference_is_exported_once():
    assert _exported("data,data", "--inferred", "rdfs") == _exported("data", "--inferred", "rdfs")


def test_parse_include_keeps_the_first_of_each_part():
    assert parse_include("shapes,data,shapes,data") == ("shapes", "data")


def test_build_export_reads_a_part_named_twice_once():
    source = FolderSource(bundled_dir())
    twice = build_export(source, ("data", "data"))
    once = build_export(source, ("data",))
    assert b"".join(export_bytes(twice, "ntriples")) == b"".join(export_bytes(once, "ntriples"))
