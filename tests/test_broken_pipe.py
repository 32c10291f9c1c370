"""A command whose reader closes the pipe (``| head``) exits 141, as one stopped by
SIGPIPE: click's exit 1 read as "a rule is broken" to CI."""

import subprocess
import sys

from anthology_kg.cli import EXIT_BROKEN_PIPE


def test_a_closed_output_pipe_is_exit_141_and_says_nothing():
    """(One command: every one ends through ``cli.run``.)"""
    process = subprocess.Popen(
        [sys.executable, "-m", "anthology_kg", "export"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    process.stdout.close()  # before the command writes: its first write meets EPIPE
    said = process.stderr.read().decode()
    assert process.wait(timeout=120) == EXIT_BROKEN_PIPE == 141
    assert "Traceback" not in said and "Error" not in said, said


def test_an_exit_1_with_stdout_open_is_left_as_it_is(tmp_path):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "LIT-001.ttl").write_text(
        "@prefix ak: <https://w3id.org/anthology-kg/ns#> .\n<LIT-001> a ak:LiteratureRecord .\n"
    )
    done = subprocess.run(
        [sys.executable, "-m", "anthology_kg", "--root", str(tmp_path), "check"],
        capture_output=True,
        timeout=120,
    )
    assert done.returncode == 1, done.stderr


def test_a_reader_closing_midway_through_a_large_write_is_exit_141(tmp_path):
    """More than a pipe holds (64 KiB) in one write: the reader takes 100 bytes and
    closes; the write took part and returned the short count, no error, and the rest was
    dropped with exit 0 (hunt5 #8), as bytes (export) and as text (the query table)."""
    from anthology_kg.generate import generate

    generate(500, 0, tmp_path / "g")
    query = tmp_path / "all.rq"
    query.write_text("SELECT * WHERE { ?s ?p ?o } ORDER BY ?s ?p ?o\n", encoding="utf-8")
    for args in (["export"], ["sparql", str(query)]):
        process = subprocess.Popen(
            [sys.executable, "-m", "anthology_kg", "--root", str(tmp_path / "g"), *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        assert len(process.stdout.read(100)) == 100
        process.stdout.close()
        said = process.stderr.read().decode()
        assert process.wait(timeout=120) == EXIT_BROKEN_PIPE, (args, said)
        assert "Traceback" not in said and "Error" not in said, said
