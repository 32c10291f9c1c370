"""Where each subject of a Turtle file is first written: the line a report points at.

The Turtle parser keeps no positions, so this module scans the Turtle text itself. It
only has to find the first term of each top-level statement and the prefix and base
directives; the text has already been parsed (pyoxigraph), so it is known to be valid.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast
from urllib.parse import urljoin

import pyoxigraph as ox

from .errors import AnthologyError
from .kinds import is_blank, is_literal, text
from .sources import decode_utf8, parse_quads, read_text

# rdflib's IRIs only for callers that ask for them (the positions of triples): ``scan``
# and ``subject_iris`` give plain strings.
if TYPE_CHECKING:
    from rdflib import URIRef

_DIRECTIVE = re.compile(
    r"(?:@prefix|PREFIX)\s+([A-Za-z][\w.-]*)?:\s*<([^>]*)>|(?:@base|BASE)\s+<([^>]*)>",
    re.IGNORECASE,
)
_LOCAL_ESCAPE = re.compile(r"\\(.)")
_ABSOLUTE = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")
#: A name up to the first character that ends a term, a backslash escaping the next.
_NAME = re.compile(r"[^ \t\r\n;,()\[\]<\"'#\\]*(?:\\.?[^ \t\r\n;,()\[\]<\"'#\\]*)*", re.DOTALL)

#: A term of the graph, of either library.
_Node = TypeVar("_Node")

#: A comment line: its line number and its text.
_Comment = tuple[int, str]


@dataclass
class SourceMap:
    """What the scan finds: each subject's first line, and the comments of the file,
    each subject by its IRI's text.

    A comment goes with the statement written after it, or with the one whose closing
    dot (or directive) it follows on that line. Those of a directive join
    the header while no other statement has come (the prefix block); after one, they go
    with the next statement, as the canonical text writes every directive at the top."""

    lines: dict[str, int] = field(default_factory=dict)
    #: Comment lines written just before a subject's statement, joined with newlines.
    comments: dict[str, str] = field(default_factory=dict)
    #: Comment lines before the first statement and among the directives leading the file.
    header: str = ""
    #: The line of the first comment going with each statement whose subject is no IRI
    #: (a blank node): no subject keys them.
    unkeyed: list[int] = field(default_factory=list)
    #: The line of each comment written inside a statement (after its first term).
    inner: list[int] = field(default_factory=list)
    #: Comment lines after the last statement, and before directives that no other
    #: statement follows, joined with newlines.
    footer: str = ""


def scan(text: str, base: str = "") -> SourceMap:
    """Scan Turtle ``text`` for subject lines and comments (see SourceMap)."""
    return SourceMap(*_scan(text, base))


def subject_iris(text: str, base: str = "") -> dict[str, int]:
    """Each IRI that starts a top-level statement of Turtle ``text``, and its first line
    (1-based)."""
    return _scan(text, base)[0]


def _scan(
    text: str, base: str
) -> tuple[dict[str, int], dict[str, str], str, list[int], list[int], str]:
    """The fields of ``SourceMap``, each subject as a plain IRI."""
    prefixes: dict[str, str] = {}
    lines: dict[str, int] = {}
    found_comments: dict[str, str] = {}
    unkeyed: list[int] = []
    inner: list[int] = []
    trailing: list[_Comment] = []
    header: list[_Comment] = []
    pending: list[_Comment] = []  # those of directives after the prefix block
    first, in_prefix_block = True, True
    for start, line, before, after in _statement_starts(text, inner, trailing):
        if first:
            header, before, first = before, [], False
        directive = _DIRECTIVE.match(text, start)
        if directive:
            prefix, iri, new_base = directive.groups()
            if new_base is not None:
                base = _resolve(base, new_base)
            else:
                prefixes[prefix or ""] = _resolve(base, iri)
            if before or after:
                (header if in_prefix_block else pending).extend(before + after)
            continue
        in_prefix_block = False
        comments = before + after if after else before
        if pending:
            comments, pending = pending + comments, []
        subject = _read_iri(text, start, prefixes, base)
        if subject is None:
            if comments:
                unkeyed.append(comments[0][0])
            continue
        lines.setdefault(subject, line)
        if comments:
            previous = found_comments.get(subject)
            block = _joined(comments)
            found_comments[subject] = f"{previous}\n{block}" if previous else block
    return lines, found_comments, _joined(header), unkeyed, inner, _joined(pending + trailing)


def _joined(comments: list[_Comment]) -> str:
    return "\n".join(comment for _, comment in comments)


def _resolve(base: str, iri: str) -> str:
    """``iri`` resolved against ``base``; urljoin alone would drop an empty fragment."""
    if _ABSOLUTE.match(iri):
        return iri
    joined = urljoin(base, iri)
    return joined + "#" if iri.endswith("#") and not joined.endswith("#") else joined


def _unescape_local(local: str) -> str:
    """A prefixed name's local part without its backslash escapes (``ex:a\\-b``)."""
    # re.sub with a template costs more than the test, and few names escape anything.
    return _LOCAL_ESCAPE.sub(r"\1", local) if "\\" in local else local


def _read_iri(text: str, start: int, prefixes: dict[str, str], base: str) -> str | None:
    if text.startswith("<", start):
        end = text.index(">", start)
        return _resolve(base, text[start + 1 : end])
    if text.startswith(("[", "(", "_:"), start):
        return None
    end = _NAME.match(text, start).end()  # type: ignore[union-attr]  # matches ""
    token = text[start:end].rstrip(".")
    prefix, sep, local = token.partition(":")
    if not sep or prefix not in prefixes:
        return None
    return prefixes[prefix] + _unescape_local(local)


