"""Hardening (issue 15): every bad input a clear exit 2, no edit lost, nothing half-written.

Each case runs the real CLI; where both engines read the input, on both.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import cli_process, run_cli
from forked_cli import ForkedProcess, ForkServer, cpu_outside_the_main_thread
from stores import free_port, serve_process

from anthology_kg.formatting import format_anthology, write_formatted

PREFIXES = (
    "@prefix ak: <https://w3id.org/anthology-kg/ns#> .\n"
    "@prefix dcterms: <http://purl.org/dc/terms/> .\n"
    "@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n"
)


def anthology(tmp_path: Path, files: dict[str, str]) -> Path:
    """A fixture anthology whose data/ holds ``files`` (name to Turtle text)."""
    root = tmp_path / "a"
    (root / "data").mkdir(parents=True)
    for name, text in files.items():
        (root / "data" / name).write_text(text, encoding="utf-8")
    return root


# ---- fmt: no edit lost, no literal changed ------------------------------------------------

LITERALS = PREFIXES + (
    "# kept\n"
    '<X-1> dcterms:identifier "X-1" ; ak:n 007 ; ak:t "  x  "^^xsd:token ;\n'
    '  ak:d "1.50"^^xsd:decimal ; ak:b "1"^^xsd:boolean ; ak:s "  y  "^^xsd:normalizedString .\n'
)


def test_fmt_keeps_every_literal_lexical_form(tmp_path):
    root = anthology(tmp_path, {"X-1.ttl": LITERALS})
    result = run_cli("--root", str(root), "fmt")
    assert result.exit_code == 0, result.stderr
    text = (root / "data" / "X-1.ttl").read_text(encoding="utf-8")
    for written in ("ak:n 007", '"  x  "^^xsd:token', "1.50", '"1"^^xsd:boolean', '"  y  "'):
        assert written in text
    assert "# kept\nid:X-1" in text
    assert run_cli("--root", str(root), "fmt", "--check").exit_code == 0


def test_an_edit_saved_while_fmt_runs_survives(tmp_path):
    messy = PREFIXES + '<A-1> dcterms:identifier "A-1" ; ak:n 1 .\n'
    root = anthology(tmp_path, {"A-1.ttl": messy, "B-1.ttl": messy.replace("A-1", "B-1")})
    run = format_anthology(root, write=False)  # formatted, not yet written
    edited = messy.replace("A-1", "B-1") + "# my edit\n"
    (root / "data" / "B-1.ttl").write_text(edited, encoding="utf-8")
    assert write_formatted(run.files) == [root / "data" / "B-1.ttl"]
    assert (root / "data" / "B-1.ttl").read_text(encoding="utf-8") == edited
    assert (root / "data" / "A-1.ttl").read_text(encoding="utf-8").startswith("@prefix ak:")
    assert "id:A-1 dcterms:identifier" in (root / "data" / "A-1.ttl").read_text(encoding="utf-8")


def test_fmt_reports_a_file_changed_while_formatting_with_exit_1(tmp_path, monkeypatch):
    """The CLI path: another program saves A-1.ttl just after fmt has formatted it (the
    edit is made at that moment by wrapping the real format_file)."""
    from anthology_kg import formatting

    messy = PREFIXES + '<A-1> dcterms:identifier "A-1" ; ak:n 1 .\n'
    root = anthology(tmp_path, {"A-1.ttl": messy, "B-1.ttl": messy.replace("A-1", "B-1")})
    real = formatting.format_file

    def format_then_edit(path, base):
        done = real(path, base)
        if path.name == "A-1.ttl":
            path.write_text(messy + "# saved meanwhile\n", encoding="utf-8")
        return done

    monkeypatch.setattr(formatting, "format_file", format_then_edit)
    result = run_cli("--root", str(root), "fmt")
    assert result.exit_code == 1
    assert "changed while formatting: " in result.stderr and "A-1.ttl" in result.stderr
    assert (root / "data" / "A-1.ttl").read_text(encoding="utf-8").endswith("# saved meanwhile\n")
    assert "reformatted" in result.stdout and "B-1.ttl" in result.stdout


def test_fmt_refusal_names_the_triple_and_its_line(tmp_path, monkeypatch):
    """The safety net: should the writer ever lose a triple (here a writer that drops
    everything stands in for such a bug), fmt names the triple and its subject's line."""
    from anthology_kg import formatting

    root = anthology(tmp_path, {"A-1.ttl": PREFIXES + '\n<A-1> dcterms:identifier "A-1" .\n'})
    monkeypatch.setattr(formatting, "turtle_sections", lambda *a, **k: "")
    result = run_cli("--root", str(root), "fmt")
    assert result.exit_code == 2
    assert "A-1.ttl:5: formatting would change the triple" in result.stderr
    assert "<https://w3id.org/anthology-kg/id/A-1>" in result.stderr


@pytest.mark.parametrize(
    "text, where",
    [
        (PREFIXES + "<X 1> ak:p 1 .\n", "X-1.ttl:4"),
        (PREFIXES + '<X-1> ak:p "\\uD800" .\n', "X-1.ttl:4"),
    ],
)
def test_fmt_refuses_what_the_strict_parser_refuses(tmp_path, text, where):
    root = anthology(tmp_path, {"X-1.ttl": text})
    result = run_cli("--root", str(root), "fmt")
    assert result.exit_code == 2 and where in result.stderr
    assert "Traceback" not in result.stderr
    assert (root / "data" / "X-1.ttl").read_text(encoding="utf-8") == text


# ---- generate: any count of violations, canonical files, nothing left on failure ---------


