"""The data layout rule: one file per entry, named by its identifier.

The graph's SHACL rules cannot see files, so a file named for another entry, or an entry
described in two files, is an input warning (on stderr, exit code unchanged), reported
by ``fmt`` from the files it formats, and by ``check`` from a quick text scan that
picks the files worth parsing (see ``data_entries``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import pyoxigraph as ox

from .errors import AnthologyError, display_path, first_of, printable
from .sources import TurtleFiles, nested_files, not_read, parse_quads, read_source, read_text

IDENTIFIER = "http://purl.org/dc/terms/identifier"
#: ``dcterms:identifier "X"`` as files are written (a file that writes it otherwise is
#: parsed): the text scan that picks the files worth parsing.
_IDENTIFIER_TEXT = re.compile(
    r'(?:dcterms:identifier|<http://purl\.org/dc/terms/identifier>)\s+"([^"\\\n]+)"'
)
_FULL_IRI = "<http://purl.org/dc/terms/identifier>"
#: The same search where the text has no full IRI: a pattern that opens with a literal,
#: which ``re`` finds in a third of the time an alternation takes.
_PREFIXED_TEXT = re.compile(r'dcterms:identifier\s+"([^"\\\n]+)"')


def written_identifiers(text: str) -> set[str]:
    """The identifiers Turtle ``text`` writes as ``dcterms:identifier "X"`` (prefixed
    or as a full IRI), found by a text search."""
    pattern = _IDENTIFIER_TEXT if _FULL_IRI in text else _PREFIXED_TEXT
    return set(pattern.findall(text))


@dataclass(frozen=True)
class FileEntries:
    """What one data file says about entries: the IRIs it writes as subjects (with their
    first line, None where unknown) and the identifier it gives each IRI."""

    path: Path
    subjects: dict[str, int | None] = field(default_factory=dict)
    identifiers: dict[str, str] = field(default_factory=dict)
    #: Whether ``subjects`` holds the lines (else they are looked up when a warning needs one).
    lines_known: bool = False


@dataclass(frozen=True)
class LayoutWarning:
    """A file's problem said on stderr that changes no exit code: a data file that breaks
    the layout rule, a waiver that names nothing in the data (validation)."""

    path: Path
    line: int | None
    message: str

    def __str__(self) -> str:
        where = display_path(self.path) + (f":{self.line}" if self.line else "")
        return printable(f"{where}: warning: {self.message}")


def entries_of(
    path: Path, quads: Iterable[ox.Quad], lines: dict[str, int] | None = None
) -> FileEntries:
    """The FileEntries of ``path`` from its parsed ``quads`` (``lines``: each subject IRI's
    first line, where the caller has them)."""
    subjects: dict[str, int | None] = {}
    identifiers: dict[str, str] = {}
    for quad in quads:
        if isinstance(quad.subject, ox.NamedNode):
            subject = quad.subject.value
            if subject not in subjects:
                subjects[subject] = lines.get(subject) if lines is not None else None
            if quad.predicate.value == IDENTIFIER and isinstance(quad.object, ox.Literal):
                identifiers[subject] = quad.object.value
    return FileEntries(path, subjects, identifiers, lines_known=lines is not None)


class LayoutScan:
    """The text scan that picks the data files worth parsing for the layout rule, fed
    one file at a time by whoever reads them (a loader gives it the text it has read).

    A file is a suspect where ``dcterms:identifier "STEM"`` (its own name) is not
    written, or where it writes an identifier another file writes too. Only the first
    file of each identifier is held (as its position in ``files``), not every file."""

    def __init__(self, files: Sequence[Path]) -> None:
        self.files = files
        self._first: dict[str, int] = {}
        self._suspects: set[int] = set()

    def add(self, index: int, name: str, text: str) -> None:
        """Scan ``text``, the content of ``files[index]``, whose file name is ``name``."""
        identifiers = written_identifiers(text)
        if _stem(name) not in identifiers:
            self._suspects.add(index)
        for identifier in identifiers:
            first = self._first.setdefault(identifier, index)
            if first != index:
                self._suspects.update((first, index))

    def suspects(self) -> list[Path]:
        """The suspect files, in the order of ``files``."""
        return [self.files[index] for index in sorted(self._suspects)]


def _stem(name: str) -> str:
    """``Path(name).stem``, without making a Path (the loaders call it for every file)."""
    dot = name.rfind(".")
    return name[:dot] if 0 < dot < len(name) - 1 else name


def suspect_entries(paths: Iterable[Path], base: str) -> list[FileEntries]:
    """The FileEntries of ``paths`` (``LayoutScan.suspects``), each file parsed; a file
    that cannot be read or parsed is left out (the loader reports it)."""
    found = []
    for path in paths:
        try:
            found.append(entries_of(path, parse_quads(read_source(path), path, base)))
        except AnthologyError:
            continue
    return found


def data_entries(files: Iterable[Path], base: str) -> list[FileEntries]:
    """The FileEntries of each data file that may break the layout rule.

    Parsing every file again would cost check a fifth of its load time, so a text scan
    picks the suspects first (``LayoutScan``); only those are parsed. A file that cannot
    be read or parsed is left out (the loader reports it).
    """
    files = list(files)
    scan = LayoutScan(files)
    for index, path in enumerate(files):
        try:
            text = read_text(path)
        except AnthologyError:
            continue
        scan.add(index, path.name, text)
    return suspect_entries(scan.suspects(), base)


def layout_warnings(files: Iterable[FileEntries], base: str) -> list[LayoutWarning]:
    """Files whose name is not the identifier of an entry they describe, and entries
    (IRIs with an identifier) described in more than one file, in file order."""
    files = list(files)
    owners: dict[str, Path] = {}
    for item in files:
        for subject in item.identifiers:
            owners.setdefault(subject, item.path)
    found = []
    for item in files:
        misnamed = item.path.stem not in item.identifiers.values()
        elsewhere = [s for s in item.subjects if owners.get(s, item.path) != item.path]
        if not (misnamed or elsewhere):
            continue
        line_of = _lines(item, base)
        if misnamed:
            named = sorted(set(item.identifiers.values()))
            what = f"the entry {first_of(named)}" if named else "no entry (no dcterms:identifier)"
            first = min((line_of(s) or 0 for s in item.identifiers), default=0)
            found.append(
                LayoutWarning(
                    item.path,
                    first or None,
                    f"the file is named {item.path.stem!r} but describes {what}; "
                    "each file is named by the identifier of its entry",
                )
            )
        for subject in elsewhere:
            found.append(
                LayoutWarning(
                    item.path,
                    line_of(subject),
                    f"<{subject}> is also described in {display_path(owners[subject])}; "
                    "an entry is described in its own file only",
                )
            )
    return found


def _lines(item: FileEntries, base: str) -> Callable[[str], int | None]:
    """A subject's first line in ``item``: as given, else from a scan of its text."""
    if item.lines_known:
        return item.subjects.get
    from .sourcemap import subject_iris

    try:
        scanned = subject_iris(read_text(item.path), base)
    except AnthologyError:  # changed or gone since: no line
        scanned = {}
    return scanned.get


