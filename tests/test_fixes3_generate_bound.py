"""`generate --entries N` has a documented upper bound: a count past it is exit 2 before
anything is written (it ran until the disk was full, or, with --violations as large,
ended in a MemoryError traceback); a count below 20 stays exit 2."""

import click
import pytest
from conftest import run_cli

from anthology_kg.cli import main
from anthology_kg.errors import AnthologyError
from anthology_kg.generate import MAX_ENTRIES, _Writer, generate


def entries_range() -> click.IntRange:
    option = next(p for p in main.commands["generate"].params if p.name == "count")
    assert isinstance(option.type, click.IntRange)
    return option.type


def test_the_command_line_bound_is_the_library_one():
    assert (entries_range().min, entries_range().max) == (20, MAX_ENTRIES)


def blocked(tmp_path):
    """An output folder that cannot be made (under a file): should a bound be lost, the
    test fails at once instead of writing millions of files or filling memory."""
    (tmp_path / "a-file").write_text("", encoding="utf-8")
    return tmp_path / "a-file" / "out"


@pytest.mark.parametrize("count", [str(MAX_ENTRIES + 1), "10" * 15, "-5", "0", "19"])
def test_nonsense_is_exit_2_before_any_work(tmp_path, count):
    for violations in ("0", count.lstrip("-")):
        result = run_cli(
            "generate", "--entries", count, "--violations", violations, "-o", str(blocked(tmp_path))
        )
        assert result.exit_code == 2
        assert f"Invalid value for '--entries': {count} is not in the range" in result.stderr
        assert "Traceback" not in result.output


def test_the_library_refuses_past_the_bound(tmp_path):
    with pytest.raises(AnthologyError, match="is more than 10,000,000"):
        generate(MAX_ENTRIES + 1, 0, blocked(tmp_path))


def test_help_shows_the_bound():
    result = run_cli("generate", "--help")
    assert f"20<=x<={MAX_ENTRIES}" in result.stdout


def test_an_entry_that_hosts_nothing_does_not_scan_the_plants(tmp_path):
    """Under pressure (as many violations left as entries), an entry that can host no
    violation of its own takes a dangling reference at once: scanning every violation
    left for one it can host made --violations N quadratic in N."""

    class Counted(list):
        reads = 0

        def __getitem__(self, index):
            Counted.reads += 1
            return super().__getitem__(index)

    writer = _Writer(tmp_path, 0, Counted(["no-category"] * 1000))
    assert writer.take(set(), 1000) == "dangling-reference"
    assert Counted.reads <= 1
    assert len(writer.plants) == 999


def test_a_stop_right_after_the_folder_is_made_removes_it(tmp_path, monkeypatch):
    """A stop signal (Ctrl-C; SIGTERM raises the same) arriving once ``out`` exists but
    before the work folder does left ``out`` behind (tests/test_sigterm.py, now and then
    under load)."""

    def stopped(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr("anthology_kg.generate.tempfile.mkdtemp", stopped)
    with pytest.raises(KeyboardInterrupt):
        generate(20, 0, tmp_path / "out")
    assert list(tmp_path.iterdir()) == []
