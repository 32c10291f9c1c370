"""`import DIR -o FOLDER` all or none when it fails while writing (review3 B6): two runs at
once into one folder, a name taken meanwhile, a full disk, Ctrl-C. Each temporary file has
a name of its own; whatever fails, the folder is left as it was, and a run that loses a
name to another exits 2 with a message, not a traceback."""

import errno
import os
import pathlib
import signal
import subprocess
import sys

import pytest
from conftest import FIXTURES, run_cli

import anthology_kg.files
import anthology_kg.records

SEED = (FIXTURES / "records" / "seed" / "ARXIV-2409.19256.txt").read_text(encoding="utf-8")
COUNT = 40

# Both runs are started, load everything, say so, then wait for the gate file: their writes
# start together instead of a process start-up apart (which, on a busy machine, is more than
# a run of a few dozen records takes).
GATED = """
import os, sys, time
import anthology_kg.cli, anthology_kg.records
print("ready", flush=True)
gate = sys.argv[1]
while not os.path.exists(gate):
    time.sleep(0.001)
sys.argv[1:] = sys.argv[2:]
anthology_kg.cli.run()
"""


def make_records(folder, count=COUNT):
    folder.mkdir()
    for number in range(count):
        identifier = f"ARXIV-9001.{number:05d}"
        text = SEED.replace("ARXIV-2409.19256", identifier)
        (folder / f"{identifier}.txt").write_text(text, encoding="utf-8")
    return folder


def snapshot(folder):
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@pytest.fixture
def records(tmp_path):
    return make_records(tmp_path / "records")


@pytest.fixture(scope="module")
def expected(tmp_path_factory):
    """The folder one run alone writes of the records each test makes (``records``):
    written once for the module."""
    folder = tmp_path_factory.mktemp("expected")
    alone = folder / "alone"
    alone.mkdir()
    records = make_records(folder / "records")
    assert run_cli("import", str(records), "-o", str(alone)).exit_code == 0
    return snapshot(alone)


