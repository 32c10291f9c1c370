"""`check --baseline` and `validate --baseline`, the README's CI recipe and the issue's
done-when scenario, on real temporary git repositories."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import test_diff
from conftest import REPO, run_cli
from test_diff import ARXIV, change_takeaway, commit_all, edit, git

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

repo = test_diff.repo  # the fixtures: a git repository of the bundled anthology, and
no_temporaries = test_diff.no_temporaries  # a temporary folder that must stay empty
RULE2 = "Rule 2 of ADR-032: an infrastructure entry carries no practice"


def practice_on_infrastructure(root: Path) -> None:
    """Rule 2: the infrastructure entry ARXIV-2409.19256 gains a practice."""
    edit(
        root,
        ARXIV,
        "    ak:practiceWithheldBy id:ADR-032 ;\n",
        '    ak:carriesPractice [ a ak:Practice ; rdfs:label "Run RL on verl" ] ;\n',
    )


def dangling_reference(root: Path) -> None:
    """Rule 9: SOTA-154 points at an entry the record does not have."""
    path = root / "data" / "SOTA-154.ttl"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.rstrip().rstrip(".") + " ;\n    dcterms:references id:LIT-999 .\n")


def sarif_states(result) -> list[tuple[str, str, str]]:
    """Rule, focus and baseline state of each result but the bundled anthology's Info
    results (its stated unknowns, the same in every state here)."""
    doc = json.loads(result.stdout)
    return sorted(
        (r["ruleId"], r["properties"]["focus"], r["baselineState"])
        for r in doc["runs"][0]["results"]
        if r["level"] != "note"
    )


def graver_than_info(output: str) -> list[str]:
    """The result lines of a text report but the Info ones, and its summary line."""
    return [line for line in output.splitlines() if " Info " not in line]


def test_new_violation_fails_and_is_new(repo, no_temporaries):
    practice_on_infrastructure(repo)
    result = run_cli("check", "--baseline", "HEAD")
    assert result.exit_code == 1
    lines = graver_than_info(result.stdout)
    assert len(lines) == 2
    assert RULE2 in lines[0] and "(existing)" not in lines[0]
    assert lines[1].startswith("does not conform: 1 violation(s), 0 warning(s), 0 waived, ")
    assert re.search(r", \d+ existing, 0 fixed, ", lines[1])  # the stated unknowns exist
    sarif = run_cli("validate", "--baseline", "HEAD", "--format", "sarif")
    assert sarif.exit_code == 1
    assert sarif_states(sarif) == [("AK002", "ARXIV-2409.19256", "new")]


def test_old_violation_is_existing_and_not_counted(repo, no_temporaries):
    dangling_reference(repo)
    commit_all(repo, "a legacy violation")
    assert run_cli("check").exit_code == 1  # without a baseline it fails
    result = run_cli("check", "--baseline", "HEAD")
    assert result.exit_code == 0
    lines = graver_than_info(result.stdout)
    assert re.match(r"data/SOTA-154\.ttl:\d+:\d+: AK009 Violation \(existing\) ", lines[0])
    assert re.match(
        r"conforms: 0 violation\(s\), 0 warning\(s\), 0 waived, \d+ existing, ", lines[1]
    )
    doc = json.loads(run_cli("validate", "--baseline", "HEAD", "--format", "json").stdout)
    assert doc["conforms"] is True
    assert doc["counts"]["violations"] == 0
    assert {r["baselineState"] for r in doc["results"]} == {"unchanged"}
    assert doc["counts"]["existing"] == len(doc["results"])
    sarif = run_cli("validate", "--baseline", "HEAD", "--format", "sarif")
    assert sarif.exit_code == 0
    assert sarif_states(sarif) == [("AK009", "SOTA-154", "unchanged")]


def test_only_the_new_violation_counts_beside_an_old_one(repo, no_temporaries):
    dangling_reference(repo)
    commit_all(repo, "a legacy violation")
    practice_on_infrastructure(repo)
    result = run_cli("check", "--baseline", "HEAD")
    assert result.exit_code == 1
    counted = [line for line in result.stdout.splitlines()[:-1] if "(existing)" not in line]
    assert "AK009 Violation (existing)" in result.stdout
    assert len(counted) == 1 and RULE2 in counted[0]
    assert "does not conform: 1 violation(s)" in result.stdout
    sarif = run_cli("validate", "--baseline", "HEAD", "--format", "sarif")
    assert sarif_states(sarif) == [
        ("AK002", "ARXIV-2409.19256", "new"),
        ("AK009", "SOTA-154", "unchanged"),
    ]


def test_an_old_violation_whose_line_moved_is_still_existing(repo, no_temporaries):
    """A result is matched without its line, which moves when a file is edited above it
    (README: "not the line"): lines inserted above the legacy violation leave it existing."""
    dangling_reference(repo)
    commit_all(repo, "a legacy violation")
    before = run_cli("check")
    path = repo / "data" / "SOTA-154.ttl"
    text = path.read_text(encoding="utf-8")
    path.write_text(
        text.replace("id:SOTA-154 a", "# moved down\n\n\nid:SOTA-154 a", 1), encoding="utf-8"
    )
    after = run_cli("check", "--baseline", "HEAD")
    assert after.exit_code == 0, after.output
    located = r"data/SOTA-154\.ttl:(\d+):\d+: AK009 Violation"
    (old_line,) = re.findall(located + " ", before.stdout)
    (moved_line,) = re.findall(located + r" \(existing\) ", after.stdout)
    assert int(moved_line) == int(old_line) + 3
    assert re.match(r"conforms: 0 violation\(s\), .*, 0 fixed", after.stdout.splitlines()[-1])
    sarif = run_cli("validate", "--baseline", "HEAD", "--format", "sarif")
    assert sarif.exit_code == 0
    assert sarif_states(sarif) == [("AK009", "SOTA-154", "unchanged")]


def test_fixed_violation_is_absent(repo, no_temporaries):
    dangling_reference(repo)
    commit_all(repo, "a legacy violation")
    git(repo, "checkout", "-q", "-b", "fix")
    git(repo, "checkout", "-q", "HEAD~1", "--", "data/SOTA-154.ttl")
    commit_all(repo, "fixed")
    # SARIF leaves the fixed result out (GitHub would raise an alert at the current line).
    sarif = run_cli("validate", "--baseline", "main", "--format", "sarif")
    assert sarif.exit_code == 0
    assert sarif_states(sarif) == []
    report = json.loads(run_cli("validate", "--baseline", "main", "--format", "json").stdout)
    (result,) = [r for r in report["results"] if r["severity"] == "Violation"]
    assert (result["code"], result["baselineState"]) == ("AK009", "absent")
    # The fixed result points at the file as the repository names it, not a temporary copy.
    assert result["file"] == "data/SOTA-154.ttl"
    text = run_cli("check", "--baseline", "main")
    assert text.exit_code == 0
    assert "AK009 Violation (fixed)" in text.stdout
    assert re.search(
        r"conforms: 0 violation\(s\), 0 warning\(s\), 0 waived, \d+ existing, 1 fixed", text.stdout
    )


def test_baseline_is_a_folder_too(repo, tmp_path):
    shutil.copytree(repo / "data", tmp_path / "old" / "data")
    dangling_reference(tmp_path / "old")
    dangling_reference(repo)
    result = run_cli("check", "--baseline", str(tmp_path / "old"))
    assert result.exit_code == 0 and "(existing)" in result.stdout


def test_reference_engine_gives_the_same_states(repo):
    dangling_reference(repo)
    commit_all(repo, "a legacy violation")
    practice_on_infrastructure(repo)
    fast = run_cli("validate", "--baseline", "HEAD", "--format", "sarif")
    reference = run_cli(
        "validate", "--baseline", "HEAD", "--format", "sarif", "--engine", "reference"
    )
    assert sarif_states(fast) == sarif_states(reference)


def test_bad_baseline(repo, no_temporaries):
    for args, pattern in (
        (("--baseline", "nope"), r"unknown revision 'nope'"),
        (("--baseline", str(repo / "data")), r"not an anthology"),
    ):
        for command in ("check", "validate"):
            result = run_cli(command, *args)
            assert result.exit_code == 2, result.output
            assert re.search(pattern, result.stderr) and "Traceback" not in result.stderr
    for fmt in ("turtle", "jsonld"):
        result = run_cli("validate", "--baseline", "HEAD", "--format", fmt)
        assert result.exit_code == 2 and "--baseline does not apply" in result.stderr
    edit(repo, "data/LIT-168.ttl", 'rdfs:label "DAPO" ;', 'rdfs:label "DAPO ;')
    commit_all(repo, "broken")
    git(repo, "checkout", "-q", "HEAD~1", "--", "data/LIT-168.ttl")
    result = run_cli("check", "--baseline", "HEAD")
    # A base that does not load counts every result new (the change mending it passes;
    # exit 2 before); the note names the broken file as the revision has it, not as a
    # temporary copy.
    assert result.exit_code == 0, result.output
    said = "the baseline HEAD cannot be validated (HEAD:data/LIT-168.ttl:"
    assert said in result.stderr and "Turtle syntax error" in result.stderr


def test_an_empty_baseline_is_refused_not_read_as_the_working_tree(repo, no_temporaries):
    """``--baseline "$BASE"`` with BASE unset: '' was the folder ``.``, the state being
    checked, so every new violation was existing and the run passed (exit 0)."""
    practice_on_infrastructure(repo)
    for args in (
        ("check", "--baseline", ""),
        ("validate", "--baseline", " "),
        ("diff", ""),
        ("diff", "HEAD", ""),
    ):
        result = run_cli(*args)
        assert result.exit_code == 2, (args, result.output)
        assert result.stdout == "" and "Traceback" not in result.stderr
        assert "names no revision or folder" in result.stderr, result.stderr


# -- the README's recipe and the done-when ----------------------------------------


def recipe_commands() -> list[str]:
    """The pull-request steps of the README's GitHub Actions workflow, as written."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    workflow = next(b for b in readme.split("```yaml")[1:] if "--baseline origin/" in b)
    workflow = workflow.split("```")[0]
    return re.findall(
        r"- if: [^\n]*github\.event_name == 'pull_request'\n\s+run: ([^\n]+)", workflow
    )


