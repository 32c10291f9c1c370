"""The built wheel carries its ontology, queries and data and works outside the repo."""

import os
import subprocess
import sys
import zipfile

from conftest import REPO


def test_installed_wheel_finds_bundled_data(tmp_path):
    dist = tmp_path / "dist"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(dist),
            str(REPO),
        ],
        check=True,
    )
    (wheel,) = dist.glob("anthology_kg-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "anthology_kg/_bundled/ontology/anthology.ttl" in names
    assert "anthology_kg/_bundled/data/ARXIV-2409.19256.ttl" in names
    assert "anthology_kg/_bundled/queries/confounders.rq" in names
    assert "anthology_kg/_bundled/ontology/shapes/adr-032.ttl" in names
    site = tmp_path / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--no-deps",
            "-q",
            "--target",
            str(site),
            str(wheel),
        ],
        check=True,
    )
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {**os.environ, "PYTHONPATH": str(site)}
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "import anthology_kg, sys; print(anthology_kg.__file__);"
            "from anthology_kg.cli import main; sys.argv=['anthology-kg','stats']; main()",
        ],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    first, *rest = result.stdout.splitlines()
    assert first.startswith(str(site))
    assert "  ARXIV-2409.19256.ttl" in rest
