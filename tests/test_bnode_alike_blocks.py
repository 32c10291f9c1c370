"""Many alike blank-node blocks (``ex:s ex:p [ ... ], [ ... ], ...``) are told apart in
one step: they are interchangeable, so ``bnodes._tie_order`` marks them all at once
(``_interchangeable_marks``) where it marked one per round, canonicalizing every
candidate each round while the marks of one class collided: 300 blocks took 45,000
canonicalizations (32 s of CPU), 100 blocks under one blank node 65 s. Their labels
still never depend on the parser's."""

from __future__ import annotations

import pytest
from test_bnode_labels import Shape, _assert_label_free, _labellings, _oxigraph

from anthology_kg import bnodes


def _blocks(count: int, depth: int, under: str = "ex:s", name: str = "b") -> Shape:
    """``count`` alike blocks under ``under``, each a chain of ``depth`` blank nodes
    (``{name}{block}_{link}``)."""
    triples: Shape = []
    for block in range(count):
        triples.append((under, "p", f"{name}{block}_0"))
        for link in range(depth - 1):
            triples.append((f"{name}{block}_{link}", "next", f"{name}{block}_{link + 1}"))
        triples.append((f"{name}{block}_{depth - 1}", "value", 1))
    return triples


SHAPES = {
    "under an IRI": _blocks(200, 1),
    "nested under an IRI": _blocks(200, 3),
    "under a blank node": [("ex:s", "p", "top"), *_blocks(200, 2, under="top")],
}


@pytest.mark.parametrize("shape", SHAPES.values(), ids=SHAPES.keys())
def test_alike_blocks_take_a_canonicalization_each(monkeypatch, shape):
    canonicalized = [0]
    marked_text = bnodes._marked_text

    def counted(*args):
        canonicalized[0] += 1
        return marked_text(*args)

    monkeypatch.setattr(bnodes, "_marked_text", counted)
    labels = _labellings(shape, 2)[1]  # (in reverse order of the names)
    found = bnodes.ox_stable_labels(_oxigraph(shape, labels))
    assert len(set(found.values())) == len(found)
    assert canonicalized[0] <= 200  # one per block (thousands when marked one at a time)


@pytest.mark.parametrize(
    "shape",
    [
        _blocks(5, 1),
        _blocks(5, 3),
        [("ex:s", "p", "top"), *_blocks(5, 2, under="top")],
        # something else points into a block: swapping blocks is no automorphism, so
        # the candidates are marked one at a time
        [("ex:s", "p", "top"), ("ex:t", "p", "b2_1"), *_blocks(4, 2, under="top")],
        # two subjects' alike blocks, and one block hanging from both
        [*_blocks(3, 2), *_blocks(3, 2, under="ex:t", name="c"), ("ex:t", "p", "b0_0")],
    ],
    ids=["flat", "nested", "under-blank", "pointed-into", "two-subjects"],
)
def test_alike_blocks_get_labels_free_of_the_parser_s(shape):
    _assert_label_free(shape)
