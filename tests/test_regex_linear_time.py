"""The reference engine matches ``sh:pattern`` and SPARQL's ``REGEX`` in linear time, as
the fast engine does (anthology_kg/linear_regex.py; hunt16 #2): pySHACL and rdflib
matched with Python's backtracking ``re``, and ``^(a|a)+$`` on a 71-character title held
the GIL for hours, so --timeout, SIGTERM and Ctrl-C never acted, on ``--engine reference``
and on the default engine falling back to it. A regression hangs the command: each runs
in a forked process given a hard limit, then killed (forked_cli)."""

from __future__ import annotations

import json
import signal
from pathlib import Path

import pytest
from conftest import answered_alike, run_cli
from forked_cli import ForkServer

from anthology_kg import linear_regex

_FORK_SERVER = ForkServer()
#: Far above the 1-2 s a command here takes; a backtracking match takes hours.
HARD_LIMIT = 30
#: The commands' own --timeout: past what one takes on a loaded machine (the reference
#: engine with a fallback took over 2 s at a load of 7), below the hard limit.
TIMEOUT = "15"


@pytest.fixture(scope="module", autouse=True)
def _fork_server_stopped():
    yield
    _FORK_SERVER.stop()


PREFIXES = (
    "@prefix sh: <http://www.w3.org/ns/shacl#> .\n"
    "@prefix dcterms: <http://purl.org/dc/terms/> .\n"
    "@prefix ex: <http://example.org/> .\n"
)
CATASTROPHIC = "^(a|a)+$"
REDOS = (
    "ex:Redos a sh:PropertyShape ; sh:targetSubjectsOf dcterms:identifier ;\n"
    f'  sh:path dcterms:title ; sh:pattern "{CATASTROPHIC}" .\n'
)
#: A shape the fast engine cannot run, so the default engine falls back.
RECURSIVE = (
    "ex:Rec a sh:NodeShape ; sh:targetNode ex:nothing ;\n"
    "  sh:property [ sh:path ex:p ; sh:node ex:Rec ] .\n"
)
TITLE = "a" * 70 + "b"


def anthology(root: Path, shapes: str) -> Path:
    """One entry titled ``TITLE`` and the own shapes ``shapes``."""
    (root / "data").mkdir(parents=True)
    (root / "data" / "LIT-901.ttl").write_text(
        "@prefix ak: <https://w3id.org/anthology-kg/ns#> .\n"
        "@prefix dcterms: <http://purl.org/dc/terms/> .\n"
        "@prefix id: <https://w3id.org/anthology-kg/id/> .\n"
        'id:LIT-901 a ak:LiteratureRecord ; dcterms:identifier "LIT-901" ;\n'
        f'    dcterms:title "{TITLE}" .\n',
        encoding="utf-8",
    )
    (root / "ontology" / "shapes").mkdir(parents=True)
    (root / "ontology" / "shapes" / "mine.ttl").write_text(PREFIXES + shapes, encoding="utf-8")
    return root


def finished(*args: str) -> tuple[int, str, str]:
    """``anthology-kg ARGS``'s exit code, output and error; fails (the command killed)
    if it has not ended within ``HARD_LIMIT`` seconds."""
    process = _FORK_SERVER.start(*args)
    try:
        out, err = process.communicate(timeout=HARD_LIMIT)
    except TimeoutError:
        process.send_signal(signal.SIGKILL)
        process.communicate(timeout=HARD_LIMIT)
        pytest.fail(f"anthology-kg {' '.join(args)} ran past {HARD_LIMIT} s")
    assert process.returncode is not None
    return process.returncode, out, err


def the_pattern_result(out: str) -> list[str]:
    return [line for line in out.splitlines() if f"fails sh:pattern {CATASTROPHIC}" in line]


def test_the_reference_engine_reports_a_catastrophic_pattern_as_the_fast_one(tmp_path):
    root = str(anthology(tmp_path / "a", REDOS))
    code, out, err = finished(
        "--root", root, "check", "--engine", "reference", "--timeout", TIMEOUT
    )
    fast = run_cli("--root", root, "check", "--engine", "fast")
    assert (code, fast.exit_code) == (1, 1), err
    assert the_pattern_result(out) == the_pattern_result(fast.stdout) != [], out


