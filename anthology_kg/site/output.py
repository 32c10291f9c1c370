"""Where the site's files go: safe names derived from data, confined to the output folder,
written into a fresh folder that replaces the old site only once it is complete.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import tempfile
from collections import deque
from collections.abc import Callable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from ..errors import AnthologyError
from ..files import new_folder_beside, not_a_folder, stop_signals_held

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
_SAFE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")
GENERATOR = "anthology-kg"


def slug(text: str) -> str:
    """A file name for ``text``: itself when it is already a plain name (letters, digits,
    ``.``, ``_``, ``-``, not starting with a dot or dash, at most 100 characters), else its
    plain characters and a short hash of the whole text, so that two texts never share a
    name and nothing in the text (``/``, ``..``, quotes) reaches the file system."""
    if _SAFE.fullmatch(text) and ".." not in text:
        return text
    plain = _UNSAFE.sub("-", text).replace("..", "-").strip(".-")[:60] or "entry"
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:10]
    return f"{plain}-{digest}"


def unique_slug(text: str, used: set[str], salt: str = "") -> str:
    """``slug(text)``, unless that name is in ``used`` up to case (a file system may not
    tell ``A.html`` from ``a.html``): then the hashed slug of ``text`` and ``salt``. The
    name returned is added to ``used``, lower-cased."""
    name = slug(text)
    if name.lower() in used:
        name = slug(text + "\x00" + salt)
    used.add(name.lower())
    return name


Source = tuple[str, "tuple[Path, int | None] | None"]


def confined(root: Path, relative: str, describe: Callable[[], Source]) -> Path:
    """``root / relative``, checked after resolving to lie inside ``root`` (itself
    resolved); otherwise an AnthologyError naming what ``describe()`` says the file was
    derived from (an entry or a query) and its source file and line."""
    path = (root / relative).resolve()
    if not path.is_relative_to(root):
        what, where = describe()
        source, line = where if where is not None else (None, None)
        raise AnthologyError(
            f"{what}: its page {relative!r} would be written outside {root}", source, line
        )
    return path


#: The names at the top of a site this tool writes (pages.py, assets.py): anything else
#: there, in an earlier site, is someone else's (a CNAME, .nojekyll, .git, notes), which
#: replacing the folder would delete. What lies under the folders is the site's own.
SITE_NAMES = frozenset(
    {"index.html", "search.html", "rules.html", "graph.html", "graph.svg"}
    | {"assets", "entries", "queries"}
)
#: How many of the names a refusal shows.
NAMES_SHOWN = 3


def refuse_foreign_names(folder: Path) -> None:
    """An AnthologyError naming what ``folder`` (an earlier site) holds at its top that
    the site does not write, if anything."""
    foreign = sorted(name for name in os.listdir(folder) if name not in SITE_NAMES)
    if foreign:
        shown = ", ".join(foreign[:NAMES_SHOWN])
        if len(foreign) > NAMES_SHOWN:
            shown += f" and {len(foreign) - NAMES_SHOWN} more"
        raise AnthologyError(
            f"holds what the site did not write ({shown}), which replacing the folder's "
            "whole content would delete: move it out, or build into a new folder and "
            "copy the site in",
            folder,
        )


def is_site(folder: Path) -> bool:
    """Whether ``folder`` holds a site this tool wrote (its index names the generator)."""
    index = folder / "index.html"
    try:
        head = index.read_text(encoding="utf-8", errors="replace")[:2000]
    except OSError:
        return False
    return f'<meta name="generator" content="{GENERATOR}">' in head


class SiteWriter:
    """Writes a site's files into a new folder beside ``output`` and, on ``commit``,
    puts that folder in the place of ``output``; ``discard`` (or any failure) removes it
    and leaves the old site as it was. So the output is exactly the files added (a
    deleted entry's page disappears) and never half-written.

    ``output`` must be missing, empty, or a site this tool wrote holding nothing else
    at its top (``SITE_NAMES``): anything else is refused before anything is written,
    and again before the swap. The files are written by a thread of their own
    (writing releases Python's lock, so pages go on being built meanwhile), in the
    order they are added. ``sources`` tells, for a path derived from data, what it was
    derived from (asked only for a refusal's message)."""

    def __init__(self, output: Path, sources: Mapping[str, Callable[[], Source]] | None = None):
        # A link is written through: the site replaces the folder it points to, beside
        # which the new folder is made (else the link itself was replaced by the site).
        # abspath: ``entries/..`` is the folder itself, which a rename of ``..`` is not.
        output = Path(os.path.realpath(output) if output.is_symlink() else os.path.abspath(output))
        if output.exists() and not output.is_dir():
            raise AnthologyError("not a folder", output)
        if output.is_dir() and any(output.iterdir()) and not is_site(output):
            raise AnthologyError(
                "the folder is not empty and holds no site written by anthology-kg; "
                "name a new or empty folder (the site replaces the folder's whole content)",
                output,
            )
        if output.is_dir():
            refuse_foreign_names(output)
        if os.path.ismount(output):  # (a Docker volume): a rename fails, EBUSY
            raise AnthologyError(
                "a mount point, which the site cannot replace (it is built in a new folder "
                "beside it, then renamed into its place): name a folder inside it",
                output,
            )
        parent = output.parent
        try:
            try:
                parent.mkdir(parents=True, exist_ok=True)
            except (FileExistsError, NotADirectoryError):  # a file where a folder goes
                raise not_a_folder(parent) from None
            fresh = new_folder_beside(parent, f".{output.name}.new-")
        except OSError as exc:
            raise AnthologyError(
                f"cannot write: {exc.strerror} (the site is built in a new folder here, "
                f"beside {output.name}, then renamed into its place)",
                parent,
            ) from None
        self.output = output
        self.fresh = fresh.resolve()
        self.sources = sources if sources is not None else {}
        self.written: list[str] = []
        self._top = str(self.fresh)
        self._made = {self._top}
        self._pool: ThreadPoolExecutor | None = None  # started by the first ``add``
        self._pending: deque[Future] = deque()

    def add(self, relative: str, content: str | bytes) -> None:
        """Write ``content`` as ``relative`` (an AnthologyError if it would land outside
        the site, or if an earlier write failed)."""
        path = self.reserve(relative)
        data = content.encode("utf-8") if isinstance(content, str) else content
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="site-writer")
        self._pending.append(self._pool.submit(self.write_now, path, relative, data))
        while self._pending and self._pending[0].done():
            self._finished(self._pending.popleft())

    def reserve(self, relative: str) -> str:
        """The absolute path of ``relative`` in the new site, counted as written (by
        ``add``, or by the caller through ``write_now``); an AnthologyError if it would
        land outside the site."""
        # The new folder was empty and only this writer adds to it (no symlinks), so a
        # path's text tells where it lands; ``confined`` resolves it to say why not.
        path = os.path.normpath(os.path.join(self._top, relative))
        if not path.startswith(self._top + os.sep):
            describe = self.sources.get(relative, lambda r=relative: (r, None))
            confined(self.fresh, relative, describe)
        self.written.append(relative)
        return path

    def write_now(self, path: str, relative: str, data: bytes) -> None:
        """Write ``data`` at ``path`` (from ``reserve``) in this thread; an OSError names
        ``relative``. Any process may call it: it only creates files and folders."""
        try:
            folder = os.path.dirname(path)
            if folder not in self._made:
                os.makedirs(folder, exist_ok=True)
                self._made.add(folder)
            # os.open and os.write: a tenth of the CPU of open() for ten thousand pages.
            handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666)
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(handle, view) :]
            finally:
                os.close(handle)
        except OSError as exc:
            exc.filename = relative  # a failed write() names no file
            raise

    def pause(self) -> None:
        """Wait for every write so far and stop the writing thread (the next ``add``
        starts another): a process forked then copies no thread."""
        while self._pending:
            self._finished(self._pending.popleft())
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None

    def _finished(self, future: Future) -> None:
        error = future.exception()
        if isinstance(error, OSError):
            raise self.failure(error) from None
        if error is not None:
            raise error

    def failure(self, error: OSError) -> AnthologyError:
        """What a failed write (``error`` naming the file of the site) is reported as."""
        return AnthologyError(
            f"cannot write the site ({error.filename}): {error.strerror}", self.output
        )

    def commit(self) -> None:
        """Wait for every write, then put the new site in place of the old one."""
        try:
            self.pause()
            if self.output.is_dir():  # a file put there while the site was built
                refuse_foreign_names(self.output)
            _swap(self.fresh, self.output)
        except OSError as exc:
            self.discard()
            raise AnthologyError(f"cannot write the site: {exc.strerror}", self.output) from None
        except BaseException:
            self.discard()
            raise

    def discard(self) -> None:
        """Stop writing and remove the new folder; the old site stays as it was."""
        for future in self._pending:
            future.cancel()
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None
        self._pending.clear()
        shutil.rmtree(self.fresh, ignore_errors=True)


def _swap(fresh: Path, output: Path) -> None:
    """Put ``fresh`` where ``output`` is, removing the old site only after the rename.
    The renames run with the stop signals held (a signal between them left no site at
    ``output``), and a failure of the second puts the old site back."""
    old: Path | None = None
    swapped = False
    try:
        with stop_signals_held():
            if not output.exists():
                os.replace(fresh, output)
                return
            old = Path(tempfile.mkdtemp(dir=output.parent, prefix=f".{output.name}.old-"))
            old.rmdir()
            os.replace(output, old)
            try:
                os.replace(fresh, output)
            except BaseException:
                os.replace(old, output)
                raise
            swapped = True
    finally:
        if swapped and old is not None:  # also when a signal held comes now
            shutil.rmtree(old, ignore_errors=True)
