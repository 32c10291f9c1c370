"""The work limit on blank-node canonicalization (RDFC-1.0): estimated before pyoxigraph
starts, refused past the limit with exit 2 and a message; stop signals act during it."""

from __future__ import annotations

import json
import math
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyoxigraph as ox
import pytest
from conftest import cli_process, run_cli

from anthology_kg import bnodes, cli_context
from anthology_kg.bnodes import (
    CANONICAL_WORK_LIMIT,
    canonical_nquads,
    canonical_work,
    canonical_work_limit,
)
from anthology_kg.diff import parse_data
from anthology_kg.errors import CanonicalizationTooCostly
from anthology_kg.export import build_export
from anthology_kg.export_files import FolderSource
from anthology_kg.export_writers import to_nquads, to_turtle
from anthology_kg.generate import generate
from anthology_kg.turtle import split_lines

RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
HEAD = """@prefix ak: <https://w3id.org/anthology-kg/ns#> .
@prefix dcterms: <http://purl.org/dc/terms/> .
@prefix id: <https://w3id.org/anthology-kg/id/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .

id:NOTE-001 a ak:Note ;
    dcterms:identifier "NOTE-001" ;
"""
NOTE = "<https://w3id.org/anthology-kg/id/NOTE-001>"
COMMENT = "<http://www.w3.org/2000/01/rdf-schema#comment>"


def equal_values(root: Path, n: int) -> Path:
    """An anthology at ``root`` whose one entry holds an rdf:List of ``n`` equal values."""
    (root / "data").mkdir(parents=True)
    values = " ".join(['"x"'] * n)
    (root / "data" / "NOTE-001.ttl").write_text(HEAD + f"    rdfs:comment ( {values} ) .\n")
    return root


def list_quads(n: int, labels: list[str]) -> list[bnodes.QuadText]:
    """An rdf:List of ``n`` equal values hanging from NOTE-001, its nodes labelled
    ``labels`` (in list order)."""
    quads = [(NOTE, COMMENT, labels[0], "")]
    for i, node in enumerate(labels):
        rest = labels[i + 1] if i + 1 < n else f"<{RDF}nil>"
        quads += [(node, f"<{RDF}first>", '"x"', ""), (node, f"<{RDF}rest>", rest, "")]
    return quads


def blank_quads(root: Path | None) -> list[bnodes.QuadText]:
    """The blank-node quads an export of ``root`` canonicalizes."""
    export = build_export(FolderSource(root))
    lines = [line for line in export.asserted_lines if "_:" in line]
    return [(s, p, o, "<urn:x:g>") for s, p, o in split_lines(lines)]


def test_the_estimate_counts_the_tied_nodes_and_their_orders():
    # a list: its head and its last node have first-degree hashes of their own
    work = canonical_work(list_quads(40, [f"_:n{i}" for i in range(40)]))
    assert [(g.size, g.orders, g.steps) for g in work.groups] == [(38, 1, 38**3)]
    assert work.steps == 38**3
    # two alike blank nodes under one subject, each with 5 alike blank leaves: a centre
    # tries the 5! orders of its leaves
    stars = []
    for c in range(2):
        stars.append(("<http://e/s>", "<http://e/p>", f"_:a{c}", ""))
        for i in range(5):
            stars += [
                (f"_:a{c}", "<http://e/q>", f"_:c{c}x{i}", ""),
                (f"_:c{c}x{i}", "<http://e/r>", '"x"', ""),
            ]
    groups = canonical_work(stars).groups
    assert sorted((g.size, g.orders) for g in groups) == [(6, math.factorial(5))] * 2
    # no two first-degree hashes alike: nothing to estimate
    assert canonical_work(list_quads(1, ["_:n0"])).steps == 0


def test_the_estimate_does_not_depend_on_the_labels():
    labels = [f"_:n{i}" for i in range(30)]
    shuffled = labels[:]
    random.Random(7).shuffle(shuffled)
    first = canonical_work(list_quads(30, labels))
    again = canonical_work(list_quads(30, shuffled))
    assert [(g.size, g.orders, g.steps) for g in first.groups] == [
        (g.size, g.orders, g.steps) for g in again.groups
    ]


