"""publish and serve say which literals the store holds in another form than written
(Oxigraph keeps a valid literal of a known XSD datatype as its value: "007"^^xsd:integer
as 7), at their file and line (hunt20 #3): the store's answers, and validate --endpoint,
read that form."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_cli
from test_publish_reads_first import Store

from anthology_kg.resources import bundled_dir

PREFIXES = (
    "@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n"
    "@prefix dcterms: <http://purl.org/dc/terms/> .\n"
)
PUBLISHED = (
    "in a store that keeps literals as values, as Oxigraph does: its answers and "
    "validate --endpoint read that form, not the one written"
)
SERVED = (
    "in the served store (Oxigraph keeps literals as values): its answers read that form, "
    "not the one written"
)


@pytest.fixture
def written_otherwise(tmp_path: Path) -> Path:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "X-1.ttl").write_text(
        PREFIXES + '<X-1> dcterms:identifier "X-1" ;\n'
        '    <http://ex.org/code> "007"^^xsd:integer ;\n'
        '    <http://ex.org/weight> "1e0"^^xsd:double ; <http://ex.org/n> 7 .\n',
        encoding="utf-8",
    )
    (tmp_path / "ontology" / "shapes").mkdir(parents=True)
    (tmp_path / "ontology" / "shapes" / "own.ttl").write_text(
        PREFIXES + "\n<http://ex.org/S> <http://ex.org/threshold> 1.50 .\n", encoding="utf-8"
    )
    return tmp_path


def expected(said: str) -> list[str]:
    return [
        f'data/X-1.ttl:4: warning: "007"^^xsd:integer is held as "7"^^xsd:integer {said}',
        f'data/X-1.ttl:5: warning: "1e0"^^xsd:double is held as "1"^^xsd:double {said}',
        f'ontology/shapes/own.ttl:4: warning: "1.50"^^xsd:decimal is held as "1.5"^^xsd:decimal '
        f"{said}",
    ]


def test_publish_names_each_literal_the_store_holds_otherwise(written_otherwise, monkeypatch):
    monkeypatch.chdir(written_otherwise)
    store = Store()
    try:
        result = run_cli("publish", "--endpoint", store.url, "--replace")
    finally:
        store.close()
    assert result.exit_code == 0, result.stderr
    assert result.stderr.splitlines() == expected(PUBLISHED)
    assert [method for method, _ in store.requests] == ["PUT"] * 3


def test_serve_names_them_too(written_otherwise, monkeypatch):
    import anthology_kg.server

    monkeypatch.chdir(written_otherwise)
    monkeypatch.setattr(anthology_kg.server, "serve", lambda *args, **options: 0)
    result = run_cli("serve")
    assert result.exit_code == 0, result.stderr
    assert result.stderr.splitlines() == expected(SERVED)


def test_the_bundled_anthology_is_published_as_written():
    store = Store()
    try:
        result = run_cli("--root", str(bundled_dir()), "publish", "--endpoint", store.url, "--add")
    finally:
        store.close()
    assert result.exit_code == 0 and result.stderr == ""
