"""swaps.swapped: another library's global set for our calls only, whatever the threads."""

import threading
import types

import pytest
import rdflib

from anthology_kg.literals import literals_as_written
from anthology_kg.swaps import swapped


def test_blocks_in_two_threads_put_the_original_back_when_the_last_ends():
    """Thread A begins, B begins, A ends, B ends: the original is back (a save and
    restore in each block left A's value behind, set for good)."""
    target = types.SimpleNamespace(flag="original")
    a_in, b_in, a_out = threading.Event(), threading.Event(), threading.Event()
    seen = {}

    def a():
        with swapped(target, "flag", "ours"):
            a_in.set()
            b_in.wait(5)
        a_out.set()

    def b():
        a_in.wait(5)
        with swapped(target, "flag", "ours"):
            b_in.set()
            a_out.wait(5)
            seen["while b runs"] = target.flag

    threads = [threading.Thread(target=a), threading.Thread(target=b)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert seen == {"while b runs": "ours"}
    assert target.flag == "original"


def test_a_nested_block_sets_the_value_again_and_an_error_restores():
    target = types.SimpleNamespace(flag="original")
    with pytest.raises(ZeroDivisionError), swapped(target, "flag", "ours"):
        target.flag = "changed by a callee"
        with swapped(target, "flag", "ours"):
            assert target.flag == "ours"
        assert target.flag == "ours"
        1 / 0  # noqa: B018
    assert target.flag == "original"


def test_literals_as_written_from_two_threads_leaves_rdflib_as_it_was():
    """This thread's block begins first and ends first, the other's still runs: rdflib
    keeps literals for it (a save and restore in each block turned normalizing back on
    under the other, and left it off for good once that one ended)."""
    before = rdflib.NORMALIZE_LITERALS
    entered, release = threading.Event(), threading.Event()
    seen = {}

    def hold():
        with literals_as_written():
            entered.set()
            release.wait(5)
            seen["at its end"] = rdflib.NORMALIZE_LITERALS

    thread = threading.Thread(target=hold)
    with literals_as_written():
        thread.start()
        entered.wait(5)
    seen["after this one"] = rdflib.NORMALIZE_LITERALS
    release.set()
    thread.join(10)
    assert seen == {"after this one": False, "at its end": False}
    assert rdflib.NORMALIZE_LITERALS == before


def test_a_name_the_target_lacks_is_set_for_the_block_and_taken_away_after():
    """A release of a library without the attribute a swap speeds up: no AttributeError,
    and the library is left without it, as it was."""
    target = types.SimpleNamespace()
    with swapped(target, "gone", "ours"), swapped(target, "gone", "ours"):
        assert target.gone == "ours"
    assert not hasattr(target, "gone")
