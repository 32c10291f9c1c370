"""serve's stop is kept once asked for: Python drops an exception that a signal handler
raises while a weakref callback runs (an import's module locks), which let serve run on
after a SIGTERM (seen as a timed-out test_server SIGTERM case under load)."""

import sys
import weakref

import pytest

from anthology_kg import server


def test_a_stop_whose_raise_was_dropped_is_raised_again(monkeypatch):
    dropped = []
    monkeypatch.setattr(sys, "unraisablehook", lambda raised: dropped.append(raised.exc_type))
    gate = server._StopGate()

    class Owner:
        pass

    owner = Owner()
    watcher = weakref.ref(owner, lambda _: gate.stop())
    del owner  # the callback runs the handler; its _Stopped is dropped
    assert dropped == [server._Stopped] and watcher() is None
    with pytest.raises(server._Stopped):
        gate.check()


def test_a_stop_while_held_comes_when_the_hold_ends():
    gate = server._StopGate()
    with pytest.raises(server._Stopped):
        with gate.held():
            gate.stop()  # held: not raised here
            gate.check()  # nor here
    gate.requested = False
    gate.check()  # nothing asked for: nothing raised
