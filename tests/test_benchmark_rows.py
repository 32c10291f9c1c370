"""The scale benchmark (benchmarks/bench_scale.py, run with -m bench) has a row for every
command, so that a new command is measured too. Fast: no benchmark is run here."""

import importlib.util
import sys
from pathlib import Path

from anthology_kg.cli import main

SCRIPT = Path(__file__).parents[1] / "benchmarks" / "bench_scale.py"
#: Commands that need a running SPARQL store (the remote benchmarks measure them).
NOT_ROWS = {"serve", "publish"}


def _bench_scale():
    spec = importlib.util.spec_from_file_location("bench_scale", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, module)  # its dataclasses look their module up
    spec.loader.exec_module(sys.modules[spec.name])
    return sys.modules[spec.name]


def _context() -> dict:
    return {
        "size": 100,
        "root": "/r",
        "changed": "/c",
        "repo": "/g",
        "out": "/o",
        "record": "/x.txt",
        "new_entry": "ARXIV-2912.00001",
        "sparql": "/o/q.rq",
        "queries": {"confounders": {}, "depends-on": {"entry": "ARXIV-2000.00002"}},
    }


def test_every_command_has_a_row():
    bench = _bench_scale()
    rows = bench.rows(_context())
    measured = {row.args[2] if row.args[0] == "--root" else row.args[0] for row in rows}
    assert set(main.commands) - NOT_ROWS <= measured
    assert {f"export {fmt}" for fmt in bench.EXPORT_FORMATS} <= {row.name for row in rows}


def test_a_row_runs_on_its_anthology_with_the_engine_asked():
    bench = _bench_scale()
    rows = {row.name: row for row in bench.rows(_context())}
    assert bench.command_line(_context(), rows["check"], "reference") == [
        "--root", "/r", "check", "--timeout", "0", "--engine", "reference",
    ]  # fmt: skip
    depends = bench.command_line(_context(), rows["query depends-on"], "fast")
    assert depends[:4] == ["--root", "/r", "query", "depends-on"]
    assert "entry=ARXIV-2000.00002" in depends
    assert bench.command_line(_context(), rows["diff (two git revisions)"], "fast")[:2] == [
        "--root", "/g",
    ]  # fmt: skip


def test_the_last_site_is_written_again_beside_it_and_printed_beside_the_site_goal(tmp_path):
    bench = _bench_scale()
    aside = tmp_path / "set-aside"
    for number, text in ((3, "older"), (12, "last")):
        (aside / f"site-{number}" / "entries").mkdir(parents=True)
        (aside / f"site-{number}" / "index.html").write_text(text)
        (aside / f"site-{number}" / "entries" / "A.html").write_text(text * 2)
    rewritten = bench.files_written_bare(tmp_path, "cpu")
    assert rewritten["files"] == 2 and rewritten["bytes"] == len("last") * 3
    assert bench.files_written_bare(tmp_path, "cpu") is not None
    copies = sorted(aside.glob("rewritten-*"))
    assert len(copies) == 2
    for copy in copies:
        assert (copy / "index.html").read_text() == "last"
        assert (copy / "entries" / "A.html").read_text() == "lastlast"
    figures = {
        ("library", "files written bare", "site"): {**rewritten, "seconds": 3.0},
        ("library", "bare", "site"): {"seconds": 0.5},
    }
    (line,) = bench.goals(figures, 10000, ["library"])
    assert line.startswith("- library, the site's 2 files (0 MiB) written again")
    assert "3.00 s, 6.00× bare load" in line
    assert bench.files_written_bare(tmp_path / "none", "cpu") is None
