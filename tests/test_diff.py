"""`diff`: the semantic difference of two states of an anthology, on real git repositories."""

from __future__ import annotations

import functools
import json
import re
import shutil
import tempfile
from pathlib import Path

import pyoxigraph as ox
import pytest
from bundled import CONFOUNDERS_COLUMNS, ES_GAP
from conftest import edit, run_cli
from gitrepo import git

from anthology_kg.diff import diff_states, load_state, parse_data
from anthology_kg.diffreport import ADDED_GRAPH, REMOVED_GRAPH
from anthology_kg.resources import bundled_dir
from anthology_kg.revisions import read_folder, resolve_states

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

ARXIV = "data/ARXIV-2409.19256.ttl"
TAKEAWAY_3 = "1.53×–20.57× throughput over the systems baselines of the day"


def commit_all(repo: Path, message: str) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)


@functools.cache
def _committed_bundled(base: Path) -> Path:
    """A git repository in ``base`` holding a copy of the bundled anthology, committed on
    main: made once a test process (``base`` is its temporary folder), as its git init,
    add and commit cost more than a copy of it."""
    root = base / "bundled-repository" / "repo"
    shutil.copytree(bundled_dir() / "data", root / "data")
    git(root.parent, "init", "-q", "-b", "main", str(root))
    commit_all(root, "the bundled anthology")
    return root


@pytest.fixture
def repo(tmp_path: Path, tmp_path_factory, monkeypatch) -> Path:
    """A git repository holding a copy of the bundled anthology, committed on main (a
    copy of ``_committed_bundled``'s); the working directory is the repository."""
    root = tmp_path / "repo"
    shutil.copytree(_committed_bundled(tmp_path_factory.getbasetemp()), root, symlinks=True)
    monkeypatch.chdir(root)
    return root


def change_takeaway(root: Path) -> None:
    edit(root, ARXIV, TAKEAWAY_3, "1.5×–20.6× throughput over the systems baselines of the day")


def give_practice(root: Path, relative: str = "data/LIT-168.ttl") -> None:
    edit(
        root,
        relative,
        "ak:techniqueCount 4 .",
        "ak:techniqueCount 4 ;\n"
        '    ak:carriesPractice [ a ak:Practice ; rdfs:label "Check on verl" ] .',
    )


def diff_json(*args: str) -> tuple[int, dict]:
    result = run_cli("diff", *args, "--format", "json")
    return result.exit_code, json.loads(result.stdout)


# -- by entry -------------------------------------------------------------------------


def test_no_change_exits_0(repo):
    result = run_cli("diff")
    assert result.exit_code == 0
    assert result.stdout == "no change to the graph from HEAD to working tree\n"


def test_added_entry(repo):
    (repo / "data" / "ARXIV-2501.00001.ttl").write_text(
        "@prefix ak: <https://w3id.org/anthology-kg/ns#> .\n"
        "@prefix dcterms: <http://purl.org/dc/terms/> .\n\n"
        '<ARXIV-2501.00001> a ak:Reference ;\n    dcterms:identifier "ARXIV-2501.00001" ;\n'
        '    dcterms:title "A new work" ;\n    ak:category ak:method .\n',
        encoding="utf-8",
    )
    code, doc = diff_json()
    assert code == 1
    (entry,) = doc["entries"]
    assert (entry["identifier"], entry["status"], entry["label"]) == (
        "ARXIV-2501.00001",
        "added",
        "A new work",
    )
    assert (entry["file"], entry["line"]) == ("data/ARXIV-2501.00001.ttl", 4)
    facts = {(f["predicate"], f["object"], f["line"]) for f in entry["added"]}
    assert facts == {
        ("a", "ak:Reference", 4),
        ("dcterms:identifier", '"ARXIV-2501.00001"', 5),
        ("dcterms:title", '"A new work"', 6),
        ("ak:category", "ak:method", 7),
    }
    assert entry["removed"] == []
    assert doc["counts"]["added"] == 1


def test_removed_entry(repo):
    (repo / "data" / "SOTA-154.ttl").unlink()
    code, doc = diff_json()
    assert code == 1
    statuses = {e["identifier"]: e["status"] for e in doc["entries"]}
    assert statuses["SOTA-154"] == "removed"
    removed = next(e for e in doc["entries"] if e["identifier"] == "SOTA-154")
    assert removed["added"] == [] and removed["removed"]
    assert removed["file"] == "data/SOTA-154.ttl"  # where it was
    # Nothing else changed: the entries pointing at SOTA-154 still say what they said.
    assert set(statuses) == {"SOTA-154"}


