"""generate leaves nothing in ``-o`` unless the whole anthology (data/ and
expected-violations.json) was written, and writes over nothing that is there."""

from __future__ import annotations

import errno
import json
import os

import pytest
from conftest import run_cli

from anthology_kg import generate as generate_module


def _generate(out) -> object:
    return run_cli("generate", "--entries", "20", "--violations", "3", "-o", str(out))


def test_a_folder_where_the_list_goes_is_refused_before_anything_is_written(tmp_path):
    (tmp_path / "expected-violations.json").mkdir()
    result = _generate(tmp_path)
    assert result.exit_code == 2
    assert "already holds expected-violations.json" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["expected-violations.json"]


def test_the_users_list_is_not_replaced(tmp_path):
    (tmp_path / "expected-violations.json").write_text('{"mine": 1}\n', encoding="utf-8")
    result = _generate(tmp_path)
    assert result.exit_code == 2
    assert (tmp_path / "expected-violations.json").read_text("utf-8") == '{"mine": 1}\n'
    assert not (tmp_path / "data").exists()


def test_data_as_a_link_to_an_empty_folder_is_refused_up_front(tmp_path):
    (tmp_path / "empty").mkdir()
    out = tmp_path / "out"
    out.mkdir()
    (out / "data").symlink_to(tmp_path / "empty")
    result = _generate(out)
    assert result.exit_code == 2 and "symbolic link" in result.stderr
    assert sorted(p.name for p in out.iterdir()) == ["data"]
    assert (out / "data").is_symlink() and not any((tmp_path / "empty").iterdir())


@pytest.fixture
def last_move_fails(monkeypatch):
    """The rename of data/ into place, generate's last step, fails (a full disk)."""
    real = os.replace

    def replace(source, target):
        if os.path.basename(target) == "data":
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(source, target)

    monkeypatch.setattr(generate_module.os, "replace", replace)


def test_a_failed_last_step_leaves_no_list_in_an_existing_folder(tmp_path, last_move_fails):
    (tmp_path / "data").mkdir()  # empty: generate writes into it
    result = _generate(tmp_path)
    assert result.exit_code == 2 and "cannot write" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data"]
    assert not any((tmp_path / "data").iterdir())


def test_a_failed_last_step_removes_the_folders_it_made(tmp_path, last_move_fails):
    (tmp_path / "mine").mkdir()
    result = _generate(tmp_path / "p1" / "p2" / "g")
    assert result.exit_code == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine"]


def test_a_whole_anthology_is_written_with_its_list(tmp_path):
    result = _generate(tmp_path / "p1" / "g")
    assert result.exit_code == 0, result.stderr
    out = tmp_path / "p1" / "g"
    assert sorted(p.name for p in out.iterdir()) == ["data", "expected-violations.json"]
    assert len(json.loads((out / "expected-violations.json").read_text("utf-8"))) == 3
