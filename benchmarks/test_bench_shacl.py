"""`pytest benchmarks -m bench -s`: SHACL validators side by side (figures printed)."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest


@pytest.mark.bench
def test_shacl_benchmark_prints_its_table():
    script = Path(__file__).with_name("bench_shacl.py")
    command = [sys.executable, str(script), "--sizes", "1000", "--runs", "1", "--pyshacl-max", "0"]
    if os.environ.get("TURBO_PYTHON"):  # a Python with pyshacl-turbo installed
        command += ["--turbo-python", os.environ["TURBO_PYTHON"]]
    if os.environ.get("RUDOF_PYTHON"):  # a Python with pyrudof installed
        command += ["--rudof-python", os.environ["RUDOF_PYTHON"]]
    jena = bool(shutil.which("java") and shutil.which("javac"))
    if jena:
        command.append("--jena")
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    print(done.stdout)
    assert "| `anthology-kg check` |" in done.stdout
    if os.environ.get("RUDOF_PYTHON"):
        assert "| rudof (pyrudof " in done.stdout
    if jena:  # its rows, or why it did not run
        assert "| Jena SHACL " in done.stdout or "Jena not run: " in done.stdout
