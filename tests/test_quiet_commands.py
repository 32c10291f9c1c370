"""``-q`` ("Print results only: no summary, no notes") holds for the commands that write
somewhere else than stdout: ``new`` printed its ``wrote …`` line, what the check still
asks and ``… passes check``, ``publish`` a line per graph sent, ``serve`` its curl hint.
A command's result under -q is what a script reads: ``new`` (and ``import`` of a folder)
the path of each file written, alone on its line; ``publish`` nothing (exit 0 says the
graphs were sent); ``serve`` where it listens."""

from __future__ import annotations

import pytest
from conftest import RECORDS, records_folder, run_cli
from test_publish_reads_first import Store

from anthology_kg.resources import bundled_dir


@pytest.fixture
def empty(tmp_path, monkeypatch):
    (tmp_path / "data").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_quiet_new_prints_the_path_of_the_file_written(empty):
    loud = run_cli("new", "reference", "ARXIV-2401.00001", "--title", "A work")
    assert loud.exit_code == 0, loud.stderr
    assert loud.stdout.startswith("wrote data/ARXIV-2401.00001.ttl\nto fill in: ak:category")
    result = run_cli("-q", "new", "reference", "ARXIV-2401.00002", "--title", "A work")
    assert (result.exit_code, result.stdout, result.stderr) == (
        0,
        "data/ARXIV-2401.00002.ttl\n",
        "",
    )
    assert (empty / "data" / "ARXIV-2401.00002.ttl").is_file()
    # An entry that passes: the path alone, not '… passes check'.
    result = run_cli("-q", "new", "note", "NOTE-003", "--title", "A note")
    assert (result.exit_code, result.stdout, result.stderr) == (0, "data/NOTE-003.ttl\n", "")


def test_quiet_new_prints_the_path_as_found_from_elsewhere(empty, tmp_path_factory, monkeypatch):
    monkeypatch.chdir(tmp_path_factory.mktemp("elsewhere"))
    result = run_cli("--root", str(empty), "-q", "new", "note", "NOTE-004", "--title", "x")
    assert (result.exit_code, result.stdout) == (0, f"{empty / 'data' / 'NOTE-004.ttl'}\n")


def test_quiet_import_of_a_folder_prints_the_paths_alone(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    records_folder(tmp_path, RECORDS)
    (tmp_path / "loud").mkdir()
    (tmp_path / "quiet").mkdir()
    loud = run_cli("import", "records", "-o", "loud")
    assert loud.stdout.splitlines()[-1] == f"{len(RECORDS)} record(s) imported"
    quiet = run_cli("-q", "import", "records", "-o", "quiet")
    assert quiet.exit_code == 0, quiet.stderr
    expected = [f"quiet/{path.stem}.ttl" for path in sorted(RECORDS)]
    assert sorted(quiet.stdout.splitlines()) == expected
    assert [line.replace("wrote loud/", "quiet/") for line in loud.stdout.splitlines()[:-1]] == (
        quiet.stdout.splitlines()
    )


def test_quiet_publish_prints_nothing():
    store = Store()
    try:
        loud = run_cli("--root", str(bundled_dir()), "publish", "--endpoint", store.url, "--add")
        quiet = run_cli(
            "--root", str(bundled_dir()), "-q", "publish", "--endpoint", store.url, "--add"
        )
    finally:
        store.close()
    assert loud.stdout.startswith("added to <https://w3id.org/anthology-kg/graph/data>: ")
    assert len(loud.stdout.splitlines()) == 3
    assert (quiet.exit_code, quiet.stdout, quiet.stderr) == (0, "", "")
    assert [method for method, _ in store.requests].count("POST") == 6  # both sent


def test_quiet_serve_prints_where_it_listens_without_the_hint(monkeypatch):
    import anthology_kg.server

    def serve(anthology, host, port, read_only, started, timeout=None):
        started(f"http://{host}:{port}")
        return 0

    monkeypatch.setattr(anthology_kg.server, "serve", serve)
    endpoint = (
        "SPARQL endpoint: http://127.0.0.1:7878/query   Graph Store: http://127.0.0.1:7878/store\n"
    )
    loud = run_cli("--root", str(bundled_dir()), "serve")
    assert loud.stdout.startswith(endpoint) and "try: curl" in loud.stdout
    quiet = run_cli("--root", str(bundled_dir()), "-q", "serve")
    assert (quiet.exit_code, quiet.stdout, quiet.stderr) == (0, endpoint, "")