def test_the_default_engine_falling_back_reports_it_too(tmp_path):
    root = str(anthology(tmp_path / "a", REDOS + RECURSIVE))
    code, out, err = finished("--root", root, "check", "--timeout", TIMEOUT)
    assert "using the reference engine" in err
    assert code == 1, err
    assert len(the_pattern_result(out)) == 1, out


def test_a_querys_catastrophic_regex_is_answered_on_the_reference_engine(tmp_path):
    root = anthology(tmp_path / "a", "")
    query = tmp_path / "re.rq"
    query.write_text(
        f'SELECT ?t WHERE {{ VALUES ?t {{ "{TITLE}" "{TITLE[:-1]}" }} '
        f'FILTER (REGEX(?t, "{CATASTROPHIC}")) }}\n',
        encoding="utf-8",
    )
    args = ("--root", str(root), "sparql", str(query), "--timeout", TIMEOUT, "--format", "csv")
    code, out, err = finished(*args, "--engine", "reference")
    assert code == 0, err
    assert out.split() == ["t", TITLE[:-1]]


#: (text, pattern, flags): SPARQL's REGEX on each, the same on both engines; a
#: back-reference and a look-ahead are errors (the row's ?m unbound), \p{L} a class,
#: the flags x and q read as XPath reads them.
REGEX_CASES = [
    ("ABC", "^a.c$", "i"),
    ("ABC", "^a.c$", ""),
    ("a\nb", "^a.b$", "s"),
    ("a\nb", "^a.b$", ""),
    ("x\n2024", "^2024$", "m"),
    ("x\n2024", "^2024$", ""),
    ("2024\n", "^[0-9]{4}$", ""),
    ("aa", "(a)\\1", ""),
    ("ab", "a(?=b)", ""),
    ("é", "^\\p{L}$", ""),
    ("a" * 12 + "b", CATASTROPHIC, ""),  # (in-process: longer would hang a regression)
    ("abc", "a b c", "x"),  # x: whitespace in the pattern dropped (rdflib dropped x and q)
    ("abc", "a.c", "q"),  # q: the pattern is the text itself
    ("xa.cx", "a.c", "q"),
]


def test_regex_gives_the_same_answers_on_both_engines(tmp_path):
    root = anthology(tmp_path / "a", "")
    rows = " ".join(
        f"({i} {linear_regex.ox.Literal(text)} {linear_regex.ox.Literal(pattern)} "
        f"{linear_regex.ox.Literal(flags)})"
        for i, (text, pattern, flags) in enumerate(REGEX_CASES)
    )
    query = tmp_path / "re.rq"
    query.write_text(
        f"SELECT ?i ?m WHERE {{ VALUES (?i ?t ?p ?f) {{ {rows} }} "
        "BIND (REGEX(?t, ?p, ?f) AS ?m) } ORDER BY ?i\n",
        encoding="utf-8",
    )
    answer = answered_alike("--root", str(root), "sparql", str(query), "--format", "csv")
    matched = [line.split(",")[1] for line in answer.splitlines()[1:]]
    assert matched == ["true", "false", "true", "false", "true", "false", "false", "", "",
                       "true", "false", "true", "false", "true"]  # fmt: skip


@pytest.mark.parametrize(
    ("pattern", "flags", "text", "found"),
    [
        ("a b c", "x", "abc", True),  # x: whitespace in the pattern dropped
        ("a.c", "q", "abc", False),  # q: the pattern is the text itself
        ("a.c", "q", "xa.cx", True),
        ("A", "i", "a", True),
        (CATASTROPHIC, "", "a" * 5000 + "b", False),
    ],
)
def test_search_reads_xpaths_flags(pattern, flags, text, found):
    assert linear_regex.search(pattern, flags, text) is found


@pytest.mark.parametrize(("pattern", "flags"), [("(a)\\1", ""), ("a(?=b)", ""), ("a", "z")])
def test_a_pattern_or_flag_pyoxigraph_refuses_is_refused(pattern, flags):
    with pytest.raises(linear_regex.Refused):
        linear_regex.search(pattern, flags, "aab")