def folder_warnings(
    files: TurtleFiles, what: str = "data", empty: bool = True
) -> list[LayoutWarning]:
    """What the listing of a folder of ``what`` files shows that is almost surely a
    mistake: a file whose name ends in ``.ttl`` in another case (``LIT-168.TTL``), which
    is not read, for the data ``*.ttl`` files in its sub-folders, which are not read
    either (one warning, at the first, with their number), and (unless not ``empty``) a
    folder with no data file at all, where every rule holds with nothing checked. Only
    a listing with sub-folders makes it read more than the listing."""
    found = [
        LayoutWarning(
            files.folder / name,
            None,
            not_read(name, ".ttl", f"{what} files"),
        )
        for name in files.miscased
    ]
    if what == "data" and files.folders:
        count, first = nested_files(files.folder, files.folders, ".ttl")
        if first is not None:
            how_many = (
                f"{count} *.ttl files in them, this one first"
                if count > 1
                else "the only *.ttl file in them"
            )
            found.append(
                LayoutWarning(
                    first,
                    None,
                    f"not read: data files are read from {what}/ itself, not from its "
                    f"sub-folders ({how_many})",
                )
            )
    if what == "data" and empty and not files:
        found.append(LayoutWarning(files.folder, None, NO_ENTRIES))
    return found