def test_generate_plants_one_violation_per_entry_and_writes_canonical_files(tmp_path):
    import json

    from anthology_kg.fast import load_fast
    from anthology_kg.validation import validate

    out = tmp_path / "g"
    result = run_cli("generate", "--entries", "60", "--violations", "60", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    assert sorted(p.name for p in out.iterdir()) == ["data", "expected-violations.json"]
    expected = json.loads((out / "expected-violations.json").read_text("utf-8"))
    assert len(expected) == 60
    report = validate(load_fast(out))
    got = sorted((r.focus, r.shape) for r in report.counted if r.severity == "Violation")
    assert got == sorted((e["focus"], e["shape"]) for e in expected)
    check = run_cli("--root", str(out), "fmt", "--check")
    assert check.exit_code == 0 and check.stdout.startswith("0 of "), check.stdout
    assert ": warning: " not in check.stderr, check.stderr  # each file named by its entry


@pytest.mark.parametrize(
    "args, message",
    [
        (["--entries", "30", "--violations", "31"], "more than --entries"),
        (["--entries", "10"], "--entries"),
    ],
)
def test_generate_refuses_and_writes_nothing(tmp_path, args, message):
    out = tmp_path / "g"
    result = run_cli("generate", *args, "-o", str(out))
    assert result.exit_code == 2 and message in result.stderr
    assert not out.exists()


def test_generate_into_a_folder_holding_data_writes_nothing(tmp_path):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "mine.ttl").write_text("", encoding="utf-8")
    result = run_cli("generate", "--entries", "20", "-o", str(tmp_path))
    assert result.exit_code == 2 and "already holds data/" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data"]
    assert [p.name for p in (tmp_path / "data").iterdir()] == ["mine.ttl"]


# ---- writing: a read-only or full file system is exit 2 naming the file -----------------


def _mount_tmpfs(folder: Path, options: str) -> None:
    import subprocess

    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("needs root to mount a tiny tmpfs (read-only or full file system)")
    folder.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(folder)])
    if done.returncode != 0:
        pytest.skip("cannot mount a tmpfs here (a container without CAP_SYS_ADMIN?)")


@pytest.fixture(params=["read-only", "full"])
def unwritable(request, tmp_path):
    """A folder on a read-only tmpfs, or on a 4 KiB tmpfs already full."""
    import subprocess

    folder = tmp_path / request.param
    if request.param == "read-only":
        _mount_tmpfs(folder, "ro,size=64k")
    else:
        _mount_tmpfs(folder, "size=4k")
        with contextlib.suppress(OSError), (folder / "filler").open("wb") as handle:
            handle.write(b"x" * 65536)
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)])


@pytest.mark.parametrize(
    "command",
    [
        ["export", "-o"],
        ["validate", "-o"],
        ["render", "ARXIV-2409.19256", "-o"],
        ["import", "RECORD", "-o"],
        ["site", "-o"],
    ],
    ids=["export", "validate", "render", "import", "site"],
)
def test_output_onto_an_unwritable_file_system_is_exit_2(unwritable, command, bundled_copy):
    target = unwritable / ("site" if command[0] == "site" else "out.txt")
    if command[0] == "import":
        record = bundled_copy / "record.txt"
        record.write_text(run_cli("render", "ARXIV-2409.19256").stdout, encoding="utf-8")
        command = ["import", str(record), "-o"]
    result = run_cli(*command, str(target))
    assert result.exit_code == 2, (result.stdout, result.stderr)
    assert "cannot write" in result.stderr and "Traceback" not in result.stderr
    assert unwritable.name in result.stderr
    leftovers = [p.name for p in unwritable.rglob("*") if p.name != "filler"]
    assert leftovers == [], leftovers


@contextlib.contextmanager
def tiny_file_system(folder: Path, state: str, files: dict[str, str]):
    """A 64 KiB tmpfs at ``folder`` holding ``files``, then made read-only or filled up.

    Needs root (mount); the test skips, saying so, otherwise. Root also writes through
    file modes, which is why a read-only mount and a full one stand for the cases a
    user meets (a read-only checkout, a full disk), not chmod."""
    import subprocess

    _mount_tmpfs(folder, "size=64k")
    try:
        for name, text in files.items():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            (folder / name).write_text(text, encoding="utf-8")
        if state == "read-only":
            subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True)
        else:
            with contextlib.suppress(OSError), (folder / "filler").open("wb") as handle:
                handle.write(b"x" * 65536)
        yield folder
    finally:
        subprocess.run(["umount", str(folder)])


OLD = "the previous content, which a failed write must leave whole\n"
MESSY = PREFIXES + '<A-1> dcterms:identifier "A-1" ;   ak:n 1 .\n'


