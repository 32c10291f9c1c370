"""A SPARQL query run on the local anthology with whichever engine holds it, under the
local limits: the network (``SERVICE``) only when the user allows it."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from .sparql_text import check_bindings

if TYPE_CHECKING:
    from rdflib.term import Node

    from .engine import Engine
    from .query_result import QueryResult


def run_local(
    anthology: Engine,
    text: str,
    bindings: Mapping[str, Node] | None = None,
    source: str | Path | None = None,
    *,
    allow_service: bool = False,
) -> QueryResult:
    """Run ``text`` on the anthology's data, ontology and shapes, with its engine. A
    query calling a remote endpoint (SERVICE) is an AnthologyError unless
    ``allow_service`` (``Engine.query``): a local query reaches the network only when
    the user asks. A name of ``bindings`` that is not a SPARQL variable name is an
    AnthologyError, on every engine (one written into the query's text could add to it),
    and so is a value that is not an rdflib IRI or literal: a blank node, which no query
    can name (``sparql_text.check_bindings``), or no RDF term."""
    check_bindings(bindings or {})
    return anthology.query(text, bindings, source, allow_service=allow_service)
