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
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import NoReturn

from .choices import DEFAULT_BASE
from .errors import (
    AnthologyError,
    CanonicalizationTooCostly,
    nesting_followed,
    printable,
    printable_characters,
    workflow_command_marks,
)
from .files import write_all
from .layout import FileEntries, LayoutWarning, entries_of, folder_warnings, layout_warnings
from .sourcemap import refuse_rdf12_terms, scan, string_end
from .sources import TurtleFiles, decode_utf8, parse_quads, read_source
from .sparql_text import IRI
from .turtle import (
    canonical_line_groups,
    labels_refused_in_turtle,
    statement_lines,
    turtle_sections,
)


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
    that a change of the final newline alone shows. Lines end at LF only, as git's do:
    a CR, a form feed or U+2028 in a literal is part of its line."""
    lines = difflib.unified_diff(
        _lf_lines(before),
        _lf_lines(after),
        fromfile=fromfile,
        tofile=tofile,
    )
    return "".join(
        line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines
    )


def _lf_lines(text: str) -> list[str]:
    """``text``'s lines, each with its LF (``str.splitlines`` would end one at CR too)."""
    lines = [line + "\n" for line in text.split("\n")]
    lines[-1] = lines[-1][:-1]
    return lines if lines[-1] else lines[:-1]


def diff_labels(name: str) -> tuple[str, str]:
    """The ``---`` and ``+++`` labels of a diff of the file shown as ``name``, as git
    prints them: ``a/`` and ``b/`` before the path, the leading slash of an absolute
    path dropped (``git diff --no-index /tmp/x/F.ttl …`` prints ``a/tmp/x/F.ttl``), and
    quoted as ``git_quoted`` quotes it, and followed by a tab when the path holds a
    space (git's diff.c does so, for GNU patch, which ends a name at a space or a tab:
    without it ``patch -p1`` finds no file ``data/a``)."""
    path = name.lstrip("/")
    tab = "\t" if " " in path else ""
    return git_quoted(f"a/{path}") + tab, git_quoted(f"b/{path}") + tab


#: How git's quote_c_style writes a control character it names.
_GIT_NAMED_ESCAPES = {
    "\a": "\\a", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\v": "\\v", "\f": "\\f",
    "\r": "\\r", '"': '\\"', "\\": "\\\\",
}  # fmt: skip


def git_quoted(name: str) -> str:
    """``name`` as git writes a path in a diff's header when it holds a character that
    ``printable`` would escape, a ``"`` or a ``\\``: in double quotes, those characters
    escaped as C does (``\\n``, ``\\"``) or as the octal of their UTF-8 bytes
    (``\\033``; a byte a file name holds that is not UTF-8 as itself), and so the ``#``
    that starts a ``##[`` (``\\043#[``), so that a CI runner reads no workflow command
    in it. Other characters stay as they are (git's ``core.quotePath=false``); ``git
    apply`` reads the name back."""
    marks = workflow_command_marks(name)
    if not marks and '"' not in name and "\\" not in name and printable(name) == name:
        return name
    quoted = []
    for index, char in enumerate(name):
        if char in _GIT_NAMED_ESCAPES:
            quoted.append(_GIT_NAMED_ESCAPES[char])
        elif index in marks or printable_characters(char) != char:
            code = ord(char)
            if 0xDC80 <= code <= 0xDCFF:  # a byte that is not UTF-8 (os.fsdecode's escape)
                raw = bytes([code - 0xDC00])
            else:
                raw = char.encode("utf-8", "surrogatepass")
            quoted.append("".join(f"\\{byte:03o}" for byte in raw))
        else:
            quoted.append(char)
    return '"' + "".join(quoted) + '"'


def printable_diff(diff: str) -> str:
    """``diff`` (``unified_diff``'s, its labels ``diff_labels``') as it is printed for
    people: each line as ``printable`` shows it, a tab kept, so that a literal's control
    character or ``##[`` and a context line's leading ``::`` neither restyle a terminal
    nor start a workflow command in a CI log."""
    return "".join(printable(line, kept="\t") + "\n" for line in diff.split("\n")[:-1])


def _graph_lines(statements: list[str]) -> set[str]:
    """A graph's triples (its ``statement_lines``), blank nodes labelled by RDFC-1.0
    (``turtle.canonical_line_groups``), so that two parses of one graph give one set."""
    return set(canonical_line_groups([statements])[0])


#: A blank node's triples as (predicate, object, 0), a blank object as (predicate, "",
#: the number of its tree), sorted: what numbers the tree (``_forest``).
TreeKey = tuple[tuple[str, str, int], ...]
#: The triples of a graph that may hold a blank node (their lines hold "_:"), up to
#: blank node labels (``_forest``): one with no blank node as (its line, "", 0); one
#: whose object is a blank node as (subject, predicate, the number of the object's
#: tree); each with how many times the graph holds it.
Forest = Counter[tuple[str, str, int]]