def test_the_limit_fires_through_the_library(tmp_path):
    export = build_export(FolderSource(equal_values(tmp_path, 30)))
    with canonical_work_limit(1000), pytest.raises(CanonicalizationTooCostly) as raised:
        to_nquads(export)
    error = raised.value
    assert (error.size, error.steps, error.limit) == (28, 28**3, 1000)
    assert error.where == (NOTE, COMMENT)
    # the entry's file and the line of its statement (``id:NOTE-001 a ak:Note ;``)
    assert (error.path, error.line) == (tmp_path / "data" / "NOTE-001.ttl", 6)
    assert f"28 blank nodes linked by <{RDF}rest> in the triples of" in error.message
    assert error.nested and "Write Turtle (--format turtle)" in error.message
    assert "give these nodes IRIs" in error.message
    # Turtle nests the list: no label, nothing to refuse
    with canonical_work_limit(1000):
        assert '"x"' in to_turtle(export)
    # past the default limit only: the same export is written
    assert to_nquads(export).count('"x"') == 30


def test_a_subject_no_data_file_names_is_not_placed(tmp_path):
    root = equal_values(tmp_path, 30)
    text = (root / "data" / "NOTE-001.ttl").read_text()
    (root / "data" / "NOTE-001.ttl").write_text(
        text.replace("rdfs:comment", 'rdfs:label "n" .\n<http://e/s> rdfs:comment')
    )
    export = build_export(FolderSource(root))
    with canonical_work_limit(1000), pytest.raises(CanonicalizationTooCostly) as raised:
        to_nquads(export)
    assert raised.value.where == ("<http://e/s>", COMMENT) and raised.value.path is None


def test_many_groups_are_counted_and_named_once():
    quads = []
    for k in range(40):
        labels = [f"_:k{k}n{i}" for i in range(12)]
        head = f"<http://e/s{k:02}>"
        quads += [(head if q[0] == NOTE else q[0], *q[1:]) for q in list_quads(12, labels)]
    with canonical_work_limit(1000), pytest.raises(CanonicalizationTooCostly) as raised:
        bnodes.check_canonical_work(quads)
    error = raised.value
    # the 40 lists' last nodes share a hash too: 11 tied nodes a list
    assert (error.groups, error.size, error.steps) == (40, 11, 40 * 11**3)
    assert error.where == ("<http://e/s00>", COMMENT)
    assert "(and 39 other groups)" in error.message


def test_the_limit_fires_in_diff():
    ring = "".join(f"_:b{i} <http://e/q> _:b{(i + 1) % 12} .\n" for i in range(12))
    with canonical_work_limit(100), pytest.raises(CanonicalizationTooCostly) as raised:
        parse_data(ring.encode(), "x.ttl")
    assert raised.value.size == 12 and raised.value.where is None
    assert "12 blank nodes linked by <http://e/q> look alike" in raised.value.message
    assert not raised.value.nested and "Turtle" not in raised.value.message
    assert "Give these nodes IRIs." in raised.value.message  # diff has no option
    assert parse_data(ring.encode(), "x.ttl").facts  # under the default limit


def test_export_refused_is_exit_2_and_writes_nothing(tmp_path):
    root = equal_values(tmp_path / "a", 30)
    out = tmp_path / "out" / "graph.nq"
    out.parent.mkdir()
    out.write_text("old\n")
    result = run_cli("--root", str(root), "export", "--canonical-limit", "1000", "-o", str(out))
    assert result.exit_code == 2
    assert f"NOTE-001.ttl:6: 28 blank nodes linked by <{RDF}rest> in the triples of {NOTE}" in (
        result.stderr
    )
    assert "raise the limit with --canonical-limit" in result.stderr
    assert out.read_text() == "old\n"
    assert os.listdir(out.parent) == ["graph.nq"]  # no temporary file left
    # stdout: nothing printed
    result = run_cli(
        "--root", str(root), "export", "--format", "nquads", "--canonical-limit", "1000"
    )
    assert result.exit_code == 2 and result.stdout == ""
    # 0: no limit
    result = run_cli("--root", str(root), "export", "--format", "nquads", "--canonical-limit", "0")
    assert result.exit_code == 0 and result.stdout.count('"x"') == 30


