"""The W3C SHACL test suite (core and SPARQL-based) on the validation engines.

Each ``sht:Validate`` test of ``tests/w3c/shacl-tests`` (manifests followed through
``mf:include``) is run and the produced report compared with ``mf:result``: the same
``sh:conforms``, and result graphs isomorphic once ``sh:resultMessage`` is dropped.
Tests an engine does not pass are listed in ``tests/w3c/expected-failures.txt`` with a
reason; a listed test that passes fails the run (strict), so that both a regression
and an improvement show.
"""

from __future__ import annotations

from pathlib import Path

import pyoxigraph as ox
import pytest
from rdflib import RDF, BNode, Graph, Literal, Namespace, URIRef
from rdflib.compare import isomorphic
from rdflib.namespace import SH

from anthology_kg.literals import literals_as_written
from anthology_kg.reference_shacl import shacl_report
from anthology_kg.shacl import validate_graphs

W3C = Path(__file__).parent / "w3c"
SUITE = W3C / "shacl-tests"
EXPECTED_FAILURES = W3C / "expected-failures.txt"
MF = Namespace("http://www.w3.org/2001/sw/DataAccess/tests/test-manifest#")
SHT = Namespace("http://www.w3.org/ns/shacl-test#")
ENGINES = {"reference": shacl_report, "fast": validate_graphs}
# What a report says of each result; sh:resultMessage is free text and not compared.
RESULT_TERMS = (
    SH.focusNode,
    SH.resultPath,
    SH.value,
    SH.resultSeverity,
    SH.sourceConstraintComponent,
    SH.sourceShape,
)


def _parse(path: Path, cache: dict[Path, Graph]) -> Graph:
    if path not in cache:
        with literals_as_written():  # the suite's literals as the files write them
            cache[path] = Graph().parse(path, format="turtle", publicID=path.as_uri())
    return cache[path]


def collect(manifest: Path) -> list[tuple[str, dict]]:
    """Every Validate test under ``manifest``: (name relative to the suite, details).

    The manifests are read with pyoxigraph, which parses them ~10 times faster than
    rdflib: every test process collects all of them, while a test's own files are parsed
    with rdflib (``_parse``) only by the process that runs it."""
    store = ox.Store()
    store.bulk_load(path=manifest, format=ox.RdfFormat.TURTLE, base_iri=manifest.as_uri())

    def objects(subject, predicate: URIRef) -> list:
        return [q.object for q in store.quads_for_pattern(subject, ox.NamedNode(predicate), None)]

    def path(action, predicate: URIRef) -> Path:
        (node,) = objects(action, predicate)
        return Path(node.value.removeprefix("file://"))

    tests = []
    for include in sorted(objects(None, MF.include), key=lambda node: node.value):
        tests += collect(Path(include.value.removeprefix("file://")))
    for entries in objects(None, MF.entries):
        while entries != ox.NamedNode(RDF.nil):
            (test,) = objects(entries, RDF.first)
            (entries,) = objects(entries, RDF.rest)
            if ox.NamedNode(SHT.Validate) not in objects(test, RDF.type):
                continue
            (action,) = objects(test, MF.action)
            data, shapes = path(action, SHT.dataGraph), path(action, SHT.shapesGraph)
            name = (
                f"{manifest.parent.relative_to(SUITE).as_posix()}/{test.value.rsplit('/', 1)[-1]}"
            )
            details = {"file": manifest, "test": URIRef(test.value), "data": data, "shapes": shapes}
            tests.append((name, details))
    return tests


def _copy(source: Graph, node, target: Graph, skolem: set):
    """``node`` as it goes into a comparable report: a blank node of the test's own
    graphs becomes an IRI naming it; a path or list structure is copied with fresh
    blank nodes, so that where it was written does not matter."""
    if isinstance(node, BNode):
        if (
            (node, RDF.first, None) in source
            or (node, SH.inversePath, None) in source
            or (node, SH.alternativePath, None) in source
            or any(
                (node, p, None) in source
                for p in (SH.zeroOrMorePath, SH.oneOrMorePath, SH.zeroOrOnePath)
            )
        ):
            fresh = BNode()
            for p, o in source.predicate_objects(node):
                target.add((fresh, p, _copy(source, o, target, skolem)))
            return fresh
        if node in skolem:
            return URIRef(f"urn:bnode:{node}")
    return node


