"""Blank nodes nested thousands of levels deep are labelled in near-linear work: colour
refinement split one class a round on a chain (2,000 levels: 5.5 s to load), so after
``bnodes.EXACT_ROUNDS`` rounds partition refinement (``bnodes._equitable``) goes on,
and its labels still never depend on the parser's."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from test_bnode_labels import Shape, _assert_label_free

from anthology_kg import bnodes, load_anthology, open_engine
from anthology_kg.bnodes import _DEPTH

LEVELS = 2000


def _chain_anthology(root: Path, levels: int) -> Path:
    (root / "data").mkdir(parents=True)
    nested = "[ ak:p " * levels + '"v"' + " ]" * levels
    (root / "data" / "X.ttl").write_text(
        "@prefix ak: <https://w3id.org/anthology-kg/ns#> .\n"
        "@prefix dcterms: <http://purl.org/dc/terms/> .\n"
        f'<https://w3id.org/anthology-kg/id/X> dcterms:identifier "X" ;\n ak:p {nested} .\n',
        encoding="utf-8",
    )
    return root


@pytest.mark.parametrize(
    "load",
    [
        pytest.param(lambda root: load_anthology(root).data, id="reference"),
        pytest.param(lambda root: open_engine(root=root).graph("data"), id="fast"),
    ],
)
def test_a_chain_thousands_deep_loads_hashing_each_node_a_few_times(tmp_path, monkeypatch, load):
    root = _chain_anthology(tmp_path, LEVELS)
    hashed = [0]
    digest = bnodes._digest

    def counted(text: str) -> str:
        hashed[0] += 1
        return digest(text)

    monkeypatch.setattr(bnodes, "_digest", counted)
    graph = load(root)
    blank = {s for s in graph.subjects() if s.n3().startswith("_:")}
    assert len(blank) == LEVELS
    # a hash per node and round: 1 + EXACT_ROUNDS (8) rounds here, where refining until
    # no class split took ~1,000 (2 million hashes)
    assert hashed[0] <= 20 * LEVELS


def _chains(length: int, ends: tuple[int, int]) -> Shape:
    """Two chains of blank nodes under ``ex:s``, alike for ``length`` links."""
    triples: Shape = []
    for chain, end in zip("ab", ends, strict=True):
        triples.append(("ex:s", "p", f"{chain}0"))
        for link in range(length):
            triples.append((f"{chain}{link}", "next", f"{chain}{link + 1}"))
        triples.append((f"{chain}{length}", "value", end))
    return triples


@pytest.mark.parametrize("ends", [(1, 2), (1, 1)], ids=["told apart", "interchangeable"])
def test_chains_alike_past_the_exact_rounds_get_labels_free_of_parse_order(monkeypatch, ends):
    handed_over = []
    equitable = bnodes._equitable
    monkeypatch.setattr(
        bnodes, "_equitable", lambda *args: handed_over.append(1) or equitable(*args)
    )
    _assert_label_free(_chains(_DEPTH + 30, ends))  # 15 rounds and more to tell apart
    assert handed_over


def _rehashed_to_the_end(colors: dict, links: dict) -> set[frozenset]:
    """The classes colour refinement ends with: a node's colour and its neighbours' by
    link, again until no class splits."""
    classes = len(set(colors.values()))
    while True:
        seen: dict = {node: [] for node in colors}
        for node, pairs in links.items():
            for key, other in pairs:
                seen[other].append((key, colors[node]))
        keys = {node: (colors[node], tuple(sorted(seen[node]))) for node in colors}
        numbers = {key: index for index, key in enumerate(sorted(set(keys.values())))}
        colors = {node: numbers[key] for node, key in keys.items()}
        if len(numbers) == classes:
            break
        classes = len(numbers)
    found: dict = {}
    for node, color in colors.items():
        found.setdefault(color, set()).add(node)
    return {frozenset(nodes) for nodes in found.values()}


def test_partition_refinement_ends_with_the_classes_rehashing_ends_with():
    rng = random.Random(20261205)
    for _ in range(200):
        size = rng.randint(2, 40)
        colors = {node: rng.choice("ab") for node in range(size)}
        links: dict = {node: [] for node in range(size)}
        for node in range(size):
            for _ in range(rng.randint(0, 3)):
                other, predicate = rng.randrange(size), rng.choice("pq")
                links[node].append((("in", predicate), other))
                links[other].append((("out", predicate), node))
        refined = bnodes._equitable(colors, links)
        found: dict = {}
        for node, color in refined.items():
            found.setdefault(color, set()).add(node)
        assert {frozenset(nodes) for nodes in found.values()} == _rehashed_to_the_end(colors, links)
