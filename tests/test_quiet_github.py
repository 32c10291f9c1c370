"""``-q validate --format github`` prints the annotations alone (review49 #10): the
summary line 'does not conform: …' followed them, where -q prints results only; a file
written with -o is the report whole, as the text format's."""

from __future__ import annotations

from conftest import FIXTURES, run_cli

BAD = str(FIXTURES / "rules" / "rule9-bad")


def test_quiet_github_prints_the_annotations_alone():
    loud = run_cli("--root", BAD, "validate", "--format", "github")
    quiet = run_cli("-q", "--root", BAD, "validate", "--format", "github")
    assert (loud.exit_code, quiet.exit_code) == (1, 1)
    assert loud.stdout.splitlines()[-1].startswith("does not conform: ")
    assert quiet.stdout.splitlines() == loud.stdout.splitlines()[:-1]
    assert quiet.stdout and all(line.startswith("::") for line in quiet.stdout.splitlines())


def test_quiet_github_writes_its_file_whole(tmp_path):
    out = tmp_path / "annotations.txt"
    loud = run_cli("--root", BAD, "validate", "--format", "github")
    result = run_cli("-q", "--root", BAD, "validate", "--format", "github", "-o", str(out))
    assert result.exit_code == 1
    assert out.read_text(encoding="utf-8") == loud.stdout
