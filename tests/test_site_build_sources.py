"""The site's model parses the bytes the engine loaded, not the files read a second time."""

from __future__ import annotations

from pathlib import Path

from conftest import run_cli

from anthology_kg.engine import open_engine
from anthology_kg.site.model import DCTERMS, Model

ENTRY = "ARXIV-2409.19256"


def _title(model: Model) -> str | None:
    node = next(n for n, i in model.identifiers.items() if i == ENTRY)
    return model.text(node, DCTERMS.title)


def _retitle(root: Path, title: str) -> None:
    path = root / "data" / f"{ENTRY}.ttl"
    text = path.read_text("utf-8")
    start = text.index("dcterms:title")
    end = text.index("\n", start)
    path.write_text(f'{text[:start]}dcterms:title "{title}" ;{text[end:]}', "utf-8")


def test_a_kept_load_is_what_the_model_shows_though_the_file_changed_since(bundled_copy):
    before = _title(Model.read(open_engine("fast", root=bundled_copy)))
    loaded = open_engine("fast", root=bundled_copy, keep_sources=True)
    _retitle(bundled_copy, "Written after the load")
    assert before is not None
    assert _title(Model.read(loaded)) == before
    # Handed over once: a second model reads the files, as without keep_sources.
    assert loaded.take_sources() is None  # type: ignore[attr-defined]
    assert _title(Model.read(loaded)) == "Written after the load"


def test_without_keep_sources_the_engine_keeps_nothing_and_the_model_reads_the_files(
    bundled_copy,
):
    loaded = open_engine("fast", root=bundled_copy)
    assert loaded.take_sources() is None  # type: ignore[attr-defined]
    _retitle(bundled_copy, "Written after the load")
    assert _title(Model.read(loaded)) == "Written after the load"


def test_kept_sources_give_the_same_site_as_the_files(bundled_copy, tmp_path):
    from anthology_kg.site import build_site

    kept = build_site(open_engine("fast", root=bundled_copy, keep_sources=True), tmp_path / "a")
    read = build_site(open_engine("fast", root=bundled_copy), tmp_path / "b")
    assert kept.names == read.names
    for name in kept.names:
        assert (kept.root / name).read_bytes() == (read.root / name).read_bytes(), name
    assert run_cli("--root", str(bundled_copy), "site", "-o", str(tmp_path / "c")).exit_code == 0
    for name in kept.names:
        assert (tmp_path / "c" / name).read_bytes() == (kept.root / name).read_bytes(), name
