"""Which anthology a command reads is said when it is not the one the user may think:
outside any anthology the bundled sample is read, and a note says so (review3 R6: a CI
job run in the wrong folder validated the sample and passed, silently); -v names the
anthology and the engine, as its help says ("what is read, engine")."""

from __future__ import annotations

import json

import pytest
from conftest import run_cli

from anthology_kg.resources import bundled_dir

BUNDLED = "no data/ folder here or above: the bundled sample anthology is read"


def test_outside_an_anthology_a_note_says_the_bundled_sample_is_read(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run_cli("query", "unread")
    assert result.exit_code == 0 and result.stderr.count(BUNDLED) == 1, result.stderr
    assert run_cli("-q", "query", "unread").stderr == ""  # --quiet: results only


@pytest.mark.parametrize(
    "args", [("check",), ("validate",), ("validate", "--format", "sarif"), ("-q", "check")]
)
def test_outside_an_anthology_check_and_validate_refuse_the_sample(tmp_path, monkeypatch, args):
    """A CI job or hook run where no anthology is found passed on the bundled sample's
    data, a note on stderr failing no build (hunt21 #3): check and validate refuse, as
    fmt and new do, and say how to name the anthology, or the sample."""
    monkeypatch.chdir(tmp_path)
    result = run_cli(*args)
    refusal = (
        "anthology-kg: no anthology here (no data/ folder here or above); use --root DIR "
        f"(the bundled sample: --root {bundled_dir()})\n"
    )
    assert (result.exit_code, result.stderr) == (2, refusal)
    if "sarif" in args:  # an input error is written in a CI format too (hunt21 #9)
        run = json.loads(result.stdout)["runs"][0]
        (notification,) = run["invocations"][0]["toolExecutionNotifications"]
        assert notification["message"]["text"] == refusal.removeprefix("anthology-kg: ")[:-1]
        assert run["results"] == [] and "locations" not in notification
    else:
        assert result.stdout == ""
    named = run_cli("--root", str(bundled_dir()), *args)
    assert named.exit_code == 0 and BUNDLED not in named.stderr, named.stderr


def test_outside_an_anthology_validate_of_a_store_reads_the_bundled_rules(tmp_path, monkeypatch):
    """With --endpoint the data is the store's: the bundled rules are read, as before (the
    store here answers nothing, and that is what is said)."""
    monkeypatch.chdir(tmp_path)
    result = run_cli("validate", "--endpoint", "http://127.0.0.1:9/sparql", "--timeout", "5")
    assert result.exit_code == 2 and "no anthology here" not in result.stderr, result.stderr
    assert "127.0.0.1:9" in result.stderr, result.stderr


def test_no_note_where_the_anthology_is_named_or_found(tmp_path, monkeypatch, bundled_copy):
    assert BUNDLED not in run_cli("--root", str(bundled_copy), "check").stderr
    monkeypatch.chdir(bundled_copy / "data")  # found above the working directory
    assert run_cli("check").stderr == ""


def test_verbose_names_the_anthology_and_the_engine(bundled_copy, monkeypatch):
    monkeypatch.chdir(bundled_copy)
    result = run_cli("-v", "check", "--engine", "reference")
    assert "anthology-kg: the anthology at ., reference\n" in result.stderr, result.stderr


def test_queries_says_the_bundled_sample_is_read(tmp_path, monkeypatch):
    """``queries`` reads no data, and said nothing of which anthology it listed."""
    monkeypatch.chdir(tmp_path)
    result = run_cli("queries")
    assert result.exit_code == 0 and result.stderr.count(BUNDLED) == 1, result.stderr


def test_export_says_the_bundled_sample_is_read(tmp_path, monkeypatch):
    """``export`` reads the folder without an engine, and said nothing, -v included, of
    the bundled sample it exported where no anthology is found (hunt22)."""
    monkeypatch.chdir(tmp_path)
    result = run_cli("export", "-o", "x.ttl")
    assert result.exit_code == 0 and result.stderr.count(BUNDLED) == 1, result.stderr
    verbose = run_cli("-v", "export", "-o", "y.ttl")
    assert BUNDLED in verbose.stderr, verbose.stderr
    assert f"anthology-kg: the anthology at {bundled_dir()}\n" in verbose.stderr, verbose.stderr
    assert run_cli("-q", "export", "-o", "z.ttl").stderr == ""  # --quiet: results only


def test_import_says_the_bundled_sample_is_read(tmp_path, monkeypatch):
    """``import`` reads the anthology's categories (the words a record may use), and said
    nothing, -v included, where it read the bundled sample's (fixM, hunt22 #1's kin)."""
    from conftest import FIXTURES

    monkeypatch.chdir(tmp_path)
    record = str(FIXTURES / "records" / "LIT-201.txt")
    result = run_cli("import", record, "-o", "x.ttl")
    assert result.exit_code == 0 and result.stderr.count(BUNDLED) == 1, result.stderr
    verbose = run_cli("-v", "import", record, "-o", "y.ttl")
    assert f"anthology-kg: the anthology at {bundled_dir()}\n" in verbose.stderr, verbose.stderr
    assert run_cli("-q", "import", record, "-o", "z.ttl").stderr == ""  # --quiet


@pytest.mark.parametrize("target", ["--endpoint", "--update"])
def test_outside_an_anthology_publish_refuses_the_sample(tmp_path, monkeypatch, target):
    """``publish --replace`` run where no anthology is found replaced a store's graphs
    with the bundled sample's, a note on stderr the only sign (hunt22): it refuses, as
    check and validate do, before any request."""
    from test_publish_reads_first import Store

    monkeypatch.chdir(tmp_path)
    store = Store()
    try:
        result = run_cli("publish", target, store.url, "--replace")
        refused_requests = list(store.requests)
        named = run_cli("--root", str(bundled_dir()), "publish", "--endpoint", store.url)
    finally:
        store.close()
    refusal = (
        "anthology-kg: no anthology here (no data/ folder here or above); use --root DIR "
        f"(the bundled sample: --root {bundled_dir()})\n"
    )
    assert (result.exit_code, result.stderr, result.stdout) == (2, refusal, "")
    assert named.exit_code == 0 and BUNDLED not in named.stderr, named.stderr
    assert refused_requests == []  # nothing was sent, not even a HEAD
    assert [graph for method, graph in store.requests if method == "POST"] == [
        "data",
        "ontology",
        "shapes",
    ], store.requests
