"""`new` never writes over a file: one there before, or one made while it writes
(review10 F6)."""

import pytest
from conftest import run_cli

from anthology_kg import authoring, files

THEIRS = "# written by someone else\n"


@pytest.mark.parametrize(
    ("module", "name", "message"),
    [
        # Once the entry is known to be new, before its file is written.
        (authoring, "canonical_turtle", "the file exists already; nothing written"),
        # Once the file is written under its temporary name, before it is put in place.
        (files, "_refuse_existing", "written meanwhile by another process; nothing written"),
    ],
)
def test_a_file_made_while_new_writes_is_left_as_it_is(
    anthology, monkeypatch, module, name, message
):
    path = anthology / "data" / "LIT-210.ttl"
    original = getattr(module, name)

    def another_process_writes(*args, **kwargs):
        answer = original(*args, **kwargs)
        path.write_text(THEIRS, encoding="utf-8")
        return answer

    monkeypatch.setattr(module, name, another_process_writes)
    result = run_cli("new", "lit", "LIT-210")
    assert result.exit_code == 2, result.stdout
    assert result.stderr == f"data/LIT-210.ttl: {message}\n"
    assert path.read_text(encoding="utf-8") == THEIRS
    assert sorted(p.name for p in path.parent.iterdir() if p.name.startswith(".")) == []
