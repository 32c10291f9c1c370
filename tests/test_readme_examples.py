"""The README's shell examples run, as sqlite-utils' tests/test_docs.py runs the commands
its documentation shows: each command of a ```sh block is run in-process on a fresh copy
of the bundled anthology and must exit as it does there (never 2, an input error: the
example would be wrong), the files it names for the reader's own written first. The few
that need a server or a new environment are listed in ``NOT_RUN``, each with the reason
and the test that covers it, and the list is checked against the README: an example added
later is run or listed, never passed over. What an example's comment says it also takes
is checked against its command's options. Outputs the README shows are compared with what
the command prints: ``check``'s summary, ``diff``'s change and ``diff --query``'s rows,
and the keys of ``diff --format json``'s object."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import traceback
from dataclasses import dataclass
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from conftest import FIXTURES, RECORDS, REPO, records_folder
from gitrepo import git
from test_diff import add_arm_without_codebase, change_takeaway, commit_all, repo  # noqa: F401

from anthology_kg.cli import main

README = (REPO / "README.md").read_text(encoding="utf-8")

#: The command's names in the README: installed, and in the quick start's environment.
PROGRAMS = ("anthology-kg", ".venv/bin/anthology-kg")


@dataclass(frozen=True)
class Example:
    """One command of a ```sh block: ``line`` is the README line it starts on, ``words``
    what the shell splits it into (``\\`` continuations joined, the comment dropped) and
    ``comment`` that comment."""

    line: int
    words: tuple[str, ...]
    comment: str = ""

    @property
    def text(self) -> str:
        """The words as a command line (``shlex.join``)."""
        return shlex.join(self.words)


def split_comment(line: str) -> tuple[str, str]:
    """``line`` cut where its comment starts, as the shell does (a ``#`` that begins a word
    outside quotes: ``ns#Reference`` and ``'#'`` are no comment); the comment's text."""
    quote = ""
    escaped = False
    for at, char in enumerate(line):
        if escaped:
            escaped = False
        elif char == "\\" and quote != "'":
            escaped = True
        elif quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "#" and (at == 0 or line[at - 1].isspace()):
            return line[:at], line[at + 1 :].strip()
    return line, ""


def sh_examples(readme: str) -> list[Example]:
    """The commands of ``readme``'s ```sh blocks, in order; a line of commands joined by
    ``&&`` gives one example each."""
    found: list[Example] = []
    fence: str | None = None  # the open block's info string
    pending, start = "", 0
    for number, line in enumerate(readme.splitlines(), 1):
        if fence is None:
            if line.startswith("```"):
                fence = line[3:].strip()
            continue
        if line.strip() == "```":
            assert not pending, f"README:{start}: a continuation ends the block"
            fence = None
            continue
        if fence != "sh":
            continue
        if not pending:
            start = number
        if line.endswith("\\"):
            pending += line[:-1]
            continue
        code, comment = split_comment(pending + line)
        words = shlex.split(code)
        pending = ""
        while words:
            cut = words.index("&&") if "&&" in words else len(words)
            found.append(Example(start, tuple(words[:cut]), comment))
            words = words[cut + 1 :]
    return found


EXAMPLES = sh_examples(README)


def example_id(example: Example) -> str:
    """``README:LINE``, and the command's place on a line that holds several."""
    same_line = [e for e in EXAMPLES if e.line == example.line]
    place = f"-{same_line.index(example) + 1}" if len(same_line) > 1 else ""
    return f"README:{example.line}{place}"


SERVER = "needs a running SPARQL server: tests/test_server.py runs it against one"

#: The examples not run here, each with the reason and where it is covered instead.
NOT_RUN = {
    "python3 -m venv .venv": "makes an environment: tests/test_wheel.py (pytest -m install)",
    ".venv/bin/pip install -e '.[test]'": "installs: tests/test_wheel.py (pytest -m install)",
    ".venv/bin/python -m pytest -n auto": "the test suite itself",
    "anthology-kg serve --port 7878 --writable": "a server that runs until stopped: "
    "tests/test_server.py",
    "curl -s http://127.0.0.1:7878/query -H 'Accept: text/csv' --data-urlencode "
    "'query=SELECT ?e WHERE { ?e a <https://w3id.org/anthology-kg/ns#Reference> }'": SERVER,
    "anthology-kg publish --endpoint http://127.0.0.1:7878/store --replace": SERVER,
    "anthology-kg query confounders --endpoint http://127.0.0.1:7878/query": SERVER,
    "anthology-kg validate --endpoint http://127.0.0.1:7878/query": SERVER,
    "python benchmarks/bench_scale.py --sizes 10000 100000 --clock cpu": "a benchmark of "
    "minutes: benchmarks/ (pytest benchmarks -m bench -s)",
}

