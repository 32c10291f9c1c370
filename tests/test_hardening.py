"""Hardening (issue 15): every bad input a clear exit 2, no edit lost, nothing half-written.

Each case runs the real CLI; where both engines read the input, on both.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_cli

from anthology_kg.formatting import format_anthology, write_formatted

PREFIXES = (
    "@prefix ak: <https://w3id.org/anthology-kg/ns#> .\n"
    "@prefix dcterms: <http://purl.org/dc/terms/> .\n"
    "@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n"
)


def anthology(tmp_path: Path, files: dict[str, str]) -> Path:
    """A fixture anthology whose data/ holds ``files`` (name to Turtle text)."""
    root = tmp_path / "a"
    (root / "data").mkdir(parents=True)
    for name, text in files.items():
        (root / "data" / name).write_text(text, encoding="utf-8")
    return root


# ---- fmt: no edit lost, no literal changed ------------------------------------------------

LITERALS = PREFIXES + (
    "# kept\n"
    '<X-1> dcterms:identifier "X-1" ; ak:n 007 ; ak:t "  x  "^^xsd:token ;\n'
    '  ak:d "1.50"^^xsd:decimal ; ak:b "1"^^xsd:boolean ; ak:s "  y  "^^xsd:normalizedString .\n'
)


def test_fmt_keeps_every_literal_lexical_form(tmp_path):
    root = anthology(tmp_path, {"X-1.ttl": LITERALS})
    result = run_cli("--root", str(root), "fmt")
    assert result.exit_code == 0, result.stderr
    text = (root / "data" / "X-1.ttl").read_text(encoding="utf-8")
    for written in ("ak:n 007", '"  x  "^^xsd:token', "1.50", '"1"^^xsd:boolean', '"  y  "'):
        assert written in text
    assert "# kept\nid:X-1" in text
    assert run_cli("--root", str(root), "fmt", "--check").exit_code == 0


def test_an_edit_saved_while_fmt_runs_survives(tmp_path):
    messy = PREFIXES + '<A-1> dcterms:identifier "A-1" ; ak:n 1 .\n'
    root = anthology(tmp_path, {"A-1.ttl": messy, "B-1.ttl": messy.replace("A-1", "B-1")})
    run = format_anthology(root, write=False)  # formatted, not yet written
    edited = messy.replace("A-1", "B-1") + "# my edit\n"
    (root / "data" / "B-1.ttl").write_text(edited, encoding="utf-8")
    assert write_formatted(run.files) == [root / "data" / "B-1.ttl"]
    assert (root / "data" / "B-1.ttl").read_text(encoding="utf-8") == edited
    assert (root / "data" / "A-1.ttl").read_text(encoding="utf-8").startswith("@prefix ak:")
    assert "id:A-1 dcterms:identifier" in (root / "data" / "A-1.ttl").read_text(encoding="utf-8")


def test_fmt_reports_a_file_changed_while_formatting_with_exit_1(tmp_path, monkeypatch):
    """The CLI path: another program saves A-1.ttl just after fmt has formatted it (the
    edit is made at that moment by wrapping the real format_file)."""
    from anthology_kg import formatting

    messy = PREFIXES + '<A-1> dcterms:identifier "A-1" ; ak:n 1 .\n'
    root = anthology(tmp_path, {"A-1.ttl": messy, "B-1.ttl": messy.replace("A-1", "B-1")})
    real = formatting.format_file

    def format_then_edit(path, base):
        done = real(path, base)
        if path.name == "A-1.ttl":
            path.write_text(messy + "# saved meanwhile\n", encoding="utf-8")
        return done

    monkeypatch.setattr(formatting, "format_file", format_then_edit)
    result = run_cli("--root", str(root), "fmt")
    assert result.exit_code == 1
    assert "changed while formatting: " in result.stderr and "A-1.ttl" in result.stderr
    assert (root / "data" / "A-1.ttl").read_text(encoding="utf-8").endswith("# saved meanwhile\n")
    assert "reformatted" in result.stdout and "B-1.ttl" in result.stdout


def test_fmt_refusal_names_the_triple_and_its_line(tmp_path, monkeypatch):
    """The safety net: should the writer ever lose a triple (here a writer that drops
    everything stands in for such a bug), fmt names the triple and its subject's line."""
    from anthology_kg import formatting

    root = anthology(tmp_path, {"A-1.ttl": PREFIXES + '\n<A-1> dcterms:identifier "A-1" .\n'})
    monkeypatch.setattr(formatting, "canonical_turtle", lambda *a, **k: "")
    result = run_cli("--root", str(root), "fmt")
    assert result.exit_code == 2
    assert "A-1.ttl:5: formatting would change the triple" in result.stderr
    assert "<https://w3id.org/anthology-kg/id/A-1>" in result.stderr


@pytest.mark.parametrize(
    "text, where",
    [
        (PREFIXES + "<X 1> ak:p 1 .\n", "X-1.ttl:4"),
        (PREFIXES + '<X-1> ak:p "\\uD800" .\n', "X-1.ttl:4"),
    ],
)
def test_fmt_refuses_what_the_strict_parser_refuses(tmp_path, text, where):
    root = anthology(tmp_path, {"X-1.ttl": text})
    result = run_cli("--root", str(root), "fmt")
    assert result.exit_code == 2 and where in result.stderr
    assert "Traceback" not in result.stderr
    assert (root / "data" / "X-1.ttl").read_text(encoding="utf-8") == text


# ---- generate: any count of violations, canonical files, nothing left on failure ---------


def test_generate_plants_one_violation_per_entry_and_writes_canonical_files(tmp_path):
    import json

    from anthology_kg.fast import load_fast
    from anthology_kg.validation import validate

    out = tmp_path / "g"
    result = run_cli("generate", "--entries", "60", "--violations", "60", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    assert sorted(p.name for p in out.iterdir()) == ["data", "expected-violations.json"]
    expected = json.loads((out / "expected-violations.json").read_text("utf-8"))
    assert len(expected) == 60
    report = validate(load_fast(out))
    got = sorted((r.focus, r.shape) for r in report.counted if r.severity == "Violation")
    assert got == sorted((e["focus"], e["shape"]) for e in expected)
    check = run_cli("--root", str(out), "fmt", "--check")
    assert check.exit_code == 0 and check.stdout.startswith("0 of "), check.stdout


@pytest.mark.parametrize(
    "args, message",
    [
        (["--entries", "30", "--violations", "31"], "more than --entries"),
        (["--entries", "10"], "--entries"),
    ],
)
def test_generate_refuses_and_writes_nothing(tmp_path, args, message):
    out = tmp_path / "g"
    result = run_cli("generate", *args, "-o", str(out))
    assert result.exit_code == 2 and message in result.stderr
    assert not out.exists()


def test_generate_into_a_folder_holding_data_writes_nothing(tmp_path):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "mine.ttl").write_text("", encoding="utf-8")
    result = run_cli("generate", "--entries", "20", "-o", str(tmp_path))
    assert result.exit_code == 2 and "already holds data/" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data"]
    assert [p.name for p in (tmp_path / "data").iterdir()] == ["mine.ttl"]
