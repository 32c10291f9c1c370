"""A folder without data/ is not an anthology: every reader of one says so in the same
words, at the folder, and the CLI exits 2."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import RECORDS, run_cli

from anthology_kg.errors import AnthologyError
from anthology_kg.export_files import FolderSource
from anthology_kg.loader import load_anthology
from anthology_kg.records import anthology_categories
from anthology_kg.resources import data_folder
from anthology_kg.revisions import read_folder
from anthology_kg.ruleset import load_rules

MESSAGE = "no data/ folder here: not an anthology"

READERS: dict[str, Callable[[Path], object]] = {
    "resources.data_folder": data_folder,
    "loader.load_anthology": load_anthology,
    "records.anthology_categories": anthology_categories,
    "revisions.read_folder": read_folder,
    "export_files.FolderSource": FolderSource,
    "ruleset.load_rules": load_rules,
}


@pytest.mark.parametrize("reader", READERS)
def test_each_reader_refuses_a_folder_without_data(tmp_path, reader):
    with pytest.raises(AnthologyError) as raised:
        READERS[reader](tmp_path)
    assert raised.value.message == MESSAGE
    assert Path(raised.value.path).resolve() == tmp_path.resolve()


def test_data_folder_of_an_anthology(tmp_path):
    (tmp_path / "data").mkdir()
    assert data_folder(tmp_path) == tmp_path / "data"
    (tmp_path / "other").touch()
    with pytest.raises(AnthologyError):
        data_folder(tmp_path / "other")  # a file is not an anthology either


@pytest.mark.parametrize(
    "command",
    [
        ("check",),
        ("validate",),
        ("fmt",),
        ("export",),
        ("stats",),
        ("queries",),
        ("query", "confounders"),
        ("render", "LIT-168"),
        ("new", "lit", "LIT-001"),
        ("import", str(RECORDS[0])),
        ("diff", "empty", "empty"),
    ],
    ids=lambda command: command[0],
)
def test_the_cli_says_it_and_exits_2(tmp_path, monkeypatch, command):
    (tmp_path / "empty").mkdir()
    monkeypatch.chdir(tmp_path)
    result = run_cli("--root", "empty", *command)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == f"empty: {MESSAGE}\n"


def _broken_data(folder: Path, kind: str) -> None:
    """A ``data`` in ``folder`` that is no folder: a file, a dangling link, a link loop."""
    folder.mkdir(parents=True, exist_ok=True)
    if kind == "a file":
        (folder / "data").touch()
    elif kind == "a dangling symbolic link":
        (folder / "data").symlink_to(folder / "nowhere")
    else:
        (folder / "data").symlink_to("data")


BROKEN = ["a file", "a dangling symbolic link", "a symbolic link in a loop"]


@pytest.mark.parametrize("kind", BROKEN)
def test_a_data_that_is_no_folder_is_named_as_what_it_is(tmp_path, kind):
    _broken_data(tmp_path, kind)
    with pytest.raises(AnthologyError) as raised:
        data_folder(tmp_path)
    assert raised.value.message.startswith(f"{kind}")
    assert "not a folder: not an anthology" in raised.value.message
    assert Path(raised.value.path) == tmp_path / "data"


def test_a_file_named_data_below_an_anthology_is_passed_over(tmp_path, monkeypatch):
    """A file named data (a script's, beside the anthology's files) is no anthology's
    data folder: the search goes on to the anthology above, as from a folder without
    one."""
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "A-1.ttl").write_text(
        "@prefix ak: <https://w3id.org/anthology-kg/ns#> .\n\n\n<urn:x:A-1> ak:p 1 .\n",
        encoding="utf-8",
    )
    _broken_data(tmp_path / "scripts", "a file")
    monkeypatch.chdir(tmp_path / "scripts")
    result = run_cli("fmt")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("reformatted ")


@pytest.mark.parametrize("kind", BROKEN[1:])
def test_fmt_below_an_anthology_stops_at_a_broken_data_link(tmp_path, monkeypatch, kind):
    """The search for the anthology stops at the first ``data``: the anthology above is
    not the one meant, and fmt rewrote it."""
    (tmp_path / "data").mkdir()
    untidy = "@prefix ak: <https://w3id.org/anthology-kg/ns#> .\n\n\n<urn:x:A-1> ak:p 1 .\n"
    (tmp_path / "data" / "A-1.ttl").write_text(untidy, encoding="utf-8")
    _broken_data(tmp_path / "inner", kind)
    monkeypatch.chdir(tmp_path / "inner")
    result = run_cli("fmt")
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"data: {kind}")
    assert (tmp_path / "data" / "A-1.ttl").read_text(encoding="utf-8") == untidy


def test_diff_stops_at_a_broken_data_link_as_every_command_does(tmp_path, monkeypatch):
    """diff found its anthology by a search of its own, which passed over a dangling data
    link and compared the anthology above (fixenv's note)."""
    (tmp_path / "data").mkdir()
    _broken_data(tmp_path / "inner", "a dangling symbolic link")
    monkeypatch.chdir(tmp_path / "inner")
    result = run_cli("diff", str(tmp_path), str(tmp_path))
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("data: a dangling symbolic link")