#: The rest of a quoted string after its opening quote, up to its closing one (escapes
#: stepped over): one regular expression per kind of quote, as ``string_end`` steps.
_STRING_REST = {
    quote: re.compile(
        f"[^{q}\\\\]*(?:\\\\.[^{q}\\\\]*)*{q}"
        if len(quote) == 1
        else f"[^{q}\\\\]*(?:(?:\\\\.|{q}(?!{q}{q}))[^{q}\\\\]*)*{q}{q}{q}",
        re.DOTALL,
    )
    for quote, q in (('"', '"'), ("'", "'"), ('"""', '"'), ("'''", "'"))
}


def string_end(text: str, start: int) -> int:
    """The offset just past the quoted string (short or long, ' or ") opening at
    ``start``; backslash escapes are skipped. Turtle and SPARQL quote alike."""
    quote = text[start : start + 3] if text[start : start + 3] in ('"""', "'''") else text[start]
    j = start + len(quote)
    closed = _STRING_REST[quote].match(text, j)
    if closed:
        return closed.end()
    # Not closed: past the end, as a step over each character (or escape) would go.
    while j < len(text):
        j += 2 if text[j] == "\\" else 1
    return j + len(quote)


_BLANKS = re.compile(r"[ \t\r\n]*")
#: What a statement's own scan stops at: a comment, a string, an IRI (whole if it has
#: no space nor line break), a bracket, a dot before a blank, a comment or the end.
_STOPS = re.compile(r"[#\"'\[\]()]|<(?:[^>\n ]*>)?|\.(?![^ \t\r\n#])")


def _statement_starts(
    text: str, inner: list[int] | None = None, trailing: list[_Comment] | None = None
) -> Iterator[tuple[int, int, list[_Comment], list[_Comment]]]:
    """Yield (offset, line, before, after) for each top-level statement once it is read:
    its first character, its line, the comment lines met since the previous statement
    ended, and the comment written after its end on the same line (none or one). The
    lines of the comments inside statements go to ``inner``, the comment lines after
    the last statement to ``trailing``."""
    i, n, line, depth = 0, len(text), 1, 0
    comments: list[_Comment] = []
    while True:
        # Between statements: blanks, and comments, which are kept.
        while True:
            j = _BLANKS.match(text, i).end()  # type: ignore[union-attr]  # matches ""
            line += text.count("\n", i, j)
            i = j
            if i < n and text[i] == "#":
                i = _comment(text, i, line, comments)
            else:
                break
        if i >= n:
            if trailing is not None:
                trailing += comments
            return
        start, start_line, before, comments = i, line, comments, []
        if _DIRECTIVE.match(text, i) and not text.startswith("@", i):
            # SPARQL-style PREFIX/BASE has no closing dot.
            end = text.index(">", i) + 1
            line += text.count("\n", i, end)
            i = end
        else:
            # Within the statement, up to the dot that closes it.
            while True:
                stop = _STOPS.search(text, i)
                if stop is None:
                    yield start, start_line, before, []
                    return
                j = stop.start()
                line += text.count("\n", i, j)
                c = text[j]
                i = j + 1
                if c == "#":
                    if inner is not None:
                        inner.append(line)
                    end = text.find("\n", j)
                    i = n if end == -1 else end
                elif c == '"' or c == "'":
                    i = string_end(text, j)
                    line += text.count("\n", j, i)
                elif c == "<":
                    if depth >= 0:
                        i = stop.end()
                elif c == "[" or c == "(":
                    depth += 1
                elif c == "]" or c == ")":
                    depth -= 1
                elif depth == 0:  # a dot that ends the statement
                    break
        after: list[_Comment] = []
        if i < n and text[i] in " \t#":
            same_line = _SAME_LINE_COMMENT.match(text, i)
            if same_line:
                i = _comment(text, same_line.end() - 1, line, after)
        yield start, start_line, before, after


#: Blanks up to a comment on the same line.
_SAME_LINE_COMMENT = re.compile(r"[ \t]*#")


def _comment(text: str, start: int, line: int, comments: list[_Comment]) -> int:
    """Append the comment at ``start`` (on ``line``) to ``comments``; return where its
    line ends."""
    end = text.find("\n", start)
    end = len(text) if end == -1 else end
    comments.append((line, text[start:end].rstrip()))
    return end


# --- Where each triple is written -------------------------------------------------
#
# A report points at the triple that breaks a rule. rdflib keeps no positions, so the
# Turtle text is tokenized once more here (it has parsed, so it is known to be valid)
# and each written triple gets the line and column of its predicate (of its object
# when it is not the first object of an object list).

_TOKEN = re.compile(
    r"""
    (?P<ws>[ \t\r\n]+|\#[^\n]*)
    | (?P<iri><[^<>"{}|^`\\\x00-\x20]*>)
    | (?P<string>"""
    + r'"""|'
    + r"'''|"
    + r'"|'
    + r"'"
    + r""")
    | (?P<punct>\^\^|[\[\]();,]|\.(?![0-9]))  # (a dot before a digit starts a decimal: .5)
    | (?P<lang>@[A-Za-z]+(?:-[A-Za-z0-9]+)*)
    | (?P<word>(?:\\.|[^ \t\r\n;,()\[\]<"'\#^\\])+)  # a backslash escapes a name's next character
    """,
    re.VERBOSE,
)
_STRING_ESCAPES = {"t": "\t", "b": "\b", "n": "\n", "r": "\r", "f": "\f"}
_ESCAPE = re.compile(r"\\(u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|.)", re.DOTALL)
_RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
_RDF_TYPE = _RDF + "type"
_XSD = "http://www.w3.org/2001/XMLSchema#"
_LANG_STRING = "http://www.w3.org/1999/02/22-rdf-syntax-ns#langString"
#: A literal written bare (Turtle's shorthand): the group that matches is its datatype.
_BARE_LITERAL = re.compile(
    r"(?P<integer>[+-]?[0-9]+)|(?P<decimal>[+-]?[0-9]*\.[0-9]+)"
    r"|(?P<double>[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)[eE][+-]?[0-9]+)|(?P<boolean>true|false)"
)


