"""Writing output files so that a failure never leaves a partial file behind."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from .errors import AnthologyError


def write_atomic(path: Path, content: str | bytes) -> None:
    """Write ``content`` to ``path`` through a temporary file in the same folder, then
    rename it into place: readers see the old file or the new one, never half of one."""
    path = Path(path)
    data = content.encode("utf-8") if isinstance(content, str) else content
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise AnthologyError("cannot write: no such folder", folder)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        if path.exists():
            os.chmod(tmp, path.stat().st_mode & 0o777)
        else:
            os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
