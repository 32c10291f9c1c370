"""An AnthologyDiff written for people and tools: text, Markdown, JSON and an N-Quads patch.

Every writer takes an AnthologyDiff and returns a string; the same diff gives the same
bytes. JSON is this object (``schema`` names its version)::

    {"schema": "anthology-kg/diff/1", "old": str, "new": str, "equal": bool,
     "counts": {"added", "removed", "renamed", "changed", "factsAdded", "factsRemoved"},
     "ruleFiles": [{"path": str, "status": "added" | "removed" | "changed"}],
     "entries": [{"identifier": str | null, "iri": str | null,
                  "status": "added" | "removed" | "renamed" | "changed",
                  "previousIdentifier": str | null, "label": str | null,
                  "file": str | null, "line": int | null,
                  "added": [{"subject", "predicate", "object", "file", "line"}],
                  "removed": [{"subject", "predicate", "object"}]}]}

``diff --query`` writes a QueryDiff in text, Markdown or JSON (``QUERY_WRITERS``).
An input error (exit 2) is written in either JSON as the object of no comparison, its
``old`` and ``new`` null, ``equal`` false, no entry or row, with ``error``: ``{"message":
str, "file": str | null, "line": int | null}``, as validate's JSON report carries one
(``json_error``, ``query_json_error``).

Facts are in words (an entry by identifier, other IRIs as prefixed names, blank nodes
inline as ``[ ... ]``); ``iri`` is the entry's full IRI. ``ruleFiles`` lists the state's own
shapes, queries and waivers files that differ: not part of the graph, so ``equal``
and the exit code do not depend on them. An entry of ``identifier`` null
gathers facts that no entry owns. The N-Quads patch holds the removed triples in the
graph ``REMOVED_GRAPH`` and the added ones in ``ADDED_GRAPH``: the old graph minus the
first plus the second is the new graph. Blank nodes are labelled from their content.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

import pyoxigraph as ox

from .diff import AnthologyDiff, Blank, EntryChange, FactChange, Term
from .errors import AnthologyError
from .layout import printable
from .querydiff import QueryDiff

JSON_SCHEMA_ID = "anthology-kg/diff/1"
REMOVED_GRAPH = "https://w3id.org/anthology-kg/graph/removed"
ADDED_GRAPH = "https://w3id.org/anthology-kg/graph/added"
_SIGN = {"added": "+", "removed": "-"}


def _fact_text(diff: AnthologyDiff, entry: EntryChange, change: FactChange) -> str:
    """``predicate object``, with the subject first when it is not the entry itself."""
    namer = diff.namer
    words = f"{namer.predicate(change.predicate)} {namer.term(change.object)}"
    if change.subject != entry.iri:
        words = f"{namer.term(change.subject)} {words}"
    return words


def _where(file: str | None, line: int | None) -> str:
    if file is None:
        return ""
    return f"{file}:{line}" if line else file


def status_text(entry: EntryChange) -> str:
    """``changed``, ``added``, ``removed`` or ``renamed (was OLD-ID)``."""
    return entry.status + (f" (was {entry.previous})" if entry.previous else "")


def _heading(entry: EntryChange) -> str:
    text = f"{entry.status} {entry.name}" + (f" (was {entry.previous})" if entry.previous else "")
    if entry.label:
        text += f' "{entry.label}"'
    return text


def summary_line(diff: AnthologyDiff) -> str:
    """One line: the two states and the count of each kind of change."""
    if diff.equal:
        return f"no change to the graph from {diff.old} to {diff.new}"
    return f"{diff.old} → {diff.new}: {_counts(diff)}"


def _counts(diff: AnthologyDiff) -> str:
    c = diff.counts()
    return (
        f"{c['changed']} changed, {c['added']} added, "
        f"{c['removed']} removed, {c['renamed']} renamed entries; "
        f"{c['factsAdded']} fact(s) added, {c['factsRemoved']} removed"
    )


def text_diff(diff: AnthologyDiff, summary: bool = True) -> str:
    """One heading line per entry, then ``+ fact  file:line`` and ``- fact`` lines; data
    text shown escaped, one line each, as the validation text report shows it
    (layout.printable: ``\\n``, ``\\x1b``); then the ``summary_line`` unless ``summary``
    is false (--quiet: nothing at all for equal graphs)."""
    lines = []
    for entry in diff.entries:
        where = _where(entry.file, entry.line)
        lines.append(_heading(entry) + (f"  ({where})" if where else ""))
        for change in entry.removed:
            lines.append(f"  - {_fact_text(diff, entry, change)}")
        for change in entry.added:
            where = _where(change.file, change.line)
            lines.append(f"  + {_fact_text(diff, entry, change)}" + (f"  {where}" if where else ""))
    lines += [f"{status} {path} (not in the graph)" for path, status in diff.rule_files]
    if summary:
        lines.append(summary_line(diff))
    return "".join(printable(line) + "\n" for line in lines)


def _rule_files_markdown(diff: AnthologyDiff) -> list[str]:
    if not diff.rule_files:
        return []
    listed = ", ".join(f"{_code(path)} ({status})" for path, status in diff.rule_files)
    return ["", f"Rules and queries of the anthology, not in the graph: {listed}."]


#: What data text never holds in Markdown output, as a character reference: HTML
#: (``<``, ``>``, ``&``), a table's cell separator, a code span's backtick, the backslash
#: that would escape the next character, emphasis and strikethrough (``*``, ``_``, ``~``),
#: and the ``(`` that would make ``[text](url)`` a link or ``![text](url)`` an image.
#: And, as an invisible word joiner (U+2060), a break in what GitHub would link: a bare
#: ``http://``, ``www.`` or ``x@y.z`` (GFM's autolink extension), an ``@mention`` or an
#: ``#123`` reference. A character reference alone would not do for the last three:
#: GitHub finds them in the rendered HTML's text, where references are decoded.
_MARKDOWN = re.compile(
    r"[<>&|`\\*_~]|(?<=\])\(|(?=://)|(?i:(?<=www)(?=\.))|(?<=@)(?=\w)|(?<=#)(?=\d)"
)
_WORD_JOINER = "&#8288;"


def _md(text: str) -> str:
    """``text`` as Markdown shows it literally, in a table cell, a list item, or the HTML of
    a ``<summary>``: control characters and line breaks escaped as the text report shows
    them (layout.printable), then each character of ``_MARKDOWN`` as ``&#N;`` and a word
    joiner in each place it names: data can neither break the table nor the comment, nor
    inject markup, links, images or mentions."""
    return _MARKDOWN.sub(_reference, printable(text))


def _reference(match: re.Match[str]) -> str:
    char = match.group()
    if not char:
        return _WORD_JOINER
    return _NAMED.get(char) or f"&#{ord(char)};"


_NAMED = {"<": "&lt;", ">": "&gt;", "&": "&amp;"}  # (as html.escape writes them)


def _code(text: str) -> str:
    """``text`` as a Markdown code span, which shows its content literally: control
    characters escaped (layout.printable), fenced by more backticks than it holds in a
    row, so that none of them ends the span."""
    text = printable(text)
    fence = "`" * (max(map(len, re.findall("`+", text)), default=0) + 1)
    pad = " " if text[:1] in ("`", " ") or text[-1:] in ("`", " ") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def markdown_diff(diff: AnthologyDiff) -> str:
    """A summary table and a collapsible ``<details>`` section per entry (GitHub Markdown:
    a pull-request comment or ``$GITHUB_STEP_SUMMARY``); data text as ``_md`` and ``_code``
    write it, so that it shows as it is and changes nothing of the comment around it."""
    title = f"### Anthology graph: {_code(diff.old)} → {_code(diff.new)}"
    if diff.equal:
        return "\n".join([title, "", "No change to the graph.", *_rule_files_markdown(diff)]) + "\n"
    out = [title, "", _counts(diff).capitalize(), ""]
    out += ["| entry | change | facts added | facts removed | where |", "|---|---|---|---|---|"]
    for entry in diff.entries:
        out.append(
            f"| {_md(entry.name)} | {_md(status_text(entry))} | {len(entry.added)} "
            f"| {len(entry.removed)} | {_md(_where(entry.file, entry.line))} |"
        )
    for entry in diff.entries:
        label = f" — {_md(entry.label)}" if entry.label else ""
        tally = f"+{len(entry.added)} −{len(entry.removed)}"
        summary = f"<b>{_md(entry.name)}</b> {_md(status_text(entry))} ({tally}){label}"
        out += ["", "<details>", f"<summary>{summary}</summary>", ""]
        if entry.status == "renamed":
            out += ["Same content under a new identifier.", ""]
        for fact in entry.removed:
            out.append(f"- ➖ {_md(_fact_text(diff, entry, fact))}")
        for fact in entry.added:
            where = _where(fact.file, fact.line)
            shown = f" — {_code(where)}" if where else ""
            out.append(f"- ➕ {_md(_fact_text(diff, entry, fact))}{shown}")
        out += ["", "</details>"]
    out += _rule_files_markdown(diff)
    return "\n".join(out) + "\n"


def _fact_json(diff: AnthologyDiff, change: FactChange, located: bool) -> dict:
    namer = diff.namer
    item: dict = {
        "subject": namer.term(change.subject),
        "predicate": namer.predicate(change.predicate),
        "object": namer.term(change.object),
    }
    if located:
        item["file"] = _name(change.file)
        item["line"] = change.line
    return item


def _name(name: str | None) -> str | None:
    """A file's or revision's name as the text diff shows it (``printable``): a name that
    is not UTF-8 holds lone surrogates, which JSON in UTF-8 cannot carry."""
    return printable(name) if name else name


def json_diff(diff: AnthologyDiff) -> str:
    """The documented JSON object (see the module docstring)."""
    entries = [
        {
            "identifier": e.identifier,
            "iri": e.iri.value if isinstance(e.iri, ox.NamedNode) else None,
            "status": e.status,
            "previousIdentifier": e.previous,
            "label": e.label,
            "file": _name(e.file),
            "line": e.line,
            "added": [_fact_json(diff, c, True) for c in e.added],
            "removed": [_fact_json(diff, c, False) for c in e.removed],
        }
        for e in diff.entries
    ]
    document = {
        "schema": JSON_SCHEMA_ID,
        "old": _name(diff.old),
        "new": _name(diff.new),
        "equal": diff.equal,
        "counts": diff.counts(),
        "ruleFiles": [{"path": _name(path), "status": status} for path, status in diff.rule_files],
        "entries": entries,
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


#: What diff's JSON counts where nothing was compared (``json_error``).
_NO_COUNTS = dict.fromkeys(
    ("added", "removed", "renamed", "changed", "factsAdded", "factsRemoved"), 0
)


def _error_document(document: dict, error: AnthologyError) -> str:
    from .reports import error_object  # (only for an error: the report writers' imports)

    return (
        json.dumps(document | {"error": error_object(error)}, indent=2, ensure_ascii=False) + "\n"
    )


def json_error(error: AnthologyError) -> str:
    """``error`` as diff's JSON: nothing compared, and ``error`` (the
    module docstring). A consumer reads why where it reads the diff, and a file written
    with -o is not left holding an earlier run's."""
    document: dict[str, object] = {
        "schema": JSON_SCHEMA_ID,
        "old": None,
        "new": None,
        "equal": False,
        "counts": dict(_NO_COUNTS),
        "ruleFiles": [],
        "entries": [],
    }
    return _error_document(document, error)


