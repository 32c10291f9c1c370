"""The help says what the commands do (hunt22): ``anthology-kg --help`` gives each
command a whole sentence (13 of 17 were cut mid-sentence, "check  Load and validate the
anthology; print each result and a..."); --root says which commands refuse where no
anthology is found; ``new --title`` names the property each kind gets; a global option
given after the command is shown before it without a value it does not take."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from conftest import run_cli
from rdflib import RDFS, Graph, Literal, URIRef
from rdflib.namespace import DCTERMS

from anthology_kg.cli import main
from anthology_kg.namespaces import DEFAULT_BASE


def test_every_command_summary_is_a_whole_sentence_at_80_columns():
    result = CliRunner().invoke(main, ["--help"], prog_name="anthology-kg", terminal_width=80)
    listed = result.stdout.split("Commands:\n")[1].splitlines()
    assert [line.split()[0] for line in listed] == sorted(main.commands)
    for line in listed:
        assert line.endswith(".") and not line.endswith("..."), line
        assert len(line) <= 80, line


def test_root_help_names_the_commands_that_refuse():
    text = " ".join(run_cli("--help").stdout.split())
    assert (
        "where none does, check, validate, fmt, new and publish refuse, exit 2, diff compares "
        "the working directory's states, and the other commands read the bundled sample "
        "anthology and say so" in text
    ), text


@pytest.mark.parametrize(
    ("kind", "identifier", "predicate"),
    [
        ("reference", "ARXIV-2501.00001", DCTERMS.title),
        ("lit", "LIT-900", RDFS.label),
        ("adr", "ADR-900", RDFS.label),
        ("sota", "SOTA-900", RDFS.label),
        ("note", "NOTE-900", RDFS.label),
    ],
)
def test_new_title_is_written_as_its_help_says(bundled_copy, kind, identifier, predicate):
    help_text = " ".join(run_cli("new", "--help").stdout.split())
    assert (
        "The entry's title: dcterms:title of a reference (the work's title), rdfs:label of a "
        "lit, adr, sota or note entry; one line, not empty." in help_text
    ), help_text
    result = run_cli("--root", str(bundled_copy), "new", kind, identifier, "--title", "T")
    assert result.exit_code == 0, result.stderr
    graph = Graph().parse(bundled_copy / "data" / f"{identifier}.ttl")
    entry = URIRef(DEFAULT_BASE + identifier)
    assert set(graph.predicate_objects(entry)) >= {(predicate, Literal("T"))}
    other = RDFS.label if predicate == DCTERMS.title else DCTERMS.title
    assert (entry, other, None) not in graph


@pytest.mark.parametrize(
    ("args", "hint"),
    [
        (["query", "unread", "-v"], "(anthology-kg -v query …)."),
        (["query", "unread", "--verbose"], "(anthology-kg --verbose query …)."),
        (["check", "--root", "x"], "(anthology-kg --root … check …)."),
    ],
)
def test_a_global_option_after_the_command_is_shown_as_it_is_given(args, hint):
    result = CliRunner().invoke(main, args, prog_name="anthology-kg")
    assert result.exit_code == 2
    assert f"give it before the command {hint}" in result.stderr, result.stderr
