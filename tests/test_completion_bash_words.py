"""Bash splits the words it passes at each '=' (COMP_WORDBREAKS), so ``--param
entry=AR<TAB>`` reached click as ``entry``, ``=``, ``AR`` and completed nothing, and
``--param en<TAB>`` gave ``entry= `` with a space (hunt9 #8). The words are joined again,
each answer is cut to what bash replaces, and an answer ending in '=' takes no space."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from anthology_kg.cli import main
from anthology_kg.completion import joined_at_equals
from anthology_kg.resources import bundled_dir

START = f"anthology-kg --root {bundled_dir()} query depends-on --param"


def complete(words: str, cword: int) -> list[str]:
    """What the completion answers bash, which split the line into ``words``."""
    env = {"_ANTHOLOGY_KG_COMPLETE": "bash_complete", "COMP_WORDS": words}
    env["COMP_CWORD"] = str(cword)
    result = CliRunner().invoke(main, [], env=env, prog_name="anthology-kg")
    return [line.split(",", 1)[1] for line in result.stdout.splitlines() if line]


def test_an_entry_after_name_equals_is_completed_as_bash_split_it():
    words = f"{START} entry = AR"
    answers = complete(words, len(words.split()) - 1)
    assert answers == ["ARXIV-2409.19256"]  # bash replaces the AR after '='


def test_right_after_the_equals_sign_every_entry_is_offered():
    words = f"{START} entry ="
    answers = complete(words, len(words.split()) - 1)
    assert "LIT-168" in answers and "ARXIV-2409.19256" in answers


def test_a_query_named_after_a_param_is_not_taken_for_the_query():
    """``--param entry=LIT-168`` before the cursor: LIT-168 is no query name."""
    words = f"{START} entry = LIT-168 --param "
    assert complete(words, len(words.split())) == ["entry="]


def test_the_bash_script_types_no_space_after_name_equals():
    env = {"_ANTHOLOGY_KG_COMPLETE": "bash_source"}
    script = CliRunner().invoke(main, [], env=env, prog_name="anthology-kg").stdout
    assert "[[ $value == *= ]] && compopt -o nospace" in script


@pytest.mark.parametrize(
    "words, joined",
    [
        (["--param", "entry", "=", "AR"], ["--param", "entry=AR"]),
        (["--param", "entry", "="], ["--param", "entry="]),
        (["render", "LIT-1"], ["render", "LIT-1"]),
        (["=", "x"], ["=", "x"]),
    ],
)
def test_joined_at_equals(words, joined):
    assert joined_at_equals(words) == joined


def test_query_names_and_parameters_complete_beside_a_broken_data_file(bundled_copy):
    """The stored queries are read from their folders alone: a data file that does not
    parse (an edit in progress) stops neither, and a TAB waits for no data; only entry
    identifiers need the data."""
    with (bundled_copy / "data" / "LIT-168.ttl").open("a", encoding="utf-8") as file:
        file.write("broken .\n")
    root = f"anthology-kg --root {bundled_copy} query"
    for words, answers in (
        (f"{root} con", ["confounders"]),
        (f"{root} depends-on --param en", ["entry="]),
        (f"{root} depends-on --param entry = AR", []),  # the data does not load
    ):
        assert complete(words, len(words.split()) - 1) == answers, words
