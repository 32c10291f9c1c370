"""One Oxigraph engine validated from several threads at once gives each the results a
validation alone gives: a validation changes the store while it runs (the vocabulary lent
to the data graph, a closure), so validations take turns."""

import threading

from conftest import REPO

from anthology_kg import open_engine, validate


def _lines(report) -> list[str]:
    return [str(result) for result in report.results]


def test_validations_in_several_threads_each_see_the_store_as_it_is():
    engine = open_engine(root=REPO, validates=True)
    alone = _lines(validate(engine))
    rounds, threads = 6, 3
    start = threading.Barrier(threads)
    seen: list[list[str]] = []

    def validate_in_turn() -> None:
        for _ in range(rounds):
            start.wait()  # each round begins in every thread at once
            seen.append(_lines(validate(engine)))

    workers = [threading.Thread(target=validate_in_turn) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert len(seen) == rounds * threads
    assert all(lines == alone for lines in seen)
