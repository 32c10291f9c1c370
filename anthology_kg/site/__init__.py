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
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, replace
from functools import cached_property, partial
from pathlib import Path

from ..forking import Child
from ..guards import refuse_service_in_shapes, releasing
from ..loader import EntryIndex
from ..queries import StoredQuery, catalog
from ..validation import Report, validate
from .assets import SEARCH_INDEX, search_script, static_files
from .model import Model
from .output import SiteWriter
from .pages import Answers, Pages, SiteText, ask
from .workers import Shares, Tally, available, beside, can_fork, in_processes


@dataclass
class BuiltSite:
    """What ``build_site`` wrote (``names`` relative to ``root``, sorted), and what it
    chose not to run (stored queries that call a remote service)."""

    root: Path
    names: list[str]
    warnings: list[str]

    @cached_property
    def files(self) -> list[Path]:
        """The files written, as paths (made when asked: ten thousand Paths cost more
        than a tenth of a second)."""
        return [self.root / name for name in self.names]


def build_site(
    anthology: EntryIndex,
    output: Path,
    validator: Callable[[EntryIndex], Report] | None = None,
    name: str = "The anthology",
    workers: int | None = None,
    allow_service: bool = False,
    timeout: float | None = None,
) -> BuiltSite:
    """Write the site as the whole content of ``output``; AnthologyError (exit 2) when a
    name derived from data would leave it, ``output`` holds something else, or a file
    cannot be written (the old site then stays as it was).

    ``validator`` gives the report the pages show (default: the tool's own ``validate``,
    refusing a shape that calls SERVICE unless ``allow_service``). On the fast engine it
    runs, with the stored queries, from the start and beside the reading of the model: in a forked
    child when the pages are shared out between processes and it is the tool's own
    ``validate``, else in a thread of this process; on the others it runs once the
    anthology's ontology and shapes are read for the browser, since the reference
    validator adds to the graphs. The entry pages are rendered by ``workers``
    processes (default: one per core, for an anthology of at least ENTRIES_PER_WORKER
    entries each, when the caller runs no other thread), each writing its share; the
    site is the same whatever their number. Each stored query gets ``timeout`` seconds
    (None or 0: no limit); one that runs out of them shows no answer and a note on its
    page, and the site warns of it."""
    if validator is None:
        # Said here, before a child is forked to validate: an input error of this call.
        refuse_service_in_shapes(anthology.rules.shapes_view, allow_service)
    own = validator or partial(validate, allow_service=allow_service)
    # Known before the swap: the working directory may be the old site, then removed.
    root = Path(os.path.abspath(output))
    writer = SiteWriter(output)
    callers = set(threading.enumerate())  # threads of ours are those started from here on
    # The build makes a million small objects that live to its end: the cyclic garbage
    # collector would walk them again and again (a fifth of the time at 10,000 entries).
    collecting = gc.isenabled()
    gc.disable()
    asked: Child[Answers] | Future[Answers] | None = None
    plan: Plan | None = None
    known = True  # whether every entry's neighbours are known here (draw_neighbourhoods)
    try:
        queries = catalog(anthology)
        count = _processes(workers, anthology)
        with ThreadPoolExecutor(max_workers=1, thread_name_prefix="site-answers") as pool:
            if anthology.answers_beside:
                # Validation and every stored query, beside the reading of the model. In
                # a thread, the two would mostly take turns at Python's lock (pyoxigraph
                # holds it while it iterates a query's solutions): at 10,000 entries
                # 0.98 s against 0.94 s one after the other. So in a child process when
                # the pages are shared out between processes anyway and the validator is
                # the tool's own (a caller's may keep state or threads here).
                if count > 1 and validator is None:
                    asked = beside(partial(_answers, anthology, queries, allow_service, timeout))
                else:
                    asked = pool.submit(releasing(ask), anthology, queries, own, None, timeout)
            try:
                model = Model.read(anthology)
            except Exception:
                if asked is not None:
                    # The engine parses each file alone, as every command does, and says
                    # which is wrong and where; the model parses runs of files as one
                    # document, and takes them for the UTF-8 Turtle the engine has read
                    # (a deferred load: not yet). The engine's verdict first, if any.
                    asked.result()
                raise
            assets = None
            if asked is None:
                # The reference validator adds to the ontology and shapes: the browser's
                # copy of them is read before it runs.
                assets = static_files(model, anthology.ontology, anthology.shapes)
            pages = Pages(anthology, model, name, writer.add, queries)
            writer.sources = pages.out.sources
            if asked is None:
                answers = ask(anthology, queries, own, timeout=timeout)
                pages.draw_neighbourhoods()
            else:
                pending = asked
                # While the engine answers: what comes after it, up to the fork, is serial.
                plan = _plan(pages, writer, count) if count > 1 else None
                known = pages.draw_neighbourhoods(
                    meanwhile=lambda: not pending.done(), share=count > 1
                )
                if plan is not None and isinstance(pending, Child):
                    # The child parses the engine's store before it answers (a deferred
                    # load): the longer task at 10,000 entries. What a worker would do
                    # first is done here meanwhile, while the child still works.
                    if not pending.done():
                        assets = static_files(model, anthology.ontology, anthology.shapes)
                    if not pending.done():
                        _write_search(pages, writer, plan)
                answers = pending.result()

        def add_assets() -> None:
            # Otherwise read once the pages are shared out: what comes before is serial.
            files = assets or static_files(model, anthology.ontology, anthology.shapes)
            for relative, content in files.items():
                writer.add(relative, content)

        if count == 1:
            add_assets()
            writer.add(SEARCH_INDEX, search_script(model, pages.by_identifier))
            built = pages.build(answers)
        else:
            plan = plan or _plan(pages, writer, count)
            built = _build_in_processes(
                pages, answers, writer, count, callers, add_assets, plan, known
            )
        writer.commit()
    except BaseException:
        if isinstance(asked, Child):
            asked.cancel()
        writer.discard()
        raise
    finally:
        if collecting:
            _promote_all()
            gc.enable()
    return BuiltSite(root, sorted(writer.written), built.warnings)


