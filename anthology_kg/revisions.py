"""States of an anthology: its files as a folder holds them or as a git revision recorded them.

``resolve_states(root, old, new)`` turns what a user types (a revision such as ``HEAD`` or
``origin/main``, a range ``A...B`` or ``A..B``, a folder, or nothing for the working tree)
into two ``State`` objects. A revision is read with ``git ls-tree`` and one
``git cat-file --batch`` process: no work tree is checked out. ``materialized(state)``
gives a folder holding the state's files, for the commands that load an anthology from
disk (validation, stored queries); for a revision it is a temporary folder removed on
every exit path.
"""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from .errors import AnthologyError, display_path
from .sources import listed_name

#: What a state holds, relative to the anthology's folder: what the loader reads.
DATA_DIR = "data"
STATE_DIRS = {DATA_DIR: ".ttl", "ontology/shapes": ".ttl", "queries": ".rq"}
STATE_FILES = ("waivers.ttl",)
WORKING_TREE = "working tree"


@dataclass(frozen=True)
class State:
    """One state of an anthology: its files (relative POSIX path to bytes) and where
    they come from. ``revision`` is the commit id when the state was read from git."""

    name: str
    root: Path
    files: dict[str, bytes] = field(repr=False)
    revision: str | None = None

    def data_files(self) -> list[str]:
        """The relative paths of ``data/*.ttl``, sorted."""
        return sorted(p for p in self.files if p.startswith(DATA_DIR + "/"))

    def source(self, relative: str) -> str:
        """How a message names a file of this state: ``REV:data/X.ttl`` for a revision,
        the file's path for a folder."""
        if self.revision is not None:
            return f"{self.name}:{relative}"
        return display_path(self.root / relative)

    def display(self, relative: str) -> str:
        """Where a reviewer finds the file: its path under the anthology's folder."""
        return display_path(self.root / relative)


def _wanted(relative: str) -> bool:
    """Whether a path relative to the anthology's folder is one the loader reads."""
    path = PurePosixPath(relative)
    if relative in STATE_FILES:
        return True
    suffix = STATE_DIRS.get(str(path.parent))
    return suffix is not None and listed_name(path.name, suffix)


def read_folder(root: Path, name: str | None = None) -> State:
    """The state of the anthology in folder ``root`` (its ``data/`` must exist)."""
    root = root.resolve()
    if not (root / DATA_DIR).is_dir():
        raise AnthologyError("no data/ folder here: not an anthology", root)
    files: dict[str, bytes] = {}
    for folder, suffix in STATE_DIRS.items():
        directory = root / folder
        if directory.is_dir():
            for path in sorted(directory.glob(f"*{suffix}")):
                if listed_name(path.name, suffix):
                    files[f"{folder}/{path.name}"] = _read_bytes(path)
    for name_ in STATE_FILES:
        if (root / name_).is_file():
            files[name_] = _read_bytes(root / name_)
    return State(name=name or display_path(root), root=root, files=files)


def _read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise AnthologyError(f"cannot read file: {exc.strerror}", path) from None


# -- git ------------------------------------------------------------------------------------


def _git(folder: Path, *args: str, input: bytes | None = None) -> bytes:
    """Run git in ``folder``; its failure becomes an AnthologyError with git's message."""
    try:
        done = subprocess.run(
            ["git", "-C", str(folder), *args], input=input, capture_output=True, check=False
        )
    except FileNotFoundError:
        raise AnthologyError("git is not installed: name two folders to compare") from None
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise AnthologyError(f"git {args[0]} failed: {message[-1] if message else 'no message'}")
    return done.stdout


