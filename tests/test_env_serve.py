"""serve closes what it opened: the pipe of the oxigraph server's stderr is closed when
serve ends (``python -X dev`` and ``-W error`` runs reported it unclosed); and a start
removes the stores left behind by the lock no process holds, not by a PID, which tells
nothing where PID namespaces (containers) share the temporary folder."""

from __future__ import annotations

import time

from stores import serve_in_process

from anthology_kg import server


def test_the_servers_stderr_pipe_is_closed_when_serve_ends(tmp_path, monkeypatch):
    def interrupt(servers) -> None:
        raise KeyboardInterrupt  # Ctrl-C once serving: exit 0

    result, servers = serve_in_process(monkeypatch, tmp_path, interrupt)
    assert result.exit_code == 0, result.stderr
    (server,) = servers
    assert server.returncode is not None
    assert server.stderr is not None and server.stderr.closed


# ---- which stores a start sweeps: by the lock a serve holds, not by its PID ------------

#: A PID no process has here (above the kernel's largest, 2**22), as a serve of another
#: PID namespace sharing the temporary folder has.
NO_SUCH_PID = 2**22 + 1


def _store(folder, pid: int, locked: bool | None):
    """A store folder named for ``pid``; its lock file held by an open file of this test
    (``locked``), free (False) or absent (None); the held lock's descriptor, or None."""
    import fcntl
    import os

    path = folder / f"{server.STORE_PREFIX}{pid}-abcd"
    path.mkdir()
    if locked is None:
        return path, None
    lock = os.open(path / server.LOCK_FILE, os.O_RDWR | os.O_CREAT)
    if locked:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return path, lock
    os.close(lock)
    return path, None


def test_a_store_whose_lock_is_held_is_kept_whatever_its_pid(tmp_path):
    import os

    served, lock = _store(tmp_path, NO_SUCH_PID, locked=True)
    assert server.remove_stale_stores(tmp_path) == []  # another namespace's live serve
    assert served.exists()
    os.close(lock)  # that serve ended (the kernel releases its lock however it ends)
    assert server.remove_stale_stores(tmp_path) == [served]
    assert not served.exists()


def test_a_store_without_its_lock_file_is_judged_by_its_age_and_pid(tmp_path):
    import os

    recent, _ = _store(tmp_path, NO_SUCH_PID, locked=None)
    assert server.remove_stale_stores(tmp_path) == []  # maybe a serve's, locking it now
    old = time.time() - 2 * server.UNLOCKED_SECONDS
    os.utime(recent, (old, old))
    assert server.remove_stale_stores(tmp_path) == [recent]


def test_a_store_of_the_same_pid_in_use_elsewhere_is_not_removed_as_ones_own(tmp_path, monkeypatch):
    import os
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    theirs, lock = _store(tmp_path, os.getpid(), locked=True)
    server._remove_own_stores()
    assert theirs.exists()
    os.close(lock)
    server._remove_own_stores()
    assert not theirs.exists()