def test_changed_takeaway_is_one_removed_and_one_added(repo):
    change_takeaway(repo)
    result = run_cli("diff")
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    # The record states no title (a stated unknown), so the heading has no label.
    assert lines[0] == "changed ARXIV-2409.19256  (data/ARXIV-2409.19256.ttl:12)"
    assert lines[1].startswith('  - ak:takeaway [ a ak:Takeaway ; rdf:value "1.53×–20.57×')
    assert lines[1].endswith("; ak:position 3 ]")
    # The line where the changed takeaway's "[" is written (in the object list).
    written = (repo / ARXIV).read_text(encoding="utf-8").splitlines()
    text_line = next(n for n, line in enumerate(written, 1) if "1.5×–20.6×" in line)
    text_line = max(n for n in range(1, text_line) if "[" in written[n - 1])
    assert written[text_line - 1] in ("    ak:takeaway [", "    ], [")
    assert lines[2].startswith('  + ak:takeaway [ a ak:Takeaway ; rdf:value "1.5×–20.6×')
    assert lines[2].endswith(f"; ak:position 3 ]  data/ARXIV-2409.19256.ttl:{text_line}")
    assert len(lines) == 4
    assert lines[3] == (
        "HEAD → working tree: 1 changed, 0 added, 0 removed, 0 renamed entries; "
        "1 fact(s) added, 1 removed"
    )


def test_moved_blank_node_is_no_change(repo):
    # The takeaways written in another order, the figure as a labelled blank node at the end.
    path = repo / ARXIV
    text = path.read_text(encoding="utf-8")
    head, figure = text.split("    ak:figure [\n")
    text = head + "    ak:figure _:fig .\n\n_:fig " + figure.rsplit("]", 1)[0].strip() + " .\n"
    takeaways = re.findall(r"\[\n        a ak:Takeaway ;.*?\n    \]", text, re.DOTALL)
    assert len(takeaways) == 3
    for old, new in zip(takeaways, reversed(takeaways), strict=True):
        text = text.replace(old, new.replace("a ak:Takeaway", "a ak:TAKEAWAY"), 1)
    path.write_text(text.replace("ak:TAKEAWAY", "ak:Takeaway"), encoding="utf-8")
    assert path.read_text(encoding="utf-8") != git(repo, "show", f"HEAD:{ARXIV}")
    result = run_cli("diff")
    assert result.stdout == "no change to the graph from HEAD to working tree\n"
    assert result.exit_code == 0


def _written_twice(root: Path) -> None:
    """Takeaway 3 of ARXIV-2409.19256 written a second time, the same words."""
    text = (root / ARXIV).read_text(encoding="utf-8")
    end = text.index("        ak:position 3\n    ]") + len("        ak:position 3\n    ]")
    start = text.rindex("], [", 0, end) + len("], [")
    (root / ARXIV).write_text(text[:end] + ", [" + text[start:end] + text[end:], "utf-8")


def test_block_written_twice_is_a_second_blank_node(repo):
    # RDF: a "[ ... ]" written twice is two blank nodes, 4 more triples, not the same one.
    _written_twice(repo)
    result = run_cli("diff")
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[1].startswith('  + ak:takeaway [ a ak:Takeaway ; rdf:value "1.53×–20.57×')
    written = (repo / ARXIV).read_text(encoding="utf-8").splitlines()
    second = [n for n, line in enumerate(written, 1) if line == "    ], ["][-1]
    assert lines[1].endswith(f"; ak:position 3 ]  data/ARXIV-2409.19256.ttl:{second}")
    assert lines[-1].endswith("1 fact(s) added, 0 removed")
    commit_all(repo, "twice")
    git(repo, "checkout", "-q", "HEAD~1", "--", ARXIV)  # and back: one copy removed
    code, doc = diff_json()
    assert code == 1 and doc["counts"]["factsRemoved"] == 1
    assert doc["entries"][0]["removed"][0]["object"].startswith("[ a ak:Takeaway ;")


def test_copies_of_blank_nodes_are_counted():
    def facts(text: str):
        return parse_data(text.encode(), "x.ttl").facts

    p = "@prefix e: <http://e/> . "
    once = p + "e:s e:p [ e:q [ e:r 1 ] ] . [] e:t 1 ."
    # A nested block twice, a top-level one twice, a shared node's group twice: each copy
    # counts; swapping copies, or writing them in another order, changes nothing.
    assert len(facts(p + "e:s e:p [ e:q [ e:r 1 ], [ e:r 1 ] ] .")) == 5
    assert facts(once) != facts(p + "e:s e:p [ e:q [ e:r 1 ], [ e:r 1 ] ] . [] e:t 1 .")
    assert facts(once) != facts(once + " [] e:t 1 .")
    assert len(facts(once + " [] e:t 1 .")) == len(facts(once)) + 1
    shared = p + "e:s e:p _:x . e:o e:p _:x . _:x e:q 1 ."
    twice = shared + " e:s e:p _:y . e:o e:p _:y . _:y e:q 1 ."
    assert len(facts(twice)) == 2 * len(facts(shared)) == 6
    swapped = p + "e:o e:p _:b, _:a . _:a e:q 1 . e:s e:p _:a, _:b . _:b e:q 1 ."
    assert facts(twice) == facts(swapped)


