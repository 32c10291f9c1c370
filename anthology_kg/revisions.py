"""States of an anthology: its files as a folder holds them or as a git revision recorded them.

``resolve_states(root, old, new)`` turns what a user types (a revision such as ``HEAD`` or
``origin/main``, a range ``A...B`` or ``A..B``, a folder, or nothing for the working tree)
into two ``State`` objects. A revision is read with ``git ls-tree`` and one
``git cat-file --batch`` process: no work tree is checked out. A file that is a symbolic
link is what it points at, in a revision as on disk (where loading follows it): git
follows it within the revision's tree, and so is a folder that is a link (``data`` ->
``real``); one pointing out of the repository is refused, since git does not record
what is there. ``materialized(state)``
gives a folder holding the state's files, for the commands that load an anthology from
disk (validation, stored queries); for a revision it is a temporary folder removed on
every exit path.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from .errors import AnthologyError, clipped, display_path
from .resources import DATA_DIR, data_folder, nearest_root
from .sources import listed_name, read_source

#: What a state holds, relative to the anthology's folder: what the loader reads.
STATE_DIRS = {DATA_DIR: ".ttl", "ontology/shapes": ".ttl", "queries": ".rq"}
STATE_FILES = ("waivers.ttl",)
WORKING_TREE = "working tree"
#: How a message names the files of git's index: ``staged:data/X.ttl``.
STAGED = "staged"


@dataclass(frozen=True)
class State:
    """One state of an anthology: its files (relative POSIX path to bytes) and where
    they come from. ``revision`` is the commit id when the state was read from git."""

    name: str
    root: Path
    files: dict[str, bytes] = field(repr=False)
    revision: str | None = None

    @property
    def empty(self) -> bool:
        """Whether the state holds no data file: an anthology of no entries."""
        return not self.data_files()

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
    """The state of the anthology in folder ``root`` (its ``data/`` must exist).

    >>> from anthology_kg.resources import bundled_dir
    >>> state = read_folder(bundled_dir(), "sample")
    >>> state.name, state.data_files()[:2]
    ('sample', ['data/ADR-032.ttl', 'data/ARXIV-2409.19256.ttl'])
    """
    root = root.resolve()
    data_folder(root)
    files: dict[str, bytes] = {}
    for folder, suffix in STATE_DIRS.items():
        directory = root / folder
        if directory.is_dir():
            for path in sorted(directory.glob(f"*{suffix}")):
                if listed_name(path.name, suffix):
                    files[f"{folder}/{path.name}"] = read_source(path, keep_mark=True)
    for name_ in STATE_FILES:
        if (root / name_).is_file():
            files[name_] = read_source(root / name_, keep_mark=True)
    return State(name=name or display_path(root), root=root, files=files)


# -- git ------------------------------------------------------------------------------------


#: What git's hooks and aliases export to say where the repository and its work tree are
#: (from ``git rev-parse --local-env-vars``): a folder named with ``-C`` is the one to
#: find the repository from, as githooks(5) advises for a git command run elsewhere. (In
#: the hook of a linked worktree GIT_DIR alone is set, and git then takes the folder ``-C``
#: names as the work tree's top.) The object directories and the configuration that
#: hooks may also be given are kept: they belong to the same repository.
_LOCATING = (
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_IMPLICIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_PREFIX",
    "GIT_COMMON_DIR",
    "GIT_INTERNAL_SUPER_PREFIX",
)


def _environment(located: bool) -> dict[str, str]:
    """The environment of the tool's git processes: git's messages untranslated (they are
    read: "not a git repository"), and, unless ``located``, none of ``_LOCATING``."""
    environment = {**os.environ, "LC_ALL": "C"}
    if not located:
        for name in _LOCATING:
            environment.pop(name, None)
    return environment


def _run_git(
    folder: Path, args: list[str | bytes], environment: dict[str, str], input: bytes | None = None
) -> subprocess.CompletedProcess[bytes]:
    """``git -C folder ARGS``, its output captured; an AnthologyError when git is not
    installed."""
    try:
        return subprocess.run(
            ["git", "-C", folder, *args],
            input=input,
            capture_output=True,
            check=False,
            env=environment,
        )
    except FileNotFoundError:
        raise AnthologyError("git is not installed: name two folders to compare") from None


def _git(
    folder: Path,
    *args: str | bytes,
    input: bytes | None = None,
    environment: dict[str, str] | None = None,
) -> bytes:
    """Run git in ``folder``; its failure becomes an AnthologyError with git's message."""
    done = _run_git(folder, list(args), environment or _environment(False), input)
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        command = os.fsdecode(args[0])
        raise AnthologyError(f"git {command} failed: {message[-1] if message else 'no message'}")
    return done.stdout