def subject_line(path: Path) -> int:
    """The line where the file's entry (the subject named like the file) is written."""
    entry = f"id:{path.stem} "
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(n for n, line in enumerate(lines, 1) if line.startswith(entry))


def clone_with_branch(tmp_path: Path, upstream: Path, branch: str) -> Path:
    clone = tmp_path / f"clone-{branch}"
    git(tmp_path, "clone", "-q", str(upstream), str(clone))
    git(clone, "checkout", "-q", "-b", branch)
    return clone


def run_shell(command: str, cwd: Path, summary: Path) -> subprocess.CompletedProcess:
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        "GITHUB_STEP_SUMMARY": str(summary),
    }
    return subprocess.run(
        ["bash", "-c", command], cwd=cwd, env=env, capture_output=True, text=True, check=False
    )


def test_readme_recipe_on_a_pull_request(repo, tmp_path):
    commands = recipe_commands()
    assert commands == [
        "anthology-kg check --baseline origin/${{ github.base_ref }}",
        "anthology-kg diff origin/${{ github.base_ref }}...HEAD --format markdown --exit-zero "
        ">> $GITHUB_STEP_SUMMARY",
    ]
    dangling_reference(repo)
    commit_all(repo, "a legacy violation on main")
    clone = clone_with_branch(tmp_path, repo, "pull")
    practice_on_infrastructure(clone)
    commit_all(clone, "a practice on an infrastructure entry")
    summary = tmp_path / "summary.md"
    check, diff = (
        run_shell(c.replace("${{ github.base_ref }}", "main"), clone, summary) for c in commands
    )
    assert check.returncode == 1, check.stderr
    assert "does not conform: 1 violation(s)" in check.stdout and RULE2 in check.stdout
    new = [line for line in check.stdout.splitlines()[:-1] if "(existing)" not in line]
    assert len(new) == 1 and RULE2 in new[0]
    assert "AK009 Violation (existing)" in check.stdout
    assert diff.returncode == 0, diff.stderr
    written = summary.read_text(encoding="utf-8")
    assert written.startswith("### Anthology graph: `")
    assert "| ARXIV-2409.19256 | changed | 1 | 1 |" in written
    # Undoing the practice and fixing the legacy violation: the check passes, the fix shows.
    git(clone, "checkout", "-q", "main", "--", ARXIV)
    git(clone, "checkout", "-q", "main~1", "--", "data/SOTA-154.ttl")
    commit_all(clone, "fix both")
    check = run_shell(commands[0].replace("${{ github.base_ref }}", "main"), clone, summary)
    assert check.returncode == 0, check.stdout
    assert "AK009 Violation (fixed)" in check.stdout


