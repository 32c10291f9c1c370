"""Fuzzing (hypothesis): no input yields a traceback, nor an exit code other than 0, 1 or 2.

The default budget is small so that the suite stays fast; ``FUZZ_EXAMPLES=N`` raises it,
and ``pytest -m bench tests/test_fuzz.py -s`` runs the 100,000-string VALUES round trip.
"""

from __future__ import annotations

import os
import random
import shutil
import time
from pathlib import Path

import pyoxigraph as ox
import pytest
from conftest import run_cli
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from rdflib import Graph, Literal
from stores import free_port, serve_process

from anthology_kg.rdflib_sparql import evaluate
from anthology_kg.sparql_text import with_values

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "40"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
ROUND_TRIP = "SELECT ?v WHERE { BIND(?x AS ?v) }"
#: Any Unicode scalar value (no lone surrogates: they are not text, and are refused).
TEXT = st.text(st.characters(exclude_categories=["Cs"]), max_size=60)
#: Strings built from the characters that break quoting: quotes, backslashes, newlines.
NASTY = st.text(st.sampled_from(['"', "'", "\\", "\n", "\r", "\t", "x", "}", ")", "#", "\x00"]))


def fast_round_trip(value: str) -> str:
    rows = list(ox.Store().query(with_values(ROUND_TRIP, {"x": Literal(value)})))
    return rows[0]["v"].value


def reference_round_trip(value: str) -> str:
    result = evaluate(Graph(), with_values(ROUND_TRIP, {"x": Literal(value)}))
    return str(result.rows[0][0])


@FUZZ
@given(st.one_of(TEXT, NASTY))
@example("\\U0000")  # rdflib read it as a codepoint escape (sparql_text._AFTER_BACKSLASH)
@example("\\\\u00750041")
def test_any_string_round_trips_through_the_values_block_on_both_engines(value):
    assert fast_round_trip(value) == value
    assert reference_round_trip(value) == value


def values_query(values: list[str]) -> str:
    """One query binding each value to its own variable through ``with_values`` (the
    VALUES block every parameterized query gets): a row of ``len(values)`` columns."""
    return with_values(
        "SELECT * WHERE { }", {f"x{i:05d}": Literal(v) for i, v in enumerate(values)}
    )


def fast_batch(values: list[str]) -> list[str]:
    solution = next(iter(ox.Store().query(values_query(values))))
    return [solution[f"x{i:05d}"].value for i in range(len(values))]


def reference_batch(values: list[str]) -> list[str]:
    result = evaluate(Graph(), values_query(values))
    row = dict(zip(map(str, result.variables), result.rows[0], strict=True))
    return [str(row[f"x{i:05d}"]) for i in range(len(values))]


@pytest.fixture(scope="module")
def served():
    """``anthology-kg serve`` (a real Oxigraph server) on a free port: its query URL."""
    import signal
    import sys

    if not (Path(sys.executable).parent / "oxigraph").exists() and not shutil.which("oxigraph"):
        pytest.skip("the oxigraph server is not installed (pip install oxigraph)")
    process = serve_process("serve", port=free_port())
    assert process.stdout is not None
    line = process.stdout.readline()
    assert line.startswith("SPARQL endpoint: "), line
    try:
        yield line.split()[2]  # "SPARQL endpoint: URL   Graph Store: URL"
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=30)


def remote_batch(url: str, values: list[str]) -> list[str]:
    from anthology_kg.endpoint import Connection, run_remote

    result = run_remote(url, values_query(values), connection=Connection(method="post"))
    row = dict(zip(map(str, result.variables), result.rows[0], strict=True))
    return [str(row[f"x{i:05d}"]) for i in range(len(values))]


@settings(FUZZ, max_examples=max(EXAMPLES // 4, 1))  # a request each: a quarter as many
@given(st.lists(st.one_of(TEXT, NASTY), min_size=1, max_size=20))
@example(["\\U0000", "\\u0041"])  # rdflib read them as codepoint escapes (rdflib_sparql.query_kind)
def test_any_strings_round_trip_through_the_values_block_of_a_remote_store(served, values):
    assert remote_batch(served, values) == values


def random_strings(count: int, seed: int = 15) -> list[str]:
    """Strings of 0 to 12 characters: half from the characters that break quoting,
    half any Unicode scalar value."""
    rng = random.Random(seed)
    alphabet = ['"', "'", "\\", "\n", "\r", "\t", "}", ")", "#", " ", "a", "é", "\u2028", "😀"]
    values = []
    for _ in range(count):
        if rng.random() < 0.5:
            values.append("".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12))))
        else:
            values.append(
                "".join(
                    chr(c)
                    for c in (rng.randint(0, 0x10FFFF) for _ in range(rng.randint(0, 12)))
                    if not 0xD800 <= c <= 0xDFFF
                )
            )
    return values


