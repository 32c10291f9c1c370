"""The package imports cleanly: no import cycle (lazy imports included), each module
imports alone, and importing it leaves rdflib's global settings as they were."""

from __future__ import annotations

import ast
import functools
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "anthology_kg"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _type_checking_only(node: ast.If) -> bool:
    return isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"


def imports_of(name: str, path: Path) -> set[str]:
    """The package's modules that ``name`` imports at run time, at the top or inside a
    function (``if TYPE_CHECKING:`` blocks are for the type checker only)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    todo: list[ast.AST] = [ast.parse(path.read_text(encoding="utf-8"))]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.If) and _type_checking_only(node):
            todo.extend(node.orelse)
            continue
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package
            for _ in range(node.level - 1):
                base = base.rpartition(".")[0]
            target = f"{base}.{node.module}" if node.level and node.module else node.module or base
            found.add(target)
            found.update(f"{target}.{a.name}" for a in node.names)
        todo.extend(ast.iter_child_nodes(node))
    # A module's parent packages are imported before it anyway: not an edge.
    return {m for m in found if m in MODULES and m != name and not name.startswith(m + ".")}


def test_no_import_cycle_even_through_lazy_imports():
    graph = {name: imports_of(name, path) for name, path in MODULES.items()}
    cycles = []

    def visit(name: str, stack: list[str], done: set[str]) -> None:
        for target in sorted(graph[name]):
            if target in stack:
                cycles.append(stack[stack.index(target) :] + [target])
            elif target not in done:
                visit(target, stack + [target], done)
        done.add(name)

    done: set[str] = set()
    for name in sorted(graph):
        if name not in done:
            visit(name, [name], done)
    assert not cycles, "import cycles: " + "; ".join(" -> ".join(c) for c in cycles)


def test_the_import_graph_sees_lazy_imports(tmp_path):
    """The cycle check reads imports inside functions, and skips TYPE_CHECKING blocks
    (a check that did neither would pass or fail whatever the code did)."""
    probe = tmp_path / "probe.py"
    probe.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from .engine import Engine\n"
        "def later():\n    from .fast import load_fast\n    from . import stats\n",
        encoding="utf-8",
    )
    found = imports_of("anthology_kg.probe", probe)
    assert found == {"anthology_kg.fast", "anthology_kg.stats"}


#: In the child: each module's code object made once (read and unmarshalled from its
#: bytecode cache, or compiled where PYTHONDONTWRITEBYTECODE left none) and kept for the
#: next import, as is the code of the methods dataclasses writes out and compiles for
#: each class it makes (the same text for the same fields): ~85 rounds of ~25 imports
#: each read and unmarshalled, or compiled, the package anew (3.3 -> 1.5 s of CPU
#: compiling, then ~0.5 of the remaining ~0.95 s). The module's code, and dataclasses'
#: making of each class, still run afresh at each import, which is what the test checks.
COMPILE_ONCE = """\
import dataclasses, os
from importlib.machinery import SourceFileLoader
codes = {}
get_code = SourceFileLoader.get_code
def get_code_once(self, fullname):
    stat = os.stat(self.path)
    key = (self.path, stat.st_mtime_ns, stat.st_size)
    if key not in codes:
        codes[key] = get_code(self, fullname)
    return codes[key]
SourceFileLoader.get_code = get_code_once
texts = {}
def exec_compiled_once(text, globals=None, locals=None):
    if isinstance(text, str):
        if text not in texts:
            texts[text] = compile(text, "<string>", "exec")
        text = texts[text]
    exec(text, globals, locals)
