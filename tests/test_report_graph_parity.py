"""The W3C report graph (``validate --format turtle``) is the same on both engines when
a record breaks rule 1 by stating two categories: the property shape carries the rule's
message, so neither engine writes one of its own (pySHACL did, the Oxigraph engine
none)."""

from conftest import run_cli

MESSAGE = "Rule 1 of ADR-032: a reference or literature record has exactly one category"


def test_two_categories_give_the_same_report_graph_on_both_engines(bundled_copy):
    entry = bundled_copy / "data" / "ARXIV-2409.19256.ttl"
    text = entry.read_text(encoding="utf-8")
    one = "ak:category ak:infrastructure ;"
    assert one in text
    entry.write_text(text.replace(one, one[:-2] + ", ak:evaluation ;"), encoding="utf-8")
    root = ("--root", str(bundled_copy))
    fast = run_cli(*root, "validate", "--format", "turtle")
    reference = run_cli(*root, "validate", "--format", "turtle", "--engine", "reference")
    assert fast.exit_code == reference.exit_code == 1, fast.output
    assert fast.stdout == reference.stdout
    assert f'sh:resultMessage "{MESSAGE}"' in fast.stdout
    assert "More than 1 values" not in fast.stdout
