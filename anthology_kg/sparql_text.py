"""SPARQL query text: binding parameters in a ``VALUES`` block, the stretches of the
query's own syntax, whether it has a keyword (``has_keyword``: ``guards`` refuses
``SERVICE`` by it), and what pyoxigraph's parser says of a text it refuses, in short
(``sparql_error``).

Used by the query runners (a store that takes only query text, such as a SPARQL 1.1
Protocol endpoint or pyoxigraph) and by the SHACL compiler; it imports neither.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

import pyoxigraph as ox

from .errors import AnthologyError
from .prefixes import NAME_START_CHARS
from .sourcemap import string_end

# rdflib only where a caller binds rdflib terms (the text scanner serves the SHACL
# compiler, which runs without it).
if TYPE_CHECKING:
    from rdflib.term import Node

#: An IRI as SPARQL and Turtle write one (IRIREF: no character up to the space), a
#: character written as a codepoint escape too (``\u0041``: Turtle's UCHAR, and SPARQL
#: reads the escapes before its grammar, 19.2).
IRI = re.compile(r"<(?:[^<>\"{}|^`\\\x00-\x20]|\\u[0-9A-Fa-f]{4}|\\U[0-9A-Fa-f]{8})*>")


def with_values(text: str, bindings: Mapping[str, Node], source: str | Path | None = None) -> str:
    """The query with a VALUES block for ``bindings`` at the start of its WHERE clause
    and of each sub-SELECT's (which sees only what it projects, so a parameter used
    inside one is bound there too), for a store that takes only query text (the SPARQL
    1.1 Protocol). A ``CONSTRUCT WHERE { T }`` is written ``CONSTRUCT { T } WHERE { …
    T }``, its template being its pattern; a ``DESCRIBE`` without a WHERE clause gets
    one (``with_describe_pattern``). The blocks and the template take no line of their
    own: a syntax error keeps the line it has in the text as written. A query with no
    WHERE clause to bind in is an AnthologyError at ``source``.

    Each name must be a SPARQL variable name and each value an IRI or a literal
    (``check_bindings``), and each term is written by the one N-Triples term writer
    (``terms.nt_term``; N-Triples terms are SPARQL terms), which escapes every string:
    neither can end the block or add query text. (rdflib's ``n3()`` wrote a value with
    a newline ending in ``\"`` as a long string that the quote closed early.)
    """
    if not bindings:
        return text
    check_bindings(bindings)
    names = sorted(bindings)
    block = (
        " VALUES ("
        + " ".join(f"?{n}" for n in names)
        + ") { ("
        + " ".join(_values_term(bindings[n]) for n in names)
        + ") }"
    )
    text = with_describe_pattern(text)
    brace = where_brace(text, source)
    braces = [brace, *_sub_select_braces(text, brace)]
    template = _short_construct(text, brace, source)
    for at in sorted(braces, reverse=True):
        text = text[: at + 1] + block + text[at + 1 :]
    if template is not None:
        keyword_end, group = template
        text = text[:keyword_end] + " " + group + text[keyword_end:]
    return text


#: SPARQL 1.1's VARNAME (grammar section 19.8): what may follow a ``?`` as a variable,
#: from PN_CHARS_BASE (prefixes.NAME_START_CHARS).
VARNAME = re.compile(
    f"[{NAME_START_CHARS}_0-9][{NAME_START_CHARS}_0-9\u00b7\u0300-\u036f\u203f-\u2040]*"
)


def check_variable_names(bindings: Mapping[str, object]) -> None:
    """An AnthologyError unless each name of ``bindings`` is a SPARQL variable name
    (``VARNAME``, without the ``?``): a name is written into the query's text."""
    for name in bindings:
        if not isinstance(name, str) or not VARNAME.fullmatch(name):
            raise AnthologyError(f"cannot bind {name!r}: not a SPARQL variable name")


def check_bindings(bindings: Mapping[str, object]) -> None:
    """An AnthologyError unless each name of ``bindings`` is a SPARQL variable name
    (``check_variable_names``) and each value an rdflib IRI or literal. A blank node is
    refused by name: SPARQL's VALUES block takes none, and one written in a query is a
    variable, not the node, so no engine can bind one as every engine binds a value (the
    fast engine's VALUES block was a syntax error at a column of no text the caller
    wrote; the reference engine bound it)."""
    from rdflib.term import BNode, Literal, URIRef

    check_variable_names(bindings)
    for name, value in bindings.items():
        if isinstance(value, BNode):
            said = f"the blank node _:{value}: a query takes an IRI or a literal"
            raise AnthologyError(f"cannot bind ?{name} to {said}")
        if not isinstance(value, (URIRef, Literal)):
            raise AnthologyError(f"cannot bind ?{name} to {value!r}: not an RDF term")


#: The keywords that start a query (after its prologue of BASE and PREFIX).
_FORMS = frozenset({"SELECT", "CONSTRUCT", "DESCRIBE", "ASK"})
#: The keywords that may follow a query's WHERE clause (its solution modifiers and a
#: closing VALUES block): met before any brace, they say the query has no WHERE clause.
_AFTER_WHERE = frozenset({"GROUP", "HAVING", "ORDER", "LIMIT", "OFFSET", "VALUES"})
#: The SELECT keyword of a sub-SELECT (``_keyword_offsets``: not in a string, IRI or name).
_SELECT = "SELECT"


_Token = tuple[int, int, str | None]


def _code_tokens(text: str, start: int = 0) -> Iterator[_Token]:
    """``(start, end, word)`` of each terminal of the query's own syntax from ``start``,
    as ``_TOKEN`` reads them (whitespace and comments left out): ``word`` is a keyword in
    capitals, or None for any other terminal (a string or IRI whole, a variable, a name,
    a number, or one character of punctuation).

    A text up to ``_KEPT_TEXT`` long is scanned once and its terminals kept
    (``_kept_code_tokens``): the guards, the SHACL compiler and the result readers ask
    for the same texts' terminals again and again (~440,000 scanned in test_engines).
    From a ``start`` the whole scan passed through (any terminal's end, for one), what
    follows is the same; from any other, the text is scanned from there."""
    if len(text) <= _KEPT_TEXT:
        tokens, resume = _kept_code_tokens(text)
        index = resume.get(start)
        if index is not None:
            return iter(tokens[index:])
    return _scanned_code_tokens(text, start)


@functools.lru_cache(maxsize=256)
def _kept_code_tokens(text: str) -> tuple[tuple[_Token, ...], dict[int, int]]:
    """The terminals of ``text`` from its start, and for each offset the scan passed
    through, the index of the first terminal from there."""
    tokens: list[_Token] = []
    resume: dict[int, int] = {}
    for token, offset in _scan(text, 0):
        resume[offset] = len(tokens)
        if token is not None:
            tokens.append(token)
    return tuple(tokens), resume


def _scanned_code_tokens(text: str, start: int) -> Iterator[_Token]:
    return (token for token, _ in _scan(text, start) if token is not None)


def _scan(text: str, start: int) -> Iterator[tuple[_Token | None, int]]:
    """Each step of reading ``text`` from ``start``: the terminal read (None for
    whitespace or a comment) and the offset it starts at; last, None at the end."""
    i, n = start, len(text)
    while i < n:
        token = _TOKEN.match(text, i)
        if token is None or token.end() == i:
            yield (i, i + 1, None), i  # a character no terminal starts with (punctuation)
            i += 1
            continue
        word = token.group("word")
        if word is not None:
            yield (i, token.end(), word.upper()), i
        elif not (text[i].isspace() or text[i] == "#"):
            yield (i, token.end(), None), i
        else:
            yield None, i
        i = token.end()
    yield None, i


def query_form(text: str) -> tuple[str, int] | None:
    """The query's form keyword (``SELECT``, ``CONSTRUCT``, ``DESCRIBE``, ``ASK``) and
    where it ends; None when the text has none before its first brace."""
    for start, end, word in _code_tokens(text):
        if word in _FORMS:
            return word, end
        if text[start] == "{":
            return None
    return None


#: The keywords an operation of SPARQL 1.1 Update starts with (its grammar's Update1:
#: Load, Clear, Drop, Add, Move, Copy, Create, InsertData, DeleteData, DeleteWhere and
#: Modify, which opens with WITH, DELETE or INSERT).
_UPDATES = ("INSERT", "DELETE", "LOAD", "CLEAR", "DROP", "ADD", "MOVE", "COPY", "CREATE", "WITH")


def update_error(text: str, lines_before: int = 0) -> tuple[str, int, int] | None:
    """Where the ``text`` a query parser refused is an update, not a query (its first
    keyword after the prologue opens an operation of SPARQL 1.1 Update): that said as
    ``sparql_error_text`` says an error, at the keyword; None for any other text. The
    parsers said only the token they expected there (hunt20 #14: 'expected CONSTRUCT')."""
    tokens = list(_code_tokens(text))
    _, _, first = _read_prologue(text, tokens)
    if first >= len(tokens) or tokens[first][2] not in _UPDATES:
        return None
    word = tokens[first][2]
    line, column = _line_column(text, tokens[first][0])
    said = (
        f"{word} opens a SPARQL Update, not a query: queries only are run "
        "(SELECT, ASK, CONSTRUCT, DESCRIBE)"
    )
    return said, line - lines_before, column


def _clause_brace(text: str, start: int) -> int | None:
    """The offset of the ``{`` opening the WHERE clause of the query (or sub-SELECT)
    whose form keyword ends at ``start``: the first brace outside the parentheses of its
    projection (``(EXISTS { … } AS ?x)``). None when a solution modifier comes first."""
    depth = 0
    for at, _, word in _code_tokens(text, start):
        character = text[at]
        if character == "(":
            depth += 1
        elif character == ")":
            depth -= 1
        elif depth == 0 and (character == "{" or word in _AFTER_WHERE):
            return at if character == "{" else None
    return None


def where_brace(text: str, source: str | Path | None = None) -> int:
    """Offset of the ``{`` that opens the query's WHERE clause, read from the query's
    own terminals (not in comments, strings, IRIs or the projection's parentheses); a
    query without one is an AnthologyError at ``source``."""
    form = query_form(text)
    after = 0 if form is None else form[1]
    if form is not None and form[0] == "CONSTRUCT":
        first = next(_code_tokens(text, after), None)
        if first is not None and text[first[0]] == "{":  # the template
            after = _group_end(text, first[0], source) + 1
    brace = _clause_brace(text, after)
    if brace is None:
        at = _line(text, after)
        raise AnthologyError("the query has no WHERE clause to bind parameters in", source, at)
    return brace


def _line(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def with_describe_pattern(text: str) -> str:
    """A ``DESCRIBE`` query without a WHERE clause with an empty one (``WHERE {}``) after
    what it describes, on the same line; any other query as it is. A parameter is bound
    in a WHERE clause: rdflib ignores initial bindings of a DESCRIBE without one."""
    form = query_form(text)
    if form is None or form[0] != "DESCRIBE":
        return text
    end = form[1]
    for start, token_end, word in _code_tokens(text, end):
        if (
            word in ("FROM", "NAMED")
            or word is None
            and text[start] in "?$<*"
            or (word is None and ":" in text[start:token_end])
        ):
            end = token_end
            continue
        if text[start] == "{" or word == "WHERE":
            return text
        break
    return text[:end] + " WHERE {}" + text[end:]


def _sub_select_braces(text: str, where: int) -> list[int]:
    """The offsets of the ``{`` opening each sub-SELECT's WHERE clause, the WHERE clause
    of the query opening at ``where``."""
    found = []
    for keyword in _keyword_offsets(text, _SELECT, where):
        brace = _clause_brace(text, keyword + len(_SELECT))
        if brace is not None:
            found.append(brace)
    return found


def _short_construct(
    text: str, brace: int, source: str | Path | None = None
) -> tuple[int, str] | None:
    """For ``CONSTRUCT WHERE { T }`` (its WHERE clause opening at ``brace``, no template
    before it): where the CONSTRUCT keyword ends, and ``{ T }`` on one line (its
    comments dropped, line breaks outside strings made spaces) to write there as the
    template. None for any other query."""
    form = query_form(text)
    if form is None or form[0] != "CONSTRUCT":
        return None
    first = next(_code_tokens(text, form[1]), None)
    if first is None or text[first[0]] == "{":  # a template of its own
        return None
    close = _group_end(text, brace, source)
    pieces, at = [], brace
    for start, end in code_spans(text):
        if end <= brace or start > close:
            continue
        start, end = max(start, brace), min(end, close + 1)
        between = text[at:start]  # a comment, or the rest of a string or an IRI
        pieces.append(" " if between.startswith("#") else between)
        pieces.append(text[start:end].replace("\r", " ").replace("\n", " "))
        at = end
    return form[1], "".join(pieces)


def _group_end(text: str, brace: int, source: str | Path | None = None) -> int:
    """The offset of the ``}`` closing the group that opens at ``brace``."""
    depth = 0
    for i, character in code_characters(text):
        if i < brace or character not in "{}":
            continue
        depth += 1 if character == "{" else -1
        if depth == 0:
            return i
    raise AnthologyError("this group of the query is not closed", source, _line(text, brace))


def _values_term(node: Node) -> str:
    """``nt_term``, with tabs escaped too: rdflib's SPARQL parser (pyparsing) turns a raw
    tab into spaces, even inside a string; and a ``u`` or ``U`` after an escaped
    backslash written as a codepoint escape (``\\\\\\U00000075``), which SPARQL 1.1 and 1.2
    read alike (see _AFTER_BACKSLASH)."""
    from rdflib import Literal

    from .terms import nt_term

    if not isinstance(node, Literal):
        return nt_term(node)
    return _AFTER_BACKSLASH.sub(_u_escaped, nt_term(node).replace("\t", "\\t"))


# SPARQL 1.1 (section 19.2) expands \u and \U escapes in the whole text before parsing,
# and rdflib does so even after an escaped backslash: the text \u0041, written "\\u0041", is read
# as "\A" (an error), while SPARQL 1.2 and Oxigraph read \u0041. Written "\\\U00000075" +
# "0041" both read it as written (eight digits: rdflib takes eight after \u when there are).
# Each escape is matched whole, left to right, as a string's are.
_AFTER_BACKSLASH = re.compile(r"\\\\([uU])|\\.", re.DOTALL)


def _u_escaped(escape: re.Match[str]) -> str:
    letter = escape[1]
    return escape[0] if letter is None else f"\\\\\\U{ord(letter):08X}"


#: What may open a stretch that is not the query's own syntax: a comment, a string, an
#: IRI; or a backslash, which outside them escapes the next character of a prefixed name
#: (PN_LOCAL_ESC: ``ex:a\#b`` is one name, not a name and a comment).
_OPENING = re.compile(r"[#\"'<\\]")


#: Texts up to this length keep their stretches (the shapes' queries, a few KB each); a
#: longer one (a query carrying a large VALUES block) is scanned each time it is asked.
_KEPT_TEXT = 20_000


def code_spans(text: str) -> tuple[tuple[int, int], ...]:
    """The stretches ``(start, end)`` of the query's own syntax: comments, strings and
    IRIs are left out (an IRI is in as its ``<`` alone), as ``_TOKEN`` reads a query
    that parses. Found by jumping from one opening to where it ends, and kept for the
    texts last asked for: the SHACL compiler scans the same texts again and again."""
    return _kept_code_spans(text) if len(text) <= _KEPT_TEXT else _code_spans(text)


@functools.lru_cache(maxsize=1024)
def _kept_code_spans(text: str) -> tuple[tuple[int, int], ...]:
    return _code_spans(text)


def _code_spans(text: str) -> tuple[tuple[int, int], ...]:
    spans = []
    start = i = 0
    n = len(text)
    while (opening := _OPENING.search(text, i)) is not None:
        j = opening.start()
        c = text[j]
        if c == "\\":
            i = j + 2
            continue
        if c == "<":
            iri = IRI.match(text, j)
            if iri is None:  # an operator: the query's own
                i = j + 1
                continue
            spans.append((start, j + 1))
            start = i = iri.end()
        elif c == "#":
            spans.append((start, j))
            end = text.find("\n", j)
            start = i = n if end == -1 else end
        else:
            spans.append((start, j))
            start = i = string_end(text, j)
    spans.append((start, n))
    return tuple((a, b) for a, b in spans if a < b)


#: The deepest nesting of groups, parentheses and brackets a query may have. pyoxigraph
#: parses and plans a query by recursion and overflows its thread's stack, a crash with
#: no error, at ~2,500 nested groups on Python's 8 MiB main thread; rdflib stops at
#: Python's recursion limit well before (cli: "the input nests too deep").
MAX_NESTING = 1_000
#: The most operators a query may chain within one group (``longest_chain``). A flat
#: chain is parsed and evaluated by recursion too: on a thread's 8 MiB, pyoxigraph 0.5
#: crashed at ~2,700 MINUS or BIND in one group, ~6,500-9,000 UNIONs or ``+``s and
#: ~9,300 ``!``s (measured by ``sparql`` on the bundled anthology).
MAX_CHAIN = 1_000
#: The most triple patterns a query may join in one group (``most_patterns``). pyoxigraph
#: orders a join's patterns in time that grows with the cube of their number or faster
#: (measured by ``sparql`` on one triple: a chain of 250 patterns 0.5 s, 500 4.4 s,
#: 1,000 30-50 s; ``?s :p0 ?o0 ; :p1 ?o1 …`` of 100 0.6 s, 200 10.5 s, 250 27 s).
MAX_PATTERNS = 200
#: What ends a triple pattern within a group (``?s ex:p ?o . ?s ex:q ?r ; ex:t ?u , ?v``).
_PATTERN_ENDS = frozenset(".;,")
#: The keywords that chain the patterns of their group: each adds a level to the algebra.
_CHAINING = frozenset({"UNION", "MINUS", "OPTIONAL", "BIND"})
#: The operators of expressions and property paths (``||`` and ``&&`` count once; ``^``
#: is left out: ``^^`` types every literal of a VALUES block).
_OPERATORS = frozenset("|&!+-*/")
_NESTING = re.compile(r"[{}()\[\]]")


@functools.lru_cache(maxsize=256)
def nesting_depth(text: str) -> int:
    """How many groups, parentheses and brackets deep the query nests at its deepest
    (comments, strings and IRIs left out)."""
    depth = deepest = 0
    for match in code_matches(_NESTING, text):
        if match.group() in "{([":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def longest_chain(text: str) -> int:
    """The most operators the query chains within one group (between one pair of
    braces, parentheses or brackets, those of groups within it left out): the keywords
    of ``_CHAINING``, the ``_OPERATORS``, and within parentheses a signed number
    (``?x -1`` subtracts; in a VALUES block it is a value)."""
    return _most_in_one_group(text)[0]


def most_patterns(text: str) -> int:
    """The most triple patterns the query joins in one group (between one pair of braces
    or brackets), counted by what ends them (``.``, ``;``, ``,``; the last of a group,
    which needs none, by its terms), and a sequence path's steps (``:p/:q`` outside
    parentheses, which the algebra joins as two patterns): its own and those of the
    groups within it, which
    the algebra joins with them, but for a group of OPTIONAL, MINUS, EXISTS or UNION,
    counted on its own, and a CONSTRUCT template, not counted."""
    return _most_in_one_group(text)[1]


#: The keywords before a group whose patterns are not joined with those around it.
_APART = frozenset({"OPTIONAL", "MINUS", "EXISTS", "UNION"})
#: How the patterns of a group count: with those around it, on their own, not at all.
_JOINED, _ON_ITS_OWN, _TEMPLATE = "joined", "on its own", "template"


@functools.lru_cache(maxsize=256)
def _most_in_one_group(text: str) -> tuple[int, int]:
    """``longest_chain`` and ``most_patterns``, from one reading of the text."""
    # Each open group: its bracket, its counts (operators, patterns) and how its patterns
    # count (_JOINED with those around it, _APART on their own, or not at all).
    # counts: operators, patterns ended, and whether a pattern is open (terms written
    # since the last end: the last pattern of a group needs no ``.``).
    groups: list[tuple[str, list[int], str]] = [("", [0, 0, 0], _ON_ITS_OWN)]
    longest = most = 0
    previous = (-1, "")  # the end and the character of the last one-character terminal
    last_word: str | None = None  # the keyword of the last terminal, None for another
    joined_into: tuple[list[int], int] | None = None  # the group just closed, joined
    for start, end, word in _code_tokens(text):
        character = text[start]
        single = end == start + 1
        bracket, counts, kind = groups[-1]
        closed, joined_into = joined_into, None
        if single and character in "{([":
            if last_word == "CONSTRUCT":
                opened = _TEMPLATE
            else:
                opened = _ON_ITS_OWN if last_word in _APART else _JOINED
            groups.append((character, [0, 0, 0], opened))
        elif single and character in "})]":
            if len(groups) > 1:
                groups.pop()
                counts[1] += counts[2]  # its last pattern, which needs no end
                longest = max(longest, counts[0])
                if kind != _TEMPLATE:
                    most = max(most, counts[1])
                if kind == _JOINED:
                    groups[-1][1][1] += counts[1]
                    joined_into = (groups[-1][1], counts[1])
        elif word == "UNION" and closed is not None:
            closed[0][1] -= closed[1]  # {A} UNION {B}: A is a branch, not joined either
        elif single and character in _PATTERN_ENDS:
            if bracket in ("{", "["):
                counts[1] += 1
                counts[2] = 0
        elif bracket in ("{", "[") and word is None:
            counts[2] = 1  # a term: a pattern is written
            if single and character == "/":
                counts[1] += 1  # a sequence path's step: the algebra joins one more
        if (
            word in _CHAINING
            or (
                single
                and character in _OPERATORS
                and text[end : end + 1] != "="  # != is a comparison
                and previous != (start, character)  # the second of || or &&
            )
            or (not single and character in "+-" and bracket == "(")
        ):
            counts[0] += 1
        if single:
            previous = (end, character if previous != (start, character) else "")
        last_word = word
    return (
        max(longest, *(counts[0] for _, counts, _ in groups)),
        max(most, *(counts[1] + counts[2] for _, counts, kind in groups if kind != _TEMPLATE)),
    )


def too_deep(text: str) -> str | None:
    """Why ``text`` is not given to pyoxigraph (``nests N levels deep …``, ``chains N
    operators …``, ``joins N triple patterns …``): it nests deeper than MAX_NESTING,
    chains more than MAX_CHAIN operators or joins more than MAX_PATTERNS triple patterns
    in one group (``most_patterns``); None when it does none of these."""
    depth = nesting_depth(text)
    if depth > MAX_NESTING:
        return (
            f"nests {depth} levels deep (groups, parentheses or brackets); "
            f"at most {MAX_NESTING} are followed"
        )
    chain = longest_chain(text)
    if chain > MAX_CHAIN:
        return (
            f"chains {chain} operators in one group (UNION, MINUS, OPTIONAL, BIND, "
            f"||, &&, !, +, -, *, /, |); at most {MAX_CHAIN} are followed"
        )
    patterns = most_patterns(text)
    if patterns > MAX_PATTERNS:
        return (
            f"joins {patterns} triple patterns in one group; at most {MAX_PATTERNS} are "
            "planned (the time to plan a join grows faster than the cube of its length): "
            "split it into smaller queries"
        )
    return None


def refuse_deep_nesting(text: str, source: str | Path | None = None) -> None:
    """An AnthologyError at ``source`` when ``text`` nests too deep (``too_deep``)."""
    why = too_deep(text)
    if why is not None:
        raise AnthologyError(f"the query {why}", source)


def code_characters(text: str) -> Iterator[tuple[int, str]]:
    """(offset, character) of the query's own syntax: comments, strings and IRIs are
    stepped over (an IRI is yielded as its ``<`` alone)."""
    for start, end in code_spans(text):
        for i in range(start, end):
            yield i, text[i]


def code_matches(pattern: re.Pattern[str], text: str) -> Iterator[re.Match[str]]:
    """The matches of ``pattern`` in the query's own syntax (``code_spans``), in order;
    a match does not reach past its stretch."""
    for start, end in code_spans(text):
        yield from pattern.finditer(text, start, end)


#: SPARQL 1.1's terminals that may spell a keyword without being one (grammar
#: section 19.8), each matched whole where it starts: a comment, a string (its four
#: forms, escapes included), an IRIREF, a variable, a blank node label, a prefixed name
#: (PN_LOCAL's ``\#``-style escapes and ``%HH`` included), a number; else a run of letters
#: (a keyword, whatever its case: ``ſ`` and ``ı`` are capital ``S`` and ``I`` to rdflib).
#: A malformed token matches nothing here: it is read character by character, so what
#: follows is still seen (a query that does not parse runs nothing anyway).
_NAME_CHARS = "\\w\\-\u00b7\u0300-\u036f\u203f-\u2040"
_TOKEN = re.compile(
    r"\s+"
    r"|#[^\n\r]*"
    r'|"""(?:[^"\\]|\\.|"(?!""))*"""'
    r"|'''(?:[^'\\]|\\.|'(?!''))*'''"
    r'|"(?:[^"\\\n\r]|\\.)*"'
    r"|'(?:[^'\\\n\r]|\\.)*'"
    rf"|{IRI.pattern}"
    rf"|[?$][{_NAME_CHARS}]+"
    rf"|_:[{_NAME_CHARS}.]*"
    rf"|(?:[^\W\d_][{_NAME_CHARS}.]*)?:(?:[{_NAME_CHARS}.:]|%[0-9A-Fa-f]{{2}}"
    r"|\\[_~.\-!$&'()*+,;=/?#@%])*"
    r"|[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?"
    r"|(?P<word>[^\W\d_]+)"
)
#: SPARQL 1.1 section 19.2: ``\uXXXX`` and ``\UXXXXXXXX`` stand for their character
#: before the query is parsed (pyoxigraph reads them within strings and IRIs only).
_CODEPOINT_ESCAPE = re.compile(r"\\u([0-9A-Fa-f]{4})|\\U([0-9A-Fa-f]{8})")
#: The same as rdflib reads them (``rdflib.plugins.sparql.parser.expandUnicodeEscapes``,
#: whose pattern this repeats: importing that module builds rdflib's whole SPARQL
#: grammar): ``\u`` or ``\U`` with four or eight digits, either way.
_RDFLIB_ESCAPE = re.compile(r"\\u([0-9a-f]{4}(?:[0-9a-f]{4})?)", re.IGNORECASE)


def has_keyword(text: str, keyword: str) -> bool:
    """Whether SPARQL ``text`` has ``keyword`` (in capitals) as a keyword, read as
    SPARQL's grammar reads its terminals (``_TOKEN``: not inside a comment, string, IRI
    or name), as written or with its codepoint escapes replaced as the spec reads them
    or as rdflib does: each engine reads the text one of these ways. Kept for the
    texts up to ``_KEPT_TEXT`` last asked for (each query run is asked for SERVICE)."""
    if len(text) <= _KEPT_TEXT:
        return _kept_has_keyword(text, keyword)
    return _has_keyword(text, keyword)


@functools.lru_cache(maxsize=1024)
def _kept_has_keyword(text: str, keyword: str) -> bool:
    return _has_keyword(text, keyword)


def _has_keyword(text: str, keyword: str) -> bool:
    return any(
        _keyword_in(read, keyword)
        for read in {
            text,
            _CODEPOINT_ESCAPE.sub(_codepoint, text),
            _RDFLIB_ESCAPE.sub(_codepoint, text),
        }
    )


def _codepoint(escape: re.Match[str]) -> str:
    value = int(next(group for group in escape.groups() if group), 16)
    return chr(value) if value <= 0x10FFFF else escape.group()


def _keyword_in(text: str, keyword: str) -> bool:
    return next(_keyword_offsets(text, keyword), None) is not None


def selects_all(text: str) -> bool:
    """Whether the query is a ``SELECT *`` (``DISTINCT`` or ``REDUCED`` or not), read from
    its own terminals."""
    form = query_form(text)
    if form is None or form[0] != "SELECT":
        return False
    for at, _, word in _code_tokens(text, form[1]):
        if word not in ("DISTINCT", "REDUCED"):
            return text[at] == "*"
    return False


#: The keywords that may follow a query's ORDER BY clause.
_AFTER_ORDER = frozenset({"LIMIT", "OFFSET", "VALUES"})


def order_conditions(text: str) -> list[tuple[str | None, bool]] | None:
    """The conditions of the query's own ``ORDER BY`` (the outermost query's, not a
    sub-SELECT's), read from its terminals: each as the variable it orders by (``?x``,
    ``ASC(?x)``, ``DESC(?x)``, ``(?x)``), or None for any other expression, and whether
    it is descending; None when the query has no ``ORDER BY``."""
    tokens = list(_code_tokens(text))
    braces = 0
    for index, (at, _, word) in enumerate(tokens):
        character = text[at]
        if character in "{}" and word is None:
            braces += 1 if character == "{" else -1
        elif braces == 0 and word == "ORDER" and index + 1 < len(tokens):
            if tokens[index + 1][2] == "BY":
                return _conditions(text, tokens[index + 2 :])
    return None


def _conditions(text: str, tokens: list[_Token]) -> list[tuple[str | None, bool]]:
    """The order conditions at the start of ``tokens`` (``order_conditions``)."""
    conditions: list[tuple[str | None, bool]] = []
    index = 0
    while index < len(tokens):
        at, end, word = tokens[index]
        if word is None and text[at] in "?$":
            conditions.append((text[at + 1 : end], False))
            index += 1
            continue
        if word in _AFTER_ORDER:
            break
        bracketed = word is None and text[at] == "("
        if not bracketed:  # ASC(…), DESC(…), a function's call
            index += 1
            if index >= len(tokens) or text[tokens[index][0]] != "(":
                break
        closing = _closing_parenthesis(text, tokens, index)
        inside = tokens[index + 1 : closing]
        single = len(inside) == 1 and inside[0][2] is None and text[inside[0][0]] in "?$"
        named = single and (bracketed or word in ("ASC", "DESC"))
        variable = text[inside[0][0] + 1 : inside[0][1]] if named else None
        conditions.append((variable, word == "DESC"))
        index = closing + 1
    return conditions


def _closing_parenthesis(text: str, tokens: list[_Token], opening: int) -> int:
    """The index in ``tokens`` of the ``)`` closing the ``(`` at index ``opening`` (the
    last token's where it is not closed)."""
    depth = 0
    for index in range(opening, len(tokens)):
        character = text[tokens[index][0]]
        if tokens[index][2] is None and character in "()":
            depth += 1 if character == "(" else -1
            if depth == 0:
                return index
    return len(tokens) - 1


def variable_tokens(text: str) -> Iterator[tuple[int, str]]:
    """``(offset, name)`` of each variable written in the query's own syntax (not in a
    comment, string or IRI), in order, its name without the ``?`` or ``$``."""
    for at, end, word in _code_tokens(text):
        if word is None and text[at] in "?$" and end > at + 1:
            yield at, text[at + 1 : end]


def declared_prefixes(text: str) -> dict[str, str]:
    """The namespaces of the query's ``PREFIX p: <…>`` declarations, by prefix."""
    tokens = [(text[at:end], word) for at, end, word in _code_tokens(text)]
    return {
        name[:-1]: iri[1:-1]
        for (_, keyword), (name, _), (iri, _) in zip(tokens, tokens[1:], tokens[2:], strict=False)
        if keyword == "PREFIX" and name.endswith(":") and iri.startswith("<")
    }


#: The first character of a terminal that is no prefixed name though it may hold a colon
#: (a variable, a blank node label, a string, an IRI, a comment).
_NOT_PREFIXED = frozenset("?$_\"'<#")


def _is_prefixed_name(terminal: str, word: str | None) -> bool:
    """Whether a terminal of ``_code_tokens`` (its text and its keyword) is a prefixed
    name (``PNAME_NS`` or ``PNAME_LN``)."""
    return word is None and terminal[0] not in _NOT_PREFIXED and ":" in terminal


def undeclared_prefixes(text: str) -> dict[str, int]:
    """Each prefix (without its colon) of a prefixed name in the query ``text`` that no
    ``PREFIX`` before it declares (SPARQL 1.1, 4.1.1.1: such a text is no query), read
    from its own terminals, and the offset where it is first so used; in that order."""
    declared: set[str] = set()
    found: dict[str, int] = {}
    declaring = False
    for at, end, word in _code_tokens(text):
        name = text[at:end]
        if not _is_prefixed_name(name, word):
            declaring = word == "PREFIX"
            continue
        prefix = name[: name.index(":")]
        if declaring:
            declared.add(prefix)
        elif prefix not in declared:
            found.setdefault(prefix, at)
        declaring = False
    return found


#: PN_LOCAL_ESC (SPARQL 1.1, grammar rule 173): a character a local name escapes.
_LOCAL_ESCAPE = re.compile(r"\\([_~.\-!$&'()*+,;=/?#@%])")


def iris_written_out(text: str, prefixes: Mapping[str, str]) -> str:
    """The query ``text`` after its prologue, each prefixed name written as the IRI it
    stands for (by ``prefixes``, then by the text's own ``PREFIX`` declarations, a later
    one of a prefix overriding) and each relative IRI resolved against the text's
    ``BASE``: a part of it means the same pasted into another query, whatever that
    query's prologue. A prefix declared by neither is left as written (the parser then
    refuses it)."""
    tokens = list(_code_tokens(text))
    base, declared, i = _read_prologue(text, tokens)
    namespaces = {**prefixes, **declared}
    written, last = [], tokens[i][0] if i < len(tokens) else len(text)
    for at, end, word in tokens[i:]:
        name = text[at:end]
        if word is None and name[0] == "<" and base is not None and IRI.fullmatch(name):
            written += [text[last:at], f"<{_resolved(name[1:-1], base)}>"]
            last = end
        elif _is_prefixed_name(name, word):
            while name.endswith(".") and not name.endswith("\\."):  # (the triple's end)
                name, end = name[:-1], end - 1
            prefix, _, local = name.partition(":")
            if prefix in namespaces:
                local = _LOCAL_ESCAPE.sub(r"\1", local)
                written += [text[last:at], f"<{namespaces[prefix]}{local}>"]
                last = end
    return "".join([*written, text[last:]])


def prologue_base(text: str) -> str | None:
    """The base IRI the query's own ``BASE`` declarations set (each resolved against
    the one before), or None where it has none."""
    return _read_prologue(text, list(_code_tokens(text)))[0]


def _read_prologue(text: str, tokens: list[_Token]) -> tuple[str | None, dict[str, str], int]:
    """What the prologue of the query ``text`` (its ``tokens``) declares: its base IRI
    (None for none), its namespaces by prefix (a later declaration of a prefix
    overriding; a relative one resolved against the base before it), and the index of
    the first token after it."""
    namespaces: dict[str, str] = {}
    base: str | None = None
    i = 0
    while i + 1 < len(tokens) and tokens[i][2] in ("BASE", "PREFIX"):
        if tokens[i][2] == "BASE":
            base = _resolved(_between(text, tokens[i + 1])[1:-1], base)
            i += 2
        elif i + 2 < len(tokens):
            name = _between(text, tokens[i + 1])
            namespaces[name[:-1]] = _resolved(_between(text, tokens[i + 2])[1:-1], base)
            i += 3
        else:
            break
    return base, namespaces, i


def _between(text: str, token: _Token) -> str:
    """The text of ``token``."""
    return text[token[0] : token[1]]


def _resolved(iri: str, base: str | None) -> str:
    """``iri`` resolved against ``base`` as pyoxigraph's parsers resolve one (RFC 3986),
    where it is relative and there is a base; else as it is."""
    if base is None:
        return iri
    try:
        ox.NamedNode(iri)
        return iri  # (absolute: pyoxigraph keeps it as written, dot segments and all)
    except ValueError:
        pass
    try:
        triple = next(
            ox.parse(f"<{iri}> <urn:p> <urn:o> .", format=ox.RdfFormat.TURTLE, base_iri=base)
        )
    except (SyntaxError, ValueError):
        return iri
    return triple.subject.value


def _keyword_offsets(text: str, keyword: str, start: int = 0) -> Iterator[int]:
    """The offsets, from ``start``, where ``keyword`` (in capitals) is written as a
    keyword of SPARQL ``text`` as it stands (``_TOKEN``'s terminals)."""
    return (at for at, _, word in _code_tokens(text, start) if word == keyword)


_SPARQL_POSITION = re.compile(r"^error at (\d+):(\d+): ")
#: A sentence among the tokens pyoxigraph's SPARQL parser says it expected: its reason
#: for refusing (``The SELECT contains a variable that is unbound``, ``SELECT * is not
#: authorized with GROUP BY``), not a token: words, a lower-case one among them, with
#: no quote, bracket or comma (no token is so written).
#: What pyoxigraph says of a text it refuses for a reason it does not give (a BIND of a
#: variable in scope, a relative IRI with no BASE: seen as these three forms), where a
#: token it expected is named (``expected one of HAVING, …, ['0'..='9']``) or a reason
#: (``IRI parsing failed``): only then is another reading asked (``sparql_error_text``).
_NO_REASON = re.compile(r"expected (?:OPTIONAL|\[_\]|one of (?:[A-Z]+, )+\[_\])")
_PARSER_REASON = re.compile(
    r"""(?:^expected one of |, )((?=[^,\[\]"'\n]* [a-z]{2,})[^,\[\]"'\s][^,\[\]"'\n]*?)(?=, |$)"""
)


#: Why a text is refused, found by another reading of it (``sparql_error_text``'s
#: ``reason``); None where that reading finds nothing wrong.
Reason = Callable[[], str | None]
#: Where another reading of a text finds it at fault (``sparql_error_text``'s ``place``):
#: line and column; None where that reading finds nothing wrong.
Place = Callable[[], tuple[int, int] | None]


def sparql_error_text(
    exc: SyntaxError,
    lines_before: int = 0,
    text: str | None = None,
    reason: Reason | None = None,
    place: Place | None = None,
) -> tuple[str, int | None, int | None] | None:
    """pyoxigraph's SPARQL syntax error as a short message, its line in the query's own
    text (after ``lines_before`` lines added in front of it) and its column; None when
    it gives no position. Its list of the tokens it expected may run to a dozen lines:
    the first is kept, cut to 120 characters. Given the ``text`` pyoxigraph refused:
    an undeclared prefix is said by name where it is first written
    (``undeclared_prefix_error``: pyoxigraph says 'expected OPTIONAL' or a list of
    tokens, at the end of the pattern or of the text, for most), and a reason of the
    parser's own at the end of the text has no line or column (None, None): the parser
    checks a query's projection, groups and BINDs when it has read it whole, and says
    where it stopped reading. ``reason``: asked only where pyoxigraph gives no reason
    (``_NO_REASON``: a BIND of a variable in scope gives 'expected [_]' at the end;
    ``rdflib_sparql.refusal``), why the text is refused, found by another reading of it,
    said instead at no position; not where pyoxigraph names a reason of its own (``IRI
    parsing failed``) or a token it expected, nor for an undeclared prefix. ``place``:
    asked only where pyoxigraph's position is the end of the text or of a group (blanks
    and then the end or a ``}``), where it stopped reading (a stored query's error was
    at line 6 of a file of 5; an error in an OPTIONAL at the line of its ``}``), the
    place another reading of the text finds (``rdflib_sparql.syntax_error_place``: the
    triple or clause at fault, within the innermost group it is in), the tokens
    pyoxigraph expected still said; where that reading finds none, pyoxigraph's own
    place, or where that is past the text's last character that is no blank, the end of
    that character (a line the text has). Where pyoxigraph names only
    tokens it expected and the text holds a common mistake (``common_mistake``: a triple
    pattern lacking its object, where pyoxigraph said 'expected OPTIONAL'), the mistake
    is said in words at its place instead, as the reference engine says it."""
    first = (exc.msg or str(exc)).split("\n")[0]
    found = _SPARQL_POSITION.match(first)
    if found is None:
        return None
    if text is not None:
        update = update_error(text, lines_before)
        if update is not None:
            return update
        undeclared = undeclared_prefix_error(text, lines_before)
        if undeclared is not None:
            return undeclared
    said, line, column = first[found.end() :], int(found[1]), int(found[2])
    own = _PARSER_REASON.search(said) if said.startswith("expected one of ") else None
    if text is not None and own is None and said.startswith("expected "):
        mistake = common_mistake(text, lines_before)
        if mistake is not None:
            return mistake
    if reason is not None and _NO_REASON.fullmatch(said):
        other = reason()
        if other is not None:
            return other, None, None
    if said.startswith("expected one of Prefix not found"):
        said = "a prefix no PREFIX declares"
    elif own is not None:
        # The parser's own words for a query that is no SPARQL though its tokens are
        # (rust-peg lists them among the tokens it expected, where they sort first or not).
        said = own[1]
        if said[:2].istitle():  # "The SELECT …", not "SELECT * …"
            said = said[0].lower() + said[1:]
        if text is not None and (line, column) == _line_column(text, len(text)):
            return said, None, None
    elif len(said) > 120:
        said = said[:117] + "..."
    if place is not None and text is not None and _stopped_reading(text, line, column):
        there = place()
        if there is not None:
            line, column = there
        elif _stopped_reading(text, line, column, group=False):
            line, column = text_end(text)
    return said, line - lines_before, column


def _stopped_reading(text: str, line: int, column: int, group: bool = True) -> bool:
    """Whether ``line`` and ``column`` (from 1, as pyoxigraph counts) of ``text`` are at
    its end or, with ``group``, at the end of a group (blanks, then the end or a ``}``
    after them): where pyoxigraph stopped reading the text or a group it could not read."""
    offset = offset_of(text, line, column)
    return offset is None or text[offset:].lstrip()[:1] in ("", "}" if group else "")


def offset_of(text: str, line: int, column: int) -> int | None:
    """The offset in ``text`` of ``line`` and ``column`` (from 1, in characters); None
    for a line the text lacks."""
    lines = text.split("\n")
    if line > len(lines):
        return None
    return sum(len(n) + 1 for n in lines[: line - 1]) + column - 1


def text_end(text: str) -> tuple[int, int]:
    """The line and column of the end of the last character of ``text`` that is no
    blank: where an error found at its end is said, a line the text has."""
    return _line_column(text, len(text.rstrip()))


#: The keywords that open a pattern in braces of a group (``inner_group_probe``); a
#: FILTER opens one only as (NOT) EXISTS.
_OPENS_GROUP = frozenset({"OPTIONAL", "MINUS", "GRAPH", "SERVICE", "LATERAL", "UNION", "EXISTS"})


def inner_group_probe(text: str, line: int, column: int) -> str | None:
    """Where a parser places an error of the query ``text`` at a construct opening a
    group in braces (``line`` and ``column`` from 1: an OPTIONAL, MINUS, GRAPH, SERVICE,
    UNION, (NOT) EXISTS or FILTER (NOT) EXISTS, a nested group, or a sub-SELECT's group,
    whose own group pattern is meant): the text with that group alone as an ASK's
    pattern, each other character a blank (the lines and columns of the group kept as
    written, its prologue kept), for the parser to place the error within it; None
    where nothing at that place opens a group, or the group is not closed."""
    offset = offset_of(text, line, column)
    if offset is None:
        return None
    tokens = list(_code_tokens(text))
    _, _, first = _read_prologue(text, tokens)
    at = next((i for i, token in enumerate(tokens) if token[0] == offset), None)
    if at is None or first >= len(tokens) or tokens[first][2] not in _FORMS:
        return None
    words = [word for _, _, word in tokens[at : at + 3]]
    if words[0] == "FILTER":
        if words[1:] != ["NOT", "EXISTS"] and words[1:2] != ["EXISTS"]:
            return None
        at += words.index("EXISTS")
    elif words[0] not in _OPENS_GROUP and text[offset] != "{":
        return None
    # (the brace after the keyword, a GRAPH's or SERVICE's name and SILENT between)
    opening = next((t[0] for t in tokens[at : at + 4] if text[t[0]] == "{"), None)
    if opening is None:
        return None
    following = next(_code_tokens(text, opening + 1), None)
    if following is not None and following[2] == "SELECT":  # a sub-SELECT: its group
        inner = _clause_brace(text, following[1])
        if inner is None:
            return None
        opening = inner
    try:
        closing = _group_end(text, opening)
    except AnthologyError:
        return None
    form = tokens[first][0]

    def blank(part: str) -> str:
        return re.sub(r"[^\n]", " ", part)

    return (
        text[:form]
        + "ASK"
        + blank(text[form + 3 : opening])
        + text[opening : closing + 1]
        + blank(text[closing + 1 :])
    )


def _line_column(text: str, offset: int) -> tuple[int, int]:
    """The line and column (from 1, in characters, as pyoxigraph counts) of ``offset``."""
    return text.count("\n", 0, offset) + 1, offset - text.rfind("\n", 0, offset)


#: The keywords of a text pyoxigraph may evaluate as it parses it (``Store.query``): a
#: SERVICE call, an ORDER BY, a grouping or an aggregate (measured: an ORDER BY of three
#: VALUES blocks of 150 took 1 s on an empty store, the bare SELECT 0.01 s).
_EAGER = ("SERVICE", "ORDER", "GROUP", "HAVING", "COUNT", "SUM", "MIN", "MAX", "AVG", "SAMPLE")


def undeclared_prefix_error(
    text: str, lines_before: int = 0
) -> tuple[str, int | None, int | None] | None:
    """The first error of the query ``text``, as ``sparql_error_text`` gives one, where
    it has a prefix no PREFIX declares (``undeclared_prefixes``); None where it has
    none. pyoxigraph's position is no guide (after the name, or the end of the text),
    so the text is parsed again with each declared: where it still fails before the
    name, that error is the first one (said as pyoxigraph says it); else the prefix,
    where it is first written. (Parsing may be evaluating, on an empty store: an ASK is
    parsed as a SELECT *, whose answer is not read, and a text of ``_EAGER`` keywords
    is not parsed again. For a text an engine has refused: a good query pays nothing.)"""
    undeclared = undeclared_prefixes(text)
    if not undeclared:
        return None
    prefix, at = next(iter(undeclared.items()))
    line, column = _line_column(text, at)
    declared = " ".join(f"PREFIX {p}: <urn:x-undeclared:>" for p in undeclared)
    # An ASK is answered as it is parsed: parsed as a SELECT * (read lazily, never
    # answered), a later error on the keyword's line shifted back to where it is.
    probe, form = text, query_form(text)
    shifted: tuple[int, int] | None = None
    if form is not None and form[0] == "ASK":
        probe = f"{text[: form[1] - 3]}SELECT *{text[form[1] :]}"
        shifted = _line_column(text, form[1])
    try:
        # Not parsed again where that may evaluate it: a SERVICE may be called at once,
        # and an ORDER BY or an aggregate is computed before the store returns (VALUES
        # make rows on an empty store): the prefix is said.
        if not any(has_keyword(text, word) for word in _EAGER):
            ox.Store().query(f"{declared}\n{probe}")
    except SyntaxError as again:
        found = _SPARQL_POSITION.match(str(again))
        if found is not None:
            first = (int(found[1]) - 1, int(found[2]))
            if shifted is not None and first[0] == shifted[0] and first[1] > shifted[1]:
                first = (first[0], first[1] - len("SELECT *") + len("ASK"))
            said = sparql_error_text(again, lines_before + 1)
            if first < (line, column) and said is not None:
                return said if said[1] is None else (said[0], first[0] - lines_before, first[1])
    except (OSError, RuntimeError):  # (an unknown function: no syntax error)
        pass
    return f"the prefix {prefix}: is declared by no PREFIX", line - lines_before, column


def sparql_error(
    exc: SyntaxError,
    source: Path | str | None,
    text: str | None = None,
    reason: Reason | None = None,
    place: Place | None = None,
) -> AnthologyError:
    """A SPARQL syntax error of pyoxigraph in the ``text`` of ``source`` as an
    AnthologyError at its file and line, ``bad.rq:3: SPARQL syntax error at column 1:
    expected ...``, or at its file alone where it has no position (``sparql_error_text``,
    which ``reason`` and ``place`` are given to)."""
    found = sparql_error_text(exc, text=text, reason=reason, place=place)
    if found is None:
        return AnthologyError(f"SPARQL syntax error: {exc.msg or exc}", source)
    said, line, column = found
    if line is None:
        return AnthologyError(f"SPARQL syntax error: {said}", source)
    return AnthologyError(f"SPARQL syntax error at column {column}: {said}", source, line)


#: The words of SPARQL 1.1's grammar (its keywords and built-in functions, section 19),
#: with LATERAL, TRIPLE and the other SPARQL 1.2 draft words pyoxigraph reads: a word
#: of a query that is none of these is a mistake (``common_mistake``). Digits end a
#: word as ``_TOKEN`` reads it (MD5 is MD and 5).
_SPARQL_WORDS = frozenset(
    """BASE PREFIX SELECT CONSTRUCT DESCRIBE ASK DISTINCT REDUCED AS FROM NAMED WHERE
    GROUP BY HAVING ORDER ASC DESC LIMIT OFFSET VALUES UNDEF OPTIONAL MINUS GRAPH SERVICE
    SILENT FILTER BIND UNION LATERAL EXISTS NOT IN A TRUE FALSE COUNT SUM MIN MAX AVG
    SAMPLE GROUP_CONCAT SEPARATOR STR LANG LANGMATCHES DATATYPE BOUND IRI URI BNODE RAND
    ABS CEIL FLOOR ROUND CONCAT STRLEN UCASE LCASE ENCODE_FOR_URI CONTAINS STRSTARTS
    STRENDS STRBEFORE STRAFTER YEAR MONTH DAY HOURS MINUTES SECONDS TIMEZONE TZ NOW UUID
    STRUUID MD SHA COALESCE IF STRLANG STRDT SAMETERM ISIRI ISURI ISBLANK ISLITERAL
    ISNUMERIC REGEX SUBSTR REPLACE TRIPLE SUBJECT PREDICATE OBJECT ISTRIPLE LANGDIR
    STRLANGDIR HASLANG HASLANGDIR ADJUST""".split()
)
#: The keywords that open a pattern of a group other than a triple pattern (the grammar's
#: GraphPatternNotTriples and Filter, and LATERAL): a triple pattern ends before one.
_GROUP_WORDS = ("OPTIONAL", "MINUS", "GRAPH", "SERVICE", "FILTER", "BIND", "VALUES", "LATERAL")
#: The operators a mistake may leave without an operand, written with characters that
#: ``_TOKEN`` reads one by one.
_BINARY = ("=", "!=", "<", ">", "<=", ">=", "&&", "||", "!")
_OPERATOR_CHARACTERS = "=<>!&|"
#: The solution modifiers' keywords, which follow a WHERE clause (``_AFTER_WHERE`` but
#: VALUES, which a group may hold).
_MODIFIER_WORDS = ("GROUP", "HAVING", "ORDER", "LIMIT", "OFFSET")
#: The place of each solution modifier and VALUES after a WHERE clause, in the order the
#: grammar gives them (LIMIT and OFFSET in either order).
_MODIFIER_STAGES = {"GROUP": 0, "HAVING": 1, "ORDER": 2, "LIMIT": 3, "OFFSET": 3, "VALUES": 4}
_CLOSING = {"(": ")", "[": "]", "{": "}"}
#: What may follow a term of a triple pattern or expression, not start one.
_ENDS_A_TERM = ("", "}", ".", ";", ",", ")", "]")


class _Mistake(Exception):
    """A mistake of the text read (``common_mistake``): what is wrong, and its offset."""

    def __init__(self, said: str, offset: int) -> None:
        super().__init__(said)
        self.said, self.offset = said, offset


class _Unsure(Exception):
    """The text holds what ``_MistakeReader`` does not read: it says nothing of it."""


def common_mistake(text: str, lines_before: int = 0) -> tuple[str, int, int] | None:
    """What is wrong with the query ``text`` a parser refused, in words, at its line and
    column (from 1, as pyoxigraph counts), where it is one of the common mistakes the
    parsers said only as tokens they expected ('expected OPTIONAL', 'Expected
    SelectQuery'): a triple pattern lacking its object (or predicate and object), a ','
    or ';' followed by no object or predicate, a blank node's predicate lacking its
    object, a term after an object with no '.' between, a string not closed on its
    line, a bracket closed by another or by none or left open, a FILTER's or HAVING's
    condition or an OPTIONAL's (MINUS', GRAPH's, …) pattern not in its brackets, an
    operator lacking its right operand, two operands with no operator between them, a
    ',' with no expression before or after it, a word of no SPARQL (a keyword misspelt:
    the keywords it is close to are named), a query that starts with no query form, a
    SELECT projecting nothing, a projection separated by commas or an expression in it
    with no AS, ORDER or GROUP without BY or without a condition, a solution modifier
    inside a group, two or out of their order, LIMIT or OFFSET without a number, what
    follows a query's WHERE clause that is no solution modifier, a pattern beside a
    sub-SELECT, a UNION not between braces, IN without parentheses, an empty FILTER(),
    a function misspelt, '@' or '^^' with no language tag or datatype, AS with no
    variable.
    The place is the start of the construct at fault (the triple pattern, the ';' pair,
    the operator, the word); a bracket left open is said after the text's last terminal
    (a comment after it is no part of the query). None for any other text, and for a
    text holding what the reader does not read (a quoted triple, an annotation): it says
    only what it is sure of. Lines are counted after the first ``lines_before`` of
    ``text`` (declarations put in front of it)."""
    try:
        _MistakeReader(text, lines_before).read()
    except _Mistake as found:
        line, column = _line_column(text, found.offset)
        return found.said, line - lines_before, column
    except (_Unsure, IndexError):
        return None
    return None


class _MistakeReader:
    """A reader of SPARQL's query grammar, loose where no common mistake is looked for
    (an expression is read as far as its brackets and operators), strict where one is:
    it raises ``_Mistake`` at the first it meets, ``_Unsure`` at what it cannot read."""

    def __init__(self, text: str, lines_before: int = 0) -> None:
        self.text, self.lines_before = text, lines_before
        self.tokens: list[_Token] = []
        for start, end, word in _code_tokens(text):
            # A name or a number does not end with '.' ('?s a ak:T.' ends its triple
            # there), though _TOKEN reads the dot into it.
            kept = end
            if word is None and text[start] not in "\"'<?$" and text[end - 1] == ".":
                kept = start + len(text[start:end].rstrip("."))
            if kept > start:
                self.tokens.append((start, kept, word))
            self.tokens.extend((at, at + 1, None) for at in range(kept, end))

    def at(self, i: int) -> str:
        """The i-th terminal as written; "" past the last."""
        if i >= len(self.tokens):
            return ""
        start, end, _ = self.tokens[i]
        return self.text[start:end]

    def word(self, i: int) -> str | None:
        return self.tokens[i][2] if i < len(self.tokens) else None

    def offset(self, i: int) -> int:
        """Where the i-th terminal starts; past the last, the end of the last."""
        return self.tokens[i][0] if i < len(self.tokens) else len(self.text.rstrip())

    def written(self, first: int, last: int) -> str:
        """The text from the first terminal to the end of the one before ``last``."""
        return self.text[self.tokens[first][0] : self.tokens[last - 1][1]]

    def place(self, offset: int) -> str:
        line, column = _line_column(self.text, offset)
        return f"line {line - self.lines_before}, column {column}"

    def read(self) -> None:
        self.no_query()
        self.balanced()
        self.starts_with_a_form()
        form, i, n = None, 0, len(self.tokens)
        while i < n:
            word = self.word(i)
            if word in _FORMS and form is None:
                form = word
                i = self.projection(i + 1) if word == "SELECT" else i + 1
            elif word == "VALUES":
                i = self.values(i + 1)
            elif self.at(i) == "{":
                i = self.group(i)
                if self.word(i) not in ("WHERE", "FROM") and self.at(i) != "{":
                    i = self.modifiers(i, last=True)
            elif form is not None and word is not None and word not in _SPARQL_WORDS:
                raise self.unknown(i, ("WHERE", "FROM", "NAMED"))
            else:
                i += 1

    def after_prologue(self) -> int:
        """The index of the first terminal after the PREFIX, BASE and (SPARQL 1.2)
        VERSION declarations; past the last where one is cut short."""
        i, n = 0, len(self.tokens)
        while i < n:
            word = self.word(i)
            if word == "PREFIX":
                i += 3  # PREFIX ex: <iri>
            elif word in ("BASE", "VERSION"):
                i += 2  # BASE <iri>, VERSION "1.2"
            else:
                return i
        return i

    def starts_with_a_form(self) -> None:
        """A query that starts with no SELECT, CONSTRUCT, DESCRIBE or ASK (a VALUES
        block or a group written first, a form misspelt) as a mistake, at that start,
        where its declarations are well formed."""
        i = self.after_prologue()
        if self.word(i) in _FORMS or i >= len(self.tokens) or self.at(i)[:1] == "\\":
            return  # (a codepoint escape, \u0041SK: read by rdflib, not by pyoxigraph)
        for k in range(i):
            word = self.word(k)
            declared = self.at(k + (2 if word == "PREFIX" else 1))
            if word == "PREFIX" and not self.at(k + 1).endswith(":"):
                raise _Unsure
            if word in ("PREFIX", "BASE") and not declared.startswith("<"):
                raise _Unsure
            if word == "VERSION" and declared[:1] not in "\"'":
                raise _Unsure
        if self.is_unknown(i):
            raise self.unknown(i, (*sorted(_FORMS), "PREFIX", "BASE"))
        said = "a query starts with SELECT, CONSTRUCT, DESCRIBE or ASK (after its PREFIX"
        raise _Mistake(f"{said} and BASE declarations), not '{self.at(i)}'", self.offset(i))

    def no_query(self) -> None:
        """A text of comments, blanks and declarations alone (an empty file, a query
        commented out) as a mistake, at the end of its last character that is no blank."""
        i, n = self.after_prologue(), len(self.tokens)
        if i < n:
            return
        if i > n:
            return  # a declaration cut short: the parser's words say it
        said = "no query in the text: only comments and blanks"
        if n:
            said = "no query in the text: only PREFIX and BASE declarations"
        raise _Mistake(said, len(self.text.rstrip()))

    def balanced(self) -> None:
        """A string not closed on its line, a bracket closed by another or by none, and
        one the text leaves open, as a mistake."""
        opened: list[int] = []
        for start, end, _ in self.tokens:
            character = self.text[start]
            if end - start != 1:
                continue
            if character in "\"'":
                said = "a string opened here is not closed on its line"
                raise _Mistake(
                    f"{said} (one of several lines is written between {character * 3})", start
                )
            if character in _CLOSING:
                opened.append(start)
            elif character in _CLOSING.values():
                if not opened:
                    raise _Mistake(f"this '{character}' closes nothing opened", start)
                opening = opened.pop()
                wanted = _CLOSING[self.text[opening]]
                if character != wanted:
                    raise _Mistake(
                        f"'{character}' where the '{self.text[opening]}' of "
                        f"{self.place(opening)} is open: a '{wanted}' is missing before it",
                        start,
                    )
        if opened:
            # (said after the last terminal: a comment after it is no part of the query)
            opening = opened[-1]
            raise _Mistake(
                f"the text ends where the '{self.text[opening]}' of {self.place(opening)} "
                f"is open: a '{_CLOSING[self.text[opening]]}' is missing",
                self.tokens[-1][1],
            )

    def unknown(self, i: int, expected: tuple[str, ...]) -> _Mistake:
        """The word ``i`` that is no word of SPARQL, with the ``expected`` keywords it
        is close to."""
        from .config import did_you_mean

        written = self.at(i)
        hint = did_you_mean(written.upper(), expected)
        if not hint:
            hint = " (a prefixed name has a colon, ex:name; a string is quoted)"
        return _Mistake(f"'{written}' is no keyword of SPARQL{hint}", self.offset(i))

    def closing(self, i: int) -> int:
        """The index after the bracket that closes the one at ``i``."""
        depth = 0
        for k in range(i, len(self.tokens)):
            written = self.at(k)
            if written in _CLOSING:
                depth += 1
            elif written in _CLOSING.values():
                depth -= 1
                if depth == 0:
                    return k + 1
        raise _Unsure

    def projection(self, i: int) -> int:
        """A SELECT's projection from ``i``; the index of what follows it."""
        i += self.word(i) in ("DISTINCT", "REDUCED")
        if self.word(i) in ("WHERE", "FROM") or self.at(i) == "{":
            said = "SELECT projects nothing: SELECT * or the variables, SELECT ?s ?o"
            raise _Mistake(said, self.offset(i))
        while i < len(self.tokens):
            word, written = self.word(i), self.at(i)
            if word in ("WHERE", "FROM") or written == "{":
                return i
            if written == ",":
                said = "the variables a SELECT projects are separated by blanks, not commas"
                raise _Mistake(said, self.offset(i))
            if written == "(":
                if not self.names_one(i):
                    said = "an expression a SELECT projects is written (expression AS ?name)"
                    raise _Mistake(f"{said}: its AS ?name is missing", self.offset(i))
                i = self.expression(i)
            elif word is not None and self.at(i + 1) == "(":
                said = "an expression a SELECT projects is written in parentheses"
                raise _Mistake(f"{said}, (expression AS ?name)", self.offset(i))
            elif word is not None and word not in _SPARQL_WORDS:
                raise self.unknown(i, ("WHERE", "FROM", "DISTINCT", "REDUCED"))
            else:
                i += 1
        return i

    def names_one(self, opening: int) -> bool:
        """Whether the parentheses at ``opening`` hold an ``AS`` outside any bracket
        opened within them (``(expression AS ?name)``)."""
        inside = self.top_level(opening + 1, self.closing(opening) - 1)
        return any(self.word(k) == "AS" for k in inside)

    def top_level(self, start: int, end: int) -> Iterator[int]:
        """The indexes from ``start`` to ``end`` outside any bracket opened there."""
        k = start
        while k < end:
            yield k
            k = self.closing(k) if self.at(k) in _CLOSING else k + 1

    def expression(self, i: int) -> int:
        """The bracketed expression opening at ``i`` (an EXISTS's group in it read as a
        group); the index after its closing bracket."""
        end = self.closing(i)
        k = i + 1
        # (SPARQL 1.2's triple terms, <<( ?s ?p ?o )>>, are terms written side by side)
        quoted = any(self.at(n) == self.at(n + 1) == "<" for n in range(i, end))
        while k < end - 1:
            written = self.at(k)
            if self.word(k) == "EXISTS" and self.at(k + 1) == "{":
                k = self.group(k + 1)
                continue
            self.function(k)
            if self.word(k) == "AS" and self.at(k + 1)[:1] not in ("?", "$"):
                said = "AS names the variable bound, … AS ?name"
                if self.at(k + 1) != ")":
                    said += f": '{self.at(k + 1)}' is no variable"
                raise _Mistake(said, self.offset(k + 1))
            if self.word(k) == "IN" and self.at(k + 1) != "(":
                said = f"{written} takes its values in parentheses, {written.upper()} (…)"
                raise _Mistake(said, self.offset(k))
            if written == "," and self.at(k - 1) in ("(", ","):
                said = f"',' follows '{self.at(k - 1)}' with no expression between them"
                raise _Mistake(said, self.offset(k))
            if written == "," and self.at(k + 1) == ")":
                raise _Mistake(
                    "',' is followed by ')' with no expression between them", self.offset(k)
                )
            if self.operand_ends(k) and self.operand_starts(k + 1) and not quoted:
                said = f"'{self.at(k + 1)}' follows '{self.at(k)}' with no operator (or ',')"
                raise _Mistake(f"{said} between them", self.offset(k + 1))
            if written in _OPERATOR_CHARACTERS and written and self.at(k + 1) in (")", ","):
                first = k
                while (
                    first > i + 1
                    and self.at(first - 1) in _OPERATOR_CHARACTERS
                    and self.tokens[first - 1][1] == self.tokens[first][0]
                ):
                    first -= 1
                operator = self.written(first, k + 1)
                if operator in _BINARY:
                    raise _Mistake(f"'{operator}' lacks its right operand", self.offset(first))
            k += 1
        return end

    def function(self, i: int) -> None:
        """The word at ``i`` called as a function that is none of SPARQL's, as a mistake
        where it is close to one (a word far from any is left to the parsers: one of a
        draft pyoxigraph reads, say)."""
        word = self.word(i)
        if word is None or word in _SPARQL_WORDS or self.at(i + 1) != "(":
            return
        from .config import did_you_mean

        hint = did_you_mean(word, sorted(_SPARQL_WORDS))
        if hint:
            raise _Mistake(f"'{self.at(i)}' is no function of SPARQL{hint}", self.offset(i))

    def operand_ends(self, i: int) -> bool:
        """Whether the terminal ``i`` may end an operand of an expression: a variable,
        an IRI or name, a number, a string, true or false, or a closing parenthesis."""
        written = self.at(i)
        if not written or written[0] == "<" and {"?", "$"} & set(written):
            return False  # ('?x<?a&&?b>?y' reads as an IRI, <?a&&?b>: no operand)
        return (
            len(written) > 1
            and written[0] in "?$\"'<"
            or written[0].isdigit()
            or ":" in written
            or written == ")"
            or self.word(i) in ("TRUE", "FALSE")
        )

    def operand_starts(self, i: int) -> bool:
        """Whether the terminal ``i`` is an operand no operator may be missing before: a
        variable, a string or an unsigned number (``?x -1`` is ``?x - 1``)."""
        written = self.at(i)
        return len(written) > 1 and written[0] in "?$\"'" or written[:1].isdigit()

    def modifiers(self, i: int, last: bool = False) -> int:
        """The solution modifiers from ``i``, after a WHERE clause, up to the '}' of a
        sub-SELECT or, ``last`` (the query's own), the end; the index of that '}'."""
        n, stage, previous = len(self.tokens), 0, -1
        while i < n and self.at(i) != "}":
            word = self.word(i)
            if word in _MODIFIER_STAGES:
                if previous >= 0 and (
                    _MODIFIER_STAGES[word] < stage or self.word(previous) == word
                ):
                    said = f"{self.named(i)} follows {self.named(previous)}: a query's solution"
                    raise _Mistake(
                        f"{said} modifiers come each once, in the order GROUP BY, HAVING, "
                        "ORDER BY, LIMIT and OFFSET (in either order), VALUES",
                        self.offset(i),
                    )
                stage, previous = _MODIFIER_STAGES[word], i
            if word in ("GROUP", "ORDER"):
                if self.word(i + 1) != "BY":
                    said = f"{self.at(i)} is followed by BY: {word} BY"
                    raise _Mistake(
                        f"{said} and what it {'groups' if word == 'GROUP' else 'orders'} by",
                        self.offset(i),
                    )
                i = self.conditions(i + 2, i)
            elif word == "HAVING":
                i = self.conditions(i + 1, i)
            elif word in ("LIMIT", "OFFSET"):
                if not self.at(i + 1).isdigit():
                    said = f"{self.at(i)} takes a whole number, {word} 10"
                    number = self.at(i + 1)
                    said += f": '{number}' is none" if number else ", and the text ends"
                    raise _Mistake(said, self.offset(i + 1))
                i += 2
            elif word == "VALUES":
                i = self.values(i + 1)
            elif word is not None and self.at(i + 1) != "(" and word not in _SPARQL_WORDS:
                raise self.unknown(i, ("GROUP", "HAVING", "ORDER", "LIMIT", "OFFSET", "VALUES"))
            elif last:
                said = f"'{self.at(i)}' is no solution modifier: after its WHERE clause a query"
                raise _Mistake(
                    f"{said} has only GROUP BY, HAVING, ORDER BY, LIMIT, OFFSET and VALUES",
                    self.offset(i),
                )
            elif self.node(i) is not None or self.at(i) == "{" or word in _GROUP_WORDS:
                said = f"'{self.at(i)}' follows a sub-SELECT in its braces: a sub-SELECT is"
                raise _Mistake(f"{said} alone in its group, {{ SELECT … }}", self.offset(i))
            else:
                raise _Unsure
        return i

    def conditions(self, i: int, keyword: int) -> int:
        """The conditions from ``i`` of the GROUP BY, HAVING or ORDER BY at ``keyword``
        (a variable, a bracketed expression, a call; ASC or DESC and a bracketed
        expression); the index after the last."""
        having, count = self.word(keyword) == "HAVING", 0
        while True:
            written, word = self.at(i), self.word(i)
            if word in ("ASC", "DESC") and self.word(keyword) == "ORDER":
                if self.at(i + 1) != "(":
                    raise _Unsure
                i = self.expression(i + 1)
            elif written[:1] in ("?", "$") and len(written) > 1 and not having:
                i += 1
            elif written == "(":
                i = self.expression(i)
            elif self.at(i + 1) == "(" and (
                word is not None or ":" in written or written[:1] == "<" and len(written) > 1
            ):
                i = self.expression(i + 1)  # a function's call
            else:
                break
            count += 1
        operator = self.at(i)[:1] in _OPERATOR_CHARACTERS + "+-*/" and bool(self.at(i))
        if having and (count == 0 or operator):
            said = "HAVING takes its condition in parentheses, HAVING(…)"
            raise _Mistake(said, self.offset(keyword))
        if count == 0 and (self.at(i) in ("", "}") or self.word(i) in _MODIFIER_STAGES):
            said = f"{self.at(keyword)} BY is followed by no condition: a variable or an"
            raise _Mistake(f"{said} expression in parentheses", self.offset(keyword))
        if count == 0 or operator:
            raise _Unsure
        return i

    def values(self, i: int) -> int:
        """A VALUES block whose variables start at ``i``; the index after its data."""
        if self.at(i) == "(":
            i = self.closing(i)
        elif self.at(i)[:1] in ("?", "$"):
            i += 1
        if self.at(i) != "{":
            raise _Unsure
        return self.closing(i)

    def braced(self, i: int, keyword: int) -> int:
        """The group at ``i`` that the keyword at ``keyword`` takes; the index after it."""
        if self.at(i) != "{":
            written = self.at(keyword)
            said = f"{written} takes a group pattern in braces, {written.upper()} {{ … }}"
            raise _Mistake(said, self.offset(keyword))
        return self.group(i)

    def group(self, i: int) -> int:
        """The group (or CONSTRUCT template) opening at ``i``; the index after its '}'."""
        i += 1
        if self.word(i) == "SELECT":
            i = self.projection(i + 1)
            i += self.word(i) == "WHERE"
            if self.at(i) != "{":
                raise _Unsure
            i = self.modifiers(self.group(i))
            return i + 1
        while True:
            word, written = self.word(i), self.at(i)
            if written == "}":
                return i + 1
            if written in (".", ""):
                if not written:
                    raise _Unsure
                i += 1
            elif written == "{":
                i = self.group(i)
                while self.word(i) == "UNION":
                    i = self.braced(i + 1, i)
            elif word in ("OPTIONAL", "MINUS", "LATERAL"):
                i = self.braced(i + 1, i)
            elif word in ("GRAPH", "SERVICE"):
                k = i + 1 + (self.word(i + 1) == "SILENT")
                if self.word(k) is not None or self.at(k) in ("{", ""):
                    raise _Unsure
                i = self.braced(k + 1, i)
            elif word == "FILTER":
                i = self.constraint(i)
            elif word == "BIND":
                if self.at(i + 1) != "(":
                    raise _Mistake("BIND is written BIND(expression AS ?name)", self.offset(i))
                if not self.names_one(i + 1):
                    said = "BIND is written BIND(expression AS ?name): its AS ?name is missing"
                    raise _Mistake(said, self.offset(i))
                i = self.expression(i + 1)
            elif word == "VALUES":
                i = self.values(i + 1)
            elif word in _MODIFIER_WORDS:
                raise self.misplaced_modifier(i)
            elif word == "UNION":
                raise self.union_unbraced(i)
            else:
                i = self.triples(i)

    def constraint(self, i: int) -> int:
        """The FILTER at ``i`` and its condition; the index after it."""
        k, word = i + 1, self.word(i + 1)
        if word == "NOT" and self.word(k + 1) == "EXISTS":
            return self.braced(k + 2, k + 1)
        if word == "EXISTS":
            return self.braced(k + 1, k)
        if self.at(k) == "(":
            if self.at(k + 1) == ")":
                raise _Mistake(f"{self.at(i)}() holds no condition", self.offset(i))
            return self.expression(k)
        if self.at(k + 1) == "(" and (
            word is not None or ":" in self.at(k) or self.at(k)[:1] == "<"
        ):
            self.function(k)
            return self.expression(k + 1)  # a function's call
        said = f"{self.at(i)} takes its condition in parentheses, FILTER(…)"
        raise _Mistake(said, self.offset(i))

    def ends(self, i: int) -> bool:
        """Whether a triple pattern's terms end at ``i``."""
        return self.at(i) in (".", "}", "{", "") or self.word(i) in _GROUP_WORDS

    def node(self, i: int) -> int | None:
        """The index after the term (subject or object) at ``i``; None where none is."""
        written, word = self.at(i), self.word(i)
        if not written:
            return None
        first = written[0]
        if first in "?$" and len(written) > 1 or first == "<" and len(written) > 1:
            return i + 1
        if first == "<" or written == "{" and self.at(i + 1) == "|":
            raise _Unsure  # (a quoted triple, an annotation)
        if first in "\"'":
            k = i + 1
            if self.at(k) == "@" and self.word(k + 1) is None:
                raise _Mistake("'@' is followed by no language tag, \"…\"@en", self.offset(k))
            if self.at(k) == "@":
                k += 2
                while self.at(k) == "-" and self.tokens[k][1] == self.tokens[k + 1][0]:
                    k += 2
            elif self.at(k) == self.at(k + 1) == "^":
                k += 2
                if self.at(k) in _ENDS_A_TERM:
                    said = "'^^' is followed by no datatype IRI, \"…\"^^xsd:integer"
                    raise _Mistake(said, self.offset(k - 2))
                if self.node(k) is None or self.at(k)[:1] in "\"'[(?$":
                    raise _Unsure
                k += 1
            return k
        if ":" in written or first.isdigit() or first in "+-." and len(written) > 1:
            return i + 1
        if word in ("TRUE", "FALSE"):
            return i + 1
        if first == "[":
            end = self.closing(i)
            if end > i + 2:
                self.property_list(i + 1, end - 1)
            return end
        if first == "(":
            return self.closing(i)
        return None

    def property_list(self, i: int, end: int) -> None:
        """The predicates and objects of a blank node's brackets, from ``i`` to its ']'
        at ``end``."""
        node = self.written(i - 1, end + 1)
        while True:
            verb_at = i
            i = self.after(self.verb(i), i, ())
            if i == end or self.at(i) in (";", ","):
                said = f"the predicate '{self.written(verb_at, i)}' of the blank node '{node}'"
                raise _Mistake(f"{said} lacks its object", self.offset(verb_at))
            i = self.after(self.node(i), i, ())
            while self.at(i) == ",":
                if i + 1 == end or self.at(i + 1) in (";", ","):
                    raise _Mistake("',' is followed by no object", self.offset(i))
                i = self.after(self.node(i + 1), i + 1, ())
            if self.at(i) != ";":
                if i == end:
                    return
                if self.node(i) is not None or self.verb(i) is not None:
                    said = f"'{self.at(i)}' follows '{self.written(verb_at, i)}' in the blank"
                    raise _Mistake(
                        f"{said} node '{node}' with no ';' (or ',') between them", self.offset(i)
                    )
                raise _Unsure
            while self.at(i) == ";":
                i += 1
            if i == end:
                return

    def verb(self, i: int) -> int | None:
        """The index after the predicate (a property path) at ``i``; None where none is."""
        k = i
        while True:
            while self.at(k) in ("^", "!"):
                k += 1
            written = self.at(k)
            if written == "(":
                k = self.closing(k)
            elif self.word(k) == "A" or written[:1] in "?$" and len(written) > 1:
                k += 1
            elif (
                written[:1] == "<"
                and len(written) > 1
                or ":" in written
                and written[0] not in "\"'"
            ):
                k += 1
            else:
                return None if k == i else _unsure()
            if self.at(k) in ("*", "+", "?") and self.tokens[k - 1][1] == self.tokens[k][0]:
                k += 1
            if self.at(k) not in ("/", "|"):
                return k
            k += 1

    def triples(self, i: int) -> int:
        """The triple patterns of one subject at ``i``; the index after them."""
        start = i
        k = self.node(i)
        if k is None:
            raise self.unknown(i, _GROUP_WORDS) if self.is_unknown(i) else _Unsure
        alone_allowed = self.at(i) in ("[", "(") and k > i + 2
        first = True
        while True:
            if self.ends(k):
                if alone_allowed and first:
                    return k
                said = (
                    f"the triple pattern '{self.written(start, k)}' has no predicate and no object"
                )
                raise _Mistake(said, self.offset(start))
            verb_at = k
            k = self.after(self.verb(k), k, _GROUP_WORDS)
            if self.at(k) == "{" and self.tokens[k - 1][1] == self.tokens[k][0]:
                raise _Unsure  # (a path's {2} of SPARQL 1.1's drafts)
            if self.ends(k) or self.at(k) in (";", ","):
                if first:
                    said = f"the triple pattern '{self.written(start, k)}' lacks its object"
                    raise _Mistake(said, self.offset(start))
                said = f"the predicate '{self.written(verb_at, k)}' after ';' lacks its object"
                raise _Mistake(said, self.offset(verb_at))
            k = self.after(self.node(k), k, _GROUP_WORDS)
            while self.at(k) == ",":
                if self.ends(k + 1) or self.at(k + 1) in (";", ","):
                    raise _Mistake("',' is followed by no object", self.offset(k))
                k = self.after(self.node(k + 1), k + 1, _GROUP_WORDS)
            first = False
            if self.at(k) == ";":
                while self.at(k) == ";":
                    k += 1
                if self.ends(k):
                    return k
                continue
            if self.ends(k):
                return k
            if self.word(k) in _MODIFIER_WORDS:
                raise self.misplaced_modifier(k)
            if self.word(k) == "UNION":
                raise self.union_unbraced(k)
            if self.node(k) is not None or self.verb(k) is not None:
                said = (
                    f"'{self.at(k)}' follows the triple pattern '{self.written(start, k)}' "
                    "with no '.' (or ';' or ',') between them"
                )
                raise _Mistake(said, self.offset(k))
            raise self.unknown(k, _GROUP_WORDS) if self.is_unknown(k) else _Unsure

    def named(self, i: int) -> str:
        """The solution modifier at ``i`` by its keywords as written (ORDER BY)."""
        return self.written(i, i + 2) if self.word(i + 1) == "BY" else self.at(i)

    def union_unbraced(self, i: int) -> _Mistake:
        """The UNION ``i`` that follows no group pattern in braces."""
        return _Mistake(
            "UNION joins two group patterns in braces, { … } UNION { … }", self.offset(i)
        )

    def misplaced_modifier(self, i: int) -> _Mistake:
        """The solution modifier ``i`` written among a group's patterns."""
        said = f"{self.at(i)} is a solution modifier: it follows the '}}' closing a query's"
        return _Mistake(f"{said} or a sub-SELECT's WHERE clause, not a pattern", self.offset(i))

    def is_unknown(self, i: int) -> bool:
        word = self.word(i)
        return word is not None and word not in _SPARQL_WORDS

    def after(self, found: int | None, i: int, expected: tuple[str, ...]) -> int:
        """``found``, the index after a term read at ``i``; where none was read, the
        word there as a mistake, or ``_Unsure``."""
        if found is not None:
            return found
        raise self.unknown(i, expected) if self.is_unknown(i) else _Unsure


def _unsure() -> int:
    raise _Unsure
