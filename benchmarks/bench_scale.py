"""Scale benchmark: every command on generated anthologies, beside pyoxigraph doing the
bare work of the same command in the same run.

    python benchmarks/bench_scale.py --sizes 10000 100000 [--reference-max 10000]
        [--modes library,command] [--rows REGEX] [--clock wall|cpu] [--repeat N]
        [--workdir DIR] [--json FILE]

Every figure comes from a fresh process, so that its peak RSS is its own; a row's bare
work and its fast run alternate, repeat after repeat, so that a change in the machine's
load between them moves both and not their ratio. Two ways of timing a command
(``--modes``):

- ``library``: the command's own code after its imports: a worker imports every module
  of ``anthology_kg`` (untimed), then times the click command called in-process
  (``main.main([...])``: load, work, output written to a file or to /dev/null).
- ``command``: the whole command, ``python -m anthology_kg ...``, as a user runs it
  (interpreter start-up and imports included), timed and measured from outside
  (``os.wait4``: wall or CPU seconds, peak RSS of that process alone). The package is
  byte-compiled first, as pip does on install (``byte_compile_package``).

The yardstick of each row, "bare", is pyoxigraph alone doing the bare work of the
command, timed the same way (in-process after ``import pyoxigraph``, or as a whole
process): the bare load of the data files for commands that read the anthology
(``check``, ``validate``, ``stats``, ``rules``, ``queries``, ``render``, ``site``,
``new``, ``fmt``, ``import``); the parse of the same files plus a serialization in the
same format for ``export``; the load of data, ontology and shapes plus the same SPARQL
text (parameters bound as the engine binds them) for ``query`` and ``sparql``; the load
of both states into two stores for ``diff``; none for ``generate``. ``serve`` and
``publish`` need a running store and are not rows here. The reference engine (rdflib +
pySHACL) runs the commands that take ``--engine`` up to ``--reference-max`` entries
(by default only the rows ``--reference-rows`` names: it takes minutes at 10,000).
Figures are printed, never asserted: this is a benchmark, not a test.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

BASE = "https://w3id.org/anthology-kg/id/"
#: ``--clock``: wall-clock seconds, or the CPU seconds of the process (steadier on a
#: machine other work shares).
CLOCKS = ("wall", "cpu")
MODES = ("library", "command")
EXPORT_FORMATS = ("turtle", "ntriples", "nquads", "jsonld", "rdfxml")
#: The ad-hoc query of the ``sparql`` row.
SPARQL = """PREFIX ak: <https://w3id.org/anthology-kg/ns#>
SELECT ?class (COUNT(?entry) AS ?entries) WHERE {
  ?entry a ?class .
  FILTER(STRSTARTS(STR(?class), STR(ak:)))
} GROUP BY ?class ORDER BY ?class
"""
#: The entry of the ``render`` row, copied from the bundled anthology.
RENDERED = "ARXIV-2409.19256"
#: A benchmark is not cut short: no --timeout (the default, 300 s, is reached by the
#: reference engine on a busy machine).
NO_LIMIT = ("--timeout", "0")
#: The rows the reference engine runs by default (it takes minutes at 10,000 entries).
REFERENCE_ROWS = "^(check|sparql|query (confounders|depends-on))$"
#: The issues' goals, as (row, what the ratio is to, at most).
GOALS = {
    "check": "≤ 2× bare load",
    "stats": "≤ 1.5× bare load",
    "site": "≤ 5× bare load",
    "export turtle": "≤ 2× bare parse + serialize",
}


@dataclass(frozen=True)
class Row:
    """One command of the table: its arguments (after ``--root ROOT``), the bare work it
    is compared with, and whether the reference engine runs it (``--engine``)."""

    name: str
    args: tuple[str, ...]
    #: The bare work it is compared with; empty: none (``generate`` writes, reads nothing).
    bare: str
    reference: bool = False


def rows(ctx: dict) -> list[Row]:
    """Every command, with the arguments the generated anthology in ``ctx`` needs."""
    out = ctx["out"]
    found = [
        Row("check", ("check", *NO_LIMIT), "load", True),
        Row("validate --format json", ("validate", "--format", "json", *NO_LIMIT), "load", True),
        Row("stats", ("stats",), "load"),
        Row("rules", ("rules",), "load"),
        Row("queries", ("queries",), "load"),
    ]
    for name, params in ctx["queries"].items():
        args = ["query", name, "--format", "json", *NO_LIMIT]
        for param, value in params.items():
            args += ["--param", f"{param}={value}"]
        found.append(Row(f"query {name}", tuple(args), f"query {name}", True))
    found.append(
        Row("sparql", ("sparql", ctx["sparql"], "--format", "json", *NO_LIMIT), "sparql", True)
    )
    for fmt in EXPORT_FORMATS:
        found.append(
            Row(
                f"export {fmt}",
                ("export", "--format", fmt, "-o", f"{out}/x.{fmt}"),
                f"export {fmt}",
            )
        )
    found += [
        Row("render", ("render", RENDERED), "load"),
        Row("site", ("site", "-o", f"{out}/site"), "load", True),
        Row(
            "new",
            (
                "new",
                "reference",
                ctx["new_entry"],
                "--title",
                "Bench",
                "--authors",
                "Bench et al.",
                "--category",
                "method",
            ),
            "load",
        ),  # fmt: skip
        Row("fmt --check", ("fmt", "--check"), "load"),
        Row("import --check", ("import", "--check", ctx["record"]), "load"),
        Row(
            "diff (two folders)", ("diff", ctx["root"], ctx["changed"], "--format", "json"), "diff"
        ),
        Row(
            "diff (two git revisions)",
            ("--root", ctx["repo"], "diff", "HEAD~1", "HEAD", "--format", "json"),
            "diff",
        ),
        Row(
            "generate",
            ("generate", "--entries", str(ctx["size"]), "--seed", "2", "-o", f"{out}/generated"),
            "",
        ),
    ]
    return found


def command_line(ctx: dict, row: Row, engine: str) -> list[str]:
    """The command's arguments: ``--root`` first (unless the row names its own)."""
    args = list(row.args)
    if engine == "reference":
        args += ["--engine", "reference"]
    return args if args[0] == "--root" else ["--root", ctx["root"], *args]