@pytest.mark.bench
def test_values_block_round_trips_100000_random_strings(served):
    """The figure of issue 15.11: 100,000 random strings through the VALUES block, on
    the fast engine (pyoxigraph), the reference engine (rdflib) and a remote store
    (``anthology-kg serve``: the query text over HTTP, the answer read back as SPARQL
    JSON). The fast engine runs one query per string, as ``query --param`` does; the
    reference engine and the store take 1,000 strings per query (one VALUES row of
    1,000 variables: rdflib parses a query in ~0.1 s, and each request opens a new
    HTTP client), so each string still goes through the same term writer and parser."""
    values = random_strings(100_000)
    batches = [values[i : i + 1000] for i in range(0, len(values), 1000)]
    runs = {
        "fast": lambda: [v for v in values if fast_round_trip(v) != v],
        "reference": lambda: [
            v for b in batches for v, got in zip(b, reference_batch(b), strict=True) if got != v
        ],
        "remote": lambda: [
            v
            for b in batches
            for v, got in zip(b, remote_batch(served, b), strict=True)
            if got != v
        ],
    }
    failures = {}
    for name, run in runs.items():
        started = time.perf_counter()
        failures[name] = run()
        print(
            f"\n{name}: {len(values) - len(failures[name])} of {len(values)} round-tripped "
            f"in {time.perf_counter() - started:.1f} s"
        )
    assert failures == {"fast": [], "reference": [], "remote": []}


# ---- CLI fuzzing: Turtle values, parameter values, record text -----------------------

PREFIXES = "@prefix dcterms: <http://purl.org/dc/terms/> .\n"


def _clean_exit(result) -> None:
    assert result.exit_code in (0, 1, 2), (result.exit_code, result.stderr)
    assert "Traceback" not in result.stderr


@FUZZ
@given(
    value=st.one_of(TEXT, NASTY),
    datatype=st.sampled_from(
        [
            "",
            "^^<http://www.w3.org/2001/XMLSchema#integer>",
            "@en",
            "^^<http://www.w3.org/2001/XMLSchema#date>",
        ]
    ),
)
def test_any_turtle_literal_text_is_handled_by_check_and_fmt(tmp_path_factory, value, datatype):
    """A literal written raw between quotes (so that quotes and backslashes in it make
    invalid or surprising Turtle) never gives a traceback on either engine or in fmt."""
    root = tmp_path_factory.mktemp("fuzz")
    (root / "data").mkdir()
    text = PREFIXES + f'<A-1> dcterms:identifier "A-1" ; dcterms:title "{value}"{datatype} .\n'
    (root / "data" / "A-1.ttl").write_bytes(text.encode("utf-8"))
    for command in (["check"], ["check", "--engine", "reference"], ["fmt", "--check"]):
        _clean_exit(run_cli("--root", str(root), *command))


@FUZZ
@given(st.text(max_size=200))
def test_any_turtle_file_text_is_handled(tmp_path_factory, text):
    root = tmp_path_factory.mktemp("fuzz")
    (root / "data").mkdir()
    (root / "data" / "A-1.ttl").write_bytes(text.encode("utf-8", "surrogatepass"))
    for command in (["check"], ["check", "--engine", "reference"], ["fmt"]):
        _clean_exit(run_cli("--root", str(root), *command))


@FUZZ
@given(st.text(max_size=40))
def test_any_parameter_value_is_handled(value):
    for engine in ("fast", "reference"):
        result = run_cli("query", "depends-on", "--param", f"entry={value}", "--engine", engine)
        _clean_exit(result)
        assert result.exit_code in (0, 2)


RECORD = (Path(__file__).parent / "fixtures" / "records" / "ADR-040.txt").read_text("utf-8")


@FUZZ
@given(
    position=st.integers(min_value=0, max_value=len(RECORD)),
    insert=st.text(max_size=20),
    cut=st.integers(min_value=0, max_value=20),
)
def test_any_record_text_is_handled_by_import(tmp_path_factory, position, insert, cut):
    record = tmp_path_factory.mktemp("fuzz") / "RECORD.txt"
    text = RECORD[:position] + insert + RECORD[position + cut :]
    record.write_bytes(text.encode("utf-8", "surrogatepass"))
    for args in ([], ["--check"]):
        _clean_exit(run_cli("import", *args, str(record)))


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_a_parameter_value_that_is_not_utf8_is_exit_2(engine):
    """Bytes that are not UTF-8 in argv reach Python as lone surrogates."""
    result = run_cli("query", "depends-on", "--param", "entry=\udcff", "--engine", engine)
    assert result.exit_code == 2 and "not UTF-8 text" in result.stderr


@pytest.mark.parametrize(
    "args, said",
    [
        (["new", "lit", "LIT-171", "--title", "A\udcff"], "--title: "),
        (["new", "lit", "LIT-171", "--authors", "\udcff"], "--authors: "),
        (["new", "lit", "LIT-17\udcff"], "the identifier: "),
        (["render", "LIT-16\udcff"], "the entry: "),
        (["query", "unread", "--endpoint", "http://127.0.0.1:1/\udcff"], "'--endpoint'"),
        (["validate", "--endpoint", "http://127.0.0.1:1/\udcff"], "'--endpoint'"),
        (["publish", "--endpoint", "http://127.0.0.1:1/\udcff"], "'--endpoint'"),
        (["publish", "--update", "http://127.0.0.1:1/\udcff"], "'--update'"),
    ],
)
def test_argument_text_that_is_not_utf8_is_exit_2_naming_it(bundled_copy, args, said):
    """A title, identifier or URL can hold no lone surrogate: a traceback and exit 1
    before (hunt5 #2); nothing is written."""
    before = sorted(p.name for p in (bundled_copy / "data").iterdir())
    result = run_cli("--root", str(bundled_copy), *args)
    assert result.exit_code == 2, result.output
    assert said in result.stderr and "not UTF-8 text" in result.stderr, result.stderr
    assert "Traceback" not in result.stderr
    assert sorted(p.name for p in (bundled_copy / "data").iterdir()) == before
