"""The escaping of the entry pages' template: markupsafe's, faster for Markup and str."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from markupsafe import Markup, escape

from anthology_kg.site.pages import _escape


class Html:
    def __html__(self) -> str:
        return "<b>safe</b>"


class Text(str):
    pass


@given(st.text())
def test_a_str_is_escaped_as_markupsafe_escapes_it(value):
    shown = _escape(value)
    assert type(shown) is Markup and shown == escape(value)


@given(st.text())
def test_a_markup_is_itself(value):
    made = Markup(value)
    assert _escape(made) is made


def test_other_values_are_escaped_as_markupsafe_escapes_them():
    for value in (7, 2.5, None, Html(), Text("<i>&</i>"), b"<x>", ["<"]):
        shown = _escape(value)
        assert type(shown) is Markup and shown == escape(value), value
    assert _escape("<script>alert('x')</script>") == (
        "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"
    )