#: The exit code of the examples that do not exit 0 here (README's "Exit codes").
EXIT_CODES = {
    # local.ttl (``LOCAL_SHAPES``) asks what the bundled reference lacks: it was read.
    "anthology-kg validate --shapes local.ttl": 1,
    # The anthology ``generate`` wrote, with the violations it planted.
    "anthology-kg --root /tmp/big check": 1,
}

#: The words of the examples that read a git repository: they run in one (``git_examples``).
GIT_WORDS = ("diff", "--baseline")

#: The printed record the placeholders ``RECORD.txt`` and ``data/ID.ttl`` stand for.
RECORD = FIXTURES / "records" / "LIT-201.txt"
#: ``local.ttl``, shapes of the reader's own (``validate --shapes``): a reference states
#: its title (the bundled one does not: its record does not state it).
LOCAL_SHAPES = """\
@prefix sh: <http://www.w3.org/ns/shacl#> .
@prefix ak: <https://w3id.org/anthology-kg/ns#> .
@prefix dcterms: <http://purl.org/dc/terms/> .

<urn:local:Titled> a sh:NodeShape ;
    sh:targetClass ak:Reference ;
    sh:property [ sh:path dcterms:title ; sh:minCount 1 ] .
"""
#: ``my-question.rq``, an ad hoc question.
QUESTION = "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }\n"
#: ``remote.rq``, a query calling a remote endpoint: SILENT, at a port of this machine where
#: nothing answers (as tests/test_hardening.py's), so no network is reached or needed.
REMOTE = "SELECT * WHERE { SERVICE SILENT <http://127.0.0.1:9/sparql> { ?s ?p ?o } }\n"
#: ``generate``'s example writes 10,000 entries (seconds of CPU, and as many for the
#: ``check`` of them after it): 20 here, the fewest it writes, and 5 planted violations.
SCALED_DOWN = {("--entries", "10000"): "20", ("--violations", "50"): "5"}


def placeholders(root: Path, tmp_path: Path) -> dict[str, str]:
    """Write into the anthology at ``root`` (the working directory) the files the examples
    name for the reader's own; return the words that stand for something else here, each
    with what it becomes."""
    shutil.copyfile(RECORD, root / "RECORD.txt")
    records_folder(root, RECORDS)
    (root / "local.ttl").write_text(LOCAL_SHAPES, encoding="utf-8")
    (root / "my-question.rq").write_text(QUESTION, encoding="utf-8")
    (root / "remote.rq").write_text(REMOTE, encoding="utf-8")
    return {"data/ID.ttl": f"data/{RECORD.stem}.ttl", "/tmp/big": str(tmp_path / "big")}


def command(words: tuple[str, ...]) -> tuple[dict[str, str], list[str]] | None:
    """The environment and the arguments of ``anthology-kg`` that ``words`` run, as the
    shell would: ``eval "$(…)"`` runs what it holds, ``NAME=value`` words before the
    command set its environment, a redirection of its output is dropped (the runner keeps
    the output); None if ``words`` run another program."""
    if len(words) == 2 and words[0] == "eval" and re.fullmatch(r"\$\(.*\)", words[1]):
        return command(tuple(shlex.split(words[1][2:-1])))
    env = {}
    while words and re.fullmatch(r"[A-Z_]+=\S*", words[0]):
        name, value = words[0].split("=", 1)
        env[name] = value
        words = words[1:]
    if len(words) > 2 and words[-2] in (">", ">>"):
        words = words[:-2]
    if not words or words[0] not in PROGRAMS:
        return None
    return env, list(words[1:])


def prepared(example: Example, standing_for: dict[str, str]) -> tuple[dict[str, str], list[str]]:
    """What ``command`` gives for ``example``, its placeholders replaced by what
    ``standing_for`` gives and ``SCALED_DOWN``'s values by theirs."""
    found = command(example.words)
    assert found is not None, f"{example.text}: not an anthology-kg command"
    env, args = found
    args = [standing_for.get(arg, arg) for arg in args]
    return env, [SCALED_DOWN.get((args[i - 1], a), a) if i else a for i, a in enumerate(args)]


def invoke(*args: str, env: dict[str, str] | None = None):
    """``anthology-kg ARGS`` run in-process as the installed command (its name is the one
    the completion scripts are written for); stdout and stderr kept apart."""
    return CliRunner().invoke(main, list(args), env=env, prog_name="anthology-kg")


