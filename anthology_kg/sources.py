"""Reading the anthology's source files at the boundary, where bad input is caught.

Every Turtle file the tool reads goes through ``read_source``: only a regular file is
opened (a folder, a FIFO, a device named ``*.ttl`` is refused before ``open``, so nothing
hangs), and a symlink loop, a dangling symlink or an unreadable file is an
``AnthologyError`` naming the path. Turtle is parsed by pyoxigraph's parser, the strict
one, for both engines: what one engine refuses (``<X 1>``, ``"\\uD800"``) the other
refuses too, with the same ``file:line`` message.
"""

from __future__ import annotations

import codecs
import contextlib
import errno
import os
import stat
import sys
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, overload

import pyoxigraph as ox

from .errors import AnthologyError, clipped
from .utf8 import decode_utf8, without_bom

# rdflib only where a caller asks for rdflib terms (``term``, ``to_graph``): reading and
# parsing the files does not need it, and ``export`` runs without it.
if TYPE_CHECKING:
    from rdflib import Graph
    from rdflib.term import Node

_REASONS = {
    errno.ELOOP: "a symlink loop",
    errno.ENOENT: "no such file (a dangling symlink?)",
    errno.EACCES: "permission denied",
    errno.EISDIR: "a folder, not a file",
}


def _reason(exc: OSError) -> str:
    return _REASONS.get(exc.errno or 0, exc.strerror or str(exc))


#: How ``read_source`` opens a file (O_NONBLOCK: see there), made once, not per file.
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)


def read_source(
    path: Path | str, *, listed_regular: bool = False, keep_mark: bool = False
) -> bytes:
    """The bytes of the regular file ``path`` (a leading UTF-8 byte order mark left
    out, unless ``keep_mark``); anything else is an AnthologyError. ``listed_regular``:
    the folder's listing said the file is a regular one (``TurtleFiles.listed_regular``),
    so it is not looked at before it is opened (the check after opening stays)."""
    if not listed_regular:
        require_regular_file(path)
    try:
        # O_NONBLOCK: should the file be swapped for a FIFO after the check, open
        # still returns at once instead of waiting for a writer.
        fd = os.open(path, _OPEN_FLAGS)
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                raise AnthologyError("cannot read: not a regular file", path)
            # os.read, not a file object: one read of the whole file for most (a file
            # object costs more than the read itself, ten thousand files at a time).
            data = os.read(fd, info.st_size + 1)
            if len(data) != info.st_size:  # not the end where stat said: read on to it
                chunks = [data]
                while chunks[-1]:
                    chunks.append(os.read(fd, 1 << 20))
                data = b"".join(chunks)
        finally:
            os.close(fd)
    except OSError as exc:
        raise AnthologyError(f"cannot read: {_reason(exc)}", path) from None
    except MemoryError:
        raise AnthologyError("cannot read: the file is too large for memory", path) from None
    return data if keep_mark else without_bom(data)


def require_regular_file(path: Path | str) -> None:
    """Raise AnthologyError unless ``path`` (a symbolic link followed) is a regular file,
    saying what it is instead: a folder, a FIFO, socket or device, a symlink loop, a
    dangling symlink. Nothing is opened, so a FIFO never blocks."""
    try:
        info = os.stat(path)
    except OSError as exc:
        raise AnthologyError(f"cannot read: {_reason(exc)}", path) from None
    if stat.S_ISDIR(info.st_mode):
        raise AnthologyError("cannot read: a folder, not a file", path)
    if not stat.S_ISREG(info.st_mode):
        raise AnthologyError("cannot read: not a regular file (a FIFO, socket or device)", path)


def utf8_text(value: str, what: str) -> str:
    """``value`` if it is text that UTF-8 can write, else an AnthologyError naming
    ``what`` (``--title``): bytes of a command's arguments that are not UTF-8 arrive
    as lone surrogates, which no RDF term, file or request can hold. A value that is no
    ``str`` (a library caller's ``5``) is one too."""
    if not isinstance(value, str):
        raise AnthologyError(f"{what}: {value!r} is not text ({type(value).__name__})")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise AnthologyError(f"{what}: {_not_utf8(value)}") from None
    return value


def _not_utf8(value: str) -> str:
    """Why ``value`` (with lone surrogates) is refused: bytes that are not UTF-8, or
    UTF-8 bytes that a locale which is not UTF-8 decoded so (``LC_ALL=C`` with
    ``PYTHONUTF8=0``; Python's own default turns the C locale into UTF-8)."""
    encoding = sys.getfilesystemencoding()
    try:
        if codecs.lookup(encoding).name == "utf-8":
            raise UnicodeError  # the bytes themselves are not UTF-8
        os.fsencode(value).decode("utf-8")
    except UnicodeError:
        return "the value is not UTF-8 text"
    return (
        f"the value is UTF-8 text, read under a locale that is not UTF-8 "
        f"({encoding}): run with PYTHONUTF8=1 or a UTF-8 locale "
        "(LC_ALL=C.UTF-8)"
    )


def read_text(path: Path) -> str:
    """The UTF-8 text of the regular file ``path`` (see ``read_source``)."""
    return decode_utf8(read_source(path), path)