def comparable(report: Graph, report_node, skolem: set) -> Graph:
    """A graph of the report's conforms flag and results, without messages."""
    out = Graph()
    root = BNode()
    out.add((root, RDF.type, SH.ValidationReport))
    conforms = report.value(report_node, SH.conforms)
    out.add((root, SH.conforms, Literal(bool(conforms.toPython()))))
    for result in report.objects(report_node, SH.result):
        node = BNode()
        out.add((root, SH.result, node))
        out.add((node, RDF.type, SH.ValidationResult))
        for term in RESULT_TERMS:
            for value in report.objects(result, term):
                out.add((node, term, _copy(report, value, out, skolem)))
    return out


def _expected_failures() -> dict[tuple[str, str], str]:
    listed = {}
    for line in EXPECTED_FAILURES.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        head, _, reason = line.partition("#")
        engine, name = head.split()
        if engine != "writers":  # the result-format writers' lines: test_w3c_results
            listed[(engine, name)] = reason.strip()
    return listed


CACHE: dict[Path, Graph] = {}
TESTS = collect(SUITE / "core" / "manifest.ttl") + collect(SUITE / "sparql" / "manifest.ttl")
LISTED = _expected_failures()


def _copy_of(path: Path) -> Graph:
    """A copy of the cached parse: the same blank nodes and prefix bindings."""
    source = _parse(path, CACHE)
    graph = Graph()
    for prefix, namespace in source.namespaces():
        graph.bind(prefix, namespace, override=True)
    graph += source
    return graph


def run_case(engine: str, details: dict) -> tuple[bool, str]:
    """Run one test on ``engine``; return (passed, what differs)."""
    data = _copy_of(details["data"])
    shapes = data if details["shapes"] == details["data"] else _copy_of(details["shapes"])
    manifest = _parse(details["file"], CACHE)
    expected_node = manifest.value(details["test"], MF.result)
    try:
        _, report = ENGINES[engine](data, shapes)
    except Exception as exc:
        # sht:Failure: the engine must refuse the shapes (unsupported SPARQL, say).
        if expected_node == SHT.Failure:
            return True, ""
        return False, f"engine error: {type(exc).__name__}: {exc}"
    if expected_node == SHT.Failure:
        return False, "the engine accepted shapes the test expects it to refuse"
    (report_node,) = report.subjects(RDF.type, SH.ValidationReport)
    # Blank nodes that the expected report can share with the data and shapes graphs.
    skolem = {n for g in (manifest, data, shapes) for t in g for n in t if isinstance(n, BNode)}
    expected = comparable(manifest, expected_node, skolem)
    produced = comparable(report, report_node, skolem)
    if isomorphic(expected, produced):
        return True, ""
    flag_e = next(expected.objects(None, SH.conforms))
    flag_p = next(produced.objects(None, SH.conforms))
    counts = (
        len(list(expected.objects(None, SH.result))),
        len(list(produced.objects(None, SH.result))),
    )
    return (
        False,
        f"conforms {flag_p} (expected {flag_e}); results {counts[1]} (expected {counts[0]})",
    )


@pytest.mark.parametrize("engine", sorted(ENGINES))
@pytest.mark.parametrize(("name", "details"), TESTS, ids=[t[0] for t in TESTS])
def test_w3c_shacl(engine, name, details, conformance):
    passed, why = run_case(engine, details)
    suite = f"W3C SHACL ({engine} engine, {name.split('/', 1)[0]})"
    listed = (engine, name) in LISTED
    if passed:
        conformance(suite, "passed")
        assert not listed, f"{name} passes now: remove it from {EXPECTED_FAILURES.name}"
    else:
        if listed:
            conformance(suite, "expected failures")
            pytest.xfail(LISTED[(engine, name)])
        conformance(suite, "failed")
        pytest.fail(f"{name} on the {engine} engine: {why}")


def test_expected_failures_name_real_tests():
    names = {name for name, _ in TESTS}
    for engine, name in LISTED:
        assert engine in ENGINES and name in names, (engine, name)