@pytest.fixture
def git_examples(repo: Path) -> Path:  # noqa: F811
    """test_diff's ``repo`` (the bundled anthology committed on ``main``, the working
    directory), with what the examples name there too: a branch ``topic`` and
    ``origin/main`` (a ref of this repository: no remote is reached)."""
    git(repo, "branch", "topic")
    git(repo, "update-ref", "refs/remotes/origin/main", "HEAD")
    return repo


RUN = [e for e in EXAMPLES if e.text not in NOT_RUN]
(GENERATE,) = [e for e in EXAMPLES if "generate" in e.words]


@pytest.mark.parametrize("example", RUN, ids=example_id)
def test_the_readme_example_runs(example, request, tmp_path):
    """It exits 0 (``EXIT_CODES`` gives the others), raising nothing: 2 would be a usage
    or input error, the example wrong."""
    in_git = any(word in example.words for word in GIT_WORDS)
    root = request.getfixturevalue("git_examples" if in_git else "anthology")
    standing_for = placeholders(root, tmp_path)
    if "/tmp/big" in example.words and example is not GENERATE:
        assert invoke(*prepared(GENERATE, standing_for)[1]).exit_code == 0
    env, args = prepared(example, standing_for)
    result = invoke(*args, env=env)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        pytest.fail(f"{example.text}:\n{''.join(traceback.format_exception(result.exception))}")
    expected = EXIT_CODES.get(example.text, 0)
    assert result.exit_code == expected, f"{example.text}: exit {result.exit_code}\n{result.stderr}"


def test_what_is_not_run_is_in_the_readme_and_every_other_example_is_run():
    """An example added to the README is run here (it must be an ``anthology-kg`` command)
    or listed in ``NOT_RUN`` with its reason; one listed that the README no longer holds
    is dropped from the list."""
    texts = {e.text for e in EXAMPLES}
    assert sorted(set(NOT_RUN) - texts) == []
    assert [e.text for e in RUN if command(e.words) is None] == []
    assert sorted(set(EXIT_CODES) - {e.text for e in RUN}) == []
    assert len(RUN) > 30  # the blocks were found


def test_the_examples_are_read_as_the_shell_reads_them():
    text = (
        "Prose.\n```sh\na-b x \\\n  --y 'q # r' s#t # a comment\n    # alone\n\n"
        'eval "$(N=v anthology-kg)"  # c\np && anthology-kg z > out\n```\n'
        "```text\nanthology-kg not-sh\n```\n"
    )
    found = sh_examples(text)
    assert [(e.line, e.words, e.comment) for e in found] == [
        (3, ("a-b", "x", "--y", "q # r", "s#t"), "a comment"),
        (7, ("eval", "$(N=v anthology-kg)"), "c"),
        (8, ("p",), ""),
        (8, ("anthology-kg", "z", ">", "out"), ""),
    ]
    assert [command(e.words) for e in found] == [None, ({"N": "v"}, []), None, ({}, ["z"])]


# -- what an example's comment says ----------------------------------------------------------

#: ``# also a, b, c`` in an example's comment: the other values its ``--format`` takes, or
#: the other commands that take its options (``--timeout``).
ALSO = re.compile(r"\balso ([\w -]+(?:, [\w -]+)*)")


def options_of(name: str) -> dict[str, click.Parameter]:
    """The options of the command ``name``, by each of their names."""
    return {opt: param for param in main.commands[name].params for opt in param.opts}


@pytest.mark.parametrize("example", [e for e in RUN if ALSO.search(e.comment)], ids=example_id)
def test_what_an_example_says_it_also_takes(example):
    (listed,) = ALSO.findall(example.comment)
    _, args = prepared(example, {})
    name = next(arg for arg in args if arg in main.commands)
    if "--format" in args:
        choices = options_of(name)["--format"].type.choices
        assert sorted(set(listed.split(", ")) - set(choices)) == [], example.text
    else:
        asked = {arg for arg in args if arg.startswith("--")}
        for other in listed.split(", "):
            other_name, *other_options = other.split()
            assert asked | set(other_options) <= set(options_of(other_name)), other


# -- what the README shows a command print ----------------------------------------------------


def text_block(starting: str) -> str:
    """The one ```text block of the README whose text starts with ``starting``."""
    blocks = re.findall(r"```text\n(.*?)```", README, re.S)
    (block,) = [b for b in blocks if b.startswith(starting)]
    return block


