"""A library caller's parameter value that is no ``str`` is an input error naming the
parameter and what is wrong (``bind_params(..., {"entry": 5})`` raised AttributeError
from deep in the entry lookup, a number parameter TypeError)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import FIXTURES

from anthology_kg import AnthologyError, open_engine
from anthology_kg.queries import Param, StoredQuery, bind_params


def _query(kind: str) -> StoredQuery:
    return StoredQuery(
        name="q",
        path=Path("q.rq"),
        summary="",
        description="",
        params=(Param(name="value", meaning="", type=kind),),
        text="SELECT ?value WHERE {}",
    )


@pytest.mark.parametrize("kind", ["entry", "iri", "integer", "literal"])
@pytest.mark.parametrize(
    ("value", "named"), [(5, "5 is not text (int)"), (b"LIT-1", "b'LIT-1' is not text (bytes)")]
)
def test_a_value_that_is_no_text_is_an_input_error_naming_the_parameter(kind, value, named):
    with pytest.raises(AnthologyError) as raised:
        bind_params(open_engine(root=FIXTURES / "minimal"), _query(kind), {"value": value})
    assert raised.value.message == f"parameter 'value': {named}"


def test_an_entry_asked_for_by_a_value_that_is_no_text_is_an_input_error():
    with pytest.raises(AnthologyError, match=r"^the entry: 5 is not text \(int\)$"):
        open_engine(root=FIXTURES / "minimal").resolve_entry(5)  # type: ignore[arg-type]