def _ox(term: Term):
    return ox.BlankNode(term.label) if isinstance(term, Blank) else term


def nquads_patch(diff: AnthologyDiff) -> str:
    """Every removed triple in ``REMOVED_GRAPH``, every added one in ``ADDED_GRAPH``,
    sorted, blank nodes labelled from their content."""
    quads = []
    for facts, graph in ((diff.removed, REMOVED_GRAPH), (diff.added, ADDED_GRAPH)):
        name = ox.NamedNode(graph)
        quads += [ox.Quad(_ox(s), _ox(p), _ox(o), name) for s, p, o in facts]
    text = (ox.serialize(quads, format=ox.RdfFormat.N_QUADS) or b"").decode("utf-8")
    # Each statement ends in "\n", which a literal never holds raw; it may hold U+2028,
    # U+0085 or a form feed, where str.splitlines would cut it.
    return "".join(sorted(line + "\n" for line in text.split("\n") if line))


WRITERS: dict[str, Callable[[AnthologyDiff], str]] = {
    "text": text_diff,
    "markdown": markdown_diff,
    "json": json_diff,
    "nquads": nquads_patch,
}


# -- a stored query's answer in two states -------------------------------------------------

QUERY_JSON_SCHEMA_ID = "anthology-kg/query-diff/1"


