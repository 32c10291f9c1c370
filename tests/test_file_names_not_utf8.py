"""A data file whose name is not UTF-8 (hunt1 F20) is named in every output as the text
report names it, escaped (``data/bad\\udcff.ttl``: layout.printable), and every output is
UTF-8: no UnicodeEncodeError traceback (validate --format json and sarif, diff --format
json, site), no raw byte 0xFF (stats)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from conftest import run_cli

from anthology_kg.resources import bundled_dir

NAME = os.fsdecode(b"bad\xff.ttl")
SHOWN = "bad\\udcff.ttl"  # as the text report shows it
ENTRY = "@prefix ak: <https://w3id.org/anthology-kg/ns#> .\n<LIT-777> a ak:LiteratureRecord .\n"


@pytest.fixture
def anthology(tmp_path, monkeypatch) -> Path:
    """The bundled data and a file named ``bad<0xFF>.ttl``, the working directory."""
    root = tmp_path / "anthology"
    shutil.copytree(bundled_dir() / "data", root / "data")
    try:
        (root / "data" / NAME).write_text(ENTRY, "utf-8")
    except (OSError, UnicodeEncodeError):
        pytest.skip("this file system takes only UTF-8 names")
    monkeypatch.chdir(root)
    return root


def utf8(data: bytes) -> str:
    return data.decode("utf-8")  # raises on a byte that is not UTF-8


def test_the_text_report_names_the_file_escaped(anthology):
    result = run_cli("validate")
    assert result.exit_code == 1
    assert f"data/{SHOWN}:2:1: " in utf8(result.stdout_bytes)


def test_validate_json_names_the_file_as_the_text_report_does(anthology):
    result = run_cli("validate", "--format", "json")
    assert result.exit_code == 1, result.output
    files = {r["file"] for r in json.loads(utf8(result.stdout_bytes))["results"]}
    assert f"data/{SHOWN}" in files


def test_validate_sarif_written_to_a_file_names_the_file_by_its_bytes(anthology):
    result = run_cli("validate", "-o", "report.sarif")
    assert result.exit_code == 1, result.output
    [run] = json.loads(utf8((anthology / "report.sarif").read_bytes()))["runs"]
    uris = {
        place["physicalLocation"]["artifactLocation"]["uri"]
        for r in run["results"]
        for place in r.get("locations", ())
    }
    assert "data/bad%FF.ttl" in uris


def test_diff_json_names_the_file_as_the_text_diff_does(anthology, tmp_path):
    old = tmp_path / "old"
    shutil.copytree(bundled_dir() / "data", old / "data")
    text = run_cli("diff", str(old), str(anthology))
    assert text.exit_code == 1, text.output
    result = run_cli("diff", str(old), str(anthology), "--format", "json")
    assert result.exit_code == 1, result.output
    document = json.loads(utf8(result.stdout_bytes))
    files = {fact["file"] for e in document["entries"] for fact in e["added"]}
    assert files == {f"data/{SHOWN}"}  # <LIT-777> has no identifier: no entry's file
    assert f"data/{SHOWN}:2" in utf8(text.stdout_bytes)


def test_the_site_names_the_file_escaped(anthology, tmp_path):
    result = run_cli("site", "-o", str(tmp_path / "site"))
    assert result.exit_code == 0, result.output
    rules = utf8((tmp_path / "site" / "rules.html").read_bytes())
    assert f"<code>data/{SHOWN}:2</code>" in rules
    for page in (tmp_path / "site").rglob("*"):
        if page.is_file() and page.suffix in {".html", ".js", ".json", ".svg", ".ttl"}:
            utf8(page.read_bytes())


@pytest.mark.parametrize("fmt", ["json", "text"])
def test_stats_names_the_file_escaped_in_utf8(anthology, fmt):
    result = run_cli("stats", "--format", fmt)
    assert result.exit_code == 0, result.output
    shown = utf8(result.stdout_bytes)
    files = json.loads(shown)["files"] if fmt == "json" else shown.split()
    assert SHOWN in files


def test_the_site_names_a_stored_query_whose_name_is_not_utf8_escaped(anthology, tmp_path):
    (anthology / "queries").mkdir()
    query = "#+ summary: s\nSELECT ?s WHERE { ?s ?p ?o } LIMIT 1\n"
    (anthology / "queries" / os.fsdecode(b"q\xff.rq")).write_text(query, "utf-8")
    assert "q\\udcff\ts" in utf8(run_cli("queries").stdout_bytes)  # as `queries` lists it
    result = run_cli("site", "-o", str(tmp_path / "site"))
    assert result.exit_code == 0, result.output
    listing = utf8((tmp_path / "site" / "queries" / "index.html").read_bytes())
    assert ">q\\udcff</a>" in listing