dataclasses.exec = exec_compiled_once
"""


def test_each_module_imports_alone_and_rdflib_is_left_as_it_was():
    script = (
        COMPILE_ONCE + "import importlib, sys, rdflib\n"
        "before = rdflib.NORMALIZE_LITERALS\n"
        f"for name in {sorted(set(MODULES) - {'anthology_kg.__main__'})!r}:\n"
        "    for loaded in [m for m in sys.modules if m.startswith('anthology_kg')]:\n"
        "        del sys.modules[loaded]\n"
        "    importlib.import_module(name)\n"
        "    assert rdflib.NORMALIZE_LITERALS == before, name\n"
        "print('ok')\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ok")


def test_literals_as_written_restores_the_setting_even_on_error():
    import rdflib

    from anthology_kg.literals import literals_as_written

    before = rdflib.NORMALIZE_LITERALS
    try:
        with literals_as_written():
            assert rdflib.NORMALIZE_LITERALS is False
            raise ValueError("boom")
    except ValueError:
        pass
    assert rdflib.NORMALIZE_LITERALS == before


# What the fast path must not load: pySHACL and owlrl (the reference engine's), rdflib's
# SPARQL engine (its parser alone takes ~0.1 s to import), Jinja2 (the site's), httpx
# (the remote engine's). Nor does `check` load rdflib at all (the rules are parsed by
# pyoxigraph, results carry its terms): test_check_and_validate_json_load_no_rdflib.
REFERENCE_ONLY = ("pyshacl", "owlrl", "rdflib.plugins.sparql", "jinja2", "httpx")


#: Stands in for a fresh interpreter per command line: it does what a fresh
#: ``anthology-kg`` does before it reads its arguments (the interpreter starts, then
#: imports the command line), then forks a child for each command line it reads on its
#: standard input (arguments apart by NUL), which runs it and writes the modules it then
#: holds to ``FOLDER/result`` (its output to ``FOLDER/out`` and ``FOLDER/err``). Nothing
#: else runs in the parent, so a child holds what a fresh interpreter would after the
#: same command; each saves the start and the import, ~40 ms of CPU (16 command lines).
FORK_SERVER = """\
import os, sys
from anthology_kg.cli import main
folder = sys.argv[1]
for line in sys.stdin:
    child = os.fork()
    if child == 0:
        os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
        for fd, name in ((1, "out"), (2, "err")):
            path = os.path.join(folder, name)
            os.dup2(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC), fd)
        sys.argv = ["anthology-kg", *line.rstrip("\\n").split("\\0")]
        code = 0
        try:
            main()
        except SystemExit as exc:
            code = exc.code
        except BaseException:
            import traceback
            traceback.print_exc()
            code = "an exception"
        loaded = sorted(sys.modules)
        import json
        with open(os.path.join(folder, "result"), "w") as result:
            json.dump([loaded, str(code)], result)
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)
    os.waitpid(child, 0)
    print(flush=True)
