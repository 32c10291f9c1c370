"""The Oxigraph engine's ``triple_count`` (the store's size less the quads of the other
graphs) is exact while another thread's first query on a union with the rules makes a
merged graph (``OxigraphEngine._merged``) in the same store: the race is made certain
with events, the count held as it takes the store's size until that query has answered."""

import threading

import pyoxigraph as ox
from conftest import FIXTURES

from anthology_kg.fast import load_fast


class _SizeHeld:
    """The engine's store, whose size, the first time it is asked for, is taken only
    once ``go`` is set (``sizing`` is set meanwhile)."""

    def __init__(self, store: ox.Store) -> None:
        self._store = store
        self.sizing, self.go = threading.Event(), threading.Event()

    def __len__(self) -> int:
        if not self.sizing.is_set():
            self.sizing.set()
            self.go.wait()
        return len(self._store)

    def __contains__(self, quad: ox.Quad) -> bool:
        return quad in self._store

    def __getattr__(self, name: str):
        return getattr(self._store, name)


def test_a_merged_graph_made_while_the_data_is_counted_is_not_counted():
    engine = load_fast(FIXTURES / "minimal")
    store = engine.store  # the rules copied in: only the merged graph is made below
    expected = engine.triple_count(("data",))
    held = _SizeHeld(store)
    engine._loaded = held
    counts: list[int] = []
    counting = threading.Thread(target=lambda: counts.append(engine.triple_count(("data",))))
    counting.start()
    held.sizing.wait()
    graphs_before = set(store.named_graphs())
    engine.select("SELECT * WHERE { ?s ?p ?o } LIMIT 1", ("data", "ontology"))
    assert set(store.named_graphs()) > graphs_before  # the merged graph, made meanwhile
    held.go.set()
    counting.join()
    assert counts == [expected]