def test_done_when_in_a_clone_of_the_bundled_anthology(repo, tmp_path, monkeypatch):
    clone = clone_with_branch(tmp_path, repo, "review")
    monkeypatch.chdir(clone)
    change_takeaway(clone)
    # Another entry gains a practice, named but never written: rule 9 (dangling) fires.
    edit(
        clone,
        "data/LIT-168.ttl",
        "ak:techniqueCount 4 .",
        "ak:techniqueCount 4 ;\n    ak:carriesPractice id:PRACTICE-check-on-verl .",
    )
    commit_all(clone, "review branch")
    result = run_cli("diff", "main", "--format", "markdown")
    assert result.exit_code == 1
    rows = [line for line in result.stdout.splitlines() if re.match(r"\| [A-Z]", line)]
    lit = "data/LIT-168.ttl"
    assert rows == [
        f"| ARXIV-2409.19256 | changed | 1 | 1 | {ARXIV}:{subject_line(clone / ARXIV)} |",
        f"| LIT-168 | changed | 1 | 0 | {lit}:{subject_line(clone / lit)} |",
    ]
    facts = [line for line in result.stdout.splitlines() if line.startswith("- ")]
    assert len(facts) == 3
    assert facts[0].startswith('- ➖ ak:takeaway [ a ak:Takeaway ; rdf:value "1.53×–20.57×')
    assert facts[1].startswith('- ➕ ak:takeaway [ a ak:Takeaway ; rdf:value "1.5×–20.6×')
    assert facts[2].startswith("- ➕ ak:carriesPractice id:PRACTICE-check-on-verl — `data/LIT-168")
    check = run_cli("check", "--baseline", "main")
    assert check.exit_code == 1
    # Only the new violation counts and is not marked; the stated unknowns are existing.
    results = [line for line in check.stdout.splitlines()[:-1] if "(existing)" not in line]
    assert len(results) == 1
    assert check.stdout.splitlines()[-1].startswith("does not conform: 1 violation(s)")
    assert re.match(
        r"data/LIT-168\.ttl:\d+:\d+: AK009 Violation \[integrity\] .*\(LIT-168, "
        r"ak:carriesPractice id:PRACTICE-check-on-verl\)$",
        results[0],
    ), results[0]
    # A branch that only runs fmt: no change to the graph. The bundled files are already
    # canonical, so the review branch's hand-edited files are formatted here (the
    # reformatting of hand-written Turtle is also tested alone in test_diff).
    git(clone, "checkout", "-q", "-b", "fmt-only", "review")
    assert run_cli("fmt").exit_code == 0
    assert git(clone, "status", "--porcelain")  # fmt rewrote files
    commit_all(clone, "fmt")
    result = run_cli("diff", "review", "--format", "markdown")
    assert result.exit_code == 0
    assert result.stdout.endswith("No change to the graph.\n")
    git(clone, "checkout", "-q", "-b", "fmt-on-main", "main")
    assert run_cli("fmt").exit_code == 0
    git(clone, "commit", "-q", "--allow-empty", "-am", "fmt")
    assert run_cli("diff", "main").stdout == "no change to the graph from main to working tree\n"
    result = run_cli("diff", "main", "--format", "markdown")
    assert result.exit_code == 0
    assert result.stdout.endswith("No change to the graph.\n")


