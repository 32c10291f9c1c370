"""Validating is a read: it leaves an engine answering queries as before."""

import pytest

from anthology_kg.engine import open_engine
from anthology_kg.validation import validate

TYPED_AS_ENTRY = """PREFIX ak: <https://w3id.org/anthology-kg/ns#>
SELECT (COUNT(?e) AS ?n) WHERE { ?e a ak:Entry }"""


def entries_typed_as_entry(engine) -> int:
    (row,) = engine.query(TYPED_AS_ENTRY).rows
    return int(row[0])


@pytest.mark.parametrize(
    ("engine_kind", "opened_with"), [("fast", "none"), ("fast", "owlrl"), ("reference", "none")]
)
def test_validation_with_inference_leaves_the_queries_closure_as_it_was(engine_kind, opened_with):
    engine = open_engine(engine_kind, inference=opened_with)
    before = entries_typed_as_entry(engine)
    validate(engine, inference="rdfs")
    validate(engine)
    assert entries_typed_as_entry(engine) == before
    assert (before > 0) == (opened_with != "none")