@dataclass(frozen=True)
class Repository:
    """The git repository holding an anthology folder, and the folder's place in it."""

    top: Path
    prefix: str  # the anthology's folder relative to ``top``, "" or ending with "/"

    @classmethod
    def of(cls, root: Path) -> Repository:
        """The repository of ``root``; an AnthologyError when it is not in one."""
        root = root.resolve()
        try:
            done = subprocess.run(
                ["git", "-C", str(root), "rev-parse", "--show-toplevel", "--show-prefix"],
                capture_output=True,
                check=False,
            )
        except FileNotFoundError:
            raise AnthologyError("git is not installed: name two folders to compare") from None
        if done.returncode != 0:
            raise AnthologyError(
                "not a git repository: name two folders, or run inside a git work tree", root
            )
        top, prefix = (done.stdout.decode("utf-8").splitlines() + ["", ""])[:2]
        return cls(top=Path(top), prefix=prefix)

    def commit(self, revision: str) -> str:
        """The commit id ``revision`` names; an AnthologyError for an unknown revision."""
        if not revision or revision.startswith("-"):
            raise AnthologyError(f"unknown revision {revision!r}")
        done = subprocess.run(
            [
                "git",
                "-C",
                str(self.top),
                "rev-parse",
                "--verify",
                "--quiet",
                f"{revision}^{{commit}}",
            ],
            capture_output=True,
            check=False,
        )
        if done.returncode != 0:
            raise AnthologyError(
                f"unknown revision {revision!r} (not a commit of the repository {self.top})"
            )
        return done.stdout.decode("ascii").strip()

    def merge_base(self, left: str, right: str) -> str:
        """The best common ancestor of two commits (what ``A...B`` compares from)."""
        try:
            return _git(self.top, "merge-base", left, right).decode("ascii").strip()
        except AnthologyError:
            raise AnthologyError(f"no common ancestor of {left!r} and {right!r}") from None

    def read(self, revision: str, root: Path, name: str | None = None) -> State:
        """The state of the anthology at ``revision``, read from git's object store."""
        commit = self.commit(revision)
        listing = _git(
            self.top, "ls-tree", "-r", "-z", "--full-tree", commit, "--", *self._pathspecs()
        )
        wanted: dict[str, str] = {}  # relative path -> blob id
        for record in listing.split(b"\0"):
            if not record:
                continue
            meta, _, path = record.decode("utf-8", "surrogateescape").partition("\t")
            mode, kind, blob = meta.split()
            relative = path[len(self.prefix) :]
            if kind == "blob" and mode != "120000" and _wanted(relative):
                wanted[relative] = blob
        if not any(p.startswith(DATA_DIR + "/") for p in wanted):
            raise AnthologyError(
                f"{revision}: no {self.prefix}{DATA_DIR}/*.ttl in this revision: not an anthology"
            )
        contents = self._blobs(list(wanted.values()))
        files = {path: contents[blob] for path, blob in sorted(wanted.items())}
        return State(name=name or revision, root=root, files=files, revision=commit)

    def _pathspecs(self) -> list[str]:
        return [f"{self.prefix}{d}/" for d in STATE_DIRS] + [self.prefix + f for f in STATE_FILES]

    def _blobs(self, ids: list[str]) -> dict[str, bytes]:
        """The contents of blobs, all read through one ``git cat-file --batch``."""
        if not ids:
            return {}
        unique = sorted(set(ids))
        output = _git(
            self.top, "cat-file", "--batch", input="".join(f"{i}\n" for i in unique).encode()
        )
        contents: dict[str, bytes] = {}
        at = 0
        for blob in unique:
            end = output.index(b"\n", at)
            header = output[at:end].split()
            size = int(header[2])
            contents[blob] = output[end + 1 : end + 1 + size]
            at = end + 1 + size + 1  # the content is followed by a newline
        return contents


# -- what the user typed ----------------------------------------------------------------


def anthology_root(start: Path | None = None) -> Path:
    """The nearest ancestor of ``start`` (default: the working directory) holding ``data/``,
    else ``start`` itself: a revision may hold an anthology the work tree no longer has."""
    here = (start or Path.cwd()).resolve()
    return next((c for c in (here, *here.parents) if (c / DATA_DIR).is_dir()), here)


def resolve_states(
    root: Path, old: str | None = None, new: str | None = None
) -> tuple[State, State]:
    """The two states to compare: OLD and NEW each a folder or a git revision of the
    repository holding ``root``. No OLD: ``HEAD``; no NEW: ``root`` as it is on disk (the
    working tree). Without NEW, OLD may be a range: ``A...B`` compares B with its common
    ancestor with A (what a pull request changes), ``A..B`` compares B with A; an empty
    side is ``HEAD``."""
    root = root.resolve()
    if old is not None and new is None and ".." in old and not Path(old).is_dir():
        repository = Repository.of(root)
        separator = "..." if "..." in old else ".."
        left, _, right = old.partition(separator)
        left, right = left or "HEAD", right or "HEAD"
        if separator == "...":
            base = repository.merge_base(repository.commit(left), repository.commit(right))
            old_state = repository.read(base, root, name=base[:12])
        else:
            old_state = repository.read(left, root)
        return old_state, repository.read(right, root)
    old_state = read_state(root, old or "HEAD")
    new_state = read_folder(root, WORKING_TREE) if new is None else read_state(root, new)
    return old_state, new_state


def read_state(root: Path, spec: str) -> State:
    """A folder when ``spec`` is one, else a revision of the repository of ``root``."""
    folder = Path(spec)
    if folder.is_dir():
        return read_folder(folder, display_path(folder))
    return Repository.of(root).read(spec, root)


@contextlib.contextmanager
def materialized(state: State) -> Iterator[Path]:
    """A folder holding ``state``'s files: its own folder when it has one, else a
    temporary folder that is removed however the block ends. An AnthologyError raised
    in the block about a file of the temporary folder names it as ``REV:data/X.ttl``."""
    if state.revision is None:
        yield state.root
        return
    folder = Path(tempfile.mkdtemp(prefix="anthology-kg-state-"))
    try:
        for relative, content in state.files.items():
            path = folder / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(content)
        (folder / DATA_DIR).mkdir(exist_ok=True)
        yield folder
    except AnthologyError as exc:
        if exc.path is None:
            raise
        try:
            relative = Path(exc.path).resolve().relative_to(folder.resolve()).as_posix()
        except ValueError:
            raise exc from None
        raise AnthologyError(exc.message, state.source(relative), exc.line) from None
    finally:
        shutil.rmtree(folder, ignore_errors=True)