def _promote_all() -> None:
    """Move every object the collector tracks into its oldest generation, walking none,
    when the build left at least PROMOTED_FROM in the youngest: else its first pass once
    turned on again walks the build's objects, still alive (~600,000 and 0.06 s at 10,000
    entries), only to move them up a generation. Those left as garbage are freed as
    before: by their count of references, or by a full pass. Not when the caller froze
    objects: thawing them is the caller's choice."""
    # Asked in this order: the first count is a counter, the second walks every frozen
    # object (40 ms for a test process's three million), a walk a caller that froze its
    # objects pays only after a build whose own would cost more.
    if gc.get_count()[0] >= PROMOTED_FROM and gc.get_freeze_count() == 0:
        gc.freeze()  # every generation into the permanent one, none walked
        gc.unfreeze()  # the permanent generation into the oldest


def _answers(
    anthology: EntryIndex,
    queries: dict[str, StoredQuery],
    allow_service: bool,
    timeout: float | None = None,
) -> Answers:
    """``ask`` with the tool's validator, the report as the pages read it (its results
    and rules; not the engine's rows, nor the engine) to send to the parent process."""
    answers = ask(anthology, queries, partial(validate, allow_service=allow_service), None, timeout)
    report = replace(answers.report, rows=[], engine=None)
    return Answers(report, answers.results)


#: The objects left in the collector's youngest generation by a build (~20,000 for the
#: bundled anthology, ~600,000 at 10,000 entries) from which they are promoted.
PROMOTED_FROM = 100_000
ENTRIES_PER_WORKER = 500  # fewer are rendered sooner than a process is forked
# The share of the entries this process is planned to render, below an even share: it
# also writes the assets, the stored queries' pages, the index and the rules (the
# search index, a task about as long as all but the assets, goes to the first worker).
LIGHTER_BY = 0.04
# The entry pages a process takes at a time: about 2 ms of work at 10,000 entries. A
# process done with its planned share takes the rest of another's, so that all end
# within that of one another whatever slows one down.
ENTRIES_PER_RUN = 16


