"""``generate --entries N`` writes exactly N entries, as README says ("writes 20 to
10,000,000 entries"): about a third of the counts wrote one more (--entries 20 wrote 21),
an infrastructure reference taking the last place and its open question one past it
(hunt22). A count that was exact writes what it wrote (every size of 20 to 419, four
seeds, three violation counts, compared when the change was made)."""

from __future__ import annotations

import json

import pytest
from conftest import run_cli

from anthology_kg.engine import open_engine
from anthology_kg.generate import generate
from anthology_kg.validation import validate


@pytest.mark.parametrize(
    ("entries", "seed", "violations"),
    # Each wrote one entry more (21, 22, 32, 42, 141, 121).
    [(20, 0, 0), (21, 0, 0), (31, 0, 0), (41, 0, 0), (140, 1, 18), (120, 3, 12)],
)
def test_the_count_asked_is_the_count_written(tmp_path, entries, seed, violations):
    out = tmp_path / "g"
    summary = generate(entries, seed, out, violations=violations)
    assert summary["files"] == len(list((out / "data").iterdir())) == entries
    expected = json.loads((out / "expected-violations.json").read_text("utf-8"))
    assert summary["violations"] == len(expected) == violations
    # It still breaks only the rules it plants, each where it says.
    report = validate(open_engine("fast", root=out))
    found = sorted((r.focus, r.shape) for r in report.results)
    assert found == sorted((e["focus"], e["shape"]) for e in expected)


def test_the_command_says_the_count_asked(tmp_path):
    result = run_cli("generate", "--entries", "20", "-o", str(tmp_path / "g"))
    assert result.exit_code == 0
    assert result.stdout.startswith("wrote 20 entry files and 0 planted violation(s)")
