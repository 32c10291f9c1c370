"""Writing output files so that a failure never leaves a partial file behind."""

from __future__ import annotations

import errno
import os
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
    """
    path = Path(path)
    if path.is_symlink():
        path = Path(os.path.realpath(path))
    if isinstance(content, str):
        content = content.encode("utf-8")
    chunks = [content] if isinstance(content, bytes) else content
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
