"""Where the site goes: the working directory or one of its ancestors is replaced and
reported as written (hunt4 #6: "cannot write", exit 2, for a site that was replaced; with
``-o ..``, "Device or resource busy")."""

from pathlib import Path

import pytest
from conftest import run_cli

from anthology_kg.resources import bundled_dir
from anthology_kg.site.output import GENERATOR


def earlier_site(folder: Path) -> Path:
    (folder / "entries").mkdir(parents=True)
    (folder / "index.html").write_text(f'<meta name="generator" content="{GENERATOR}">')
    (folder / "entries" / "gone.html").write_text("a deleted entry's page")
    return folder


@pytest.mark.parametrize(("inside", "output"), [("", "."), ("entries", "..")])
def test_the_site_built_from_inside_itself_is_replaced_and_said_so(
    tmp_path, monkeypatch, inside, output
):
    site = earlier_site(tmp_path / "site")
    monkeypatch.chdir(site / inside)
    result = run_cli("--root", str(bundled_dir()), "site", "-o", output)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("wrote ")
    assert (site / "entries" / "ARXIV-2409.19256.html").exists()
    assert not (site / "entries" / "gone.html").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]