def test_a_baseline_that_does_not_load_counts_every_result_as_new(repo, no_temporaries):
    """main carries a Turtle error; the change that mends it must be able to pass (review3
    R3: exit 2 before, since the base could not be validated): a note says so, and every
    result is new, as against an empty base. A bad revision name stays exit 2."""
    broken = repo / "data" / "LIT-168.ttl"
    mended = broken.read_text(encoding="utf-8")
    broken.write_text(mended.replace(" .\n", " \n", 1), encoding="utf-8")
    commit_all(repo, "a file that does not parse")
    broken.write_text(mended, encoding="utf-8")
    result = run_cli("check", "--baseline", "HEAD")
    assert result.exit_code == 0, result.output
    assert "the baseline HEAD cannot be validated (" in result.stderr
    assert "LIT-168.ttl" in result.stderr and "every result is new" in result.stderr
    assert " 0 existing, 0 fixed" in result.stdout, result.stdout
    practice_on_infrastructure(repo)
    failing = run_cli("check", "--baseline", "HEAD")
    assert failing.exit_code == 1 and RULE2 in failing.stdout
    assert run_cli("check", "--baseline", "no-such-revision").exit_code == 2


def unsupported_claim(root: Path, name: str, above: bool = False) -> None:
    """Rule 7: LIT-168 makes the reproducibility claim ``name``, which rests on nothing,
    written after the entry's statements (or with ``above``, before the entry's)."""
    path = root / "data" / "LIT-168.ttl"
    text = path.read_text(encoding="utf-8")
    text = text.replace("ak:makesClaim ", f"ak:makesClaim id:{name}, ", 1)
    claim = f'id:{name} a ak:ReproducibilityClaim ;\n    rdfs:label "{name}" .\n'
    if above:
        text = text.replace("id:LIT-168 a ", f"{claim}\nid:LIT-168 a ", 1)
    else:
        text += f"\n{claim}"
    path.write_text(text, encoding="utf-8")


