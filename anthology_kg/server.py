"""A local Oxigraph server loaded with the anthology (``serve``): its store loaded, the
server started, tied to this process's life and stopped, and the stores of servers that
were killed removed."""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import errno
import fcntl
import math
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import pyoxigraph as ox

from .choices import DATA_GRAPH, graph_names
from .errors import AnthologyError, how_ended

if TYPE_CHECKING:
    from .engine import Engine


def oxigraph_binary() -> str:
    """The ``oxigraph`` server binary (the ``oxigraph`` package from PyPI)."""
    beside = Path(sys.executable).parent / "oxigraph"
    found = str(beside) if beside.exists() else shutil.which("oxigraph")
    if not found:
        raise AnthologyError(
            "the oxigraph server is not installed: pip install 'anthology-kg[server]'"
        )
    return found


def load_store(anthology: Engine, location: Path, data_graph: str = DATA_GRAPH) -> None:
    """Load the anthology's three graphs into an Oxigraph store folder."""
    with tempfile.TemporaryDirectory() as folder:
        dump = Path(folder) / "anthology.nq"
        quads = (
            ox.Quad(quad.subject, quad.predicate, quad.object, ox.NamedNode(graph_iri))
            for part, graph_iri in graph_names(data_graph).items()
            for quad in anthology.quads((part,))
        )
        ox.serialize(quads, output=str(dump), format=ox.RdfFormat.N_QUADS)
        loader: subprocess.Popen[str] | None = None
        try:
            with _STOPS.held():
                loader = subprocess.Popen(
                    [oxigraph_binary(), "load", "--location", str(location), "--file", str(dump)],
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    text=True,
                    preexec_fn=_die_with_parent(os.getpid()),
                )
            _, said = loader.communicate()
        except BaseException:  # a stop, Ctrl-C: the loader is killed and waited for
            if loader is not None:
                loader.kill()
                loader.communicate()
            raise
        if loader.returncode != 0:
            raise AnthologyError(f"oxigraph load failed: {said.strip()}")


def serve_command(
    location: Path, host: str, port: int, read_only: bool, timeout: float | None = None
) -> list[str]:
    """The command line that serves the store at ``location``; queries see the union of
    the anthology's graphs as their default graph, each given ``timeout`` seconds (whole
    seconds, rounded up: the server takes no fraction; None, 0, inf or any number past
    what a thread's wait takes, as for a request (``endpoint``): no limit)."""
    command = [
        oxigraph_binary(),
        "serve-read-only" if read_only else "serve",
        "--location",
        str(location),
        "--bind",
        f"{host}:{port}",
    ]
    limit = []
    if timeout and timeout < threading.TIMEOUT_MAX:
        limit = ["--timeout-s", str(math.ceil(timeout))]
    return command + ["--union-default-graph", *limit]


# -- serve ---------------------------------------------------------------------------------

#: Stores of ``serve`` live in the temporary folder as ``anthology-kg-store-PID-*``; the
#: serve using one holds a lock (flock) on its file ``LOCK_FILE``, which the kernel
#: releases however the process ends, so that a later start can tell a store whose
#: server was killed. (A PID tells nothing where PID namespaces share the temporary
#: folder: containers, ``unshare -p``; another namespace's live serve is a dead PID here.)
STORE_PREFIX = "anthology-kg-store-"
LOCK_FILE = "serving.lock"
#: How long a store without its lock file may be one a serve has just made (its lock is
#: taken right after the folder is made) before its PID alone judges it.
UNLOCKED_SECONDS = 60.0
_PR_SET_PDEATHSIG = 1


def remove_stale_stores(folder: Path | None = None) -> list[Path]:
    """Remove the stores left behind by ``serve`` processes that no longer run (killed
    with SIGKILL, say): those whose lock no process holds; return them."""
    removed = []
    for pid_text, path in _stores(folder):
        if pid_text.isdigit() and _remove_unless_used(path, int(pid_text)):
            removed.append(path)
    return removed


def _remove_unless_used(path: Path, pid: int | None) -> bool:
    """Remove the store at ``path`` unless a process holds its lock (or, without a lock
    file, unless it is recent or the process ``pid`` runs; None: this process's own, made
    before it took the lock); whether it was removed."""
    try:
        lock = os.open(path / LOCK_FILE, os.O_RDWR | os.O_CLOEXEC)
    except FileNotFoundError:  # being made, or made before the lock was (by its PID)
        if pid is not None:
            try:
                recent = time.time() - path.stat().st_mtime < UNLOCKED_SECONDS
            except OSError:
                return False
            if recent or _alive(pid):
                return False
        shutil.rmtree(path, ignore_errors=True)
        return True
    except OSError:  # another user's: not ours to judge
        return False
    try:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:  # held: served
            return False
        shutil.rmtree(path, ignore_errors=True)
        return True
    finally:
        os.close(lock)


