"""Blank nodes nested hundreds of levels deep: Python's recursion limit, met by the
Turtle writer, is an input error with a message (exit 2), not a traceback (exit 1);
what does not recurse (check) still reads them."""

import pytest
from conftest import run_cli

DEPTH = 600


@pytest.fixture
def deep(tmp_path):
    (tmp_path / "data").mkdir()
    nested = "[ <http://p> " * DEPTH + "1" + " ]" * DEPTH
    (tmp_path / "data" / "x.ttl").write_text(f"<http://a> <http://b> {nested} .\n")
    return tmp_path


@pytest.mark.parametrize("command", [["export"], ["fmt", "--check"]], ids=" ".join)
def test_too_deep_to_write_nested_is_exit_2_with_a_message(deep, command):
    result = run_cli("--root", str(deep), *command)
    assert result.exit_code == 2, result.output
    assert "the input nests too deep to follow" in result.stderr


def test_what_does_not_recurse_still_reads_it(deep):
    checked = run_cli("--root", str(deep), "check")
    assert checked.exit_code == 0 and "conforms" in checked.stdout, checked.output
