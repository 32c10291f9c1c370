"""Line endings are part of a Turtle file's graph (a CR inside a long string is a
character of the literal), so the repository keeps its Turtle, queries and records LF on
every checkout, whatever ``core.autocrlf`` says (.gitattributes); the W3C suites stay
byte for byte as published."""

import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).parents[1]
needs_git = pytest.mark.skipif(
    shutil.which("git") is None or not (REPO / ".git").exists(),
    reason="needs git and the repository's own checkout",
)


def _git(*args: str, cwd: Path = REPO) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, check=True, capture_output=True, text=True
    ).stdout


@needs_git
def test_every_turtle_query_and_record_file_is_lf_and_the_w3c_suites_as_published():
    tracked = _git("ls-files", "*.ttl", "*.rq", "*.txt").split()
    assert len(tracked) > 100
    attributes = _git("check-attr", "eol", "text", "--", *tracked).splitlines()
    seen = {}
    for line in attributes:
        path, attribute, value = line.split(": ")
        seen[(path, attribute)] = value
    for path in tracked:
        if path.startswith("tests/w3c/"):
            assert seen[(path, "text")] == "unset", path
        else:
            assert (seen[(path, "eol")], seen[(path, "text")]) == ("lf", "set"), path


@needs_git
def test_a_checkout_with_autocrlf_reads_the_same_bytes(tmp_path):
    clone = tmp_path / "clone"
    _git("-c", "core.autocrlf=true", "clone", "-q", "--no-checkout", str(REPO), str(clone))
    _git(
        "-c",
        "core.autocrlf=true",
        "checkout",
        "-q",
        "HEAD",
        "--",
        ".gitattributes",
        "data",
        "queries",
        cwd=clone,
    )
    files = sorted((clone / "data").glob("*.ttl")) + sorted((clone / "queries").glob("*.rq"))
    assert files
    for path in files:
        assert b"\r" not in path.read_bytes(), path
