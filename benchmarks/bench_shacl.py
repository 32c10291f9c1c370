"""SHACL validators side by side on the same generated anthologies: this project's
``check`` (shapes compiled to SPARQL on pyoxigraph), pySHACL, and pyshacl-turbo when a
Python that has it is given; pyoxigraph's bare load of the same files is the yardstick.

    python benchmarks/bench_shacl.py --sizes 10000 100000 --runs 3 \\
        [--turbo-python PATH] [--pyshacl-max 2000] [--clock wall|cpu]

Each engine runs as a whole command in a fresh process (start-up, parsing and
validation included), on the same files: the data files for ``check``; for pySHACL and
pyshacl-turbo the same data plus the ontology's vocabulary skeleton as one N-Triples
file, and the anthology's shapes as one Turtle file (what ``check`` validates against).
Each figure is the median of ``--runs`` runs (pySHACL: ``--pyshacl-runs``, and only up
to ``--pyshacl-max`` entries: minutes at 10,000; a size it skips says why), timed and measured from
outside (``os.wait4``: wall or CPU seconds, peak RSS of that process). Printed with
ratios, peak memory and each engine's count of violations; nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BARE = """
import sys, pathlib, pyoxigraph as ox
store = ox.Store()
for path in sorted(pathlib.Path(sys.argv[1], "data").glob("*.ttl")):
    store.load(path=str(path), format=ox.RdfFormat.TURTLE,
               base_iri="https://w3id.org/anthology-kg/id/", to_graph=ox.NamedNode("urn:g"))
