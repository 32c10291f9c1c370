"""A store's option (--graph, --method) given without --endpoint is an input error,
exit 2, not silently ignored."""

import pytest
from conftest import run_cli


@pytest.mark.parametrize(
    "args, option",
    [
        (["query", "unread", "--graph", "urn:x:g"], "--graph"),
        (["sparql", "-", "--method", "form"], "--method"),
        (["validate", "--graph", "urn:x:g"], "--graph"),
        (["validate", "--method", "get"], "--method"),
    ],
    ids=lambda value: value if isinstance(value, str) else " ".join(value[:2]),
)
def test_a_store_option_without_endpoint_is_exit_2(args, option):
    result = run_cli(*args, input="ASK {}")
    assert result.exit_code == 2, result.output
    assert f"{option} applies to --endpoint, not to the local anthology" in result.stderr
