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

import gc
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from ..loader import EntryIndex
from ..queries import catalog
from ..validation import Report, validate
from .assets import static_files
from .model import Model
from .output import SiteWriter
from .pages import Pages, ask
from .workers import available


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
    workers: int | None = None,
) -> BuiltSite:
    """Write the site as the whole content of ``output``; AnthologyError (exit 2) when a
    name derived from data would leave it, ``output`` holds something else, or a file
    cannot be written (the old site then stays as it was).

    ``validator`` gives the report the pages show. On the fast engine it runs, with the
    stored queries, from the start and beside the building of the pages (pyoxigraph
    answers with Python's lock released); on the others it runs once the anthology's
    ontology and shapes are read for the browser, since the reference validator adds
    to the graphs. The entry pages are rendered by ``workers`` processes (default: one
    per core, for an anthology of at least ENTRIES_PER_WORKER entries each), each
    writing its share; the site is the same whatever their number."""
    writer = SiteWriter(output)
    # The build makes a million small objects that live to its end: the cyclic garbage
    # collector would walk them again and again (a fifth of the time at 10,000 entries).
    collecting = gc.isenabled()
    gc.disable()
    try:
        with ThreadPoolExecutor(max_workers=1, thread_name_prefix="site-answers") as pool:
            queries = catalog(anthology)  # type: ignore[arg-type]
            asked = None
            if getattr(anthology, "name", None) == "fast":
                asked = pool.submit(ask, anthology, queries, validator)
            model = Model.read(anthology)
            for relative, content in static_files(
                model, anthology.ontology, anthology.shapes
            ).items():
                writer.add(relative, content)
            pages = Pages(anthology, model, name, writer.add, queries)
            writer.sources = pages.out.sources
            if asked is None:
                answers = ask(anthology, queries, validator)
                pages.draw_neighbourhoods()
            else:
                pages.draw_neighbourhoods()
                answers = asked.result()
        listed = pages.entry_pages()
        count = _processes(workers, len(listed))
        if count == 1:
            built = pages.build(answers)
        else:
            writer.pause()  # no thread but this one when the workers are forked
            paths = {path: writer.reserve(path) for _, _, path in listed}

            def write(relative: str, page: str) -> None:
                writer.write_now(paths[relative], relative, page.encode("utf-8"))

            shares = [
                partial(pages.entries, answers, listed[i::count], write) for i in range(count)
            ]
            try:
                built = pages.build(answers, shares)
            except OSError as exc:  # a worker's write
                raise writer.failure(exc) from None
        writer.commit()
    except BaseException:
        writer.discard()
        raise
    finally:
        if collecting:
            gc.enable()
    root = output.absolute()
    return BuiltSite([root / relative for relative in sorted(writer.written)], built.warnings)


ENTRIES_PER_WORKER = 500  # fewer are rendered sooner than a process is forked


def _processes(workers: int | None, entries: int) -> int:
    if not hasattr(os, "fork"):
        return 1
    if workers is None:
        workers = min(available(), entries // ENTRIES_PER_WORKER)
    return max(1, min(workers, entries))


__all__ = ["BuiltSite", "build_site"]
