"""site refuses a stored query that does not parse when it takes parameters, as it
refuses one that takes none (exit 2, file:line): its page offered a Run button for a
query every engine refuses (hunt20 #8)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_cli

from anthology_kg.resources import bundled_dir

BROKEN = "SELECT * WHERE {\n  ?{x} ?p\n}\n\n"


@pytest.mark.parametrize(
    ("header", "variable"),
    [("", "_x"), ("#+ param: x — y\n", "x"), ("", "")],
    ids=["a grlc variable", "a param line", "no parameter"],
)
def test_a_stored_query_that_does_not_parse_stops_the_site(tmp_path, header, variable):
    root = tmp_path / "anthology"
    root.mkdir()
    (root / "data").symlink_to(bundled_dir() / "data")
    (root / "queries").mkdir()
    stored = root / "queries" / "broken.rq"
    text = f"#+ summary: broken\n{header}" + BROKEN.replace("{x}", variable or "s")
    stored.write_text(text, encoding="utf-8")
    args = ("--param", "x=1") if variable else ()
    query = run_cli("--root", str(root), "query", "broken", *args)
    said = query.stderr
    assert query.exit_code == 2 and said.startswith(f"{stored}:")
    written = variable or "s"
    line = 3 + header.count("\n")
    assert said.endswith(
        f":{line}: SPARQL syntax error at column 3: "
        f"the triple pattern '?{written} ?p' lacks its object\n"
    )
    out = tmp_path / "site"
    result = run_cli("--root", str(root), "site", "-o", str(out))
    assert (result.exit_code, result.stderr) == (2, said)
    assert not Path(out / "queries" / "broken.html").exists()