@pytest.mark.parametrize("above", [False, True])
def test_a_second_result_of_one_rule_entry_path_is_new(repo, tmp_path, above):
    """hunt7 #1: results were matched as a set of (rule, entry, path, value), so a new
    unsupported claim of an entry that had one passed as existing (exit 0). They are
    matched as a multiset, and a claim by its own IRI: the new one is new wherever it is
    written."""
    shutil.copytree(repo / "data", tmp_path / "old" / "data")
    unsupported_claim(tmp_path / "old", "LIT-168-old")
    unsupported_claim(repo, "LIT-168-old")
    unsupported_claim(repo, "LIT-168-new", above=above)
    result = run_cli("check", "--select", "AK007", "--baseline", str(tmp_path / "old"))
    assert result.exit_code == 1, result.output
    lines = result.stdout.splitlines()
    assert lines[-1].startswith(
        "does not conform: 1 violation(s), 0 warning(s), 0 waived, 1 existing, 0 fixed"
    )
    doc = json.loads(
        run_cli(
            "validate", "--select", "AK007", "--baseline", str(tmp_path / "old"), "--format", "json"
        ).stdout
    )
    text = (repo / "data" / "LIT-168.ttl").read_text(encoding="utf-8").splitlines()
    states = {text[r["line"] - 1].split()[0]: r["baselineState"] for r in doc["results"]}
    assert states == {"id:LIT-168-old": "unchanged", "id:LIT-168-new": "new"}


WAIVER = """@prefix ak: <https://w3id.org/anthology-kg/ns#> .
@prefix aks: <https://w3id.org/anthology-kg/shapes#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .

<waiver/SOTA-154-rule9> a ak:Waiver ;
    ak:waives <SOTA-154> ;
    ak:rule "AK009" ;
    rdfs:comment "LIT-999 is being written" ;
    ak:expires "{expires}"^^xsd:date .
"""


def states(*args: str) -> list[tuple[str, str, bool]]:
    """Code, baseline state and waived of each result of validate --format json but the
    bundled anthology's Info results."""
    doc = json.loads(run_cli("validate", "--format", "json", *args).stdout)
    return sorted(
        (r["code"], r["baselineState"], r["waived"])
        for r in doc["results"]
        if r["severity"] != "Info"
    )