# --- the workers (each a fresh process) -------------------------------------------------


def _now(clock: str) -> float:
    """Wall seconds, or the CPU seconds of this process and its finished children (git,
    Graphviz's dot)."""
    if clock == "wall":
        return time.perf_counter()
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def _peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def library_worker(args: list[str], clock: str) -> dict:
    """The click command called in this process after every module is imported."""
    import importlib
    import pkgutil

    import anthology_kg

    for module in pkgutil.walk_packages(anthology_kg.__path__, "anthology_kg."):
        if not module.name.endswith("__main__"):  # it would run the command line
            importlib.import_module(module.name)
    from anthology_kg.cli import main

    stdout, sys.stdout = sys.stdout, open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115
    start = _now(clock)
    try:
        code = main.main(args, prog_name="anthology-kg", standalone_mode=False)
    except SystemExit as exc:
        code = exc.code
    seconds = _now(clock) - start
    sys.stdout.close()
    sys.stdout = stdout
    return {"seconds": seconds, "rss": _peak_mib(), "exit": code or 0}


def bare_worker(task: str, ctx: dict, clock: str) -> dict:
    """pyoxigraph alone doing the bare work ``task`` (see the module's docstring)."""
    import pyoxigraph as ox

    turtle = ox.RdfFormat.TURTLE
    data = sorted(Path(ctx["root"], "data").glob("*.ttl"))

    def load(files, store, graph=None):
        for path in files:
            store.load(path=str(path), format=turtle, base_iri=BASE, to_graph=graph)

    start = _now(clock)
    if task == "load":
        load(data, ox.Store(), ox.NamedNode(ctx["graphs"]["data"]))
    elif task.startswith("export "):
        formats = {
            "turtle": ox.RdfFormat.TURTLE,
            "ntriples": ox.RdfFormat.N_TRIPLES,
            "nquads": ox.RdfFormat.N_QUADS,
            "jsonld": ox.RdfFormat.JSON_LD,
            "rdfxml": ox.RdfFormat.RDF_XML,
        }
        files = [*data, Path(ctx["ontology"])]  # what export reads
        quads = [q for p in files for q in ox.parse(path=str(p), format=turtle, base_iri=BASE)]
        ox.serialize(quads, format=formats[task.split()[1]])
    elif task == "diff":
        for state in (ctx["root"], ctx["changed"]):
            load(sorted(Path(state, "data").glob("*.ttl")), ox.Store())
    else:  # a query: data, ontology and shapes in their graphs, then the same SPARQL text
        store = ox.Store()
        graphs = {part: ox.NamedNode(iri) for part, iri in ctx["graphs"].items()}
        load(data, store, graphs["data"])
        load([Path(ctx["ontology"])], store, graphs["ontology"])
        load([Path(p) for p in ctx["shapes"]], store, graphs["shapes"])
        text = ctx["sparql_text"] if task == "sparql" else ctx["bound"][task.split()[1]]
        answer = store.query(text, default_graph=list(graphs.values()))
        assert isinstance(answer, ox.QuerySolutions)  # every bare query is a SELECT
        list(answer)
    return {"seconds": _now(clock) - start, "rss": _peak_mib(), "exit": 0}


