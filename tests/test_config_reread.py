"""The configuration is read again on each run: a changed file is seen at once, and what
one run does with its settings is not seen by the next (the parse is kept per text)."""

from __future__ import annotations

from anthology_kg.config import find_config


def test_a_changed_file_is_seen_and_a_changed_setting_is_not_kept(tmp_path):
    config = tmp_path / "anthology-kg.toml"
    config.write_text('fail-on = "warning"\nselect = ["AK001"]\n', encoding="utf-8")
    first = find_config(tmp_path)
    assert first.values == {"fail-on": "warning", "select": ["AK001"]}
    first.values["select"].append("AK002")  # a caller's own copy
    assert find_config(tmp_path).values == {"fail-on": "warning", "select": ["AK001"]}
    config.write_text('fail-on = "info"\nselect = ["AK001"]\n', encoding="utf-8")  # same size
    assert find_config(tmp_path).values == {"fail-on": "info", "select": ["AK001"]}
