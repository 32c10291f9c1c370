"""``new`` refuses with nothing written (hunt18 #6): a waivers.ttl that does not parse,
read by the check after writing, left the new entry's file behind with exit 2."""

from __future__ import annotations

from conftest import run_cli


def test_a_broken_waivers_file_is_refused_before_the_entry_is_written(tmp_path):
    (tmp_path / "data").mkdir()
    (tmp_path / "waivers.ttl").write_text("broken", encoding="utf-8")
    result = run_cli("--root", str(tmp_path), "new", "note", "NOTE-003", "--title", "x")
    assert result.exit_code == 2
    assert result.stderr.startswith(f"{tmp_path / 'waivers.ttl'}:1: Turtle syntax")
    assert result.stdout == "" and list((tmp_path / "data").iterdir()) == []
