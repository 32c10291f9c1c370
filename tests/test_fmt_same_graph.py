"""fmt's check that its text is the file's graph (hunt15 #7): a file whose blank nodes
each hang once from an IRI (lists, nested ``[ ]``) is compared tree by tree in linear
time (``formatting._forest``), any other by RDFC-1.0's labels, given once a side (the
writer keeps the original's). Before, both parses were labelled by RDFC-1.0, whose work
grows with the cube of the alike blank nodes: a list of 400 equal values took 8-28 s,
800 were refused with advice for an option fmt lacks (``--format turtle``)."""

from __future__ import annotations

import random
from pathlib import Path

import pyoxigraph as ox
import pytest
from conftest import run_cli

from anthology_kg import formatting
from anthology_kg.formatting import _forest
from anthology_kg.turtle import canonical_line_groups, statement_lines, turtle_sections

AK = "https://w3id.org/anthology-kg/ns#"
HEAD = f"@prefix ak: <{AK}> .\n@prefix id: <https://w3id.org/anthology-kg/id/> .\n\n"


def _anthology(tmp_path: Path, text: str) -> Path:
    """An anthology whose data/ holds A-1.ttl, ``HEAD`` and ``text``."""
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "A-1.ttl").write_text(HEAD + text, encoding="utf-8")
    return tmp_path


def test_fmt_of_a_list_of_1000_equal_members(tmp_path):
    """Written otherwise than canonically (one member a line), so that fmt checks it."""
    root = _anthology(tmp_path, "id:A-1 ak:x (\n" + "0\n" * 1_000 + ") .\n")
    result = run_cli("--root", str(root), "fmt")
    assert result.exit_code == 0, result.stderr
    text = (root / "data" / "A-1.ttl").read_text(encoding="utf-8")
    assert text == HEAD + f"id:A-1 ak:x ( {'0 ' * 1_000}) .\n"
    assert run_cli("--root", str(root), "fmt", "--check").exit_code == 0


def _writing(monkeypatch, change) -> None:
    """fmt's writer made to write ``change(text)`` for its ``text``: a formatter bug."""
    write = formatting.turtle_sections
    monkeypatch.setattr(formatting, "turtle_sections", lambda *a, **k: change(write(*a, **k)))


@pytest.mark.parametrize(
    "text, change, said",
    [
        # A forest: one of two alike nested nodes lost (the same set of trees, one fewer).
        (
            'id:A-1 ak:x [ ak:y "1" ], [ ak:y "1" ] .\n',
            lambda text: text.replace(', [\n        ak:y "1"\n    ]', ""),
            ":4: formatting would change the triple <https://w3id.org/anthology-kg/id/A-1> "
            f"<{AK}x> [ … ]; file left as it is",
        ),
        # A forest: a value deep inside a list changed.
        (
            'id:A-1 ak:x ( [ ak:y ( "1" "2" ) ] ) .\n',
            lambda text: text.replace('"2"', '"3"'),
            ":4: formatting would change the triple <https://w3id.org/anthology-kg/id/A-1> "
            f"<{AK}x> [ … ]; file left as it is",
        ),
        # A forest written as one blank node used twice.
        (
            'id:A-1 ak:x [ ak:y "1" ] .\n',
            lambda text: text.replace("[\n", "_:b .\nid:A-1 ak:z _:b .\n_:b ak:q [\n", 1),
            ": formatting would link the blank nodes otherwise (one used twice, or in a cycle, "
            "where none is); file left as it is",
        ),
        # Not a forest (a blank node used twice): labelled by RDFC-1.0 on both sides.
        (
            'id:A-1 ak:x _:s .\nid:A-2 ak:x _:s .\n_:s ak:y "1" .\n',
            lambda text: text.replace('"1"', '"2"'),
            f': formatting would change the triple _:c14n0 <{AK}y> "1"; file left as it is',
        ),
    ],
    ids=["forest-one-lost", "forest-deep-value", "forest-shared", "labelled"],
)
def test_fmt_refuses_text_that_is_another_graph(tmp_path, monkeypatch, text, change, said):
    root = _anthology(tmp_path, text)
    _writing(monkeypatch, change)
    result = run_cli("--root", str(root), "fmt")
    assert result.exit_code == 2
    assert result.stderr.endswith(f"A-1.ttl{said}\n")
    assert result.stderr.count("\n") == 1
    assert (root / "data" / "A-1.ttl").read_text(encoding="utf-8") == HEAD + text


def test_a_refusal_to_label_is_worded_for_fmt(tmp_path):
    """A file that needs labels (one blank node used twice) and holds 800 alike ones:
    at the file and line, no option fmt lacks (``--format turtle``, ``--canonical-limit``)."""
    root = _anthology(
        tmp_path,
        f"id:A-1 ak:x ( {'0 ' * 800}) ;\n    ak:y _:s .\nid:A-2 ak:y _:s .\n",
    )
    result = run_cli("--root", str(root), "fmt", "--check")
    assert result.exit_code == 2
    assert "A-1.ttl:4: 798 blank nodes" in result.stderr
    assert "--" not in result.stderr.split("A-1.ttl", 1)[1]
    assert result.stderr.endswith(
        "Give these nodes IRIs. They are labelled only because other blank nodes are "
        "written with a label (a subject no triple uses, or one used twice or in a cycle): "
        "with IRIs for those, these would be written nested, without labels.\n"
    )
    assert result.stderr.count("\n") == 1