def test_the_help_names_the_default_limit():
    result = run_cli("export", "--help")
    assert f"default {CANONICAL_WORK_LIMIT}" in " ".join(result.stdout.split())


def test_the_bundled_and_a_generated_anthology_are_far_below_the_limit(tmp_path):
    generate(300, 2, tmp_path / "generated")
    for root in (None, tmp_path / "generated"):
        assert canonical_work(blank_quads(root)).steps * 1000 < CANONICAL_WORK_LIMIT


def test_the_child_process_gives_the_same_bytes(monkeypatch):
    quads = list_quads(60, [f"_:n{i}" for i in range(60)])
    monkeypatch.setattr(bnodes, "CHILD_PROCESS_STEPS", 10**18)
    here = sorted(canonical_nquads(quads).splitlines())  # (in the dataset's order)
    monkeypatch.setattr(bnodes, "CHILD_PROCESS_STEPS", 0)
    calls = []
    real_fork = os.fork
    monkeypatch.setattr(os, "fork", lambda: calls.append(1) or real_fork())
    with cli_context.command():  # a command's: a library call forks nothing
        assert sorted(canonical_nquads(quads).splitlines()) == here and calls == [1]
    assert len(here) == 121 and all(b"_:c14n" in line for line in here)
    text = b"".join(line + b"\n" for line in here)
    dataset = ox.Dataset(ox.parse(text, format=ox.RdfFormat.N_QUADS))
    dataset.canonicalize(ox.CanonicalizationAlgorithm.RDFC_1_0)  # a fixed point
    assert sorted(str(q).encode() + b" ." for q in dataset) == here


#: One process per hash seed runs each export (its arguments: JSON, one list a run) as the
#: command line does, in the process (CliRunner), and writes its exit code, standard
#: output and standard error as files ``N.code``, ``N.out``, ``N.err`` of a folder.
_EXPORTS = """
import json, sys
from pathlib import Path
from click.testing import CliRunner
from anthology_kg.cli import main
root, runs, out = sys.argv[1], json.loads(sys.argv[2]), Path(sys.argv[3])
for n, args in enumerate(runs):
    result = CliRunner().invoke(main, ["--root", root, "export", *args])
    (out / f"{n}.code").write_text(str(result.exit_code))
    (out / f"{n}.out").write_bytes(result.stdout_bytes)
    (out / f"{n}.err").write_bytes(result.stderr_bytes)
"""


def test_refusal_and_export_are_the_same_across_hash_seeds(tmp_path):
    root = equal_values(tmp_path / "a", 40)
    runs = [["--format", "nquads"], ["--format", "jsonld", "--canonical-limit", "100"]]
    outputs = {}
    for seed in ("1", "2"):
        out = tmp_path / seed
        out.mkdir()
        env = {**os.environ, "PYTHONHASHSEED": seed}
        command = [sys.executable, "-c", _EXPORTS, str(root), json.dumps(runs), str(out)]
        subprocess.run(command, env=env, check=True)
        outputs[seed] = {p.name: p.read_bytes() for p in sorted(out.iterdir())}
    assert len(outputs["1"]) == 3 * len(runs)
    assert outputs["1"] == outputs["2"]
    assert [outputs["1"][f"{n}.code"] for n in range(len(runs))] == [b"0", b"2"]


