"""Copying an rdflib graph into a new one fast: rdflib's Memory store's indexes copied
whole where they can be, else triple by triple."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # rdflib is imported by the caller that has a graph
    from rdflib import Graph


def add_graph(graph: Graph, *, into: Graph) -> None:
    """Add the triples of ``graph`` to ``into`` (``copy_memory_store`` when ``into`` is
    new and empty, else ``merge_into_memory_store``, else ``into += graph``)."""
    if not copy_memory_store(graph, into=into) and not merge_into_memory_store(graph, into=into):
        into += graph


def merge_into_memory_store(graph: Graph, *, into: Graph) -> bool:
    """Add the triples of ``graph`` to ``into`` as ``into += graph`` does, in the same
    order into the same indexes of rdflib's Memory store, when ``into`` is held in one
    with every triple in its own context and the default one (what ``copy_memory_store``
    or ``add`` alone leave) and nothing listens to its events; return whether it did.

    ``+=`` runs Memory's ``add`` a triple (an event, the context bookkeeping, which for
    such a store ends where it started); writing the three indexes and the two context
    sets is ~5 times faster: the reference engine's union of the data, ontology and
    shapes, made once an engine, added the ontology and shapes this way."""
    from rdflib.plugins.stores.memory import Memory

    target = into.store
    context_name = getattr(Memory, "_Memory__ctx_to_str", None)
    if context_name is None or type(target) is not Memory:
        return False
    fresh = vars(target)
    mine = context_name(target, into)
    by_context = fresh.get("_Memory__contextTriples")
    if (
        fresh.get("_Memory__tripleContexts") != {}
        or fresh.get("_Memory__defaultContexts") != {mine: False, None: False}
        or not isinstance(by_context, dict)
        or set(by_context) != {None, mine}
        or into not in fresh.get("_Memory__all_contexts", ())
        or not all(name in fresh for name in _MEMORY_INDEXES)
        or getattr(target.dispatcher, "_dispatch_map", None)
    ):
        return False
    spo, pos, osp = (fresh[name] for name in _MEMORY_INDEXES)
    in_default, in_mine = by_context[None], by_context[mine]
    # As Graph.__iadd__ reads them: every triple is in both contexts here, so one
    # already in the indexes changes nothing.
    for triple in graph.triples((None, None, None)):
        subject, predicate, value = triple
        values = spo.setdefault(subject, {}).setdefault(predicate, {})
        if value in values:
            continue
        values[value] = 1
        pos.setdefault(predicate, {}).setdefault(value, {})[subject] = 1
        osp.setdefault(value, {}).setdefault(subject, {})[predicate] = 1
        in_default.add(triple)
        in_mine.add(triple)
    return True


def copy_memory_store(graph: Graph, *, into: Graph) -> bool:
    """Fill ``into``, a new empty graph, with the triples of ``graph`` by copying the
    indexes of rdflib's Memory store, when both are held in one (rdflib's default) and
    ``graph``'s store holds its own triples only; return whether it did.

    ``into += graph`` adds triple by triple (~8 us each: an event, three index lookups,
    the context bookkeeping); copying the indexes' dicts is ~6 times faster, and every
    reference-engine load copies the cached ontology and shapes."""
    from rdflib.plugins.stores.memory import Memory

    source, target = graph.store, into.store
    # Name-mangled internals: a release of rdflib without them gets the plain copy.
    context_name = getattr(Memory, "_Memory__ctx_to_str", None)
    if context_name is None or type(source) is not Memory or type(target) is not Memory:
        return False
    if len(into):  # (after: rdflib's len reads the internals too)
        return False
    state, fresh = vars(source), vars(target)
    own = context_name(source, graph)
    # Every triple in the default context and in ``graph``'s, none quoted: the state a
    # graph holds that was only ever added to (``Memory.__add_triple_context``).
    if (
        state.get("_Memory__tripleContexts") != {}
        or state.get("_Memory__defaultContexts") not in ({own: False, None: False}, None)
        or set(state.get("_Memory__contextTriples", ())) - {None, own}
        or not all(name in fresh for name in _MEMORY_INDEXES)
    ):
        return False
    for name in _MEMORY_INDEXES:
        fresh[name] = {
            first: {second: dict(third) for second, third in rest.items()}
            for first, rest in state[name].items()
        }
    triples = state["_Memory__contextTriples"].get(own, set())
    if triples:
        mine = context_name(target, into)
        fresh["_Memory__contextTriples"] = {None: set(triples), mine: set(triples)}
        fresh["_Memory__defaultContexts"] = {mine: False, None: False}
        fresh["_Memory__all_contexts"].add(into)
    return True


#: The triple indexes of rdflib's Memory store (its name-mangled attributes).
_MEMORY_INDEXES = ("_Memory__spo", "_Memory__pos", "_Memory__osp")