"""


class _ForkServer:
    """The module's ``FORK_SERVER`` process, started on first use."""

    def __init__(self) -> None:
        self.process: subprocess.Popen | None = None
        self.folder: Path | None = None

    def run(self, args: tuple[str, ...]) -> tuple[frozenset[str], str]:
        if self.process is None:
            self.folder = Path(tempfile.mkdtemp(prefix="fork-server-"))
            self.process = subprocess.Popen(
                [sys.executable, "-c", FORK_SERVER, str(self.folder)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )
        assert self.process.stdin and self.process.stdout and self.folder
        assert all("\0" not in arg and "\n" not in arg for arg in args)
        (self.folder / "result").unlink(missing_ok=True)
        self.process.stdin.write("\0".join(args) + "\n")
        self.process.stdin.flush()
        assert self.process.stdout.readline() == "\n", "the fork server stopped"
        loaded, code = json.loads((self.folder / "result").read_text(encoding="utf-8"))
        return frozenset(loaded), f"{code}\n{(self.folder / 'err').read_text(errors='replace')}"

    def stop(self) -> None:
        if self.process is not None:
            assert self.process.stdin
            self.process.stdin.close()
            self.process.wait(timeout=30)
            self.process = None
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None


_FORK_SERVER = _ForkServer()


@pytest.fixture(scope="module", autouse=True)
def _fork_server_stopped():
    """The fork server stopped after the module's tests."""
    yield
    _FORK_SERVER.stop()


def _fresh_run(args: tuple[str, ...]) -> tuple[frozenset[str], str]:
    """Every module a fresh interpreter holds after running the command line ``args``
    (in process, so that ``sys.modules`` can be read afterwards: ``FORK_SERVER``), and
    its exit code, the child's standard error after it for a failure's message."""
    return _FORK_SERVER.run(args)


_run_once = functools.cache(_fresh_run)


def _modules_after(args: tuple[str, ...]) -> tuple[frozenset[str], str]:
    """``_fresh_run(args)``; a command line on the repository's anthology (no ``--root``:
    no test writes to it) is run once for the module's tests, which probe some of them
    for different modules (``--quiet stats`` three times, ``check --engine reference``
    twice, ``check`` twice)."""
    return (_fresh_run if "--root" in args else _run_once)(args)


def _loaded_after(args: list[str], heavy: tuple[str, ...]) -> list[str]:
    """The modules of ``heavy`` a fresh interpreter holds after running the command line
    with ``args``."""
    loaded, code = _modules_after(tuple(args))
    assert code.split("\n", 1)[0] in ("0", "None"), code
    return [m for m in heavy if m in loaded]


def test_importing_the_command_line_loads_no_rdf_library():
    heavy = ("rdflib", "pyoxigraph", *REFERENCE_ONLY)
    assert _loaded_after(["--version"], heavy) == []
    assert _loaded_after(["--help"], heavy) == []
    # A command's help runs the group's callback, which checks --base (sources.py).
    assert _loaded_after(["check", "--help"], REFERENCE_ONLY) == []


def test_check_on_the_fast_engine_loads_no_reference_engine_module():
    assert _loaded_after(["check"], REFERENCE_ONLY) == []
    assert _loaded_after(["--quiet", "stats"], REFERENCE_ONLY) == []


def test_a_local_query_on_the_fast_engine_loads_no_reference_engine_module(tmp_path):
    """``query`` and ``sparql`` make a store's connection (httpx) only with --endpoint:
    on the local anthology neither loads httpx (~25 ms of each start) nor the reference
    engine's modules. A query with --endpoint does, where the probe sees httpx loaded
    (each command line run as by a fresh interpreter: ``_fresh_run``)."""
    query = tmp_path / "one.rq"
    query.write_text("SELECT * WHERE { ?s ?p ?o } LIMIT 1\n", encoding="utf-8")
    assert _loaded_after(["query", "unread"], REFERENCE_ONLY) == []
    assert _loaded_after(["sparql", str(query)], REFERENCE_ONLY) == []
    loaded, code = _modules_after(("query", "unread", "--endpoint", "http://127.0.0.1:9/q"))
    assert code.startswith("2\n") and "cannot connect" in code, code
    assert "httpx" in loaded


def test_stats_loads_neither_the_shacl_compiler_nor_the_inference_rules():
    validation_only = ("anthology_kg.shacl", "anthology_kg.inference")
    assert _loaded_after(["--quiet", "stats"], validation_only) == []
    # The probe sees them where they are used.
    assert _loaded_after(["--quiet", "check"], validation_only) == ["anthology_kg.shacl"]


def test_stats_loads_no_rdflib():
    """The Oxigraph engine loads and counts with pyoxigraph alone: ``stats`` holds no
    rdflib module at all (its import alone is ~55 ms and ~19 MiB), nor the rules'
    modules, which parse the ontology and shapes into rdflib graphs."""
    rdf_library = (
        "rdflib",
        "anthology_kg.loader",
        "anthology_kg.terms",
        "anthology_kg.queries",
        "anthology_kg.query_result",
        "anthology_kg.rdflib_sparql",
        "anthology_kg.export_inference",
    )
    assert _loaded_after(["--quiet", "stats"], rdf_library) == []
    assert _loaded_after(["--quiet", "stats", "--format", "json"], rdf_library) == []
    # The probe sees rdflib where it is loaded (the reference engine's loader).
    assert "rdflib" in _loaded_after(["check", "--engine", "reference"], rdf_library)


def test_the_reference_engine_does_load_pyshacl():
    """The probe above sees imports (a probe that never saw one would always pass)."""
    assert _loaded_after(["check", "--engine", "reference"], REFERENCE_ONLY)[:1] == ["pyshacl"]


def test_the_command_lines_choices_are_the_writers_tables():
    """choices.py names what the writers' tables hold, for the options built without them."""
    from anthology_kg import authoring, choices, diffreport, export_writers, reports, w3c_report

    assert choices.REPORT_FORMATS == tuple(reports.WRITERS)
    assert choices.SHACL_REPORT_FORMATS == tuple(w3c_report.WRITERS)
    assert choices.EXPORT_FORMATS == tuple(export_writers.WRITERS)
    assert choices.DIFF_FORMATS == tuple(diffreport.WRITERS)
    assert choices.QUERY_DIFF_FORMATS == tuple(diffreport.QUERY_WRITERS)
    assert choices.ENTRY_KINDS == tuple(authoring.KINDS)


def test_the_fast_engines_lookups_on_pyoxigraph_terms_load_no_rdflib():
    """Entries, owners and source locations of the Oxigraph engine answer pyoxigraph
    terms without rdflib: what a caller holding the store's terms (validation rows, the
    diff) needs from the load layer."""
    script = (
        "import sys\n"
        "import pyoxigraph as ox\n"
        "from anthology_kg.engine import open_engine\n"
        "engine = open_engine()\n"
        "entry = ox.NamedNode(engine.base + 'ARXIV-2409.19256')\n"
        "query = 'SELECT ?t { %s <https://w3id.org/anthology-kg/ns#takeaway> ?t } LIMIT 1'\n"
        "((takeaway,),) = engine.select(query % entry, parts=('data',))\n"
        "assert isinstance(takeaway, ox.BlankNode)\n"
        "assert engine.identifier(entry) == 'ARXIV-2409.19256'\n"
        "assert engine.owner(takeaway) == entry, engine.owner(takeaway)\n"
        "assert entry in engine.referrers(takeaway)\n"
        "where = engine.location(takeaway)\n"
        "assert where.path.name == 'ARXIV-2409.19256.ttl' and where.line > 1, where\n"
        "assert engine.location(ox.Literal('x')) is None\n"
        "print(sorted(m for m in sys.modules if m == 'rdflib' or m.startswith('rdflib.')))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def _rdflib_modules_after(args: list[str]) -> tuple[list[str], str]:
    """The ``rdflib*`` modules a fresh interpreter holds after running the command line
    ``args``, and its exit code."""
    loaded, code = _modules_after(tuple(args))
    return sorted(m for m in loaded if m.startswith("rdflib")), code.split("\n", 1)[0]


def test_check_and_validate_json_load_no_rdflib(tmp_path):
    """The Oxigraph engine validates with pyoxigraph alone: ontology, shapes and waivers
    parsed by pyoxigraph, the compiler, rule catalogue, waivers and rows on its terms.
    On the bundled anthology and on a generated one with planted violations (results
    located, values named), ``check`` and ``validate --format json`` load no rdflib, nor
    does ``validate --format turtle``: the W3C report graph is written from the rows'
    pyoxigraph terms and the shapes' (``w3c_report.report_lines``)."""
    from anthology_kg.generate import generate

    generated = tmp_path / "generated"
    generate(200, 5, generated, violations=10)  # in process: only the probes need a fresh one
    for root in ([], ["--root", str(generated)]):
        for command in (
            ["check"],
            ["validate", "--format", "json"],
            ["validate", "--format", "turtle"],
        ):
            loaded, code = _rdflib_modules_after([*root, *command])
            assert loaded == [], (root, command, loaded)
            assert code in ("0", "1", "None"), (root, command, code)
    # The probe sees rdflib where a command does load it (render's graph of the entry).
    entry = min(generated.glob("data/*.ttl")).stem
    loaded, _ = _rdflib_modules_after(["--root", str(generated), "render", entry])
    assert "rdflib" in loaded


def test_fmt_loads_no_rdflib(bundled_copy):
    """``fmt`` reads, writes and checks with pyoxigraph alone (the writer works on the
    quads' N-Triples text, comments keyed by IRI text): on the bundled anthology, and on
    a copy with a file unformatted (a comment, a byte order mark, a tag with capitals),
    whether it checks (exit 1) or rewrites (exit 0, then clean)."""
    assert _rdflib_modules_after(["fmt", "--check"]) == ([], "0")
    path = bundled_copy / "data" / "LIT-168.ttl"
    text = path.read_text(encoding="utf-8").replace("    ", "  ")
    note = '\nid:LIT-168 <http://www.w3.org/2000/01/rdf-schema#comment> "A note"@en-GB .\n'
    path.write_bytes(b"\xef\xbb\xbf# kept\n" + (text + note).encode("utf-8"))
    root = ["--root", str(bundled_copy)]
    assert _rdflib_modules_after([*root, "fmt", "--check"]) == ([], "1")
    assert _rdflib_modules_after([*root, "fmt", "--diff"]) == ([], "1")
    assert _rdflib_modules_after([*root, "fmt"]) == ([], "0")
    assert '"A note"@en-GB' in path.read_text(encoding="utf-8-sig")
    assert _rdflib_modules_after([*root, "fmt", "--check"]) == ([], "0")


def test_the_end_of_a_run_imports_nothing_for_a_worker_it_never_started():
    """run() asks guards whether a worker was given up on only where guards was imported:
    importing it at every exit cost --help and a usage error ~12 ms (14 modules)."""
    script = (
        "import sys\nfrom anthology_kg.cli import run\n"
        "sys.argv = ['anthology-kg', '--help']\n"
        "try:\n    run()\nexcept SystemExit:\n    pass\n"
        "print('anthology_kg.guards' in sys.modules, 'pyoxigraph' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.stdout.splitlines()[-1] == "False False", done.stderr
