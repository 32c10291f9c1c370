"""The Turtle writer's names of IRIs: the shortcut for the ``id:`` names of most subjects
(``turtle._own_name``) gives what ``_prefix_name`` gives, whatever the base."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from anthology_kg.prefixes import PREFIXES
from anthology_kg.turtle import _own_name, _prefix_name, _Writer

BASES = [
    "https://w3id.org/anthology-kg/id/",  # the default: the shortcut applies
    "http://example.org/",
    "http://example.org/x#",
    PREFIXES["ak"],  # a namespace bound twice: the shortcut must not apply
    "https://w3id.org/anthology-kg/",  # ak's namespace begins with it: nor here
    "http://example.org/id-",  # no "/" or "#" at its end: nor here
]
#: Characters a local name may hold, and some it may not (``/``, ``#``, ``%``, ``é``).
LOCAL = st.text(st.sampled_from("aZ09_.-/#%é"), max_size=8)


def test_the_shortcut_applies_only_where_no_other_prefix_fits():
    assert [_own_name(base) is not None for base in BASES] == [
        True,
        True,
        True,
        False,
        False,
        False,
    ]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(BASES), st.sampled_from([*BASES, *PREFIXES.values()]), LOCAL)
@example(BASES[0], BASES[0], "ARXIV-2000.00002")
@example(BASES[0], BASES[0], "a.")  # no local name ends with "."
@example(BASES[0], BASES[0], "-a")
@example(BASES[3], BASES[3], "Takeaway")
def test_a_subject_and_an_object_are_named_as_prefix_name_names_them(base, namespace, local):
    token = f"<{namespace}{local}>"
    name, prefix = _prefix_name(token, base)
    writer = _Writer([], base)
    assert writer.iri(token) == name
    assert writer.used == ({prefix} if prefix else set())
    # A subject is named in the writer's loop over the lines, not by ``iri``.
    lines = [f"{token} <urn:p> <urn:o>"]
    writer = _Writer(lines, base)
    assert writer.blocks({}) == [f"{name} <urn:p> <urn:o> .\n"]
    assert writer.used == ({prefix} if prefix else set())
