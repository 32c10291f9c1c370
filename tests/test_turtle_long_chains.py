"""The Turtle writer's nesting of blank nodes used once is linear in their number: a list
of n members, or a chain of blank nodes, is walked once (hunt15 #3: ``_rooted`` walked
each node's chain of referrers again, n²/2 steps; a 20,000-member list took 172 s to
export, 0.8 s now). Nested blank nodes are written, and sorted, with no Python frame a
level (hunt15 #8: the writer recursed two frames a level, so `export` refused data
nested about 500 deep and `fmt` 500, which `check` accepts 8,000 deep)."""

import hashlib
import random

import pyoxigraph as ox
from conftest import run_cli

from anthology_kg import turtle
from anthology_kg.turtle import _rooted, turtle_of_quads, turtle_sections

EX = "https://example.org/"
RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
XSD = "http://www.w3.org/2001/XMLSchema#"
AK = "https://w3id.org/anthology-kg/ns#"


class _CountingParents(dict):
    """A ``parents`` mapping that counts its lookups."""

    lookups = 0

    def __getitem__(self, key):
        self.lookups += 1
        return super().__getitem__(key)


def test_rooted_chains_cycles_and_what_hangs_from_a_cycle():
    # a <- b <- c hang from the IRI subject <s>; x <-> y is a cycle; z hangs from it.
    parents = {"a": "<s>", "b": "a", "c": "b", "x": "y", "y": "x", "z": "x"}
    assert _rooted(set(parents), parents) == {"a", "b", "c"}
    assert _rooted(set(), {}) == set()


def test_each_node_of_a_long_chain_is_looked_up_once():
    n = 20_000
    parents = _CountingParents({f"n{i}": f"n{i - 1}" for i in range(1, n)} | {"n0": "<s>"})
    assert _rooted(set(parents), parents) == set(parents)
    assert parents.lookups == n  # the walk before: n(n+1)/2


def test_a_long_list_is_written_as_a_list():
    subject, value = ox.NamedNode("https://example.org/s"), ox.NamedNode("https://example.org/p")
    members = [ox.Literal(f"m{i}") for i in range(3_000)]
    cells = [ox.BlankNode() for _ in members]
    first = ox.NamedNode("http://www.w3.org/1999/02/22-rdf-syntax-ns#first")
    rest = ox.NamedNode("http://www.w3.org/1999/02/22-rdf-syntax-ns#rest")
    nil = ox.NamedNode("http://www.w3.org/1999/02/22-rdf-syntax-ns#nil")
    quads = [ox.Quad(subject, value, cells[0])]
    for i, cell in enumerate(cells):
        quads.append(ox.Quad(cell, first, members[i]))
        quads.append(ox.Quad(cell, rest, cells[i + 1] if i + 1 < len(cells) else nil))
    text = turtle_of_quads(quads, base="https://example.org/")
    assert '( "m0" "m1" ' in text and ' "m2999" )' in text and "_:" not in text
    read_back = list(ox.parse(text, ox.RdfFormat.TURTLE))
    assert len(read_back) == len(quads)
    assert {t.object for t in read_back if t.predicate == first} == set(members)


#: Predicates: two that begin one another (p, p2), rdf:type (written first, as ``a``),
#: ak:position (nested nodes in its order) and q.
PREDICATES = [f"<{EX}p>", f"<{EX}p2>", f"<{RDF}type>", f"<{AK}position>", f"<{EX}q>"]
OBJECTS = [
    '"a"',
    '"b"',
    '"a"@en',
    '"line\\nbreak"',
    '"q\\"uote"',
    f'"7"^^<{XSD}integer>',
    f'"10"^^<{XSD}integer>',
    f'"2.5"^^<{XSD}decimal>',
    f'"1e3"^^<{XSD}double>',
    f'"true"^^<{XSD}boolean>',
    f'"2024"^^<{XSD}gYear>',
    f"<{EX}o1>",
    f"<{EX}o2>",
]


def _varied_graph(seed: int) -> list[str]:
    """N-Triples lines of a random graph: IRI subjects with blank nodes nested up to
    eight levels deep (several to a predicate, some with an ak:position, some empty),
    lists (nested, empty, or not lists for one more triple), and now and then a blank
    node used twice, a cycle or a blank subject none uses (written with labels)."""
    rng = random.Random(seed)
    lines: list[str] = []
    made = [0]

    def blank() -> str:
        made[0] += 1
        return f"_:n{made[0]}"

    def value(depth: int) -> str:
        roll = rng.random()
        if depth >= 8 or roll < 0.4:
            return rng.choice(OBJECTS)
        return listed(depth + 1) if roll < 0.55 else node(depth + 1)

    def listed(depth: int) -> str:
        cells = [blank() for _ in range(rng.randrange(4))]
        for i, cell in enumerate(cells):
            after = cells[i + 1] if i + 1 < len(cells) else f"<{RDF}nil>"
            lines.append(f"{cell} <{RDF}first> {value(depth)}")
            lines.append(f"{cell} <{RDF}rest> {after}")
            if rng.random() < 0.05:
                lines.append(f"{cell} <{EX}q> {value(depth)}")
        return cells[0] if cells else f"<{RDF}nil>"

    def node(depth: int) -> str:
        me = blank()
        if rng.random() < 0.2:
            lines.append(f'{me} <{AK}position> "{rng.randrange(3)}"^^<{XSD}integer>')
        for _ in range(rng.choice([0, 1, 2, 2, 3])):
            lines.append(f"{me} {rng.choice(PREDICATES)} {value(depth)}")
        return me

    for s in range(rng.randrange(1, 4)):
        for _ in range(rng.randrange(1, 6)):
            lines.append(f"<{EX}s{s}> {rng.choice(PREDICATES)} {value(0)}")
    if made[0] and rng.random() < 0.15:
        lines.append(f"<{EX}s9> <{EX}q> _:n{rng.randrange(1, made[0] + 1)}")
    if made[0] and rng.random() < 0.1:
        a, b = rng.randrange(1, made[0] + 1), rng.randrange(1, made[0] + 1)
        lines.append(f"_:n{a} <{EX}q> _:n{b}")
    if rng.random() < 0.1:
        lines.append(f"{node(0)} <{EX}q> {value(0)}")
    return list(dict.fromkeys(lines))


