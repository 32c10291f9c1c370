"""A static HTML site of the anthology: index, entry pages, stored queries, rules, pictures.

``build_site(anthology, output)`` writes pages a researcher reads (labels, authors and
years, prose in paragraphs, what rests on what), a client-side search, and each stored
query with its text, its answer, and a SPARQL engine that runs it again in the browser.
Pages are Jinja2 templates with autoescaping; file names derived from data are safe
slugs confined to the output folder; a Content-Security-Policy allows the site's own
files only; the whole site replaces the output folder at once. The same anthology gives
the same bytes. Every engine's anthology works (engine.Engine).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..loader import EntryIndex
from ..validation import Report, validate
from .assets import static_files
from .model import Model
from .output import write_tree
from .pages import Pages


@dataclass
class BuiltSite:
    """What ``build_site`` wrote, and what it chose not to run (stored queries that call
    a remote service)."""

    files: list[Path]
    warnings: list[str]


def build_site(
    anthology: EntryIndex,
    output: Path,
    validator: Callable[[EntryIndex], Report] = validate,  # type: ignore[assignment]
    name: str = "The anthology",
) -> BuiltSite:
    """Write the site as the whole content of ``output``; AnthologyError (exit 2) when a
    name derived from data would leave it, or ``output`` holds something else.

    ``validator`` gives the report the pages show; it runs after the anthology's graphs
    are read for the browser, since the reference validator adds to them."""
    model = Model.read(anthology)
    assets = static_files(model, anthology.ontology, anthology.shapes)
    built = Pages(anthology, model, validator(anthology), name).build()
    files = {**assets, **built.files}
    files = dict(sorted(files.items()))
    write_tree(output, files, built.sources)
    root = output.absolute()
    return BuiltSite([root / relative for relative in files], built.warnings)


__all__ = ["BuiltSite", "build_site"]