def _not_a_repository(stderr: bytes) -> bool:
    """Whether git's ``stderr`` says that the folder is in no repository."""
    return _said(stderr).startswith("not a git repository")


def _said(stderr: bytes) -> str:
    """What git wrote on stderr, on one line: ``fatal:`` left out, its lines joined by
    ``; `` (by a space after one that ends with a colon, as git's advice does)."""
    lines = [line.strip() for line in stderr.decode("utf-8", "replace").splitlines()]
    said = ""
    for line in (line.removeprefix("fatal: ") for line in lines if line):
        if said:
            if line[:1].isupper() and line[1:2].islower():  # a sentence, not GIT_DIR
                line = line[0].lower() + line[1:]
            said += " " if said.endswith(":") else "; "
        said += line
    return said or "no message"


@dataclass(frozen=True)
class Repository:
    """The git repository holding an anthology folder, and the folder's place in it."""

    top: Path
    prefix: str  # the anthology's folder relative to ``top``, "" or ending with "/"
    #: What its git processes run with (``_environment``).
    environment: dict[str, str] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def of(cls, root: Path) -> Repository:
        """The repository of ``root``; an AnthologyError when it is not in one."""
        repository = cls.find(root)
        if repository is None:
            raise AnthologyError(
                "not a git repository: name two folders, or run inside a git work tree",
                root.resolve(),
            )
        return repository

    @classmethod
    def find(cls, root: Path) -> Repository | None:
        """The repository of ``root``, found from ``root`` whatever GIT_DIR a git hook
        exported (else, where ``root`` finds none, the one GIT_DIR names); None when it is
        not in one. An AnthologyError when git is not installed or refuses the repository
        (``detected dubious ownership``: git's message and its advice)."""
        root = root.resolve()
        asked = ["rev-parse", "--show-toplevel", "--show-prefix"]
        environment = _environment(located=False)
        done = _run_git(root, list(asked), environment)
        if done.returncode != 0 and _not_a_repository(done.stderr):
            if any(name in os.environ for name in _LOCATING):  # (not for one git refuses)
                environment = _environment(located=True)
                done = _run_git(root, list(asked), environment)
        if done.returncode != 0:
            if _not_a_repository(done.stderr):
                return None
            said = _said(done.stderr)
            raise AnthologyError(f"git cannot read the repository of this folder: {said}", root)
        # The top is a path of this system, given back to git as it came (os.fsdecode);
        # the prefix is compared with the paths git lists, decoded as they are.
        top, prefix = (done.stdout.split(b"\n") + [b"", b""])[:2]
        return cls(
            top=Path(os.fsdecode(top)),
            prefix=prefix.decode("utf-8", "surrogateescape"),
            environment=environment,
        )

    def is_commit(self, revision: str) -> bool:
        """Whether ``revision`` names a commit of the repository."""
        try:
            self.commit(revision)
        except AnthologyError:
            return False
        return True

    def commit(self, revision: str) -> str:
        """The commit id ``revision`` names; an AnthologyError for an unknown revision."""
        if not revision or revision.startswith("-"):
            raise AnthologyError(f"unknown revision {clipped(revision)}")
        done = _run_git(
            self.top,
            ["rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}"],
            self.environment,
        )
        if done.returncode != 0:
            raise AnthologyError(
                f"unknown revision {clipped(revision)} (not a commit of the repository {self.top})"
            )
        return done.stdout.decode("ascii").strip()

    def merge_base(self, left: str, right: str) -> str:
        """The commit id of the best common ancestor of revisions ``left`` and ``right``
        (what ``A...B`` compares from); an AnthologyError naming each as typed and its
        commit when they have none, saying so when the repository is a shallow clone
        (whose history may stop before the ancestor)."""
        commits = self.commit(left), self.commit(right)
        try:
            return self._git("merge-base", *commits).decode("ascii").strip()
        except AnthologyError:
            shallow = (
                " in the history this shallow clone holds: fetch the whole history (git fetch"
                " --unshallow; actions/checkout: fetch-depth: 0)"
                if self.is_shallow()
                else ""
            )
            raise AnthologyError(
                f"no common ancestor of {clipped(left)} ({commits[0][:12]}) "
                f"and {clipped(right)} ({commits[1][:12]}){shallow}"
            ) from None

    def is_shallow(self) -> bool:
        """Whether the repository is a shallow clone (False when git is too old to tell)."""
        try:
            answer = self._git("rev-parse", "--is-shallow-repository")
        except AnthologyError:
            return False
        return answer.strip() == b"true"

    def read(
        self, revision: str, root: Path, name: str | None = None, *, tree: str | None = None
    ) -> State:
        """The state of the anthology at ``revision``, read from git's object store;
        ``tree``, the id of a tree, is read in its place (``revision`` then names it). A
        revision with no ``data/*.ttl`` (before the anthology's first entry, a README and
        a ``data/.gitkeep`` at most) is an anthology of no entries (``State.empty``): to
        compare with, everything of the other state is new."""
        commit = tree or self.commit(revision)
        listing = self._git("ls-tree", "-r", "-z", "--full-tree", commit, "--", *self._pathspecs())
        # relative path -> what cat-file is asked: a blob id, or COMMIT:PATH for a link
        wanted: dict[str, str] = {}
        linked: list[str] = []  # the folders of STATE_DIRS under a link (``data`` -> real)
        for mode, kind, blob, path in _entries(listing):
            relative = path[len(self.prefix) :]
            if mode == _LINK and any(_under(folder, relative) for folder in STATE_DIRS):
                linked += [folder for folder in STATE_DIRS if _under(folder, relative)]
            if kind != "blob" or not _wanted(relative):
                continue
            wanted[relative] = self._request(commit, mode, blob, path, name or revision)
        for folder in linked:
            self._read_linked(commit, folder, wanted, name or revision)
        contents = self._blobs(list(wanted.values()))
        files = {}
        for relative, request in sorted(wanted.items()):
            content = contents[request]
            if isinstance(content, _Unread):
                raise AnthologyError(f"cannot read: {content}", f"{name or revision}:{relative}")
            files[relative] = content
        return State(name=name or revision, root=root, files=files, revision=commit)

    def read_index(self, root: Path) -> State:
        """The state of the anthology as git's index holds it: what ``git commit`` would
        record, without the work tree's untracked files and unstaged changes. The index
        is the one ``GIT_INDEX_FILE`` names where it is set, as git sets it for its hooks
        (``git commit -a`` and ``git commit PATH`` commit a temporary one). A copy of it
        is written as a tree by ``git write-tree`` (as pre-commit does before it sets
        unstaged changes aside; the copy, since write-tree would lock the index, which
        ``git commit -a`` holds while its hook runs), read like a revision: a symbolic
        link is followed within the tree. An AnthologyError for unmerged paths."""
        index = os.environ.get("GIT_INDEX_FILE")
        if index:  # (relative to the hook's working directory, the top of the work tree)
            index_file = Path(os.path.abspath(index))
        else:
            index_file = self.top / os.fsdecode(
                self._git("rev-parse", "--git-path", "index").strip()
            )
        with tempfile.TemporaryDirectory(prefix="anthology-kg-index-") as scratch:
            copy = Path(scratch) / "index"
            if index_file.is_file():  # (none before the first git add: nothing is staged)
                shutil.copyfile(index_file, copy)
            done = _run_git(
                self.top, ["write-tree"], {**self.environment, "GIT_INDEX_FILE": str(copy)}
            )
        if done.returncode != 0:
            said = done.stderr.decode("utf-8", "replace").splitlines()
            unmerged = sorted(
                {line.partition(": unmerged (")[0] for line in said if ": unmerged (" in line}
            )
            raise AnthologyError(
                "cannot read what is staged: "
                + (
                    f"unmerged paths ({', '.join(unmerged)}): resolve them and git add them"
                    if unmerged
                    else _said(done.stderr)
                )
            )
        tree = done.stdout.decode("ascii").strip()
        return self.read(STAGED, root, name=STAGED, tree=tree)

    def _request(self, commit: str, mode: str, blob: str, path: str, state: str) -> str:
        """What cat-file is asked for the file at ``path`` of ``commit``: its blob id, or
        ``COMMIT:PATH`` for a link (or a file under a linked folder), which git follows
        within the tree."""
        if mode != _LINK and blob:
            return blob
        if "\n" in path:  # (cat-file reads its requests a line each)
            raise AnthologyError(
                "cannot read: a symbolic link whose name holds a line break",
                f"{state}:{path[len(self.prefix) :]}",
            )
        return f"{commit}:{path}"

    def _read_linked(self, commit: str, folder: str, wanted: dict[str, str], state: str) -> None:
        """The files of ``folder`` (one of STATE_DIRS, under a symbolic link in
        ``commit``: ``data`` -> ``real``) added to ``wanted``, the link followed within
        the tree as a file's is; a link git cannot follow there (out of the repository,
        dangling, a loop) is an AnthologyError naming ``state:folder``."""
        path = self.prefix + folder
        answer = self._git(
            "cat-file",
            "--batch-check",
            "--follow-symlinks",
            input=f"{commit}:{path}\n".encode("utf-8", "surrogateescape"),
        ).decode("utf-8", "surrogateescape")
        header, _, rest = answer.partition("\n")
        words = header.split()
        if words[-1] == "missing":  # (a link to a folder git does not hold)
            words = ["dangling"]
        if len(words) == 3 and words[1] == "tree":
            listing = self._git("ls-tree", "-r", "-z", words[0])
            for mode, kind, blob, inner in _entries(listing):  # (a link: COMMIT:PATH)
                relative = f"{folder}/{inner}"
                if kind == "blob" and _wanted(relative):
                    wanted[relative] = self._request(commit, mode, blob, f"{path}/{inner}", state)
        elif len(words) != 3:  # symlink (out of the tree: rest is where it led), dangling, loop
            target = rest.rstrip("\n") if words[0] == "symlink" else None
            said = _Unread(_LINK_PROBLEMS.get(words[0], words[0]), target)
            raise AnthologyError(f"cannot read: {said}", f"{state}:{folder}")

    def _git(self, *args: str | bytes, input: bytes | None = None) -> bytes:
        return _git(self.top, *args, input=input, environment=self.environment)

    def _pathspecs(self) -> list[bytes]:
        """The paths to list, as bytes: the prefix's as git gave them (a folder's name
        that is not UTF-8, or that the locale's encoding cannot write, is passed as it is).
        Each folder of STATE_DIRS and the folders above it are named without a slash too,
        so that one of them that is a symbolic link is listed (``data`` -> ``real``)."""
        folders = {
            str(p) for d in STATE_DIRS for p in [PurePosixPath(d), *PurePosixPath(d).parents]
        }
        folders.discard(".")
        names = [f"{self.prefix}{d}/" for d in STATE_DIRS] + [self.prefix + f for f in STATE_FILES]
        names += [self.prefix + folder for folder in sorted(folders)]
        return [name.encode("utf-8", "surrogateescape") for name in names]

    def _blobs(self, requests: list[str]) -> dict[str, bytes | _Unread]:
        """The contents of blobs, each named by its id or as ``COMMIT:PATH`` (a symbolic
        link, followed within the commit's tree), all read through one ``git cat-file
        --batch``; what cannot be read is an ``_Unread`` saying why."""
        if not requests:
            return {}
        unique = sorted(set(requests))
        output = self._git(
            "cat-file",
            "--batch",
            "--follow-symlinks",
            input="".join(f"{r}\n" for r in unique).encode("utf-8", "surrogateescape"),
        )
        contents: dict[str, bytes | _Unread] = {}
        at = 0
        for request in unique:
            end = output.index(b"\n", at)
            header = output[at:end].decode("utf-8", "surrogateescape").split()
            if header[-1] == "missing":  # (no content follows)
                contents[request], at = _Unread("no such file (a dangling symlink?)"), end + 1
                continue
            size = int(header[-1])
            content = output[end + 1 : end + 1 + size]
            at = end + 1 + size + 1  # the content is followed by a newline
            if len(header) == 3 and header[1] == "blob":
                contents[request] = content
            elif len(header) == 3:  # a link to a folder
                contents[request] = _Unread("a folder, not a file")
            elif header[0] == "symlink":  # out of the tree: the content is where it led
                target = content.decode("utf-8", "surrogateescape")
                contents[request] = _Unread(_LINK_PROBLEMS["symlink"], target)
            else:  # dangling, loop, notdir: the content is the request
                contents[request] = _Unread(_LINK_PROBLEMS.get(header[0], header[0]))
        return contents


