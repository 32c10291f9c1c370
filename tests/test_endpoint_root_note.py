"""Where no anthology is found, a command reading a store's data says what it reads of
the bundled one: ``validate --endpoint`` validated the store against the bundled rules
and said 'the bundled sample anthology is read' (it reads none of its data), as did
``query --endpoint`` (which reads its stored queries) and ``sparql --endpoint`` (which
reads nothing of it). The store here answers nothing: the note comes before the request."""

from __future__ import annotations

import pytest
from conftest import run_cli
from test_server import OXIGRAPH, running_oxigraph

from anthology_kg.resources import bundled_dir

NOWHERE = "http://127.0.0.1:9/sparql"  # the discard port: nothing listens
REFUSED = f"anthology-kg: POST {NOWHERE}: cannot connect ([Errno 111] Connection refused)\n"
RULES = (
    "anthology-kg: no data/ folder here or above: the store's data is validated against "
    "the bundled rules (the ontology and shapes anthology-kg comes with){}; --root DIR adds "
    "an anthology's own shapes and waivers\n"
)
QUERIES = (
    "anthology-kg: no data/ folder here or above: the store's data is queried with the "
    "bundled stored queries; --root DIR adds an anthology's own\n"
)


@pytest.fixture
def nowhere(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("fmt", ["text", "sarif"])
def test_validate_of_a_store_names_the_rules_it_validates_against(nowhere, fmt):
    result = run_cli("validate", "--endpoint", NOWHERE, "--format", fmt)
    assert (result.exit_code, result.stderr) == (2, RULES.format("") + REFUSED)


def test_the_shapes_added_are_named_too(nowhere):
    shapes = nowhere / "own.ttl"
    shapes.write_text("", encoding="utf-8")
    result = run_cli("validate", "--endpoint", NOWHERE, "--shapes", str(shapes))
    assert (result.exit_code, result.stderr) == (
        2,
        RULES.format(" and those of --shapes") + REFUSED,
    )


def test_query_of_a_store_names_the_stored_queries_and_sparql_says_nothing(nowhere):
    result = run_cli("query", "unread", "--endpoint", NOWHERE)
    assert (result.exit_code, result.stderr) == (2, QUERIES + REFUSED)
    result = run_cli("sparql", "-", "--endpoint", NOWHERE, input="ASK {}")
    assert (result.exit_code, result.stderr) == (2, REFUSED)


def test_no_note_with_quiet_or_where_an_anthology_is_named(nowhere):
    assert run_cli("-q", "validate", "--endpoint", NOWHERE).stderr == REFUSED
    named = run_cli("--root", str(bundled_dir()), "validate", "--endpoint", NOWHERE)
    assert named.stderr == REFUSED


@pytest.mark.skipif(OXIGRAPH is None, reason="the oxigraph server binary is not installed")
def test_a_store_validated_from_no_anthology_says_so_beside_its_report(nowhere):
    with running_oxigraph() as base:
        published = run_cli("--root", str(bundled_dir()), "publish", "--endpoint", f"{base}/store")
        assert published.exit_code == 0, published.stderr
        result = run_cli("validate", "--endpoint", f"{base}/query")
    assert (result.exit_code, result.stderr) == (0, RULES.format(""))
    assert result.stdout.splitlines()[-1].startswith("conforms: 0 violation(s)")


def test_root_help_says_what_a_store_command_reads():
    text = " ".join(run_cli("--help").stdout.split())
    assert (
        "validate --endpoint and query --endpoint read the store's data with the bundled "
        "rules and stored queries, and say so)" in text
    ), text