def test_a_querys_catastrophic_replace_is_answered_on_the_reference_engine(tmp_path):
    root = anthology(tmp_path / "a", "")
    query = tmp_path / "replace.rq"
    query.write_text(
        f'SELECT ?r WHERE {{ BIND (REPLACE("{TITLE}", "{CATASTROPHIC}", "x") AS ?r) }}\n',
        encoding="utf-8",
    )
    args = ("--root", str(root), "sparql", str(query), "--timeout", TIMEOUT, "--format", "csv")
    code, out, err = finished(*args, "--engine", "reference")
    assert code == 0, err
    assert out.split() == ["r", TITLE]


#: (text, pattern, replacement, flags or None): SPARQL's REPLACE on each, the same on both
#: engines (rdflib's own had read the flags as re.sub's count: "i" replaced the first two
#: matches, case kept). A pattern pyoxigraph refuses and a text that is an IRI are errors;
#: the replacement \$ stays as written (Oxigraph's reading; XPath's is "$").
REPLACE_CASES = [
    ('"aAaAaA"', '"a"', '"x"', '"i"'),
    ('"aAaAaA"', '"a"', '"x"', None),
    ('"a\\nb"', '"a.b"', '"x"', '"s"'),
    ('"x\\ny"', '"^y"', '"z"', '"m"'),
    ('"abc"', '"a b"', '"x"', '"x"'),
    ('"a.c abc"', '"a.c"', '"x"', '"q"'),
    ('"abc"', '"(b)"', '"[$1]"', None),
    ('"abc"@en', '"b"', '"x"', None),
    ('"a$b"', '"[$]"', '"\\\\$"', None),
    ('"aab"', '"(a)\\\\1"', '"x"', None),
    ("<https://example.org/a>", '"a"', '"x"', None),
    ('"' + "a" * 12 + 'b"', f'"{CATASTROPHIC}"', '"x"', None),
]


def test_replace_gives_the_same_answers_on_both_engines(tmp_path):
    root = anthology(tmp_path / "a", "")
    rows = " ".join(
        f"({i} {text} {pattern} {replacement} {flags or 'UNDEF'})"
        for i, (text, pattern, replacement, flags) in enumerate(REPLACE_CASES)
    )
    query = tmp_path / "replace.rq"
    query.write_text(
        f"SELECT ?i ?r ?lang WHERE {{ VALUES (?i ?t ?p ?s ?f) {{ {rows} }} "
        "BIND (IF(BOUND(?f), REPLACE(?t, ?p, ?s, ?f), REPLACE(?t, ?p, ?s)) AS ?r) "
        "BIND (LANG(?r) AS ?lang) } ORDER BY ?i\n",
        encoding="utf-8",
    )
    answer = answered_alike("--root", str(root), "sparql", str(query), "--format", "json")
    rows_answered = json.loads(answer)["results"]["bindings"]
    replaced = [(row.get("r", {}).get("value"), row.get("lang", {}).get("value"))
                for row in rows_answered]  # fmt: skip
    assert replaced == [
        ("xxxxxx", ""), ("xAxAxA", ""), ("x", ""), ("x\nz", ""), ("xc", ""), ("x abc", ""),
        ("a[b]c", ""), ("axc", "en"), ("a\\$b", ""), (None, None), (None, None),
        ("a" * 12 + "b", ""),
    ]  # fmt: skip


#: An own SPARQL constraint that REPLACE's flags decide: the title "aaab" with every "A",
#: case ignored, taken out is "b".
REPLACE_SHAPE = (
    "ex:Replace a sh:NodeShape ; sh:targetSubjectsOf dcterms:identifier ;\n"
    '  sh:sparql [ sh:message "replaced" ; sh:select """\n'
    "    SELECT $this WHERE { $this <http://purl.org/dc/terms/title> ?t .\n"
    '      FILTER (REPLACE(?t, "A", "", "i") = "b") }""" ] .\n'
)


def test_a_shapes_replace_reads_its_flags_on_both_engines(tmp_path):
    root = anthology(tmp_path / "a", REPLACE_SHAPE)
    data = root / "data" / "LIT-901.ttl"
    data.write_text(data.read_text(encoding="utf-8").replace(TITLE, "aaab"), encoding="utf-8")
    for engine in ("fast", "reference"):
        result = run_cli("--root", str(root), "check", "--engine", engine)
        assert result.exit_code == 1, (engine, result.output)
        assert "replaced" in result.stdout, (engine, result.stdout)