def _processes(workers: int | None, anthology: EntryIndex) -> int:
    if not hasattr(os, "fork"):
        return 1
    if workers is None:
        # A thread of the caller's could hold a lock a forked worker needs: none then.
        alone = threading.active_count() == 1
        # One entry a file, mostly (a remote store has no files).
        entries = len(anthology.data_files)
        workers = min(available(), entries // ENTRIES_PER_WORKER) if alone else 1
    return max(1, workers)


Listed = list[tuple[str, str, str]]  # entries with a page: node, identifier, path
# The paths reserved for the files not written yet, the planned shares.
Plan = tuple[dict[str, str], list[Listed]]


def _plan(pages: Pages, writer: SiteWriter, count: int) -> Plan:
    """The entry pages shared out between ``count`` processes: the path of each file the
    workers write (and the search index's) reserved, the entry template compiled here
    (not again in each worker), and the share of the entries planned for each process:
    a lighter one here (LIGHTER_BY), the others even."""
    listed = pages.entry_pages()
    pages.entry_template()
    paths = {path: writer.reserve(path) for path in (SEARCH_INDEX, *(p for _, _, p in listed))}
    mine = max(0.0, 1 / count - LIGHTER_BY)
    planned: list[Listed] = [[] for _ in range(count)]
    for i, item in enumerate(listed):  # spread over the order of identifiers
        if int((i + 1) * mine) > int(i * mine):
            planned[0].append(item)
        else:
            planned[1 + i % (count - 1)].append(item)
    return paths, planned


def _write_search(pages: Pages, writer: SiteWriter, plan: Plan) -> None:
    """Write the search index at the path ``_plan`` reserved for it, here and now: no
    worker writes it then."""
    paths, _ = plan
    text = search_script(pages.model, pages.by_identifier)
    try:
        writer.write_now(paths.pop(SEARCH_INDEX), SEARCH_INDEX, text.encode("utf-8"))
    except OSError as exc:
        raise writer.failure(exc) from None


def _build_in_processes(
    pages: Pages,
    answers: Answers,
    writer: SiteWriter,
    count: int,
    callers: set[threading.Thread],
    add_assets: Callable[[], None],
    plan: Plan,
    known: bool = True,
) -> SiteText:
    """The files not written yet, by this process and ``count - 1`` forked workers: here
    ``add_assets()``, the stored queries' pages, the index, the rules and its planned
    share of the entries; in the first worker the search index and its share; in the
    others theirs. A process done with its share takes over the end of another's (``Shares``),
    so that all end together (fixed shares ended 0.1 to 0.3 s apart at 10,000 entries).
    ``callers`` are the threads that ran before the build: every other thread has ended
    when the workers are forked (else no worker is: the tasks all run here). ``plan``:
    ``_plan``'s.

    Unless every entry's neighbours are ``known``, each process first finds those of its
    planned share (``Pages.learn_neighbours``) and the processes tell one another how
    many have a picture (``Tally``), which the entry pages' caption says: found before
    the fork, they were found in this process alone while the engine's child process,
    done, left a core idle (0.15 s at 10,000 entries)."""
    paths, planned = plan
    writer.pause()  # the writer's thread ends

    def write(relative: str, content: str) -> None:
        writer.write_now(paths[relative], relative, content.encode("utf-8"))

    forkable = can_fork(callers) if not known else None
    if forkable is False:  # the tasks all run here, in turn
        pages.count_pictures(pages.known_pictures() + pages.learn_neighbours(pages.entry_pages()))
        known = True
    tally = None if known else Tally(count)
    ended: list[int] = []  # the processes that learnt another had ended before it said

    def say(index: int) -> None:
        if tally is not None:
            tally.say(index, pages.learn_neighbours(planned[index]))

    def counted(index: int) -> bool:
        """Whether the caption is known here (else another process ended first: its
        failure is what in_processes reports)."""
        if tally is None:
            return True
        total = tally.total(index)
        if total is None:
            ended.append(index)
            return False
        pages.count_pictures(pages.known_pictures() + total)
        return True

    shares = Shares(planned, ENTRIES_PER_RUN)

    def here() -> None:
        say(0)
        add_assets()
        pages.other_pages(answers)
        if counted(0):
            pages.entries(answers, shares.share(0), write)

    def first_worker() -> None:
        say(1)
        if SEARCH_INDEX in paths:  # not written yet (``_write_search``)
            write(SEARCH_INDEX, search_script(pages.model, pages.by_identifier))
        if counted(1):
            pages.entries(answers, shares.share(1), write)

    def other_worker(index: int) -> None:
        say(index)
        if counted(index):
            pages.entries(answers, shares.share(index), write)

    tasks = [here, first_worker]
    tasks += [partial(other_worker, i) for i in range(2, count)]
    try:
        in_processes(tasks, callers, forkable)
    except OSError as exc:  # a worker's write
        raise writer.failure(exc) from None
    finally:
        shares.close()
        if tally is not None:
            tally.close()
    if ended:  # a worker ended before it said, yet it succeeded: never, unless killed
        raise RuntimeError("a process building the site ended before its share was counted")
    return pages.out


__all__ = ["BuiltSite", "build_site"]