# --- the runner ---------------------------------------------------------------------------


def measure(command: list[str], clock: str, cwd: str) -> dict:
    """Run ``command`` as a fresh process; its seconds and peak RSS (``os.wait4``).
    Exit 0 and 1 (a rule broken, a difference found) are results; 2 is a failure."""
    with tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=err, cwd=cwd)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        if process.returncode not in (0, 1):
            err.seek(0)
            raise RuntimeError(f"{command[:6]} failed: {err.read().decode()[-800:]}")
    cpu = usage.ru_utime + usage.ru_stime
    return {"seconds": wall if clock == "wall" else cpu, "rss": usage.ru_maxrss / 1024}


def in_worker(kind: str, target: str, ctx_file: Path, clock: str, cwd: str) -> dict:
    """A worker process of this script: ``kind`` is bare or library; its own figures."""
    with tempfile.NamedTemporaryFile("r", suffix=".json") as result:
        command = [sys.executable, __file__, "--worker", kind, target, str(ctx_file), clock]
        measure([*command, result.name], "wall", cwd)
        figures = json.loads(Path(result.name).read_text())
    if figures["exit"] not in (0, 1):
        raise RuntimeError(f"{kind} {target} exited {figures['exit']}")
    return figures


def one(ctx: dict, ctx_file: Path, row: Row | None, engine: str, mode: str, clock: str) -> dict:
    """One figure: ``row`` on ``engine`` (bare, fast, reference) in ``mode``."""
    cwd = ctx["out"]
    try:
        if engine == "bare":
            assert row is not None
            if mode == "library":
                return in_worker("bare", row.bare, ctx_file, clock, cwd)
            command = [sys.executable, __file__, "--worker", "bare", row.bare, str(ctx_file)]
            return measure([*command, clock, os.devnull], clock, cwd)
        assert row is not None
        args = command_line(ctx, row, engine)
        if mode == "library":
            return in_worker("library", json.dumps(args), ctx_file, clock, cwd)
        return measure([sys.executable, "-m", "anthology_kg", *args], clock, cwd)
    finally:
        Path(ctx["root"], "data", f"{ctx['new_entry']}.ttl").unlink(missing_ok=True)
        for written in ("site", "generated"):
            set_aside(Path(ctx["out"], written))


_ASIDE = itertools.count()


def set_aside(path: Path) -> None:
    """Move ``path`` (what a run wrote) into its folder's ``set-aside``, removed with the
    run's output folder once every size is timed (so the disk holds every run's site at
    once: about 7 MB per 1,000 entries each)."""
    # Deleting ten thousand files just before the next run would time the file system's
    # bookkeeping of them: ext4 without a journal (this machine's) skips, for each file it
    # creates, every inode freed in the last half minute or more; `perf record` of a
    # 10,000-entry `site` after such a delete: 40% of samples in find_inode_bit and
    # recently_deleted, 4-6 s of system time against 0.7 s on tmpfs.
    if path.exists():
        aside = path.parent / "set-aside"
        aside.mkdir(exist_ok=True)
        os.replace(path, aside / f"{path.name}-{next(_ASIDE)}")