@dataclass(frozen=True)
class Written:
    """One triple as written: its subject (an IRI, or ``("[]", n)`` for the n-th nested
    blank node of the file), predicate, object (an IRI, a ``("literal", lexical)`` pair
    or a nested blank node) and where it is; for a literal, its datatype's IRI and its
    language tag (lower-cased, as the parser reads it) too."""

    subject: object
    predicate: URIRef
    object: object
    line: int
    column: int
    #: The literal's datatype IRI (rdf:langString with a tag; None if the text names
    #: one this reader does not resolve, and for any other object).
    datatype: str | None = None
    language: str | None = None


def _unescape(text: str) -> str:
    def one(match: re.Match) -> str:
        code = match.group(1)
        if code[0] in "uU" and len(code) > 1:
            return chr(int(code[1:], 16))
        return _STRING_ESCAPES.get(code, code)

    return _ESCAPE.sub(one, text)


@dataclass
class Positions:
    """The triples of a Turtle text as written, and where each top-level subject starts."""

    triples: list[Written] = field(default_factory=list)
    subjects: dict[object, tuple[int, int]] = field(default_factory=dict)
    #: Each directive, in the order written: its line, the prefix it declares (None for
    #: a base) and the IRI it sets, resolved against the base in force.
    directives: list[tuple[int, str | None, str]] = field(default_factory=list)

    @functools.cached_property
    def by_subject(self) -> tuple[dict[object, list[object]], dict[object, Written]]:
        """The objects written for each subject, and the triple that first holds each
        blank node written nested (``[ … ]``), made once for the text as read
        (``written_blank`` asks for each result on a blank node)."""
        objects: dict[object, list[object]] = {}
        holders: dict[object, Written] = {}
        for w in self.triples:
            objects.setdefault(w.subject, []).append(w.object)
            if isinstance(w.object, tuple) and w.object[0] == "[]":
                holders.setdefault(w.object, w)
        return objects, holders

    @functools.cached_property
    def nested_by_named(
        self,
    ) -> dict[frozenset[object], tuple[list[Written], dict[object, list[Written]]]]:
        """The triples that hold the blank nodes written nested (``[ … ]``), grouped by
        the objects other than blank nodes each such node is written with
        (``written_blank`` asks which groups a node's own objects cover): in each group
        those held by a nested blank node, and the others by the subject holding them."""
        written, holders = self.by_subject
        groups: dict[frozenset[object], tuple[list[Written], dict[object, list[Written]]]] = {}
        for blank, holder in holders.items():
            named = frozenset(o for o in written.get(blank, ()) if not isinstance(o, tuple))
            nested, by_holder = groups.setdefault(named, ([], {}))
            if isinstance(holder.subject, tuple):
                nested.append(holder)
            else:
                by_holder.setdefault(holder.subject, []).append(holder)
        return groups

    @functools.cached_property
    def nested_by_bucket(self) -> dict[object, list[tuple[Written, list[set[object]]]]]:
        """The triples that hold the blank nodes written nested (``[ … ]``) by each
        node's ``blank_bucket`` as written, each with the keys of the node's objects
        (``_written_objects``): what tells apart nodes written alike but for their
        literals (``written_blank``)."""
        _, holders = self.by_subject
        held: dict[object, list[Written]] = {}
        for w in self.triples:
            if w.subject in holders and not is_blank_written(w.object):
                held.setdefault(w.subject, []).append(w)
        found: dict[object, list[tuple[Written, list[set[object]]]]] = {}
        for blank, holder in holders.items():
            bucket, keys = _written_objects(held.get(blank, []))
            found.setdefault(bucket, []).append((holder, keys))
        return found

    @functools.cached_property
    def named_objects(self) -> frozenset[object]:
        """Every object of the groups of ``nested_by_named``."""
        return frozenset(o for named in self.nested_by_named for o in named)

    @functools.cached_property
    def blank_statements(self) -> dict[frozenset[tuple[object, object]], list[object]]:
        """The top-level statements about a blank node (``[ … ] .``) by what they write
        (the set of their predicate and object pairs, each object by ``written_key``),
        each with their subjects in the order written: a waiver written so is found by
        its triples (``value_key``) without a scan of the file per waiver."""
        written: dict[object, set[tuple[object, object]]] = {}
        for w in self.triples:
            if isinstance(w.subject, tuple) and w.subject in self.subjects:  # a top one
                written.setdefault(w.subject, set()).add((w.predicate, written_key(w)))
        found: dict[frozenset[tuple[object, object]], list[object]] = {}
        for subject, told in written.items():
            found.setdefault(frozenset(told), []).append(subject)
        return found

    @functools.cached_property
    def _index(self) -> _Index:
        return _Index(self.triples)


#: A written triple with its place in the order written.
_Ordered = tuple[int, Written]