def _entries(listing: bytes) -> Iterator[tuple[str, str, str, str]]:
    """The mode, kind, object id and path of each record of ``git ls-tree -z``."""
    for record in listing.split(b"\0"):
        if record:
            meta, _, path = record.decode("utf-8", "surrogateescape").partition("\t")
            mode, kind, blob = meta.split()
            yield mode, kind, blob, path


def _under(folder: str, link: str) -> bool:
    """Whether ``folder`` is the path ``link`` or a folder within it."""
    return folder == link or folder.startswith(link + "/")


#: The mode ``git ls-tree`` gives a symbolic link.
_LINK = "120000"
#: What ``git cat-file --follow-symlinks`` says of a link it cannot follow, in words.
_LINK_PROBLEMS = {
    "symlink": "a symbolic link out of the repository, whose target git does not record",
    "dangling": "no such file (a dangling symlink?)",
    "notdir": "no such file (a dangling symlink?)",
    "loop": "a symlink loop",
}


@dataclass(frozen=True)
class _Unread:
    """Why a file of a revision cannot be read (``target``: where its link led, if known)."""

    reason: str
    target: str | None = None

    def __str__(self) -> str:
        return self.reason + (f" (to {self.target})" if self.target else "")


# -- what the user typed ----------------------------------------------------------------


