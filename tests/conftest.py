"""Shared fixtures: the bundled anthology, fixture anthologies, a CLI runner."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from anthology_kg.cli import main
from anthology_kg.resources import bundled_dir

FIXTURES = Path(__file__).parent / "fixtures"
REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
def bundled_copy(tmp_path: Path) -> Path:
    """A writable copy of the bundled anthology's data/ in a fresh folder."""
    root = tmp_path / "anthology"
    shutil.copytree(bundled_dir() / "data", root / "data")
    return root


def run_cli(*args: str, input: str | None = None):
    """Run the CLI in-process; stdout and stderr are kept apart."""
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)
