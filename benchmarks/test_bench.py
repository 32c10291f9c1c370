"""`pytest benchmarks -m bench -s`: the scale benchmark at 1,000 entries (figures printed)."""

import subprocess
import sys
from pathlib import Path

import pytest


@pytest.mark.bench
def test_scale_benchmark_prints_every_command_and_the_goals():
    script = Path(__file__).with_name("bench_scale.py")
    done = subprocess.run(
        [sys.executable, str(script), "--sizes", "1000", "--reference-max", "1000"],
        capture_output=True,
        text=True,
        check=True,
    )
    print(done.stdout)
    for row in ("check", "stats", "query confounders", "export turtle", "site", "fmt --check"):
        assert f"| {row} |" in done.stdout
    assert "Goals at 1,000 entries" in done.stdout