def anthology_root(start: Path | None = None) -> Path:
    """The nearest ancestor of ``start`` (default: the working directory) holding ``data/``,
    found as every command finds it (``resources.nearest_root``: a symbolic link named
    ``data`` that leads to no folder stops the search, exit 2), else ``start`` itself: a
    revision may hold an anthology the work tree no longer has."""
    here = (start or Path.cwd()).resolve()
    return nearest_root(here) or here


def resolve_states(
    root: Path, old: str | None = None, new: str | None = None
) -> tuple[State, State]:
    """The two states to compare: OLD and NEW each a folder or a git revision of the
    repository holding ``root``. No OLD: ``HEAD``; no NEW: ``root`` as it is on disk (the
    working tree). Without NEW, OLD may be a range: ``A...B`` compares B with its common
    ancestor with A (what a pull request changes), ``A..B`` compares B with A; an empty
    side is ``HEAD``."""
    for spec in (old, new):
        if spec is not None:
            _refuse_empty(spec)
    root = root.resolve()
    if old is not None and new is None and ".." in old and not _is_folder(old):
        repository = Repository.of(root)
        separator = "..." if "..." in old else ".."
        left, _, right = old.partition(separator)
        left, right = left or "HEAD", right or "HEAD"
        if separator == "...":
            base = repository.merge_base(left, right)
            old_state = repository.read(base, root, name=base[:12])
        else:
            old_state = repository.read(left, root)
        return old_state, repository.read(right, root)
    old_state = read_state(root, old or "HEAD")
    new_state = read_folder(root, WORKING_TREE) if new is None else read_state(root, new)
    return old_state, new_state


