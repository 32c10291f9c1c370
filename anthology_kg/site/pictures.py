"""Dependency pictures as SVG that can be read at the size they are shown.

The anthology's picture and each entry's neighbourhood (what it rests on, what rests on
it) are laid out by Graphviz's ``dot`` when it is installed, all of them in one run,
else by the layered layout here. Both wrap long labels (the full label is the tooltip),
draw text at 14 px when shown at natural size, and never route an edge under a box.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import textwrap
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from html import escape as _html_escape

from ..errors import printable_characters

FONT = 14  # px at natural size: the page shows pictures unscaled, scrolling if wide
LINE = 18
WRAP = 26  # characters per label line
MAX_LINES = 3
BOX_W, GAP_X, GAP_Y, MARGIN = 200, 84, 30, 20
COLOURS = ("#2b5d9b", "#a0522d", "#2e7d32", "#7b1fa2", "#c62828", "#00838f", "#555555")


@dataclass(frozen=True)
class Box:
    """A node of a picture: a key, its label, and the page it links to (if any)."""

    key: str
    label: str
    href: str | None = None


def wrapped(label: str) -> list[str]:
    """The label in at most MAX_LINES lines of about WRAP characters, the last one
    ending in an ellipsis when the label is longer."""
    if len(label) <= WRAP and label == " ".join(label.split()):
        return [label]  # what textwrap gives, without its cost (a picture per entry)
    lines = textwrap.wrap(label, WRAP, break_long_words=True) or [""]
    if len(lines) > MAX_LINES:
        lines = lines[:MAX_LINES]
        lines[-1] = lines[-1][: WRAP - 1].rstrip() + "…"
    return lines


@dataclass(frozen=True)
class Picture:
    """Boxes and edges (from key, relation, to key) to draw; arrows point at what is
    rested on. ``across``: drawn left to right (a neighbourhood), else top down."""

    boxes: list[Box]
    edges: list[tuple[str, str, str]]
    across: bool = False
    title: str = "dependencies"


def draw_all(pictures: list[Picture], prefer_dot: bool = True) -> tuple[list[str], str | None]:
    """An SVG for each picture, and the name of the layout that drew them: Graphviz's
    ``dot`` when installed (one run for all), else the layered layout here (None)."""
    dot = shutil.which("dot") if prefer_dot and pictures else None
    if dot:
        svgs = dot_svgs(dot, pictures)
        if svgs is not None:
            return svgs, "Graphviz dot"
    return [layered_svg(p.boxes, p.edges) for p in pictures], None


def _relations(edges: Sequence[tuple[object, str, object]]) -> dict[str, str]:
    return {rel: COLOURS[i % len(COLOURS)] for i, rel in enumerate(sorted({e[1] for e in edges}))}


@lru_cache(maxsize=1 << 16)  # the same texts come back in picture after picture
def escape(text: str) -> str:
    """``text`` for SVG: its control characters (and the others XML 1.0 cannot hold)
    written as the text report writes them (``\\x01``), then escaped as HTML."""
    return _html_escape(printable_characters(text))


@lru_cache(maxsize=256)
def _markers_and_legend(relations: tuple[str, ...]) -> tuple[str, list[str], dict[str, str]]:
    """The arrow heads (``<defs>``), the legend's lines and, by relation, the end of an
    edge's ``<path`` element (after its ``d``) of a picture whose edges have these
    relations (sorted): the same for every picture with them."""
    colours = {rel: COLOURS[i % len(COLOURS)] for i, rel in enumerate(relations)}
    defs = (
        "<defs>"
        + "".join(
            f'<marker id="arrow{i}" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" '
            f'markerHeight="7" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="{c}"/></marker>'
            for i, c in enumerate(colours.values())
        )
        + "</defs>"
    )
    legend = []
    x = MARGIN
    for rel, colour in colours.items():
        legend.append(
            f'<line x1="{x}" y1="{MARGIN + 6}" x2="{x + 28}" y2="{MARGIN + 6}" '
            f'stroke="{colour}" stroke-width="2"/><text x="{x + 34}" y="{MARGIN + 11}" '
            f'fill="{colour}">{escape(rel)}</text>'
        )
        x += 44 + 8 * len(rel) + 20
    ends = {
        rel: f'" fill="none" stroke="{colour}" stroke-width="1.6" '
        f'marker-end="url(#arrow{i})" class="edge"><title>{escape(rel)}</title></path>'
        for i, (rel, colour) in enumerate(colours.items())
    }
    return defs, legend, ends


def _dot_string(text: str) -> str:
    """``text`` as a DOT string, its control characters written as ``printable_characters`` writes
    them: Graphviz would copy them into its SVG, which XML cannot hold."""
    return '"' + printable_characters(text).replace("\\", "\\\\").replace('"', '\\"') + '"'


def dot_source(picture: Picture) -> str:
    """``picture`` in the DOT language; node names are generated (``n0``...), labels and
    tooltips are DOT strings with quotes and backslashes escaped, so no label can change
    the graph."""
    ids = {box.key: f"n{i}" for i, box in enumerate(picture.boxes)}
    colours = _relations(picture.edges)
    lines = [
        f"digraph {_dot_string(picture.title)} {{",
        f'rankdir={"LR" if picture.across else "TB"}; nodesep=0.35; ranksep=0.7; bgcolor="white";',
        f'node [shape=box, style="rounded,filled", fillcolor="#eef3fb", color="#336", '
        f'fontname="sans-serif", fontsize={FONT}];',
        f'edge [fontname="sans-serif", fontsize={FONT - 2}, color="#555"];',
    ]
    for box in picture.boxes:
        label = "\\n".join(
            printable_characters(line).replace("\\", "\\\\").replace('"', '\\"')
            for line in wrapped(box.label)
        )
        # The tooltip is the node's name, written over by the label in _named: Graphviz
        # reads a tooltip as an escString (\\N, \\G, \\L, \\l ...), an escaped backslash
        # too (dot 2.43), and no escaping of the label's text is honoured everywhere.
        attrs = [f'label="{label}"', f'tooltip="{ids[box.key]}"']
        if box.href:
            attrs.append(f"URL={_dot_string(box.href)}")
        lines.append(f"{ids[box.key]} [{', '.join(attrs)}];")
    for number, (a, rel, b) in enumerate(picture.edges):
        lines.append(
            f"{ids[a]} -> {ids[b]} [label={_dot_string(rel)}, color={_dot_string(colours[rel])}, "
            f'fontcolor={_dot_string(colours[rel])}, tooltip="e{number}"];'
        )
    lines.append("}")
    return "\n".join(lines)


def dot_svgs(dot: str, pictures: list[Picture]) -> list[str] | None:
    """Graphviz's drawing of each picture, from one ``dot`` run; None when it fails."""
    source = "\n".join(dot_source(p) for p in pictures)
    try:
        done = subprocess.run(
            [dot, "-Tsvg"], input=source, capture_output=True, text=True, timeout=600
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    parts = done.stdout.split("<?xml")[1:]  # one document per graph; text has no "<"
    if done.returncode != 0 or len(parts) != len(pictures) or not all("<svg" in p for p in parts):
        return None
    return [
        _named(part[part.index("<svg") :], picture)
        for part, picture in zip(parts, pictures, strict=True)
    ]


_NODE_TITLE = re.compile(r"<title>n([0-9]+)</title>")
# An edge's title, and the tooltip dot_source gives it (the edge's number).
_EDGE_TITLE = re.compile(
    r"<title>n([0-9]+)&#45;&gt;n([0-9]+)</title>"
    r'(?:(\s*<g id="a_edge[0-9]+"><a xlink:title=")e([0-9]+)("))?'
)
# An edge's tooltip elsewhere (its label's link, where dot draws one).
_EDGE_TOOLTIP = re.compile(r'( xlink:title=")e([0-9]+)(")')
# A box's tooltip as dot_source gives it (the node's name), where dot writes it.
_NODE_TOOLTIP = re.compile(r'( xlink:title=")n([0-9]+)(")')


def _named(svg: str, picture: Picture) -> str:
    """Graphviz's drawing with each box's ``<title>`` (a browser's name for it) and
    tooltip its label, and each edge's title its two labels and relation (``LIT-168
    rests on verl``) and its tooltip the relation, where dot writes the names
    ``dot_source`` gave (``n0``, ``n1->n0``, ``e0``)."""
    labels = [escape(box.label) for box in picture.boxes]
    relations = [escape(rel) for _, rel, _ in picture.edges]

    def edge(match: re.Match) -> str:
        a, b = labels[int(match[1])], labels[int(match[2])]
        if match[4] is None:
            return f"<title>{a} → {b}</title>"
        relation = relations[int(match[4])]
        return f"<title>{a} {relation} {b}</title>{match[3]}{relation}{match[5]}"

    svg = _EDGE_TITLE.sub(edge, svg)
    svg = _EDGE_TOOLTIP.sub(lambda m: f"{m[1]}{relations[int(m[2])]}{m[3]}", svg)
    svg = _NODE_TOOLTIP.sub(lambda m: f"{m[1]}{labels[int(m[2])]}{m[3]}", svg)
    return _NODE_TITLE.sub(lambda m: f"<title>{labels[int(m[1])]}</title>", svg)


def _columns(keys: list[int], edges: list[tuple[int, str, int]]) -> dict[int, int]:
    """A column for each key: one to the left of everything it rests on (longest path),
    cycles broken by visiting order."""
    targets: dict[int, list[int]] = defaultdict(list)
    for a, _, b in edges:
        if a != b:
            targets[a].append(b)
    depth: dict[int, int] = {}
    on_path: set[int] = set()

    def layer(key: int) -> int:
        known = depth.get(key)
        if known is not None:
            return known
        below = targets.get(key)
        deepest = -1
        if below:
            on_path.add(key)
            for b in sorted(set(below)) if len(below) > 1 else below:
                if b not in on_path:
                    deepest = max(deepest, layer(b))
            on_path.discard(key)
        depth[key] = deepest + 1
        return deepest + 1

    for key in keys:
        layer(key)
    top = max(depth.values(), default=0)
    return {key: top - depth[key] for key in keys}


# What a layered drawing depends on but its texts: for each box, the rank of its key and
# of its label among the picture's (the layout sorts by both: the ranks sort the same),
# its number of label lines and whether it links; each edge as (from box, relation, to
# box), boxes by position.
Shape = tuple[tuple[tuple[int, int, int, bool], ...], tuple[tuple[int, str, int], ...]]
# A box's texts in a drawing: its link, its full label (the tooltip), its label's lines.
_HREF, _TITLE, _LINES = 0, 1, 2


def layered_svg(boxes: list[Box], edges: list[tuple[str, str, str]]) -> str:
    """A left-to-right layered drawing on a grid: boxes in columns and rows, edges between
    neighbouring columns drawn straight across the gap, longer ones routed along the gaps
    between rows, so no edge passes under a box.

    Pictures of the same shape (``Shape``: most neighbourhoods are an entry and one or two
    neighbours) are drawn alike but for their texts: each shape is drawn once, with holes
    where the texts go, and filled with each picture's texts, escaped."""
    texts = [_texts(box) for box in boxes]
    template, holes = _drawing(_shape(boxes, edges, [shown[_LINES:] for shown in texts]))
    return template.format(*[texts[box][slot] for box, slot in holes])


@lru_cache(maxsize=1 << 16)
def _texts(box: Box) -> tuple[str, ...]:
    """A box's texts in a drawing, escaped: its link, its full label and its label's
    lines (``_HREF``, ``_TITLE``, ``_LINES``...): an entry is drawn in each of its
    neighbours' pictures, its texts made once."""
    return (
        escape(box.href) if box.href else "",
        escape(box.label),
        *map(escape, wrapped(box.label)),
    )


def _shape(
    boxes: list[Box], edges: list[tuple[str, str, str]], lines: Sequence[Sequence[str]]
) -> Shape:
    keys = [box.key for box in boxes]
    labels = [box.label for box in boxes]
    key_order = {key: i for i, key in enumerate(sorted(keys))}
    label_order = {label: i for i, label in enumerate(sorted(set(labels)))}
    position = {key: i for i, key in enumerate(keys)}
    return (
        tuple(
            (key_order[box.key], label_order[box.label], len(box_lines), bool(box.href))
            for box, box_lines in zip(boxes, lines, strict=True)
        ),
        tuple((position[a], rel, position[b]) for a, rel, b in edges),
    )


_HOLE = re.compile("\x00([0-9]+) ([0-9]+)\x00")  # no SVG text holds a NUL


@lru_cache(maxsize=4096)
def _drawing(shape: Shape) -> tuple[str, tuple[tuple[int, int], ...]]:
    """The drawing of ``shape`` as a ``str.format`` template, and the text each of its
    holes takes in turn: (box, which of its texts)."""
    parts = _HOLE.split(_draw(shape, lambda box, slot: f"\x00{box} {slot}\x00"))
    template = "{}".join(part.replace("{", "{{").replace("}", "}}") for part in parts[::3])
    return template, tuple(zip(map(int, parts[1::3]), map(int, parts[2::3]), strict=True))


def _draw(shape: Shape, text: Callable[[int, int], str]) -> str:
    """The layered drawing of ``shape``, ``text(box, slot)`` written for each of a box's
    texts (``_HREF``, ``_TITLE``, ``_LINES + line``), escaped for SVG."""
    nodes, edges = shape
    # Boxes are known by their key's rank, edges by the ranks of their ends: the order
    # of the keys (where the layout breaks a cycle) is theirs.
    keys = [node[0] for node in nodes]
    ranked = [(nodes[a][0], rel, nodes[b][0]) for a, rel, b in edges]
    column = _columns(keys, ranked)
    members: dict[int, list[int]] = defaultdict(list)
    for box, key in enumerate(keys):
        members[column[key]].append(box)
    row: dict[int, int] = {}
    for col in sorted(members):
        group = members[col]
        if len(group) == 1:
            row[keys[group[0]]] = 0
            continue

        # Order a column by where its neighbours to the left sit, then by label.
        def weight(box: int) -> tuple[float, int]:
            key = keys[box]
            left = [row[a] for a, _, b in ranked if b == key and a in row]
            left += [row[b] for a, _, b in ranked if a == key and b in row]
            return (sum(left) / len(left) if left else 0.0, nodes[box][1])

        for i, box in enumerate(sorted(group, key=weight)):
            row[keys[box]] = i
    box_h = 12 + LINE * max((node[2] for node in nodes), default=1)
    colours = _relations(ranked)
    legend_h = LINE + 14 if colours else 0
    rows = max((len(m) for m in members.values()), default=1)
    cols = max(members, default=0) + 1
    width = 2 * MARGIN + cols * BOX_W + (cols - 1) * GAP_X + 2 * GAP_X // 2
    height = legend_h + 2 * MARGIN + rows * box_h + (rows + 1) * GAP_Y
    left = MARGIN + GAP_X // 2
    top = legend_h + MARGIN + GAP_Y
    x_of = {key: left + column[key] * (BOX_W + GAP_X) for key in keys}
    y_of = {key: top + row[key] * (box_h + GAP_Y) for key in keys}

    def lane_above(r: int) -> float:
        return legend_h + MARGIN + GAP_Y / 2 + r * (box_h + GAP_Y)

    defs, legend, ends = _markers_and_legend(tuple(colours))
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" font-family="sans-serif" font-size="{FONT}" '
        'class="layered">',
        defs,
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="white"/>',
        *legend,
    ]
    for n, (a, rel, b) in enumerate(ranked):
        if a == b:
            continue
        sx, sy = x_of[a] + BOX_W, y_of[a] + box_h / 2
        tx, ty = x_of[b], y_of[b] + box_h / 2
        shift = (n % 5) * 6 - 12  # keep parallel edges apart in a shared channel
        if column[b] == column[a] + 1:
            mid = (sx + tx) / 2 + shift
            path = f"M{sx},{sy} C{mid},{sy} {mid},{ty} {tx},{ty}"
        else:
            out_x = sx + GAP_X / 2 + shift
            in_x = tx - GAP_X / 2 + shift
            lane = lane_above(row[b]) if column[b] > column[a] else lane_above(rows)
            path = (
                f"M{sx},{sy} L{out_x},{sy} L{out_x},{lane} L{in_x},{lane} L{in_x},{ty} L{tx},{ty}"
            )
        out.append(f'<path d="{path}{ends[rel]}')
    for box, (key, _, line_count, links) in enumerate(nodes):
        x, y = x_of[key], y_of[key]
        first = y + box_h / 2 - LINE * (line_count - 1) / 2 + FONT * 0.35
        spans = "".join(
            f'<tspan x="{x + BOX_W / 2}" y="{first + i * LINE}">{text(box, _LINES + i)}</tspan>'
            for i in range(line_count)
        )
        drawn = (
            f"<title>{text(box, _TITLE)}</title>"
            f'<rect x="{x}" y="{y}" width="{BOX_W}" height="{box_h}" rx="5" fill="#eef3fb" '
            f'stroke="#336" class="box"/><text text-anchor="middle">{spans}</text>'
        )
        if links:
            out.append(f'<a href="{text(box, _HREF)}">{drawn}</a>')
        else:
            out.append(f"<g>{drawn}</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"
