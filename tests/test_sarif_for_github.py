"""SARIF and workflow commands as GitHub reads them (hunt7 #5, #6, #13): every SARIF
result has a location (GitHub's code scanning refuses the whole file otherwise), a
result the baseline had and the files no longer have is left out of SARIF (GitHub reads
no ``baselineState``), and files are named from the top of the git work tree."""

from __future__ import annotations

import json
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import FIXTURES, run_cli

from anthology_kg.fast import load_fast
from anthology_kg.reports import sarif_report
from anthology_kg.rules import WAIVER_SHAPE
from anthology_kg.validation import validate

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

NOWHERE_SHAPE = """@prefix sh: <http://www.w3.org/ns/shacl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
<urn:x:Nowhere> a sh:NodeShape ; sh:targetNode <urn:x:nothing> ;
    sh:property [ sh:path rdfs:label ; sh:minCount 1 ] .
"""

EXPIRED_WAIVER = """@prefix ak: <https://w3id.org/anthology-kg/ns#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
<waiver/old> a ak:Waiver ; ak:waives <LIT-001> ; ak:rule "AK001" ;
    rdfs:comment "old" ; ak:expires "2020-01-01"^^xsd:date .
"""


def repository(top: Path, anthology: str) -> Path:
    """A git work tree at ``top`` holding the minimal fixture at ``top/anthology``."""
    subprocess.run(["git", "init", "-q", str(top)], check=True)
    root = top / anthology
    shutil.copytree(FIXTURES / "minimal", root, dirs_exist_ok=True)
    return root


def locations(sarif: str) -> list[dict]:
    """The one location of each result (a result has exactly one)."""
    return [result["locations"][0] for result in json.loads(sarif)["runs"][0]["results"]]


def test_a_result_no_line_of_a_file_holds_is_located_at_the_data_folder(tmp_path, monkeypatch):
    root = repository(tmp_path, ".")
    (root / "ontology" / "shapes").mkdir(parents=True)
    (root / "ontology" / "shapes" / "mine.ttl").write_text(NOWHERE_SHAPE, encoding="utf-8")
    (root / "waivers.ttl").write_text(EXPIRED_WAIVER, encoding="utf-8")
    monkeypatch.chdir(root)
    report = validate(load_fast(root))
    # A waiver the validation could not place (a blank node): the writer falls back too.
    report.results = [
        replace(r, file=None, line=None, column=None) if r.shape == WAIVER_SHAPE else r
        for r in report.results
    ]
    assert [r.file for r in report.results if r.shape == "urn:x:Nowhere"] == [None]
    placed = {
        (
            place["physicalLocation"]["artifactLocation"]["uri"],
            "region" in place["physicalLocation"],
            "message" in place,
        )
        for place in locations(sarif_report(report))
    }
    assert placed == {
        ("data/", False, True),  # urn:x:Nowhere's
        ("waivers.ttl", True, True),  # at its line 1: GitHub requires a file's startLine
        ("data/LIT-001.ttl", True, False),  # rule 1's
    }
    # Outside a work tree, named as the files are: from the working directory.
    shutil.rmtree(root / ".git")
    uris = {
        place["physicalLocation"]["artifactLocation"]["uri"]
        for place in locations(sarif_report(report))
    }
    assert uris == {"data/", "waivers.ttl", "data/LIT-001.ttl"}


def test_a_fixed_result_is_left_out_of_sarif_and_kept_in_json(tmp_path, monkeypatch):
    old = repository(tmp_path, "old")
    new = tmp_path / "new"
    shutil.copytree(old, new)
    entry = new / "data" / "LIT-001.ttl"
    entry.write_text(
        entry.read_text("utf-8").replace("ak:method", "ak:evaluation"), encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    args = ("--root", "new", "validate", "--baseline", "old")
    sarif = run_cli(*args, "--format", "sarif")
    assert sarif.exit_code == 1, sarif.output
    [result] = json.loads(sarif.stdout)["runs"][0]["results"]
    assert (result["baselineState"], result["properties"]["value"]) == ("new", "ak:evaluation")
    states = [
        r["baselineState"] for r in json.loads(run_cli(*args, "--format", "json").stdout)["results"]
    ]
    assert sorted(states) == ["absent", "new"]


def test_files_are_named_from_the_top_of_the_work_tree(tmp_path, monkeypatch):
    root = repository(tmp_path, "sub/anthology")
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    args = ("--root", "../sub/anthology", "validate")
    sarif = run_cli(*args, "--format", "sarif")
    [place] = locations(sarif.stdout)
    assert place["physicalLocation"]["artifactLocation"]["uri"] == "sub/anthology/data/LIT-001.ttl"
    github = run_cli(*args, "--format", "github")
    assert github.stdout.startswith("::error file=sub/anthology/data/LIT-001.ttl,line=7,")
    # A data file that is a symbolic link: named as its target (GitHub shows no result
    # in a file it reaches through a link).
    (tmp_path / "real").mkdir()
    entry = root / "data" / "LIT-001.ttl"
    entry.rename(tmp_path / "real" / "LIT-001.ttl")
    entry.symlink_to("../../../real/LIT-001.ttl")
    linked = run_cli(*args, "--format", "github")
    assert linked.stdout.startswith("::error file=real/LIT-001.ttl,line=7,")
    (tmp_path / "real" / "LIT-001.ttl").replace(entry)
    # Text keeps naming it as before (from the working directory when under it).
    shown = f"{(root / 'data' / 'LIT-001.ttl').as_posix()}:7:5: AK001 "
    assert run_cli(*args).stdout.startswith(shown)
    # Outside a work tree, SARIF names it as text does.
    shutil.rmtree(tmp_path / ".git")
    [place] = locations(run_cli(*args, "--format", "sarif").stdout)
    assert place["physicalLocation"]["artifactLocation"]["uri"] == shown.split(":")[0]


def test_a_result_of_a_file_without_a_line_is_shown_at_its_first_line(tmp_path, monkeypatch):
    """A result that names its file but no line (a library's own results; the writer
    takes any) is located at the file's line 1, which GitHub's code scanning requires
    (region.startLine), with a message saying so."""
    root = repository(tmp_path, ".")
    monkeypatch.chdir(root)
    report = validate(load_fast(root))
    report.results = [replace(r, line=None, column=None) for r in report.results]
    [place] = locations(sarif_report(report))
    assert place == {
        "physicalLocation": {
            "artifactLocation": {"uri": "data/LIT-001.ttl"},
            "region": {"startLine": 1},
        },
        "message": {"text": "no line of the file holds this result: shown at line 1"},
    }


def test_an_input_error_of_a_whole_file_is_placed_at_its_first_line(tmp_path, monkeypatch):
    """An input error that names a file and no line (a configuration file that cannot
    be read) is placed at the file's line 1 too."""
    from anthology_kg.errors import AnthologyError
    from anthology_kg.reports import sarif_error

    monkeypatch.chdir(tmp_path)
    (tmp_path / "anthology-kg.toml").write_bytes(b"\xff")
    error = AnthologyError("cannot read the configuration", tmp_path / "anthology-kg.toml")
    [invocation] = json.loads(sarif_error(error))["runs"][0]["invocations"]
    [notification] = invocation["toolExecutionNotifications"]
    assert notification["locations"] == [
        {
            "physicalLocation": {
                "artifactLocation": {"uri": "anthology-kg.toml"},
                "region": {"startLine": 1},
            }
        }
    ]