def _states(tmp_path: Path, **folders: dict[str, str]) -> dict:
    """A state per keyword: a folder of data files (name to Turtle text)."""
    states = {}
    for name, files in folders.items():
        (tmp_path / name / "data").mkdir(parents=True)
        for file, text in files.items():
            (tmp_path / name / "data" / file).write_text(text, encoding="utf-8")
        states[name] = read_folder(tmp_path / name, name)
    return states


def test_copies_in_two_files_are_two_blank_nodes(tmp_path):
    head = "@prefix e: <http://e/> .\n"
    block = head + "e:s e:p [ e:q 1 ] .\n"
    top = head + "[] e:t 1 .\n"
    s = _states(
        tmp_path,
        one={"a.ttl": block + top},
        two={"a.ttl": block + top, "b.ttl": block + top},
        moved={"a.ttl": head + "e:x e:y 2 .\n", "b.ttl": block + top, "c.ttl": block + top},
    )
    more = diff_states(s["one"], s["two"])
    assert len(more.added) == 3  # a second [ e:q 1 ] under e:s (2 triples), a second []
    lines = {(c.file, c.line) for e in more.entries for c in e.added if c.subject == HTTP_E_S}
    assert lines == {(str(tmp_path / "two" / "data" / "b.ttl"), 2)}
    fewer = diff_states(s["two"], s["one"])
    assert len(fewer.removed) == 3 and not fewer.added
    # Which file holds a copy is no change to the graph.
    assert diff_states(s["two"], s["moved"]).added == {
        (HTTP_E_X, ox.NamedNode("http://e/y"), ox.Literal("2", datatype=XSD_INTEGER))
    }


def test_a_fact_about_a_blank_subject_has_its_line(tmp_path):
    head = "@prefix e: <http://e/> .\ne:s e:has _:a .\n"
    cycle = '_:a e:next _:b ; e:v "1" .\n_:b e:next _:a ;\n  e:v "{}" .\n[] e:t {} .\n'
    s = _states(
        tmp_path,
        old={"x.ttl": head + cycle.format(2, 1)},
        new={"x.ttl": head + cycle.format(3, 2)},
    )
    diff = diff_states(s["old"], s["new"])
    lines = sorted(
        (diff.namer.predicate(c.predicate), diff.namer.term(c.object)[:3], c.line)
        for e in diff.entries
        for c in e.added
    )
    # A cycle's blank nodes told apart by their other facts; a top-level [] by its content.
    assert lines == [
        ("<http://e/has>", "_:c", 2),
        ("<http://e/next>", "_:c", 3),
        ("<http://e/next>", "_:c", 4),
        ("<http://e/t>", "2", 6),
        ("<http://e/v>", '"1"', 3),
        ("<http://e/v>", '"3"', 5),
    ]


def test_literals_of_one_text_are_placed_by_datatype_and_language(tmp_path):
    """ "3", 3 and "3"@en are three facts: each is at the line that writes it, under an
    IRI subject and inside a blank node alike, not all at the first "3" written."""
    head = "@prefix e: <http://e/> .\n"
    written = 'e:s e:v "3" ;\n  e:v 3 ;\n  e:v "3"@EN ;\n  e:b [ e:w 3 ],\n  [ e:w "3" ] .\n'
    s = _states(tmp_path, old={"x.ttl": head}, new={"x.ttl": head + written})
    diff = diff_states(s["old"], s["new"])
    lines = sorted(
        (diff.namer.predicate(c.predicate), diff.namer.term(c.object), c.line)
        for e in diff.entries
        for c in e.added
    )
    assert lines == [
        ("<http://e/b>", '[ <http://e/w> "3" ]', 6),
        ("<http://e/b>", "[ <http://e/w> 3 ]", 5),
        ("<http://e/v>", '"3"', 2),
        ("<http://e/v>", '"3"@en', 4),
        ("<http://e/v>", "3", 3),
    ]


HTTP_E_S, HTTP_E_X = ox.NamedNode("http://e/s"), ox.NamedNode("http://e/x")
XSD_INTEGER = ox.NamedNode("http://www.w3.org/2001/XMLSchema#integer")