#: What a data/ folder of no *.ttl file is warned of: every rule holds, nothing checked.
NO_ENTRIES = "no entries: the folder holds no *.ttl file (an empty anthology: nothing to check)"


def staged_warnings(
    warnings: Iterable[LayoutWarning], folder: Path, root: Path, relatives: Iterable[str]
) -> list[LayoutWarning]:
    """``warnings`` about ``folder``, a copy of the anthology at ``root`` as git's index
    holds it (``relatives``: its files; ``revisions.staged_folder``), each naming its file
    as the work tree does (``relocated_warning``). Where the index holds no data file but
    the work tree's data/ holds some (nothing added yet), the warning of an empty data/
    says that of the index, not that the folder holds no *.ttl file."""
    relatives = list(relatives)
    moved = []
    for warning in warnings:
        unstaged = len(TurtleFiles.of(root / "data")) if warning.message == NO_ENTRIES else 0
        if unstaged:
            files = "*.ttl files are" if unstaged > 1 else "*.ttl file is"
            warning = LayoutWarning(
                root / "data",
                None,
                "no entries staged: git's index holds no data/*.ttl file, so --staged checks "
                f"an empty anthology (the folder's {unstaged} {files} not in the index: "
                "git add stages a file)",
            )
        moved.append(relocated_warning(warning, folder, root, relatives))
    return moved


def relocated_warning(
    warning: LayoutWarning, folder: Path, root: Path, relatives: Iterable[str]
) -> LayoutWarning:
    """``warning`` about a file of ``folder``, a copy of the anthology at ``root`` holding
    ``relatives`` (``revisions.materialized``), naming the file, in its place and in its
    message, as ``root`` holds it."""
    message = warning.message
    for relative in relatives:
        message = message.replace(display_path(folder / relative), display_path(root / relative))
    try:
        moved = warning.path.resolve().relative_to(folder.resolve())
    except ValueError:
        return replace(warning, message=message)
    return replace(warning, path=root / moved, message=message)


def shapes_folder_warnings(root: Path) -> list[LayoutWarning]:
    """``folder_warnings`` of the shapes folder of the anthology at ``root``
    (``ontology/shapes``): a ``MINE.TTL`` there is no rule; and each Turtle file of
    ``ontology/`` itself, which is not read (the vocabulary is the bundled ontology's),
    but the bundled ontology or a copy of it."""
    from .resources import ontology_file

    ontology = TurtleFiles.of(root / "ontology")
    bundled = ontology_file()
    found = [
        LayoutWarning(
            path,
            None,
            "not read: the vocabulary is the bundled ontology; an anthology's own "
            "ontology/*.ttl is not read (its own rules are read from ontology/shapes/)",
        )
        for path in [*ontology, *(ontology.folder / name for name in ontology.miscased)]
        if not _same_file(path, bundled)
    ]
    return found + folder_warnings(TurtleFiles.of(root / "ontology" / "shapes"), "shapes")


def _same_file(path: Path, other: Path) -> bool:
    """Whether ``path`` is ``other`` or holds the same bytes (False where either cannot
    be read: the warning then names it)."""
    try:
        return path.resolve() == other.resolve() or path.read_bytes() == other.read_bytes()
    except OSError:
        return False


def anthology_layout_warnings(root: Path, base: str) -> list[LayoutWarning]:
    """The layout warnings of the data folder of the anthology at ``root`` and of its
    files (``folder_warnings`` first)."""
    files = TurtleFiles.of(root / "data")
    return folder_warnings(files) + layout_warnings(data_entries(list(files), base), base)
