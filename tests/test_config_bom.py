"""A configuration file saved with a UTF-8 byte order mark is read (review3: 'not TOML:
Invalid statement (at line 1, column 1)'), as a data file starting with one is."""

from __future__ import annotations

import codecs

from conftest import run_cli


def test_a_configuration_file_with_a_byte_order_mark_is_read(bundled_copy, monkeypatch):
    (bundled_copy / "anthology-kg.toml").write_bytes(
        codecs.BOM_UTF8 + b'fail-on = "none"\nselect = ["AK009"]\n'
    )
    monkeypatch.chdir(bundled_copy)
    result = run_cli("check")
    assert result.exit_code == 0, result.output
    assert "not TOML" not in result.stderr and result.stdout.endswith("3 rule shapes\n")