@pytest.mark.parametrize("state", ["read-only", "full"])
@pytest.mark.parametrize(
    "writer",
    ["export", "validate", "render", "import", "fmt", "new", "generate", "site"],
)
def test_a_failed_write_leaves_the_old_file_whole_and_no_temporary_file(
    tmp_path, bundled_copy, state, writer
):
    """Every writer on a read-only or full file system: exit 2 naming the place, the file
    it would replace as it was, no temporary file left (write through temp + rename)."""
    record = tmp_path / "RECORD.txt"
    record.write_text(run_cli("render", "ARXIV-2409.19256").stdout, encoding="utf-8")
    files = {"out.txt": OLD}
    if writer in ("fmt", "new"):
        files = {"data/A-1.ttl": MESSY}
    commands = {
        "export": ["export", "-o", "{dir}/out.txt"],
        "validate": ["validate", "-o", "{dir}/out.txt"],
        "render": ["render", "ARXIV-2409.19256", "-o", "{dir}/out.txt"],
        "import": ["import", str(record), "-o", "{dir}/out.txt"],
        "fmt": ["--root", "{dir}", "fmt"],
        "new": ["--root", "{dir}", "new", "note", "NOTE-001", "--title", "X"],
        "generate": ["generate", "--entries", "20", "-o", "{dir}/g"],
        "site": ["site", "-o", "{dir}/site"],
    }
    with tiny_file_system(tmp_path / state, state, files) as folder:
        before = {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()}
        result = run_cli(*[a.format(dir=folder) for a in commands[writer]])
        assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr)
        assert "Traceback" not in result.stderr and result.stderr.count("\n") == 1
        assert "cannot write" in result.stderr and state in result.stderr, result.stderr
        after = {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()}
        assert after == before  # nothing replaced, nothing half-written, nothing left


# ---- serve: a port in use, and a killed server leaves nothing running --------------------

OXIGRAPH = shutil.which("oxigraph") or (
    str(Path(sys.executable).parent / "oxigraph")
    if (Path(sys.executable).parent / "oxigraph").exists()
    else None
)
needs_oxigraph = pytest.mark.skipif(OXIGRAPH is None, reason="the oxigraph server is not installed")


@needs_oxigraph
def test_serve_on_a_port_in_use_is_exit_2_without_started_line():
    import socket
    import subprocess

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "anthology_kg", "serve", "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == f"anthology-kg: cannot listen on 127.0.0.1:{port}: the port is in use\n"


@needs_oxigraph
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc (Linux)")
def test_kill_9_of_serve_leaves_no_server_and_the_next_start_removes_its_store(tmp_path):
    import signal

    def start(port: int) -> subprocess.Popen:
        process = serve_process("serve", port=port, env={**os.environ, "TMPDIR": str(tmp_path)})
        assert process.stdout is not None
        assert process.stdout.readline().startswith("SPARQL endpoint: ")
        assert process.stdout.readline().startswith("try: curl")
        return process

    port = free_port()
    first = start(port)
    children = Path(f"/proc/{first.pid}/task/{first.pid}/children").read_text().split()
    assert len(children) == 1
    stores = list(tmp_path.glob("anthology-kg-store-*"))
    assert len(stores) == 1
    os.kill(first.pid, signal.SIGKILL)
    first.wait()
    deadline = time.monotonic() + 10
    while Path(f"/proc/{children[0]}").exists() and time.monotonic() < deadline:
        time.sleep(0.1)  # the kernel kills the child; init reaps it
    assert not Path(f"/proc/{children[0]}").exists() or (
        Path(f"/proc/{children[0]}/stat").read_text().split()[2] == "Z"
    )
    assert stores[0].exists()  # left behind by SIGKILL ...
    second = start(port)
    try:
        assert not stores[0].exists()  # ... and removed by the next start
    finally:
        second.send_signal(signal.SIGINT)
        assert second.wait(timeout=30) == 0
    assert list(tmp_path.glob("anthology-kg-store-*")) == []


# ---- bad inputs: a table over tests/fixtures/bad/, on both engines -----------------------

BAD = Path(__file__).parent / "fixtures" / "bad"
ENGINES = ("fast", "reference")


def bad_data_cases() -> list[Path]:
    return sorted((BAD / "data").glob("*.ttl"))


def expectation(path: Path) -> tuple[int, int, str]:
    """A fixture's first line: ``# expect CODE line N: MESSAGE PART``."""
    head = path.read_bytes().split(b"\n", 1)[0].decode("utf-8")
    words = head.split(" ", 5)
    assert words[:2] == ["#", "expect"] and words[3] == "line", head
    return int(words[2]), int(words[4].rstrip(":")), words[5]


def assert_input_error(result, where: str, message: str = "") -> None:
    """Exit 2, one line on stderr naming the place, no traceback, nothing on stdout."""
    assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    assert result.stderr.count("\n") == 1, result.stderr
    assert where in result.stderr and message in result.stderr, result.stderr


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("case", bad_data_cases(), ids=lambda p: p.stem)
def test_bad_turtle_is_exit_2_at_its_line_on_both_engines(tmp_path, case, engine):
    code, line, message = expectation(case)
    root = anthology(tmp_path, {})
    shutil.copy(case, root / "data" / case.name)
    result = run_cli("--root", str(root), "check", "--engine", engine)
    assert code == 2
    assert_input_error(result, f"{case.name}:{line}: ", message)


@pytest.mark.parametrize("case", bad_data_cases(), ids=lambda p: p.stem)
def test_bad_turtle_gives_the_same_message_to_every_command(tmp_path, case):
    root = anthology(tmp_path, {})
    shutil.copy(case, root / "data" / case.name)
    messages = set()
    for command in (["check"], ["check", "--engine", "reference"], ["fmt"], ["stats"]):
        result = run_cli("--root", str(root), *command)
        assert result.exit_code == 2 and "Traceback" not in result.stderr
        messages.add(result.stderr)
    assert len(messages) == 1, messages


def _special(root: Path, kind: str) -> Path:
    """Put a non-file named ``B-1.ttl`` in data/."""
    path = root / "data" / "B-1.ttl"
    if kind == "folder":
        path.mkdir()
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "symlink loop":
        path.symlink_to("B-1.ttl")
    elif kind == "dangling symlink":
        path.symlink_to("nowhere.ttl")
    elif kind == "unreadable":
        path.write_text(PREFIXES, encoding="utf-8")
        path.chmod(0)
    return path


