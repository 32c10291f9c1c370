"""Input nested past Python's recursion limit: the Turtle writers of an export write it
(they nest blank nodes from a stack; before, a RecursionError made an AnthologyError),
and ``run_remote`` given an answer nested that deep raises an AnthologyError, not a bare
RecursionError (hunt12's finding 4). The command line says the same through the same
helper (``errors.nesting_followed``; tests/test_deep_nesting.py)."""

from __future__ import annotations

import pytest
from stores import recording_store

from anthology_kg import (
    AnthologyError,
    FolderSource,
    build_export,
    run_remote,
    to_turtle,
)
from anthology_kg.export_writers import export_bytes

DEPTH = 600


@pytest.fixture(scope="module")
def deep_export(tmp_path_factory):
    root = tmp_path_factory.mktemp("deep")
    (root / "data").mkdir()
    nested = "[ <http://p> " * DEPTH + "1" + " ]" * DEPTH
    (root / "data" / "x.ttl").write_text(f"<http://a> <http://b> {nested} .\n")
    return build_export(FolderSource(root), ("data",))


@pytest.mark.parametrize(
    "write",
    [to_turtle, lambda export: b"".join(export_bytes(export, "turtle"))],
    ids=["to_turtle", "export_bytes"],
)
def test_turtle_nested_past_the_recursion_limit_is_written(deep_export, write):
    text = write(deep_export)
    assert text.count(b"[" if isinstance(text, bytes) else "[") == DEPTH


def test_a_store_answer_nested_past_the_limit_is_not_sparql_json():
    with recording_store(body=b"[" * 100_000) as (url, _):
        with pytest.raises(AnthologyError, match="the answer is not SPARQL JSON results"):
            run_remote(f"{url}/query", "SELECT ?s {}")