def test_a_result_waived_before_and_live_now_is_new(repo, no_temporaries):
    """hunt21 #1: a change that deleted a waiver (or let it expire) passed ``check
    --baseline`` (the result was existing, exit 0), and main then failed: the waiver is the
    part of the base that accepted the result, so a result waived there and live now is
    new. Waived there and here, or newly waived, it stays not counted."""
    dangling_reference(repo)
    (repo / "waivers.ttl").write_text(WAIVER.format(expires="2999-12-31"), encoding="utf-8")
    commit_all(repo, "a waived violation")
    assert run_cli("check", "--baseline", "HEAD").exit_code == 0
    assert states("--baseline", "HEAD") == [("AK009", "unchanged", True)]

    (repo / "waivers.ttl").unlink()  # the waiver deleted
    result = run_cli("check", "--baseline", "HEAD")
    assert result.exit_code == 1, result.output
    (line,) = [line for line in result.stdout.splitlines() if " AK009 " in line]
    assert "AK009 Violation [integrity]" in line
    assert re.search(r" 0 waived, \d+ existing, 0 fixed", result.stdout.splitlines()[-1])
    assert states("--baseline", "HEAD") == [("AK009", "new", False)]
    sarif = run_cli("validate", "--baseline", "HEAD", "--format", "sarif")
    assert sarif.exit_code == 1
    assert sarif_states(sarif) == [("AK009", "SOTA-154", "new")]

    # The waiver expired: its own AK000 is new, and so is the result it no longer waives.
    (repo / "waivers.ttl").write_text(WAIVER.format(expires="2001-01-01"), encoding="utf-8")
    assert run_cli("check", "--baseline", "HEAD").exit_code == 1
    assert states("--baseline", "HEAD") == [("AK000", "new", False), ("AK009", "new", False)]

    # The reverse: live on the base, waived now: not counted (existing and waived).
    commit_all(repo, "the waiver expired")
    (repo / "waivers.ttl").write_text(WAIVER.format(expires="2999-12-31"), encoding="utf-8")
    assert run_cli("check", "--baseline", "HEAD").exit_code == 0
    assert states("--baseline", "HEAD") == [
        ("AK000", "absent", False),
        ("AK009", "unchanged", True),
    ]


def test_a_base_without_data_files_makes_every_result_new(repo, no_temporaries):
    """hunt21 #7: the first pull request of a new anthology repository, whose main has a
    README and data/.gitkeep, failed `check --baseline main` with 'not an anthology', exit
    2, conforming or not. Such a base is an anthology of no entries: every result is new,
    and a note says so. A revision that does not exist stays exit 2."""
    git(repo, "checkout", "-q", "--orphan", "new-main")
    git(repo, "rm", "-q", "-r", "--cached", "data")
    shutil.move(repo / "data", repo.parent / "entries")
    (repo / "data").mkdir()
    (repo / "data" / ".gitkeep").write_text("", encoding="utf-8")
    (repo / "README.md").write_text("An anthology\n", encoding="utf-8")
    commit_all(repo, "a new anthology")
    git(repo, "checkout", "-q", "-b", "first-entries")
    shutil.rmtree(repo / "data")
    shutil.move(repo.parent / "entries", repo / "data")
    commit_all(repo, "the first entries")
    note = "anthology-kg: new-main has no data/*.ttl: an anthology of no entries"
    result = run_cli("check", "--baseline", "new-main")
    assert result.exit_code == 0, result.output
    assert result.stderr == note + " (every result is new)\n"
    alone = run_cli("check").stdout.replace(" 0 waived, ", " 0 waived, 0 existing, 0 fixed, ")
    assert result.stdout == alone  # the infos, none of them existing
    practice_on_infrastructure(repo)
    result = run_cli("check", "--baseline", "new-main")
    assert result.exit_code == 1 and RULE2 in result.stdout
    assert {
        r
        for _, _, r in sarif_states(
            run_cli("validate", "--baseline", "new-main", "--format", "sarif")
        )
    } == {"new"}
    for command in ("check", "validate"):
        missing = run_cli(command, "--baseline", "old-main")
        assert missing.exit_code == 2 and "unknown revision 'old-main'" in missing.stderr