def two_runs_at_once(tmp_path, *args):
    gate = tmp_path / "gate"
    runs = [
        subprocess.Popen(
            [sys.executable, "-c", GATED, str(gate), "import", *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    for run in runs:
        assert run.stdout is not None and run.stdout.readline() == "ready\n"
    gate.touch()
    return [(run.wait(60), *run.communicate()) for run in runs]


def test_two_runs_at_once_one_writes_all_the_other_nothing(tmp_path, records, expected):
    out = tmp_path / "out"
    out.mkdir()
    results = two_runs_at_once(tmp_path, str(records), "-o", str(out))
    assert sorted(code for code, _, _ in results) == [0, 2], results
    (_, won, _), (_, lost_out, lost) = sorted(results)
    assert won.splitlines()[-1] == f"{COUNT} record(s) imported"
    assert lost_out == "" and "Traceback" not in lost and len(lost.splitlines()) == 1
    assert "exist already; nothing written" in lost or (
        "written meanwhile by another process; nothing written" in lost
    )
    assert snapshot(out) == expected


def test_two_replacing_runs_at_once_both_succeed(tmp_path, records, expected):
    out = tmp_path / "out"
    out.mkdir()
    results = two_runs_at_once(tmp_path, "--replace", str(records), "-o", str(out))
    assert [code for code, _, _ in results] == [0, 0], results
    assert snapshot(out) == expected


def failing_on_call(monkeypatch, module, name, number, error):
    """Make ``module.name`` raise ``error`` on its ``number``-th call."""
    real = getattr(module, name)
    calls = []

    def wrapped(*args, **kwargs):
        calls.append(args)
        if len(calls) == number:
            raise error
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, wrapped)
    return calls


def a_folder_with_one_entry(tmp_path, records):
    """An output folder holding a hand-written ID.ttl of the third record, and another file."""
    out = tmp_path / "out"
    out.mkdir()
    (out / "ARXIV-9001.00002.ttl").write_text("# hand-written\n", encoding="utf-8")
    (out / "other.ttl").write_text("# not imported\n", encoding="utf-8")
    return out


def test_a_name_taken_meanwhile_is_exit_2_and_nothing_is_left(tmp_path, records, monkeypatch):
    out = tmp_path / "out"
    out.mkdir()
    taken = out / "ARXIV-9001.00005.ttl"

    real_link = os.link
    calls = []

    def link(source, target):
        calls.append(target)
        if len(calls) == 6:  # another process takes the name just before this run links it
            taken.write_text("# the other run's\n", encoding="utf-8")
        return real_link(source, target)

    monkeypatch.setattr(os, "link", link)
    result = run_cli("import", str(records), "-o", str(out))
    assert result.exit_code == 2
    assert result.stderr.endswith(
        "out/ARXIV-9001.00005.ttl: written meanwhile by another process; nothing written\n"
    )
    assert len(calls) == 6
    assert snapshot(out) == {taken.name: b"# the other run's\n"}


def test_ctrl_c_while_moving_into_place_leaves_the_folder_as_it_was(tmp_path, records, monkeypatch):
    out = tmp_path / "out"
    out.mkdir()
    failing_on_call(monkeypatch, os, "link", 10, KeyboardInterrupt())
    result = run_cli("import", str(records), "-o", str(out))
    assert result.exit_code == 130 and "interrupted" in result.stderr
    assert list(out.iterdir()) == []


def test_ctrl_c_while_replacing_puts_back_the_replaced_files(tmp_path, records, monkeypatch):
    out = a_folder_with_one_entry(tmp_path, records)
    before = snapshot(out)
    # The sixth os.replace of the run: after the hand-written third file was replaced.
    failing_on_call(monkeypatch, os, "replace", 6, KeyboardInterrupt())
    result = run_cli("import", "--replace", str(records), "-o", str(out))
    assert result.exit_code == 130
    assert snapshot(out) == before


def test_ctrl_c_while_writing_the_temporary_files_leaves_none(tmp_path, records, monkeypatch):
    out = tmp_path / "out"
    out.mkdir()
    failing_on_call(monkeypatch, anthology_kg.records, "canonical_turtle", 7, KeyboardInterrupt())
    result = run_cli("import", str(records), "-o", str(out))
    assert result.exit_code == 130
    assert list(out.iterdir()) == []


def test_a_full_disk_is_exit_2_and_leaves_the_folder_as_it_was(tmp_path, records, monkeypatch):
    out = a_folder_with_one_entry(tmp_path, records)
    before = snapshot(out)
    full = OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    failing_on_call(monkeypatch, anthology_kg.files, "new_file_beside", 30, full)
    result = run_cli("import", "--replace", str(records), "-o", str(out))
    assert result.exit_code == 2
    assert result.stderr.endswith("out: cannot write: no space left on the device\n")
    assert snapshot(out) == before


def no_hard_links(source, target, **options):
    raise OSError(errno.EPERM, os.strerror(errno.EPERM), source, None, target)


def test_without_hard_links_import_still_writes_and_refuses(tmp_path, records, monkeypatch):
    monkeypatch.setattr(os, "link", no_hard_links)
    out = a_folder_with_one_entry(tmp_path, records)
    (out / "ARXIV-9001.00002.ttl").unlink()
    result = run_cli("import", str(records), "-o", str(out))
    assert result.exit_code == 0, result.stderr
    written = snapshot(out)
    assert len(written) == COUNT + 1
    again = run_cli("import", str(records), "-o", str(out))
    assert again.exit_code == 2 and f"{COUNT} files exist already" in again.stderr
    # Replacing keeps a copy of each file it replaces until all are in place.
    failing_on_call(monkeypatch, os, "replace", 20, KeyboardInterrupt())
    (out / "ARXIV-9001.00002.ttl").write_text("# hand-written\n", encoding="utf-8")
    before = snapshot(out)
    assert run_cli("import", "--replace", str(records), "-o", str(out)).exit_code == 130
    assert snapshot(out) == before


def test_the_temporary_names_are_unique(tmp_path, records, monkeypatch):
    out = tmp_path / "out"
    out.mkdir()
    # The name the import wrote to before this fix is taken: the import does not mind.
    (out / ".ARXIV-9001.00000.ttl.importing").write_text("# another run's\n", encoding="utf-8")
    result = run_cli("import", str(records), "-o", str(out))
    assert result.exit_code == 0, result.stderr
    assert (out / ".ARXIV-9001.00000.ttl.importing").read_text() == "# another run's\n"
    assert len(list(out.iterdir())) == COUNT + 1


def test_ctrl_c_while_cleaning_up_waits_for_the_clean_up(
    tmp_path, records, expected, monkeypatch, ctrl_c_raises
):
    out = tmp_path / "out"
    out.mkdir()
    real_unlink = pathlib.Path.unlink
    removed = []

    def unlink(path, missing_ok=False):
        if not removed:  # the first temporary file removed, once all are in place
            os.kill(os.getpid(), signal.SIGINT)
        removed.append(path.name)
        real_unlink(path, missing_ok=missing_ok)

    monkeypatch.setattr(pathlib.Path, "unlink", unlink)
    result = run_cli("import", str(records), "-o", str(out))
    assert result.exit_code == 130 and "interrupted" in result.stderr
    assert len(removed) == COUNT
    assert snapshot(out) == expected
