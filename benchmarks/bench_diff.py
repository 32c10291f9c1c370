"""Diff benchmark: two generated anthologies that differ in 50 entries.

    python benchmarks/bench_diff.py --entries 10000 [--changes 50] [--repeat 3]

OLD is ``anthology-kg generate --entries N --seed 1``; NEW is OLD with CHANGES entries
touched: three in five gain a fact, one in five is removed, one in five is added (a new
file). Both are committed to a git repository (OLD, then NEW), so that the diff is timed
from two folders and from two revisions (``git ls-tree`` + ``git cat-file --batch``).
The yardstick, "bare", is pyoxigraph loading both states into two stores: the issue's
target is a diff within 3x of it. Each figure is the best of REPEAT runs in this
process. Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GIT = ["git", "-c", "user.name=bench", "-c", "user.email=bench@example.org"]


def best(fn, repeat: int):
    """The best wall-clock and CPU seconds of ``repeat`` runs, and the value. CPU time is
    the steadier figure on a shared machine."""
    walls, cpus, value = [], [], None
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), _cpu()
        value = fn()
        walls.append(time.perf_counter() - wall)
        cpus.append(_cpu() - cpu)
    return (min(walls), min(cpus)), value


def _cpu() -> float:
    """CPU seconds of this process and of its finished children (git, a CLI run)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def make_states(folder: Path, entries: int, changes: int) -> tuple[Path, Path]:
    """OLD and NEW folders, and a git repository ``folder/repo`` holding both as commits."""
    from anthology_kg.generate import generate

    old, new = folder / "old", folder / "new"
    generate(entries, 1, old)
    change_copy(old, new, changes)
    commit_states(old, new, folder / "repo")
    return old, new


def change_copy(old: Path, new: Path, changes: int) -> None:
    """Copy the anthology OLD to NEW with CHANGES entries touched (see the docstring)."""
    shutil.copytree(old, new)
    files = sorted((new / "data").glob("*.ttl"))
    step = max(1, len(files) // changes)
    for i, path in enumerate(files[::step][:changes]):
        identifier = path.stem
        if i % 5 == 3:
            path.unlink()  # removed
        elif i % 5 == 4:
            text = path.read_text(encoding="utf-8").replace(identifier, f"{identifier}-new")
            (path.parent / f"{identifier}-new.ttl").write_text(text, encoding="utf-8")  # added
        else:
            with path.open("a", encoding="utf-8") as handle:  # a fact more
                comment = "<http://www.w3.org/2000/01/rdf-schema#comment>"
                handle.write(f'\n<{identifier}> {comment} "changed {i}" .\n')


def commit_states(old: Path, new: Path, repo: Path) -> None:
    """A git repository at REPO whose two commits hold OLD's data/, then NEW's."""
    repo.mkdir(parents=True)
    shutil.copytree(old / "data", repo / "data")
    subprocess.run([*GIT, "init", "-q", str(repo)], check=True)
    subprocess.run([*GIT, "-C", str(repo), "add", "-A"], check=True)
    subprocess.run([*GIT, "-C", str(repo), "commit", "-q", "-m", "old"], check=True)
    shutil.rmtree(repo / "data")
    shutil.copytree(new / "data", repo / "data")
    subprocess.run([*GIT, "-C", str(repo), "add", "-A"], check=True)
    subprocess.run([*GIT, "-C", str(repo), "commit", "-q", "-m", "new"], check=True)


def bare_load(old: Path, new: Path) -> int:
    import pyoxigraph as ox

    triples = 0
    for root in (old, new):
        store = ox.Store()
        for path in sorted((root / "data").glob("*.ttl")):
            store.load(
                path=str(path),
                format=ox.RdfFormat.TURTLE,
                base_iri="https://w3id.org/anthology-kg/id/",
            )
        triples += len(store)
    return triples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=10000)
    parser.add_argument("--changes", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    from anthology_kg.diff import diff_states
    from anthology_kg.revisions import read_folder, resolve_states

    with tempfile.TemporaryDirectory(prefix="anthology-kg-bench-diff-") as tmp:
        folder = Path(tmp)
        old, new = make_states(folder, args.entries, args.changes)
        bare, triples = best(lambda: bare_load(old, new), args.repeat)
        folders, result = best(lambda: diff_states(read_folder(old), read_folder(new)), args.repeat)
        revisions, again = best(
            lambda: diff_states(*resolve_states(folder / "repo", "HEAD~1", "HEAD")), args.repeat
        )
        cli = [sys.executable, "-m", "anthology_kg", "diff", str(old), str(new), "--format", "json"]
        command, done = best(lambda: subprocess.run(cli, capture_output=True, check=False), 1)
        assert done.returncode == 1, done.stderr
    counts = result.counts()
    assert again.counts() == counts
    print(
        f"two states of {args.entries:,} entries ({triples:,} triples in all), "
        f"{args.changes} entries touched: {counts}"
    )
    print("| what | wall s | × bare | CPU s | × bare |")
    print("|---|---|---|---|---|")
    for name, seconds in (
        ("bare: pyoxigraph loads both states", bare),
        ("diff of two folders (library)", folders),
        ("diff of two git revisions (library)", revisions),
        ("`anthology-kg diff OLD NEW --format json` (a new process)", command),
    ):
        wall, cpu = seconds
        print(f"| {name} | {wall:.2f} | {wall / bare[0]:.2f} | {cpu:.2f} | {cpu / bare[1]:.2f} |")


if __name__ == "__main__":
    main()
