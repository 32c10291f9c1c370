"""The CPU seconds of the default test suite, run in one process (issue 14, item 7).

    python benchmarks/bench_suite.py                   # the whole default suite
    python benchmarks/bench_suite.py --only benchmarks/suite-at-issue-14.txt
    python benchmarks/bench_suite.py --top 20 -- tests/test_engines.py

Prints the number of tests, the CPU seconds of the pytest process and the processes it
waited for (``os.wait4``: user + system), the sum over tests (each test's own CPU and
that of the children it reaped), and the modules and tests that took the most, with the
children's part. A child's CPU is counted when it is reaped, all at once: a process kept
for several tests (a store, the browser, a fork server) is counted on the test after
which it is stopped (its module's last, conftest).

``--only FILE`` runs only the tests whose node ids FILE lists, one per line (``#`` starts
a comment). ``suite-at-issue-14.txt`` lists the suite as it was when issue 14 set its
target ("the default suite under 60 s CPU"; main at 074abf8, 508 tests): the 476 of them
that still exist under the same node id. Run it beside the whole suite to tell what the
code's speed did from what the suite's growth did. CPU seconds drift with the machine
(1.3-1.6x between hours on a shared one): compare figures of one session only.

This file is also the pytest plugin that measures each test (``-p bench_suite``).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

# --- the plugin (inside the pytest process) ------------------------------------------------

_rows: list[tuple[str, float, float]] = []


def _cpu() -> tuple[float, float]:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):  # noqa: ARG001 (pytest's signature)
    own, children = _cpu()
    yield
    own_after, children_after = _cpu()
    _rows.append((item.nodeid, own_after - own, children_after - children))


def pytest_collection_modifyitems(config, items):
    only = os.environ.get("BENCH_SUITE_ONLY")
    if not only:
        return
    wanted = set(node_ids(Path(only)))
    kept = [item for item in items if item.nodeid in wanted]
    config.hook.pytest_deselected(items=[item for item in items if item.nodeid not in wanted])
    items[:] = kept


def pytest_sessionfinish(session):  # noqa: ARG001 (pytest's signature)
    out = os.environ.get("BENCH_SUITE_OUT")
    if out:
        with open(out, "w", encoding="utf-8") as file:
            for nodeid, own, children in _rows:
                file.write(f"{nodeid}\t{own:.4f}\t{children:.4f}\n")


# --- the runner ---------------------------------------------------------------------------


def node_ids(path: Path) -> list[str]:
    """The node ids ``path`` lists, one per line; blank lines and ``#`` comments skipped."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line.strip() and not line.startswith("#")]


def run(
    only: Path | None, pytest_args: list[str]
) -> tuple[list[tuple[str, float, float]], float, float, int]:
    """Run pytest in one fresh process: each test's (node id, own CPU, children's CPU),
    the whole process's CPU seconds with what it waited for, its wall seconds and exit."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder, "tests.tsv")
        env = {
            **os.environ,
            "BENCH_SUITE_OUT": str(out),
            "PYTHONPATH": os.pathsep.join(
                [str(HERE), *filter(None, [os.environ.get("PYTHONPATH")])]
            ),
        }
        if only is not None:
            env["BENCH_SUITE_ONLY"] = str(only.resolve())
        command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                   "-p", "bench_suite", *pytest_args]  # fmt: skip
        start = time.perf_counter()
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        rows = []
        if out.exists():
            for line in out.read_text(encoding="utf-8").splitlines():
                nodeid, own, children = line.rsplit("\t", 2)
                rows.append((nodeid, float(own), float(children)))
    return rows, usage.ru_utime + usage.ru_stime, wall, os.waitstatus_to_exitcode(status)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", type=Path, help="run only the node ids this file lists")
    parser.add_argument("--top", type=int, default=10, help="modules and tests to list")
    parser.add_argument("pytest_args", nargs="*", help="after --: arguments for pytest")
    args = parser.parse_args(argv)
    rows, process_cpu, wall, code = run(args.only, args.pytest_args)
    summed = sum(own + children for _, own, children in rows)
    print(f"{len(rows)} tests, exit {code}: process CPU {process_cpu:.1f} s (wall {wall:.1f} s),")
    print(f"summed over tests {summed:.1f} s, {1000 * summed / max(len(rows), 1):.1f} ms a test")
    if args.only is not None:
        ran = {nodeid for nodeid, _, _ in rows}
        missing = [nodeid for nodeid in node_ids(args.only) if nodeid not in ran]
        # A renamed test leaves the yardstick: say so rather than measure less quietly.
        for nodeid in missing:
            print(f"listed but not run: {nodeid}")
    modules: Counter[str] = Counter()
    reaped: Counter[str] = Counter()
    counts: Counter[str] = Counter()
    for nodeid, own, children in rows:
        modules[nodeid.split("::")[0]] += own + children
        reaped[nodeid.split("::")[0]] += children
        counts[nodeid.split("::")[0]] += 1
    print("\nCPU s  children  tests  module")
    for module, seconds in modules.most_common(args.top):
        print(f"{seconds:6.2f} {reaped[module]:9.2f} {counts[module]:6d}  {module}")
    print("\nCPU s  children  test")
    for nodeid, own, children in sorted(rows, key=lambda r: -(r[1] + r[2]))[: args.top]:
        print(f"{own + children:6.2f} {children:9.2f}  {nodeid}")
    return 0 if code in (0, 5) else code


if __name__ == "__main__":
    sys.exit(main())
