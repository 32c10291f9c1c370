"""Shared fixtures: the bundled anthology, fixture anthologies, a CLI runner."""

from __future__ import annotations

import functools
import gc
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

import pytest
import stores
from click.testing import CliRunner
from stores import virtuoso  # noqa: F401  (a real Virtuoso, module fixture: tests/stores.py)

from anthology_kg.cli import main
from anthology_kg.resources import bundled_dir

FIXTURES = Path(__file__).parent / "fixtures"
#: The printed records of the fixtures (``import``'s input).
RECORDS = sorted((FIXTURES / "records").glob("*.txt"))
REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
def bundled_copy(tmp_path: Path) -> Path:
    """A writable copy of the bundled anthology's data/ in a fresh folder."""
    root = tmp_path / "anthology"
    shutil.copytree(bundled_dir() / "data", root / "data")
    return root


@pytest.fixture(scope="module")
def nothing(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An anthology of no entries, one a module, for queries that read no data: the
    reference engine reads the bundled anthology's triples for each command (~9 ms)."""
    root = tmp_path_factory.mktemp("nothing")
    (root / "data").mkdir()
    return root


@pytest.fixture
def anthology(bundled_copy: Path, monkeypatch) -> Path:
    """``bundled_copy``, made the working directory: commands find it as a user's own."""
    monkeypatch.chdir(bundled_copy)
    return bundled_copy


def edit(root: Path, relative: str, old: str, new: str) -> None:
    """Replace the first ``old`` in the file ``relative`` to ``root`` with ``new``; the
    test fails where ``old`` is not there (an edit that changes nothing proves nothing)."""
    path = root / relative
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {relative}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def rules_fixture_copy(tmp_path: Path, name: str, own_shapes: str | None = None) -> Path:
    """A writable copy of the rules fixture ``name`` at ``tmp_path / "w"``, with
    ``own_shapes`` (Turtle) as its ontology/shapes/own.ttl when given."""
    root = tmp_path / "w"
    shutil.copytree(FIXTURES / "rules" / name, root)
    if own_shapes is not None:
        (root / "ontology" / "shapes").mkdir(parents=True)
        (root / "ontology" / "shapes" / "own.ttl").write_text(own_shapes, "utf-8")
    return root


@pytest.fixture(params=["dot", "python"])
def layout(request, monkeypatch):
    """Both picture layouts: Graphviz's dot (skipped without it) and the Python fallback."""
    from anthology_kg.site import pictures

    if request.param == "dot":
        if shutil.which("dot") is None:
            pytest.skip("Graphviz dot is not installed (Debian package graphviz)")
    else:
        real = shutil.which
        monkeypatch.setattr(pictures.shutil, "which", lambda n: None if n == "dot" else real(n))
    return request.param


def waiver_text(expires: str, rule: str = "aks:Rule9NoDanglingReference") -> str:
    """A waivers.ttl of one waiver: LIT-001's reference to LIT-999 (the fixtures' rule 9
    result), its ``rule`` and ``expires`` written as given (Turtle terms)."""
    return f"""@prefix ak: <https://w3id.org/anthology-kg/ns#> .
@prefix aks: <https://w3id.org/anthology-kg/shapes#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .

<waiver/LIT-001-rule9> a ak:Waiver ;
    ak:waives <LIT-001> ;
    ak:rule {rule} ;
    rdfs:comment "LIT-999 is being written" ;
    ak:expires {expires} .
"""


def date_term(day: str) -> str:
    """``day`` (YYYY-MM-DD) as an xsd:date literal in Turtle."""
    return f'"{day}"^^xsd:date'


def records_folder(tmp_path: Path, paths: Iterable[Path]) -> Path:
    """A folder ``records`` in ``tmp_path`` holding a copy of each record of ``paths``."""
    folder = tmp_path / "records"
    folder.mkdir()
    for path in paths:
        (folder / path.name).write_bytes(path.read_bytes())
    return folder


#: Chromium's headless shell where it is installed (Debian package chromium-headless-shell,
#: what Playwright runs headless by default), else the browser. The same Blink and V8,
#: without the desktop browser's profile, history and session services: a launch and close
#: 1.22 -> 0.81 s of CPU, a visit to a page of the site 90 -> 60 ms, the hostile site's
#: visits 8.2 -> 6.8 s (whole process tree, cgroup, median of 3).
CHROMIUM = (
    shutil.which("chromium-headless-shell")
    or shutil.which("chromium")
    or shutil.which("chromium-browser")
)
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="no Chromium installed (Debian package chromium)"
)


