"""SHACL validators side by side on the same generated anthologies: this project's
``check`` (shapes compiled to SPARQL on pyoxigraph), pySHACL, and when asked
pyshacl-turbo, rudof (pyrudof) and Apache Jena SHACL; pyoxigraph's bare load of the same
files is the yardstick.

    python benchmarks/bench_shacl.py --sizes 10000 100000 --runs 3 \\
        [--turbo-python PATH] [--rudof-python PATH] [--jena] \\
        [--pyshacl-max 2000] [--clock wall|cpu]

Each engine runs as a whole command in a fresh process (start-up, parsing and
validation included), on the same files: the data files for ``check``; for the others
the same data plus the ontology's vocabulary skeleton as one N-Triples file, and the
anthology's shapes as one Turtle file (what ``check`` validates against).

pyshacl-turbo and rudof run in a Python of their own (``--turbo-python``,
``--rudof-python``: a virtual environment with ``pip install pyshacl-turbo`` or
``pip install pyrudof``; neither is a dependency of this project). A validator that
refuses the shapes (rudof: a SHACL-SPARQL constraint whose focus nodes include a blank
node, "expected UNDEF" in the query it makes of it) is reported with its message; the
SHACL-SPARQL constraints it refuses are then found one by one (untimed), and ``check``,
pyshacl-turbo and it run again on the shapes without them, in a second table.

Jena (``--jena``) runs ``ShaclValidate.java`` beside this file with the Jena of
tests/jena.py (Debian's ``libapache-jena-java``: Jena 5, on Maven Central, is not
reachable from this project's machines); a JVM that does nothing on the same classpath
is timed as its own row, and the program says on stderr how long its reading and its
validation took in the process.

Each figure is the median of ``--runs`` runs (pySHACL: ``--pyshacl-runs``, and only up
to ``--pyshacl-max`` entries: minutes at 10,000; a size it skips says why; pyshacl-turbo,
rudof and Jena: ``--turbo-runs``, ``--rudof-runs``, ``--jena-runs``), timed and measured from
outside (``os.wait4``: wall or CPU seconds, peak RSS of that process). Printed with
ratios, peak memory and each engine's count of violations; nothing is asserted.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from rdflib import Graph
    from rdflib.term import Node

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
#: rudof on the data and each shapes file given: a line for each, its count of
#: sh:Violation results, or "refused:" and rudof's message.
RUDOF = """
import sys, pyrudof
rudof = pyrudof.Rudof(pyrudof.RudofConfig())
rudof.read_data(sys.argv[1], format=pyrudof.RDFFormat.NTriples,
                reader_mode=pyrudof.ReaderMode.Strict)
for shapes in sys.argv[2:]:
    rudof.reset_shacl()
    rudof.read_shacl(shapes, format=pyrudof.ShaclFormat.Turtle,
                     reader_mode=pyrudof.ReaderMode.Strict)
    try:
        report = rudof.validate_shacl()
    except pyrudof.RudofError as error:
        print("refused:", " ".join(str(error).split()))
        continue
    print(sum(entry.severity == "Violation" for entry in report), "violations")