def shown(line: str) -> re.Pattern[str]:
    """A line of output as the README shows it, as a pattern of the lines it stands for: a
    literal it shortens (``"1.53× throughput over…"``) is any literal that starts so, a
    line it ends with ``…`` any line that starts so, a 12-digit commit any commit."""
    parts = re.split(r'(…"|…$|\b[0-9a-f]{12}\b)', line)
    wild = {'…"': '[^"]*"', "…": ".*"}
    return re.compile(
        "".join(
            wild.get(part) or ("[0-9a-f]{12}" if i % 2 else re.escape(part))
            for i, part in enumerate(parts)
        )
    )


def prints_as_shown(printed: str, block: str) -> None:
    """``printed`` is, line by line, what ``block`` shows."""
    lines = printed.splitlines()
    patterns = [shown(line) for line in block.splitlines()]
    assert len(lines) == len(patterns), printed
    for line, pattern in zip(lines, patterns, strict=True):
        assert pattern.fullmatch(line), f"printed: {line!r}\nshown:   {pattern.pattern!r}"


def test_a_shown_line_stands_for_the_lines_it_shortens():
    pattern = shown('+ ak:x "1.5× over t…" ; 3f2a1c9d0e1b → HEAD: …')
    assert pattern.fullmatch('+ ak:x "1.5× over the day" ; 0123456789ab → HEAD: 1 (a)')
    assert not pattern.fullmatch('+ ak:x "1.5× under" ; 0123456789ab → HEAD: 1')
    assert not pattern.fullmatch('+ ak:x "1.5× over t" ; 3f2a1c9d0e1 → HEAD: 1')


def test_check_prints_a_line_per_result_and_the_summary_shown(anthology):
    """``anthology-kg check  # load, validate, one line per result and a summary``: the
    summary the README's Python example shows (text_report's last line, as check's; its
    ``...`` is doctest's, any text)."""
    (summary,) = re.findall(r"^conforms: .*$", README, re.M)
    printed = invoke("check")
    assert printed.exit_code == 0
    *results, last = printed.stdout.splitlines()
    assert results and all(re.match(r"data/\S+\.ttl:\d+:\d+: AK\d{3} Info ", r) for r in results)
    assert re.fullmatch(re.escape(summary).replace(r"\.\.\.", ".*"), last), last


def test_diff_prints_the_change_shown(git_examples):
    """The README's ``diff`` of a takeaway whose figures were rounded, as it shows it."""
    change_takeaway(git_examples)
    printed = invoke("diff")
    assert printed.exit_code == 1
    prints_as_shown(printed.stdout, text_block("changed ARXIV-2409.19256"))


def test_diff_query_prints_the_rows_shown(git_examples):
    """``$ anthology-kg diff origin/main...HEAD --query confounders`` after a commit that
    adds an arm with no framework stated, as the README shows it."""
    add_arm_without_codebase(git_examples)
    commit_all(git_examples, "the DAPO arm")
    line, output = text_block("$ anthology-kg diff").split("\n", 1)
    found = command(tuple(shlex.split(line.removeprefix("$ "))))
    assert found is not None
    printed = invoke(*found[1])
    assert printed.exit_code == 1
    prints_as_shown(printed.stdout, output)


def json_keys(value: object) -> set[str]:
    """The keys of every object in ``value``, however deep."""
    if isinstance(value, dict):
        return set(value).union(*map(json_keys, value.values()))
    if isinstance(value, list):
        return set().union(*map(json_keys, value))
    return set()


def test_diff_json_has_the_keys_shown(git_examples):
    """The object the README sketches for ``diff --format json``: its keys, the values it
    gives (``"old": "HEAD"``), and a status of the ones it lists (``"added|removed|…"``)."""
    sketch = text_block('{"schema"')
    change_takeaway(git_examples)
    (git_examples / "queries").mkdir()
    (git_examples / "queries" / "mine.rq").write_text("SELECT * {}\n", encoding="utf-8")
    printed = invoke("diff", "--format", "json")
    assert printed.exit_code == 1
    doc = json.loads(printed.stdout)
    assert json_keys(doc) == set(re.findall(r'(?<!: )"(\w+)"', sketch))
    for key, value in re.findall(r'"(\w+)": ("[^"|]*"|true|false)', sketch):
        assert doc[key] == json.loads(value), key
    statuses = re.findall(r'"status": "([\w|]+)"', sketch)
    assert doc["ruleFiles"][0]["status"] in statuses[0].split("|")
    assert doc["entries"][0]["status"] in statuses[1].split("|")
