"""Differential test: the fast engine gives exactly the reference engine's answers."""

import json
from pathlib import Path

import pytest
from conftest import FIXTURES

from anthology_kg.fast import load_fast
from anthology_kg.generate import generate
from anthology_kg.loader import load_anthology
from anthology_kg.queries import bind_params, catalog, run_local
from anthology_kg.resources import bundled_dir
from anthology_kg.validation import validate

ROOTS = [
    bundled_dir(),
    FIXTURES / "minimal",
    FIXTURES / "queries-trained",
    FIXTURES / "queries-two",
    *sorted((FIXTURES / "rules").iterdir()),
]
SEEDS = [1, 2, 3, 4, 5]


def results(anthology):
    return sorted(
        tuple(
            "" if v is None else str(v)
            for v in (r.focus, r.path, r.value, r.shape, r.severity, r.file, r.line)
        )
        for r in validate(anthology).results
    )


def answers(anthology):
    out = {}
    entry = next(iter(dict(anthology.entries()).values()), None)
    for name, stored in catalog(anthology).items():
        values = {p.name: entry for p in stored.params}
        result = run_local(anthology, stored.text, bind_params(anthology, stored, values))
        out[name] = (result.variables, result.rows)
    return out


@pytest.mark.parametrize("root", ROOTS, ids=lambda p: p.name)
def test_same_results_on_every_fixture(root):
    reference, fast = load_anthology(root), load_fast(root)
    assert results(fast) == results(reference)
    assert answers(fast) == answers(reference)


@pytest.fixture(scope="module", params=SEEDS)
def generated(request, tmp_path_factory):
    out = tmp_path_factory.mktemp(f"seed{request.param}")
    generate(200, request.param, out, violations=18)
    return out


def test_same_results_on_generated_anthologies_with_planted_violations(generated):
    reference, fast = load_anthology(generated), load_fast(generated)
    got = results(fast)
    assert got == results(reference)
    expected = json.loads((generated / "expected-violations.json").read_text("utf-8"))
    assert sorted((r[0], r[3]) for r in got) == sorted((e["focus"], e["shape"]) for e in expected)
    assert len(expected) == 18
    assert answers(fast) == answers(reference)


def test_generate_is_reproducible(tmp_path):
    generate(200, 7, tmp_path / "a", violations=9)
    generate(200, 7, tmp_path / "b", violations=9)
    files = sorted(p.name for p in (tmp_path / "a" / "data").iterdir())
    assert files == sorted(p.name for p in (tmp_path / "b" / "data").iterdir())
    for name in files:
        assert (tmp_path / "a" / "data" / name).read_bytes() == (
            tmp_path / "b" / "data" / name
        ).read_bytes()


def test_fast_engine_reports_syntax_errors_with_file_and_line():
    from anthology_kg.errors import AnthologyError

    with pytest.raises(AnthologyError) as info:
        load_fast(FIXTURES / "broken-syntax")
    assert Path(info.value.path).name == "LIT-001.ttl" and info.value.line == 8
