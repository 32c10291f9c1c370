"""Writing output files so that a failure never leaves a partial file behind."""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from collections.abc import Iterable
from pathlib import Path

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
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise write_error(exc, path) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.writelines(chunks)
        if path.exists():
            os.chmod(tmp, path.stat().st_mode & 0o777)
        else:
            os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise write_error(exc, path) from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


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
