"""A stored query's page binds its parameters as the command line does (queries.bind_params):
each spelling of a name (grlc's ``?_x``, ``?_x_en``, ``?_x_integer``, ...) with its own
datatype or language, in a VALUES block at the start of the WHERE clause, not in an
``EXISTS { … }`` of the projection (hunt20 #1). Run in a real browser (Chromium)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import needs_chromium, run_cli
from test_site import run_in_browser

QUERIES = {
    "tallies": """#+ summary: Tallies with at least min citing documents
PREFIX ak: <https://w3id.org/anthology-kg/ns#>
SELECT ?tally ?n WHERE {
  ?tally ak:citingDocuments ?n .
  FILTER(?n >= ?_min_integer)
}
ORDER BY ?tally
""",
    "labelled": """#+ summary: Entries with this label, in English or as plain text
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
SELECT ?e WHERE {
  { ?e rdfs:label ?_label } UNION { ?e rdfs:label ?_label_en }
}
ORDER BY ?e
""",
    "since": """#+ summary: Works issued in or after a year
PREFIX dcterms: <http://purl.org/dc/terms/>
SELECT ?e ?y WHERE {
  ?e dcterms:issued ?y .
  FILTER(?y >= ?_year_xsd_gYear)
}
ORDER BY ?e
""",
    "claims": """#+ summary: The claims an entry makes, and whether each is a reproducibility claim
#+ param: entry — the entry
#+ param-type: entry entry
PREFIX ak: <https://w3id.org/anthology-kg/ns#>
SELECT ?c (EXISTS { ?c a ak:ReproducibilityClaim } AS ?repro)
WHERE { ?_entry_iri ak:makesClaim ?c }
ORDER BY ?c
""",
    # A sub-SELECT sees only what it projects: the command line binds it there too.
    "inner": """#+ summary: An entry's claims, counted in a sub-SELECT
#+ param: entry — the entry
#+ param-type: entry entry
PREFIX ak: <https://w3id.org/anthology-kg/ns#>
SELECT ?n WHERE {
  { SELECT (COUNT(?c) AS ?n) WHERE { ?_entry_iri ak:makesClaim ?c } }
}
""",
    "number": """#+ summary: Tallies with at least min citing documents, a number
PREFIX ak: <https://w3id.org/anthology-kg/ns#>
SELECT ?tally WHERE {
  ?tally ak:citingDocuments ?n .
  FILTER(?n >= ?_min_number)
}
ORDER BY ?tally
""",
}
#: Each page's parameters, as a reader fills them in.
RUNS = [
    ("tallies", {"min": "3"}),
    ("labelled", {"label": "DAPO"}),
    ("since", {"year": "2024"}),
    ("claims", {"entry": "ARXIV-2409.19256"}),
    ("inner", {"entry": "ARXIV-2409.19256"}),
    ("number", {"min": "2.5"}),
]


def site_of(root: Path, queries: dict[str, str]) -> tuple[Path, Path]:
    """The bundled data at ``root`` with ``queries`` (name: text) stored, and its site."""
    from anthology_kg.resources import bundled_dir

    (root / "data").symlink_to(bundled_dir() / "data")
    (root / "queries").mkdir()
    for name, text in queries.items():
        (root / "queries" / f"{name}.rq").write_text(text, encoding="utf-8")
    out = root / "site"
    result = run_cli("--root", str(root), "site", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    return root, out


@pytest.fixture(scope="module")
def typed(tmp_path_factory) -> tuple[Path, Path]:
    """The bundled data with the queries above, and its site."""
    return site_of(tmp_path_factory.mktemp("typed"), QUERIES)


def cli_rows(root: Path, name: str, params: dict[str, str]) -> tuple[list[str], set[tuple]]:
    """The variables and rows of ``query NAME --param ...``: values only."""
    options = [f"--param={k}={v}" for k, v in params.items()]
    result = run_cli("--root", str(root), "query", name, *options, "--format", "json")
    assert result.exit_code == 0, result.stderr
    answer = json.loads(result.stdout)
    names = answer["head"]["vars"]
    return names, {
        tuple(b[v]["value"] if v in b else None for v in names)
        for b in answer["results"]["bindings"]
    }


def test_each_spelling_is_described_on_the_page(typed):
    """The input of ``label`` names both variables it binds, the second in English."""
    html = (typed[1] / "queries" / "labelled.html").read_text("utf-8")
    found = re.search(r'<input id="param-label"[^>]* data-spellings="([^"]*)"', html)
    assert found, html
    spellings = json.loads(found[1].replace("&#34;", '"').replace("&quot;", '"'))
    assert spellings == [
        {"variable": "_label", "kind": "literal"},
        {"variable": "_label_en", "kind": "literal", "lang": "en"},
    ]


@needs_chromium
def test_the_browser_binds_as_the_command_line(typed, browser_tab):
    root, out = typed
    try:
        for name, params in RUNS:
            browser_tab.goto((out / "queries" / f"{name}.html").as_uri())
            expected = cli_rows(root, name, params)
            assert expected[1], name  # each run has an answer to give
            assert run_in_browser(browser_tab, params) == expected, name
    finally:
        browser_tab.goto("about:blank")


@needs_chromium
def test_a_value_the_command_line_refuses_is_refused_in_the_browser(typed, browser_tab):
    root, out = typed
    try:
        for name, params, said in [
            ("number", {"min": "three"}, 'parameter min: "three" is not a number'),
            ("claims", {"entry": "NOPE-1"}, 'parameter entry: no entry "NOPE-1"'),
        ]:
            options = [f"--param={k}={v}" for k, v in params.items()]
            assert run_cli("--root", str(root), "query", name, *options).exit_code == 2
            browser_tab.goto((out / "queries" / f"{name}.html").as_uri())
            for key, value in params.items():
                browser_tab.fill(f"#param-{key}", value)
            browser_tab.click("#run")
            browser_tab.wait_for_selector("#live[data-done]", timeout=120_000)
            assert browser_tab.get_attribute("#live", "data-done") == "error", name
            assert said in browser_tab.inner_text("#live-status"), name
    finally:
        browser_tab.goto("about:blank")