class _Index:
    """The triples of a Positions indexed to place results without a scan of the file per
    result (each index made on first use, once per file): by subject and predicate, by
    subject, predicate and object, by subject and object, by subject, and the triples
    nested in each statement's blank nodes."""

    def __init__(self, triples: list[Written]):
        self.triples = triples
        self.holding: dict[object, dict[object, Written]] = {}
        self.nested: dict[object, dict[tuple[object, ...], list[_Ordered]]] = {}

    def _by(
        self,
        key: Callable[[Written], tuple[object, ...]],
        items: Iterable[tuple[_Ordered, object]] | None = None,
    ) -> dict[Any, list[_Ordered]]:
        """The triples by ``key``, followed (with ``items``, each triple with a key of its
        object) by that key of the object."""
        found: dict[Any, list[_Ordered]] = {}
        if items is None:
            for item in enumerate(self.triples):
                found.setdefault(key(item[1]), []).append(item)
        else:
            for item, obj in items:
                found.setdefault((*key(item[1]), obj), []).append(item)
        return found

    def _written_keys(self) -> Iterator[tuple[_Ordered, object]]:
        return ((item, written_key(item[1])) for item in enumerate(self.triples))

    @functools.cached_property
    def stored_keys(self) -> list[tuple[_Ordered, object]]:
        """The triples whose literal a store keeps in another form than written, each
        with that form's key (``_stored_key``): made once per file, on the first look up
        of a literal that none is written as."""
        found = ((item, _stored_key(item[1])) for item in enumerate(self.triples))
        return [(item, key) for item, key in found if key is not None]

    @functools.cached_property
    def by_pair(self) -> dict[Any, list[_Ordered]]:
        return self._by(lambda w: (w.subject, w.predicate))

    @functools.cached_property
    def by_pair_object(self) -> dict[Any, list[_Ordered]]:
        return self._by(lambda w: (w.subject, w.predicate), self._written_keys())

    @functools.cached_property
    def by_pair_object_stored(self) -> dict[Any, list[_Ordered]]:
        return self._by(lambda w: (w.subject, w.predicate), self.stored_keys)

    @functools.cached_property
    def by_subject_object(self) -> dict[Any, list[_Ordered]]:
        return self._by(lambda w: (w.subject,), self._written_keys())

    @functools.cached_property
    def by_subject_object_stored(self) -> dict[Any, list[_Ordered]]:
        return self._by(lambda w: (w.subject,), self.stored_keys)

    @functools.cached_property
    def by_subject(self) -> dict[Any, list[_Ordered]]:
        return self._by(lambda w: (w.subject,))

    @functools.cached_property
    def nested_objects(self) -> dict[object, list[Written]]:
        """The triples of each subject whose object is a nested blank node (``[ … ]``)."""
        found: dict[object, list[Written]] = {}
        for w in self.triples:
            if isinstance(w.object, tuple) and w.object[0] == "[]":
                found.setdefault(w.subject, []).append(w)
        return found


def is_blank_written(written_object: object) -> bool:
    """Whether a term as written is a blank node: nested (``[ … ]``, a collection's list
    nodes too) or labelled (``_:b``)."""
    return isinstance(written_object, tuple) and written_object[0] in ("[]", "_:")


def _is_literal(written_object: object) -> bool:
    return isinstance(written_object, tuple) and written_object[0] == "literal"


def _iri_text(iri: object) -> str:
    """An IRI of rdflib (a ``str``) or of pyoxigraph (its ``value``) as text."""
    return str.__str__(iri) if isinstance(iri, str) else str(getattr(iri, "value", iri))


def written_key(w: Written) -> object:
    """The key the indexes file ``w``'s object under: a literal's text, datatype and
    language (``("literal", …)``); any other object, itself."""
    if _is_literal(w.object):
        return ("literal", w.object[1], w.datatype, w.language)  # type: ignore[index]
    return w.object


def _stored_key(w: Written) -> object | None:
    """The key of the form a pyoxigraph store keeps ``w``'s literal in, where that is
    another than written (its canonical one: ``3e0`` is held as ``"3"^^xsd:double``);
    else None."""
    datatype = w.datatype
    if not _is_literal(w.object) or datatype is None or not datatype.startswith(_XSD):
        return None
    from .literal_terms import rewritable, stored_form

    try:
        literal = ox.Literal(w.object[1], datatype=ox.NamedNode(datatype))  # type: ignore[index]
    except ValueError:
        return None
    if not rewritable(literal):
        return None
    stored = stored_form(literal)
    return None if stored == literal else ("stored", stored.value, stored.datatype.value, None)


def _object_keys(w: Written) -> tuple[object, ...]:
    """The keys of ``w``'s object: as written, and in the form a store keeps it in."""
    stored = _stored_key(w)
    return (written_key(w),) if stored is None else (written_key(w), stored)


def value_key(value: object) -> object:
    """The key ``written_key`` gives a triple whose object is ``value`` (a term of the
    graph) written as the graph holds it: a literal by its text, datatype and language."""
    return _keys(value)[0]


def _keys(value: object) -> tuple[object, ...]:
    """The keys of the written objects that ``value`` (a term of the graph) is, in the
    order they are looked up (``_object_keys``): an IRI or a blank node, itself; a
    literal, the one of a literal written with its text, datatype and language, then
    that of one a store keeps as ``value`` (``3e0`` for ``"3"^^xsd:double``)."""
    if isinstance(value, ox.Literal):  # (the fast engine's, most often)
        language = value.language
        own = (value.value, value.datatype.value, language.lower() if language else None)
        return (("literal", *own), ("stored", *own))
    if not is_literal(value):
        return (value,)
    language = getattr(value, "language", None) or None
    datatype = getattr(value, "datatype", None)
    if datatype is not None:
        iri = _iri_text(datatype)
    else:  # (rdflib's plain literals)
        iri = _LANG_STRING if language else _XSD + "string"
    own = (text(value), iri, language.lower() if language else None)
    return (("literal", *own), ("stored", *own))


def _matching(
    found: dict[Any, list[_Ordered]],
    stored: Callable[[], dict[Any, list[_Ordered]]],
    prefix: tuple,
    value: object,
) -> list[_Ordered]:
    """The entries of ``found`` (the objects as written) under ``prefix`` and ``value``,
    in the order written; for a literal none is written as, those of ``stored()`` (the
    objects in the form a store keeps them in) under ``prefix`` and ``value``
    (``_keys``)."""
    keys = _keys(value)
    hits = found.get((*prefix, keys[0]))
    if hits or len(keys) == 1:
        return hits or []
    return stored().get((*prefix, keys[1]), [])


