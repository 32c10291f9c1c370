"""Inference on the fast engine beside pyoxigraph's bare load, and beside owlrl.

    python benchmarks/bench_inference.py --entries 10000 100000 [--repeat 3]
        [--workdir DIR] [--clock wall|cpu]
        [--owlrl-entries 2000 [--profiles rdfs owlrl] [--stock-owlrl]]

For each size, a generated anthology (``anthology-kg generate --entries N --seed 1``, or
the one ``benchmarks/bench_scale.py --workdir DIR`` keeps in ``DIR/N/anthology``, read
only) is loaded by pyoxigraph alone (every data file parsed into one store: the bare
work), then by the fast engine, and its RDFS and OWL 2 RL closures are computed in the
store (``inference.materialize``). Every figure comes from a fresh process, so that its
peak RSS is its own. Printed: seconds (median of ``--repeat``) of the closure alone and
with the fast engine's load, their ratio to the bare load (the goal: a closure within 5x
of it), and the peak RSS beside the bare load's. At ``--owlrl-entries`` owlrl computes
the same closures on rdflib (the reference engine's way, ``anthology_kg.owlrl_linear``;
``--stock-owlrl``: owlrl's own classes), once, and the inferred triples an export keeps
are compared (``export.build_export`` against ``export.owlrl_export``); ``--entries``
with no size runs only that comparison.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TypeVar

CLOCKS = ("wall", "cpu")
T = TypeVar("T")


def _now(clock: str) -> float:
    return time.perf_counter() if clock == "wall" else time.process_time()


def timed(work: Callable[[], T], clock: str = "wall") -> tuple[float, T]:
    start = _now(clock)
    result = work()
    return _now(clock) - start, result


def worker(task: str, root: Path, clock: str) -> dict:
    """One figure, in this process: ``bare`` (pyoxigraph parses every data file into one
    store) or a profile (the fast engine's load, then the closure)."""
    import pyoxigraph as ox

    from anthology_kg.fast import DATA, ONTOLOGY, load_fast
    from anthology_kg.inference import INFERRED, materialize
    from anthology_kg.namespaces import DEFAULT_BASE

    figures: dict = {}
    if task == "bare":

        def bare_load() -> None:
            store = ox.Store()
            for path in sorted((root / "data").glob("*.ttl")):
                store.load(
                    path=str(path),
                    format=ox.RdfFormat.TURTLE,
                    base_iri=DEFAULT_BASE,
                    to_graph=DATA,
                )
            figures["triples"] = len(store)

        figures["load"], _ = timed(bare_load, clock)
    else:
        figures["load"], engine = timed(lambda: load_fast(root), clock)
        store = engine.store
        figures["infer"], added = timed(
            lambda: materialize(store, [DATA, ONTOLOGY], task, INFERRED), clock
        )
        figures["triples"] = added
    figures["rss"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return figures


def measure(task: str, root: Path, clock: str) -> dict:
    """``worker(task, root)`` run as a fresh process of this script."""
    with tempfile.NamedTemporaryFile("r", suffix=".json") as out:
        command = [sys.executable, __file__, "--worker", task, str(root), out.name]
        subprocess.run([*command, "--clock", clock], check=True)
        return json.loads(Path(out.name).read_text())


def anthology(entries: int, folder: Path) -> Path:
    """The anthology of ``entries`` under ``folder``: bench_scale's (``N/anthology``) if
    there is one, else generated into ``anthology-N``."""
    shared = folder / str(entries) / "anthology"
    if (shared / "data").is_dir():
        return shared
    root = folder / f"anthology-{entries}"
    if not (root / "data").is_dir():
        from anthology_kg.generate import generate

        generate(entries, 1, root)
    return root


def report(entries: int, root: Path, repeat: int, clock: str) -> None:
    from anthology_kg.inference import PROFILES

    bare_runs = [measure("bare", root, clock) for _ in range(repeat)]
    bare = statistics.median(r["load"] for r in bare_runs)
    bare_rss = max(r["rss"] for r in bare_runs)
    print(
        f"{entries} entries ({bare_runs[0]['triples']} triples): pyoxigraph bare load "
        f"{bare:.2f} s {clock} (median of {repeat}), peak RSS {bare_rss:.0f} MiB",
        flush=True,
    )
    for profile in PROFILES:
        runs = [measure(profile, root, clock) for _ in range(repeat)]
        load = statistics.median(r["load"] for r in runs)
        infer = statistics.median(r["infer"] for r in runs)
        both = statistics.median(r["load"] + r["infer"] for r in runs)
        rss = max(r["rss"] for r in runs)
        print(
            f"  {profile:5}: {runs[0]['triples']} triples inferred in {infer:.2f} s "
            f"({infer / bare:.1f}x the bare load; runs "
            + ", ".join(f"{r['infer']:.2f}" for r in runs)
            + f"); with the fast engine's load ({load:.2f} s) {both:.2f} s "
            f"({both / bare:.1f}x); peak RSS {rss:.0f} MiB ({rss / bare_rss:.1f}x the bare "
            "load's)",
            flush=True,
        )


def stock_owlrl() -> None:
    """Have the reference engine's export use owlrl's own semantics classes, not
    ``anthology_kg.owlrl_linear``'s (quadratic here: see that module)."""
    import owlrl

    from anthology_kg import owlrl_linear

    owlrl_linear.RDFSSemantics = owlrl.RDFS_Semantics  # type: ignore[misc]
    owlrl_linear.OWLRLSemantics = owlrl.OWLRL_Semantics  # type: ignore[misc]


def compare_with_owlrl(
    entries: int, folder: Path, clock: str, profiles: list[str], stock: bool = False
) -> None:
    from anthology_kg.export import build_export, owlrl_export
    from anthology_kg.export_files import FolderSource

    source = FolderSource(anthology(entries, folder))
    if stock:
        stock_owlrl()
    for profile in profiles:
        fast_seconds, fast = timed(partial(build_export, source, inference=profile), clock)
        owlrl_seconds, reference = timed(partial(owlrl_export, source, inference=profile), clock)
        ours = set(fast.canonical()[1])
        theirs = set(reference.canonical()[1])
        print(
            f"{entries} entries, export --inferred {profile} ({clock} seconds): fast "
            f"{fast_seconds:.2f} s, owlrl {owlrl_seconds:.2f} s "
            f"({owlrl_seconds / fast_seconds:.0f}x); inferred triples kept: {len(ours)} "
            f"fast, {len(theirs)} owlrl, equal: {ours == theirs}",
            flush=True,
        )


def main() -> None:
    from anthology_kg.inference import PROFILES

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, nargs="*", default=[10000, 100000])
    parser.add_argument("--owlrl-entries", type=int, default=0, help="0: skip owlrl")
    parser.add_argument(
        "--profiles",
        nargs="+",
        choices=PROFILES,
        default=list(PROFILES),
        help="the closures owlrl computes (each a separate, long run at scale)",
    )
    parser.add_argument(
        "--stock-owlrl",
        action="store_true",
        help="owlrl's own semantics classes, with their two steps that are quadratic here "
        "(anthology_kg/owlrl_linear.py)",
    )
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--clock", choices=CLOCKS, default="wall")
    parser.add_argument(
        "--workdir", "--folder", type=Path, help="keep (or reuse) the anthologies here"
    )
    parser.add_argument("--worker", nargs=3, metavar=("TASK", "ROOT", "OUT"), help="internal")
    args = parser.parse_args()
    if args.worker:
        task, root, out = args.worker
        Path(out).write_text(json.dumps(worker(task, Path(root), args.clock)))
        return
    with tempfile.TemporaryDirectory() as scratch:
        folder = args.workdir or Path(scratch)
        for entries in args.entries:
            report(entries, anthology(entries, folder), args.repeat, args.clock)
        if args.owlrl_entries:
            compare_with_owlrl(
                args.owlrl_entries, folder, args.clock, args.profiles, args.stock_owlrl
            )


if __name__ == "__main__":
    main()
