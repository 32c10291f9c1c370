"""SHACL validators side by side on one generated anthology: this project's ``check``
(shapes compiled to SPARQL on pyoxigraph), pySHACL, and pyshacl-turbo when a Python
that has it is given; pyoxigraph's bare load of the same files is the yardstick.

    python benchmarks/bench_shacl.py --entries 10000 --runs 3 [--turbo-python PATH]

Each engine runs as a whole command in a fresh process (start-up, parsing and
validation included), on the same files: the data files for ``check``; for pySHACL and
pyshacl-turbo the same data plus the ontology's vocabulary skeleton as one N-Triples
file, and the anthology's shapes as one Turtle file (what ``check`` validates against).
Medians are printed with ratios and each engine's result count; nothing is asserted.
"""

from __future__ import annotations

import argparse
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


def prepare(entries: int, folder: Path) -> tuple[Path, Path, Path]:
    """The generated anthology, its data + vocabulary as N-Triples, its shapes."""
    from rdflib import Graph

    from anthology_kg.loader import load_anthology, vocabulary

    root = folder / "anthology"
    subprocess.run(
        [sys.executable, "-m", "anthology_kg", "generate", "--entries", str(entries),
         "--seed", "1", "--violations", "50", "-o", str(root)],
        check=True, capture_output=True,
    )  # fmt: skip
    anthology = load_anthology(root)
    data = Graph()
    data += anthology.data
    data += vocabulary(anthology.ontology)
    nt, shapes = folder / "data.nt", folder / "shapes.ttl"
    data.serialize(nt, format="nt", encoding="utf-8")
    anthology.shapes.serialize(shapes, format="turtle", encoding="utf-8")
    return root, nt, shapes


def timed(command: list[str], runs: int) -> tuple[float, str]:
    """Median wall-clock seconds of ``command`` over ``runs`` runs, and its last output."""
    times, out = [], ""
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True)
        times.append(time.perf_counter() - start)
        if done.returncode not in (0, 1):
            raise RuntimeError(f"{command[:3]} failed: {done.stderr[-500:]}")
        out = done.stdout
    return statistics.median(times), out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", type=int, default=10000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--pyshacl-runs", type=int, default=1, help="pySHACL is slow")
    parser.add_argument(
        "--pyshacl-max", type=int, default=2000, help="skip pySHACL above this many entries"
    )
    parser.add_argument("--turbo-python", help="a Python with pyshacl-turbo installed")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root, nt, shapes = prepare(args.entries, Path(tmp))
        rows: list[tuple[str, float, str]] = []
        bare, quads = timed([sys.executable, "-c", BARE, str(root)], args.runs)
        rows.append(("pyoxigraph bare load", bare, f"{quads.strip()} quads"))
        check, out = timed(
            [sys.executable, "-m", "anthology_kg", "--root", str(root), "check"], args.runs
        )
        rows.append(("anthology-kg check", check, out.strip().splitlines()[-1]))
        if args.entries <= args.pyshacl_max:
            script = PYSHACL.format(module="pyshacl")
            command = [sys.executable, "-c", script, str(nt), str(shapes)]
            ref, out = timed(command, args.pyshacl_runs)
            rows.append(("pySHACL (files)", ref, f"{out.strip()} violations"))
        if args.turbo_python:
            script = PYSHACL.format(module="pyshacl_turbo")
            turbo, out = timed([args.turbo_python, "-c", script, str(nt), str(shapes)], args.runs)
            rows.append(("pyshacl-turbo (files)", turbo, f"{out.strip()} violations"))
    print(f"\n{args.entries} entries, 50 planted violations; medians of {args.runs} runs "
          f"(pySHACL: {args.pyshacl_runs})\n")  # fmt: skip
    print("| engine | seconds | × bare load | × check | results |")
    print("|---|---|---|---|---|")
    for name, seconds, note in rows:
        print(f"| {name} | {seconds:.2f} | {seconds / bare:.1f} | {seconds / check:.1f} | {note} |")


if __name__ == "__main__":
    main()