def _roomy_dev_shm() -> bool:
    """Whether /dev/shm has room for Chromium's shared memory (1 GB free). Playwright
    launches it with --disable-dev-shm-usage, for containers whose /dev/shm is 64 MB:
    its shared memory then lives in files in /tmp, which may be on a disk (as here):
    ~6% more of the browser's CPU, mostly in the kernel."""
    try:
        free = os.statvfs("/dev/shm")
    except OSError:
        return False
    return free.f_bavail * free.f_frsize >= 1 << 30


class _Chromium:
    """The test process's headless Chromium and its one tab, launched when a test first asks
    for them. They are closed after the last test of a module when the next test's module
    does not use them, and at the end: kept from one browser module to the next when a
    process runs them one after the other (test_site, then test_site_reading: ``BESIDE``),
    as a launch and its tab cost ~1.3 s of CPU. Not kept beyond: Playwright's threads
    would outlive the browser modules, and the site's workers are not forked beside
    threads (test_workers_interrupt)."""

    ARGS = [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
    ]

    def __init__(self) -> None:
        self.playwright = None
        self.launched = None
        self.page = None
        self.modules: set[Path] | None = None  # those with a test using the browser

    def open(self, sync_api):
        """The browser, launched now if it is not running."""
        if self.launched is None:
            self.playwright = sync_api.sync_playwright().start()
            self.launched = self.playwright.chromium.launch(
                executable_path=CHROMIUM,
                args=self.ARGS,
                ignore_default_args=["--disable-dev-shm-usage"] if _roomy_dev_shm() else None,
            )
        return self.launched

    def tab(self):
        """The browser's one tab (1280 × 900), opened now if it is not open."""
        if self.page is None:
            assert self.launched is not None, "the browser is not running"
            self.page = self.launched.new_page(viewport={"width": 1280, "height": 900})
        return self.page

    def close(self) -> None:
        """Close the browser and stop Playwright (its driver and threads), if running."""
        self.page = None
        if self.launched is not None:
            self.launched.close()
            self.launched = None
        if self.playwright is not None:
            self.playwright.stop()
            self.playwright = None

    def close_unless_used_by(self, item) -> None:
        """Close the browser if no test of ``item``'s module (of this session) uses it, or
        ``item`` is None (the session ends)."""
        if self.launched is None:
            return
        if item is not None and self.modules is None:
            self.modules = {t.path for t in item.session.items if "browser" in t.fixturenames}
        if item is None or self.modules is None or item.path not in self.modules:
            self.close()


_CHROMIUM = _Chromium()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item, nextitem):
    """The browser and Virtuoso stopped after the last test of the last module in a row
    that uses them, once its fixtures are torn down: their CPU, reaped then, is counted on
    that module (bench_suite), not on the next one's first test or the session's last."""
    try:
        return (yield)
    finally:
        _CHROMIUM.close_unless_used_by(nextitem)
        stores.RUNNING.stop_unless_used_by(nextitem)


def pytest_sessionfinish(session):
    _CHROMIUM.close()
    stores.RUNNING.stop()


@pytest.fixture(scope="module")
def browser():
    """A headless Chromium for a module's browser tests (test_site, test_site_reading):
    the process's (``_Chromium``)."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    return _CHROMIUM.open(sync_api)


@pytest.fixture(scope="module")
def browser_tab(browser):
    """The browser's one tab (1280 × 900), for a module's visits: a new tab starts a
    renderer process of its own, ~0.2 s of CPU. The site's pages keep nothing in the
    browser between visits (no storage, no cookies); each test opens a page of its own
    first, and removes the listeners it adds. The module starts on a blank page, as in a
    new tab: the last module's last page has unloaded before its listeners are added."""
    page = _CHROMIUM.tab()
    page.goto("about:blank")
    return page


