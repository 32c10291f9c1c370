"""The names and defaults the command line offers: engines, formats, methods, graphs.

They live here, in a module that imports nothing, so that building the command line
(``--version``, ``--help``, every option's choices) loads no RDF library; the modules
that implement them import their names from here. Where the choices are the keys of a
table of writers, the table stays with its writers and a test holds the two equal
(tests/test_imports.py).
"""

from __future__ import annotations

#: The engine names ``--engine`` takes; the first is the default (engine.open_engine).
ENGINES = ("fast", "reference")

#: The namespace of entry IRIs: an entry's IRI is this base plus its identifier.
DEFAULT_BASE = "https://w3id.org/anthology-kg/id/"

#: The named graphs ``publish`` writes to (triplestore.py) and ``serve`` exposes (server.py).
GRAPH_BASE = "https://w3id.org/anthology-kg/graph/"
DATA_GRAPH = GRAPH_BASE + "data"
ONTOLOGY_GRAPH = GRAPH_BASE + "ontology"
SHAPES_GRAPH = GRAPH_BASE + "shapes"


def graph_names(data_graph: str = DATA_GRAPH) -> dict[str, str]:
    """The named graph of each part of the anthology in a store; an AnthologyError when
    ``data_graph`` is the ontology's or the shapes' (one graph would hold, or be replaced
    by, two parts)."""
    names = {"ontology": ONTOLOGY_GRAPH, "shapes": SHAPES_GRAPH}
    for part, graph_iri in names.items():
        if data_graph == graph_iri:
            from .errors import AnthologyError  # not at the top: see the docstring

            raise AnthologyError(
                f"<{data_graph}> is the {part} graph; the data needs a graph of its own"
            )
    return {"data": data_graph, **names}


#: A local query or validation gives up after this many seconds (guards.bounded).
QUERY_TIMEOUT = 300.0
#: An HTTP request to a store gives up after this many seconds (endpoint.py).
HTTP_TIMEOUT = 60.0
#: How a query is sent to a store: ``post`` (the query as the body), ``form``
#: (URL-encoded POST), ``get``; ``auto`` tries ``post`` and falls back to ``form`` when
#: the store refuses it or does not start answering (endpoint.py).
METHODS = ("auto", "post", "form", "get")

#: ``validate --inference`` (reference_shacl.py) and ``export --inferred`` (export_inference.py).
INFERENCE_CHOICES = ("none", "rdfs", "owlrl")
#: ``export --format`` (export_writers.WRITERS).
EXPORT_FORMATS = ("turtle", "ntriples", "nquads", "jsonld", "rdfxml")
#: ``query --format`` and ``sparql --format`` (results.py).
RESULT_FORMATS = ("table", "csv", "tsv", "json", "xml")
#: ``validate --format``: the report writers (reports.WRITERS) and the W3C report
#: graph writers (w3c_report.WRITERS).
REPORT_FORMATS = ("text", "json", "github", "junit", "sarif")
SHACL_REPORT_FORMATS = ("turtle", "jsonld")
#: ``diff --format`` (diffreport.WRITERS), and with ``--query`` (diffreport.QUERY_WRITERS).
DIFF_FORMATS = ("text", "markdown", "json", "nquads")
QUERY_DIFF_FORMATS = ("text", "markdown", "json")
#: ``new KIND`` (authoring.KINDS).
ENTRY_KINDS = ("reference", "lit", "adr", "sota", "note")
#: ``generate --entries``: the fewest and the most entries it writes. Ten million files
#: are some 40 GB and hours of writing: a larger count is likelier a typo than a wish,
#: and far enough above it the generator would break its own contract (references
#: numbered past ARXIV-9999.99999 leave their identifier's form).
MIN_ENTRIES, MAX_ENTRIES = 20, 10_000_000
