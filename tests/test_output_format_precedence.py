"""The format of a command's output: --format on the command line, else the one -o's
extension implies, else the configuration file's [format] (review3 R5: the README's
config example 'validate = "github"' wrote GitHub annotations into anthology.sarif)."""

from __future__ import annotations

import json

from conftest import run_cli


def test_the_extension_of_o_wins_over_the_configuration(bundled_copy, monkeypatch):
    (bundled_copy / "anthology-kg.toml").write_text(
        '[format]\nvalidate = "github"\nexport = "nquads"\n', encoding="utf-8"
    )
    monkeypatch.chdir(bundled_copy)
    assert run_cli("validate", "-o", "a.sarif").exit_code == 0
    assert json.loads((bundled_copy / "a.sarif").read_text(encoding="utf-8"))["runs"]
    assert run_cli("validate", "-o", "a.log").exit_code == 0  # no format of its own
    assert (bundled_copy / "a.log").read_text(encoding="utf-8").startswith("::notice ")
    assert run_cli("validate", "--format", "text", "-o", "b.sarif").exit_code == 0
    assert (bundled_copy / "b.sarif").read_text(encoding="utf-8").startswith("data/")
    assert run_cli("export", "-o", "g.ttl").exit_code == 0
    assert (bundled_copy / "g.ttl").read_text(encoding="utf-8").startswith("@prefix ")
    assert run_cli("export").stdout.startswith("<")  # N-Quads, as configured
