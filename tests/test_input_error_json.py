"""An input error under ``validate --format json`` (exit 2) is written as the JSON report
too: ``conforms`` false, no result, and ``error`` (message, file, line), as the CI formats
write it (cec7354). Before, stdout was empty, and ``-o report.json`` left an earlier
run's report in place, which a later step read as this run's."""

from __future__ import annotations

import json

from conftest import edit, run_cli

FILE = "data/SOTA-154.ttl"
LINE = 9  # its rdfs:label
NOTHING = {"violations": 0, "warnings": 0, "infos": 0, "waived": 0}


def _broken(anthology) -> str:
    """A Turtle syntax error at FILE:LINE: what stderr says of it."""
    edit(anthology, FILE, "rdfs:label", "rdfs:label foo")
    said = run_cli("validate")
    assert said.exit_code == 2 and said.stderr.startswith(f"{FILE}:{LINE}: Turtle syntax error")
    return said.stderr


def _error_document(text: str) -> dict:
    document = json.loads(text)
    assert list(document) == ["schema", "conforms", "counts", "results", "error"]
    assert document["schema"] == "anthology-kg/validation-report/1"
    assert (document["conforms"], document["counts"], document["results"]) == (
        False,
        NOTHING,
        [],
    )
    return document["error"]


def test_a_syntax_error_is_the_json_report_s_error(anthology):
    stderr = _broken(anthology)
    result = run_cli("validate", "--format", "json")
    assert result.exit_code == 2 and result.stderr == stderr
    error = _error_document(result.stdout)
    assert error == {
        "message": stderr.removeprefix(f"{FILE}:{LINE}: ").rstrip("\n"),
        "file": FILE,
        "line": LINE,
    }


def test_an_earlier_report_in_the_output_file_is_replaced(anthology):
    """The README's `validate --format json -o report.json || true`, run twice: the
    second run's input error is what the file holds."""
    first = run_cli("validate", "--format", "json", "-o", "report.json")
    assert first.exit_code == 0
    assert json.loads((anthology / "report.json").read_text(encoding="utf-8"))["conforms"]
    _broken(anthology)
    second = run_cli("validate", "-o", "report.json")  # json by -o's extension
    assert second.exit_code == 2 and second.stdout == ""
    error = _error_document((anthology / "report.json").read_text(encoding="utf-8"))
    assert (error["file"], error["line"]) == (FILE, LINE)


def test_an_error_of_no_file_has_a_null_place(anthology):
    result = run_cli("validate", "--format", "json", "--baseline", "no-such-revision")
    assert result.exit_code == 2
    error = _error_document(result.stdout)
    assert (error["file"], error["line"]) == (None, None)
    assert result.stderr == f".: {error['message']}\n"  # (at the anthology's folder)


def test_a_broken_configuration_file_is_the_json_report_s_error(anthology):
    (anthology / "anthology-kg.toml").write_text('fail-on = "warning"\nbase = \n', "utf-8")
    result = run_cli("validate", "--format", "json")
    assert result.exit_code == 2
    error = _error_document(result.stdout)
    assert (error["file"], error["line"]) == ("anthology-kg.toml", 2)
    assert result.stderr == f"anthology-kg.toml:2: {error['message']}\n"


def test_a_report_that_ran_has_no_error_member(anthology):
    document = json.loads(run_cli("validate", "--format", "json").stdout)
    assert "error" not in document