def _forest(statements: list[str], trees: dict[TreeKey, int]) -> Forest | None:
    """The ``Forest`` of ``statements`` (``statement_lines``) where their blank nodes form a
    forest hanging from IRIs (each used exactly once as an object, none in a cycle: what
    Turtle writes nested, as lists and ``[ ]``), else None. Each blank node's tree is
    numbered by ``trees``: the same number for two trees alike (their predicates and
    objects, blank ones by their trees' numbers) in every graph numbered with the same
    ``trees``. Two graphs whose forests are numbered so are the same graph if and only
    if their forests are equal and so are their other lines: a tree's number says all
    of it, and a graph is what hangs from its IRIs. Linear in the triples, where
    RDFC-1.0 spends the cube of the number of alike blank nodes (a list of equal
    values, a chain of ``[ ]``)."""
    graph: Forest = Counter()
    below: dict[str, list[tuple[str, str]]] = {}  # a blank subject's predicates and objects
    hanging: list[tuple[str, str, str]] = []  # IRI subjects' triples with a blank object
    used: set[str] = set()  # the blank objects
    # (A triple the file states twice, once.)
    for line in dict.fromkeys([line for line in statements if "_:" in line]):
        s, p, o = line.split(" ", 2)
        if o[0] == "_":
            if o in used:  # used twice
                return None
            used.add(o)
        elif o[:2] == "<<" and "_:" in o:  # a triple term holding a blank node
            return None
        if s[0] == "_":
            below.setdefault(s, []).append((p, o))
        elif o[0] == "_":
            hanging.append((s, p, o))
        else:  # "_:" in an IRI or a literal
            graph[line, "", 0] += 1
    if not used.issuperset(below):  # a blank subject that no triple uses
        return None
    numbers: dict[str, int] = {}
    for _, _, top in hanging:  # each tree after its subtrees, by a stack (no depth limit)
        stack = [top]
        while stack:
            node = stack[-1]
            edges = below.get(node, ())
            waiting = [o for _, o in edges if o[0] == "_" and o not in numbers]
            if waiting:
                stack += waiting
                continue
            stack.pop()
            key = tuple(sorted((p, "", numbers[o]) if o[0] == "_" else (p, o, 0) for p, o in edges))
            numbers[node] = trees.setdefault(key, len(trees) + 1)
    if len(numbers) != len(used):  # a cycle, which no IRI reaches
        return None
    for s, p, o in hanging:
        graph[s, p, numbers[o]] += 1
    return graph


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
    statements: list[str],
    before: Forest | set[str],
    trees: dict[TreeKey, int],
    canonical: str,
    path: Path,
    base: str,
    lines: dict[str, int],
) -> None:
    """Raise AnthologyError naming the first triple that differs (and its subject's
    line) if ``canonical`` does not parse to the graph of ``statements``, whose
    ``before`` is their ``_forest`` (numbered by ``trees``), else the lines labelled by
    RDFC-1.0 (``_graph_lines``)."""
    parsed = statement_lines(parse_quads(canonical, path, base))
    if isinstance(before, set):
        after_lines = _graph_lines(parsed)
        if before != after_lines:
            differ = sorted(before - after_lines) or sorted(after_lines - before)
            _refuse(differ[0], path, lines)
        return
    after = _forest(parsed, trees)
    if after is None:
        raise AnthologyError(
            "formatting would link the blank nodes otherwise (one used twice, or in a "
            "cycle, where none is); file left as it is",
            path,
        )
    ground, ground_after = _lines_without_blanks(statements), _lines_without_blanks(parsed)
    if ground != ground_after:
        _refuse((sorted(ground - ground_after) or sorted(ground_after - ground))[0], path, lines)
    if before != after:
        # (a triple without blank nodes as its line; one with as its tree's number)
        line_or_subject, predicate, tree = (sorted(before - after) or sorted(after - before))[0]
        _refuse(f"{line_or_subject} {predicate} [ … ]" if tree else line_or_subject, path, lines)


def _lines_without_blanks(statements: list[str]) -> set[str]:
    """The lines of ``statements`` that hold no "_:" (so no blank node)."""
    return {line for line in statements if "_:" not in line}


def _refuse(triple: str, path: Path, lines: dict[str, int]) -> NoReturn:
    """Raise the AnthologyError of ``_check_same_graph`` for ``triple`` (N-Triples
    text), at its subject's line where ``lines`` has it."""
    subject = triple.split(" ", 1)[0]
    line = lines.get(subject[1:-1]) if subject.startswith("<") else None
    raise AnthologyError(
        f"formatting would change the triple {triple}; file left as it is", path, line
    )


def _labels_too_costly(
    error: CanonicalizationTooCostly, path: Path, lines: dict[str, int]
) -> CanonicalizationTooCostly:
    """``error`` (labelling the blank nodes of ``path`` by RDFC-1.0 would cost too much)
    as the Turtle writer words it (``turtle.labels_refused_in_turtle``), at the line of
    the subject its nodes hang from (fmt has no option to raise the limit)."""
    refusal = labels_refused_in_turtle(error)
    where = error.where
    refusal.path = path
    refusal.line = lines.get(where[0][1:-1]) if where and where[0][0] == "<" else None
    return refusal


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
    # A forest (every blank node used once) is compared by its trees, in linear time;
    # another graph by RDFC-1.0's labels, given once, which the writer then keeps.
    trees: dict[TreeKey, int] = {}
    before: Forest | set[str] | None = _forest(statements, trees)
    if before is None:
        try:
            statements = canonical_line_groups([statements])[0]
        except CanonicalizationTooCostly as error:
            raise _labels_too_costly(error, path, found.lines) from None
        before = set(statements)
    canonical = turtle_sections(
        [("", statements)],
        base=base,
        comments=found.comments,
        header=found.header,
        labelled=isinstance(before, set),
    )
    canonical = _tags_as_written(canonical, text)
    if found.footer:  # the comments after the last statement end the file, as they did
        canonical += f"\n{found.footer}\n" if canonical else f"{found.footer}\n"
    if canonical != text:  # the same text is the same graph: nothing to check
        try:
            _check_same_graph(statements, before, trees, canonical, path, base, found.lines)
        except CanonicalizationTooCostly as error:
            raise _labels_too_costly(error, path, found.lines) from None
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
