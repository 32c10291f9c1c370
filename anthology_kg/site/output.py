"""Where the site's files go: safe names derived from data, confined to the output folder,
written into a fresh folder that replaces the old site only once it is complete.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path

from ..errors import AnthologyError

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
_SAFE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")
GENERATOR = "anthology-kg"


def slug(text: str) -> str:
    """A file name for ``text``: itself when it is already a plain name (letters, digits,
    ``.``, ``_``, ``-``, not starting with a dot or dash, at most 100 characters), else its
    plain characters and a short hash of the whole text, so that two texts never share a
    name and nothing in the text (``/``, ``..``, quotes) reaches the file system."""
    if _SAFE.fullmatch(text) and ".." not in text:
        return text
    plain = _UNSAFE.sub("-", text).replace("..", "-").strip(".-")[:60] or "entry"
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:10]
    return f"{plain}-{digest}"


Source = tuple[str, "tuple[Path, int | None] | None"]


def confined(root: Path, relative: str, describe: Callable[[], Source]) -> Path:
    """``root / relative``, checked after resolving to lie inside ``root`` (itself
    resolved); otherwise an AnthologyError naming what ``describe()`` says the file was
    derived from (an entry or a query) and its source file and line."""
    path = (root / relative).resolve()
    if not path.is_relative_to(root):
        what, where = describe()
        source, line = where if where is not None else (None, None)
        raise AnthologyError(
            f"{what}: its page {relative!r} would be written outside {root}", source, line
        )
    return path


def is_site(folder: Path) -> bool:
    """Whether ``folder`` holds a site this tool wrote (its index names the generator)."""
    index = folder / "index.html"
    try:
        head = index.read_text(encoding="utf-8", errors="replace")[:2000]
    except OSError:
        return False
    return f'<meta name="generator" content="{GENERATOR}">' in head


def write_tree(
    output: Path, files: dict[str, str | bytes], sources: Mapping[str, Callable[[], Source]]
) -> None:
    """Write ``files`` (relative path to content) as the whole of ``output``.

    The files go into a new folder beside ``output``, which then takes its place, so the
    output is exactly these files (a deleted entry's page disappears) and a failure
    leaves the old site as it was. ``output`` must be missing, empty, or a site this tool
    wrote: anything else is refused rather than replaced. ``sources`` tells, for a path
    derived from data, what it was derived from (asked only for a refusal's message).
    """
    output = output.absolute()
    if output.exists() and not output.is_dir():
        raise AnthologyError("not a folder", output)
    if output.is_dir() and any(output.iterdir()) and not is_site(output):
        raise AnthologyError(
            "the folder is not empty and holds no site written by anthology-kg; "
            "name a new or empty folder (the site replaces the folder's whole content)",
            output,
        )
    parent = output.parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
        fresh = Path(tempfile.mkdtemp(dir=parent, prefix=f".{output.name}.new-"))
    except OSError as exc:
        raise AnthologyError(f"cannot write: {exc.strerror}", parent) from None
    path = fresh = fresh.resolve()
    made: set[Path] = {fresh}
    try:
        for relative, content in files.items():
            describe = sources.get(relative, lambda r=relative: (r, None))
            path = confined(fresh, relative, describe)
            if path.parent not in made:
                path.parent.mkdir(parents=True, exist_ok=True)
                made.add(path.parent)
            data = content.encode("utf-8") if isinstance(content, str) else content
            path.write_bytes(data)
        os.chmod(fresh, 0o755)
        _swap(fresh, output)
    except OSError as exc:
        shutil.rmtree(fresh, ignore_errors=True)
        raise AnthologyError(
            f"cannot write the site ({Path(exc.filename or path).name}): {exc.strerror}", output
        ) from None
    except BaseException:
        shutil.rmtree(fresh, ignore_errors=True)
        raise


def _swap(fresh: Path, output: Path) -> None:
    """Put ``fresh`` where ``output`` is, removing the old site only after the rename."""
    if not output.exists():
        os.replace(fresh, output)
        return
    old = Path(tempfile.mkdtemp(dir=output.parent, prefix=f".{output.name}.old-"))
    old.rmdir()
    os.replace(output, old)
    try:
        os.replace(fresh, output)
    except OSError:
        os.replace(old, output)
        raise
    shutil.rmtree(old, ignore_errors=True)
