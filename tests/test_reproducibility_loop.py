"""The reproducibility query on a chain that comes back to its claim (hunt19 #5): two
claims resting on each other's entries. The claim's own link is hop 0 and the claim is
no node between (every link was hop 4, the claim's own too), alike on both engines, on
an Oxigraph server and on Virtuoso."""

from __future__ import annotations

import shutil
from pathlib import Path

import pyoxigraph as ox
import pytest
from stores import put_graph

from anthology_kg.endpoint import Connection, Credentials, run_remote
from anthology_kg.engine import open_engine
from anthology_kg.local_query import run_local
from anthology_kg.queries import find_query
from anthology_kg.resources import bundled_dir
from anthology_kg.triplestore import query_url

ID = "https://w3id.org/anthology-kg/id/"
AK = "https://w3id.org/anthology-kg/ns#"
ENTRY = """@prefix ak: <https://w3id.org/anthology-kg/ns#> .
@prefix dcterms: <http://purl.org/dc/terms/> .
@prefix id: <https://w3id.org/anthology-kg/id/> .

id:{me} a ak:LiteratureRecord ;
    dcterms:identifier "{me}" ;
    ak:category ak:method ;
    ak:readingStatus ak:unread ;
    ak:makesClaim id:{me}-c .

id:{me}-c a ak:ReproducibilityClaim ;
    ak:restsOn id:{other} .
"""
GRAPH = "urn:test:reproducibility-loop"


@pytest.fixture(scope="module")
def loop(tmp_path_factory) -> Path:
    """The bundled data, and LIT-300 and LIT-301 whose claims rest on each other's entry."""
    root = tmp_path_factory.mktemp("loop")
    shutil.copytree(bundled_dir() / "data", root / "data")
    for me, other in (("LIT-300", "LIT-301"), ("LIT-301", "LIT-300")):
        text = ENTRY.format(me=me, other=other)
        (root / "data" / f"{me}.ttl").write_text(text, encoding="utf-8")
    return root


def rows(result) -> list[tuple[str, ...]]:
    """The rows of claim, hop, from, link and to, IRIs without their namespace."""
    columns = [result.variables.index(v) for v in ("claim", "hop", "from", "link", "to")]
    short = [lambda n: str(n).replace(ID, "").replace(AK, "ak:")]
    return [tuple(short[0](row[i]) for i in columns) for row in result.rows]


def answered(root: Path, engine: str):
    anthology = open_engine(engine, root=root)
    return run_local(anthology, find_query(anthology, "reproducibility").text)


#: Each claim's own link at 0; the other links of the loop count the loop's three other
#: nodes (a path cannot tell those before a link from those after it); LIT-168's chain,
#: which does not come back, keeps its depths.
EXPECTED = [
    ("LIT-168-reproducible", "0", "LIT-168-reproducible", "ak:restsOn", "CODEBASE-verl"),
    ("LIT-168-reproducible", "1", "CODEBASE-verl", "ak:describedIn", "ARXIV-2409.19256"),
    ("LIT-300-c", "0", "LIT-300-c", "ak:restsOn", "LIT-301"),
    ("LIT-300-c", "3", "LIT-300", "ak:makesClaim", "LIT-300-c"),
    ("LIT-300-c", "3", "LIT-301", "ak:makesClaim", "LIT-301-c"),
    ("LIT-300-c", "3", "LIT-301-c", "ak:restsOn", "LIT-300"),
    ("LIT-301-c", "0", "LIT-301-c", "ak:restsOn", "LIT-300"),
    ("LIT-301-c", "3", "LIT-300", "ak:makesClaim", "LIT-300-c"),
    ("LIT-301-c", "3", "LIT-300-c", "ak:restsOn", "LIT-301"),
    ("LIT-301-c", "3", "LIT-301", "ak:makesClaim", "LIT-301-c"),
]


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_a_loop_back_to_the_claim_starts_at_hop_0(loop, engine):
    assert rows(answered(loop, engine)) == EXPECTED


def _remote_rows(loop: Path, sparql: str, graph_store: str, connection: Connection | None):
    """The query's rows from a store holding the loop's data and ontology in GRAPH."""
    anthology = open_engine(root=loop)
    triples = [quad.triple for quad in anthology.quads(("data", "ontology"))]
    turtle = ox.serialize(triples, format=ox.RdfFormat.N_TRIPLES).decode()
    put_graph(graph_store, GRAPH, turtle, connection)
    text = find_query(anthology, "reproducibility").text
    return run_remote(query_url(sparql, [GRAPH]), text, connection=connection)


def test_a_loop_back_to_the_claim_on_an_oxigraph_server(loop):
    import test_server

    if test_server.OXIGRAPH is None:
        pytest.skip("the oxigraph server binary is not installed (pip install oxigraph)")
    with test_server.running_oxigraph() as base:
        remote = _remote_rows(loop, f"{base}/query", f"{base}/store", None)
    assert rows(remote) == EXPECTED


def test_a_loop_back_to_the_claim_on_virtuoso(loop, virtuoso):
    dba = Connection(method="form", credentials=Credentials(virtuoso.user, virtuoso.password))
    remote = _remote_rows(loop, virtuoso.sparql, virtuoso.graph_store, dba)
    assert rows(remote) == EXPECTED
