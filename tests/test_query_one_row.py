"""One entry is one row of unread and by-category, one question one label of
open-questions (hunt23 #2): an entry typed from another vocabulary too (`a ak:Reference,
schema:ScholarlyArticle`) was two rows of each, by-category's count saying 1, and a
question labelled in two languages was each of its rows twice. Of several most specific
classes, one of ak: comes before another vocabulary's, then the first by IRI; of
several labels, the one with no language tag, else an English one. Alike on both
engines, on an Oxigraph server and on Virtuoso."""

from __future__ import annotations

import csv
import io
import shutil
from collections import Counter
from pathlib import Path

import pyoxigraph as ox
import pytest
from conftest import run_cli
from stores import put_graph

from anthology_kg.endpoint import Connection, Credentials, run_remote
from anthology_kg.engine import open_engine
from anthology_kg.queries import find_query
from anthology_kg.resources import bundled_dir
from anthology_kg.triplestore import query_url

ID = "https://w3id.org/anthology-kg/id/"
AK = "https://w3id.org/anthology-kg/ns#"
GRAPH = "urn:test:query-one-row"
NAMES = ("unread", "by-category", "open-questions")

OTHERS = """@prefix ak: <https://w3id.org/anthology-kg/ns#> .
@prefix bibo: <http://purl.org/ontology/bibo/> .
@prefix dcterms: <http://purl.org/dc/terms/> .
@prefix ex: <https://example.org/> .
@prefix id: <https://w3id.org/anthology-kg/id/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix schema: <http://schema.org/> .

ex:Survey rdfs:subClassOf ak:LiteratureRecord .
id:LIT-901 a ex:Survey, schema:ScholarlyArticle ;
    dcterms:identifier "LIT-901" ;
    ak:category ak:method ;
    ak:readingStatus ak:unread ;
    dcterms:title "A survey" .
id:LIT-902 a schema:ScholarlyArticle, bibo:Article ;
    dcterms:identifier "LIT-902" ;
    ak:category ak:method ;
    ak:readingStatus ak:unread ;
    dcterms:title "No class of ours" .
id:QUESTION-baselines-on-verl
    rdfs:label "Les références ont-elles tourné sur verl ?"@fr .
"""


@pytest.fixture(scope="module")
def others(tmp_path_factory) -> Path:
    """The bundled data; the seed entry also a schema:ScholarlyArticle, its open
    question labelled in French too, and two unread entries of other vocabularies."""
    root = tmp_path_factory.mktemp("one-row")
    shutil.copytree(bundled_dir() / "data", root / "data")
    seed = root / "data" / "ARXIV-2409.19256.ttl"
    text = seed.read_text(encoding="utf-8")
    assert "id:ARXIV-2409.19256 a ak:Reference ;" in text
    seed.write_text(
        text.replace(
            "id:ARXIV-2409.19256 a ak:Reference ;",
            "id:ARXIV-2409.19256 a ak:Reference, <http://schema.org/ScholarlyArticle> ;",
        ),
        encoding="utf-8",
    )
    (root / "data" / "LIT-901.ttl").write_text(OTHERS, encoding="utf-8")
    return root


def short(value: str) -> str:
    return value.replace(ID, "").replace(AK, "ak:")


def answer(root: Path, name: str, *options: str) -> list[tuple[str, ...]]:
    result = run_cli("--root", str(root), "query", name, "--format", "csv", *options)
    assert result.exit_code == 0, result.output
    return [tuple(map(short, row)) for row in list(csv.reader(io.StringIO(result.stdout)))[1:]]


