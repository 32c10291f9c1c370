"""The Turtle writer's nesting of blank nodes used once is linear in their number: a list
of n members, or a chain of blank nodes, is walked once (hunt15 #3: ``_rooted`` walked
each node's chain of referrers again, n²/2 steps; a 20,000-member list took 172 s to
export, 0.8 s now)."""

import pyoxigraph as ox

from anthology_kg.turtle import _rooted, turtle_of_quads


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


def test_fmt_names_the_file_whose_blank_nodes_nest_too_deep(bundled_copy):
    """Past Python's own limit on nesting (the writer nests a blank node used once in
    its referrer), `fmt` is an input error at the file, not a message naming none."""
    from conftest import run_cli

    deep = 1_500
    (bundled_copy / "data" / "SOTA-900.ttl").write_text(
        "@prefix ak: <https://w3id.org/anthology-kg/ns#> .\n"
        "@prefix dcterms: <http://purl.org/dc/terms/> .\n"
        "@prefix id: <https://w3id.org/anthology-kg/id/> .\n"
        'id:SOTA-900 a ak:SotaRecord ; dcterms:identifier "SOTA-900" ;\n'
        f'    ak:x {"[ ak:x " * deep}"leaf"{" ]" * deep} .\n'
    )
    result = run_cli("--root", str(bundled_copy), "fmt", "--check")
    assert result.exit_code == 2
    assert result.stderr.endswith(
        "data/SOTA-900.ttl: the input nests too deep to follow (blank nodes or groups "
        "nested hundreds of levels deep)\n"
    )
    assert result.stderr.count("\n") == 1