HAND_WRITTEN = """\
PREFIX ak: <https://w3id.org/anthology-kg/ns#>
@prefix dcterms: <http://purl.org/dc/terms/> .
# Written by hand: full IRIs, one predicate per statement, a labelled blank node.
<https://w3id.org/anthology-kg/id/LIT-168> ak:techniqueCount 4 ; ak:notStated _:about .
_:about a ak:StatedUnknown ; ak:unknownProperty ak:about ; ak:lookedIn <ARXIV-2409.19256> ;
  ak:statedAs "DAPO" .
<LIT-168> <http://www.w3.org/2000/01/rdf-schema#label> "DAPO" ;
  a ak:LiteratureRecord ; ak:category ak:method ;
  dcterms:identifier "LIT-168" ; ak:makesClaim <LIT-168-reproducible> ;
  ak:releasedOn <CODEBASE-verl> ; ak:takeaway _:t .
_:t a ak:Takeaway ; <http://www.w3.org/1999/02/22-rdf-syntax-ns#value> "Four techniques" ;
  ak:position 1 .
<LIT-168-reproducible> ak:restsOn <CODEBASE-verl> ;
   a ak:ReproducibilityClaim ; <http://www.w3.org/2000/01/rdf-schema#label> "DAPO is reproducible" .
"""


def test_reformatted_file_is_no_change(repo):
    (repo / "data" / "LIT-168.ttl").write_text(HAND_WRITTEN, encoding="utf-8")
    commit_all(repo, "hand-written Turtle")
    assert run_cli("fmt").exit_code == 0
    formatted = (repo / "data" / "LIT-168.ttl").read_text(encoding="utf-8")
    assert formatted != HAND_WRITTEN and "_:t" not in formatted
    result = run_cli("diff")
    assert result.stdout == "no change to the graph from HEAD to working tree\n"
    assert result.exit_code == 0


def test_renamed_entry(repo):
    old = repo / "data" / "SOTA-154.ttl"
    text = old.read_text(encoding="utf-8").replace("SOTA-154", "SOTA-999")
    (repo / "data" / "SOTA-999.ttl").write_text(text, encoding="utf-8")
    old.unlink()
    code, doc = diff_json()
    assert code == 1
    by_id = {e["identifier"]: e for e in doc["entries"]}
    renamed = by_id.pop("SOTA-999")
    assert renamed["status"] == "renamed" and renamed["previousIdentifier"] == "SOTA-154"
    # Its facts are removed under the old IRI and added under the new (hunt20 #10: the
    # lists were empty and the counts 0 while the N-Quads patch held 3 and 3 triples).
    label = '"published GRPO and PPO checkpoints"'
    said = [("a", "ak:SotaRecord"), ("dcterms:identifier", None), ("rdfs:label", label)]
    for key, identifier in (("removed", "SOTA-154"), ("added", "SOTA-999")):
        facts = [(f["subject"], f["predicate"], f["object"]) for f in renamed[key]]
        assert facts == [(identifier, p, o or f'"{identifier}"') for p, o in said], key
    assert [(f["file"], f["line"]) for f in renamed["added"]] == [
        ("data/SOTA-999.ttl", n) for n in (7, 8, 9)
    ]
    assert doc["counts"]["renamed"] == 1 and doc["counts"]["removed"] == 0
    assert (doc["counts"]["factsAdded"], doc["counts"]["factsRemoved"]) == (3, 3)
    # The arms and the seed entry still point at the old identifier, now dangling.
    assert "SOTA-154" not in by_id
    # Every format counts what the patch holds.
    patch = run_cli("diff", "--format", "nquads").stdout.splitlines()
    assert sum(line.endswith(f"<{ADDED_GRAPH}> .") for line in patch) == 3
    assert sum(line.endswith(f"<{REMOVED_GRAPH}> .") for line in patch) == 3
    text = run_cli("diff").stdout
    assert '  - SOTA-154 dcterms:identifier "SOTA-154"\n' in text, text
    assert '  + dcterms:identifier "SOTA-999"  data/SOTA-999.ttl:8\n' in text, text
    assert text.endswith("1 renamed entries; 3 fact(s) added, 3 removed\n"), text
    markdown = run_cli("diff", "--format", "markdown").stdout
    assert "| SOTA-999 | renamed (was SOTA-154) | 3 | 3 | data/SOTA-999.ttl:7 |" in markdown


def test_revisions_and_ranges(repo):
    git(repo, "checkout", "-q", "-b", "topic")
    change_takeaway(repo)
    commit_all(repo, "takeaway")
    git(repo, "checkout", "-q", "main")
    give_practice(repo)
    commit_all(repo, "practice on main")
    git(repo, "checkout", "-q", "topic")
    # main...topic: what topic changed since it left main (not main's own practice).
    code, doc = diff_json("main...topic")
    assert code == 1
    assert [e["identifier"] for e in doc["entries"]] == ["ARXIV-2409.19256"]
    # main..topic and two revisions: the states themselves, so main's practice shows too.
    for args in (("main..topic",), ("main", "topic")):
        code, doc = diff_json(*args)
        assert [e["identifier"] for e in doc["entries"]] == ["ARXIV-2409.19256", "LIT-168"]
    code, doc = diff_json("HEAD")
    assert code == 0 and doc["equal"] is True and doc["entries"] == []


