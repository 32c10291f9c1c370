"""``sourcemap.may_hold_rdf12_term``: the one search for a mark of an RDF 1.2 term (a
triple term, a base direction), shared by the export's batches and
``refuse_rdf12_terms``."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from anthology_kg.sourcemap import may_hold_rdf12_term

MARKS = (b"<<", b"{|", b"~", b"--")


@given(
    st.lists(st.sampled_from([b"<", b"{", b"|", b"~", b"-", b"a", b"\n", b"\xc3\xa9"])).map(
        b"".join
    )
)
def test_it_is_whether_a_mark_is_in_the_bytes(data):
    assert may_hold_rdf12_term(data) == any(mark in data for mark in MARKS)


def test_a_first_byte_alone_is_no_mark():
    assert not may_hold_rdf12_term(b"<urn:a> <urn:b> { | } < < - .\n")
    assert not may_hold_rdf12_term(b"")
    for mark in MARKS:
        assert may_hold_rdf12_term(b"<urn:a> <urn:b> <urn:c> . # " + mark + b"\n")