def files_written_bare(out: Path, clock: str) -> dict | None:
    """The seconds plain Python takes to write the files of the last site this run wrote
    again, into a new folder beside it: what that many pages cost on this disk whatever
    writes them, so a ``site`` ratio can be read beside it (creating ten thousand files
    took 0.3 s in one folder of this machine's ext4 and 3.5 s in another, where many had
    just been deleted)."""
    sites = sorted(Path(out, "set-aside").glob("site-*"), key=lambda p: int(p.name[5:]))
    if not sites:
        return None
    files = [
        (path.relative_to(sites[-1]), path.read_bytes())
        for path in sorted(sites[-1].rglob("*"))
        if path.is_file()
    ]
    target = Path(out, "set-aside", f"rewritten-{next(_ASIDE)}")
    started = _now(clock)
    for relative, content in files:
        (target / relative).parent.mkdir(parents=True, exist_ok=True)
        (target / relative).write_bytes(content)
    return {
        "seconds": _now(clock) - started,
        "files": len(files),
        "bytes": sum(len(content) for _, content in files),
    }


def median_of(runs: list[dict]) -> dict:
    return {
        "seconds": statistics.median(r["seconds"] for r in runs),
        "rss": max(r["rss"] for r in runs),
    }


def generated(size: int, root: Path) -> Path:
    """The anthology of ``size`` entries at ``root`` (generated unless it is there):
    seed 1, one planted violation per 200 entries (at least 50)."""
    from anthology_kg import resources
    from anthology_kg.generate import generate

    if not (root / "data").is_dir():
        generate(size, 1, root, violations=min(size, max(50, size // 200)))
        # A generated entry lacks what a printed record needs (authors, date, standing):
        # the real entry is added for ``render`` (its references to entries the generated
        # anthology lacks add a few results to ``check``).
        shutil.copy(resources.bundled_dir() / "data" / f"{RENDERED}.ttl", root / "data")
    return root


def prepare(size: int, folder: Path) -> dict:
    """The generated anthology, a changed copy, both as two git commits, and what the
    rows need (an entry, a printed record, the stored queries bound for pyoxigraph)."""
    import bench_diff
    from rdflib import URIRef

    from anthology_kg import resources
    from anthology_kg.queries import read_query
    from anthology_kg.sparql_text import with_values
    from anthology_kg.terms import GRAPHS

    root, changed = folder / "anthology", folder / "changed"
    # What the commands write goes to a folder of this run's own (runs may share DIR).
    out = Path(tempfile.mkdtemp(prefix="out-", dir=folder))
    generated(size, root)
    if not (folder / "repo").is_dir():
        shutil.rmtree(changed, ignore_errors=True)
        bench_diff.change_copy(root, changed, 50)
        bench_diff.commit_states(root, changed, folder / "repo")
    entry = sorted((root / "data").glob("ARXIV-*.ttl"))[0].stem
    queries, bound = {}, {}
    for path in sorted(resources.bundled_queries_dir().glob("*.rq")):
        stored = read_query(path)
        params = {p.name: entry for p in stored.params if p.type == "entry"}
        bindings = {p.bound_to: URIRef(BASE + entry) for p in stored.params if p.type == "entry"}
        queries[stored.name], bound[stored.name] = params, with_values(stored.text, bindings)
    (out / "query.rq").write_text(SPARQL, encoding="utf-8")
    record = Path(__file__).parents[1] / "tests/fixtures/records/seed/ARXIV-2409.19256.txt"
    return {
        "size": size,
        "root": str(root),
        "changed": str(changed),
        "repo": str(folder / "repo"),
        "out": str(out),
        "entry": entry,
        # The entry ``new`` writes (and each run removes): this run's own, for runs may
        # share the anthology.
        "new_entry": f"ARXIV-2912.{os.getpid() % 100000:05d}",
        "record": str(record),
        "sparql": str(out / "query.rq"),
        "sparql_text": SPARQL,
        "queries": queries,
        "bound": bound,
        "graphs": {part: node.value for part, node in GRAPHS.items()},
        "ontology": str(resources.ontology_file()),
        "shapes": [str(p) for p in sorted(resources.bundled_shapes_dir().glob("*.ttl"))],
    }


def warm_cache(root: Path) -> None:
    """Read every file of the anthology once before any timing: otherwise the first row
    timed (the bare load) alone pays for reading the files from disk (at 100,000 entries
    a cold bare load took 12.2 s wall, the warm one 7.7 s)."""
    for path in root.rglob("*"):
        if path.is_file():
            path.read_bytes()


def _seconds(figure: dict) -> str:
    if "failed" in figure:
        return "failed"
    return "" if figure.get("seconds") is None else f"{figure['seconds']:.2f}"


def _ratio(top: float | None, bottom: float | None) -> str:
    return "" if top is None or not bottom else f"{top / bottom:.1f}×"


def _mib(value: float | None) -> str:
    return "" if value is None else f"{value:.0f}"


def table(figures: dict, mode: str, selected: list[Row], clock: str) -> list[str]:
    """The markdown table of one mode at one size."""
    lines = [
        f"| {mode}: command ({clock} s) | bare | fast | fast / bare | goal | reference "
        "| reference / fast | peak RSS MiB bare / fast / reference |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for row in selected:
        bare = figures.get((mode, "bare", row.name)) or {}
        fast = figures.get((mode, "fast", row.name)) or {}
        ref = figures.get((mode, "reference", row.name)) or {}
        rss = " / ".join(_mib(f.get("rss")) or "–" for f in (bare, fast, ref))
        lines.append(
            f"| {row.name} | {_seconds(bare)} ({row.bare or 'none'}) "
            f"| {_seconds(fast)} "
            f"| {_ratio(fast.get('seconds'), bare.get('seconds'))} | {GOALS.get(row.name, '')} "
            f"| {_seconds(ref)} "
            f"| {_ratio(ref.get('seconds'), fast.get('seconds'))} | {rss} |"
        )
    return lines


def goals(figures: dict, size: int, modes: list[str]) -> list[str]:
    """Each goal of the issues beside its figure: met or not."""
    lines = []
    for mode in modes:
        for name, goal in GOALS.items():
            at_most = float(re.search(r"≤ ([\d.]+)×", goal).group(1))  # type: ignore[union-attr]
            fast, bare = figures.get((mode, "fast", name)), figures.get((mode, "bare", name))
            if fast and bare and "seconds" in fast and "seconds" in bare:
                ratio = fast["seconds"] / bare["seconds"]
                verdict = "met" if ratio <= at_most else "NOT met"
                lines.append(f"- {mode}, `{name}`: {ratio:.2f}× ({goal}): {verdict}")
        rewritten, bare = (
            figures.get((mode, "files written bare", "site")),
            figures.get((mode, "bare", "site")),
        )
        if rewritten and bare and "seconds" in bare:
            lines.append(
                f"- {mode}, the site's {rewritten['files']:,} files "
                f"({rewritten['bytes'] / 2**20:.0f} MiB) written again by plain Python in the "
                f"same folder: {rewritten['seconds']:.2f} s, "
                f"{rewritten['seconds'] / bare['seconds']:.2f}× bare load (what the disk "
                "alone costs any site of this size)"
            )
        fast, bare = figures.get((mode, "fast", "check")), figures.get((mode, "bare", "check"))
        if fast and bare and "rss" in fast and "rss" in bare:
            verdict = "met" if fast["rss"] <= bare["rss"] else "NOT met"
            lines.append(
                f"- {mode}, `check` peak RSS {fast['rss']:.0f} MiB vs bare load "
                f"{bare['rss']:.0f} MiB (goal at 100,000: ≤ bare load): {verdict}"
                + ("" if size >= 100000 else " (this size)")
            )
    return lines


def uptime() -> str:
    load = os.getloadavg()
    return f"load average {load[0]:.2f}, {load[1]:.2f}, {load[2]:.2f}"


def byte_compile_package() -> None:
    """Compile the modules of ``anthology_kg`` to bytecode (``__pycache__``, ignored by
    git), as pip does when it installs the wheel: from an editable install with
    PYTHONDONTWRITEBYTECODE set (this machine's setting), every command row would
    otherwise compile each module from source again, ~0.08 s of CPU a command that an
    installed tool never spends. A module edited later is compiled again as usual."""
    import compileall

    import anthology_kg

    compileall.compile_dir(Path(anthology_kg.__file__).parent, quiet=1)


def measure_row(
    figures: dict, ctx: dict, ctx_file: Path, row: Row, mode: str, engines: list[str], args
) -> None:
    """The figures of ``row`` in ``mode``: its bare work and the fast engine alternated,
    run after run (a change of the machine's load between them moves both, not the
    ratio), then the reference engine once; each median into ``figures`` under
    ``(mode, engine, row name)``, printed as it comes."""
    wanted = [
        engine
        for engine in engines
        if not (engine == "bare" and not row.bare)
        and not (
            engine == "reference"
            and not (row.reference and re.search(args.reference_rows, row.name))
        )
    ]
    runs: dict[str, list[dict]] = {engine: [] for engine in wanted}
    rewritten: list[dict] = []
    failed: dict[str, str] = {}
    for repeat in range(args.repeat):
        for engine in wanted:
            if engine in failed or (engine == "reference" and repeat):
                continue
            try:
                runs[engine].append(one(ctx, ctx_file, row, engine, mode, args.clock))
            except RuntimeError as exc:  # shown in the table; the run goes on
                print(f"{(mode, engine, row.name)}: {exc}", file=sys.stderr, flush=True)
                failed[engine] = str(exc)[-300:]
                continue
            if row.name == "site" and engine == "fast":
                # Right after the site it writes again: the disk's state moves with the
                # minutes (files deleted nearby slow creating new ones for a while).
                again = files_written_bare(Path(ctx["out"]), args.clock)
                if again is not None:
                    rewritten.append(again)
    for engine in wanted:
        key = (mode, engine, row.name)
        figures[key] = {"failed": failed[engine]} if engine in failed else median_of(runs[engine])
        label = f"bare ({row.bare})" if engine == "bare" else engine
        print(f"# {mode} | {label} | {row.name}: {figures[key]}", flush=True)
    if rewritten:
        again = {**rewritten[0], "seconds": statistics.median(r["seconds"] for r in rewritten)}
        figures[(mode, "files written bare", row.name)] = again
        print(f"# {mode} | files written bare | {row.name}: {again}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10000, 100000])
    parser.add_argument(
        "--reference-max", type=int, default=10000, help="largest size the reference engine runs at"
    )
    parser.add_argument(
        "--reference-rows",
        default=REFERENCE_ROWS,
        help="regex: the rows (of those taking --engine) the slow reference engine runs",
    )
    parser.add_argument("--modes", default=",".join(MODES), help="library, command or both")
    parser.add_argument("--rows", default="", help="only the rows whose name matches this regex")
    parser.add_argument("--clock", choices=CLOCKS, default="wall")
    parser.add_argument("--repeat", type=int, default=1, help="runs of bare and fast (median)")
    parser.add_argument("--workdir", help="keep the generated anthologies here (reused)")
    parser.add_argument("--json", help="also write every figure to this file")
    parser.add_argument("--worker", nargs=5, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        kind, target, ctx_file, clock, result = args.worker
        ctx = json.loads(Path(ctx_file).read_text())
        measured = (
            bare_worker(target, ctx, clock)
            if kind == "bare"
            else library_worker(json.loads(target), clock)
        )
        if result != os.devnull:
            Path(result).write_text(json.dumps(measured))
        return
    modes = [m for m in args.modes.split(",") if m]
    byte_compile_package()
    everything: dict = {}
    # Every folder a run wrote is removed at the end, not between sizes (see set_aside).
    with contextlib.ExitStack() as cleanup:
        for size in args.sizes:
            tmp = cleanup.enter_context(tempfile.TemporaryDirectory(prefix="anthology-kg-bench-"))
            folder = Path(args.workdir or tmp, str(size))
            folder.mkdir(parents=True, exist_ok=True)
            started = time.perf_counter()
            ctx = prepare(size, folder)
            cleanup.callback(shutil.rmtree, ctx["out"])  # also when the run is stopped
            warm_cache(Path(ctx["root"]))
            ctx_file = Path(ctx["out"], "context.json")
            ctx_file.write_text(json.dumps(ctx))
            selected = [r for r in rows(ctx) if re.search(args.rows, r.name)]
            print(
                f"\n## {size:,} entries ({time.perf_counter() - started:.0f} s to prepare); "
                f"{args.clock} seconds, medians of {args.repeat}; {uptime()} at start",
                flush=True,
            )
            figures: dict = {}
            engines = ["bare", "fast"] + (["reference"] if size <= args.reference_max else [])
            for mode in modes:
                for row in selected:
                    measure_row(figures, ctx, ctx_file, row, mode, engines, args)
                print("\n".join(["", *table(figures, mode, selected, args.clock)]), flush=True)
            print(f"\n{uptime()} at the end. Goals at {size:,} entries:")
            print("\n".join(goals(figures, size, modes)), flush=True)
            everything[size] = {" | ".join(k): v for k, v in figures.items()}
    if args.json:
        Path(args.json).write_text(json.dumps(everything, indent=1))


if __name__ == "__main__":
    main()
