"""SARIF locations (hunt2 F6): the run says its columns count code points, as the text
report's do, and each artifactLocation.uri is a URI reference naming the file (its name
percent-encoded: a space, ``%``, ``:`` or a letter beyond ASCII)."""

from __future__ import annotations

import json
import re
import shutil
from urllib.parse import unquote

from conftest import run_cli

from anthology_kg.resources import bundled_dir

ENTRY = (
    "@prefix ak: <https://w3id.org/anthology-kg/ns#> .\n"
    "@prefix dcterms: <http://purl.org/dc/terms/> .\n"
    '<https://w3id.org/anthology-kg/id/{id}> a ak:LiteratureRecord ; dcterms:title "😀😀😀😀" ; '
    'dcterms:identifier "{id}" ; ak:category ak:bogus .\n'
)
NAMES = {"LIT-901": "LIT 9ä.ttl", "LIT-902": "we,ird:na%me=1::x.ttl"}
# RFC 3986: what a relative reference's path may hold (no space, a "%" only in an escape).
URI_PATH = re.compile(r"(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/]|%[0-9A-F]{2})*")


def test_sarif_columns_are_code_points_and_uris_are_uri_references(tmp_path, monkeypatch):
    root = tmp_path / "anthology"
    shutil.copytree(bundled_dir() / "data", root / "data")
    for identifier, name in NAMES.items():
        (root / "data" / name).write_text(ENTRY.format(id=identifier), "utf-8")
    monkeypatch.chdir(root)
    text = run_cli("validate")
    sarif = run_cli("validate", "--format", "sarif")
    assert sarif.exit_code == text.exit_code == 1, sarif.output
    [run] = json.loads(sarif.stdout)["runs"]
    assert run["columnKind"] == "unicodeCodePoints"
    located = {}
    for result in run["results"]:
        [place] = result["locations"]
        uri = place["physicalLocation"]["artifactLocation"]["uri"]
        assert URI_PATH.fullmatch(uri), uri
        region = place["physicalLocation"]["region"]
        located[(unquote(uri), region["startLine"], region["startColumn"])] = result["ruleId"]
    for identifier, name in NAMES.items():
        line = ENTRY.format(id=identifier).splitlines()[2]
        column = line.index("ak:category") + 1  # in code points: each 😀 is one
        assert (f"data/{name}", 3, column) in located
        assert f"data/{name}:3:{column}: " in text.stdout
    assert {"data/LIT%209%C3%A4.ttl", "data/we%2Cird%3Ana%25me%3D1%3A%3Ax.ttl"} <= {
        place["physicalLocation"]["artifactLocation"]["uri"]
        for result in run["results"]
        for place in result["locations"]
    }
