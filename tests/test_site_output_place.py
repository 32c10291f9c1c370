"""Where the site goes: the working directory or one of its ancestors is replaced and
reported as written (hunt4 #6: "cannot write", exit 2, for a site that was replaced; with
``-o ..``, "Device or resource busy"); a mount point, which cannot be renamed, and a
parent folder that cannot be written are refused before the build, saying why (hunt4 #7:
a mount point was refused after the whole build with "Device or resource busy")."""

import os
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


def test_a_mount_point_is_refused_before_the_build(tmp_path, monkeypatch):
    mounted = tmp_path / "out"
    mounted.mkdir()
    monkeypatch.setattr(os.path, "ismount", lambda path: Path(path) == mounted)
    result = run_cli("--root", str(bundled_dir()), "site", "-o", str(mounted))
    assert result.exit_code == 2, result.output
    assert result.stderr == (
        f"{mounted}: a mount point, which the site cannot replace (it is built in a new "
        "folder beside it, then renamed into its place): name a folder inside it\n"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_a_parent_folder_that_cannot_be_written_is_named_with_the_reason(tmp_path, monkeypatch):
    from anthology_kg.site import output

    def refused(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(output, "new_folder_beside", refused)
    result = run_cli("--root", str(bundled_dir()), "site", "-o", str(tmp_path / "html"))
    assert result.exit_code == 2, result.output
    assert result.stderr == (
        f"{tmp_path}: cannot write: Permission denied (the site is built in a new folder "
        "here, beside html, then renamed into its place)\n"
    )
