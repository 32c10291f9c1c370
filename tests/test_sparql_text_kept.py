"""sparql_text keeps the terminals of the texts it is asked for again and again (the
guards, the SHACL compiler, the result readers): read from the kept ones, from any
offset, they are those a scan from that offset reads."""

from __future__ import annotations

import pytest

from anthology_kg import sparql_text
from anthology_kg.sparql_text import _code_tokens, _kept_code_tokens, _scanned_code_tokens

TEXTS = [
    "",
    "SELECT * WHERE { ?s ?p ?o }",
    "PREFIX ak: <https://w3id.org/anthology-kg/ns#>\n# a comment { SERVICE\nSELECT ?x "
    '(EXISTS { ?x ak:y "s\\"}" } AS ?e) WHERE {\n  ?x a ak:Entry ; ak:n 1.5e3 .\n'
    "  { SELECT ?x WHERE { ?x ?p 'it''s' } } FILTER(?x != <urn:a> && $y <= 2)\n} LIMIT 3",
    "DESCRIBE ?_entry_iri  # trailing comment",
    'ASK{?s?p"""long\nstring"""}',
]


@pytest.mark.parametrize("text", TEXTS)
def test_the_kept_terminals_from_any_offset_are_those_a_scan_reads(text):
    for start in range(len(text) + 2):
        assert list(_code_tokens(text, start)) == list(_scanned_code_tokens(text, start))


def test_a_text_is_scanned_once_and_a_long_one_each_time():
    _kept_code_tokens.cache_clear()
    text = TEXTS[2]
    first = list(sparql_text.variable_tokens(text))
    assert sparql_text.has_keyword(text, "SELECT") and not sparql_text.has_keyword(text, "SERVICE")
    assert list(sparql_text.variable_tokens(text)) == first
    assert _kept_code_tokens.cache_info().misses == 1
    long_text = "SELECT * WHERE { " + "?s ?p ?o . " * (sparql_text._KEPT_TEXT // 10) + "}"
    assert sparql_text.selects_all(long_text)
    assert _kept_code_tokens.cache_info().misses == 1
