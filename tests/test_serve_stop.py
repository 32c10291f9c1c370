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


def test_a_server_that_stops_on_its_own_is_one_line_exit_2(tmp_path, monkeypatch):
    """The oxigraph server killed (the OOM killer's SIGKILL) while serve waits: a line
    naming the signal, exit 2, the store removed. Before, serve exited with the server's
    code (-9: status 247; a server's 1: "a rule is broken") and said nothing."""
    import os
    import signal

    from stores import serve_in_process

    result, _ = serve_in_process(
        monkeypatch, tmp_path, lambda servers: os.kill(servers[0].pid, signal.SIGKILL)
    )
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == (
        "anthology-kg: the oxigraph server stopped (killed by SIGKILL; out of memory?)"
    )
    assert list(tmp_path.glob("anthology-kg-store-*")) == []