class _Tokens:
    """Turtle tokens with their 1-based line and column; comments and spaces skipped."""

    def __init__(self, text: str):
        self.items: list[tuple[str, str, int, int]] = []
        line, line_start, i = 1, 0, 0
        while i < len(text):
            match = _TOKEN.match(text, i)
            if match is None:  # not Turtle we understand: stop, keep what was read
                break
            kind = match.lastgroup or "word"
            if kind == "string":
                end = string_end(text, i)
                value = text[i:end]
            else:
                end = match.end()
                if kind == "word":  # a name never ends with a dot: that one closes
                    while end - i > 1 and text[end - 1] == ".":
                        end -= 1
                value = text[i:end]
            if kind != "ws":
                self.items.append((kind, value, line, i - line_start + 1))
            if kind == "ws" or kind == "string":  # (no other token holds a line break)
                newlines = text.count("\n", i, end)
                if newlines:
                    line += newlines
                    line_start = text.rindex("\n", i, end) + 1
            i = end
        self.at = 0

    def peek(self) -> tuple[str, str, int, int]:
        return self.items[self.at] if self.at < len(self.items) else ("eof", "", 0, 0)

    def take(self) -> tuple[str, str, int, int]:
        token = self.peek()
        self.at += 1
        return token


class _Reader:
    """A recursive-descent reader of Turtle's triples grammar that records positions."""

    def __init__(self, text: str, base: str, ox_terms: bool = False):
        self.tokens = _Tokens(text)
        self.prefixes: dict[str, str] = {}
        self.base = base
        self.nested = 0
        self.found: list[Written] = []
        self.subjects: dict[object, tuple[int, int]] = {}
        self.directives: list[tuple[int, str | None, str]] = []
        #: The datatype and language of the literal ``term`` read last.
        self.literal_type: tuple[str | None, str | None] = (None, None)
        if ox_terms:
            import pyoxigraph as ox

            self.uri: Callable[[str], Any] = ox.NamedNode
        else:
            from rdflib import URIRef  # positions name IRIs as rdflib terms

            self.uri = URIRef

    def run(self) -> Positions:
        while self.tokens.peek()[0] != "eof":
            kind, value, line, _ = self.tokens.peek()
            lowered = value.lower()
            if kind in ("word", "lang") and lowered in ("@prefix", "prefix", "@base", "base"):
                self.tokens.take()
                if lowered.endswith("prefix"):
                    name = self.tokens.take()[1][:-1]
                    self.prefixes[name] = _resolve(self.base, self.tokens.take()[1][1:-1])
                    self.directives.append((line, name, self.prefixes[name]))
                else:
                    self.base = _resolve(self.base, self.tokens.take()[1][1:-1])
                    self.directives.append((line, None, self.base))
                if value.startswith("@"):
                    self.tokens.take()  # the closing dot
                continue
            _, _, line, column = self.tokens.peek()
            subject = self.term()
            self.subjects.setdefault(subject, (line, column))
            if self.tokens.peek()[1] != ".":
                self.predicate_objects(subject)
            self.tokens.take()  # the closing dot
        return Positions(self.found, self.subjects, self.directives)

    def iri(self, value: str) -> URIRef | None:
        URIRef = self.uri  # noqa: N806
        if value.startswith("<"):
            return URIRef(_resolve(self.base, _unescape(value[1:-1])))
        if value == "a":
            return URIRef(_RDF_TYPE)
        prefix, sep, local = value.partition(":")
        if sep and prefix in self.prefixes:
            return URIRef(self.prefixes[prefix] + _unescape_local(local))
        return None

    def term(self) -> object:
        """Read one term (a nested blank node or a collection with its triples)."""
        kind, value, _, _ = self.tokens.take()
        if value == "[":
            self.nested += 1
            node = ("[]", self.nested)
            if self.tokens.peek()[1] != "]":
                self.predicate_objects(node)
            self.tokens.take()  # ]
            return node
        if value == "(":
            return self.collection()
        if kind == "string":
            quote = 3 if value[:3] in ('"""', "'''") else 1
            lexical = _unescape(value[quote:-quote])
            following = self.tokens.peek()
            self.literal_type = (_XSD + "string", None)
            if following[0] == "lang":
                self.tokens.take()
                self.literal_type = (_LANG_STRING, following[1][1:].lower())
            elif following[1] == "^^":
                self.tokens.take()
                datatype = self.iri(self.tokens.take()[1])
                self.literal_type = (None if datatype is None else _iri_text(datatype), None)
            return ("literal", lexical)
        if value.startswith("_:"):
            return ("_:", value[2:])
        found = self.iri(value)
        if found is not None:
            return found
        bare = _BARE_LITERAL.fullmatch(value)
        self.literal_type = (_XSD + bare.lastgroup if bare and bare.lastgroup else None, None)
        return ("literal", value)

    def collection(self) -> object:
        """Read a collection's members (after its ``(``) and write its list as RDF does:
        a nested blank node a member, each with its ``rdf:first`` (at the member) and
        ``rdf:rest`` (the next node, or ``rdf:nil``); the first node, or ``rdf:nil`` for
        ``()``. So a collection's nodes are placed and matched as any nested node's."""
        members = []
        while self.tokens.peek()[1] not in (")", ""):
            _, _, line, column = self.tokens.peek()
            member = self.term()
            typed = self.literal_type if _is_literal(member) else (None, None)
            members.append((member, line, column, typed))
        self.tokens.take()
        nodes: list[object] = []
        for _ in members:
            self.nested += 1
            nodes.append(("[]", self.nested))
        rest: object = self.uri(_RDF + "nil")
        for node, (member, line, column, typed) in reversed(list(zip(nodes, members, strict=True))):
            self.found.append(Written(node, self.uri(_RDF + "first"), member, line, column, *typed))
            self.found.append(Written(node, self.uri(_RDF + "rest"), rest, line, column))
            rest = node
        return rest

    def predicate_objects(self, subject: object) -> None:
        while True:
            _, value, line, column = self.tokens.take()
            predicate = self.iri(value)
            first = True
            while True:
                kind, _, object_line, object_column = self.tokens.peek()
                if kind == "eof":
                    return
                obj = self.term()
                if predicate is not None:
                    where = (line, column) if first else (object_line, object_column)
                    typed = self.literal_type if _is_literal(obj) else (None, None)
                    self.found.append(Written(subject, predicate, obj, *where, *typed))
                first = False
                if self.tokens.peek()[1] != ",":
                    break
                self.tokens.take()
            while self.tokens.peek()[1] == ";":
                self.tokens.take()
            if self.tokens.peek()[1] in (".", "]", ""):
                return


