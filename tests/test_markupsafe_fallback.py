"""The site builds where markupsafe has no C escaper (MarkupSafe 2.x, which the package
allows, or a pure-Python install): before, pages.py imported markupsafe._speedups, a
private module of 3.x's C extension, and `site` failed with an ImportError traceback
(review3 B2). The pages are the same bytes either way."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

from conftest import run_cli

BUILD = """
import sys
sys.modules["markupsafe._speedups"] = None  # import fails, as without the C extension
from anthology_kg.cli import main
main(["site", "-o", sys.argv[1]])
"""


def tree(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def test_the_site_without_markupsafes_c_escaper_is_the_same_bytes(tmp_path):
    without = tmp_path / "without"
    done = subprocess.run(
        [sys.executable, "-c", BUILD, str(without)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert run_cli("site", "-o", str(tmp_path / "with")).exit_code == 0
    assert tree(without) == tree(tmp_path / "with") and len(tree(without)) > 20