@pytest.fixture(scope="session")
def bundled_site_built(tmp_path_factory) -> Path:
    """The bundled anthology's site as ``site`` builds it (the repository's working
    folder, every option at its default), once for the test process: for test_site and
    test_site_reading, which run one after the other (``BESIDE``) and only read it."""
    out = tmp_path_factory.mktemp("bundled-site") / "site"
    result = run_cli("site", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    return out


@functools.cache
def reference_results(root: Path) -> tuple:
    """The reference engine's (rdflib + pySHACL) validation results (frozen
    ``RuleResult``) of the anthology at ``root``, as ``validate(load_anthology(root))``
    gives them, computed once per test process: the slowest expected value of the suite,
    shared by the tests that read it (test_rules, test_engines). Only for folders no test
    writes to (tests/fixtures, the bundled anthology, module-scoped generated ones)."""
    from anthology_kg.loader import load_anthology
    from anthology_kg.validation import validate

    return tuple(validate(load_anthology(root)).results)


def run_cli(*args: str, input: str | None = None):
    """Run the CLI in-process; stdout and stderr are kept apart."""
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)


def own_shapes(root: Path, shapes: str, data: str) -> tuple[str, ...]:
    """A one-entry anthology at ``root`` (``data/X-1.ttl`` holding ``data``) and its own
    shapes file ``s.ttl`` holding ``shapes``: the arguments that validate one with the
    other (``--engine`` and the rest to add)."""
    (root / "data").mkdir(parents=True)
    (root / "data" / "X-1.ttl").write_text(data, encoding="utf-8")
    (root / "s.ttl").write_text(shapes, encoding="utf-8")
    return ("--root", str(root), "validate", "--shapes", str(root / "s.ttl"))


#: The engines a differential test runs a command on.
ENGINES = ("fast", "reference")


def validated_alike(*args: str, exit_code: int = 1) -> str:
    """What ``validate`` (``args``, as ``own_shapes`` gives them) prints, asserted the
    same on both engines and each exiting ``exit_code``."""
    outputs = set()
    for engine in ENGINES:
        found = run_cli(*args, "--engine", engine)
        assert found.exit_code == exit_code, (engine, found.stderr)
        outputs.add(found.stdout)
    (text,) = outputs
    return text


def answered(engine: str, *args: str, input: str | None = None) -> str:
    """What the command ``args`` (``sparql`` and its options, after ``--root`` if
    given) prints on ``engine``, asserted to exit 0 with nothing on stderr."""
    found = run_cli(*args, "--engine", engine, input=input)
    assert (found.exit_code, found.stderr) == (0, ""), (engine, found.stderr)
    return found.stdout


def sparql_refused(engine: str, text: str) -> str:
    """What ``sparql -`` says on stderr refusing ``text`` on ``engine``, asserted to exit
    2 with nothing on stdout."""
    result = run_cli("sparql", "-", "--engine", engine, input=text)
    assert result.exit_code == 2 and result.stdout == "", (engine, result.output)
    return result.stderr


def answered_alike(*args: str, input: str | None = None) -> str:
    """What ``answered`` gives for ``args``, asserted the same on both engines."""
    outputs = {answered(engine, *args, input=input) for engine in ENGINES}
    assert len(outputs) == 1, outputs
    return outputs.pop()


def _sigint_as_on_a_terminal() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def cli_process(*args: str, **popen) -> subprocess.Popen:
    """``python -m anthology_kg ARGS`` started as a shell starts a command a user can stop
    with Ctrl-C: SIGINT at its default in the child, whatever pytest's own is. (pytest
    started as a background job of a non-interactive shell has SIGINT ignored; a child
    inherits that, and Python then installs no KeyboardInterrupt handler, so a test that
    sends SIGINT would see it ignored.) ``popen`` goes to ``subprocess.Popen``."""
    return subprocess.Popen(
        [sys.executable, "-m", "anthology_kg", *args],
        preexec_fn=_sigint_as_on_a_terminal,
        **popen,
    )


@pytest.fixture
def conformance(request):
    """``conformance(suite, outcome)`` records one conformance case ("passed", "expected
    failures" or "failed") on the test's report; the tally is summed from the reports,
    wherever the tests ran (pytest-xdist workers send their reports to the controller)."""

    def record(suite: str, outcome: str) -> None:
        request.node.user_properties.append(("conformance", (suite, outcome)))

    return record