def written_triples(text: str, base: str = "", ox_terms: bool = False) -> Positions:
    """Every triple written in Turtle ``text``, in the order written, with its position;
    IRIs as rdflib's terms, or with ``ox_terms`` as pyoxigraph's."""
    try:
        return _Reader(text, base, ox_terms).run()
    except (IndexError, ValueError):  # text this reader does not follow: no positions
        return Positions()


@functools.lru_cache(maxsize=64)
def _file_positions(path: str, stamp: tuple[int, int], base: str, ox_terms: bool) -> Positions:
    return written_triples(read_text(Path(path)), base, ox_terms)  # as the parser reads it


def file_positions(path: Path, base: str, ox_terms: bool = False) -> Positions:
    """``written_triples`` of a file, read once while the file is unchanged."""
    try:
        status = path.stat()
        return _file_positions(str(path), (status.st_mtime_ns, status.st_size), base, ox_terms)
    except (OSError, AnthologyError):
        return Positions()


def first_rdf12_term(quads: Iterable[Any], lines: dict[str, int]) -> tuple[Any, int | None] | None:
    """The first RDF 1.2 term of pyoxigraph ``quads`` (a triple term, or a literal with a
    base direction) and the line of the statement writing it, by ``lines`` (each
    subject IRI's first line, as ``subject_iris`` gives them): its subject's, or for a
    reifier or an annotation, that of the triple it names. None when the quads hold none."""
    import pyoxigraph as ox

    for quad in quads:
        for node in (quad.subject, quad.object):
            if isinstance(node, ox.Triple) or _has_direction(node):
                named = (quad.subject, node.subject) if isinstance(node, ox.Triple) else ()
                line = next(
                    (
                        lines[subject.value]
                        for subject in (quad.subject, *named)
                        if isinstance(subject, ox.NamedNode) and subject.value in lines
                    ),
                    None,
                )
                return node, line
    return None


def _has_direction(node: object) -> bool:
    """Whether ``node`` is a literal with a base direction (``"…"@ar--rtl``, RDF 1.2;
    pyoxigraph before 0.5 has no such literal)."""
    return getattr(node, "direction", None) is not None


#: Turtle writes no RDF 1.2 term without one of these: ``<<`` (a triple term or a
#: reified triple), ``{|`` (an annotation), ``~`` (a reifier) or ``--`` (a literal's
#: base direction, ``"…"@ar--rtl``).
_RDF12_MARKS = (b"<<", b"{|", b"~", b"--")
#: How ``may_hold_rdf12_term`` looks for the marks: a regex search for "<<" and for
#: "--" (which finds the first byte by memchr: ``mark in data`` read the text at about
#: 1 GB/s, 5.5 ms per 10,000 files of the bench for "<<", against 2.1 ms), "{" and "~"
#: by memchr (in no file of the bench), "{|" only where there is a "{". Written out, not
#: a loop over the marks: 11.8 ms per 10,000 files against 18.5 ms.
_TRIPLE_TERM = re.compile(re.escape(b"<<")).search
_ANNOTATION = re.compile(re.escape(b"{|")).search
_DIRECTION = re.compile(re.escape(b"--")).search


def may_hold_rdf12_term(data: bytes) -> bool:
    """Whether Turtle ``data`` holds a mark of an RDF 1.2 term (``<<``, ``{|``, ``~`` or
    ``--``, anywhere, in a string or a comment too): False means it holds none, True
    that it may (``refuse_rdf12_terms`` parses it to tell)."""
    return bool(
        _TRIPLE_TERM(data)
        or (b"{" in data and _ANNOTATION(data))
        or b"~" in data
        or _DIRECTION(data)
    )


def refuse_rdf12_terms(
    data: bytes, path: Path | str | None, base: str, quads: Iterable[Any] | None = None
) -> None:
    """Raise AnthologyError at the file and line of the first RDF 1.2 term of Turtle
    ``data`` (read from ``path``; ``quads``, its parse, when the caller has it): a
    triple term, or a literal with a base direction. No engine of the tool supports
    them: rdflib's terms cannot hold one, so the Oxigraph engine refuses the files the
    reference engine refuses, with its message. Data without a mark of one
    (``may_hold_rdf12_term``) is not parsed again."""
    if not may_hold_rdf12_term(data):
        return
    text = decode_utf8(data, path)
    found = first_rdf12_term(
        parse_quads(data, path, base) if quads is None else quads, subject_iris(text, base)
    )
    if found is None:
        return
    # The parse gives the terms in the order they are written, each from a mark: the
    # first mark's line is the first term's (its subject's, else).
    node, line = found
    if _has_direction(node):
        line = _first_line(text, _is_direction) or line
        raise AnthologyError(f"RDF 1.2 base directions are not supported: {node}", path, line)
    line = _first_line(text, _is_triple_term_mark) or line
    raise AnthologyError(f"RDF-star triple terms are not supported: {node}", path, line)


#: A mark of ``_RDF12_MARKS`` inside a name-like token (``:o~:r``, ``:o{|``), not
#: escaped by a backslash (``ex:a\~b`` is a name).
_MARK_IN_WORD = re.compile(r"(?:\\.|[^\\~{])*(~|\{\|)", re.DOTALL)


def _is_triple_term_mark(text: str, i: int, token: re.Match[str] | None) -> int | None:
    """Where a ``<<``, ``{|`` or ``~`` of a triple term starts at ``text[i]`` (read as
    syntax, its ``token`` there), else None."""
    if token is None:
        return i if text.startswith("<<", i) else None
    if token.lastgroup == "word":
        mark = _MARK_IN_WORD.match(text, i, token.end())
        if mark is not None:
            return mark.start(1)
    return None


