"""diff --query shows data text as the query table does: control characters and line
breaks escaped, one row a line (fixes2 left it alone: a newline became a space, ESC went
to the terminal or the CI log raw)."""

from __future__ import annotations

import shutil

import pytest
import test_diff
from conftest import run_cli

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
repo = test_diff.repo


def test_a_row_of_diff_query_shows_control_characters_escaped(repo):
    (repo / "queries").mkdir()
    (repo / "queries" / "labels.rq").write_text(
        "#+ summary: the labels\n"
        "SELECT ?label WHERE { ?s <http://www.w3.org/2000/01/rdf-schema#label> ?label }\n",
        encoding="utf-8",
    )
    test_diff.commit_all(repo, "a query of our own")
    note = repo / "data" / "NOTE-777.ttl"
    note.write_text(
        "<https://w3id.org/anthology-kg/id/NOTE-777> "
        '<http://www.w3.org/2000/01/rdf-schema#label> "red\\u001b[31m\\n::error::x" .\n',
        encoding="utf-8",
    )
    result = run_cli("diff", "--query", "labels")
    assert result.exit_code == 1, result.output
    assert "\x1b" not in result.stdout
    (row,) = [line for line in result.stdout.splitlines() if line.startswith("+")]
    assert row.split(None, 1)[1] == "red\\x1b[31m\\n::error::x"
