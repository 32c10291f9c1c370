"""Talking to a SPARQL 1.1 store over HTTP: the Protocol for queries, the Graph Store
HTTP Protocol for uploads. Only the standard library is used."""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request

from rdflib import BNode, Graph, Literal, URIRef

from .errors import AnthologyError
from .queries import QueryResult, query_kind

TIMEOUT = 30


def http(url: str, *, method: str = "GET", data: bytes | None = None, headers=None) -> bytes:
    """One HTTP request; a connection failure or an HTTP error is an AnthologyError
    that names the URL and the status."""
    request = urllib.request.Request(url, data=data, method=method, headers=headers or {})
    shown = url.split("?", 1)[0]
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            return response.read()
    except urllib.error.HTTPError as exc:
        body = exc.read().decode("utf-8", "replace").strip().splitlines()
        detail = f": {body[0][:200]}" if body else ""
        raise AnthologyError(f"{method} {shown}: HTTP {exc.code} {exc.reason}{detail}") from None
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise AnthologyError(f"{method} {shown}: cannot connect ({reason})") from None


def _term(binding: dict):
    kind = binding["type"]
    if kind == "uri":
        return URIRef(binding["value"])
    if kind == "bnode":
        return BNode(binding["value"])
    datatype = binding.get("datatype")
    return Literal(
        binding["value"],
        lang=binding.get("xml:lang"),
        datatype=URIRef(datatype) if datatype else None,
    )


def run_remote(endpoint: str, text: str, kind: str | None = None) -> QueryResult:
    """Run ``text`` on a SPARQL 1.1 Protocol endpoint and return the same QueryResult
    a local run gives (``kind``, when the caller knows it, spares parsing the query)."""
    kind = kind or query_kind(text)
    accept = "text/turtle" if kind == "graph" else "application/sparql-results+json"
    # Sent URL-encoded (SPARQL 1.1 Protocol 2.1.2), with the URL's own parameters
    # (default-graph-uri) in the same body: every store takes this form (Virtuoso 7 does
    # not take a application/sparql-query body).
    address, _, parameters = endpoint.partition("?")
    form = urllib.parse.urlencode([("query", text), *urllib.parse.parse_qsl(parameters)])
    body = http(
        address,
        method="POST",
        data=form.encode("utf-8"),
        headers={"Content-Type": "application/x-www-form-urlencoded", "Accept": accept},
    )
    if kind == "graph":
        return QueryResult(kind="graph", graph=Graph().parse(data=body, format="turtle"))
    try:
        document = json.loads(body)
    except ValueError:
        raise AnthologyError(f"{endpoint}: the answer is not SPARQL JSON results") from None
    if kind == "ask":
        return QueryResult(kind="ask", boolean=bool(document.get("boolean")))
    variables = document["head"]["vars"]
    rows = [
        tuple(_term(b[v]) if v in b else None for v in variables)
        for b in document["results"]["bindings"]
    ]
    return QueryResult(kind="select", variables=variables, rows=rows)