def test_two_folders(tmp_path):
    for name in ("a", "b"):
        shutil.copytree(bundled_dir() / "data", tmp_path / name / "data")
    give_practice(tmp_path / "b")
    result = run_cli("diff", str(tmp_path / "a"), str(tmp_path / "b"))
    assert result.exit_code == 1
    assert result.stdout.startswith('changed LIT-168 "DAPO"')
    assert run_cli("diff", str(tmp_path / "a"), str(tmp_path / "a")).exit_code == 0


def test_exit_zero(repo):
    change_takeaway(repo)
    assert run_cli("diff", "--exit-zero").exit_code == 0


def test_same_bytes_parsed_once(repo):
    change_takeaway(repo)
    old, new = resolve_states(repo)
    cache: dict = {}
    load_state(old, cache=cache)
    load_state(new, cache=cache)
    assert len(cache) == len(old.data_files()) + 1


def test_blank_node_cycle_keyed_by_canonicalization():
    def facts(text: str):
        return parse_data(text.encode(), "x.ttl").facts

    cycle = "<http://e/s> <http://e/p> _:a . _:a <http://e/q> _:b . _:b <http://e/q> _:a ."
    same = "<http://e/s> <http://e/p> _:y . _:x <http://e/q> _:y . _:y <http://e/q> _:x ."
    other = "<http://e/s> <http://e/p> _:a . _:a <http://e/q> _:a ."
    assert facts(cycle) == facts(same)
    assert facts(cycle) != facts(other)


# -- formats --------------------------------------------------------------------------


def test_markdown_table_and_sections(repo):
    change_takeaway(repo)
    give_practice(repo)
    result = run_cli("diff", "--format", "markdown")
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0] == "### Anthology graph: `HEAD` → `working tree`"
    header = lines.index("| entry | change | facts added | facts removed | where |")
    assert lines[header + 1] == "|---|---|---|---|---|"
    rows = [line.split(" | ") for line in lines[header + 2 : header + 4]]
    assert [row[0].lstrip("| ") for row in rows] == ["ARXIV-2409.19256", "LIT-168"]
    assert [row[1:4] for row in rows] == [["changed", "1", "1"], ["changed", "1", "0"]]
    assert lines[header + 4] == ""
    assert result.stdout.count("<details>") == result.stdout.count("</details>") == 2
    summaries = re.findall(r"<summary><b>([^<]+)</b>", result.stdout)
    assert summaries == ["ARXIV-2409.19256", "LIT-168"]
    practice = '- ➕ ak:carriesPractice [ a ak:Practice ; rdfs:label "Check on verl" ] — `data/LIT'
    assert practice in result.stdout


def test_markdown_escapes_markup(repo):
    edit(repo, "data/LIT-168.ttl", 'rdfs:label "DAPO"', 'rdfs:label "<script>x</script> | y"')
    out = run_cli("diff", "--format", "markdown").stdout
    assert "<script>" not in out
    assert "&lt;script&gt;x&lt;/script&gt; &#124; y" in out


def test_markdown_links_and_mentions_nothing(repo):
    # GitHub would link a bare URL, www. name or e-mail address (GFM autolinks) and notify
    # @someone; it finds mentions in the rendered text, past any character reference.
    label = "see https://x.example/a and WWW.x.example, cc @someone on #12 or me@x.example"
    edit(repo, "data/LIT-168.ttl", 'rdfs:label "DAPO"', f'rdfs:label "{label}"')
    out = run_cli("diff", "--format", "markdown").stdout
    for linked in ("https://", "WWW.", "@someone", "#12", "@x.example"):
        assert linked not in out
    shown = [line for line in out.splitlines() if "see https" in line]
    assert len(shown) == 2  # the summary and the fact added
    assert all(label in line.replace("&#8288;", "") for line in shown)


def test_bidi_controls_are_escaped(repo):
    edit(repo, "data/LIT-168.ttl", 'rdfs:label "DAPO"', 'rdfs:label "DAPO \u202e}llac{ \u2066"')
    for shown in ("text", "markdown"):  # (JSON carries the data as it is)
        out = run_cli("diff", "--format", shown).stdout
        assert "\u202e" not in out and "\u2066" not in out
        assert "\\u202e}llac{ \\u2066" in out.replace("&#92;", "\\").replace("\\\\", "\\")


def test_markdown_of_no_change(repo):
    result = run_cli("diff", "--format", "markdown")
    assert (
        result.stdout == "### Anthology graph: `HEAD` → `working tree`\n\nNo change to the graph.\n"
    )


