"""The Oxigraph engine validates on one graph, its data graph holding the vocabulary's
triples while the shapes run (a union of two graphs costs two lookups for one), and
leaves the data graph as it was, also when validation fails."""

import pytest

import anthology_kg.shacl
import anthology_kg.shacl.validator
from anthology_kg.fast import DATA, load_fast
from anthology_kg.resources import bundled_dir
from anthology_kg.ruleset import vocabulary_triples
from anthology_kg.validation import validate


def _data(engine) -> set:
    return set(engine.store.quads_for_pattern(None, None, None, DATA))


def test_the_shapes_run_on_the_data_graph_alone_which_holds_the_vocabulary(monkeypatch):
    engine = load_fast(bundled_dir())
    before = _data(engine)
    vocabulary = {tuple(t) for t in vocabulary_triples(engine.rules.ontology_triples)}
    data = {(q.subject, q.predicate, q.object) for q in before}
    assert vocabulary - data  # the data does not state the whole class hierarchy
    seen: dict[str, object] = {}
    store_select = anthology_kg.shacl.validator.store_select

    def recording(store, default_graph, ox_terms=False):
        seen["graphs"] = list(default_graph)
        seen["data"] = {
            (q.subject, q.predicate, q.object)
            for q in store.quads_for_pattern(None, None, None, DATA)
        }
        return store_select(store, default_graph, ox_terms)

    monkeypatch.setattr(anthology_kg.shacl.validator, "store_select", recording)
    report = validate(engine)
    assert seen["graphs"] == [DATA]
    assert seen["data"] == data | vocabulary
    assert _data(engine) == before  # the vocabulary's triples taken out again
    assert report.results  # the bundled anthology breaks a few rules


def test_the_data_graph_is_left_as_it_was_when_validation_fails(monkeypatch):
    engine = load_fast(bundled_dir())
    before = _data(engine)

    def failing(select, compiled, *options):
        raise RuntimeError("stopped")

    monkeypatch.setattr(anthology_kg.shacl, "run_compiled", failing)
    with pytest.raises(RuntimeError, match="stopped"):
        validate(engine)
    assert _data(engine) == before
