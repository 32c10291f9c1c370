"""``-q`` ("Print results only: no summary, no notes") leaves out the summary line of
every command, as check, validate, fmt, site and generate do: ``query`` and ``sparql``
printed ``(1 row)`` under their table, ``diff`` its ``OLD → NEW: …`` line (hunt22)."""

from __future__ import annotations

import shutil

import pytest
from conftest import run_cli
from test_diff import add_arm_without_codebase, change_takeaway, repo  # noqa: F401

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

UNREAD = "SELECT ?entry WHERE { ?entry ak:readingStatus ak:unread }"


def test_quiet_query_and_sparql_print_the_table_without_its_count(bundled_copy, monkeypatch):
    monkeypatch.chdir(bundled_copy)
    loud = run_cli("query", "unread")
    quiet = run_cli("-q", "query", "unread")
    assert loud.stdout.endswith("\n(1 row)\n"), loud.stdout
    assert (quiet.exit_code, quiet.stdout) == (0, loud.stdout.removesuffix("(1 row)\n"))
    text = "PREFIX ak: <https://w3id.org/anthology-kg/ns#>\n" + UNREAD
    loud = run_cli("sparql", "-", input=text)
    quiet = run_cli("-q", "sparql", "-", input=text)
    assert loud.stdout.endswith("\n(1 row)\n"), loud.stdout
    assert (quiet.exit_code, quiet.stdout) == (0, loud.stdout.removesuffix("(1 row)\n"))
    # The W3C formats hold no summary: unchanged by -q.
    csv = run_cli("query", "unread", "--format", "csv").stdout
    assert run_cli("-q", "query", "unread", "--format", "csv").stdout == csv


@needs_git
def test_quiet_diff_prints_the_entries_without_the_summary(repo):  # noqa: F811
    change_takeaway(repo)
    loud = run_cli("diff")
    quiet = run_cli("-q", "diff")
    summary = "HEAD → working tree: 1 changed, 0 added, 0 removed, 0 renamed entries; "
    assert loud.stdout.splitlines()[-1].startswith(summary), loud.stdout
    assert quiet.exit_code == loud.exit_code == 1
    assert quiet.stdout == loud.stdout.rpartition(summary)[0], quiet.stdout
    assert quiet.stdout.startswith("changed ARXIV-2409.19256"), quiet.stdout
    written = repo / "changes.txt"
    assert run_cli("-q", "diff", "-o", str(written)).exit_code == 1
    assert written.read_text(encoding="utf-8") == quiet.stdout
    # Markdown, JSON and the patch are documents, not summaries: unchanged by -q.
    markdown = run_cli("diff", "--format", "markdown").stdout
    assert run_cli("-q", "diff", "--format", "markdown").stdout == markdown


@needs_git
def test_quiet_diff_of_equal_states_prints_nothing(repo):  # noqa: F811
    result = run_cli("-q", "diff")
    assert (result.exit_code, result.stdout, result.stderr) == (0, "", "")
    result = run_cli("-q", "diff", "--query", "confounders")
    assert (result.exit_code, result.stdout, result.stderr) == (0, "", "")


@needs_git
def test_quiet_query_diff_prints_the_rows_without_the_summary(repo):  # noqa: F811
    add_arm_without_codebase(repo)
    loud = run_cli("diff", "--query", "confounders")
    quiet = run_cli("-q", "diff", "--query", "confounders")
    summary = "query confounders, HEAD → working tree: 1 row(s) appeared, 0 disappeared\n"
    assert loud.stdout.endswith(summary), loud.stdout
    assert (quiet.exit_code, quiet.stdout) == (1, loud.stdout.removesuffix(summary))
    assert quiet.stdout.splitlines()[1].startswith("+ COMPARISON-es-baselines"), quiet.stdout
