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


def _take_by_scan(plants: list[str], hostable: set[str], left: int) -> str | None:
    """_Writer.take as it was written first, on a list: the reference."""
    if not plants:
        return None
    if plants[-1] in hostable:
        return plants.pop()
    if len(plants) < left:
        return None
    for index in range(len(plants) - 1, -1, -1):
        if plants[index] in hostable:
            return plants.pop(index)
    plants.pop()
    return "dangling-reference"


def test_take_chooses_as_the_scan_of_the_list_did(tmp_path):
    """The violations left are held by kind (_Plants), not scanned: the same choices,
    call for call, on random orders and requests (pressure included)."""
    import random

    from anthology_kg.generate import DANGLING, PLANTS

    kinds = [kind for kind, _ in PLANTS]
    for seed in range(200):
        rnd = random.Random(seed)
        order = [rnd.choice(kinds) for _ in range(rnd.randint(0, 60))]
        reference, writer = list(order), _Writer(tmp_path, 0, order)
        for _ in range(80):
            hostable = set(rnd.sample([*kinds, DANGLING], rnd.randint(0, 4)))
            left = rnd.randint(0, 70)
            assert writer.take(hostable, left) == _take_by_scan(reference, hostable, left)
            assert len(writer.plants) == len(reference)
