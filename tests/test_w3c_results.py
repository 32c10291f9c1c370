"""The W3C SPARQL 1.1 CSV/TSV and JSON result-format tests on the project's writers.

Each test query runs on its data with rdflib; the project's writer must give the
expected file: CSV and TSV exactly (blank-node labels aside, which are the writer's
choice), JSON as parsed structures. Gaps are listed in tests/w3c/expected-failures.txt
under the engine name ``writers``.
"""

import json
import re
from pathlib import Path

import pytest
from rdflib import Graph, Namespace

from anthology_kg.literals import literals_as_written
from anthology_kg.rdflib_sparql import evaluate
from anthology_kg.results import to_csv, to_json, to_tsv

W3C = Path(__file__).parent / "w3c"
SUITE = W3C / "sparql-results"
MF = Namespace("http://www.w3.org/2001/sw/DataAccess/tests/test-manifest#")
QT = Namespace("http://www.w3.org/2001/sw/DataAccess/tests/test-query#")
LISTED = {}
for line in (W3C / "expected-failures.txt").read_text(encoding="utf-8").splitlines():
    if line.startswith("writers "):
        head, _, reason = line.partition("#")
        LISTED[head.split()[1]] = reason.strip()


def collect():
    tests = []
    for folder in ("csv-tsv-res", "json-res"):
        manifest = SUITE / folder / "manifest.ttl"
        graph = Graph().parse(manifest, format="turtle", publicID=manifest.as_uri())
        for entries in graph.objects(None, MF.entries):
            for test in graph.collection(entries):
                action = graph.value(test, MF.action)
                files = {
                    "query": graph.value(action, QT.query),
                    "data": graph.value(action, QT.data),
                    "result": graph.value(test, MF.result),
                }
                paths = {k: Path(str(v).removeprefix("file://")) for k, v in files.items()}
                tests.append((str(test).rsplit("#", 1)[-1], paths))
    return tests


TESTS = collect()


def _blank_labels_in_order(text: str) -> str:
    labels: dict[str, str] = {}
    return re.sub(
        r"_:([A-Za-z0-9]+)", lambda m: "_:" + labels.setdefault(m[1], f"b{len(labels)}"), text
    )


def _json_blank_labels_in_order(document):
    labels: dict[str, str] = {}
    for binding in document.get("results", {}).get("bindings", []):
        for term in binding.values():
            if term["type"] == "bnode":
                term["value"] = labels.setdefault(term["value"], f"b{len(labels)}")
    return document


def produce(paths: dict) -> tuple[str, str]:
    with literals_as_written():  # the expected results show the lexical forms as written
        graph = Graph().parse(paths["data"], format="turtle")
    result = evaluate(graph, paths["query"].read_text(encoding="utf-8"))
    expected = paths["result"].read_text(encoding="utf-8")
    suffix = paths["result"].suffix
    if suffix == ".csv":
        # The recommendation ends CSV lines with CRLF, as the writer does; the copy of
        # the expected files in the W3C repository has LF line ends.
        return to_csv(result).replace("\r\n", "\n"), expected
    if suffix == ".tsv":
        return to_tsv(result), expected
    return to_json(result), expected


def matches(paths: dict, got: str, expected: str) -> bool:
    if paths["result"].suffix == ".srj":
        return _json_blank_labels_in_order(json.loads(got)) == _json_blank_labels_in_order(
            json.loads(expected)
        )
    return _blank_labels_in_order(got).rstrip("\n") == _blank_labels_in_order(expected).rstrip("\n")


@pytest.mark.parametrize(("name", "paths"), TESTS, ids=[t[0] for t in TESTS])
def test_w3c_result_format(name, paths, conformance):
    got, expected = produce(paths)
    suite = "W3C SPARQL result formats (writers)"
    if matches(paths, got, expected):
        conformance(suite, "passed")
        assert name not in LISTED, f"{name} passes now: remove it from expected-failures.txt"
        return
    if name in LISTED:
        conformance(suite, "expected failures")
        pytest.xfail(LISTED[name])
    conformance(suite, "failed")
    pytest.fail(f"{name}:\n--- expected\n{expected}\n--- got\n{got}")


def test_the_suite_is_all_there():
    assert len(TESTS) == 10
