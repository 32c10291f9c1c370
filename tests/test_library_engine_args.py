"""``open_engine`` and the engines it opens give the same AnthologyError for the same
bad argument, whichever engine holds the anthology (hunt12's findings 3 and 11)."""

from __future__ import annotations

import pytest
from conftest import FIXTURES

from anthology_kg import AnthologyError, open_engine

ROOT = FIXTURES / "minimal"
#: Nothing listens there: an engine that sent a request would fail otherwise.
NOWHERE = "http://127.0.0.1:9/query"


@pytest.mark.parametrize("inference", ["bogus", "RDFS", "owl", ""])
@pytest.mark.parametrize("endpoint", [None, NOWHERE], ids=["local", "endpoint"])
@pytest.mark.parametrize("kind", ["fast", "reference"])
def test_an_unknown_inference_is_refused_by_every_kind(kind, endpoint, inference):
    with pytest.raises(AnthologyError, match=f"unknown inference {inference!r}: use one of none"):
        open_engine(kind, root=ROOT, inference=inference, endpoint=endpoint)


@pytest.mark.parametrize("inference", ["rdfs", "owlrl"])
@pytest.mark.parametrize("kind", ["fast", "reference"])
def test_inference_with_an_endpoint_is_refused_for_queries(kind, inference):
    with pytest.raises(AnthologyError, match="applies to the local anthology, not to an endpoint"):
        open_engine(kind, root=ROOT, inference=inference, endpoint=NOWHERE)


def test_inference_with_an_endpoint_is_validations_own():
    # (as `validate --endpoint URL --inference rdfs`: pySHACL infers on the data read back)
    engine = open_engine(root=ROOT, inference="rdfs", endpoint=NOWHERE, validates=True)
    assert engine.name == "remote"