#: Root reads a file whatever its mode: a root test process runs the command that must
#: meet "permission denied" without the capabilities that allow it (CAP_DAC_OVERRIDE,
#: CAP_DAC_READ_SEARCH), in its inheritable and bounding sets, so that the child gets
#: neither. util-linux's setpriv does that (Debian's util-linux is essential).
DROP_READ_ANYTHING = (
    "setpriv",
    "--inh-caps=-dac_override,-dac_read_search",
    "--bounding-set=-dac_override,-dac_read_search",
)


@dataclass(frozen=True)
class Ran:
    """A finished child's exit code and output, read like CliRunner's result."""

    exit_code: int
    stdout: str
    stderr: str


#: In the child: each command line of argv[1] (JSON) run in process, as ``run_cli`` does.
RUN_EACH = """\
import json, sys
from click.testing import CliRunner
from anthology_kg.cli import main
ran = []
for args in json.loads(sys.argv[1]):
    result = CliRunner().invoke(main, args, catch_exceptions=False)
    ran.append([result.exit_code, result.stdout, result.stderr])
print(json.dumps(ran))
"""


def run_clis_bound_by_modes(*command_lines: list[str]) -> list[Ran]:
    """Each command line run as ``run_cli`` runs it, by root in one child process that
    file modes bind: without the right to read or search whatever the mode
    (``DROP_READ_ANYTHING``). One child for them all: a child's start and imports were
    ~0.1 s of CPU a command line."""
    if shutil.which("setpriv") is None:
        pytest.skip("root reads a file whatever its mode, and setpriv is not installed")
    done = subprocess.run(
        [*DROP_READ_ANYTHING, sys.executable, "-c", RUN_EACH, json.dumps(command_lines)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return [Ran(*ran) for ran in json.loads(done.stdout)]


SPECIALS = {
    "folder": "a folder, not a file",
    "fifo": "not a regular file",
    "symlink loop": "a symlink loop",
    "dangling symlink": "no such file",
    "unreadable": "permission denied",
}


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("kind", sorted(SPECIALS))
def test_a_non_file_named_ttl_in_data_is_exit_2_and_never_hangs(tmp_path, kind, engine):
    if kind == "fifo" and not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs on this platform")
    root = anthology(tmp_path, {"A-1.ttl": PREFIXES + '<A-1> dcterms:identifier "A-1" .\n'})
    _special(root, kind)
    command_lines = [
        ["--root", str(root), *command] for command in (["check", "--engine", engine], ["fmt"])
    ]
    # An unreadable file is read by a child that its mode binds, even as root.
    if kind == "unreadable" and os.geteuid() == 0:
        results = run_clis_bound_by_modes(*command_lines)
    else:
        results = [run_cli(*args) for args in command_lines]
    for result in results:
        assert_input_error(result, "B-1.ttl: cannot read: ", SPECIALS[kind])


def test_a_term_over_pyoxigraphs_16_mib_is_exit_2_on_both_engines(tmp_path):
    """A term a MiB over the parser's limit: at 50 MB, writing the file took the kernel
    0.4-0.6 s of CPU (new page cache) for the same refusal."""
    root = anthology(tmp_path, {})
    body = '<C-1> dcterms:identifier "C-1" ; dcterms:title "' + "x" * (17 << 20) + '" .\n'
    (root / "data" / "C-1.ttl").write_text(PREFIXES + body, encoding="utf-8")
    for engine in ENGINES:
        result = run_cli("--root", str(root), "check", "--engine", engine)
        assert_input_error(result, "C-1.ttl: cannot parse: ", "maximal size")


@pytest.mark.parametrize("base", ["not an iri", "", "relative/", "http://x/ y/"])
def test_an_invalid_base_is_exit_2(base):
    result = run_cli("--base", base, "stats")
    assert_input_error(result, "--base", "is not an absolute IRI")


def test_a_non_utf8_query_is_exit_2_naming_it(tmp_path):
    result = run_cli("sparql", str(BAD / "queries" / "not-utf8.rq"))
    assert_input_error(result, "not-utf8.rq:2: ", "not UTF-8 text")
    root = anthology(tmp_path, {"A-1.ttl": PREFIXES + '<A-1> dcterms:identifier "A-1" .\n'})
    (root / "queries").mkdir()
    shutil.copy(BAD / "queries" / "not-utf8.rq", root / "queries")
    for engine in ENGINES:
        result = run_cli("--root", str(root), "query", "not-utf8", "--engine", engine)
        assert_input_error(result, "not-utf8.rq", "UTF-8")


# ---- queries: no network unless allowed, a time limit, Ctrl-C ---------------------------

SERVICE = "SELECT * WHERE { SERVICE <http://127.0.0.1:9/sparql> { ?s ?p ?o } }\n"
SLOW = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?p ?x . ?b ?q ?y . ?c ?r ?z . ?d ?t ?w }\n"


@pytest.mark.parametrize("engine", ENGINES)
def test_service_in_a_local_query_is_refused_unless_allowed(tmp_path, engine):
    query = tmp_path / "remote.rq"
    query.write_text(SERVICE, encoding="utf-8")
    result = run_cli("sparql", str(query), "--engine", engine)
    assert_input_error(result, "remote.rq: ", "--allow-service")
    root = anthology(tmp_path, {"A-1.ttl": PREFIXES + '<A-1> dcterms:identifier "A-1" .\n'})
    (root / "queries").mkdir()
    (root / "queries" / "remote.rq").write_text("#+ summary: remote\n" + SERVICE, "utf-8")
    result = run_cli("--root", str(root), "query", "remote", "--engine", engine)
    assert_input_error(result, "remote.rq: ", "calls a remote endpoint (SERVICE)")
    silent = tmp_path / "silent.rq"
    silent.write_text(SERVICE.replace("SERVICE", "SERVICE SILENT"), encoding="utf-8")
    allowed = run_cli("sparql", str(silent), "--engine", engine, "--allow-service")
    assert allowed.exit_code == 0, allowed.stderr


@pytest.mark.parametrize(
    "text, calls",
    [
        ("SELECT * WHERE { SERVICE <x:y> { ?s ?p ?o } }", True),
        ("select * where { service silent ?e { ?s ?p ?o } }", True),
        ('SELECT * WHERE { ?s ?p "SERVICE" }', False),
        ("SELECT * WHERE { ?s <http://e/SERVICE> ?service } # SERVICE", False),
        ("PREFIX ex: <http://e/> SELECT * WHERE { ?s ex:SERVICE ?o }", False),
    ],
)
def test_service_is_found_outside_strings_comments_and_iris(text, calls):
    from anthology_kg.guards import uses_service

    assert uses_service(text) is calls


@pytest.mark.parametrize("engine", ENGINES)
def test_a_shape_calling_service_is_refused_by_check_unless_allowed(tmp_path, engine):
    root = anthology(tmp_path, {"A-1.ttl": PREFIXES + '<A-1> dcterms:identifier "A-1" .\n'})
    (root / "ontology" / "shapes").mkdir(parents=True)
    (root / "ontology" / "shapes" / "remote.ttl").write_text(
        "@prefix sh: <http://www.w3.org/ns/shacl#> .\n"
        "<urn:s> a sh:NodeShape ; sh:targetNode <urn:x> ; sh:sparql [ sh:select "
        '"SELECT $this WHERE { SERVICE SILENT <http://127.0.0.1:9/q> { $this ?p ?o } }" ] .\n',
        encoding="utf-8",
    )
    result = run_cli("--root", str(root), "check", "--engine", engine)
    # The fast engine first says it falls back to the reference engine for such a shape.
    assert result.exit_code == 2 and "Traceback" not in result.stderr
    last = result.stderr.splitlines()[-1]
    assert "calls a remote endpoint (SERVICE)" in last and "--allow-service" in last


def _cli(*args: str):
    import subprocess

    return cli_process(*args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


_FORK_SERVER = ForkServer()


@pytest.fixture(scope="module", autouse=True)
def _fork_server_stopped():
    """The module's fork server (``_forked``) stopped after its tests."""
    yield
    _FORK_SERVER.stop()


def _forked(*args: str) -> ForkedProcess:
    """``_cli(*args)`` forked from a process that has imported the package (forked_cli):
    for the tests of a command's time-outs and signals, which a fresh interpreter's
    start and imports (~0.15-0.3 s of CPU) would only add to."""
    return _FORK_SERVER.start(*args)


#: The --timeout of the deadline tests, per engine. The deadline counts the engine's start
#: and load too (they run inside guards.bounded): in the worker, starting the fast engine,
#: loading the bundled anthology and a trivial query or its validation take 0.015-0.04 s
#: (wall), so a quarter of a second is past them and the exit 2 comes from the slow
#: query or shape. The reference engine's take 0.13 s (query) and 0.34 s (validation):
#: its deadlines stay at 0.5 and 0.75 s. A validation test burns the CPU of its deadline.
DEADLINES = {"fast": ("0.25", "0.3"), "reference": ("0.5", "0.75")}


@pytest.mark.parametrize("engine", ENGINES)
def test_a_query_past_its_timeout_is_exit_2_naming_it(tmp_path, engine, silent_store):
    """In a subprocess: the query given up on would otherwise run on in the test process.
    The query waits on a SERVICE that never answers (allowed), so the wait for the
    deadline burns no CPU; a query given up on while it computes inside the engine is
    test_a_time_out_ends_the_process_without_finalizing_under_the_worker's and the
    Ctrl-C test's (SLOW)."""
    waiting = f"SELECT * WHERE {{ SERVICE <{silent_store}/sparql> {{ ?s ?p ?o }} }}\n"
    query = tmp_path / "slow.rq"
    query.write_text(waiting, encoding="utf-8")
    first, second = DEADLINES[engine]
    options = ("--engine", engine, "--allow-service", "--timeout")
    process = _forked("sparql", str(query), *options, first)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 2, err
    assert err == f"anthology-kg: the query in {query}: no answer within {first} s (--timeout)\n"
    root = anthology(tmp_path, {"A-1.ttl": PREFIXES + '<A-1> dcterms:identifier "A-1" .\n'})
    (root / "queries").mkdir()
    (root / "queries" / "slow.rq").write_text("#+ summary: slow\n" + waiting, "utf-8")
    process = _forked("--root", str(root), "query", "slow", *options, second)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 2, err
    assert err == f"anthology-kg: query slow: no answer within {second} s (--timeout)\n"


@pytest.mark.parametrize("command", ["query", "sparql"])
def test_a_query_timeout_counts_the_load_and_the_closure(tmp_path, monkeypatch, command):
    """--timeout of query and sparql bounds the anthology's load and inference, as
    validate's does (hunt8 #11: they ran before the clock started, and a query with
    --inference owlrl --timeout 0.5 answered after 1.7 s, exit 0). The closure is
    slowed to 2 s here: the command gives up at the deadline."""
    from anthology_kg import inference

    materialize = inference.materialize

    def slow(*args, **kwargs):
        time.sleep(2)
        return materialize(*args, **kwargs)

    monkeypatch.setattr(inference, "materialize", slow)
    ask = tmp_path / "ask.rq"
    ask.write_text("ASK {}\n", encoding="utf-8")
    args, what = {
        "query": (["query", "unread"], "query unread"),
        "sparql": (["sparql", str(ask)], f"the query in {ask}"),
    }[command]
    started = time.monotonic()
    result = run_cli(*args, "--inference", "owlrl", "--timeout", "0.5")
    assert time.monotonic() - started < 1.9
    assert result.exit_code == 2, result.output
    assert result.stderr == f"anthology-kg: {what}: no answer within 0.5 s (--timeout)\n"


def test_a_time_out_ends_the_process_without_finalizing_under_the_worker(tmp_path):
    """After a time-out the worker still runs the query, inside pyoxigraph: the process
    ends with os._exit, not through the interpreter's finalization (which once ended in
    SIGSEGV, exit 139, hunt8 #11), so an exit handler does not run; the message is out."""
    query = tmp_path / "slow.rq"
    query.write_text(SLOW, encoding="utf-8")
    script = (
        "import atexit, sys\n"
        "from anthology_kg.cli import run\n"
        "atexit.register(lambda: print('finalized', file=sys.stderr))\n"
        f"sys.argv = ['anthology-kg', 'sparql', {str(query)!r}, '--timeout', '0.25']\n"
        "run()\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 2, done.stderr
    assert (
        done.stderr == f"anthology-kg: the query in {query}: no answer within 0.25 s (--timeout)\n"
    )


@pytest.mark.parametrize("engine", ENGINES)
def test_a_validation_past_its_timeout_is_exit_2_naming_it(bundled_copy, engine):
    """A shape whose SPARQL constraint joins the data with itself four times."""
    (bundled_copy / "ontology" / "shapes").mkdir(parents=True)
    (bundled_copy / "ontology" / "shapes" / "slow.ttl").write_text(
        "@prefix sh: <http://www.w3.org/ns/shacl#> .\n"
        "<urn:slow> a sh:NodeShape ; sh:targetSubjectsOf "
        "<http://purl.org/dc/terms/identifier> ; sh:sparql [ sh:select "
        '"SELECT $this WHERE { $this ?p ?o . ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . '
        'FILTER (STR(?o) = CONCAT(STR(?c), STR(?f), STR(?i), \\"x\\")) }" ] .\n',
        encoding="utf-8",
    )
    deadline = DEADLINES[engine][0]
    for command in ("check", "validate"):
        args = ("--root", str(bundled_copy), command, "--engine", engine, "--timeout", deadline)
        process = _forked(*args)
        out, err = process.communicate(timeout=120)
        assert process.returncode == 2, err
        assert (
            err.splitlines()[-1]
            == f"anthology-kg: validation: no answer within {deadline} s (--timeout)"
        )


@pytest.fixture
def silent_store():
    """A store that takes every connection and never answers (the kernel accepts it)."""
    import socket

    with socket.create_server(("127.0.0.1", 0), backlog=16) as listening:
        yield f"http://127.0.0.1:{listening.getsockname()[1]}"


@pytest.mark.parametrize(
    "command, what",
    [
        (["query", "unread", "--endpoint", "{url}/sparql"], "query unread"),
        (["validate", "--endpoint", "{url}/sparql"], "validation"),
        (["publish", "--endpoint", "{url}/store"], "publishing <{data}>"),
    ],
    ids=["query", "validate", "publish"],
)
def test_a_store_that_never_answers_is_a_timeout_naming_what_and_where(silent_store, command, what):
    from anthology_kg.choices import DATA_GRAPH

    args = [a.format(url=silent_store) for a in command]
    path = "/store" if command[0] == "publish" else "/sparql"
    started = time.monotonic()
    result = (
        run_cli(*args, "--method", "form", "--timeout", "0.3")
        if command[0] != "publish"
        else (run_cli(*args, "--timeout", "0.3"))
    )
    assert_input_error(result, what.format(data=DATA_GRAPH), "")
    said = f"no answer from {silent_store}{path} within 0.3 s (--timeout)"
    assert said in result.stderr, result.stderr
    assert time.monotonic() - started < 15


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc (Linux)")
@pytest.mark.parametrize("engine", ENGINES)
def test_ctrl_c_stops_a_running_query_promptly_with_exit_130(tmp_path, engine):
    import signal

    query = tmp_path / "slow.rq"
    query.write_text(SLOW, encoding="utf-8")
    process = _forked("sparql", str(query), "--engine", engine, "--timeout", "0")
    deadline = time.monotonic() + 90
    # Until the worker is deep in the query: there, loading the anthology and a trivial
    # query take 0.01-0.02 s of CPU on the fast engine, 0.16-0.17 s on the reference
    # engine (read as below at the end of such a run): the marks are ten and more than
    # twice as much. The CPU burnt before the signal is most of what the test costs.
    deep = {"fast": 0.2, "reference": 0.4}[engine]
    while cpu_outside_the_main_thread(process.pid) < deep and time.monotonic() < deadline:
        time.sleep(0.05)
    assert process.poll() is None
    process.send_signal(signal.SIGINT)
    started = time.monotonic()
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130
    assert err == "anthology-kg: interrupted\n"
    print(f"{engine}: exit 130 {time.monotonic() - started:.2f} s after SIGINT")
    assert time.monotonic() - started < 15  # generous: a loaded 2-core machine


# ---- --format xml: well-formed XML 1.0 or a refusal --------------------------------------


@pytest.mark.parametrize("engine", ENGINES)
def test_xml_results_refuse_what_xml_cannot_carry_and_keep_cr(tmp_path, engine):
    from xml.etree import ElementTree as ET

    control = tmp_path / "control.rq"
    control.write_text('SELECT ?v WHERE { VALUES ?v { "a\\u0001b" } }\n', encoding="utf-8")
    result = run_cli("sparql", str(control), "--engine", engine, "--format", "xml")
    assert_input_error(result, "?v holds U+0001", "XML 1.0 cannot carry")
    crlf = tmp_path / "crlf.rq"
    crlf.write_text('SELECT ?v WHERE { VALUES ?v { "a\\r\\nb" } }\n', encoding="utf-8")
    result = run_cli("sparql", str(crlf), "--engine", engine, "--format", "xml")
    assert result.exit_code == 0
    literals = [e.text for e in ET.fromstring(result.stdout_bytes).iter() if "literal" in e.tag]
    assert literals == ["a\r\nb"]


# ---- ill-formed typed literals: violations at file:line on both engines -------------------

ILL_FORMED = PREFIXES + (
    "<LIT-001> a ak:LiteratureRecord ;\n"
    '    dcterms:identifier "LIT-001" ;\n'
    '    dcterms:issued "2024-13-45"^^xsd:date ;\n'
    '    ak:takeaway [ a ak:Takeaway ; ak:position "abc"^^xsd:integer ; '
    '<http://www.w3.org/1999/02/22-rdf-syntax-ns#value> "x" ] .\n'
)
DATATYPE_SHAPES = (
    "@prefix sh: <http://www.w3.org/ns/shacl#> .\n"
    "@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n"
    "@prefix ak: <https://w3id.org/anthology-kg/ns#> .\n"
    "@prefix dcterms: <http://purl.org/dc/terms/> .\n"
    "<urn:shape:position> a sh:NodeShape ; sh:targetSubjectsOf ak:position ;\n"
    "    sh:property [ sh:path ak:position ; sh:datatype xsd:integer ] .\n"
    "<urn:shape:issued> a sh:NodeShape ; sh:targetSubjectsOf dcterms:issued ;\n"
    "    sh:property [ sh:path dcterms:issued ; sh:datatype xsd:date ] .\n"
)


def test_ill_formed_literals_are_violations_at_their_line_on_both_engines(tmp_path):
    root = anthology(tmp_path, {"LIT-001.ttl": ILL_FORMED})
    (root / "ontology" / "shapes").mkdir(parents=True)
    (root / "ontology" / "shapes" / "datatypes.ttl").write_text(DATATYPE_SHAPES, "utf-8")
    found = {}
    for engine in ENGINES:
        result = run_cli("--root", str(root), "validate", "--engine", engine, "--format", "json")
        assert result.exit_code == 1, result.stderr
        assert "Traceback" not in result.stderr and "Failed to convert" not in result.stderr
        import json

        results = json.loads(result.stdout)["results"]
        found[engine] = sorted(
            (Path(r["file"]).name, r["line"], r["severity"], r["focus"])
            for r in results
            if "abc" in (r["value"] or "") or "2024-13-45" in (r["value"] or "")
        )
    assert found["fast"] == found["reference"]
    assert len(found["fast"]) == 2 and {f[:1] + f[2:] for f in found["fast"]} == {
        ("LIT-001.ttl", "Violation", "LIT-001")
    }, found


def test_ill_formed_literals_never_give_a_traceback(tmp_path):
    root = anthology(tmp_path, {"LIT-001.ttl": ILL_FORMED})
    commands = [  # each with its exit code: the entry lacks its category (rule 1), and
        (["check"], 1),  # the file is not as fmt writes it
        (["check", "--engine", "reference"], 1),
        (["stats"], 0),
        (["export"], 0),
        (["fmt", "--check"], 1),
        (["query", "unread"], 0),
        (["query", "unread", "--engine", "reference"], 0),
    ]
    for command, code in commands:
        result = run_cli("--root", str(root), *command)
        assert result.exit_code == code, (command, result.stdout, result.stderr)
        assert "Traceback" not in result.stderr and "Failed to convert" not in result.stderr
        if command[0] == "check":
            assert "Rule 1 of ADR-032" in result.stdout
        if command == ["export"]:  # the ill-formed literals as written
            assert '"abc"^^xsd:integer' in result.stdout
            assert '"2024-13-45"^^xsd:date' in result.stdout
    result = run_cli("--root", str(root), "render", "LIT-001")
    assert_input_error(result, "LIT-001", "cannot be printed")


def test_render_names_an_ill_formed_position(bundled_copy):
    path = bundled_copy / "data" / "ARXIV-2409.19256.ttl"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("ak:position 1", 'ak:position "abc"^^xsd:integer', 1), "utf-8")
    result = run_cli("--root", str(bundled_copy), "render", "ARXIV-2409.19256")
    assert_input_error(result, "ARXIV-2409.19256", "ak:position 'abc' is not an integer")


# ---- duplicates and file layout ---------------------------------------------------------


def _duplicate(bundled_copy: Path) -> Path:
    """data/LIT-999.ttl: a second entry (another IRI) with LIT-168's identifier."""
    text = (bundled_copy / "data" / "LIT-168.ttl").read_text(encoding="utf-8")
    copy = text.replace("id:LIT-168 a", "id:LIT-999 a")
    assert copy != text
    (bundled_copy / "data" / "LIT-999.ttl").write_text(copy, encoding="utf-8")
    return bundled_copy


def test_duplicate_identifier_results_carry_file_and_line_on_both_engines(bundled_copy):
    import json

    root = _duplicate(bundled_copy)
    found = {}
    for engine in ENGINES:
        result = run_cli("--root", str(root), "validate", "--engine", engine, "--format", "sarif")
        assert result.exit_code == 1
        sarif = json.loads(result.stdout)
        places = []
        for r in sarif["runs"][0]["results"]:
            if r["ruleId"] == "AK008":
                where = r["locations"][0]["physicalLocation"]
                places.append((where["artifactLocation"]["uri"], where["region"]["startLine"]))
        found[engine] = sorted(places)
        text = run_cli("--root", str(root), "check", "--engine", engine).stdout
        assert "<graph>" not in text
    assert found["fast"] == found["reference"]
    assert [Path(uri).name for uri, _ in found["fast"]] == ["LIT-168.ttl", "LIT-999.ttl"]


def test_fmt_warns_of_a_misnamed_file_and_an_entry_in_two_files(bundled_copy):
    root = _duplicate(bundled_copy)
    shutil.copy(root / "data" / "SOTA-154.ttl", root / "data" / "sota.ttl")
    result = run_cli("--root", str(root), "fmt", "--check")
    assert "Traceback" not in result.stderr
    warnings = sorted(line for line in result.stderr.splitlines() if ": warning: " in line)
    assert len(warnings) == 3, warnings
    assert "LIT-999.ttl:" in warnings[0]
    assert "warning: the file is named 'LIT-999' but describes the entry LIT-168" in warnings[0]
    assert "sota.ttl:" in warnings[1] and "is also described in" in warnings[1]
    assert "sota.ttl:" in warnings[2] and "describes the entry SOTA-154" in warnings[2]
    clean = run_cli("fmt", "--check")
    assert ": warning: " not in clean.stderr


@pytest.mark.parametrize("engine", ENGINES)
def test_check_warns_of_a_misnamed_file_and_an_entry_in_two_files(bundled_copy, engine):
    """CI runs ``check`` only: it gives the same layout warnings as ``fmt`` on stderr,
    and the exit code stays the rules' (1 here: LIT-999 repeats LIT-168's identifier)."""
    root = _duplicate(bundled_copy)
    shutil.copy(root / "data" / "SOTA-154.ttl", root / "data" / "sota.ttl")
    result = run_cli("--root", str(root), "check", "--engine", engine)
    assert result.exit_code == 1 and "Traceback" not in result.stderr
    warnings = sorted(line for line in result.stderr.splitlines() if ": warning: " in line)
    fmt = run_cli("--root", str(root), "fmt", "--check").stderr.splitlines()
    assert warnings == sorted(line for line in fmt if ": warning: " in line)
    assert len(warnings) == 3, warnings
    assert "LIT-999.ttl:" in warnings[0] and "describes the entry LIT-168" in warnings[0]
    assert "sota.ttl:" in warnings[1] and "also described in" in warnings[1]
    assert not any(": warning: " in line for line in result.stdout.splitlines())


@pytest.mark.parametrize("engine", ENGINES)
def test_check_warns_of_a_misnamed_file_with_exit_0_when_the_rules_hold(bundled_copy, engine):
    data = bundled_copy / "data"
    (data / "SOTA-154.ttl").rename(data / "sota-154.ttl")
    result = run_cli("--root", str(bundled_copy), "check", "--engine", engine)
    assert result.exit_code == 0, result.stderr
    warnings = [line for line in result.stderr.splitlines() if ": warning: " in line]
    assert len(warnings) == 1 and "sota-154.ttl:" in warnings[0], warnings
    assert "the file is named 'sota-154' but describes the entry SOTA-154" in warnings[0]
    assert ": warning: " not in run_cli("check", "--engine", engine).stderr


def test_check_parses_a_file_the_text_scan_cannot_read_before_warning(tmp_path):
    """The text scan looks for ``dcterms:identifier "NAME"``; a file that writes it
    otherwise is parsed, so no false warning (and a real one where it is misnamed)."""
    other = (
        '<A-1> dcterms:identifier """A-1""" .\n'
        '<B-1> <http://purl.org/dc/terms/identifier> "B-1" .\n'
    )
    root = anthology(tmp_path, {"A-1.ttl": PREFIXES + other})
    for engine in ENGINES:
        result = run_cli("--root", str(root), "check", "--engine", engine)
        assert result.exit_code == 0, result.stderr
        warnings = [line for line in result.stderr.splitlines() if ": warning: " in line]
        assert warnings == [], warnings
    (root / "data" / "A-1.ttl").rename(root / "data" / "C-1.ttl")
    result = run_cli("--root", str(root), "check")
    assert "C-1.ttl:4: warning: the file is named 'C-1' but describes the entry A-1, B-1" in (
        result.stderr
    )


@pytest.mark.skipif(not hasattr(os, "getpgid"), reason="POSIX signals")
def test_ctrl_c_stops_a_remote_query_waiting_on_the_store_with_exit_130():
    import signal
    import socket

    with socket.create_server(("127.0.0.1", 0)) as listening:
        url = f"http://127.0.0.1:{listening.getsockname()[1]}/sparql"
        process = _forked("query", "unread", "--endpoint", url, "--method", "form")
        listening.settimeout(90)
        connection, _ = listening.accept()
        with connection:
            connection.settimeout(90)
            request = b""
            while b"\r\n\r\n" not in request:  # the query has been sent: it waits on us
                received = connection.recv(65536)
                assert received, request
                request += received
            process.send_signal(signal.SIGINT)
            started = time.monotonic()
            out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert err == "anthology-kg: interrupted\n"
    assert time.monotonic() - started < 15