print(len(store))
"""
PYSHACL = """
import sys
from rdflib import Graph
from rdflib.namespace import SH
from {module} import validate
data = Graph().parse(sys.argv[1], format="nt")
shapes = Graph().parse(sys.argv[2], format="turtle")
conforms, report, _ = validate(data, shacl_graph=shapes, allow_warnings=True, advanced=False)
print(len(list(report.subjects(SH.resultSeverity, SH.Violation))))
"""
BASE = "https://w3id.org/anthology-kg/id/"


def prepare(entries: int, folder: Path) -> tuple[Path, Path, Path]:
    """The generated anthology (bench_scale's: the same files), its data + vocabulary as
    N-Triples, its shapes; what ``folder`` holds already is reused."""
    import pyoxigraph as ox
    from bench_scale import generated

    from anthology_kg.loader import load_rules, vocabulary

    root = generated(entries, folder / "anthology")
    nt, shapes = folder / "data.nt", folder / "shapes.ttl"
    if nt.is_file() and shapes.is_file():
        return root, nt, shapes
    rules = load_rules(root)
    with nt.open("wb") as out:  # blank nodes stay apart: pyoxigraph labels each anew
        for path in sorted((root / "data").glob("*.ttl")):
            quads = ox.parse(path=str(path), format=ox.RdfFormat.TURTLE, base_iri=BASE)
            ox.serialize((q.triple for q in quads), out, format=ox.RdfFormat.N_TRIPLES)
        out.write(vocabulary(rules.ontology).serialize(format="nt", encoding="utf-8"))
    rules.shapes.serialize(shapes, format="turtle", encoding="utf-8")
    return root, nt, shapes


def measure(command: list[str], runs: int, clock: str) -> tuple[float, float, str]:
    """Median seconds of ``command`` over ``runs`` fresh processes, the largest peak
    RSS (MiB) and the last output. Exit 0 or 1 (a rule broken) is a result."""
    seconds, peaks, out = [], [], ""
    for _ in range(runs):
        with tempfile.TemporaryFile() as stdout, tempfile.TemporaryFile() as stderr:
            start = time.perf_counter()
            process = subprocess.Popen(command, stdout=stdout, stderr=stderr)
            _, status, usage = os.wait4(process.pid, 0)
            wall = time.perf_counter() - start
            if os.waitstatus_to_exitcode(status) not in (0, 1):
                stderr.seek(0)
                raise RuntimeError(f"{command[:3]} failed: {stderr.read().decode()[-500:]}")
            stdout.seek(0)
            out = stdout.read().decode()
        seconds.append(wall if clock == "wall" else usage.ru_utime + usage.ru_stime)
        peaks.append(usage.ru_maxrss / 1024)
    return statistics.median(seconds), max(peaks), out


#: pySHACL's seconds at each size run so far, for the estimate of a size it skips.
PYSHACL_SECONDS: dict[int, float] = {}


def pyshacl_estimate(entries: int) -> str:
    """Why a skipped pySHACL run is not worth waiting for: its time at a size measured in
    this run scaled linearly (its growth is at least linear), else the figure of issue 20."""
    if PYSHACL_SECONDS:
        size = max(PYSHACL_SECONDS)
        seconds = PYSHACL_SECONDS[size] * entries / size
        basis = f"{PYSHACL_SECONDS[size]:.0f} s at {size:,} here"
    else:
        seconds, basis = 150 * entries / 10_000, "150 s at 10,000 entries in issue 20"
    return f"at least ~{seconds / 60:.0f} min, scaled linearly from {basis}"


def load_average() -> str:
    return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


def run_size(entries: int, args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="anthology-kg-bench-shacl-") as tmp:
        folder = Path(args.workdir or tmp, str(entries))
        folder.mkdir(parents=True, exist_ok=True)
        root, nt, shapes = prepare(entries, folder)
        planted = len(json.loads((root / "expected-violations.json").read_text()))
        print(
            f"\n## {entries:,} entries, {planted} planted violations (and the real entry "
            f"ARXIV-2409.19256's own results); {args.clock} seconds, "
            f"medians of {args.runs} runs; {load_average()} at start\n",
            flush=True,
        )
        rows: list[tuple[str, float, float, str]] = []
        bare = measure([sys.executable, "-c", BARE, str(root)], args.runs, args.clock)
        rows.append(
            (
                "pyoxigraph bare load (whole process)",
                *bare[:2],
                f"{bare[2].strip()} quads",
            )
        )
        check = measure(
            [sys.executable, "-m", "anthology_kg", "--root", str(root), "check"],
            args.runs,
            args.clock,
        )
        rows.append(("`anthology-kg check`", *check[:2], check[2].strip().splitlines()[-1]))
        if entries <= args.pyshacl_max:
            command = [
                sys.executable,
                "-c",
                PYSHACL.format(module="pyshacl"),
                str(nt),
                str(shapes),
            ]
            ref = measure(command, args.pyshacl_runs, args.clock)
            PYSHACL_SECONDS[entries] = ref[0]
            rows.append(
                (
                    f"pySHACL (files; {args.pyshacl_runs} run)",
                    *ref[:2],
                    f"{ref[2].strip()} violations",
                )
            )
        else:
            print(
                f"pySHACL not run: {entries:,} entries is above --pyshacl-max {args.pyshacl_max:,}"
                f" ({pyshacl_estimate(entries)}).\n"
            )
        if args.turbo_python:
            script = PYSHACL.format(module="pyshacl_turbo")
            runs = args.turbo_runs or args.runs
            turbo = measure(
                [args.turbo_python, "-c", script, str(nt), str(shapes)],
                runs,
                args.clock,
            )
            rows.append(
                (
                    f"pyshacl-turbo (files; {runs} runs)",
                    *turbo[:2],
                    f"{turbo[2].strip()} violations",
                )
            )
        print("| engine | seconds | × bare load | × check | peak RSS MiB | results |")
        print("|---|---|---|---|---|---|")
        for name, seconds, peak, note in rows:
            print(
                f"| {name} | {seconds:.2f} | {seconds / bare[0]:.1f} | {seconds / check[0]:.1f} "
                f"| {peak:.0f} | {note} |"
            )
        print(f"\n{load_average()} at the end. Goals (issue 20):")
        ratio = check[0] / bare[0]
        print(f"- `check` {ratio:.2f}× bare load (≤ 2×): {'met' if ratio <= 2 else 'NOT met'}")
        print(
            f"- `check` peak RSS {check[1]:.0f} MiB vs bare load {bare[1]:.0f} MiB (≤ bare load "
            f"at 100,000): {'met' if check[1] <= bare[1] else 'NOT met'}"
        )
        if args.turbo_python:
            faster = turbo[0] / check[0]
            print(
                f"- `check` {faster:.1f}× faster than pyshacl-turbo (≥ 3×): "
                f"{'met' if faster >= 3 else 'NOT met'}"
            )
        sys.stdout.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10000, 100000])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--pyshacl-runs", type=int, default=1, help="pySHACL is slow")
    parser.add_argument(
        "--pyshacl-max",
        type=int,
        default=10000,
        help="skip pySHACL above this many entries",
    )
    parser.add_argument(
        "--turbo-python",
        default=os.environ.get("TURBO_PYTHON"),
        help="a Python with pyshacl-turbo installed (default: $TURBO_PYTHON)",
    )
    parser.add_argument("--turbo-runs", type=int, help="runs of pyshacl-turbo (default --runs)")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    parser.add_argument("--workdir", help="keep the anthologies here (bench_scale's: reused)")
    args = parser.parse_args()
    for entries in args.sizes:
        run_size(entries, args)


if __name__ == "__main__":
    main()