def _is_direction(text: str, i: int, token: re.Match[str] | None) -> int | None:
    """Where the base direction of a language-tagged literal (``@ar--rtl``) starts at
    ``text[i]`` (read as syntax, its ``token`` there), else None."""
    if token is not None and token.lastgroup == "lang":
        if text.startswith(("--ltr", "--rtl"), token.end()):
            return i
    return None


def _first_line(
    text: str, found: Callable[[str, int, re.Match[str] | None], int | None]
) -> int | None:
    """The line of the first place ``found`` tells of in Turtle ``text`` read as syntax
    (not in a comment, string or IRI: it is given each token, or None where no token
    starts); None if there is none."""
    i, n = 0, len(text)
    while i < n:
        match = _TOKEN.match(text, i)
        if match is not None and match.lastgroup == "string":
            i = string_end(text, i)
            continue
        at = found(text, i, match)
        if at is not None:
            return text.count("\n", 0, at) + 1
        i = i + 1 if match is None else match.end()
    return None


def _matches(written: Written, value: object) -> bool:
    """Whether the object of the ``written`` triple is ``value`` (None: any), a literal
    by its text, datatype and language or by the form a store keeps it in: what the
    indexes of ``_Index`` look up (``_keys``; they give those of the first key that
    any triple is written with)."""
    return value is None or not set(_keys(value)).isdisjoint(_object_keys(written))


def written_triple(
    positions: Positions, subject: object, predicate: object, value: object | None
) -> Written | None:
    """The first triple written ``subject predicate value`` (``value`` a term of the
    graph, None: any), or None when the text does not write one (dict lookups in the
    file's index, not a scan)."""
    index = positions._index
    if value is None:
        found = index.by_pair.get((subject, predicate))
    else:
        found = _matching(
            index.by_pair_object, lambda: index.by_pair_object_stored, (subject, predicate), value
        )
    return found[0][1] if found else None


def locate(
    positions: Positions,
    focus: object,
    owner: object,
    predicate: object | None,
    value: object | None,
    holding: Written | None = None,
) -> tuple[int, int] | None:
    """Line and column of what breaks a rule: the triple ``focus predicate value`` when
    the text writes it (for a blank ``focus``, the one such triple nested in ``owner``'s
    statement), else where ``focus`` (or ``owner``) starts as a subject. ``holding``,
    the triple that holds a blank ``focus`` as written (``written_blank``), stands for
    it: its triples are searched, and it is where ``focus`` is. None when the text says
    neither."""
    from .kinds import is_iri

    subject = holding.object if holding is not None else focus
    if is_iri(predicate):
        direct = written_triple(positions, subject, predicate, value)
        if direct is not None:
            return direct.line, direct.column
        if value is not None and owner is not None and focus != owner and holding is None:
            nested = nested_triples(positions, owner, predicate, value)
            if len(nested) == 1:
                return nested[0].line, nested[0].column
    if holding is not None:
        return holding.line, holding.column
    for subject in (focus, owner):
        if subject in positions.subjects:
            return positions.subjects[subject]
    return None


def as_written(w: Written | None, value: _Node) -> _Node:
    """``value`` (a term of the graph) as the triple ``w`` found for it writes it: the
    literal written there, of ``value``'s library, where ``value`` is the form a store
    keeps it in (``3e0`` for ``"3"^^xsd:double``); else ``value`` itself."""
    if w is None or not _is_literal(w.object) or w.datatype is None:
        return value
    lexical = w.object[1]  # type: ignore[index]  # (a literal's pair)
    if _keys(value)[0] == ("literal", lexical, w.datatype, w.language):
        return value
    if isinstance(value, ox.Literal):
        return cast(_Node, ox.Literal(lexical, datatype=ox.NamedNode(w.datatype)))
    from rdflib import Literal, URIRef

    return cast(_Node, Literal(lexical, datatype=URIRef(w.datatype), normalize=False))


def object_triples(
    positions: Positions, subject: object, value: object, form: str | None = None
) -> list[Written]:
    """The triples written ``subject ? value`` (``value`` a term of the graph;
    ``subject`` as ``Written`` names it), in the order written: those that write
    ``value`` as the graph holds it, else those that write a literal in another form a
    store keeps as ``value`` (``_keys``); with ``form`` ``"written"`` or ``"stored"``,
    only the first or only the second."""
    index = positions._index
    if form is None:
        found = _matching(
            index.by_subject_object, lambda: index.by_subject_object_stored, (subject,), value
        )
    else:
        keys = _keys(value)
        if form == "written":
            found = index.by_subject_object.get((subject, keys[0]), [])
        else:
            stored = index.by_subject_object_stored if len(keys) > 1 else {}
            found = stored.get((subject, keys[-1]), [])
    return [w for _, w in found]


def _holding(positions: Positions, owner: object) -> dict[object, Written]:
    """Each blank node written nested in ``owner``'s statements (at any depth), and the
    triple that holds it (made once per owner)."""
    index = positions._index
    if owner not in index.holding:
        holding: dict[object, Written] = {}
        todo = [owner]
        while todo:
            current = todo.pop()
            for w in index.nested_objects.get(current, ()):
                if w.object not in holding:
                    holding[w.object] = w
                    todo.append(w.object)
        index.holding[owner] = holding
    return index.holding[owner]


def nested_triples(
    positions: Positions, owner: object, predicate: object, value: object
) -> list[Written]:
    """The triples ``? predicate value`` (None: any value) written inside blank nodes
    nested in ``owner``'s statements, in the order written."""
    index = positions._index
    if owner not in index.nested:
        # Those triples by predicate (``(predicate,)``) and by predicate and object,
        # made once per owner.
        inside: dict[tuple[object, ...], list[_Ordered]] = {}
        for subject in _holding(positions, owner):
            for item in index.by_subject.get((subject,), ()):
                w = item[1]
                inside.setdefault((w.predicate,), []).append(item)
                for obj in _object_keys(w):
                    inside.setdefault((w.predicate, obj), []).append(item)
        for items in inside.values():
            items.sort(key=lambda item: item[0])
        index.nested[owner] = inside
    inside = index.nested[owner]
    if value is None:
        return [w for _, w in inside.get((predicate,), ())]
    return [w for _, w in _matching(inside, lambda: inside, (predicate,), value)]


