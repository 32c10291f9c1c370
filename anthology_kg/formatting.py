"""``fmt``: data files rewritten in the canonical Turtle style, never changing their meaning.

Files are read with the strict parser (``sources``), each literal keeping its lexical form
exactly (``007`` stays ``007``: the author's text, not a store's canonical form); a UTF-8
byte order mark at the start of a file stays there, as black keeps it. Every
file is formatted before any is written; just before a file is replaced, its bytes are
read again, and a file edited since it was formatted is left alone and reported. The
files are replaced all or none: a failure or a stop signal midway puts back those
replaced.
"""

from __future__ import annotations

import codecs
import difflib
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from .choices import DEFAULT_BASE
from .errors import AnthologyError, nesting_followed
from .files import write_all
from .layout import FileEntries, LayoutWarning, entries_of, folder_warnings, layout_warnings
from .sourcemap import refuse_rdf12_terms, scan, string_end
from .sources import TurtleFiles, decode_utf8, parse_quads, read_source
from .sparql_text import IRI
from .turtle import canonical_line_groups, statement_lines, turtle_sections


@dataclass(frozen=True)
class Formatted:
    """A data file: its text and its canonical text (both without the byte order mark),
    the file's bytes that were formatted, the mark it starts with (``b""`` or UTF-8's) and
    what it says about entries (for ``layout.layout_warnings``)."""

    path: Path
    original: str
    canonical: str
    source: bytes = b""
    entries: FileEntries | None = None
    mark: bytes = b""

    @property
    def changed(self) -> bool:
        return self.original != self.canonical


@dataclass
class FormatRun:
    """What ``format_anthology`` did: every file formatted, and those left alone because
    they changed on disk while the run was formatting them."""

    files: list[Formatted] = field(default_factory=list)
    changed_meanwhile: list[Path] = field(default_factory=list)
    #: The data folder's listing the files came from (for ``layout.folder_warnings``).
    listing: TurtleFiles | None = None

    def layout_warnings(self, base: str = DEFAULT_BASE) -> list[LayoutWarning]:
        """The files that break the layout rule (see ``layout``), after what the folder's
        listing shows (``layout.folder_warnings``)."""
        found = folder_warnings(self.listing) if self.listing is not None else []
        return found + layout_warnings((f.entries for f in self.files if f.entries), base)


def unified_diff(before: str, after: str, fromfile: str, tofile: str) -> str:
    """A unified diff from ``before`` to ``after`` (difflib's), a line without a final
    newline followed by ``\\ No newline at end of file`` as diff and git print it, so
    that a change of the final newline alone shows."""
    lines = difflib.unified_diff(
        before.splitlines(keepends=True),
        after.splitlines(keepends=True),
        fromfile=fromfile,
        tofile=tofile,
    )
    return "".join(
        line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines
    )


def diff_labels(name: str) -> tuple[str, str]:
    """The ``---`` and ``+++`` labels of a diff of the file shown as ``name``, as git
    prints them: ``a/`` and ``b/`` before the path, the leading slash of an absolute
    path dropped (``git diff --no-index /tmp/x/F.ttl …`` prints ``a/tmp/x/F.ttl``)."""
    path = name.lstrip("/")
    return f"a/{path}", f"b/{path}"


def _graph_lines(statements: list[str]) -> set[str]:
    """A graph's triples (its ``statement_lines``), blank nodes labelled by RDFC-1.0
    (``turtle.canonical_line_groups``), so that two parses of one graph give one set."""
    return set(canonical_line_groups([statements])[0])


_TAG = re.compile(r"@([a-zA-Z]+(?:-[a-zA-Z0-9]+)*)")
#: Where a comment, a string or an IRI (as ``sparql_text`` reads one) may start.
_CODE_STOP = re.compile(r"[#\"'<]")
#: A language tag with an upper-case letter may be written (or an e-mail address).
_UPPER_TAG = re.compile(r"@[a-zA-Z0-9-]*[A-Z]")


def _language_tags(text: str) -> Iterator[re.Match[str]]:
    """The language tags of the literals of the Turtle ``text`` (each ``@tag`` right
    after a string; the tag is group 1), comments, strings and IRIs stepped over as
    SPARQL's scanner (``sparql_text.code_characters``) steps over them."""
    i, n = 0, len(text)
    while (stop := _CODE_STOP.search(text, i)) is not None:
        j = stop.start()
        if text[j] == "#":
            end = text.find("\n", j)
            i = n if end == -1 else end
        elif text[j] == "<":
            iri = IRI.match(text, j)
            i = iri.end() if iri else j + 1
        else:
            i = string_end(text, j)
            tag = _TAG.match(text, i)
            if tag:
                yield tag


