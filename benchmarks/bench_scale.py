"""Scale benchmark: load, check, every stored query and export, on generated anthologies.

    python benchmarks/bench_scale.py --sizes 1000 10000 100000 [--reference-max 10000]

Each (size, path) runs in a fresh subprocess, so that its peak RSS is its own. The
reference path is rdflib + pySHACL; the fast path pyoxigraph + compiled SHACL; "bare"
is pyoxigraph alone (its parser, its query engine, its serializer), the yardstick of
the targets. Figures are printed, never asserted: this is a benchmark, not a test.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: The step groups a run can be limited to (``--steps``).
STEPS = ("check", "queries", "site", "export")
#: ``--clock``: wall-clock seconds, or the CPU seconds of the process (steadier on a
#: machine other work shares).
CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}
clock = CLOCKS["wall"]


def timed(fn):
    start = clock()
    value = fn()
    return clock() - start, value


class _GraphSource:
    """The reference engine's graphs as an export source (what ``export`` reads from
    the reference engine: rdflib graphs, turned into pyoxigraph quads)."""

    def __init__(self, anthology):
        self.anthology, self.base = anthology, anthology.base

    def quads(self, parts):
        from anthology_kg.turtle import graph_quads

        for part in parts:
            yield from graph_quads(self.graph(part))

    def graph(self, part):
        return getattr(self.anthology, part)


def export_rows(source) -> dict:
    """``export`` of data and ontology in each format (the triples read and written,
    as the command does after its imports)."""
    from anthology_kg.export import WRITERS, build_export

    return {
        f"export {fmt}": timed(lambda w=write: w(build_export(source)))[0]
        for fmt, write in WRITERS.items()
    }


def bare_export_rows(root: Path) -> dict:
    """The yardstick of ``export``: pyoxigraph parsing the same files and serializing
    what it read (unsorted, blank nodes as parsed)."""
    import pyoxigraph as ox

    from anthology_kg.resources import ontology_file

    files = [*sorted((root / "data").glob("*.ttl")), ontology_file()]  # what export reads

    def parse_and_serialize(fmt):
        quads = [q for p in files for q in ox.parse(path=str(p), format=ox.RdfFormat.TURTLE)]
        return ox.serialize(quads, format=fmt)

    return {
        "export turtle": timed(lambda: parse_and_serialize(ox.RdfFormat.TURTLE))[0],
        "export ntriples": timed(lambda: parse_and_serialize(ox.RdfFormat.N_TRIPLES))[0],
    }


def worker(root: Path, path: str, steps: tuple[str, ...] = STEPS) -> dict:
    from anthology_kg.export import FolderSource
    from anthology_kg.fast import DATA, ONTOLOGY, SHAPES, load_fast
    from anthology_kg.loader import load_anthology
    from anthology_kg.queries import bind_params, catalog, run_local, with_values
    from anthology_kg.validation import validate

    out: dict = {}
    if path == "bare":
        import pyoxigraph as ox

        store = ox.Store()

        def load():
            for p in sorted((root / "data").glob("*.ttl")):
                store.load(path=str(p), format=ox.RdfFormat.TURTLE, to_graph=DATA)

        out["load"], _ = timed(load)
        reference = load_fast(root)  # for the query texts and the ontology/shapes graphs
        entry = next(iter(dict(reference.entries()).values()))
        for name, stored in catalog(reference).items() if "queries" in steps else ():
            bindings = bind_params(reference, stored, {p.name: entry for p in stored.params})
            text = with_values(stored.text, bindings)
            out[f"query {name}"], _ = timed(
                lambda t=text: list(
                    reference.store.query(t, default_graph=[DATA, ONTOLOGY, SHAPES])
                )
            )
        if "export" in steps:
            out.update(bare_export_rows(root))
    else:
        loader = load_fast if path == "fast" else load_anthology
        out["load"], anthology = timed(lambda: loader(root))
        if "check" in steps:
            out["check"], report = timed(lambda: validate(anthology))
            out["results"] = len(report.results)
        entry = next(iter(dict(anthology.entries()).values()))
        for name, stored in catalog(anthology).items() if "queries" in steps else ():
            bindings = bind_params(anthology, stored, {p.name: entry for p in stored.params})
            out[f"query {name}"], _ = timed(
                lambda s=stored, b=bindings: run_local(anthology, s.text, b)
            )
        if (
            path == "fast" and "site" in steps
        ):  # the whole site: validation, pages, assets, written to disk
            from anthology_kg.site import build_site

            with tempfile.TemporaryDirectory() as folder:
                out["site"], _ = timed(lambda: build_site(anthology, Path(folder) / "site"))
        if "export" in steps:
            source = FolderSource(root) if path == "fast" else _GraphSource(anthology)
            out.update(export_rows(source))
    out["peak RSS MiB"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return out


def run(size: int, path: str, root: Path, options: list[str]) -> dict:
    done = subprocess.run(
        [sys.executable, __file__, "--worker", path, str(root), *options],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument(
        "--reference-max",
        type=int,
        default=10000,
        help="largest size the (slow) reference path runs at",
    )
    parser.add_argument(
        "--steps", default=",".join(STEPS), help=f"comma list of {', '.join(STEPS)} (load always)"
    )
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="wall")
    parser.add_argument("--worker", nargs=2, metavar=("PATH", "ROOT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    global clock
    clock = CLOCKS[args.clock]
    steps = tuple(s for s in args.steps.split(",") if s)
    options = ["--steps", args.steps, "--clock", args.clock]
    if args.worker:
        print(json.dumps(worker(Path(args.worker[1]), args.worker[0], steps)))
        return
    from anthology_kg.generate import generate

    for size in args.sizes:
        with tempfile.TemporaryDirectory() as folder:
            root = Path(folder)
            started = time.perf_counter()
            generate(size, 1, root, violations=size // 200)
            print(
                f"\n## {size} entries (generated in {time.perf_counter() - started:.1f} s; "
                f"{args.clock} seconds)"
            )
            figures = {p: run(size, p, root, options) for p in ("bare", "fast")}
            if size <= args.reference_max:
                figures["reference"] = run(size, "reference", root, options)
            rows = sorted({k for f in figures.values() for k in f})
            names = list(figures)
            print("| step | " + " | ".join(names) + " | reference / fast | fast / bare |")
            print("|---|" + "---|" * (len(names) + 2))
            for row in rows:
                cells = [figures[n].get(row) for n in names]
                text = [
                    "" if c is None else (f"{c:.3f}" if isinstance(c, float) else str(c))
                    for c in cells
                ]
                ratio_rf = ratio_fb = ""
                f, r, b = (
                    (figures[n].get(row) for n in ("fast", "reference", "bare"))
                    if "reference" in figures
                    else (figures["fast"].get(row), None, figures["bare"].get(row))
                )
                if row != "results" and "RSS" not in row:
                    if isinstance(f, float) and isinstance(r, float) and f > 0:
                        ratio_rf = f"{r / f:.1f}×"
                    if isinstance(f, float) and isinstance(b, float) and b > 0:
                        ratio_fb = f"{f / b:.1f}×"
                print(f"| {row} | " + " | ".join(text) + f" | {ratio_rf} | {ratio_fb} |")
            for fmt in ("turtle", "ntriples") if "export" in steps else ():
                ours, bare = figures["fast"][f"export {fmt}"], figures["bare"][f"export {fmt}"]
                print(
                    f"\n`export --format {fmt}`: {ours:.2f} s, {ours / bare:.1f}× pyoxigraph "
                    f"parsing and serializing the same files ({bare:.2f} s)"
                )
            if "site" in figures["fast"]:
                whole = figures["fast"]["load"] + figures["fast"]["site"]
                print(
                    f"\n`site` (fast load + site): {whole:.1f} s, "
                    f"{whole / figures['bare']['load']:.1f}× pyoxigraph's bare load"
                )
            sys.stdout.flush()


if __name__ == "__main__":
    main()
