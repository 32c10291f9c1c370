"""Canonicalization benchmark: RDFC-1.0 (pyoxigraph's ``Dataset.canonicalize``) against
the estimate the tool checks first (``bnodes.canonical_work``), on the blank-node shapes
that make it slow and on real anthologies.

    python benchmarks/bench_canonical.py [--shapes list,chain,ring,tree,stars]
        [--sizes 50 100 200 400 800] [--repeat 3] [--cap 120] [--anthologies 10000]
        [--extra 400] [--workdir DIR]

Shapes, each hanging from one IRI: ``list``, an rdf:List of ``n`` equal literals;
``chain``, ``n`` blank nodes each pointing at the next; ``ring``, ``n`` blank nodes in
a cycle (no IRI: Turtle must label them too); ``tree``, a binary tree of blank nodes
``n`` levels deep; ``stars``, two blank nodes each with ``n`` alike blank leaves. Every
figure is CPU seconds (``time.process_time``) of a fresh process, the median of
``--repeat`` runs; a canonicalization past ``--cap`` CPU seconds is stopped (RLIMIT_CPU)
and shown as ``>cap``. Anthologies: the bundled one, and a generated one of each size in
``--anthologies`` (``anthology_kg.generate``, seed 2), alone and with an rdf:List of
``--extra`` equal values added: the blank-node quads an export canonicalizes (data and
ontology), the estimate's cost there (forced: an export checks
only when two blank nodes share a first-degree hash) and canonicalize's. "hashes +
estimate" includes the first-degree hashes, which an export computes anyway to label
blank nodes without pyoxigraph (``first_degree_labels``); "estimate alone" is what the
check adds to them. Figures are printed, never asserted: this is a benchmark, not a
test.
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
from pathlib import Path

RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
EX = "http://example.org/"
SHAPES = ("list", "chain", "ring", "tree", "stars")
#: Default sizes of each shape: ``tree`` is in levels, ``stars`` in leaves per star.
SIZES = {
    "list": (50, 100, 200, 400, 800),
    "chain": (50, 100, 200, 400, 800),
    "ring": (50, 100, 200, 400),
    "tree": (4, 6, 7, 8),
    "stars": (6, 7, 8, 9),
}

Quad = tuple[str, str, str, str]
#: How many times an estimate is timed in a row (``_worker``).
ESTIMATES = 10


def shape_quads(shape: str, n: int) -> list[Quad]:
    """The quads of one shape of size ``n`` (see the module's docstring)."""
    quads: list[tuple[str, str, str]] = []
    if shape == "list":
        quads.append((f"<{EX}s>", f"<{EX}p>", "_:l0"))
        for i in range(n):
            rest = f"_:l{i + 1}" if i + 1 < n else f"<{RDF}nil>"
            quads += [(f"_:l{i}", f"<{RDF}first>", '"x"'), (f"_:l{i}", f"<{RDF}rest>", rest)]
    elif shape == "chain":
        quads.append((f"<{EX}s>", f"<{EX}p>", "_:b0"))
        quads += [(f"_:b{i}", f"<{EX}next>", f"_:b{i + 1}") for i in range(n - 1)]
    elif shape == "ring":
        quads += [(f"_:b{i}", f"<{EX}next>", f"_:b{(i + 1) % n}") for i in range(n)]
    elif shape == "tree":
        quads.append((f"<{EX}s>", f"<{EX}p>", "_:n1"))
        for i in range(1, 2 ** (n - 1)):
            quads += [
                (f"_:n{i}", f"<{EX}c>", f"_:n{2 * i}"),
                (f"_:n{i}", f"<{EX}c>", f"_:n{2 * i + 1}"),
            ]
    elif shape == "stars":
        for c in range(2):
            quads.append((f"<{EX}s>", f"<{EX}p>", f"_:a{c}"))
            for i in range(n):
                quads += [
                    (f"_:a{c}", f"<{EX}q>", f"_:c{c}x{i}"),
                    (f"_:c{c}x{i}", f"<{EX}r>", '"x"'),
                ]
    else:
        raise ValueError(f"unknown shape {shape!r}")
    return [(s, p, o, "") for s, p, o in quads]


def anthology_quads(root: Path | None) -> list[Quad]:
    """The blank-node quads an export of ``root`` (data and ontology) canonicalizes,
    as ``turtle.canonical_groups`` gives them to ``bnodes``."""
    from anthology_kg.export import build_export
    from anthology_kg.export_files import FolderSource
    from anthology_kg.turtle import split_lines

    export = build_export(FolderSource(root), ("data", "ontology"))
    lines = [line for line in export.asserted_lines if "_:" in line]
    return [(s, p, o, "<urn:x-group:0>") for s, p, o in split_lines(lines)]


def _text(quads: list[Quad]) -> str:
    return "".join(f"{s} {p} {o} {g} .\n" if g else f"{s} {p} {o} .\n" for s, p, o, g in quads)


def _worker(job: dict) -> dict:
    """One measurement in this process: ``job`` names the quads and what to time."""
    import pyoxigraph as ox

    from anthology_kg.bnodes import canonical_work, first_degree_hashes

    if job["shape"] == "anthology":
        quads = anthology_quads(Path(job["root"]) if job["root"] else None)
    else:
        quads = shape_quads(job["shape"], job["n"])
    if job.get("extra"):  # an anthology and a list of equal values in one export
        quads += [(s, p, o, "<urn:x-group:0>") for s, p, o, _ in shape_quads("list", job["extra"])]
    if job["what"] in ("hashes", "estimate"):
        # ``ESTIMATES`` runs each, timed together: one is below the clock's resolution
        start = time.process_time()
        for _ in range(ESTIMATES):
            hashes = first_degree_hashes(quads)
        hashed = time.process_time()
        for _ in range(ESTIMATES):
            work = canonical_work(quads, hashes)
        done = time.process_time()
        seconds = (done - start if job["what"] == "hashes" else done - hashed) / ESTIMATES
        biggest = max(work.groups, key=lambda g: g.steps, default=None)
        return {
            "seconds": seconds,
            "steps": work.steps,
            "size": biggest.size if biggest else 0,
            "orders": biggest.orders if biggest else 1,
            "quads": len(quads),
        }
    dataset = ox.Dataset(ox.parse(_text(quads), format=ox.RdfFormat.N_QUADS))
    start = time.process_time()
    dataset.canonicalize(ox.CanonicalizationAlgorithm.RDFC_1_0)
    return {"seconds": time.process_time() - start}


def measure(job: dict, cap: float) -> dict | None:
    """``_worker(job)`` in a fresh process limited to ``cap`` CPU seconds (None if the
    limit stopped it)."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (int(cap), int(cap) + 1))

    done = subprocess.run(
        [sys.executable, __file__, "--worker", json.dumps(job)],
        capture_output=True,
        text=True,
        preexec_fn=limit,
        check=False,
    )
    if done.returncode != 0:
        if done.returncode < 0:  # SIGXCPU or SIGKILL: past the cap
            return None
        raise RuntimeError(done.stderr)
    return json.loads(done.stdout)


def median_of(job: dict, repeat: int, cap: float) -> tuple[str, dict]:
    """The median CPU seconds of ``repeat`` runs (``>cap`` if one was stopped), and the
    last run's figures."""
    runs = []
    last: dict = {}
    for _ in range(repeat):
        found = measure(job, cap)
        if found is None:
            return f">{cap:g}", last
        runs.append(found["seconds"])
        last = found
    return f"{statistics.median(runs):.3g}", last


def three_timings(job: dict, repeat: int, cap: float) -> tuple[str, str, str, dict]:
    """``median_of`` the hashes, the estimate and the canonicalization of ``job``, and
    the figures of the hashes' last run (the row's first columns)."""
    hashed, figures = median_of({**job, "what": "hashes"}, repeat, cap)
    estimated, _ = median_of({**job, "what": "estimate"}, repeat, cap)
    took, _ = median_of({**job, "what": "canonicalize"}, repeat, cap)
    return hashed, estimated, took, figures


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shapes", default=",".join(SHAPES))
    parser.add_argument("--sizes", type=int, nargs="*", default=None)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--cap", type=float, default=120.0)
    parser.add_argument("--anthologies", type=int, nargs="*", default=[10000])
    parser.add_argument("--extra", type=int, default=400)
    parser.add_argument("--workdir", type=Path, default=None)
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        print(json.dumps(_worker(json.loads(args.worker))))
        return
    print(
        "shape size | costliest tied group (nodes, orders) | estimate steps | hashes + "
        "estimate s | estimate alone s | canonicalize s"
    )
    for shape in args.shapes.split(","):
        for n in args.sizes or SIZES[shape]:
            job = {"shape": shape, "n": n}
            hashed, estimated, took, figures = three_timings(job, args.repeat, args.cap)
            print(
                f"{shape} {n} | {figures['size']}, {figures['orders']} | "
                f"{figures['steps']:.3g} | {hashed} | {estimated} | {took}",
                flush=True,
            )
    with tempfile.TemporaryDirectory(dir=args.workdir) as work:
        roots: list[tuple[str, str | None]] = [("bundled", None)]
        for size in args.anthologies:
            from anthology_kg.generate import generate

            out = Path(work) / f"a{size}"
            generate(size, 2, out)
            roots.append((f"generated {size}", str(out)))
        rows = [(name, root, 0) for name, root in roots]
        rows += [(f"{name} + list of {args.extra}", root, args.extra) for name, root in roots[1:]]
        for name, root, extra in rows:
            job = {"shape": "anthology", "root": root, "extra": extra}
            hashed, estimated, took, figures = three_timings(job, args.repeat, args.cap)
            print(
                f"{name} ({figures['quads']} blank-node quads) | {figures['size']}, "
                f"{figures['orders']} | {figures['steps']:.3g} | {hashed} | {estimated} | {took}",
                flush=True,
            )


if __name__ == "__main__":
    main()