def check_base(base: str, given_as: str = "--base") -> str:
    """``base`` if it is an absolute IRI the strict parser accepts and against which a
    relative IRI ``<ID>`` resolves to ``base + "ID"`` (entry IRIs are base + identifier),
    else an AnthologyError naming it as ``given_as`` (the option, the environment
    variable or the configuration file's key that gave it)."""
    try:
        ox.NamedNode(base)
    except ValueError as exc:
        raise AnthologyError(f"{given_as} {clipped(base)} is not an absolute IRI: {exc}") from None
    if ":" not in base:
        raise AnthologyError(f"{given_as} {clipped(base)} is not an absolute IRI")
    # RFC 3986 drops a base's fragment, query and last segment: 'http://x/id#' gives
    # <http://x/ID>, so a file's <LIT-501> would not be the entry id:LIT-501.
    triple = next(ox.parse(b"<ID> <ID> <ID> .", format=ox.RdfFormat.TURTLE, base_iri=base))
    if triple.subject.value != base + "ID":
        why, fix = (
            ("has a query or a fragment", "end its path with / and drop them")
            if base.endswith("/")
            else ("does not end in '/'", "end it with /")
        )
        raise AnthologyError(
            f"{given_as} {clipped(base)} {why}: the relative IRI <ID> would be "
            f"<{triple.subject.value}>, not <{base}ID>; {fix}"
        )
    return base


def turtle_error(exc: Exception, path: Path | str | None, base: str) -> AnthologyError:
    """What pyoxigraph raised on bad Turtle (a SyntaxError, ValueError or MemoryError) as
    an AnthologyError at the file (and line): the one translation both engines use."""
    if isinstance(exc, SyntaxError):
        message = exc.msg or str(exc)
        return AnthologyError(f"Turtle syntax error: {message}", path, exc.lineno)
    if isinstance(exc, ValueError):  # an invalid base IRI
        return AnthologyError(f"cannot parse with base {clipped(base)}: {exc}", path)
    # pyoxigraph refuses a single term over 16 MiB
    return AnthologyError(f"cannot parse: {exc or 'out of memory'}", path)


@contextlib.contextmanager
def turtle_errors(path: Path | str | None, base: str) -> Iterator[None]:
    """Turn what pyoxigraph raises on bad Turtle into an AnthologyError at the file (and
    line) (``turtle_error``)."""
    try:
        yield
    except (SyntaxError, ValueError, MemoryError) as exc:
        raise turtle_error(exc, path, base) from None


def parse_quads(data: bytes | str, path: Path | str | None, base: str) -> list[ox.Quad]:
    """The quads of Turtle ``data``, relative IRIs against ``base``, blank nodes given
    fresh labels (``_:x`` of two files are two nodes); a syntax error is an
    AnthologyError at its file and line."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    with turtle_errors(path, base):
        parsed = ox.parse(data, format=ox.RdfFormat.TURTLE, base_iri=base, rename_blank_nodes=True)
        return list(parsed)
    raise AssertionError("unreachable")  # for type checkers: turtle_errors always raises


def load_into(
    store: ox.Store, data: bytes, path: Path | str, base: str, graph: ox.NamedNode
) -> str:
    """Load Turtle ``data`` (read from ``path``) into ``graph`` of ``store``, with the
    same verdict and messages as ``parse_quads``; return its text."""
    text = decode_utf8(data, path)
    try:  # not ``turtle_errors``: a context manager per file costs, 10,000 files a run
        store.load(data, format=ox.RdfFormat.TURTLE, base_iri=base, to_graph=graph)
    except (SyntaxError, ValueError, MemoryError) as exc:
        raise turtle_error(exc, path, base) from None
    return text


def term(node: ox.NamedNode | ox.BlankNode | ox.Literal | ox.Triple) -> Node:
    """A pyoxigraph term as an rdflib term (``terms.from_ox``: a literal's lexical form
    kept exactly), a triple term refused as input the tool does not support."""
    from .terms import from_ox

    if isinstance(node, ox.Triple):
        raise AnthologyError(f"RDF-star triple terms are not supported: {node}")
    return from_ox(node)


def to_graph(quads: list[ox.Quad], graph: Graph | None = None) -> Graph:
    """The triples of ``quads`` (any graph name) added to ``graph`` (default a new one)."""
    from rdflib import Graph

    from .terms import from_ox, quiet_ill_typed

    graph = Graph() if graph is None else graph
    with quiet_ill_typed():
        for quad in quads:
            subject, obj = quad.subject, quad.object
            if isinstance(subject, ox.Triple) or isinstance(obj, ox.Triple):
                term(obj if isinstance(obj, ox.Triple) else subject)  # refused there
            graph.add((from_ox(subject), from_ox(quad.predicate), from_ox(obj)))
    return graph


def parse_turtle_file(path: Path, base: str) -> tuple[list[ox.Quad], str, bytes]:
    """Read and parse one Turtle file: its quads, its text and its bytes."""
    data = read_source(path)
    text = decode_utf8(data, path)
    return parse_quads(data, path, base), text, data


def listed_name(name: str, suffix: str = ".ttl") -> bool:
    """Whether a file named ``name``, in a folder the tool reads (``data/``, the shapes,
    the queries), is one of its files: it ends with ``suffix`` and is not hidden, as an
    editor's lock or backup file is (Emacs' ``.#LIT-168.ttl``, macOS's ``._X.ttl``)."""
    return name.endswith(suffix) and not name.startswith(".")


