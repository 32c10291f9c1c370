"""`pytest benchmarks -m bench -s`: the scale benchmark at 1,000 entries (figures printed)."""

import subprocess
import sys
from pathlib import Path

import pytest


@pytest.mark.bench
def test_scale_benchmark_prints_its_table():
    script = Path(__file__).with_name("bench_scale.py")
    done = subprocess.run(
        [sys.executable, str(script), "--sizes", "1000"], capture_output=True, text=True, check=True
    )
    print(done.stdout)
    assert "| check |" in done.stdout