def _query_summary(diff: QueryDiff) -> str:
    return f"query {diff.name}, {diff.old} → {diff.new}: {_query_counts(diff)}"


def _query_counts(diff: QueryDiff) -> str:
    return f"{len(diff.appeared)} row(s) appeared, {len(diff.disappeared)} disappeared"


def query_text_diff(diff: QueryDiff, summary: bool = True) -> str:
    """Aligned columns, a ``+`` or ``-`` before each row, then a summary line unless
    ``summary`` is false (--quiet: nothing at all for equal answers)."""
    body = [("+", row) for row in diff.appeared] + [("-", row) for row in diff.disappeared]
    lines = []
    if body:
        widths = [
            max([len(v)] + [len(row[i]) for _, row in body]) for i, v in enumerate(diff.variables)
        ]
        cells = ["  ".join(v.ljust(w) for v, w in zip(diff.variables, widths, strict=True))]
        lines.append(("  " + cells[0]).rstrip())
        for sign, row in body:
            text = "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True))
            lines.append(f"{sign} {text}".rstrip())
    if summary:
        lines.append(printable(_query_summary(diff)))  # (the rows are escaped: querydiff.answer)
    return "".join(line + "\n" for line in lines)


def query_markdown_diff(diff: QueryDiff) -> str:
    """A table of the rows that appeared (➕) and disappeared (➖)."""
    title = f"### Query {_code(diff.name)}: {_code(diff.old)} → {_code(diff.new)}"
    if diff.equal:
        return f"{title}\n\nNo change to the answer.\n"
    out = [title, "", _query_counts(diff).capitalize(), ""]
    out.append("| | " + " | ".join(_md(v) for v in diff.variables) + " |")
    out.append("|---|" + "---|" * len(diff.variables))
    for sign, rows in (("➕", diff.appeared), ("➖", diff.disappeared)):
        out += [f"| {sign} | " + " | ".join(_md(c) for c in row) + " |" for row in rows]
    return "\n".join(out) + "\n"


def query_json_diff(diff: QueryDiff) -> str:
    """``{"schema", "query", "old", "new", "equal", "variables", "appeared",
    "disappeared"}``, each row an object of column name to text."""
    document = {
        "schema": QUERY_JSON_SCHEMA_ID,
        "query": diff.name,
        "old": _name(diff.old),
        "new": _name(diff.new),
        "equal": diff.equal,
        "variables": diff.variables,
        "appeared": [dict(zip(diff.variables, row, strict=True)) for row in diff.appeared],
        "disappeared": [dict(zip(diff.variables, row, strict=True)) for row in diff.disappeared],
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def query_json_error(name: str, error: AnthologyError) -> str:
    """``error`` as ``diff --query NAME``'s JSON: no answer compared,
    and ``error`` (the module docstring)."""
    document: dict[str, object] = {
        "schema": QUERY_JSON_SCHEMA_ID,
        "query": name,
        "old": None,
        "new": None,
        "equal": False,
        "variables": [],
        "appeared": [],
        "disappeared": [],
    }
    return _error_document(document, error)


QUERY_WRITERS: dict[str, Callable[[QueryDiff], str]] = {
    "text": query_text_diff,
    "markdown": query_markdown_diff,
    "json": query_json_diff,
}
