"""Writing output files so that a failure never leaves a partial file behind."""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import stat
import tempfile
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from .errors import AnthologyError

_WRITE_REASONS = {
    errno.ENOSPC: "no space left on the device",
    errno.EDQUOT: "disk quota exceeded",
    errno.EROFS: "read-only file system",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.EISDIR: "a folder is in the way",
}


def write_error(exc: OSError, path: Path | str) -> AnthologyError:
    """An OSError met while writing ``path`` as the AnthologyError the CLI reports."""
    reason = _WRITE_REASONS.get(exc.errno or 0, exc.strerror or str(exc))
    return AnthologyError(f"cannot write: {reason}", path)


def write_atomic(path: Path, content: str | bytes | Iterable[bytes]) -> None:
    """Write ``content`` (text, bytes, or bytes in chunks, written as they come) to
    ``path`` through a temporary file in the same folder, then rename it into place:
    readers see the old file or the new one, never half of one.

    Any failure (a read-only or full file system, a folder in the way) removes the
    temporary file and raises AnthologyError naming ``path``. A symbolic link is written
    through: its target is replaced, the link stays (as an editor saves a linked file).
    A character device or a named pipe (``/dev/null``, ``/dev/stdout`` in a pipeline) is
    written into as a stream, never replaced; a block device or a socket is refused.
    """
    path = Path(path)
    if isinstance(content, str):
        content = content.encode("utf-8")
    chunks = [content] if isinstance(content, bytes) else content
    if _is_stream(path):
        try:
            with open(path, "wb") as stream:
                stream.writelines(chunks)
        except OSError as exc:
            raise write_error(exc, path) from None
        return
    if path.is_symlink():
        path = Path(os.path.realpath(path))
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise AnthologyError("cannot write: no such folder", folder)
    if path.is_dir():
        raise AnthologyError("cannot write: a folder is in the way", path)
    tmp: str | None = None
    try:
        with stop_signals_held():  # a file made is a name kept, to be removed
            fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
            handle = os.fdopen(fd, "wb")
        with handle:
            handle.writelines(chunks)
        if path.exists():
            os.chmod(tmp, path.stat().st_mode & 0o777)
        else:
            os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except OSError as exc:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)
        raise write_error(exc, path) from None
    except BaseException:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)
        raise


#: The signals that stop a command (Ctrl-C; SIGTERM, which the command line turns into
#: KeyboardInterrupt as well): ``stop_signals_held`` holds them back.
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


@contextlib.contextmanager
def stop_signals_held() -> Iterator[None]:
    """Hold Ctrl-C and SIGTERM back while the block runs, then give the first that came
    to its own handler: a temporary file made is a name kept, and a clean-up is not left
    half done. Outside the main thread (where Python runs no signal handler) the block
    runs as it is, and a signal ignored, or handled outside Python, is left alone."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    pending: list[int] = []

    def hold(number: int, _frame: object) -> None:
        pending.append(number)

    previous: dict[int, Any] = {}
    try:
        for number in STOP_SIGNALS:
            handler = signal.getsignal(number)
            if callable(handler) or handler == signal.SIG_DFL:
                previous[number] = handler
                signal.signal(number, hold)
        yield
    finally:
        _put_back(previous)
        if pending:
            signal.raise_signal(pending[0])  # its handler runs now, as if it came now


def _put_back(handlers: dict[int, Any]) -> None:
    """Install each of ``handlers`` again, all of them even if a signal whose handler is
    back already comes meanwhile: its handler runs within ``signal.signal`` (and may
    raise); what it raised is raised once every handler is back."""
    stopped: BaseException | None = None
    for number, handler in handlers.items():
        while True:
            try:
                signal.signal(number, handler)
                break
            except BaseException as exc:  # raised by a handler put back already
                stopped = stopped or exc
    if stopped is not None:
        raise stopped


def _is_stream(path: Path) -> bool:
    """Whether ``path`` (a symbolic link followed) is a character device or a named
    pipe. A rename over it would replace the device or the pipe with a plain file (as
    root, ``-o /dev/null`` did); a block device or a socket raises AnthologyError."""
    kind = special_file(path)
    if kind in ("a block device", "a socket"):
        refuse_special_file(path)
    return kind is not None


def special_file(path: Path) -> str | None:
    """What ``path`` (a symbolic link followed) is when it is neither a regular file nor
    a folder ("a character device", "a named pipe", "a block device", "a socket"); None
    for those, and where nothing is (or it cannot be reached)."""
    try:
        return _SPECIAL_FILES.get(stat.S_IFMT(os.stat(path).st_mode))
    except OSError:
        return None


def refuse_special_file(path: Path) -> None:
    """Raise AnthologyError when ``path`` is a ``special_file``: output that must be a
    file (a folder's, written all or none) is not written into a device or a pipe."""
    kind = special_file(path)
    if kind is not None:
        raise AnthologyError(f"cannot write: {kind} is in the way, not a file", path)


_SPECIAL_FILES = {
    stat.S_IFCHR: "a character device",
    stat.S_IFIFO: "a named pipe",
    stat.S_IFBLK: "a block device",
    stat.S_IFSOCK: "a socket",
}
