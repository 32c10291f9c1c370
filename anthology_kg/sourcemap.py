"""Where each subject of a Turtle file is first written: the line a report points at.

rdflib's parser keeps no positions, so this module scans the Turtle text itself. It
only has to find the first term of each top-level statement and the prefix and base
directives; the text has already been parsed by rdflib, so it is known to be valid.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import urljoin

from rdflib import URIRef

_DIRECTIVE = re.compile(
    r"(?:@prefix|PREFIX)\s+([A-Za-z][\w.-]*)?:\s*<([^>]*)>|(?:@base|BASE)\s+<([^>]*)>",
    re.IGNORECASE,
)
_LOCAL_ESCAPE = re.compile(r"\\(.)")
_TERM_END = set(" \t\r\n;,()[]<\"'#")


@dataclass
class SourceMap:
    """What the scan finds: each subject's first line, and the comments of the file."""

    lines: dict[URIRef, int] = field(default_factory=dict)
    #: Comment lines written just before a subject's statement, joined with newlines.
    comments: dict[URIRef, str] = field(default_factory=dict)
    #: Comment lines before the first directive or statement.
    header: str = ""


def scan(text: str, base: str = "") -> SourceMap:
    """Scan Turtle ``text`` for subject lines and comments (see SourceMap)."""
    prefixes: dict[str, str] = {}
    found = SourceMap()
    first = True
    for start, line, comments in _statement_starts(text):
        if first:
            found.header, comments, first = "\n".join(comments), [], False
        directive = _DIRECTIVE.match(text, start)
        if directive:
            prefix, iri, new_base = directive.groups()
            if new_base is not None:
                base = _resolve(base, new_base)
            else:
                prefixes[prefix or ""] = _resolve(base, iri)
            continue
        subject = _read_iri(text, start, prefixes, base)
        if subject is not None:
            found.lines.setdefault(subject, line)
            if comments:
                previous = found.comments.get(subject)
                block = "\n".join(comments)
                found.comments[subject] = f"{previous}\n{block}" if previous else block
    return found


def subject_lines(text: str, base: str = "") -> dict[URIRef, int]:
    """Map each IRI that starts a top-level statement to its first line (1-based)."""
    return scan(text, base).lines


def _resolve(base: str, iri: str) -> str:
    """``iri`` resolved against ``base``; urljoin alone would drop an empty fragment."""
    if re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:", iri):
        return iri
    joined = urljoin(base, iri)
    return joined + "#" if iri.endswith("#") and not joined.endswith("#") else joined


def _read_iri(text: str, start: int, prefixes: dict[str, str], base: str) -> URIRef | None:
    if text.startswith("<", start):
        end = text.index(">", start)
        return URIRef(_resolve(base, text[start + 1 : end]))
    if text.startswith(("[", "(", "_:"), start):
        return None
    end = start
    while end < len(text) and text[end] not in _TERM_END:
        end += 2 if text[end] == "\\" else 1
    token = text[start:end].rstrip(".")
    prefix, sep, local = token.partition(":")
    if not sep or prefix not in prefixes:
        return None
    return URIRef(prefixes[prefix] + _LOCAL_ESCAPE.sub(r"\1", local))


def string_end(text: str, start: int) -> int:
    """The offset just past the quoted string (short or long, ' or ") opening at
    ``start``; backslash escapes are skipped. Turtle and SPARQL quote alike."""
    quote = text[start : start + 3] if text[start : start + 3] in ('"""', "'''") else text[start]
    j = start + len(quote)
    while j < len(text) and not text.startswith(quote, j):
        j += 2 if text[j] == "\\" else 1
    return j + len(quote)


def _statement_starts(text: str):
    """Yield (offset, line, comments) for each top-level statement: its first character,
    its line, and the comment lines met since the previous statement ended."""
    i, n, line, depth = 0, len(text), 1, 0
    at_start = True
    comments: list[str] = []
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
            continue
        if c in " \t\r":
            i += 1
            continue
        if c == "#":
            end = text.find("\n", i)
            end = n if end == -1 else end
            if at_start and depth == 0:
                comments.append(text[i:end].rstrip())
            i = end
            continue
        if at_start and depth == 0:
            yield i, line, comments
            comments = []
            at_start = False
            if _DIRECTIVE.match(text, i) and not text.startswith("@", i):
                # SPARQL-style PREFIX/BASE has no closing dot.
                end = text.index(">", i) + 1
                line += text.count("\n", i, end)
                i, at_start = end, True
                continue
        if c in "\"'":
            end = string_end(text, i)
            line += text.count("\n", i, end)
            i = end
            continue
        if c == "<" and depth >= 0:
            j = text.find(">", i)
            if j != -1 and "\n" not in text[i:j] and " " not in text[i:j]:
                i = j + 1
                continue
        if c in "[(":
            depth += 1
        elif c in "])":
            depth -= 1
        elif c == "." and depth == 0 and (i + 1 >= n or text[i + 1] in " \t\r\n#"):
            at_start = True
        i += 1
