"""Counts that describe an anthology: triples, entries by class and by category, files."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from rdflib import RDF

from .loader import Anthology
from .namespaces import AK


@dataclass
class Stats:
    """What ``anthology-kg stats`` prints."""

    triples: int
    entries: int
    by_class: dict[str, int]
    by_category: dict[str, int]
    files: list[str]


def _short(anthology: Anthology, node) -> str:
    return anthology.data.namespace_manager.normalizeUri(node)


def compute_stats(anthology: Anthology) -> Stats:
    """Count the anthology's triples and entries; dictionaries are sorted by key."""
    data = anthology.data
    by_class: Counter[str] = Counter()
    by_category: Counter[str] = Counter()
    entries = [node for node, _ in anthology.entries()]
    for node in entries:
        for cls in data.objects(node, RDF.type):
            by_class[_short(anthology, cls)] += 1
        for category in data.objects(node, AK.category):
            by_category[_short(anthology, category)] += 1
    return Stats(
        triples=len(data),
        entries=len(entries),
        by_class=dict(sorted(by_class.items())),
        by_category=dict(sorted(by_category.items())),
        files=[p.name for p in anthology.data_files],
    )
