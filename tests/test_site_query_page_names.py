"""A stored query's page never takes the site's own pages in queries/ (index, sparql) nor
another query's page up to case (hunt2 F3/F4, hunt1 F18): the site builds, each query
has a page of its own, linked from the listing."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from conftest import run_cli

from anthology_kg.resources import bundled_dir

QUERY = (
    "#+ summary: {name}, a query of the anthology's own\nSELECT ?s WHERE {{ ?s ?p ?o }} LIMIT 1\n"
)


def build(tmp_path: Path, names: list[str]) -> Path:
    root = tmp_path / "anthology"
    shutil.copytree(bundled_dir() / "data", root / "data")
    (root / "queries").mkdir()
    for name in names:
        (root / "queries" / f"{name}.rq").write_text(QUERY.format(name=name), "utf-8")
    out = tmp_path / "site"
    result = run_cli("--root", str(root), "site", "-o", str(out))
    assert result.exit_code == 0, result.output
    return out / "queries"


def titles(folder: Path) -> dict[str, str]:
    """Each page of ``folder`` by the title it shows."""
    found = {}
    for page in folder.glob("*.html"):
        title = re.search(r"<title>(.*?)</title>", page.read_text("utf-8")).group(1)
        found[page.name] = title
    return found


def test_queries_named_index_and_sparql_get_pages_of_their_own(tmp_path):
    folder = build(tmp_path, ["index", "sparql", "Index"])
    shown = titles(folder)
    assert shown["index.html"].startswith("Stored queries")
    assert shown["sparql.html"].startswith("SPARQL")
    own = {
        name: page
        for page, title in shown.items()
        for name in ["index", "sparql", "Index"]
        if title.startswith(f"Query: {name} ")
    }
    assert sorted(own) == ["Index", "index", "sparql"]
    assert len({page.lower() for page in own.values()}) == 3
    listing = (folder / "index.html").read_text("utf-8")
    for page in own.values():
        assert f'href="{page}"' in listing


def test_query_pages_differing_only_by_case_are_distinct_files(tmp_path):
    folder = build(tmp_path, ["Backlog"])  # beside the bundled backlog
    pages = [page.name for page in folder.glob("*.html")]
    assert len({page.lower() for page in pages}) == len(pages), pages
    shown = titles(folder)
    assert any(title.startswith("Query: Backlog ") for title in shown.values())
    assert any(title.startswith("Query: backlog ") for title in shown.values())
