"""A base against which a relative IRI ``<ID>`` does not resolve to base + "ID" is
refused, exit 2, where it was given (hunt1 F13): RFC 3986 drops a base's fragment,
query and last segment, so with ``--base 'http://x/id#'`` a file's ``<LIT-501>`` was
``<http://x/LIT-501>``, not the entry ``id:LIT-501``, and check blamed a dangling
reference while ``new`` wrote ``<http://x/id#LIT-501>``."""

from __future__ import annotations

import pytest
from conftest import run_cli

from anthology_kg.errors import AnthologyError
from anthology_kg.sources import check_base

REFUSED = {
    "http://x/id#": "does not end in '/': the relative IRI <ID> would be <http://x/ID>, "
    "not <http://x/id#ID>; end it with /",
    "urn:x:": "does not end in '/': the relative IRI <ID> would be <urn:ID>, "
    "not <urn:x:ID>; end it with /",
    "http://x/id": "does not end in '/': the relative IRI <ID> would be <http://x/ID>, "
    "not <http://x/idID>; end it with /",
    "http://x": "does not end in '/': the relative IRI <ID> would be <http://x/ID>, "
    "not <http://xID>; end it with /",
    "http://x/?q=/": "has a query or a fragment: the relative IRI <ID> would be "
    "<http://x/ID>, not <http://x/?q=/ID>; end its path with / and drop them",
}


@pytest.mark.parametrize("base", REFUSED)
def test_the_option_names_itself_and_the_fix(base):
    result = run_cli("--base", base, "stats")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"anthology-kg: --base {base!r} {REFUSED[base]}\n"


@pytest.mark.parametrize("base", ["http://x/id#", "urn:x:"])
def test_the_configuration_file_is_named(tmp_path, monkeypatch, base):
    (tmp_path / "data").mkdir()
    (tmp_path / "anthology-kg.toml").write_text(f'base = "{base}"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = run_cli("check")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"anthology-kg.toml:1: base: {base!r} {REFUSED[base]}\n"


def test_the_environment_variable_is_named_and_help_shows_it():
    """A bad ANTHOLOGY_KG_BASE was blamed on a --base the user did not type (hunt9 #12)."""
    from click.testing import CliRunner

    from anthology_kg.cli import main

    base = "http://x/id#"
    result = CliRunner().invoke(main, ["stats"], env={"ANTHOLOGY_KG_BASE": base})
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"anthology-kg: ANTHOLOGY_KG_BASE {base!r} {REFUSED[base]}\n"
    overridden = CliRunner().invoke(
        main, ["--base", "urn:x/", "stats"], env={"ANTHOLOGY_KG_BASE": base}
    )
    assert overridden.exit_code == 0, overridden.stderr
    assert "env var: ANTHOLOGY_KG_BASE" in run_cli("--help").stdout


@pytest.mark.parametrize("base", ["https://example.org/id/", "urn:x/", "file:///tmp/a%20b/"])
def test_a_base_ending_in_a_slash_is_taken(base):
    assert check_base(base) == base
    result = run_cli("--base", base, "stats")
    assert result.exit_code == 0, result.stderr


def test_check_base_refuses_in_the_library():
    with pytest.raises(AnthologyError, match="end it with /"):
        check_base("http://x/id#")


def test_the_library_refuses_such_a_base_as_the_command_line_does(tmp_path):
    """open_engine and load_anthology built an anthology whose entries were not base +
    identifier (hunt5 #7); a bare string to select_results was read one character a
    pattern."""
    from anthology_kg import load_anthology, open_engine, select_results, validate
    from anthology_kg.errors import AnthologyError
    from anthology_kg.resources import bundled_dir

    for kind in ("fast", "reference"):
        with pytest.raises(AnthologyError, match="does not end in '/'"):
            open_engine(kind, root=bundled_dir(), base="http://x/id#")
    with pytest.raises(AnthologyError, match="does not end in '/'"):
        load_anthology(bundled_dir(), base="http://x/id#")
    report = validate(open_engine("fast", root=bundled_dir()))
    with pytest.raises(TypeError, match="sequences of patterns"):
        select_results(report, select="AK006")
    assert len(select_results(report, select=["AK006"]).results) == 2