def list_folder(folder: Path, suffix: str) -> tuple[list[tuple[str, bool]], list[str], list[str]]:
    """One listing of ``folder``: its files named ``*suffix`` (``listed_name``), sorted,
    each with whether the listing showed a regular file, the names that end in
    ``suffix`` in another case (``LIT-168.TTL``: not read, for a warning), sorted, and
    its sub-folders but hidden ones (not read: ``nested_files`` finds what they hold),
    sorted. A folder that cannot be listed is an AnthologyError naming it."""
    kept, miscased, folders = [], [], []
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                name = entry.name
                if listed_name(name, suffix):
                    kept.append((name, entry.is_file(follow_symlinks=False)))
                elif listed_name(name.lower(), suffix):
                    miscased.append(name)
                elif not name.startswith(".") and _is_folder(entry):
                    folders.append(name)
    except OSError as exc:
        raise AnthologyError(f"cannot list the folder: {exc.strerror}", folder) from None
    return sorted(kept), sorted(miscased), sorted(folders)


def _is_folder(entry: os.DirEntry) -> bool:
    try:
        return entry.is_dir(follow_symlinks=False)
    except OSError:
        return False


def nested_files(folder: Path, folders: Iterable[str], suffix: str) -> tuple[int, Path | None]:
    """How many files named ``*suffix`` (``listed_name``) the sub-folders ``folders`` of
    ``folder`` hold at any depth (hidden folders and links to folders not followed), and
    the first of them by path; a folder that cannot be listed counts none."""
    count, first = 0, None
    for name in folders:
        for top, names, files in os.walk(folder / name):
            names[:] = sorted(n for n in names if not n.startswith("."))
            found = sorted(f for f in files if listed_name(f, suffix))
            if found and first is None:
                first = Path(top) / found[0]
            count += len(found)
    return count, first


def not_read(name: str, suffix: str, files: str) -> str:
    """Why the file ``name``, whose name ends in ``suffix`` in another case (``list_folder``),
    is not read, for a warning: ``files`` (``data files``) end in ``suffix`` in lower case."""
    return (
        f"not read: {files} end in '{suffix}', in lower case "
        f"(rename it {name[: -len(suffix)]}{suffix})"
    )


class TurtleFiles(Sequence[Path]):
    """The ``*.ttl`` files of a folder, sorted by name, held as the folder and the names
    (a Path is made on access): a Path object each would hold ~250 bytes per file for the
    life of a command, 24 MB at 100,000 entries."""

    def __init__(self, folder: Path, names: Iterable[str] = ()) -> None:
        self.folder = folder
        self.names = tuple(names)
        #: The names the listing did not show as regular files (None: not listed).
        self._irregular: frozenset[str] | None = None
        #: The names not read that end in ``.ttl`` in another case (``LIT-168.TTL``).
        self.miscased: tuple[str, ...] = ()
        #: The sub-folders of the folder, not read (but hidden ones).
        self.folders: tuple[str, ...] = ()

    @classmethod
    def of(cls, folder: Path) -> TurtleFiles:
        """The folder's files named ``*.ttl`` but hidden ones (``listed_name``); none if
        ``folder`` is not a folder. Names ending in ``.TTL`` (any other case) are not
        read, and are kept in ``miscased`` for a warning."""
        if not folder.is_dir():
            return cls(folder)
        kept, miscased, folders = list_folder(folder, ".ttl")
        files = cls(folder, [name for name, _ in kept])
        files._irregular = frozenset(name for name, regular in kept if not regular)
        files.miscased = tuple(miscased)
        files.folders = tuple(folders)
        return files

    def listed_regular(self, name: str) -> bool:
        """Whether the folder's listing said ``name`` is a regular file (not a symlink,
        a folder or a device): ``read_source`` need not look at it before opening it."""
        return self._irregular is not None and name not in self._irregular

    @overload
    def __getitem__(self, index: int) -> Path: ...

    @overload
    def __getitem__(self, index: slice) -> list[Path]: ...

    def __getitem__(self, index: int | slice) -> Path | list[Path]:
        if isinstance(index, slice):
            return [self.folder / name for name in self.names[index]]
        return self.folder / self.names[index]

    def __len__(self) -> int:
        return len(self.names)

    def __iter__(self) -> Iterator[Path]:
        folder = self.folder
        return (folder / name for name in self.names)

    def __repr__(self) -> str:
        return f"TurtleFiles({str(self.folder)!r}, {len(self.names)} files)"


def file_names(files: Sequence[Path]) -> list[str]:
    """The names of ``files`` (a ``TurtleFiles`` gives them without making a Path each)."""
    if isinstance(files, TurtleFiles):
        return list(files.names)
    return [path.name for path in files]