def _tags_as_written(canonical: str, original: str) -> str:
    """``canonical`` with each language tag spelt as ``original`` spells it.

    pyoxigraph, which parses the files, lower-cases language tags (``@en-US`` is read as
    ``en-us``; RDF 1.1 allows it), so the canonical text has them in lower case. A tag
    the file writes with one spelling gets it back; one it writes in two (``en-US`` and
    ``en-us``) stays in lower case, as no term says which literal had which.
    """
    if not _UPPER_TAG.search(original):
        return canonical
    spellings: dict[str, set[str]] = {}
    for tag in _language_tags(original):
        spellings.setdefault(tag[1].lower(), set()).add(tag[1])
    written = {lower: next(iter(s)) for lower, s in spellings.items() if len(s) == 1}
    parts, last = [], 0
    for tag in _language_tags(canonical):
        spelling = written.get(tag[1])
        if spelling is not None and spelling != tag[1]:
            parts += [canonical[last : tag.start(1)], spelling]
            last = tag.end(1)
    return "".join(parts) + canonical[last:] if parts else canonical


def _check_same_graph(
    statements: list[str], canonical: str, path: Path, base: str, lines: dict[str, int]
) -> None:
    """Raise AnthologyError naming the first triple (and its subject's line) if
    ``canonical`` does not parse to the graph whose ``statement_lines`` are
    ``statements``."""
    before = _graph_lines(statements)
    after = _graph_lines(statement_lines(parse_quads(canonical, path, base)))
    if before != after:
        lost = sorted(before - after) or sorted(after - before)
        subject = lost[0].split(" ", 1)[0]
        line = lines.get(subject[1:-1]) if subject.startswith("<") else None
        raise AnthologyError(
            f"formatting would change the triple {lost[0].removesuffix(' .')}; file left as it is",
            path,
            line,
        )


def format_file(path: Path, base: str = DEFAULT_BASE) -> Formatted:
    """The canonical text of one Turtle file, keeping the comments written before each
    statement and after the last. Raises AnthologyError naming the first triple (and its
    subject's line) if the result would not be the same graph, and at the line of a
    comment it would drop (one inside a statement, or one going with a blank node's; see
    ``sourcemap.SourceMap`` for which statement a comment goes with)."""
    with nesting_followed(path):  # (blank nodes nested hundreds deep: at this file)
        return _formatted(path, base)


def _formatted(path: Path, base: str) -> Formatted:
    """``format_file``'s work."""
    source = read_source(path, keep_mark=True)
    mark = codecs.BOM_UTF8 if source.startswith(codecs.BOM_UTF8) else b""
    data = source[len(mark) :]
    text = decode_utf8(data, path)
    quads = parse_quads(data, path, base)
    found = scan(text, base)
    refuse_rdf12_terms(data, path, base, quads)
    statements = statement_lines(quads)
    canonical = turtle_sections(
        [("", statements)], base=base, comments=found.comments, header=found.header
    )
    canonical = _tags_as_written(canonical, text)
    if found.footer:  # the comments after the last statement end the file, as they did
        canonical += f"\n{found.footer}\n" if canonical else f"{found.footer}\n"
    if canonical != text:  # the same text is the same graph: nothing to check
        _check_same_graph(statements, canonical, path, base, found.lines)
        if found.unkeyed:  # the canonical text keeps comments before IRI subjects only
            raise AnthologyError(
                "formatting would drop this comment, which goes with a statement whose "
                "subject is a blank node: give the node an IRI, or move the comment; file "
                "left as it is",
                path,
                found.unkeyed[0],
            )
        if found.inner:  # its statement is written anew: where would the comment go?
            raise AnthologyError(
                "formatting would drop this comment, written inside a statement: move it "
                "above the statement; file left as it is",
                path,
                found.inner[0],
            )
    return Formatted(path, text, canonical, source, entries_of(path, quads, found.lines), mark)


def write_formatted(files: list[Formatted]) -> list[Path]:
    """Replace each changed file by its canonical text (after the byte order mark it
    starts with, if any), unless its bytes are no longer those that were formatted (an
    edit saved meanwhile is never lost); return those. The files are replaced all or
    none (``files.write_all``): a failure or a stop signal midway puts back those
    replaced, and the AnthologyError says no file was rewritten."""
    changed = [item for item in files if item.changed]
    meanwhile: list[Path] = []

    def unchanged(index: int) -> bool:
        item = changed[index]
        try:
            still = read_source(item.path, keep_mark=True) == item.source
        except AnthologyError:  # deleted or replaced by something unreadable meanwhile
            still = False
        if not still:
            meanwhile.append(item.path)
        return still

    if not changed:
        return meanwhile
    texts = [("\ufeff" if item.mark else "") + item.canonical for item in changed]
    try:
        write_all(
            [item.path for item in changed],
            texts,
            changed[0].path.parent,
            replace=True,
            keep=unchanged,
        )
    except AnthologyError as error:
        if "nothing written" in error.message:
            raise
        raise AnthologyError(
            f"{error.message}; no file rewritten", error.path, error.line
        ) from None
    return meanwhile


def format_anthology(root: Path, base: str = DEFAULT_BASE, write: bool = True) -> FormatRun:
    """Format every ``data/*.ttl`` of ``root``; with ``write``, rewrite those that change.

    All files are formatted before any is written, so a broken file stops the run with
    nothing rewritten; they are then written all or none (``write_formatted``).
    """
    listing = TurtleFiles.of(root / "data")
    files = [format_file(p, base) for p in listing]
    run = FormatRun(files=files, listing=listing)
    if write:
        run.changed_meanwhile = write_formatted(files)
    return run
