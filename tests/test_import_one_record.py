"""`import RECORD.txt -o FILE` follows the rule of `import DIR -o FOLDER`: a file there
already is refused (exit 2, nothing written) unless --replace asks for it."""

import os
import shutil

from conftest import FIXTURES, run_cli

RECORD = FIXTURES / "records" / "LIT-201.txt"


def expected_turtle(tmp_path):
    fresh = tmp_path / "fresh.ttl"
    assert run_cli("import", str(RECORD), "-o", str(fresh)).exit_code == 0
    return fresh.read_bytes()


def test_an_existing_file_is_refused_and_kept(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "LIT-201.ttl").write_text("# mine\n", encoding="utf-8")
    result = run_cli("import", str(RECORD), "-o", "LIT-201.ttl")
    assert result.exit_code == 2
    assert result.stderr == (
        # (no anthology here: the bundled one's categories are the words a record may use)
        "anthology-kg: no data/ folder here or above: the bundled sample anthology is read "
        "(--root DIR names yours)\n"
        "LIT-201.ttl: exists already; nothing written (--replace replaces it)\n"
    )
    assert result.stdout == ""
    assert (tmp_path / "LIT-201.ttl").read_text(encoding="utf-8") == "# mine\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["LIT-201.ttl"]  # no temporary left


def test_a_dangling_link_is_a_name_taken_as_well(tmp_path):
    link = tmp_path / "LIT-201.ttl"
    os.symlink(tmp_path / "nowhere.ttl", link)
    result = run_cli("import", str(RECORD), "-o", str(link))
    assert result.exit_code == 2
    assert "exists already; nothing written" in result.stderr
    assert link.is_symlink() and not (tmp_path / "nowhere.ttl").exists()


def test_replace_writes_over_the_file(tmp_path):
    want = expected_turtle(tmp_path)
    target = tmp_path / "LIT-201.ttl"
    target.write_text("# mine\n", encoding="utf-8")
    result = run_cli("import", "--replace", str(RECORD), "-o", str(target))
    assert result.exit_code == 0, result.output
    assert target.read_bytes() == want


def test_replace_writes_through_a_link_as_other_outputs_do(tmp_path):
    want = expected_turtle(tmp_path)
    real = tmp_path / "real.ttl"
    real.write_text("# mine\n", encoding="utf-8")
    link = tmp_path / "LIT-201.ttl"
    os.symlink(real, link)
    assert run_cli("import", "--replace", str(RECORD), "-o", str(link)).exit_code == 0
    assert link.is_symlink() and real.read_bytes() == want


def test_a_new_file_is_written_as_before(tmp_path):
    target = tmp_path / "LIT-201.ttl"
    result = run_cli("import", str(RECORD), "-o", str(target))
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    text = target.read_text(encoding="utf-8")
    assert '"LIT-201"' in text and text == run_cli("import", str(RECORD)).stdout
    assert oct(target.stat().st_mode & 0o777) == oct(0o644)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["LIT-201.ttl"]


def test_a_missing_folder_is_named(tmp_path):
    result = run_cli("import", str(RECORD), "-o", str(tmp_path / "no" / "LIT-201.ttl"))
    assert result.exit_code == 2
    assert result.stderr.endswith(": cannot write: no such folder\n")
    assert "/no" in result.stderr


def test_printing_is_unchanged(tmp_path):
    shutil.copy(RECORD, tmp_path / "LIT-201.txt")
    result = run_cli("import", str(tmp_path / "LIT-201.txt"))
    assert result.exit_code == 0
    assert result.stdout.startswith("@prefix")


def test_a_folder_replaced_through_a_link_keeps_the_link_and_the_mode(tmp_path):
    """--replace for a folder follows the rule of every other output (write_atomic): a
    linked ID.ttl is written through, and a file replaced keeps its mode; it replaced the
    link by a copy and made the file 0644."""
    want = expected_turtle(tmp_path)
    records = tmp_path / "records"
    records.mkdir()
    shutil.copy(RECORD, records / RECORD.name)
    out, kept = tmp_path / "out", tmp_path / "kept"
    out.mkdir()
    kept.mkdir()
    (kept / "LIT-201.ttl").write_text("# mine\n", encoding="utf-8")
    os.chmod(kept / "LIT-201.ttl", 0o600)
    os.symlink(kept / "LIT-201.ttl", out / "LIT-201.ttl")
    result = run_cli("import", "--replace", str(records), "-o", str(out))
    assert result.exit_code == 0, result.output
    assert (out / "LIT-201.ttl").is_symlink()
    assert (kept / "LIT-201.ttl").read_bytes() == want
    assert oct((kept / "LIT-201.ttl").stat().st_mode & 0o777) == oct(0o600)
    assert sorted(p.name for p in kept.iterdir()) == ["LIT-201.ttl"]  # no backup left


def test_an_output_that_is_a_folder_is_said_to_be_one(tmp_path):
    """It pointed at --replace, which could not replace it either (hunt5 #9)."""
    folder = tmp_path / "victim"
    folder.mkdir()
    for extra in ([], ["--replace"]):
        result = run_cli("import", str(RECORD), "-o", str(folder), *extra)
        assert result.exit_code == 2, result.output
        assert "--replace" not in result.stderr and "folder" in result.stderr, result.stderr
    assert list(folder.iterdir()) == []