def test_json_schema(repo):
    change_takeaway(repo)
    code, doc = diff_json()
    assert set(doc) == {"schema", "old", "new", "equal", "counts", "ruleFiles", "entries"}
    assert doc["schema"] == "anthology-kg/diff/1"
    assert (doc["old"], doc["new"], doc["equal"]) == ("HEAD", "working tree", False)
    assert set(doc["counts"]) == {
        "added",
        "removed",
        "renamed",
        "changed",
        "factsAdded",
        "factsRemoved",
    }
    (entry,) = doc["entries"]
    assert set(entry) == {
        "identifier",
        "iri",
        "status",
        "previousIdentifier",
        "label",
        "file",
        "line",
        "added",
        "removed",
    }
    assert entry["iri"] == "https://w3id.org/anthology-kg/id/ARXIV-2409.19256"
    (added,) = entry["added"]
    assert set(added) == {"subject", "predicate", "object", "file", "line"}
    (removed,) = entry["removed"]
    assert set(removed) == {"subject", "predicate", "object"}


def _keyed(quads) -> set:
    """Triples with blank nodes keyed by content, as the diff keys them."""
    text = ox.serialize(
        [ox.Triple(q.subject, q.predicate, q.object) for q in quads], format=ox.RdfFormat.N_TRIPLES
    )
    return set(parse_data(text or b"", "patch").facts)


def test_nquads_patch_applies(repo):
    change_takeaway(repo)
    give_practice(repo)
    (repo / "data" / "SOTA-154.ttl").unlink()
    result = run_cli("diff", "--format", "nquads")
    assert result.exit_code == 1
    quads = list(ox.parse(result.stdout.encode(), ox.RdfFormat.N_QUADS))
    graphs = {q.graph_name.value for q in quads}
    assert graphs == {ADDED_GRAPH, REMOVED_GRAPH}
    removed = [q for q in quads if q.graph_name.value == REMOVED_GRAPH]
    added = [q for q in quads if q.graph_name.value == ADDED_GRAPH]
    old, new = resolve_states(repo)
    before, after = load_state(old).facts, load_state(new).facts
    assert _keyed(removed) <= before and not (_keyed(removed) & after)
    assert (before - _keyed(removed)) | _keyed(added) == after
    assert result.stdout.splitlines() == sorted(result.stdout.splitlines())
    assert run_cli("diff", "--format", "nquads").stdout == result.stdout  # same bytes


# -- bad input ------------------------------------------------------------------------


@pytest.fixture
def no_temporaries(tmp_path, monkeypatch):
    """Temporary files go to a folder of their own, which must stay empty."""
    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    yield folder
    assert list(folder.iterdir()) == []


def _fails_cleanly(result, pattern: str) -> None:
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    assert re.search(pattern, result.stderr), result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_unknown_revision(repo, no_temporaries):
    _fails_cleanly(run_cli("diff", "no-such-branch"), r"unknown revision 'no-such-branch'")
    _fails_cleanly(run_cli("diff", "main...nope"), r"unknown revision 'nope'")
    _fails_cleanly(run_cli("diff", "--", "-x"), r"unknown revision '-x'")


def test_not_an_anthology(repo, tmp_path, no_temporaries):
    (tmp_path / "empty").mkdir()
    _fails_cleanly(run_cli("diff", str(tmp_path / "empty"), "HEAD"), r"not an anthology")
    _fails_cleanly(run_cli("diff", str(repo / "data" / "LIT-168.ttl")), r"unknown revision")


def test_a_revision_without_data_files_is_an_anthology_of_no_entries(repo, no_temporaries):
    """hunt21 #7: a revision with no data/*.ttl (a new repository's main, before the first
    entry) was 'not an anthology', exit 2, so the first pull request's diff failed CI. It is
    an anthology of no entries: every entry added (or removed), and a note says so."""
    entries = len(list((repo / "data").glob("*.ttl")))
    git(repo, "rm", "-q", "-r", "data")
    commit_all(repo, "no data")
    result = run_cli("diff", "HEAD", "HEAD~1")
    assert result.exit_code == 1, result.output
    assert result.stderr == (
        "anthology-kg: HEAD has no data/*.ttl: an anthology of no entries (everything is added)\n"
    )
    assert result.stdout.splitlines()[-1].startswith(
        f"HEAD → HEAD~1: 0 changed, {entries} added, 0 removed, 0 renamed entries; "
    )
    result = run_cli("diff", "HEAD~1", "HEAD", "--format", "json")
    assert result.exit_code == 1, result.output
    assert "(everything is removed)" in result.stderr
    doc = json.loads(result.stdout)
    assert (doc["counts"]["removed"], doc["counts"]["added"]) == (entries, 0)


def test_revision_with_bad_turtle_names_revision_file_and_line(repo, no_temporaries):
    edit(repo, "data/LIT-168.ttl", 'rdfs:label "DAPO" ;', 'rdfs:label "DAPO ;')
    commit_all(repo, "broken")
    _fails_cleanly(
        run_cli("diff", "HEAD~1", "HEAD"), r"^HEAD:data/LIT-168\.ttl:\d+: Turtle syntax error: "
    )


def test_not_a_git_repository(tmp_path, monkeypatch, no_temporaries):
    shutil.copytree(bundled_dir() / "data", tmp_path / "plain" / "data")
    monkeypatch.chdir(tmp_path / "plain")
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    _fails_cleanly(run_cli("diff"), r"not a git repository")


