"""Data text reaches stdout and stderr escaped (review3 B11): a literal's line end or
ESC is printed as ``\\n`` or ``\\x1b`` by the check text report, the layout warnings and
the query table, so data cannot start a line a CI runner reads as a workflow command
(``::error …``) nor send a terminal an escape sequence."""

from __future__ import annotations

import unicodedata

from conftest import run_cli
from hypothesis import given
from hypothesis import strategies as st

from anthology_kg.layout import printable

INJECTED = "::error file=README.md,line=1::injected by data"
# A note whose identifier holds a line end, a workflow command and ESC [31m (red).
NOTE = (
    "@prefix ak: <https://w3id.org/anthology-kg/ns#> .\n"
    "@prefix dcterms: <http://purl.org/dc/terms/> .\n"
    "@prefix id: <https://w3id.org/anthology-kg/id/> .\n\n"
    "id:NOTE-777 a ak:Note ;\n"
    f'    dcterms:identifier "NOTE-777\\n{INJECTED}\\u001b[31m\\r\\u2028" .\n'
)
SHOWN = f"NOTE-777\\n{INJECTED}\\x1b[31m\\r\\u2028"


def _with_note(root):
    (root / "data" / "NOTE-777.ttl").write_text(NOTE, encoding="utf-8")
    return root


def _no_line_from_data(text: str) -> None:
    assert "\x1b[31m\r" not in text and "\u2028" not in text
    for line in text.split("\n"):
        assert not line.startswith("::"), line


def test_check_shows_the_data_escaped_in_the_report_and_the_layout_warning(bundled_copy):
    root = _with_note(bundled_copy)
    for color in ("--no-color", "--color"):
        result = run_cli("--root", str(root), color, "check")
        assert result.exit_code == 1, result.output
        _no_line_from_data(result.stdout)
        _no_line_from_data(result.stderr)
        (reported,) = [line for line in result.stdout.splitlines() if "AK008" in line]
        assert f"(NOTE-777\\n{INJECTED}" in reported
        assert reported.endswith(f"dcterms:identifier {SHOWN})")
        (warning,) = result.stderr.splitlines()
        assert warning.startswith(f"{root / 'data' / 'NOTE-777.ttl'}:5: warning: ")
        assert f"the entry {SHOWN}; each file" in warning


def test_validate_text_is_the_check_report(bundled_copy):
    root = _with_note(bundled_copy)
    result = run_cli("--root", str(root), "validate")
    assert result.exit_code == 1, result.output
    _no_line_from_data(result.stdout)
    assert SHOWN in result.stdout


def test_the_query_table_shows_the_data_escaped(bundled_copy, tmp_path):
    root = _with_note(bundled_copy)
    query = tmp_path / "ids.rq"
    query.write_text(
        "PREFIX dcterms: <http://purl.org/dc/terms/>\n"
        'SELECT ?id { ?e dcterms:identifier ?id FILTER(STRSTARTS(?id, "NOTE-")) }\n',
        encoding="utf-8",
    )
    result = run_cli("--root", str(root), "sparql", str(query))
    assert result.exit_code == 0, result.output
    _no_line_from_data(result.stdout)
    assert result.stdout.splitlines()[2] == SHOWN


@given(st.text())
def test_printable_leaves_no_control_character_and_nothing_else_changed(text):
    shown = printable(text)
    assert not [c for c in shown if unicodedata.category(c) in ("Cc", "Zl", "Zp", "Cs")]
    assert not [c for c in shown if unicodedata.bidirectional(c) in BIDI_CONTROLS]
    assert "\ufffe" not in shown and "\uffff" not in shown
    assert shown.splitlines() == [shown] or shown == ""
    if "\\" not in text:  # each escape reads back as the character it stands for
        assert shown.encode("ascii", "backslashreplace").decode("unicode_escape") == text


#: The bidi classes of the embeddings, overrides and isolates and of their ends.
BIDI_CONTROLS = {"LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"}


def test_printable_escapes_bidi_controls():
    # U+202E reverses the rest of a line in a terminal or a CI log ("Trojan Source").
    assert printable("DAPO \u202e}llac{ \u202c ok\u2067x\u2069") == (
        "DAPO \\u202e}llac{ \\u202c ok\\u2067x\\u2069"
    )
    assert printable("שלום \u200f, 👩\u200d💻") == "שלום \u200f, 👩\u200d💻"  # marks, joiners


def test_printable_keeps_ordinary_text_as_it_is():
    text = "Rule 8: é, 𝔸, \\d and a tab-free line"
    assert printable(text) == text
    assert printable("a\nb\x1b[0m\x85\x00") == "a\\nb\\x1b[0m\\x85\\x00"