def blank_subjects(
    positions: Positions,
) -> list[tuple[tuple[int, int], object, list[set[object]]]]:
    """The blank nodes the text writes as top-level subjects (``_:b ex:p …``, ``[] ex:p
    …``, ``[ ex:p … ] .``), in the order written: where each starts (line, column), its
    ``blank_bucket``, and the keys of each of its objects as written that is not a blank
    node (``_object_keys``: as written, and in the form a store keeps it in)."""
    held: dict[object, list[Written]] = {}
    for w in positions.triples:
        if isinstance(w.subject, tuple) and w.subject in positions.subjects:
            kept = held.setdefault(w.subject, [])
            if not is_blank_written(w.object):
                kept.append(w)
    found: list[tuple[tuple[int, int], object, list[set[object]]]] = []
    for subject, written in held.items():
        bucket, keys = _written_objects(written)
        found.append((positions.subjects[subject], bucket, keys))
    return found


def _written_objects(written: list[Written]) -> tuple[object, list[set[object]]]:
    """The ``blank_bucket`` of a blank node written with the triples ``written`` (none
    with a blank object), and the keys of each of their objects (``_object_keys``)."""
    iris = frozenset(_iri_text(w.object) for w in written if not _is_literal(w.object))
    strings = frozenset(
        (w.object[1], w.language)  # type: ignore[index]
        for w in written
        if _is_literal(w.object) and w.datatype in (_XSD + "string", _LANG_STRING)
    )
    bucket = (iris, strings, len({written_key(w) for w in written}))
    return bucket, [set(_object_keys(w)) for w in written]


def blank_bucket(objects: Iterable[object]) -> object:
    """What ``blank_subjects`` files a node written with ``objects`` (terms of the graph)
    under: its IRI objects, its string objects (no store rewrites those) and how many
    objects that are no blank node it has; a node as written and in the graph alike."""
    own = [o for o in objects if not is_blank(o)]
    iris = frozenset(_iri_text(o) for o in own if not is_literal(o))
    keys = [cast(tuple[str, str, str, str | None], _keys(o)[0]) for o in own if is_literal(o)]
    strings = frozenset((k[1], k[3]) for k in keys if k[2] in (_XSD + "string", _LANG_STRING))
    return (iris, strings, len(own))


def written_alike(objects: Iterable[object], written: list[set[object]]) -> bool:
    """Whether the objects of a blank node of the graph (``objects``; blank ones are not
    compared, their labels saying nothing) are the ones ``written`` (``blank_subjects``'
    keys of a node as written)."""
    wanted = [set(_keys(o)) for o in objects if not is_blank(o)]
    return all(any(keys & own for own in written) for keys in wanted) and all(
        any(keys & own for keys in wanted) for own in written
    )


def written_blank(
    positions: Positions,
    node: object,
    referrers: Callable[[Any], Iterable[object]],
    objects: Callable[[Any], Iterable[object]],
) -> Written | None:
    """The triple that holds, as written, the blank ``node`` of the graph (whose parser's
    label says nothing of where it is): of the nested blank nodes (``[ … ]``) every IRI
    object of which ``node`` points at (one of its ``objects``) and whose holder, when an
    IRI, points at ``node`` (one of its ``referrers``), the one with the most IRI objects
    (the node as written has all its own, another only some of them); of several with
    those, the one written with the node's literals too. None when none fits or several
    are written alike."""
    # The node's own objects, asked once: not the referrers of each IRI object written
    # (a class such as ak:Figure has thousands).
    own = set(objects(node))
    pointing = set(referrers(node))
    groups = positions.nested_by_named
    # The groups whose objects the node has: by the subsets of its own objects that some
    # group's objects are made of, or, should those be more, by a look at every group
    # (a file of thousands of alike nodes is one group; of thousands of unlike ones,
    # thousands of groups, each with few objects).
    own_named = [o for o in own if o in positions.named_objects]
    if 2 ** len(own_named) <= len(groups):
        covered = [
            frozenset(subset)
            for size in range(len(own_named), -1, -1)
            for subset in itertools.combinations(own_named, size)
        ]
    else:
        covered = sorted((named for named in groups if named <= own), key=len, reverse=True)
    fitting: list[Written] = []
    most = -1
    for named in covered:
        if len(named) < most:
            break  # the one with the most objects fits, or several alike do
        group = groups.get(named)
        if group is None:
            continue
        nested, by_holder = group
        held = (h for subject in pointing for h in by_holder.get(subject, ()))
        fits = list(itertools.islice(itertools.chain(nested, held), 2))  # two tie
        if fits:
            fitting += fits
            most = len(named)
        if len(fitting) > 1:
            return _written_with_literals(positions, own, pointing)
    return fitting[0] if len(fitting) == 1 else None


def _written_with_literals(
    positions: Positions, own: set[object], pointing: set[object]
) -> Written | None:
    """Of the nested blank nodes written with the objects ``own`` (a node of the graph's,
    literals and all: ``written_alike``) whose holder, when an IRI, is one of ``pointing``,
    the triple that holds the one there is; None when there are several (written alike)
    or none. Found by the node's ``blank_bucket`` (its IRIs and strings), not a scan."""
    found = [
        holder
        for holder, keys in positions.nested_by_bucket.get(blank_bucket(own), ())
        if (isinstance(holder.subject, tuple) or holder.subject in pointing)
        and written_alike(own, keys)
    ]
    return found[0] if len(found) == 1 else None