def test_a_folder_named_like_a_revision(repo, no_temporaries):
    # A folder that holds no anthology does not hide the branch of that name.
    (repo / "main").mkdir()
    (repo / "main" / "notes.txt").write_text("x\n", encoding="utf-8")
    change_takeaway(repo)
    result = run_cli("diff", "main")
    assert result.exit_code == 1, result.stderr
    assert result.stdout.splitlines()[-1].startswith("main → working tree: 1 changed")
    # One that does is the folder: the working tree's own anthology, no change.
    shutil.copytree(repo / "data", repo / "main" / "data")
    assert run_cli("diff", "main").stdout.splitlines()[-1] == (
        "no change to the graph from main to working tree"
    )


def test_no_such_folder_outside_a_repository_is_named(tmp_path, monkeypatch, no_temporaries):
    shutil.copytree(bundled_dir() / "data", tmp_path / "a" / "data")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))
    _fails_cleanly(
        run_cli("diff", "a", "nonexist"), r"not a git repository, and no folder 'nonexist'"
    )


def test_read_folder_state_lists_what_the_loader_reads(repo):
    (repo / "data" / "notes.txt").write_text("not Turtle", encoding="utf-8")
    (repo / "queries").mkdir()
    (repo / "queries" / "mine.rq").write_text("SELECT * {}", encoding="utf-8")
    state = read_folder(repo)
    assert "data/notes.txt" not in state.files and "queries/mine.rq" in state.files
    assert diff_states(state, state).equal


# -- a stored query's answer in two states ------------------------------------------------

NEW_ARM = """
id:COMPARISON-es-baselines-dapo a ak:Arm ;
    rdfs:label "DAPO arm" ;
    ak:algorithm ak:GRPO .
"""


def add_arm_without_codebase(root: Path) -> None:
    path = root / "data" / "COMPARISON-es-baselines.ttl"
    edit(
        root,
        "data/COMPARISON-es-baselines.ttl",
        "ak:arm id:",
        "ak:arm id:COMPARISON-es-baselines-dapo, id:",
    )
    path.write_text(path.read_text(encoding="utf-8") + NEW_ARM, encoding="utf-8")


def test_query_rows_that_appear(repo, no_temporaries):
    add_arm_without_codebase(repo)
    result = run_cli("diff", "--query", "confounders")
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0].split() == CONFOUNDERS_COLUMNS
    assert lines[1].split() == [
        "+",
        "COMPARISON-es-baselines",
        "id:COMPARISON-es-baselines-dapo",
        "ak:GRPO",
        "ak:trainedWith",
    ]
    assert lines[2] == ("query confounders, HEAD → working tree: 1 row(s) appeared, 0 disappeared")
    doc = json.loads(run_cli("diff", "--query", "confounders", "--format", "json").stdout)
    assert set(doc) == {
        "schema",
        "query",
        "old",
        "new",
        "equal",
        "variables",
        "appeared",
        "disappeared",
    }
    assert doc["schema"] == "anthology-kg/query-diff/1" and doc["equal"] is False
    (row,) = doc["appeared"]
    assert (row["arm"], row["property"], row["checkpoints"]) == (
        "id:COMPARISON-es-baselines-dapo",
        "ak:trainedWith",
        "",
    )
    assert doc["disappeared"] == []
    markdown = run_cli("diff", "--query", "confounders", "--format", "markdown").stdout
    assert (
        "| | comparison | arm | algorithm | property | checkpoints | question | address |"
        in markdown
    )
    assert (
        "| ➕ | COMPARISON-es-baselines | id:COMPARISON-es-baselines-dapo | ak:GRPO |" in markdown
    )


def test_query_rows_that_disappear_between_revisions(repo, no_temporaries):
    edit(
        repo,
        "data/COMPARISON-es-baselines.ttl",
        ES_GAP,
        "    ak:algorithm ak:ES ;\n    ak:trainedWith id:CODEBASE-verl .",
    )
    commit_all(repo, "the ES arm ran on verl")
    code, doc = diff_json("HEAD~1", "HEAD", "--query", "confounders")
    assert code == 1
    assert [r["arm"] for r in doc["disappeared"]] == ["id:COMPARISON-es-baselines-es"]
    assert doc["appeared"] == []
    assert run_cli("diff", "HEAD", "--query", "confounders").exit_code == 0
    params = ("--query", "depends-on", "--param", "entry=CODEBASE-verl")
    assert run_cli("diff", "HEAD~1", "HEAD", *params).exit_code == 0


