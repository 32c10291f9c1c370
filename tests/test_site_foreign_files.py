"""An earlier site holding files the site does not write (a CNAME, .nojekyll, .git, notes)
is refused, exit 2, naming them, and kept as it was. Before, the rebuild replaced the
folder and deleted them without a word (hunt4 finding 2)."""

from pathlib import Path

import pytest
from conftest import run_cli

from anthology_kg.errors import AnthologyError
from anthology_kg.site.output import GENERATOR, SiteWriter


def earlier_site(folder: Path) -> Path:
    (folder / "entries").mkdir(parents=True)
    (folder / "index.html").write_text(f'<meta name="generator" content="{GENERATOR}">')
    (folder / "entries" / "gone.html").write_text("a deleted entry's page")
    return folder


def test_an_earlier_site_holding_other_files_is_refused_and_kept(tmp_path):
    site = earlier_site(tmp_path / "pages")
    (site / "CNAME").write_text("example.org")
    (site / ".nojekyll").write_text("")
    (site / ".git").mkdir()
    (site / ".git" / "HEAD").write_text("precious")
    (site / "my-notes.md").write_text("notes")
    result = run_cli("site", "-o", str(site))
    assert result.exit_code == 2, result.output
    assert result.stderr.splitlines() == [
        f"{site}: holds what the site did not write (.git, .nojekyll, CNAME and 1 more), "
        "which replacing the folder's whole content would delete: move it out, or build "
        "into a new folder and copy the site in"
    ]
    assert (site / ".git" / "HEAD").read_text() == "precious"
    assert (site / "CNAME").read_text() == "example.org"
    assert (site / "entries" / "gone.html").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pages"]  # nothing built beside


def test_a_file_put_there_while_the_site_is_built_is_kept(tmp_path):
    site = earlier_site(tmp_path / "pages")
    writer = SiteWriter(site)
    writer.add("index.html", f'<meta name="generator" content="{GENERATOR}">')
    (site / "CNAME").write_text("example.org")
    with pytest.raises(AnthologyError, match=r"did not write \(CNAME\)"):
        writer.commit()
    assert (site / "CNAME").read_text() == "example.org"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pages"]
