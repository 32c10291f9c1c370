"""`import DIR -o FOLDER` refuses an ID.ttl that exists (review3 B5), as `new` does,
unless --replace asks for it: all or none either way."""

import os

from conftest import FIXTURES, RECORDS, records_folder, run_cli

SEED = FIXTURES / "records" / "seed" / "ARXIV-2409.19256.txt"


def snapshot(folder):
    """Each name of ``folder`` with its bytes (a symbolic link: where it points)."""
    return {
        p.name: os.readlink(p) if p.is_symlink() else p.read_bytes()
        for p in sorted(folder.iterdir())
    }


def test_the_readme_example_keeps_the_hand_written_entry(bundled_copy, monkeypatch):
    monkeypatch.chdir(bundled_copy)
    records_folder(bundled_copy, (SEED,))
    before = snapshot(bundled_copy / "data")
    result = run_cli("import", "records/", "-o", "data/")
    assert result.exit_code == 2
    assert result.stderr == (
        "data/ARXIV-2409.19256.ttl: exists already; nothing written (--replace replaces it)\n"
    )
    assert result.stdout == ""
    assert snapshot(bundled_copy / "data") == before


def test_every_existing_file_is_named_and_nothing_is_written(tmp_path):
    folder = records_folder(tmp_path, RECORDS)
    out = tmp_path / "out"
    out.mkdir()
    first, *_, last = RECORDS
    (out / f"{first.stem}.ttl").write_text("# mine\n", encoding="utf-8")
    # A dangling symbolic link is a name taken as well.
    os.symlink(tmp_path / "nowhere.ttl", out / f"{last.stem}.ttl")
    before = snapshot(out)
    result = run_cli("import", str(folder), "-o", str(out))
    assert result.exit_code == 2
    assert (
        f": 2 files exist already; nothing written (--replace replaces them): "
        f"{first.stem}.ttl, {last.stem}.ttl\n" in result.stderr
    )
    assert snapshot(out) == before


def test_replace_writes_over_existing_files(tmp_path):
    folder = records_folder(tmp_path, RECORDS)
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    assert run_cli("import", str(folder), "-o", str(fresh)).exit_code == 0
    out = tmp_path / "out"
    out.mkdir()
    (out / f"{RECORDS[0].stem}.ttl").write_text("# mine\n", encoding="utf-8")
    (out / "other.ttl").write_text("# not imported\n", encoding="utf-8")
    result = run_cli("import", "--replace", str(folder), "-o", str(out))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[-1] == f"{len(RECORDS)} record(s) imported"
    assert snapshot(out) == {**snapshot(fresh), "other.ttl": b"# not imported\n"}


def test_a_new_file_is_written_as_before(tmp_path):
    folder = records_folder(tmp_path, (SEED,))
    out = tmp_path / "out"
    out.mkdir()
    result = run_cli("import", str(folder), "-o", str(out))
    assert result.exit_code == 0, result.stderr
    assert [p.name for p in out.iterdir()] == ["ARXIV-2409.19256.ttl"]
    again = run_cli("import", str(folder), "-o", str(out))
    assert again.exit_code == 2 and "exists already" in again.stderr


def test_replace_is_in_the_help():
    result = run_cli("import", "--help")
    assert "--replace" in result.stdout and "refuses" in result.stdout
