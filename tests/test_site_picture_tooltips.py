"""A picture's tooltips are its labels as written on Graphviz's layout too: Graphviz reads
a tooltip (and a URL) as an escString, where ``\\N``, ``\\G``, ``\\E``, ``\\T``, ``\\H``
and ``\\L`` are the node's, graph's, edge's names and label and ``\\l`` a line break, an
escaped backslash included (dot 2.43); the layered layout here wrote them right
(hunt20 #15)."""

from __future__ import annotations

import re
import shutil
from html import unescape

import pytest

from anthology_kg.site.pictures import Box, Picture, draw_all

LABEL = 'ev"il\\l\\N\\G\\L\\ <b>x</b> & \\\\ end'
RELATION = "rests \\E\\T\\H on"


@pytest.mark.parametrize("prefer_dot", [True, False], ids=["dot", "python"])
def test_tooltips_are_the_labels_as_written(prefer_dot):
    if prefer_dot and shutil.which("dot") is None:
        pytest.skip("Graphviz's dot is not installed")
    picture = Picture(
        [Box("a", LABEL, "a.html"), Box("b", "plain", "b.html")], [("a", RELATION, "b")], True
    )
    (svg,), layout = draw_all([picture], prefer_dot=prefer_dot)
    assert (layout is not None) == prefer_dot
    titles = [unescape(t) for t in re.findall(r"<title>([^<]*)</title>", svg)]
    assert LABEL in titles, titles
    if prefer_dot:
        tooltips = [unescape(t) for t in re.findall(r'xlink:title="([^"]*)"', svg)]
        assert sorted(tooltips) == sorted([LABEL, "plain", RELATION]), tooltips
        assert f"{LABEL} {RELATION} plain" in titles, titles
