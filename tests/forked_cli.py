"""``anthology-kg ARGS`` run in a process forked from one that has already started and
imported the package and both engines' libraries (``ForkServer``), for tests whose claim
is the command's own conduct (exit code, messages, time-outs, signals), not what a
fresh interpreter imports: each process then spends only the command's own CPU, where a
fresh one first spent ~0.15 s (fast engine) to ~0.3 s (reference engine) starting and
importing. A child runs ``cli.run`` as the console script does, with SIGINT at its
default (``conftest.cli_process``), and ends as an interpreter does (finalized unless
``run`` ends it with ``os._exit``)."""

from __future__ import annotations

import json
import os
import selectors
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: The server: imports, then for each request (the command line and the working folder
#: as JSON, with standard input, output and error as descriptors) forks a child, sends
#: its pid, and when it ends its exit status (as ``Popen.returncode`` gives it). The
#: server runs no thread, so a child is forked from a process holding no lock.
SERVER = r"""
import json, os, select, signal, socket, sys

def serve(path):
    import anthology_kg.cli, anthology_kg.engine, anthology_kg.fast, anthology_kg.guards
    import anthology_kg.loader, anthology_kg.reference_shacl, anthology_kg.validation
    import anthology_kg.queries, anthology_kg.local_query, anthology_kg.remote
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(16)
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_write, False)
    signal.set_wakeup_fd(wake_write)
    signal.signal(signal.SIGCHLD, lambda *args: None)
    print("ready", flush=True)
    children = {}
    while True:
        ready = select.select([listener, wake_read], [], [])[0]
        if wake_read in ready:
            os.read(wake_read, 512)
        while children:
            pid, status = os.waitpid(-1, os.WNOHANG)
            if pid == 0:
                break
            connection = children.pop(pid)
            try:
                connection.sendall(b"%d\n" % os.waitstatus_to_exitcode(status))
            except OSError:  # (the test gave up on the command)
                pass
            connection.close()
        if listener not in ready:
            continue
        connection = listener.accept()[0]
        message, fds, _, _ = socket.recv_fds(connection, 1 << 16, 3)
        if not message:
            return None
        request = json.loads(message)
        pid = os.fork()
        if pid == 0:
            signal.set_wakeup_fd(-1)
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            for kept in (listener, connection, *children.values()):
                kept.close()
            os.close(wake_read)
            os.close(wake_write)
            for target, fd in enumerate(fds):
                os.dup2(fd, target)
                os.close(fd)
            os.chdir(request["cwd"])
            return request["argv"]
        for fd in fds:
            os.close(fd)
        connection.sendall(b"%d\n" % pid)
        children[pid] = connection

argv = serve(sys.argv[1])
if argv is not None:
    sys.argv = ["anthology-kg", *argv]
    from anthology_kg.cli import run
    run()
"""


def _sigint_as_on_a_terminal() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class ForkServer:
    """The ``SERVER`` process, started on first use; ``stop`` ends it."""

    def __init__(self) -> None:
        self.process: subprocess.Popen | None = None
        self.folder: Path | None = None

    def _path(self) -> str:
        if self.process is None:
            self.folder = Path(tempfile.mkdtemp(prefix="forked-cli-"))
            path = self.folder / "server"
            self.process = subprocess.Popen(
                [sys.executable, "-c", SERVER, str(path)],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                text=True,
                preexec_fn=_sigint_as_on_a_terminal,
            )
            assert self.process.stdout is not None
            assert self.process.stdout.readline() == "ready\n", "the fork server did not start"
        assert self.folder is not None
        return str(self.folder / "server")

    def start(self, *args: str) -> ForkedProcess:
        """``anthology-kg ARGS`` in a forked child, in this process's working folder."""
        return ForkedProcess(self._path(), args)

    def stop(self) -> None:
        if self.process is not None:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
                connection.connect(str(self._path()))
                connection.sendall(b"")
                connection.shutdown(socket.SHUT_WR)
            self.process.wait(timeout=30)
            self.process = None
        if self.folder is not None:
            (self.folder / "server").unlink(missing_ok=True)
            self.folder.rmdir()
            self.folder = None


class ForkedProcess:
    """A forked command, read as a ``Popen`` with text pipes for its output is:
    ``pid``, ``poll``, ``communicate``, ``send_signal``, ``returncode``."""

    def __init__(self, server: str, args: tuple[str, ...]) -> None:
        out_read, out_write = os.pipe()
        err_read, err_write = os.pipe()
        stdin = os.open(os.devnull, os.O_RDONLY)
        self._connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._connection.connect(server)
        request = json.dumps({"argv": list(args), "cwd": os.getcwd()}).encode()
        socket.send_fds(self._connection, [request], [stdin, out_write, err_write])
        for fd in (stdin, out_write, err_write):
            os.close(fd)
        self._outputs = {out_read: bytearray(), err_read: bytearray()}
        self._answer = b""
        self.pid = int(self._line())
        self.returncode: int | None = None

    def _line(self, timeout: float | None = None) -> bytes:
        """The server's next line about the child (its pid, then its exit status)."""
        self._connection.settimeout(timeout)
        while b"\n" not in self._answer:
            received = self._connection.recv(64)
            if not received:
                raise RuntimeError("the fork server stopped")
            self._answer += received
        line, self._answer = self._answer.split(b"\n", 1)
        return line

    def poll(self) -> int | None:
        if self.returncode is None:
            try:
                self.returncode = int(self._line(timeout=0))
            except (BlockingIOError, TimeoutError):
                return None
        return self.returncode

    def send_signal(self, signum: int) -> None:
        if self.poll() is None:
            os.kill(self.pid, signum)

    def communicate(self, timeout: float | None = None) -> tuple[str, str]:
        """The child's standard output and error once it has ended (TimeoutError if it
        has not after ``timeout`` seconds)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with selectors.DefaultSelector() as selector:
            for fd in self._outputs:
                selector.register(fd, selectors.EVENT_READ)
            while selector.get_map():
                left = None if deadline is None else max(0.0, deadline - time.monotonic())
                events = selector.select(left)
                if not events:
                    raise TimeoutError(f"the command {self.pid} still runs")
                for key, _ in events:
                    chunk = os.read(key.fd, 1 << 16)
                    if chunk:
                        self._outputs[key.fd] += chunk
                    else:
                        selector.unregister(key.fd)
                        os.close(key.fd)
        if self.returncode is None:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            self.returncode = int(self._line(timeout=left))
        self._connection.close()
        out, err = self._outputs.values()
        return out.decode("utf-8"), err.decode("utf-8")


def _cpu_seconds(stat: str) -> float:
    """The user and system CPU seconds of a /proc ``stat`` file (a process's or a thread's)."""
    fields = Path(stat).read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_outside_the_main_thread(pid: int) -> float:
    """The CPU seconds process ``pid`` has spent in threads other than its main one (Linux):
    in guards.bounded's worker, which loads the anthology and runs the query (the main
    thread starts the interpreter, imports, parses the options, then waits)."""
    return _cpu_seconds(f"/proc/{pid}/stat") - _cpu_seconds(f"/proc/{pid}/task/{pid}/stat")