def _locked(folder: Path) -> int:
    """The descriptor of the lock this process takes on the store at ``folder`` (not
    inherited by the server it starts: the lock is this process's alone)."""
    lock = os.open(folder / LOCK_FILE, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    fcntl.flock(lock, fcntl.LOCK_EX)
    return lock


def _stores(folder: Path | None = None) -> Iterator[tuple[str, Path]]:
    """The stores of ``serve`` in ``folder`` (the temporary folder), each with the PID its
    name gives (as text)."""
    for path in Path(folder or tempfile.gettempdir()).glob(f"{STORE_PREFIX}*"):
        yield path.name[len(STORE_PREFIX) :].split("-", 1)[0], path


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process: alive, not ours to judge
        return True
    return True


def _die_with_parent(parent: int) -> Callable[[], None] | None:
    """A ``preexec_fn`` that ties the child to this process on Linux: the kernel sends it
    SIGKILL when its parent dies, even by SIGKILL (prctl PR_SET_PDEATHSIG)."""
    if not sys.platform.startswith("linux"):
        return None
    libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)

    def tie() -> None:
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != parent:  # the parent died before prctl took effect
            os._exit(1)

    return tie


def check_port(host: str, port: int) -> None:
    """Raise AnthologyError if ``host:port`` cannot be listened on (in use, say)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as exc:
        raise AnthologyError(f"cannot listen on {host}:{port}: {exc}") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        try:
            probe.bind(address)
        except OSError as exc:
            reason = "the port is in use" if exc.errno == errno.EADDRINUSE else exc.strerror
            raise AnthologyError(f"cannot listen on {host}:{port}: {reason}") from None


def _listening(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=0.5):
            return True
    except OSError:
        return False


class _Stopped(BaseException):
    """Raised by ``serve``'s SIGTERM handler: a stop asked for, not an error (a
    BaseException, as KeyboardInterrupt, so that no ``except Exception`` keeps it)."""


class _StopGate:
    """Where ``serve``'s SIGTERM handler (``stop``: ``_Stopped``) and Ctrl-C's
    (``interrupt``: KeyboardInterrupt) stop it: at once, or, while a child process is
    being started or waited for (``held``), once that is done. A stop raised inside
    ``subprocess.Popen`` after the fork would leave the child running unseen, still
    writing into a store that is being removed; one raised inside ``Popen.wait`` right
    after it took its waitpid lock leaves the lock taken for good.

    A stop is kept once asked for (``requested``: the exception, the first asked), and
    ``check`` raises it again: Python drops an exception that a signal handler raises
    while a weakref callback runs (the module locks of an import), so the raise alone
    could be lost and serve run on."""

    def __init__(self) -> None:
        self.holding = 0
        self.requested: type[BaseException] | None = None

    def stop(self, *_: object) -> None:
        self._ask(_Stopped)

    def interrupt(self, *_: object) -> None:
        self._ask(KeyboardInterrupt)

    def _ask(self, stopping: type[BaseException]) -> None:
        if not self.requested:
            self.requested = stopping
        if not self.holding:
            raise self.requested

    def check(self) -> None:
        """Raise the stop asked for, if any (and it is not held off)."""
        if self.requested and not self.holding:
            raise self.requested

    @contextmanager
    def held(self) -> Iterator[None]:
        self.holding += 1
        try:
            yield
        finally:
            self.holding -= 1
        self.check()


_STOPS = _StopGate()
#: How often a serving process looks for a stop whose raise was lost (``_StopGate``).
_STOP_CHECK_SECONDS = 0.5


def _remove_own_stores() -> None:
    """Remove every store of this process (its lock released): the one being made may
    exist before its name is known here (a SIGTERM inside ``tempfile.mkdtemp``). One of
    the same PID that a process of another PID namespace holds is left."""
    own = os.getpid()
    for pid_text, path in _stores():
        if pid_text == str(own):
            _remove_unless_used(path, None)


def endpoint_base(host: str, port: int) -> str:
    """The base URL of a server listening on ``host`` and ``port``: an IPv6 address in
    brackets (RFC 3986), ``http://[::1]:7878``."""
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def serve(
    anthology: Engine,
    host: str,
    port: int,
    read_only: bool,
    started: Callable[[str], None],
    startup_seconds: float = 60,
    timeout: float | None = None,
) -> int:
    """Serve the anthology with Oxigraph at ``host:port`` until SIGTERM (0, loading
    included) or Ctrl-C (SIGINT: 0 once serving; while loading, KeyboardInterrupt). A
    server that stops on its own (killed by the OOM killer, say) is an AnthologyError
    naming its signal or exit code. A SIGINT the process was started with ignored (a
    background job of a script) stays ignored, as the shell meant. Every way out stops
    the server and removes its store.

    ``started(base_url)`` is called once the server accepts connections, never before.
    The server refuses updates when ``read_only``, and is asked to give each query
    ``timeout`` seconds (``serve_command``).
    A port in use, or a server that exits while starting, is an AnthologyError with its
    one-line reason. The server dies with this process, even when this process is killed
    with SIGKILL; its store, then left behind, is removed by the next ``serve``.
    """
    previous = signal.getsignal(signal.SIGTERM)
    previous_interrupt = signal.getsignal(signal.SIGINT)
    # From the start: a SIGTERM while the store loads (seconds at 10,000 entries) would
    # otherwise kill this process with the store and its loader left behind.
    _STOPS.requested = None
    signal.signal(signal.SIGTERM, _STOPS.stop)
    gates_interrupt = previous_interrupt is signal.default_int_handler  # (ignored: stays)
    if gates_interrupt:
        signal.signal(signal.SIGINT, _STOPS.interrupt)
    process: subprocess.Popen[str] | None = None
    relaying: threading.Thread | None = None
    lock: int | None = None
    try:
        remove_stale_stores()
        check_port(host, port)
        folder = Path(tempfile.mkdtemp(prefix=f"{STORE_PREFIX}{os.getpid()}-"))
        lock = _locked(folder)
        load_store(anthology, folder)
        _STOPS.check()
        with _STOPS.held():
            process = subprocess.Popen(
                serve_command(folder, host, port, read_only, timeout),
                stderr=subprocess.PIPE,
                text=True,
                errors="replace",
                env={**os.environ, "RUST_BACKTRACE": "0"},
                preexec_fn=_die_with_parent(os.getpid()),
            )
        lines: list[str] = []
        forwarding = threading.Event()
        assert process.stderr is not None
        errors = process.stderr

        def relay() -> None:  # the server's own messages: kept while starting, then shown
            # (until the pipe ends, or is closed when serve ends; a stderr that cannot
            # be written loses them, as it loses the command's own)
            with contextlib.suppress(OSError, ValueError):
                for line in errors:
                    if forwarding.is_set():
                        with contextlib.suppress(OSError):
                            sys.stderr.write(line)
                    else:
                        lines.append(line.rstrip())

        relaying = threading.Thread(target=relay, daemon=True)
        relaying.start()
        deadline = time.monotonic() + startup_seconds
        while not _listening(host, port):
            _STOPS.check()
            with _STOPS.held():  # (see the wait below)
                ended = process.poll() is not None
            if ended or time.monotonic() > deadline:
                if process.poll() is None:
                    process.kill()
                process.wait()
                time.sleep(0.1)  # let the relay read the last lines
                said = [line for line in lines if line and not line.startswith("note:")]
                reason = said[-1] if said else f"exit code {process.returncode}"
                raise AnthologyError(f"the oxigraph server did not start: {reason}")
            time.sleep(0.1)
        forwarding.set()
        for line in lines:
            sys.stderr.write(line + "\n")
        try:  # a Ctrl-C that comes while ``started`` prints is a stop like any other
            started(endpoint_base(host, port))
            while True:
                _STOPS.check()
                try:
                    # Held: a stop raised inside Popen's wait or poll, right after it has
                    # taken its waitpid lock, leaves the lock taken for good, and the
                    # finally's wait for the server then never returns.
                    with _STOPS.held():
                        code = process.wait(timeout=_STOP_CHECK_SECONDS)
                except subprocess.TimeoutExpired:
                    continue
                _STOPS.check()  # the server stopped by the same SIGTERM as this process
                raise AnthologyError(f"the oxigraph server stopped ({how_ended(code)})")
        except KeyboardInterrupt:
            return 0
    except _Stopped:
        return 0
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)  # the stop is under way: let it end
        if gates_interrupt:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if process is not None and process.stderr is not None:
            if relaying is not None:  # its last lines relayed (the pipe ends with the server)
                relaying.join(timeout=1)
            if relaying is None or not relaying.is_alive():  # (a close would wait on a read)
                process.stderr.close()
        if lock is not None:
            os.close(lock)
        _remove_own_stores()
        signal.signal(signal.SIGTERM, previous)
        if gates_interrupt:
            signal.signal(signal.SIGINT, previous_interrupt)