def read_state(root: Path, spec: str) -> State:
    """A folder when ``spec`` is one, else a revision of the repository of ``root``; a
    folder that holds no ``data/`` when ``spec`` is also a revision (``main/`` beside
    branch main) is the revision. A name too long to be a folder's is an AnthologyError
    at ``spec``, and so is an empty one (``--baseline "$BASE"`` with BASE unset would
    otherwise read ``.``: the state being checked, against which nothing is new)."""
    _refuse_empty(spec)
    folder = _is_folder(spec)
    if folder is None:
        raise AnthologyError("cannot read: a name too long for the file system", spec)
    if folder:
        if not (Path(spec) / DATA_DIR).is_dir():
            repository = Repository.find(root)
            if repository is not None and repository.is_commit(spec):
                return repository.read(spec, root)
        return read_folder(Path(spec), display_path(Path(spec)))
    repository = Repository.find(root)
    if repository is None:
        raise AnthologyError(
            f"not a git repository, and no folder {clipped(spec)}: name two folders, or run "
            "inside a git work tree",
            root,
        )
    return repository.read(spec, root)


def _refuse_empty(spec: str) -> None:
    """An AnthologyError when ``spec`` names no revision or folder (empty or blanks)."""
    if not spec.strip():
        raise AnthologyError(
            f"{clipped(spec)} names no revision or folder (an unset variable?): name a git "
            "revision such as origin/main, or a folder"
        )


def _is_folder(spec: str) -> bool | None:
    """Whether ``spec`` names a folder; None when no folder can have that name (longer
    than the file system takes: ``A...B``, a range, may be). Another failure to look it
    up (permission denied on the way) is an AnthologyError at ``spec``."""
    try:
        return Path(spec).is_dir()
    except OSError as exc:
        if exc.errno == errno.ENAMETOOLONG:
            return None
        raise AnthologyError(f"cannot read: {exc.strerror or exc}", spec) from None


@contextlib.contextmanager
def staged_folder(root: Path, command: str) -> Iterator[tuple[Path, State]]:
    """The anthology at ``root`` as git's index holds it (``Repository.read_index``),
    written to a temporary folder (``materialized``): that folder and the state. An
    AnthologyError where ``root`` is in no git repository, naming ``command`` to run
    without --staged."""
    repository = Repository.find(root)
    if repository is None:
        raise AnthologyError(
            f"--staged reads git's index, and {root.resolve()} is in no git repository: "
            f"{command} without --staged"
        )
    state = repository.read_index(root)
    with materialized(state) as folder:
        yield folder, state


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
