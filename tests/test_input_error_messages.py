"""Input errors no other test pinned (review10 F6): each is exit 2 with its one line on
stderr, naming the file (and line) at fault where there is one, nothing on stdout and
no traceback."""

from __future__ import annotations

import errno
import os

import pytest
import test_diff
from conftest import run_cli
from test_diff import commit_all

repo = test_diff.repo  # a git repository of the bundled anthology, the working directory


def assert_said(result, stderr: str) -> None:
    """Exit 2, nothing on stdout, and exactly ``stderr``."""
    assert (result.exit_code, result.stdout) == (2, ""), (result.exit_code, result.output)
    assert result.stderr == stderr


# ---- anthology-kg.toml -------------------------------------------------------------------

CONFIGURATIONS = [
    ("base = 3\n", "base is a string"),
    ("root = 3\n", "root is a string"),
    ('fail-on = "never"\n', "fail-on is one of none, info, warning, violation"),
    ('select = "AK001"\n', "select is a list of rule codes"),
    ("ignore = [1]\n", "ignore is a list of rule codes"),
    ('format = "json"\n', "format is a table: command = format"),
    ('[format]\nvalidat = "json"\n', "format: no command 'validat'; did you mean 'validate'?"),
]


@pytest.mark.parametrize(("toml", "said"), CONFIGURATIONS, ids=[c[1] for c in CONFIGURATIONS])
def test_a_bad_setting_names_the_file_and_says_what_it_takes(anthology, toml, said):
    (anthology / "anthology-kg.toml").write_text(toml, encoding="utf-8")
    line = toml.count("\n")  # (the key at fault is on the last line)
    assert_said(run_cli("check"), f"anthology-kg.toml:{line}: {said}\n")


# ---- an anthology's own stored queries -------------------------------------------------

HEADERS = [
    ("#+ summary: a\n#+ param: 1entry — x\n", "2: bad param line: '1entry — x'"),
    (
        "#+ summary: a\n#+ param: entry — x\n#+ param-type: entry thing\n",
        "3: param-type of 'entry' must be one of entry, iri, literal",
    ),
    ("#+ description: a\n", "1: the header has no '#+ summary:' line"),
]


@pytest.mark.parametrize(("header", "said"), HEADERS, ids=["param", "param-type", "summary"])
def test_a_bad_query_header_names_its_line(anthology, header, said):
    (anthology / "queries").mkdir()
    body = "SELECT * WHERE { ?s ?p ?_entry } LIMIT 1\n"
    (anthology / "queries" / "a.rq").write_text(header + body, encoding="utf-8")
    assert_said(run_cli("query", "a"), f"queries/a.rq:{said}\n")


def test_a_parameter_given_twice(anthology):
    result = run_cli("query", "depends-on", "--param", "entry=LIT-168", "--param", "entry=x")
    assert_said(result, "anthology-kg: --param 'entry' given twice\n")


def test_diff_query_refuses_a_query_that_gives_a_graph(repo):
    (repo / "queries").mkdir()
    construct = "#+ summary: a graph\nCONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o } LIMIT 1\n"
    (repo / "queries" / "c.rq").write_text(construct, encoding="utf-8")
    commit_all(repo, "a CONSTRUCT query")
    result = run_cli("diff", "HEAD", "--query", "c")
    assert_said(result, "HEAD:queries/c.rq: query 'c' gives a graph: diff --query compares rows\n")


# ---- new and render ------------------------------------------------------------------------


def test_new_writes_nothing_over_a_file_that_holds_no_such_entry(anthology):
    placeholder = anthology / "data" / "LIT-500.ttl"
    placeholder.write_text("# to be written\n", encoding="utf-8")
    result = run_cli("new", "lit", "LIT-500")
    assert_said(result, "data/LIT-500.ttl: the file exists already; nothing written\n")
    assert placeholder.read_text(encoding="utf-8") == "# to be written\n"


def test_render_of_an_entry_marked_read_with_no_note(anthology):
    path = anthology / "data" / "ARXIV-2409.19256.ttl"
    text = path.read_text(encoding="utf-8")
    assert "ak:readingStatus ak:unread" in text
    path.write_text(text.replace("ak:readingStatus ak:unread", "ak:readingStatus ak:read"), "utf-8")
    result = run_cli("render", "ARXIV-2409.19256")
    assert_said(result, "anthology-kg: ARXIV-2409.19256 is marked read but has no note to print\n")


# ---- what the system refuses while reading -------------------------------------------------


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_a_data_folder_that_cannot_be_listed(anthology, monkeypatch, engine):
    """The listing's own error (a folder without read permission, as a user other than
    root meets it), raised where os.scandir lists data/."""
    scandir = os.scandir
    data = str(anthology / "data")

    def refused(path=".", *args):
        if os.path.abspath(os.fspath(path)) == data:
            raise PermissionError(errno.EACCES, "Permission denied", os.fspath(path))
        return scandir(path, *args)

    monkeypatch.setattr(os, "scandir", refused)
    result = run_cli("check", "--engine", engine)
    assert_said(result, "data: cannot list the folder: Permission denied\n")


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_a_file_too_large_for_memory(anthology, monkeypatch, engine):
    """The read of one file fails for want of memory (as os.read of a file larger than
    the memory does): that file is named, the others are read."""
    read = os.read
    large = (anthology / "data" / "LIT-168.ttl").stat().st_ino

    def out_of_memory(fd: int, size: int) -> bytes:
        if os.fstat(fd).st_ino == large:
            raise MemoryError
        return read(fd, size)

    monkeypatch.setattr(os, "read", out_of_memory)
    result = run_cli("check", "--engine", engine)
    assert_said(result, "data/LIT-168.ttl: cannot read: the file is too large for memory\n")
