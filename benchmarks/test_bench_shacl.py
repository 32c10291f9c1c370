"""`pytest benchmarks -m bench -s`: SHACL validators side by side (figures printed)."""

import os
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
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    print(done.stdout)
    assert "| `anthology-kg check` |" in done.stdout
