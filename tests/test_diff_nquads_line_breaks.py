"""`diff --format nquads` keeps each statement on its line when a literal holds a
character str.splitlines breaks at (hunt2 F11): U+2028, U+2029, U+0085 and the C0
separators are written raw inside N-Quads literals; the patch reads back into the two
graphs."""

from __future__ import annotations

import pyoxigraph as ox
from conftest import run_cli

from anthology_kg.diffreport import ADDED_GRAPH, REMOVED_GRAPH

ENTRY = "https://w3id.org/anthology-kg/id/X"
OLD = f'<{ENTRY}> <urn:x:p> "a" .\n<{ENTRY}> <urn:x:q> "kept" .\n'
NEW = (
    f'<{ENTRY}> <urn:x:p> "a\\u2028b\\u2029c\\u0085d\\u000Be\\u000Cf\\u001Cg\\u001Dh\\u001Ei" .\n'
    f'<{ENTRY}> <urn:x:q> "kept" .\n'
)


def triples(text: str) -> set[ox.Triple]:
    return {
        ox.Triple(t.subject, t.predicate, t.object) for t in ox.parse(text, ox.RdfFormat.TURTLE)
    }


def test_the_patch_reads_back_into_the_two_graphs(tmp_path):
    for name, text in (("old", OLD), ("new", NEW)):
        (tmp_path / name / "data").mkdir(parents=True)
        (tmp_path / name / "data" / "X.ttl").write_text(text, "utf-8")
    result = run_cli("diff", str(tmp_path / "old"), str(tmp_path / "new"), "--format", "nquads")
    assert result.exit_code == 1, result.output
    patch = result.stdout.encode("utf-8")
    assert patch.count(b"\n") == 2  # one statement a line
    quads = list(ox.parse(patch, ox.RdfFormat.N_QUADS))
    by_graph = {
        graph: {
            ox.Triple(q.subject, q.predicate, q.object)
            for q in quads
            if q.graph_name.value == graph
        }
        for graph in (REMOVED_GRAPH, ADDED_GRAPH)
    }
    old, new = triples(OLD), triples(NEW)
    assert by_graph[REMOVED_GRAPH] == old - new
    assert by_graph[ADDED_GRAPH] == new - old
    assert len(quads) == 2
