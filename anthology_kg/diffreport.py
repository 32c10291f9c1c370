"""An AnthologyDiff written for people and tools: text, Markdown, JSON and an N-Quads patch.

Every writer takes an AnthologyDiff and returns a string; the same diff gives the same
bytes. JSON is this object (``schema`` names its version)::

    {"schema": "anthology-kg/diff/1", "old": str, "new": str, "equal": bool,
     "counts": {"added", "removed", "renamed", "changed", "factsAdded", "factsRemoved"},
     "entries": [{"identifier": str | null, "iri": str | null,
                  "status": "added" | "removed" | "renamed" | "changed",
                  "previousIdentifier": str | null, "label": str | null,
                  "file": str | null, "line": int | null,
                  "added": [{"subject", "predicate", "object", "file", "line"}],
                  "removed": [{"subject", "predicate", "object"}]}]}

Facts are in words (an entry by identifier, other IRIs as prefixed names, blank nodes
inline as ``[ ... ]``); ``iri`` is the entry's full IRI. An entry of ``identifier`` null
gathers facts that no entry owns. The N-Quads patch holds the removed triples in the
graph ``REMOVED_GRAPH`` and the added ones in ``ADDED_GRAPH``: the old graph minus the
first plus the second is the new graph. Blank nodes are labelled from their content.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable

import pyoxigraph as ox

from .diff import AnthologyDiff, Blank, EntryChange, FactChange, Term

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
    c = diff.counts()
    return (
        f"{diff.old} → {diff.new}: {c['changed']} changed, {c['added']} added, "
        f"{c['removed']} removed, {c['renamed']} renamed entries; "
        f"{c['factsAdded']} fact(s) added, {c['factsRemoved']} removed"
    )


def text_diff(diff: AnthologyDiff) -> str:
    """One heading line per entry, then ``+ fact  file:line`` and ``- fact`` lines."""
    lines = []
    for entry in diff.entries:
        where = _where(entry.file, entry.line)
        lines.append(_heading(entry) + (f"  ({where})" if where else ""))
        for change in entry.removed:
            lines.append(f"  - {_fact_text(diff, entry, change)}")
        for change in entry.added:
            where = _where(change.file, change.line)
            lines.append(f"  + {_fact_text(diff, entry, change)}" + (f"  {where}" if where else ""))
    lines.append(summary_line(diff))
    return "\n".join(lines) + "\n"


def _md(text: str) -> str:
    """Text safe in a Markdown table cell or an HTML block: no markup, no pipes."""
    return html.escape(text, quote=False).replace("|", "&#124;").replace("\n", " ")


def markdown_diff(diff: AnthologyDiff) -> str:
    """A summary table and a collapsible ``<details>`` section per entry (GitHub Markdown:
    a pull-request comment or ``$GITHUB_STEP_SUMMARY``)."""
    title = f"### Anthology graph: `{_md(diff.old)}` → `{_md(diff.new)}`"
    if diff.equal:
        return f"{title}\n\nNo change to the graph.\n"
    out = [title, "", summary_line(diff).split(": ", 1)[1].capitalize(), ""]
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
        if not entry.added and not entry.removed:
            out.append("Same content under a new identifier.")
        for fact in entry.removed:
            out.append(f"- ➖ {_md(_fact_text(diff, entry, fact))}")
        for fact in entry.added:
            where = _where(fact.file, fact.line)
            shown = f" — `{_md(where)}`" if where else ""
            out.append(f"- ➕ {_md(_fact_text(diff, entry, fact))}{shown}")
        out += ["", "</details>"]
    return "\n".join(out) + "\n"


def _fact_json(diff: AnthologyDiff, change: FactChange, located: bool) -> dict:
    namer = diff.namer
    item: dict = {
        "subject": namer.term(change.subject),
        "predicate": namer.predicate(change.predicate),
        "object": namer.term(change.object),
    }
    if located:
        item["file"] = change.file
        item["line"] = change.line
    return item


def json_diff(diff: AnthologyDiff) -> str:
    """The documented JSON object (see the module docstring)."""
    entries = [
        {
            "identifier": e.identifier,
            "iri": e.iri.value if isinstance(e.iri, ox.NamedNode) else None,
            "status": e.status,
            "previousIdentifier": e.previous,
            "label": e.label,
            "file": e.file,
            "line": e.line,
            "added": [_fact_json(diff, c, True) for c in e.added],
            "removed": [_fact_json(diff, c, False) for c in e.removed],
        }
        for e in diff.entries
    ]
    document = {
        "schema": JSON_SCHEMA_ID,
        "old": diff.old,
        "new": diff.new,
        "equal": diff.equal,
        "counts": diff.counts(),
        "entries": entries,
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


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
    return "".join(sorted(line + "\n" for line in text.splitlines()))


WRITERS: dict[str, Callable[[AnthologyDiff], str]] = {
    "text": text_diff,
    "markdown": markdown_diff,
    "json": json_diff,
    "nquads": nquads_patch,
}
