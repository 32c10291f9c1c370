"""SPARQL text as tokens, for highlighting a query on its page (whether it calls a remote
service is ``guards.uses_service``'s to say, as for every local query)."""

from __future__ import annotations

import re

KEYWORDS = frozenset(
    """SELECT DISTINCT REDUCED AS WHERE PREFIX BASE OPTIONAL FILTER NOT EXISTS MINUS UNION
    GRAPH SERVICE SILENT BIND VALUES ORDER BY ASC DESC LIMIT OFFSET GROUP HAVING CONSTRUCT
    DESCRIBE ASK FROM NAMED IN UNDEF A""".split()
)
_TOKEN = re.compile(
    r"(?P<comment>#[^\n]*)"
    r'|(?P<string>"""(?:[^"\\]|\\.|"(?!""))*"""|\'\'\'(?:[^\'\\]|\\.|\'(?!\'\'))*\'\'\''
    r'|"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\')'
    r'|(?P<iri><[^<>"{}|^`\\\s]*>)'
    r"|(?P<variable>[?$][A-Za-z_0-9]+)"
    r"|(?P<name>[A-Za-z_][\w.-]*:[\w.:-]*|:[\w.:-]*)"
    r"|(?P<word>[A-Za-z]+)"
    r"|(?P<other>[\s\S])",
    re.DOTALL,
)


def tokens(text: str) -> list[tuple[str, str]]:
    """``text`` as (class, piece) pairs whose pieces join back to ``text``; the class is
    one of comment, string, iri, variable, name, keyword, or empty for the rest."""
    out: list[tuple[str, str]] = []
    for match in _TOKEN.finditer(text):
        kind = match.lastgroup or "other"
        piece = match.group()
        if kind == "word":
            kind = "keyword" if piece.upper() in KEYWORDS else "other"
        kind = "" if kind == "other" else kind
        if out and out[-1][0] == kind == "":
            out[-1] = ("", out[-1][1] + piece)
        else:
            out.append((kind, piece))
    return out
