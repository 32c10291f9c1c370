"""Inference on the fast engine beside pyoxigraph's bare load, and beside owlrl.

    python benchmarks/bench_inference.py --entries 10000 100000 --owlrl-entries 2000

For each size, a generated anthology (``anthology-kg generate --entries N --seed 1``) is
loaded by pyoxigraph alone (every data file parsed into one store: the bare work), then
by the fast engine, and its RDFS and OWL 2 RL closures are computed in the store
(``inference.materialize``). Printed: seconds (median of ``--repeat``) and the ratio to
the bare load; the goal is a closure within 5x of it. At ``--owlrl-entries`` owlrl
computes the same closures on rdflib (the reference engine's way), once, and the
inferred triples an export keeps are compared (``export.build_export`` against
``export.owlrl_export``).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import pyoxigraph as ox

from anthology_kg.export import FolderSource, build_export, owlrl_export
from anthology_kg.fast import DATA, ONTOLOGY, load_fast
from anthology_kg.generate import generate
from anthology_kg.inference import INFERRED, PROFILES, materialize
from anthology_kg.namespaces import DEFAULT_BASE


def timed(work: Callable[[], object]) -> tuple[float, object]:
    start = time.perf_counter()
    result = work()
    return time.perf_counter() - start, result


def bare_load(root: Path) -> ox.Store:
    """What pyoxigraph alone does to read the anthology: parse every data file."""
    store = ox.Store()
    for path in sorted((root / "data").glob("*.ttl")):
        store.load(path=str(path), format=ox.RdfFormat.TURTLE, base_iri=DEFAULT_BASE, to_graph=DATA)
    return store


def closure(root: Path, profile: str) -> tuple[float, float, int]:
    """Seconds to load the fast engine, seconds to infer, triples inferred."""
    load_seconds, engine = timed(lambda: load_fast(root))
    store = engine.store  # type: ignore[attr-defined]
    infer_seconds, added = timed(lambda: materialize(store, [DATA, ONTOLOGY], profile, INFERRED))
    return load_seconds, infer_seconds, int(added)  # type: ignore[call-overload]


def anthology(entries: int, folder: Path) -> Path:
    root = folder / f"anthology-{entries}"
    if not (root / "data").is_dir():
        generate(entries, 1, root)
    return root


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, nargs="+", default=[10000, 100000])
    parser.add_argument("--owlrl-entries", type=int, default=0, help="0: skip owlrl")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--folder", type=Path, help="keep the generated anthologies here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        folder = args.folder or Path(scratch)
        for entries in args.entries:
            root = anthology(entries, folder)
            bare = statistics.median(
                timed(lambda root=root: bare_load(root))[0] for _ in range(args.repeat)
            )
            print(f"{entries} entries: pyoxigraph bare load {bare:.2f} s")
            for profile in PROFILES:
                runs = [closure(root, profile) for _ in range(args.repeat)]
                load = statistics.median(r[0] for r in runs)
                infer = statistics.median(r[1] for r in runs)
                print(
                    f"  {profile:5}: {runs[0][2]} triples inferred in {infer:.2f} s "
                    f"({infer / bare:.1f}x the bare load); with the fast engine's load "
                    f"{load + infer:.2f} s ({(load + infer) / bare:.1f}x)"
                )
        if args.owlrl_entries:
            root = anthology(args.owlrl_entries, folder)
            source = FolderSource(root)
            for profile in PROFILES:
                fast_seconds, fast = timed(lambda p=profile: build_export(source, inference=p))
                owlrl_seconds, reference = timed(
                    lambda p=profile: owlrl_export(source, inference=p)
                )
                same = set(fast.canonical()[1]) == set(reference.canonical()[1])  # type: ignore[attr-defined]
                print(
                    f"{args.owlrl_entries} entries, export --inferred {profile}: fast "
                    f"{fast_seconds:.2f} s, owlrl {owlrl_seconds:.2f} s "
                    f"({owlrl_seconds / fast_seconds:.0f}x); same inferred triples: {same}"
                )


if __name__ == "__main__":
    main()
