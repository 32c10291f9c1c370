"""`pytest benchmarks -m bench -s`: the diff benchmark at 2,000 entries (figures printed)."""

import subprocess
import sys
from pathlib import Path

import pytest


@pytest.mark.bench
def test_diff_benchmark_prints_its_table():
    script = Path(__file__).with_name("bench_diff.py")
    done = subprocess.run(
        [sys.executable, str(script), "--entries", "2000", "--repeat", "1"],
        capture_output=True,
        text=True,
        check=True,
    )
    print(done.stdout)
    assert "| diff of two git revisions (library) |" in done.stdout
