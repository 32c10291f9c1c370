"""Naming an entry by identifier or IRI: text that is no IRI is "no entry", never a crash."""

from pathlib import Path

import pytest
from conftest import run_cli

from anthology_kg.engine import ENGINES, open_engine
from anthology_kg.errors import AnthologyError
from anthology_kg.queries import Param, StoredQuery, bind_params, find_query

NOT_IRIS = ["http://x/a b", "<https://w3id.org/anthology-kg/id/LIT-168>", "http://x/{a}"]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("text", NOT_IRIS)
def test_text_that_is_no_iri_names_no_entry_on_both_engines(engine, text):
    anthology = open_engine(engine)
    with pytest.raises(AnthologyError, match="no entry"):
        anthology.resolve_entry(text)
    with pytest.raises(AnthologyError, match="parameter 'entry': no entry"):
        bind_params(anthology, find_query(anthology, "depends-on"), {"entry": text})


@pytest.mark.parametrize("engine", ENGINES)
def test_an_entry_is_found_by_its_full_iri(engine):
    anthology = open_engine(engine)
    iri = "https://w3id.org/anthology-kg/id/LIT-168"
    assert str(anthology.resolve_entry(iri)) == iri == str(anthology.resolve_entry("LIT-168"))


@pytest.mark.parametrize(
    "args",
    [
        ("query", "depends-on", "--param", "entry=http://x/a b"),
        ("--engine", "reference", "query", "depends-on", "--param", "entry=http://x/a b"),
        ("render", "http://x/a b"),
    ],
    ids=["query", "query-reference", "render"],
)
def test_the_cli_says_no_entry_with_exit_2(args):
    if args[0] == "--engine":  # the engine is an option of the command
        args = (*args[2:], *args[:2])
    result = run_cli(*args)
    assert result.exit_code == 2, (result.exit_code, result.output)
    assert "Traceback" not in result.stderr
    assert "no entry 'http://x/a b' in the anthology" in result.stderr


@pytest.mark.parametrize("value", ["http://x/%zz", "http://x/a b", "http://x/<a>", "LIT-168"])
def test_an_iri_parameter_refuses_text_that_is_no_iri(value):
    """The ``iri`` type checks an IRI as pyoxigraph reads one: a bad percent escape passed
    the old blacklist of characters and crashed when bound."""
    query = StoredQuery(
        name="q",
        path=Path("q.rq"),
        summary="",
        description="",
        params=(Param(name="target", meaning="", type="iri"),),
        text="SELECT ?target WHERE {}",
    )
    with pytest.raises(AnthologyError, match="parameter 'target': .* is not an absolute IRI"):
        bind_params(open_engine(), query, {"target": value})
    bound = bind_params(open_engine(), query, {"target": "urn:x:é"})
    assert str(bound["target"]) == "urn:x:é"


def test_an_identifier_longer_than_a_file_name_is_reported_alike_on_both_engines(tmp_path):
    """The fast engine looks for an entry's file by its identifier: a name longer than the
    file system allows is no file of the data (it raised ENAMETOOLONG, exit 1 with a
    traceback, and the site blamed its output folder)."""
    identifier = "LIT-" + "1" * 300
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "LIT-001.ttl").write_text(
        "@prefix ak: <https://w3id.org/anthology-kg/ns#> .\n"
        "@prefix dcterms: <http://purl.org/dc/terms/> .\n"
        f'<LIT-001> a ak:LiteratureRecord ; dcterms:identifier "{identifier}" .\n'
    )
    root = ("--root", str(tmp_path))
    fast = run_cli(*root, "check")
    reference = run_cli(*root, "check", "--engine", "reference")
    assert fast.exit_code == reference.exit_code == 1, fast.output
    assert fast.stdout == reference.stdout
    assert "AK008" in fast.stdout and "LIT-001.ttl:3:" in fast.stdout
    site = run_cli(*root, "site", "-o", str(tmp_path / "site"))
    assert site.exit_code == 0, site.output