def _documents() -> str:
    """The Turtle of 150 varied graphs, each as one section and as two."""
    texts = []
    for seed in range(150):
        lines = _varied_graph(seed)
        half = len(lines) // 2
        texts.append(turtle_sections([("", lines)], base=EX))
        texts.append(turtle_sections([("", lines[:half]), ("# two", lines[half:])], base=EX))
    return "".join(texts)


#: SHA-256 of ``_documents()`` as the recursive writer (before 2026-12-06, fix15c) wrote
#: them: 472,252 characters, 229 pairs of nested nodes sorted side by side, 1,261 lists,
#: 1,325 labels, 818 empty ``[]``.
RECURSIVE_WRITERS_DOCUMENTS = "fb7e4a27859ecbea46528b123a18ad3d50182e06fa923fe8a2b2426fa36394a3"


def test_the_writer_writes_what_the_recursive_writer_wrote(monkeypatch):
    """Byte for byte, both where nested nodes are sorted by Python's tuple comparison
    and where they all are by ``_compared`` (what nodes nested deeper than
    ``_COMPARED_IN_C`` levels get)."""
    assert hashlib.sha256(_documents().encode()).hexdigest() == RECURSIVE_WRITERS_DOCUMENTS
    monkeypatch.setattr(turtle, "_COMPARED_IN_C", 0)
    assert hashlib.sha256(_documents().encode()).hexdigest() == RECURSIVE_WRITERS_DOCUMENTS


def _chain(depth: int, leaf: str = '"leaf"') -> list[str]:
    """``<s> <p> [ <p> [ ... leaf ] ]``, ``depth`` blank nodes."""
    lines = [f"<{EX}s> <{EX}p> _:x0"]
    lines += [f"_:x{i} <{EX}p> _:x{i + 1}" for i in range(depth - 1)]
    return [*lines, f"_:x{depth - 1} <{EX}p> {leaf}"]


def test_a_chain_nested_2000_deep_is_written_nested():
    """As the recursive writer wrote a chain 300 deep (checked then for 1 to 300)."""
    depth = 2_000
    opening = "".join("[\n" + "    " * (k + 1) + "id:p " for k in range(1, depth + 1))
    closing = "".join("\n" + "    " * k + "]" for k in range(depth, 0, -1))
    expected = f'@prefix id: <{EX}> .\n\nid:s id:p {opening}"leaf"{closing} .\n'
    assert turtle_sections([("", _chain(depth))], base=EX) == expected


def test_two_alike_chains_2000_deep_are_sorted_and_written():
    """Two objects of one predicate, each a chain 2,000 deep differing at its leaf: their
    keys are compared level by level by ``_compared`` (Python's tuple comparison stops
    at its limit on recursion), the one whose leaf sorts first first."""
    depth = 2_000
    late = [line.replace("_:x", "_:y") for line in _chain(depth, '"z"')]
    text = turtle_sections([("", late + _chain(depth, '"a"'))], base=EX)
    assert text.index('"a"') < text.index('"z"') and "_:" not in text
    assert len(list(ox.parse(text.encode(), format=ox.RdfFormat.TURTLE))) == 2 * (depth + 1)


def test_export_and_fmt_of_a_file_nested_2000_deep(tmp_path):
    """What `check` accepts, `export` and `fmt` write, alike (before: exit 2, nests too
    deep; then fmt's check, by RDFC-1.0, refused the 1,999 alike nodes)."""
    depth = 2_000
    data = tmp_path / "a" / "data"
    data.mkdir(parents=True)
    (data / "A-1.ttl").write_text(
        f"@prefix ak: <{AK}> .\n"
        f"<https://w3id.org/anthology-kg/id/A-1> ak:x {'[ ak:x ' * depth}1{' ]' * depth} .\n"
    )
    out = tmp_path / "x.ttl"
    root = str(tmp_path / "a")
    result = run_cli("--root", root, "export", "--include", "data", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    written = out.read_text()
    assert written.count("[") == depth and "_:" not in written
    assert run_cli("--root", root, "fmt").exit_code == 0
    assert (data / "A-1.ttl").read_text() == written
