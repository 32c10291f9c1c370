"""The reference engine's SPARQL functions and casts answer as SPARQL 1.1 and the fast
engine do (hunt18 #5): each query in-process, on an anthology of no entries, on both
engines: the same output, exit 0, nothing on stderr (``conftest.answered_alike``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import answered_alike

PREFIX = "PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>\n"


@pytest.fixture(scope="module")
def nothing(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An anthology of no entries: the queries read no data."""
    root = tmp_path_factory.mktemp("nothing")
    (root / "data").mkdir()
    return root


def csv_alike(root: Path, text: str) -> list[str]:
    """The CSV lines ``sparql`` prints for ``text`` on the anthology at ``root``, the same
    on both engines."""
    printed = answered_alike(
        "--root", str(root), "sparql", "-", "--format", "csv", input=PREFIX + text
    )
    return printed.splitlines()


def test_hashes_and_date_time_parts_are_the_fast_engines(nothing):
    # rdflib hashed a language-tagged literal's text and ended the query ("'Literal'
    # object has no attribute 'year'") at a date-time Python's datetime cannot hold
    lines = csv_alike(
        nothing,
        "SELECT ?md5 ?sha ?year ?hours ?minutes ?seconds ?tz WHERE {"
        ' BIND(MD5("abc"@en) AS ?md5) BIND(SHA512("abc"@en) AS ?sha)'
        ' BIND(YEAR("-0044-03-15T00:00:00"^^xsd:dateTime) AS ?year)'
        ' BIND(HOURS("2020-01-01T24:00:00"^^xsd:dateTime) AS ?hours)'
        ' BIND(MINUTES("99999-01-01T10:11:12.5Z"^^xsd:dateTime) AS ?minutes)'
        ' BIND(SECONDS("0000-01-01T10:11:12.5Z"^^xsd:dateTime) AS ?seconds)'
        ' BIND(TZ("0000-01-01T10:11:12-05:30"^^xsd:dateTime) AS ?tz) }',
    )
    assert lines[1] == ",,-44,0,11,12.5,-05:30"
