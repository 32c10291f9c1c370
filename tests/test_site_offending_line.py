"""The line rules.html shows under a result is the line its number names, counted as
check counts it (hunt2 F12): a raw U+2028, U+0085, form feed or lone carriage return
before the fault ends no line."""

from __future__ import annotations

import re
import shutil

from conftest import run_cli

from anthology_kg.resources import bundled_dir

LIT_903 = (
    "@prefix ak: <https://w3id.org/anthology-kg/ns#> .\n"
    "@prefix dcterms: <http://purl.org/dc/terms/> .\n"
    "# a comment with a raw \u2028 line separator, \x85 NEL and \x0c form feed\n"
    "<https://w3id.org/anthology-kg/id/LIT-903> a ak:LiteratureRecord ;\r"
    '    dcterms:identifier "LIT-903" ;\n'
    "    ak:category ak:bogus .\n"
)


def test_the_offending_line_is_the_line_check_names(tmp_path):
    root = tmp_path / "anthology"
    shutil.copytree(bundled_dir() / "data", root / "data")
    (root / "data" / "LIT-903.ttl").write_bytes(LIT_903.encode("utf-8"))
    check = run_cli("--root", str(root), "check")
    named = set(re.findall(r"data/LIT-903\.ttl:(\d+):", check.output))
    assert named == {"5"}, check.output
    out = tmp_path / "site"
    assert run_cli("--root", str(root), "site", "-o", str(out)).exit_code == 0
    rules = (out / "rules.html").read_text("utf-8")
    shown = re.findall(
        r'<code>data/LIT-903\.ttl:(\d+)</code><pre class="offending">(.*?)</pre>', rules, re.S
    )
    assert shown and set(shown) == {("5", "ak:category ak:bogus .")}, shown