def test_a_turtle_export_refusing_to_label_advises_no_turtle(tmp_path):
    """The Turtle writer labels every blank node where one needs a label (here a blank
    subject no triple uses): its refusal, at the file, advises IRIs and the limit's
    option, not Turtle (it said "Write Turtle (--format turtle)", which it was)."""
    root = _anthology(tmp_path, f"id:A-1 ak:x ( {'0 ' * 800}) .\n_:s ak:y 1 .\n")
    result = run_cli("--root", str(root), "export", "--include", "data")
    assert result.exit_code == 2
    assert "A-1.ttl:4: 798 blank nodes" in result.stderr
    assert "Turtle" not in result.stderr
    assert "Give these nodes IRIs; or raise the limit with --canonical-limit" in result.stderr
    assert result.stderr.endswith("these would be written nested, without labels.\n")


def test_a_refusal_to_label_a_cycle_is_worded_for_fmt(tmp_path):
    """800 blank nodes in a ring: the one advice that applies, at the file."""
    ring = "".join(f"_:b{i} ak:x _:b{(i + 1) % 800} .\n" for i in range(800))
    root = _anthology(tmp_path, "id:A-1 ak:y 1 .\n" + ring)
    result = run_cli("--root", str(root), "fmt", "--check")
    assert result.exit_code == 2
    assert "A-1.ttl: 800 blank nodes" in result.stderr
    assert result.stderr.endswith("cube of their number. Give these nodes IRIs.\n")


def _random_forest(rng: random.Random) -> list[ox.Triple]:
    """Triples of up to three IRIs, each with nested blank nodes alike but for a leaf
    or a predicate here and there (ties that only the trees tell apart)."""
    triples: list[ox.Triple] = []

    def node(depth: int) -> ox.BlankNode:
        me = ox.BlankNode()
        for _ in range(rng.randrange(3)):
            value = (
                node(depth + 1)
                if depth < 4 and rng.random() < 0.6
                else ox.Literal(str(rng.randrange(2)))
            )
            triples.append(ox.Triple(me, ox.NamedNode(AK + rng.choice("xy")), value))
        return me

    for s in range(rng.randrange(1, 4)):
        subject = ox.NamedNode(f"https://e.org/s{s}")
        for _ in range(rng.randrange(1, 4)):
            triples.append(ox.Triple(subject, ox.NamedNode(AK + "x"), node(0)))
    return triples


def _canonical(triples: list[ox.Triple]) -> set[ox.Quad]:
    dataset = ox.Dataset(ox.Quad(t.subject, t.predicate, t.object) for t in triples)
    dataset.canonicalize(ox.CanonicalizationAlgorithm.RDFC_1_0)
    return set(dataset)


def _changed(rng: random.Random, triples: list[ox.Triple]) -> list[ox.Triple]:
    """``triples`` with one triple's object changed to another literal, or one dropped,
    or one moved under another subject (each may or may not change the graph)."""
    changed = list(triples)
    i = rng.randrange(len(changed))
    s, p, o = changed[i]
    roll = rng.random()
    if roll < 0.4 and isinstance(o, ox.Literal):
        changed[i] = ox.Triple(s, p, ox.Literal(str(1 - int(o.value))))
    elif roll < 0.7 and not isinstance(o, ox.BlankNode):
        del changed[i]
    else:
        others = [t.subject for t in changed if t.subject != o]
        changed[i] = ox.Triple(rng.choice(others), p, o)
    return changed


def test_trees_tell_graphs_apart_as_rdfc_does():
    """For 300 pairs of random forests (a forest and one changed, and the same forest
    with fresh labels in another order), ``_forest`` finds them equal exactly where
    RDFC-1.0 does, and a moved subtree that makes the graph no forest is None."""
    rng = random.Random(7)
    agreed = {True: 0, False: 0}
    for _ in range(150):
        triples = _random_forest(rng)
        fresh = {}
        relabelled = [
            ox.Triple(
                *(
                    fresh.setdefault(t, ox.BlankNode()) if isinstance(t, ox.BlankNode) else t
                    for t in triple
                )
            )
            for triple in triples
        ]
        rng.shuffle(relabelled)
        for other in (relabelled, _changed(rng, triples)):
            trees: dict = {}
            mine = _forest(statement_lines(triples), trees)
            theirs = _forest(statement_lines(other), trees)
            assert mine is not None
            same = _canonical(triples) == _canonical(other)
            if theirs is None:
                assert not same
                continue
            assert (mine == theirs) == same
            agreed[same] += 1
    assert agreed[True] > 150 and agreed[False] > 50  # both kinds were tried


def test_labels_given_once_are_the_labels_the_writer_gives():
    """fmt labels a file that is no forest by RDFC-1.0 once and has the writer keep
    those labels (``labelled``): the text is the one the writer writes labelling it."""
    rng = random.Random(11)
    for _ in range(40):
        triples = _random_forest(rng)
        shared = ox.BlankNode()
        triples += [
            ox.Triple(ox.NamedNode("https://e.org/s0"), ox.NamedNode(AK + "z"), shared),
            ox.Triple(ox.NamedNode("https://e.org/s9"), ox.NamedNode(AK + "z"), shared),
            ox.Triple(shared, ox.NamedNode(AK + "y"), ox.Literal(str(rng.randrange(2)))),
        ]
        lines = statement_lines(triples)
        labelled = canonical_line_groups([lines])[0]
        assert turtle_sections([("", labelled)], labelled=True) == turtle_sections([("", lines)])
