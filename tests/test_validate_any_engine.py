"""``validate(open_engine(root=…))``, the call the library's docstrings show, gives the
results the command line gives (``open_engine(validates=True)``): where the fast engine
cannot validate as SHACL reads the shapes and the data (a literal its store holds in
another form than written and a shape reads as written, a shape its compiler refuses),
``validate`` validates on the reference engine and says so (hunt20 #2)."""

from __future__ import annotations

from dataclasses import astuple
from pathlib import Path

import pytest
from test_literal_terms import CASES, PREFIXES

import anthology_kg as ak

#: A case of each other reason: a shape the compiler refuses (a recursive shape).
RECURSIVE = (
    "ex:S a sh:NodeShape ; sh:targetClass ex:T ;\n"
    "  sh:property [ sh:path ex:n ; sh:node ex:S ; sh:maxCount 1 ] .\n",
    "ex:a a ex:T ; ex:n ex:a, ex:b .\n",
)


def _anthology(tmp_path: Path, shapes: str, data: str) -> Path:
    (tmp_path / "data").mkdir(parents=True)
    (tmp_path / "data" / "X-1.ttl").write_text(PREFIXES + data, encoding="utf-8")
    (tmp_path / "ontology" / "shapes").mkdir(parents=True)
    (tmp_path / "ontology" / "shapes" / "s.ttl").write_text(PREFIXES + shapes, encoding="utf-8")
    return tmp_path


def _results(report) -> list[tuple]:
    return [astuple(result) for result in report.results]


@pytest.mark.parametrize(
    "case", [*sorted(CASES), "recursive shape"], ids=[*sorted(CASES), "recursive shape"]
)
def test_validate_gives_the_results_of_an_engine_opened_to_validate(tmp_path, case):
    shapes, data = RECURSIVE if case == "recursive shape" else CASES[case][:2]
    root = _anthology(tmp_path, shapes, data)
    said: list[str] = []
    expected = ak.validate(ak.open_engine(root=root, validates=True, warn=said.append))
    assert said and said[0].endswith("using the reference engine")
    with pytest.warns(UserWarning, match="; using the reference engine") as warned:
        report = ak.validate(ak.open_engine(root=root))
    assert [str(w.message) for w in warned] == said
    assert _results(report) == _results(expected)
    assert report.engine.name == "reference"


def test_validate_keeps_the_fast_engine_that_can_validate(tmp_path, recwarn):
    root = _anthology(
        tmp_path,
        "ex:S a sh:NodeShape ; sh:targetClass ex:T ;\n"
        "  sh:property [ sh:path ex:e ; sh:maxCount 1 ] .\n",
        "ex:a a ex:T ; ex:e 1, 2 .\n",
    )
    engine = ak.open_engine(root=root)
    report = ak.validate(engine)
    assert report.engine is engine and recwarn.list == []
    expected = ak.validate(ak.open_engine("reference", root=root))
    assert _results(report) == _results(expected) and report.count("Violation") == 1