def test_query_of_the_state_itself(repo, no_temporaries):
    (repo / "queries").mkdir()
    query = repo / "queries" / "arms.rq"
    query.write_text(
        "#+ summary: arms\nPREFIX ak: <https://w3id.org/anthology-kg/ns#>\n"
        "SELECT ?arm WHERE { ?arm a ak:Arm } ORDER BY ?arm\n",
        encoding="utf-8",
    )
    commit_all(repo, "a query of our own")
    query.write_text(
        query.read_text(encoding="utf-8").replace("ak:Arm", "ak:Comparison"), encoding="utf-8"
    )
    code, doc = diff_json("--query", "arms")
    assert code == 1
    assert len(doc["disappeared"]) == 3 and [r["arm"] for r in doc["appeared"]] == [
        "COMPARISON-es-baselines"
    ]


def test_query_bad_input(repo, no_temporaries):
    for args, pattern in (
        (("--query", "nope"), r"no stored query 'nope'"),
        (("--query", "confounders", "--format", "nquads"), r"--format nquads does not apply"),
        (("--param", "entry=LIT-168"), r"--param needs --query"),
        (("nope", "--query", "confounders"), r"unknown revision 'nope'"),
        (("--query", "depends-on", "--param", "entry=LIT-999"), r"LIT-999"),
    ):
        _fails_cleanly(run_cli("diff", *args), pattern)


def test_query_or_entry_of_one_state_only_names_the_state(repo, no_temporaries):
    (repo / "queries").mkdir()
    query = "#+ summary: s\nSELECT ?s WHERE { ?s ?p ?o } LIMIT 1\n"
    (repo / "queries" / "new.rq").write_text(query, encoding="utf-8")
    _fails_cleanly(run_cli("diff", "--query", "new"), r"^HEAD: no stored query 'new'")
    commit_all(repo, "a query")
    _fails_cleanly(run_cli("diff", "HEAD", "HEAD~1", "--query", "new"), r"^HEAD~1: no stored")
    text = (repo / "data" / "CODEBASE-verl.ttl").read_text(encoding="utf-8")
    copy = text.replace("CODEBASE-verl", "CODEBASE-x")
    (repo / "data" / "CODEBASE-x.ttl").write_text(copy, encoding="utf-8")
    params = ("--query", "depends-on", "--param", "entry=CODEBASE-x")
    _fails_cleanly(run_cli("diff", *params), r"^HEAD: parameter 'entry': no entry 'CODEBASE-x'")


def test_rule_files_are_listed_apart_from_the_graph(repo):
    (repo / "queries").mkdir()
    (repo / "queries" / "mine.rq").write_text("SELECT * WHERE { ?s ?p ?o }\n", encoding="utf-8")
    (repo / "waivers.ttl").write_text("", encoding="utf-8")
    result = run_cli("diff")
    assert result.exit_code == 0  # the graph is the same
    assert result.stdout.splitlines() == [
        "added queries/mine.rq (not in the graph)",
        "added waivers.ttl (not in the graph)",
        "no change to the graph from HEAD to working tree",
    ]
    code, doc = diff_json()
    assert doc["ruleFiles"] == [
        {"path": "queries/mine.rq", "status": "added"},
        {"path": "waivers.ttl", "status": "added"},
    ]
    markdown = run_cli("diff", "--format", "markdown").stdout
    assert "`queries/mine.rq` (added), `waivers.ttl` (added)" in markdown


def test_anthology_in_a_subfolder_of_the_repository(tmp_path, monkeypatch):
    root = tmp_path / "repo"
    shutil.copytree(bundled_dir() / "data", root / "kb" / "data")
    git(tmp_path, "init", "-q", "-b", "main", str(root))
    commit_all(root, "an anthology in kb/")
    change_takeaway(root / "kb")
    monkeypatch.chdir(root)
    result = run_cli("--root", "kb", "diff", "--format", "json")
    assert result.exit_code == 1
    doc = json.loads(result.stdout)
    assert [(e["identifier"], e["file"]) for e in doc["entries"]] == [
        ("ARXIV-2409.19256", "kb/data/ARXIV-2409.19256.ttl")
    ]
    monkeypatch.chdir(root / "kb" / "data")  # the nearest folder holding data/ is kb
    assert run_cli("diff", "HEAD", "--format", "json").exit_code == 1


def test_fmt_diff_says_no_newline_at_end_of_file(bundled_copy):
    """A data file without its final newline: the only change fmt makes is adding it,
    and the diff says so as diff and git do (before: a '-' and a '+' of the same line)."""
    path = bundled_copy / "data" / "LIT-168.ttl"
    text = path.read_text(encoding="utf-8")
    assert text.endswith("\n")
    path.write_text(text.removesuffix("\n"), encoding="utf-8")
    last = text.removesuffix("\n").rsplit("\n", 1)[1]
    for flag in ("--diff", "--check"):
        result = run_cli("--root", str(bundled_copy), "fmt", flag)
        assert result.exit_code == 1
        assert f"\n-{last}\n\\ No newline at end of file\n+{last}\n" in result.stdout
