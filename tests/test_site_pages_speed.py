"""The shortcuts the entry pages take at scale give what the plain way gives."""

from __future__ import annotations

from xml.etree import ElementTree

from hypothesis import given, settings
from hypothesis import strategies as st

from anthology_kg.site import pictures
from anthology_kg.site.pictures import Box, layered_svg, wrapped

SVG = "{http://www.w3.org/2000/svg}"
# Labels that sort alike and apart, wrap, and hold what SVG and str.format treat specially.
LABELS = st.sampled_from(
    ["a", "b", "B", "verl", "x{0}y", "{}", "<script>", 'say "hi" & go', "é", "a" * 40]
    + ["claim about the baseline " * 3, "two words", "two  words", "ARXIV-2409.19256"]
)


@st.composite
def layered_pictures(draw) -> tuple[list[Box], list[tuple[str, str, str]]]:
    count = draw(st.integers(min_value=1, max_value=7))
    keys = draw(
        st.lists(
            st.text("abcxyz", min_size=1, max_size=3), min_size=count, max_size=count, unique=True
        )
    )
    boxes = [
        Box(key, draw(LABELS), draw(st.sampled_from([None, "", f"../entries/{key}.html", "a&b"])))
        for key in keys
    ]
    edges = draw(
        st.lists(
            st.tuples(
                st.sampled_from(keys),
                st.sampled_from(["rests on", "about", "mentions"]),
                st.sampled_from(keys),
            ),
            max_size=10,
            unique=True,
        )
    )
    return boxes, sorted(edges)


def _boxes_drawn(svg: str) -> list[tuple[str | None, str, list[str], float, float]]:
    """Each box of a layered drawing, in order: its link, tooltip, lines, x and y."""
    drawn = []
    for group in ElementTree.fromstring(svg):
        if group.tag not in (SVG + "a", SVG + "g"):
            continue
        rect = group.find(SVG + "rect")
        assert rect is not None
        drawn.append(
            (
                group.get("href"),
                group.findtext(SVG + "title") or "",
                [span.text or "" for span in group.iter(SVG + "tspan")],
                float(rect.get("x", "")),
                float(rect.get("y", "")),
            )
        )
    return drawn


@settings(max_examples=300, deadline=None)
@given(layered_pictures())
def test_a_picture_drawn_from_its_shape_is_the_picture_drawn_with_its_texts(picture):
    boxes, edges = picture
    svg = layered_svg(boxes, edges)
    lines = [wrapped(box.label) for box in boxes]
    texts = [
        (pictures.escape(b.href or ""), pictures.escape(b.label), *map(pictures.escape, ls))
        for b, ls in zip(boxes, lines, strict=True)
    ]
    shape = pictures._shape(boxes, edges, lines)
    assert svg == pictures._draw(shape, lambda box, slot: texts[box][slot])
    drawn = _boxes_drawn(svg)
    assert [(href, title, spans) for href, title, spans, _, _ in drawn] == [
        (box.href or None, box.label, lines[i]) for i, box in enumerate(boxes)
    ]
    # The boxes of the first column have no neighbour to their left: they are in the
    # order of their labels (then of the boxes), as the layout sorts them.
    first = min(x for *_, x, _ in drawn)
    column = [i for i, (*_, x, _) in enumerate(drawn) if x == first]
    by_height = sorted(column, key=lambda i: drawn[i][4])
    assert by_height == sorted(column, key=lambda i: (boxes[i].label, i))


def test_pictures_of_one_shape_share_a_drawing_and_keep_their_own_texts():
    pictures._drawing.cache_clear()
    one = layered_svg(
        [Box("a", "ARXIV-1", "../entries/ARXIV-1.html"), Box("b", "verl")], [("a", "about", "b")]
    )
    other = layered_svg(
        [Box("c", "ARXIV-2", "../entries/ARXIV-2.html"), Box("d", "{0} & <b>")],
        [("c", "about", "d")],
    )
    assert pictures._drawing.cache_info().misses == 1
    assert one.replace("ARXIV-1", "ARXIV-2").replace(">verl<", ">{0} &amp; &lt;b&gt;<") == other