class _ConformanceTally:
    """Sums the conformance cases of the reports and prints them at the end."""

    def __init__(self) -> None:
        self.tallies: dict[str, dict[str, int]] = {}

    def pytest_runtest_logreport(self, report) -> None:
        if report.when != "call":
            return
        for key, value in report.user_properties:
            if key == "conformance":
                suite, outcome = value
                zero = {"passed": 0, "expected failures": 0, "total": 0}
                tally = self.tallies.setdefault(suite, zero)
                tally["total"] += 1
                if outcome in tally:
                    tally[outcome] += 1

    def pytest_terminal_summary(self, terminalreporter) -> None:
        """Print the conformance figures of the W3C suites when they ran."""
        if self.tallies:
            terminalreporter.section("conformance")
            for suite, tally in sorted(self.tallies.items()):
                terminalreporter.write_line(
                    f"{suite}: {tally['passed']} passed, "
                    f"{tally['expected failures']} expected failures, of {tally['total']}"
                )


#: Modules whose tests share a session fixture or a per-process cache, each with the module
#: it runs beside under ``-n`` (``--dist loadscope``): both in one worker, so the shared
#: work is done once, not once a worker. Virtuoso (stores.virtuoso): test_server,
#: test_pushdown, test_reproducibility_loop, test_query_subclasses, test_query_one_row,
#: test_rule6_virtuoso, test_rule5_virtuoso. The
#: reference engine's results of the fixtures (reference_results): test_engines,
#: test_rules. The browser (``browser``, kept from one module to the next that uses it):
#: test_site, test_site_reading.
BESIDE = {
    "tests/test_pushdown.py": "tests/test_server.py",
    "tests/test_reproducibility_loop.py": "tests/test_server.py",
    "tests/test_query_subclasses.py": "tests/test_server.py",
    "tests/test_query_one_row.py": "tests/test_server.py",
    "tests/test_rule6_virtuoso.py": "tests/test_server.py",
    "tests/test_rule5_virtuoso.py": "tests/test_server.py",
    "tests/test_rules.py": "tests/test_engines.py",
    "tests/test_site_reading.py": "tests/test_site.py",
}


#: Modules run first, while the test process holds the fewest objects:
#: test_site_build_collector thaws what ``_CollectorPerModule`` froze, and each full pass
#: of its collector walks it (at the end of a whole run, a million objects).
FIRST = ("tests/test_site_build_collector.py",)


def pytest_collection_modifyitems(session, config, items):
    """Each module of ``BESIDE`` runs right after its partner in a process that runs both
    (as ``_SharedScopes`` puts them in one worker under ``-n``): in one process,
    test_site_reading came 15 modules after test_site, and the browser was launched for
    each (~1 s of CPU). The modules of ``FIRST`` come first. The order is otherwise the
    collection's."""
    first_seen: dict[str, int] = {}
    for item in items:
        first_seen.setdefault(item.nodeid.split("::", 1)[0], len(first_seen))

    def place(numbered: tuple[int, object]) -> tuple[int, int, int]:
        index, item = numbered
        module = item.nodeid.split("::", 1)[0]  # type: ignore[attr-defined]
        if module in FIRST:
            return -1, 0, index
        partner = BESIDE.get(module)
        if partner in first_seen:
            return first_seen[partner], 1, index
        return first_seen[module], 0, index

    items[:] = [item for _, item in sorted(enumerate(items), key=place)]


class _SharedScopes:
    """``--dist loadscope`` with the modules of ``BESIDE`` joined to their partner's scope."""

    def pytest_xdist_make_scheduler(self, config, log):
        from xdist.scheduler import LoadScopeScheduling

        if config.getvalue("dist") != "loadscope":
            return None

        class Scheduling(LoadScopeScheduling):
            def _split_scope(self, nodeid: str) -> str:
                module = nodeid.split("::", 1)[0]
                if module in BESIDE or module in BESIDE.values():
                    return BESIDE.get(module, module)
                return super()._split_scope(nodeid)

        return Scheduling(config, log)