VERL = "Were the GRPO and PPO baselines (the published checkpoints in SOTA-154) run on verl?"
UNREAD = [
    ("ARXIV-2409.19256", "ak:Reference", "ak:infrastructure", ""),
    ("LIT-901", "http://schema.org/ScholarlyArticle", "ak:method", "A survey"),
    ("LIT-902", "http://purl.org/ontology/bibo/Article", "ak:method", "No class of ours"),
]
OPEN_QUESTIONS = [
    ("QUESTION-baselines-on-verl", VERL, f"COMPARISON-es-baselines-{arm}", "ak:trainedWith",
     "ARXIV-2409.19256")
    for arm in ("grpo", "ppo")
]  # fmt: skip


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_one_row_an_entry_and_a_question(others, engine):
    option = ("--engine", engine)
    assert answer(others, "unread", *option) == UNREAD
    by_category = answer(others, "by-category", *option)
    rows = Counter((category, entry) for category, _, entry, _, _ in by_category)
    assert max(rows.values()) == 1
    for category, count, *_ in by_category:
        assert int(count) == sum(1 for c, _ in rows if c == category)
    assert ("ak:infrastructure", "1", "ARXIV-2409.19256", "ak:Reference", "ak:unread") in (
        by_category
    )
    assert ("ak:method", "LIT-902", "http://purl.org/ontology/bibo/Article") in {
        (row[0], row[2], row[3]) for row in by_category
    }
    assert answer(others, "open-questions", *option) == OPEN_QUESTIONS


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_an_entailed_class_of_ak_is_chosen_alike(others, engine):
    """With --inference, LIT-902 is also an ak:Entry (the domain of ak:category), which
    then comes first; every other row is as without."""
    got = answer(others, "unread", "--engine", engine, "--inference", "rdfs")
    assert got == [*UNREAD[:2], ("LIT-902", "ak:Entry", "ak:method", "No class of ours")]


def _remote(root: Path, sparql: str, graph_store: str, connection) -> dict[str, list]:
    anthology = open_engine(root=root)
    triples = [quad.triple for quad in anthology.quads(("data", "ontology"))]
    turtle = ox.serialize(triples, format=ox.RdfFormat.N_TRIPLES).decode()
    put_graph(graph_store, GRAPH, turtle, connection)
    answers = {}
    for name in NAMES:
        result = run_remote(
            query_url(sparql, [GRAPH]), find_query(anthology, name).text, connection=connection
        )
        answers[name] = [
            tuple("" if v is None else short(str(v)) for v in row) for row in result.rows
        ]
    return answers


def _local(root: Path) -> dict[str, list]:
    return {name: answer(root, name) for name in NAMES}


def test_an_oxigraph_server_gives_one_row_too(others):
    import test_server

    if test_server.OXIGRAPH is None:
        pytest.skip("the oxigraph server binary is not installed (pip install oxigraph)")
    with test_server.running_oxigraph() as base:
        got = _remote(others, f"{base}/query", f"{base}/store", None)
    assert got == _local(others)


def test_virtuoso_gives_one_row_too(others, virtuoso):
    dba = Connection(method="form", credentials=Credentials(virtuoso.user, virtuoso.password))
    assert _remote(others, virtuoso.sparql, virtuoso.graph_store, dba) == _local(others)


IRI_VALUES = """@prefix ak: <https://w3id.org/anthology-kg/ns#> .
@prefix dcterms: <http://purl.org/dc/terms/> .
@prefix id: <https://w3id.org/anthology-kg/id/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .

id:LIT-903 a ak:LiteratureRecord ;
    dcterms:identifier "LIT-903" ;
    ak:category ak:method ;
    ak:readingStatus ak:unread ;
    dcterms:title <http://example.org/iri-title>, "A title" .
id:QUESTION-baselines-on-verl rdfs:label <http://example.org/iri-label> .
"""


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_a_label_or_title_that_is_an_iri_is_none(tmp_path, engine):
    """review49 #14: the key of an IRI label is an error, neither before nor after
    another's, so the question was two rows (one with the IRI as its label), and an
    entry with an IRI title two rows of unread."""
    root = tmp_path / "iri"
    shutil.copytree(bundled_dir() / "data", root / "data")
    (root / "data" / "LIT-903.ttl").write_text(IRI_VALUES, encoding="utf-8")
    option = ("--engine", engine)
    assert answer(root, "open-questions", *option) == OPEN_QUESTIONS
    unread = answer(root, "unread", *option)
    assert [row for row in unread if row[0] == "LIT-903"] == [
        ("LIT-903", "ak:LiteratureRecord", "ak:method", "A title")
    ]