def _cpu_seconds(pid: int) -> float:
    """The user and system CPU seconds process ``pid`` has spent (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _children(pid: int) -> list[str]:
    try:
        return Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return []


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs /proc")
@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGINT])
def test_a_stop_signal_acts_during_canonicalization(tmp_path, number):
    # 350 equal values: seconds of canonicalization, run in a child process
    root = equal_values(tmp_path / "a", 350)
    out = tmp_path / "out"
    out.mkdir()
    args = ("--root", str(root), "export", "--format", "nquads", "--canonical-limit", "0")
    process = cli_process(*args, "-o", str(out / "graph.nq"), stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while not _children(process.pid) and time.monotonic() < deadline:
            assert process.poll() is None
            time.sleep(0.02)
        child = _children(process.pid)
        assert child, "no child process canonicalizing"
        # Until the child has canonicalized a while (it reads the list in ~1 ms), not a
        # fixed 0.2 s: the CPU it burns before the signal is most of what the test costs.
        while _cpu_seconds(int(child[0])) < 0.05 and time.monotonic() < deadline:
            time.sleep(0.01)
        sent = time.monotonic()
        process.send_signal(number)
        process.wait(timeout=30)
        took = time.monotonic() - sent
    finally:
        process.kill()
        process.wait()
    assert process.returncode in (128 + number, -number, 1)
    assert took < 5, took
    assert (
        not Path(f"/proc/{child[0]}").exists()
        or "Z" in Path(f"/proc/{child[0]}/stat").read_text().split()[2]
    )
    assert os.listdir(out) == []  # no file, no temporary file


def test_the_limit_bounds_the_reference_labels_of_a_cycle():
    # a cycle of alike blank nodes: colour refinement cannot split it, so each candidate
    # for the first mark was canonicalized (500 nodes: 500 runs of 1.2e8 steps each)
    q = ox.NamedNode("http://e/q")
    nodes = [ox.BlankNode(f"b{i}") for i in range(12)]
    ring = [(nodes[i], q, nodes[(i + 1) % 12]) for i in range(12)]
    with canonical_work_limit(2000), pytest.raises(CanonicalizationTooCostly) as raised:
        bnodes.ox_stable_labels(ring)
    assert raised.value.size == 11 and raised.value.steps > 2000  # the mark tells one apart
    assert len(set(bnodes.ox_stable_labels(ring).values())) == 12


def test_the_limit_fires_on_the_w3c_report_graph():
    """validate --format turtle/json-ld canonicalizes the report graph, which holds the
    blank nodes of the shapes a result names (and the data's): the same limit applies
    (it was unguarded). Here a blank source shape hangs a ring of alike nodes."""
    from anthology_kg.export import Export
    from anthology_kg.shacl import ShapesGraph
    from anthology_kg.shacl.validator import ResultRow
    from anthology_kg.w3c_report import report_lines

    q, shape = ox.NamedNode("http://e/q"), ox.BlankNode()
    ring = [ox.BlankNode() for _ in range(12)]
    triples = [(node, q, ring[(i + 1) % 12]) for i, node in enumerate(ring)]
    shapes = ShapesGraph([(shape, ox.NamedNode("http://e/p"), ring[0]), *triples])
    sh = "http://www.w3.org/ns/shacl#"
    row = ResultRow(
        focus=ox.NamedNode("http://e/a"),
        path=None,
        value=None,
        source_shape=shape,
        source_constraint_component=ox.NamedNode(sh + "NodeConstraintComponent"),
        severity=ox.NamedNode(sh + "Violation"),
    )
    export = Export(report_lines([row], shapes), [], "http://e/", "none")
    with canonical_work_limit(100), pytest.raises(CanonicalizationTooCostly) as raised:
        to_turtle(export)
    assert raised.value.size == 11  # the shape's link tells one node of the ring apart
    assert to_turtle(export).count("id:q") == 12  # under the default limit


def test_the_limit_counts_each_canonicalization_of_alike_blank_nodes():
    """Alike blank nodes that each point back at the one above them cannot be swapped as
    blocks, so they are marked one at a time, each candidate canonicalized each round:
    every canonicalization counts its quads (``bnodes.QUAD_STEPS`` each). Before, each
    was estimated at 0 steps when it tied nothing, and 60 such nodes ran 22 s under the
    default limit."""
    p, q, top = ox.NamedNode("http://e/p"), ox.NamedNode("http://e/q"), ox.BlankNode()
    triples = [(ox.NamedNode("http://e/s"), p, top)]
    for node in (ox.BlankNode() for _ in range(12)):
        triples += [(top, p, node), (node, q, top), (node, q, ox.Literal("x"))]
    with canonical_work_limit(50_000), pytest.raises(CanonicalizationTooCostly) as raised:
        bnodes.ox_stable_labels(triples)
    assert raised.value.steps > 50_000 and raised.value.size > 1
    assert len(set(bnodes.ox_stable_labels(triples).values())) == 13  # the default limit