def _compiled_for_child_processes() -> None:
    """Compile the package to bytecode once (its ``__pycache__``, ignored by git), as pip
    does when it installs the wheel. Where PYTHONDONTWRITEBYTECODE is set (this
    machine's setting), each ``python -m anthology_kg`` the tests start (about 64) would
    otherwise compile every module it imports anew: test_hardening and test_sigterm
    13.2-14.7 -> 11.2-11.7 s of CPU (cgroup, their processes included).

    Checked against the source's hash, not its time stamp: a file edited within the
    second it was compiled, to the same size, would otherwise be imported as it was
    (in the test processes too). Forced, since compileall takes a time-stamped file of
    that second as up to date; 0.15 s a run."""
    import compileall
    import py_compile

    import anthology_kg

    compileall.compile_dir(
        Path(anthology_kg.__file__).parent,
        quiet=1,
        force=True,
        invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH,
    )


@pytest.hookimpl(wrapper=True)
def pytest_collection(session):
    """Collect with bytecode writing on, so that pytest keeps each test module as its
    assertion rewriter made it (``tests/__pycache__``, ignored by git) and a later run,
    or the other worker, reads it back instead of rewriting it again: ~1.7 s of CPU a
    collecting process where PYTHONDONTWRITEBYTECODE is set (this machine's setting),
    which turns the writing off, not the reading. pytest keys the file on the source's
    hash. Only while collecting: a test's own imports write no bytecode."""
    writes_none = sys.dont_write_bytecode
    sys.dont_write_bytecode = False
    try:
        return (yield)
    finally:
        sys.dont_write_bytecode = writes_none


#: The collector's thresholds as the interpreter started (``_CollectorPerModule`` changes them).
NEW_PROCESS_THRESHOLDS = gc.get_threshold()


class _CollectorPerModule:
    """The cyclic garbage collector of a test process walks what the running test
    made, not the whole process, and each object at most once while it lives: no
    automatic pass (the youngest generation's threshold 0: the collector stays enabled
    for the code that asks ``gc.isenabled``), one pass of the young generations after
    each test's teardown (its garbage cycles, and what it left alive, moved to the
    oldest generation), and once the tests are collected and after each module one
    full pass, then what is left alive is frozen (``gc.freeze``: imports, caches, the
    session's fixtures). Automatic passes (every 10,000 allocations, as this was
    before) walked the objects a test builds while it builds them, a graph each time
    it had grown by 10,000 objects, and again a generation up: in test_engines,
    test_inference, test_reference_answers_alike, test_queries, test_records,
    test_w3c_shacl and test_rules, GC time (gc.callbacks, thread CPU) 3.2-3.9 ->
    1.8-2.7 s and peak RSS 260 -> 230 MB. (With 700 allocations and no freezing, the
    full passes walked the process's million objects ~70 times a run.) What a
    finalizer raises in a test's pass pytest reports with the next test's setup. The
    tests of the collector itself put a new process's thresholds back, unfreeze, and
    restore it (test_site_build_collector)."""

    def pytest_collection_finish(self, session):
        gc.set_threshold(0, *gc.get_threshold()[1:])
        self._freeze()

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_protocol(self, item, nextitem):
        try:
            return (yield)
        finally:
            # A module's fixtures end with its last test's teardown, within this call.
            if nextitem is None or getattr(nextitem, "path", None) != getattr(item, "path", None):
                self._freeze()
            else:
                gc.collect(1)

    @staticmethod
    def _freeze() -> None:
        gc.collect()
        gc.freeze()


def pytest_configure(config):
    config.pluginmanager.register(_ConformanceTally(), "conformance-tally")
    config.pluginmanager.register(_CollectorPerModule(), "collector-per-module")
    if config.pluginmanager.hasplugin("xdist"):
        config.pluginmanager.register(_SharedScopes(), "shared-scopes")
    if sys.flags.dont_write_bytecode and not hasattr(config, "workerinput"):
        _compiled_for_child_processes()  # once, before any worker starts


@pytest.fixture
def ctrl_c_raises():
    """SIGINT raises KeyboardInterrupt here, as at a terminal, whatever pytest's start left
    (started as a background job of a non-interactive shell, pytest has SIGINT ignored)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)
