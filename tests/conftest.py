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


def pytest_terminal_summary(terminalreporter):
    """Print the conformance figures of the W3C suites when they ran."""
    import sys

    lines = []
    shacl = sys.modules.get("test_w3c_shacl")
    if shacl is not None:
        for engine, tally in sorted(shacl.RESULTS.items()):
            lines.append(
                f"W3C SHACL ({engine}): {tally['passed']} passed, "
                f"{tally['expected failures']} expected failures, of {tally['total']}"
            )
    results = sys.modules.get("test_w3c_results")
    if results is not None and results.RESULTS["total"]:
        tally = results.RESULTS
        lines.append(
            f"W3C SPARQL result formats (writers): {tally['passed']} passed, "
            f"{tally['expected failures']} expected failures, of {tally['total']}"
        )
    if lines:
        terminalreporter.section("conformance")
        for line in lines:
            terminalreporter.write_line(line)
