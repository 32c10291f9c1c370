"""A stored query's page refuses a value its parameter's datatype does not take, as the
command line does (queries.lexical_rule, the one rule both check): `query tallies
--param min=abc` (a grlc ?_min_integer) is refused, exit 2, 'parameter 'min': 'abc' is
not a valid xsd:integer', where the page bound "abc"^^xsd:integer as written and
answered 0 rows. Run in a real browser (Chromium), as test_site_query_params."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import needs_chromium, run_cli
from test_site import run_in_browser
from test_site_query_params import cli_rows, site_of

QUERIES = {
    "tallies": """#+ summary: Tallies with at least min citing documents
PREFIX ak: <https://w3id.org/anthology-kg/ns#>
SELECT ?tally ?n WHERE {
  ?tally ak:citingDocuments ?n .
  FILTER(?n >= ?_min_integer)
}
""",
    "small": """#+ summary: Tallies with at least n citing documents, n a byte
PREFIX ak: <https://w3id.org/anthology-kg/ns#>
SELECT ?tally ?n WHERE {
  ?tally ak:citingDocuments ?n .
  FILTER(?n >= ?_n_byte)
}
""",
    "since": """#+ summary: Works issued in or after a year
PREFIX dcterms: <http://purl.org/dc/terms/>
SELECT ?e ?y WHERE {
  ?e dcterms:issued ?y .
  FILTER(?y >= ?_year_xsd_gYear)
}
""",
    "when": """#+ summary: Works issued on or after a day
PREFIX dcterms: <http://purl.org/dc/terms/>
SELECT ?e WHERE {
  ?e dcterms:issued ?y .
  FILTER(STR(?y) >= STR(?_day_date))
}
""",
}
#: (query, parameter, a value the command line refuses, the datatype it names)
REFUSED = [
    ("tallies", "min", "abc", "xsd:integer"),
    ("tallies", "min", "3.5", "xsd:integer"),
    ("tallies", "min", "1_000", "xsd:integer"),  # (Python's int() reads it: rdflib did)
    ("small", "n", "128", "xsd:byte"),  # out of its bounds
    ("since", "year", "24", "xsd:gYear"),
    ("when", "day", "2023-02-29", "xsd:date"),  # no such day
]
#: (query, parameters) each engine binds and answers
TAKEN = [
    ("tallies", {"min": " 3"}),
    ("small", {"n": "+3"}),
    ("since", {"year": "2024"}),
    ("when", {"day": "2024-02-29"}),
]


@pytest.fixture(scope="module")
def typed(tmp_path_factory) -> tuple[Path, Path]:
    """The bundled data with the queries above, and its site."""
    return site_of(tmp_path_factory.mktemp("types"), QUERIES)


def test_the_page_carries_the_rule_the_command_line_checks(typed):
    from anthology_kg.queries import lexical_rule

    html = (typed[1] / "queries" / "small.html").read_text("utf-8")
    found = re.search(r'<input id="param-n"[^>]* data-spellings="([^"]*)"', html)
    assert found, html
    spellings = json.loads(found[1].replace("&#34;", '"').replace("&quot;", '"'))
    byte = "http://www.w3.org/2001/XMLSchema#byte"
    rule = {"pattern": "[ \t\n\r]*(?:[+-]?[0-9]+)[ \t\n\r]*", "min": "-128", "max": "127"}
    assert lexical_rule(byte) == rule
    assert spellings == [{"variable": "_n_byte", "kind": "literal", "datatype": byte, **rule}]


@needs_chromium
def test_a_value_the_command_line_refuses_is_refused_in_the_browser(typed, browser_tab):
    root, out = typed
    try:
        for name, param, value, datatype in REFUSED:
            cli = run_cli("--root", str(root), "query", name, f"--param={param}={value}")
            assert (cli.exit_code, cli.stderr) == (
                2,
                f"anthology-kg: parameter {param!r}: {value!r} is not a valid {datatype}\n",
            )
            browser_tab.goto((out / "queries" / f"{name}.html").as_uri())
            browser_tab.fill(f"#param-{param}", value)
            browser_tab.click("#run")
            browser_tab.wait_for_selector("#live[data-done]", timeout=120_000)
            assert browser_tab.get_attribute("#live", "data-done") == "error", value
            said = f"parameter {param}: {json.dumps(value)} is not a valid {datatype}"
            assert said in browser_tab.inner_text("#live-status"), value
    finally:
        browser_tab.goto("about:blank")


@needs_chromium
def test_a_value_the_command_line_takes_is_bound_alike(typed, browser_tab):
    root, out = typed
    try:
        for name, params in TAKEN:
            expected = cli_rows(root, name, params)
            browser_tab.goto((out / "queries" / f"{name}.html").as_uri())
            assert run_in_browser(browser_tab, params) == expected, name
    finally:
        browser_tab.goto("about:blank")


#: Values of every kind, well-formed or not, for the datatypes' patterns.
VALUES = [
    *("3", " 3 ", "+3", "-0", "007", "1_000", "\u0663", "abc", "", "3.5", ".5", "5.", "1e3"),
    *("-1.5E-3", "INF", "-INF", "NaN", "nan", "true", "false", "1", "TRUE", "2024-02-29"),
    *("2024-1-1", "2024-01-01Z", "2024-01-01+14:00", "2024-01-01+15:00", "10:00:00"),
    *("2024-01-01T10:00:00.5-05:00", "2024-01-01T24:00:00", "24:00:00", "P1Y2M3DT4H5M6.5S"),
    *("P", "PT", "-P1D", "P1.5Y", "-2024", "20245", "024", "2024-13", "--12-31", "---31"),
    *("--13", "ff", "f", "YWJjZA==", "YWJjZA=", "2024\n", "QUJD RA==", "AB==", "QUI="),
]


@pytest.mark.parametrize(
    ("value", "valid"),
    # XSD 1.1 Part 2, 3.3.16.1 (review48 #3): a blank may follow a character; the last
    # character before "==" is one of A, Q, g, w, before "=" one of 16.
    [("QUJD RA==", True), ("QUJDRA==", True), ("QUI=", True), ("", True), ("AB==", False)]
    + [("QUJ=", False), ("QUJDR", False), ("Q===", False)],
)
def test_base64_is_read_by_xsds_grammar(value, valid):
    from anthology_kg.queries import _well_formed

    assert _well_formed("http://www.w3.org/2001/XMLSchema#base64Binary", value) is valid


@needs_chromium
def test_each_pattern_reads_alike_in_python_and_in_the_browser(browser_tab):
    """query.js matches a value with ``new RegExp("^(?:" + pattern + ")$")``, Python
    with ``re.fullmatch``: the same values match, and give the same groups."""
    from anthology_kg.queries import XSD_SUFFIXES, lexical_rule

    xsd = "http://www.w3.org/2001/XMLSchema#"
    patterns = sorted({r["pattern"] for s in XSD_SUFFIXES if (r := lexical_rule(xsd + s))})
    assert len(patterns) > 10
    python = [
        [None if (m := re.fullmatch(p, v)) is None else list(m.groups()) for v in VALUES]
        for p in patterns
    ]
    browser = browser_tab.evaluate(
        """([patterns, values]) => patterns.map(p => values.map(v => {
             const m = new RegExp("^(?:" + p + ")$").exec(v);
             return m === null ? null : m.slice(1).map(g => g === undefined ? null : g);
           }))""",
        [patterns, VALUES],
    )
    assert browser == python
