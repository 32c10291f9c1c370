"""A stored query's ``#+`` header takes no YAML anchor or alias (hunt16 #3: nine aliases
of nine aliases, 555 bytes, made ``site`` take 2.3 GB once ``str()`` expanded them), and
its summary and description are text: each other is an input error at its line, exit 2,
for ``queries`` and ``site`` alike."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_cli

QUERY = "SELECT * WHERE { ?entry ?p ?o } LIMIT 1\n"


def laughs(levels: int) -> str:
    """A header whose description is ``levels`` nested nine-way aliases (9**levels
    strings once expanded), the alias on the header's last line."""
    lines = ["#+ summary: s", '#+ x0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    lines += [f"#+ x{i}: &a{i} [{','.join([f'*a{i - 1}'] * 9)}]" for i in range(1, levels + 1)]
    return "\n".join([*lines, f"#+ description: *a{levels}"]) + "\n" + QUERY


def anthology(root: Path, header_and_query: str) -> Path:
    (root / "data").mkdir(parents=True)
    (root / "data" / "X-1.ttl").write_text('<X-1> <http://example.org/p> "v" .\n', "utf-8")
    (root / "queries").mkdir()
    (root / "queries" / "q.rq").write_text(header_and_query, encoding="utf-8")
    return root


@pytest.mark.parametrize("command", ["queries", "site"])
def test_billion_laughs_is_an_input_error_at_the_anchor(tmp_path, command):
    root = anthology(tmp_path / "a", laughs(8))
    site = ("-o", str(tmp_path / "out")) if command == "site" else ()
    result = run_cli("--root", str(root), command, *site)
    assert result.exit_code == 2, result.output
    assert "q.rq:2: the #+ header uses a YAML anchor or alias" in result.stderr
    assert not (tmp_path / "out").exists()


def test_an_alias_alone_is_refused_at_its_line(tmp_path):
    root = anthology(tmp_path / "a", "#+ summary: s\n#+ tags:\n#+   - *t\n" + QUERY)
    result = run_cli("--root", str(root), "queries")
    assert result.exit_code == 2, result.output
    assert "q.rq:3: the #+ header uses a YAML anchor or alias" in result.stderr


@pytest.mark.parametrize("value", ["[a, b]", "{a: b}"])
def test_a_description_that_is_not_text_is_refused_at_its_line(tmp_path, value):
    root = anthology(tmp_path / "a", f"#+ summary: s\n#+ description: {value}\n" + QUERY)
    result = run_cli("--root", str(root), "queries")
    assert result.exit_code == 2, result.output
    assert "q.rq:2: #+ description must be text" in result.stderr


def test_ampersands_and_stars_in_text_are_read_as_text(tmp_path):
    root = anthology(tmp_path / "a", "#+ summary: R&D * all\n#+ description: 'a *b &c'\n" + QUERY)
    result = run_cli("--root", str(root), "queries")
    assert result.exit_code == 0, result.output
    assert "q\tR&D * all" in result.stdout
