"""The warning of a waiver that names nothing in the data (4a083df) says where the entry
it was meant for is, and which base its relative IRI resolved against: (a) under a
changed base, ``<LIT-001>`` was offered "did you mean 'LIT-001'?", what the user wrote;
the hint now names the entry's IRI, or the prefixed name of waivers.ttl that reaches it;
(b) a waivers.ttl with its own ``@base`` (or ``BASE``) had the configured base named,
though its relative IRIs resolve against the file's."""

from __future__ import annotations

import pytest
import test_waiver_names_nothing as names_nothing
from conftest import run_cli, waiver_text

ENTRIES, DANGLING = names_nothing.BASE, names_nothing.DANGLING
MINE = "https://example.org/mine/id/"
root = names_nothing.root  # the fixture: the rule9-bad anthology, the working directory


def _waivers(root, focus: str, header: str = "") -> int:
    """waivers.ttl waiving ``focus``, ``header`` (directives) after its prefixes: the
    line of the waiver."""
    text = waiver_text('"2999-12-31"^^xsd:date').replace("<LIT-001>", focus)
    text = text.replace("\n\n", f"\n{header}\n", 1)
    (root / "waivers.ttl").write_text(text, encoding="utf-8")
    return text.splitlines().index("<waiver/LIT-001-rule9> a ak:Waiver ;") + 1


def _warned(root, *args: str) -> str:
    result = run_cli(*args, "check")
    assert result.exit_code == 1 and DANGLING in result.stdout, result.output
    (line,) = result.stderr.splitlines()
    return line


def _changed_base(root) -> None:
    (root / "anthology-kg.toml").write_text(f'base = "{MINE}"\n', encoding="utf-8")


def test_a_changed_base_is_offered_the_entry_s_iri(root):
    line = _waivers(root, "<LIT-001>")
    _changed_base(root)
    assert _warned(root) == (
        f"waivers.ttl:{line}: warning: the waiver waives <{MINE}LIT-001>, which names "
        "nothing in the data, and so waives nothing (a relative IRI resolves against the "
        f"base <{MINE}>); did you mean '<{ENTRIES}LIT-001>'?"
    )


def test_a_prefix_of_the_waivers_file_that_reaches_the_entry_is_offered(root):
    line = _waivers(root, "<LIT-001>", f"@prefix id: <{ENTRIES}> .\n")
    _changed_base(root)
    assert _warned(root).endswith("; did you mean 'id:LIT-001'?")
    assert _warned(root).startswith(f"waivers.ttl:{line}: warning: the waiver waives <{MINE}")


def test_a_typo_under_a_changed_base_is_offered_the_entry_s_iri(root):
    _waivers(root, "<LIT-0001>")
    _changed_base(root)
    assert _warned(root).endswith(f"; did you mean '<{ENTRIES}LIT-001>'?")


def test_where_the_relative_form_reaches_the_entry_it_is_offered_as_before(root):
    """The entry under the base a relative IRI resolves against: its identifier, as
    4a083df offers it (test_waiver_names_nothing)."""
    _waivers(root, "<LIT-0001>")
    assert _warned(root).endswith(f"<{ENTRIES}>); did you mean 'LIT-001'?")


@pytest.mark.parametrize("directive", ["@base <{}> .", "BASE <{}>"])
def test_the_waivers_file_s_own_base_is_named(root, directive):
    """The file's @base, not the configured base (here the default, the entries'), is
    what ``<LIT-0001>`` resolves against; its line is said."""
    line = _waivers(root, "<LIT-0001>", directive.format("https://example.org/w/") + "\n")
    assert _warned(root) == (
        f"waivers.ttl:{line}: warning: the waiver waives <https://example.org/w/LIT-0001>, "
        "which names nothing in the data, and so waives nothing (a relative IRI resolves "
        f"against the base <https://example.org/w/>, set by waivers.ttl:{line - 2}); did "
        f"you mean '<{ENTRIES}LIT-001>'?"
    )


def test_a_relative_base_of_the_file_resolves_against_the_configured_one(root):
    """``@base <sub/>`` under the configured base: the base named is the one it makes."""
    line = _waivers(root, "<LIT-001>", "@base <sub/> .\n")
    assert _warned(root) == (
        f"waivers.ttl:{line}: warning: the waiver waives <{ENTRIES}sub/LIT-001>, which "
        "names nothing in the data, and so waives nothing (a relative IRI resolves against "
        f"the base <{ENTRIES}sub/>, set by waivers.ttl:{line - 2}); did you mean "
        f"'<{ENTRIES}LIT-001>'?"
    )


def test_a_file_base_that_is_the_entries_base_offers_the_identifier(root):
    """With a changed configured base, a file whose @base is the entries' reaches them
    with a relative IRI again: a typo there is offered the identifier."""
    line = _waivers(root, "<LIT-0001>", f"@base <{ENTRIES}> .\n")
    _changed_base(root)
    assert _warned(root) == (
        f"waivers.ttl:{line}: warning: the waiver waives <{ENTRIES}LIT-0001>, which names "
        f"nothing in the data, and so waives nothing (a relative IRI resolves against the "
        f"base <{ENTRIES}>, set by waivers.ttl:{line - 2}); did you mean 'LIT-001'?"
    )
