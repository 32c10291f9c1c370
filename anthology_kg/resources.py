"""Where the bundled ontology, shapes, queries and data are, and which root to read.

A wheel carries them under ``anthology_kg/_bundled``; a source checkout (or an
editable install) has them at the top of the repository.
"""

from __future__ import annotations

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
    ``data/``; None when none has one."""
    here = (start or Path.cwd()).resolve()
    for candidate in (here, *here.parents):
        if (candidate / DATA_DIR).is_dir():
            return candidate
    return None


def data_folder(root: Path) -> Path:
    """The ``data/`` folder of the anthology at ``root``; AnthologyError at ``root`` when
    there is none: a folder without one is not an anthology."""
    data = root / DATA_DIR
    if not data.is_dir():
        raise AnthologyError("no data/ folder here: not an anthology", root)
    return data
