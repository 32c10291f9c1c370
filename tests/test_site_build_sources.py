"""A deferred load (the site's): the files read once, the site's model and the engine's
store both made from those bytes, the store parsed where it is first used (the site's
validating child), and a file that is not Turtle said as every command says it."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest
from conftest import run_cli

from anthology_kg.engine import open_engine
from anthology_kg.errors import AnthologyError
from anthology_kg.fast import OxigraphEngine
from anthology_kg.resources import bundled_dir
from anthology_kg.site import build_site
from anthology_kg.site.model import DCTERMS, Model

ENTRY = "ARXIV-2409.19256"
TITLE = f"""SELECT ?title WHERE {{ ?e <http://purl.org/dc/terms/identifier> "{ENTRY}" ;
    <http://purl.org/dc/terms/title> ?title }}"""


def _title(model: Model) -> str | None:
    node = next(n for n, i in model.identifiers.items() if i == ENTRY)
    return model.text(node, DCTERMS.title)


def _stored_title(engine: OxigraphEngine) -> str:
    (row,) = engine.query(TITLE).rows
    return str(row[0])


def _retitle(root: Path, title: str) -> None:
    path = root / "data" / f"{ENTRY}.ttl"
    text = path.read_text("utf-8")
    start = text.index('dcterms:title "')
    end = text.index("\n", start)
    path.write_text(f'{text[:start]}dcterms:title "{title}" ;{text[end:]}', "utf-8")


def _titled(root: Path) -> Path:
    """``root`` with a title given to the entry (the record states none: a stated unknown)."""
    path = root / "data" / f"{ENTRY}.ttl"
    identifier = f'dcterms:identifier "{ENTRY}" ;'
    text = path.read_text("utf-8")
    assert identifier in text and 'dcterms:title "' not in text
    path.write_text(
        text.replace(identifier, f'{identifier} dcterms:title "First written" ;'), "utf-8"
    )
    return root


def _deferred(root: Path) -> OxigraphEngine:
    engine = open_engine("fast", root=root, deferred=True, validates=True)
    assert isinstance(engine, OxigraphEngine)
    return engine


def test_a_deferred_load_is_what_model_and_store_show_though_the_file_changed_since(
    bundled_copy,
):
    _titled(bundled_copy)
    before = _title(Model.read(open_engine("fast", root=bundled_copy)))
    engine = _deferred(bundled_copy)
    assert not engine.loaded
    _retitle(bundled_copy, "Written after the load")
    assert before is not None
    assert _title(Model.read(engine)) == before
    assert not engine.loaded  # the model does not need the store
    assert _stored_title(engine) == before  # parsed from the bytes read, not the file
    assert engine.loaded
    assert _title(Model.read(engine)) == before


def test_a_load_not_deferred_keeps_nothing_and_the_model_reads_the_files(bundled_copy):
    engine = open_engine("fast", root=_titled(bundled_copy))
    assert isinstance(engine, OxigraphEngine)
    assert engine.loaded
    assert engine.sources() is None
    _retitle(bundled_copy, "Written after the load")
    assert _title(Model.read(engine)) == "Written after the load"


def test_a_deferred_load_refuses_a_layout_scan(bundled_copy):
    from anthology_kg.fast import load_fast

    with pytest.raises(ValueError, match="layout"):
        load_fast(bundled_copy, deferred=True, layout=True)


def test_an_unreadable_file_is_an_error_of_the_deferred_load_itself(bundled_copy):
    os.mkfifo(bundled_copy / "data" / "ZZ-BAD.ttl")
    with pytest.raises(AnthologyError) as caught:
        _deferred(bundled_copy)
    assert caught.value.path == bundled_copy.resolve() / "data" / "ZZ-BAD.ttl"


def tree(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()
    }


@pytest.fixture(scope="module")
def plain_site(tmp_path_factory) -> dict[str, bytes]:
    """The bundled anthology's site from a load not deferred, in one process."""
    folder = tmp_path_factory.mktemp("plain") / "site"
    build_site(open_engine("fast", root=bundled_dir()), folder, workers=1)
    return tree(folder)


@pytest.mark.parametrize("workers", [1, 2])
def test_deferred_sources_give_the_same_site_as_the_files(plain_site, tmp_path, workers):
    engine = _deferred(bundled_dir())
    build_site(engine, tmp_path / "a", workers=workers)
    if workers == 2:  # parsed in the child that validates, never in this process
        assert not engine.loaded
    assert tree(tmp_path / "a") == plain_site


def test_the_command_s_site_is_the_library_s(plain_site, tmp_path):
    assert run_cli("--root", str(bundled_dir()), "site", "-o", str(tmp_path / "c")).exit_code == 0
    assert tree(tmp_path / "c") == plain_site


# Two files the model parses as one document (no blank node, no base): the second uses a
# prefix only the first declares, which its own parse refuses; or it is cut short; or
# it is not UTF-8.
UNDECLARED = (
    "@prefix ak: <https://w3id.org/anthology-kg/ns#> .\n"
    "<https://w3id.org/anthology-kg/id/ZZ-A> a ak:Reference .\n",
    "\n<https://w3id.org/anthology-kg/id/ZZ-B> a ak:Reference .\n",
)
CUT_SHORT = (
    UNDECLARED[0],
    "@prefix ak: <https://w3id.org/anthology-kg/ns#> .\n\n"
    "<https://w3id.org/anthology-kg/id/ZZ-B> a ak:Reference ;\n",
)

NOT_UTF8 = (UNDECLARED[0], "# caf\udce9\n")


@pytest.mark.parametrize(
    "texts", [UNDECLARED, CUT_SHORT, NOT_UTF8], ids=["undeclared", "cut-short", "not-utf8"]
)
def test_a_file_that_is_not_turtle_is_said_by_the_site_as_check_says_it(
    bundled_copy, tmp_path, texts
):
    for name, text in zip(("ZZ-A", "ZZ-B"), texts, strict=True):
        (bundled_copy / "data" / f"{name}.ttl").write_bytes(text.encode("utf-8", "surrogateescape"))
    checked = run_cli("--root", str(bundled_copy), "check")
    assert checked.exit_code == 2
    assert "ZZ-B.ttl:" in checked.stderr and "ZZ-A" not in checked.stderr
    site = run_cli("--root", str(bundled_copy), "site", "-o", str(tmp_path / "site"))
    assert (site.exit_code, site.stderr) == (2, checked.stderr)
    assert not (tmp_path / "site").exists()
    for workers in (1, 2):  # the store parsed in a thread, or in the validating child
        with pytest.raises(AnthologyError) as caught:
            build_site(_deferred(bundled_copy), tmp_path / f"w{workers}", workers=workers)
        assert caught.value.path == bundled_copy.resolve() / "data" / "ZZ-B.ttl"
        assert f"{caught.value}" in checked.stderr


def test_while_the_child_answers_this_process_writes_the_search_index(
    plain_site, tmp_path, monkeypatch
):
    import anthology_kg.site as site

    real_ask, real_write = site.ask, site._write_search
    searched = tmp_path / "searched"

    def ask(*args, **kwargs):  # in the child: answers once this process has searched
        deadline = time.monotonic() + 30
        while not searched.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        return real_ask(*args, **kwargs)

    def write_search(*args) -> None:
        real_write(*args)
        searched.write_text(str(os.getpid()), "utf-8")

    monkeypatch.setattr(site, "ask", ask)
    monkeypatch.setattr(site, "_write_search", write_search)
    shared = build_site(_deferred(bundled_dir()), tmp_path / "a", workers=2)
    assert searched.read_text("utf-8") == str(os.getpid())
    assert tree(shared.root) == plain_site


@pytest.mark.parametrize("workers", [1, 2])
def test_the_rules_page_names_each_rule_s_adr_as_its_results_do(bundled_copy, tmp_path, workers):
    from anthology_kg.validation import validate

    adr = bundled_copy / "data" / "ADR-032.ttl"
    text = adr.read_text("utf-8")
    adr.write_text(text.replace('"ADR-032" ;', '"ADR-032", "ADR-032-bis" ;', 1), "utf-8")
    report = validate(open_engine("fast", root=bundled_copy, validates=True))
    named = {rule.source for rule in report.rules}
    assert named & {"ADR-032", "ADR-032-bis"}  # the engine's pick of the two
    build_site(_deferred(bundled_copy), tmp_path / "site", workers=workers)
    page = (tmp_path / "site" / "rules.html").read_text("utf-8")
    for rule in report.rules:
        assert f"<td>{rule.number}</td><td>{rule.source}</td>" in page
    for other in {"ADR-032", "ADR-032-bis"} - named:
        assert f"<td>{other}</td>" not in page


def test_a_child_forked_while_another_thread_parses_the_store_parses_its_own(plain_site, tmp_path):
    import threading

    engine = _deferred(bundled_dir())
    holding, release = threading.Event(), threading.Event()

    def parse_elsewhere() -> None:  # as a thread mid-way through the first use
        with engine._loading:
            holding.set()
            release.wait(30)

    def too_long(number, frame):
        raise TimeoutError("the child waits for a lock no thread of its own holds")

    thread = threading.Thread(target=parse_elsewhere)
    thread.start()
    previous = signal.signal(signal.SIGALRM, too_long)
    try:
        assert holding.wait(30)
        # Forked while the lock is held here: the child's copy of it is not (at fork).
        signal.alarm(60)
        build_site(engine, tmp_path / "a", workers=2)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
        release.set()
        thread.join()
    assert tree(tmp_path / "a") == plain_site


def test_a_base_directive_with_a_comment_before_its_iri_keeps_to_its_file():
    import pyoxigraph as ox

    from anthology_kg.site.model import turtle_documents

    texts = [
        b"<a> <b> <c> .",
        b"@base # elsewhere\n  # and a second comment\n <http://elsewhere.example/> .\n"
        b"<d> <b> <c> .",
        b"BASE#x\r<http://elsewhere.example/>\n<e> <b> <c> .",
        b"<f> <b> <c> .",
    ]
    documents = [document for _, document in turtle_documents(texts)]
    assert len(documents) == 4  # each base file alone: the last file keeps the default base
    base = "http://example.org/id/"
    parsed = [ox.parse(text, format=ox.RdfFormat.TURTLE, base_iri=base) for text in documents]
    assert [str(next(iter(quads)).subject) for quads in parsed] == [
        f"<{base}a>",
        "<http://elsewhere.example/d>",
        "<http://elsewhere.example/e>",
        f"<{base}f>",
    ]