"""
#: ``check`` with the bundled shapes replaced by the folder given first: the shapes
#: rudof runs.
CHECK_WITH_SHAPES = """
import sys
from pathlib import Path
from anthology_kg import resources
shapes = Path(sys.argv.pop(1))
resources.bundled_shapes_dir = lambda: shapes
from anthology_kg.cli import run
run()
"""
BASE = "https://w3id.org/anthology-kg/id/"
JAVA_PROGRAM = Path(__file__).with_name("ShaclValidate.java")


class Row(NamedTuple):
    name: str
    seconds: float
    peak: float
    note: str


class Measured(NamedTuple):
    seconds: float
    peak: float
    out: str
    err: str


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


def measure(command: list[str], runs: int, clock: str) -> Measured:
    """Median seconds of ``command`` over ``runs`` fresh processes, the largest peak
    RSS (MiB), the last output and the last line of the last standard error. Exit 0 or 1
    (a rule broken) is a result."""
    seconds, peaks, out, err = [], [], "", ""
    for _ in range(runs):
        with tempfile.TemporaryFile() as stdout, tempfile.TemporaryFile() as stderr:
            start = time.perf_counter()
            process = subprocess.Popen(command, stdout=stdout, stderr=stderr)
            _, status, usage = os.wait4(process.pid, 0)
            wall = time.perf_counter() - start
            stderr.seek(0)
            err = stderr.read().decode(errors="replace")
            if os.waitstatus_to_exitcode(status) not in (0, 1):
                raise RuntimeError(f"{command[:3]} failed: {err[-500:]}")
            stdout.seek(0)
            out = stdout.read().decode()
        seconds.append(wall if clock == "wall" else usage.ru_utime + usage.ru_stime)
        peaks.append(usage.ru_maxrss / 1024)
    lines = err.strip().splitlines()
    return Measured(statistics.median(seconds), max(peaks), out, lines[-1] if lines else "")


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


def version(python: str, distribution: str) -> str:
    """The version of ``distribution`` installed for ``python``."""
    script = f"import importlib.metadata as m; print(m.version({distribution!r}))"
    done = subprocess.run([python, "-c", script], capture_output=True, text=True, check=True)
    return done.stdout.strip()


@functools.cache
def shapes_graph(shapes: Path) -> Graph:
    """``shapes`` parsed, once: its blank nodes (a constraint's) are the same in every
    use."""
    from rdflib import Graph

    return Graph().parse(shapes, format="turtle")


def sparql_constraints(shapes: Path) -> list[tuple[Node, Node]]:
    """Each (shape, constraint) of an sh:sparql in ``shapes``, in the order of the
    shapes' names."""
    from rdflib.namespace import SH

    pairs = shapes_graph(shapes).subject_objects(SH.sparql)
    return sorted(pairs, key=lambda pair: str(pair[0]))


def without(shapes: Path, dropped: list[tuple[Node, Node]], target: Path) -> Path:
    """``shapes`` without the SHACL-SPARQL constraints ``dropped`` (their sh:sparql and
    their own triples), written to ``target``."""
    from rdflib import Graph
    from rdflib.namespace import SH

    graph = Graph()
    for prefix, namespace in shapes_graph(shapes).namespaces():
        graph.bind(prefix, namespace)
    for triple in shapes_graph(shapes):
        graph.add(triple)
    for shape, constraint in dropped:
        graph.remove((shape, SH.sparql, constraint))
        graph.remove((constraint, None, None))
    target.parent.mkdir(parents=True, exist_ok=True)
    graph.serialize(target, format="turtle", encoding="utf-8")
    return target


def short(shapes: Path, node: Node) -> str:
    """A shape's prefixed name in ``shapes``."""
    return node.n3(shapes_graph(shapes).namespace_manager)


def rudof_refusals(
    python: str, nt: Path, shapes: Path, folder: Path
) -> list[tuple[Node, Node]] | None:
    """The SHACL-SPARQL constraints of ``shapes`` that rudof refuses on ``nt``, each
    tried alone beside the core shapes (untimed); ``None`` if it refuses the core shapes
    too."""
    constraints = sparql_constraints(shapes)
    core = without(shapes, constraints, folder / "core.ttl")
    files = [core]
    for number, pair in enumerate(constraints):
        files.append(
            without(shapes, [p for p in constraints if p != pair], folder / f"{number}.ttl")
        )
    done = subprocess.run(
        [python, "-c", RUDOF, str(nt), *map(str, files)], capture_output=True, text=True, check=True
    )
    answers = done.stdout.splitlines()
    if answers[0].startswith("refused:"):
        return None
    return [
        pair
        for pair, answer in zip(constraints, answers[1:], strict=True)
        if answer.startswith("refused:")
    ]


def jena_program(folder: Path) -> list[str] | str:
    """The command that runs ShaclValidate.java with Apache Jena (tests/jena.py's:
    Debian's libapache-jena-java, compiled into ``folder`` with the message files its
    jena-core lacks), or why Jena cannot run here."""
    sys.path.insert(0, str(Path(__file__).parents[1] / "tests"))
    import jena  # tests/jena.py

    reason = jena.unavailable()
    if reason:
        return reason
    compiled = jena.Jena.compiled(folder)
    subprocess.run(
        [
            "javac",
            "-nowarn",
            "-encoding",
            "UTF-8",
            "-cp",
            compiled.classpath,
            "-d",
            str(folder),
            str(JAVA_PROGRAM),
        ],
        check=True,
    )
    return ["java", "-cp", compiled.classpath, "ShaclValidate"]


def table(rows: list[Row], bare: float, check: float) -> None:
    print("| engine | seconds | × bare load | × check | peak RSS MiB | results |")
    print("|---|---|---|---|---|---|")
    for name, seconds, peak, note in rows:
        print(
            f"| {name} | {seconds:.2f} | {seconds / bare:.1f} | {seconds / check:.1f} "
            f"| {peak:.0f} | {note} |"
        )


def check_command(root: Path, shapes_folder: Path | None = None) -> list[str]:
    if shapes_folder is None:
        return [sys.executable, "-m", "anthology_kg", "--root", str(root), "check"]
    return [
        sys.executable,
        "-c",
        CHECK_WITH_SHAPES,
        str(shapes_folder),
        "--root",
        str(root),
        "check",
    ]


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
        rows: list[Row] = []
        notes: list[str] = []
        bare = measure([sys.executable, "-c", BARE, str(root)], args.runs, args.clock)
        rows.append(
            Row("pyoxigraph bare load (whole process)", *bare[:2], f"{bare.out.strip()} quads")
        )
        check = measure(check_command(root), args.runs, args.clock)
        rows.append(Row("`anthology-kg check`", *check[:2], check.out.strip().splitlines()[-1]))
        if entries <= args.pyshacl_max:
            command = [sys.executable, "-c", PYSHACL.format(module="pyshacl"), str(nt), str(shapes)]
            ref = measure(command, args.pyshacl_runs, args.clock)
            PYSHACL_SECONDS[entries] = ref.seconds
            rows.append(
                Row(
                    f"pySHACL (files; {args.pyshacl_runs} run)",
                    *ref[:2],
                    f"{ref.out.strip()} violations",
                )
            )
        else:
            notes.append(
                f"pySHACL not run: {entries:,} entries is above --pyshacl-max {args.pyshacl_max:,}"
                f" ({pyshacl_estimate(entries)})."
            )
        turbo_script = PYSHACL.format(module="pyshacl_turbo")
        turbo_runs = args.turbo_runs or args.runs
        if args.turbo_python:
            turbo = measure(
                [args.turbo_python, "-c", turbo_script, str(nt), str(shapes)],
                turbo_runs,
                args.clock,
            )
            named = version(args.turbo_python, "pyshacl-turbo")
            name = f"pyshacl-turbo {named} (files; {turbo_runs} runs)"
            rows.append(Row(name, *turbo[:2], f"{turbo.out.strip()} violations"))
        if args.jena:
            java = jena_program(folder / "jena")
            if isinstance(java, str):
                notes.append(f"Jena not run: {java}.")
            else:
                runs = args.jena_runs or args.runs
                start = measure(java, runs, args.clock)
                jena = measure([*java, str(nt), str(shapes)], runs, args.clock)
                named = jena.err.split("Jena ")[-1].split(":")[0] if "Jena " in jena.err else "?"
                rows.append(
                    Row(f"JVM start-up alone (same classpath; {runs} runs)", *start[:2], "–")
                )
                rows.append(
                    Row(
                        f"Jena SHACL {named} (files; {runs} runs)",
                        *jena[:2],
                        f"{jena.out.strip()} violations",
                    )
                )
                notes.append(f"Jena's process (last run): {jena.err}.")
        refused: list[tuple[Node, Node]] = []
        if args.rudof_python:
            runs = args.rudof_runs or args.runs
            rudof = measure(
                [args.rudof_python, "-c", RUDOF, str(nt), str(shapes)], runs, args.clock
            )
            name = f"rudof (pyrudof {version(args.rudof_python, 'pyrudof')}; files; {runs} runs)"
            answer = rudof.out.strip()
            if answer.startswith("refused:"):
                probed = rudof_refusals(args.rudof_python, nt, shapes, folder / "rudof")
                rows.append(Row(name, *rudof[:2], "refused the shapes: no report"))
                notes.append(f"rudof {answer}")
                if probed is None:
                    notes.append(
                        "rudof refuses the shapes without any SHACL-SPARQL constraint too."
                    )
                elif not probed:
                    notes.append("rudof runs each SHACL-SPARQL constraint alone, not all of them.")
                refused = probed or []
            else:
                rows.append(Row(name, *rudof[:2], answer))
        print(f"Planted: {planted}. {load_average()} after these runs.\n")
        table(rows, bare.seconds, check.seconds)
        for note in notes:
            print(f"\n{note}")
        if refused:
            subset_table(refused, root, nt, shapes, folder, args, bare.seconds, turbo_script)
        print(f"\n{load_average()} at the end. Goals (issue 20):")
        ratio = check.seconds / bare.seconds
        print(f"- `check` {ratio:.2f}× bare load (≤ 2×): {'met' if ratio <= 2 else 'NOT met'}")
        print(
            f"- `check` peak RSS {check.peak:.0f} MiB vs bare load {bare.peak:.0f} MiB "
            f"(≤ bare load at 100,000): {'met' if check.peak <= bare.peak else 'NOT met'}"
        )
        if args.turbo_python:
            faster = turbo.seconds / check.seconds
            print(
                f"- `check` {faster:.1f}× faster than pyshacl-turbo (≥ 3×): "
                f"{'met' if faster >= 3 else 'NOT met'}"
            )
        sys.stdout.flush()


def subset_table(
    refused: list[tuple[Node, Node]],
    root: Path,
    nt: Path,
    shapes: Path,
    folder: Path,
    args: argparse.Namespace,
    bare: float,
    turbo_script: str,
) -> None:
    """``check``, pyshacl-turbo and rudof on the shapes without the SHACL-SPARQL
    constraints rudof refuses: the comparison rudof can take part in."""
    names = ", ".join(short(shapes, shape) for shape, _ in refused)
    total = len(sparql_constraints(shapes))
    subset = without(shapes, refused, folder / "rudof-shapes" / "shapes.ttl")
    print(
        f"\nOn the shapes rudof runs: without the {len(refused)} of {total} SHACL-SPARQL "
        f"constraints it refuses ({names}); {load_average()} at start.\n"
    )
    check = measure(check_command(root, subset.parent), args.runs, args.clock)
    rows = [
        Row("`anthology-kg check` (these shapes)", *check[:2], check.out.strip().splitlines()[-1])
    ]
    if args.turbo_python:
        runs = args.turbo_runs or args.runs
        turbo = measure(
            [args.turbo_python, "-c", turbo_script, str(nt), str(subset)], runs, args.clock
        )
        rows.append(
            Row(
                f"pyshacl-turbo (these shapes; {runs} runs)",
                *turbo[:2],
                f"{turbo.out.strip()} violations",
            )
        )
    runs = args.rudof_runs or args.runs
    rudof = measure([args.rudof_python, "-c", RUDOF, str(nt), str(subset)], runs, args.clock)
    rows.append(Row(f"rudof (these shapes; {runs} runs)", *rudof[:2], rudof.out.strip()))
    table(rows, bare, check.seconds)


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
    parser.add_argument(
        "--rudof-python",
        default=os.environ.get("RUDOF_PYTHON"),
        help="a Python with pyrudof installed (default: $RUDOF_PYTHON)",
    )
    parser.add_argument("--rudof-runs", type=int, help="runs of rudof (default --runs)")
    parser.add_argument(
        "--jena", action="store_true", help="run Apache Jena SHACL (Debian's, as tests/jena.py)"
    )
    parser.add_argument("--jena-runs", type=int, help="runs of Jena (default --runs)")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    parser.add_argument("--workdir", help="keep the anthologies here (bench_scale's: reused)")
    args = parser.parse_args()
    for entries in args.sizes:
        run_size(entries, args)


if __name__ == "__main__":
    main()
