"""Where the bundled ontology, shapes, queries and data are, and which root to read.

A wheel carries them under ``anthology_kg/_bundled``; a source checkout (or an
editable install) has them at the top of the repository.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from .errors import AnthologyError

_PACKAGE = Path(__file__).resolve().parent
#: The folder of an anthology that holds its entries, one Turtle file each.
DATA_DIR = "data"


def bundled_dir() -> Path:
    """The folder that holds the bundled ``ontology/``, ``queries/`` and ``data/``."""
    packaged = _PACKAGE / "_bundled"
    if (packaged / "ontology").is_dir():
        return packaged
    return _PACKAGE.parent


def ontology_file() -> Path:
    """The bundled OWL ontology."""
    return bundled_dir() / "ontology" / "anthology.ttl"


def bundled_shapes_dir() -> Path:
    """The bundled SHACL shapes, one file per decision record plus integrity."""
    return bundled_dir() / "ontology" / "shapes"


def bundled_queries_dir() -> Path:
    """The bundled stored SPARQL queries."""
    return bundled_dir() / "queries"


def find_root(start: Path | None = None) -> Path:
    """The nearest ancestor of ``start`` (default: the working directory) holding ``data/``.

    Falls back to the bundled anthology when no ancestor has one.
    """
    return nearest_root(start) or bundled_dir()


def nearest_root(start: Path | None = None) -> Path | None:
    """The nearest ancestor of ``start`` (default: the working directory) holding
    ``data/``; None when none has one. A symbolic link named ``data`` that leads to no
    folder (dangling, in a loop, to a file) stops the search with an AnthologyError at
    it, as git stops at a broken ``.git``: it was meant as this folder's data, and the
    anthology above is not the one meant. A file named ``data`` is passed over, as a
    folder without one is (a script's or a notebook's data beside an anthology's files)."""
    here = (start or Path.cwd()).resolve()
    for candidate in (here, *here.parents):
        data = candidate / DATA_DIR
        if data.is_dir():
            return candidate
        if data.is_symlink():
            _refuse_broken(data, "; repair or remove it, or name the anthology with --root DIR")
    return None


def data_folder(root: Path) -> Path:
    """The ``data/`` folder of the anthology at ``root``; AnthologyError at ``root`` when
    there is none (a folder without one is not an anthology), at ``root/data`` when it
    is no folder."""
    data = root / DATA_DIR
    if not os.path.lexists(data):
        raise AnthologyError("no data/ folder here: not an anthology", root)
    _refuse_broken(data, ": not an anthology")
    return data


def _refuse_broken(data: Path, then: str) -> None:
    """An AnthologyError at ``data`` (which exists, as a name) unless it is a folder or a
    link to one, saying what it is instead, ``then`` what follows."""
    try:
        mode = os.stat(data).st_mode
    except OSError as exc:
        if exc.errno == errno.ENOENT:
            what = f"a dangling symbolic link (to {os.readlink(data)})"
        elif exc.errno == errno.ELOOP:
            what = "a symbolic link in a loop"
        else:
            what = f"unreadable ({exc.strerror})"
    else:
        if stat.S_ISDIR(mode):
            return
        what = "a file" if stat.S_ISREG(mode) else "a special file"
    raise AnthologyError(f"{what}, not a folder{then}", data)
