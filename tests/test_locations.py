"""Results located like a linter's: file, line and column of the triple at fault, and a
short stable code per rule, usable in --select, --ignore and waivers."""

import json
import shutil

import pytest
from conftest import FIXTURES, run_cli
from rdflib import URIRef

from anthology_kg.sourcemap import locate, written_triples

RULES = FIXTURES / "rules"
AK = "https://w3id.org/anthology-kg/ns#"
ID = "https://w3id.org/anthology-kg/id/"

TEXT = """PREFIX ak: <https://w3id.org/anthology-kg/ns#>
@prefix id: <https://w3id.org/anthology-kg/id/> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .

# a comment with "quotes" and ; , . [ ]
id:A a ak:LiteratureRecord ;
    ak:category ak:method, ak:evaluation ;
    ak:note "x; y. [z]"@en , '''two
lines''' ;
    ak:size "4"^^xsd:integer ;
    ak:figure [ ak:algorithm ak:RLHF ; ak:unit "\\u00d7" ] ;
    ak:restsOn <B>.
<B> ak:order ( ak:x ak:y ) ; ak:label "b" .
"""


def test_written_triples_carry_line_and_column():
    found = written_triples(TEXT, ID)
    where = {
        (str(w.predicate).rsplit("#")[-1], str(w.object)): (w.line, w.column) for w in found.triples
    }
    assert where[("category", AK + "method")] == (7, 5)  # first object: the predicate
    assert where[("category", AK + "evaluation")] == (7, 28)  # later ones: the object
    assert where[("note", "('literal', 'two\\nlines')")] == (8, 30)
    assert where[("size", "('literal', '4')")] == (10, 5)
    assert where[("unit", "('literal', '×')")] == (11, 40)
    assert where[("restsOn", ID + "B")] == (12, 5)
    assert where[("label", "('literal', 'b')")] == (13, 30)
    assert found.subjects[URIRef(ID + "B")] == (13, 1)


def test_locate_prefers_the_triple_then_a_nested_one_then_the_subject():
    found = written_triples(TEXT, ID)
    a, figure = URIRef(ID + "A"), object()
    category, algorithm = URIRef(AK + "category"), URIRef(AK + "algorithm")
    assert locate(found, a, a, category, URIRef(AK + "evaluation")) == (7, 28)
    assert locate(found, figure, a, algorithm, URIRef(AK + "RLHF")) == (11, 17)
    assert locate(found, a, a, URIRef(AK + "missing"), None) == (6, 1)


def test_unreadable_text_gives_no_positions_not_an_error():
    assert written_triples("id:A ak:b [ ak:c", ID).triples == []


def test_a_broken_rule_points_at_the_offending_triple():
    result = run_cli("--root", str(RULES / "rule9-bad"), "check")
    assert result.exit_code == 1
    where, rest = result.stdout.splitlines()[0].split(": ", 1)
    assert where.endswith("rule9-bad/data/LIT-001.ttl:9:36")  # the dcterms:references object
    assert rest.startswith("AK009 Violation [integrity] Integrity rule 9: ")


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_select_and_ignore_by_code_prefix_or_shape(engine):
    root = str(RULES / "rule8-bad")
    base = ("--root", root, "validate", "--engine", engine, "--format", "json")
    codes = lambda *a: {r["code"] for r in json.loads(run_cli(*base, *a).stdout)["results"]}  # noqa: E731
    assert codes() == {"AK008"}
    assert codes("--select", "AK00") == {"AK008"}
    assert codes("--select", "AK001,AK002") == set()
    assert run_cli(*base, "--ignore", "AK008").exit_code == 0
    shapes = {
        r["shape"]
        for r in json.loads(run_cli(*base, "--ignore", "Rule8UniqueIdentifier").stdout)["results"]
    }
    kinds = ("One", "Literature", "Decision", "Sota", "Note", "Reference")
    kinds += ("Codebase", "Comparison", "Sweep", "Question")
    assert shapes == {f"aks:Rule8{kind}Identifier" for kind in kinds}


def test_rules_lists_the_codes():
    lines = run_cli("rules").stdout.splitlines()
    codes = {line.split("\t")[4] for line in lines}
    assert codes == {f"AK{n:03d}" for n in range(1, 11)}


def test_a_waiver_may_name_the_rule_by_its_code(tmp_path):
    root = tmp_path / "w"
    shutil.copytree(RULES / "rule9-bad", root)
    (root / "waivers.ttl").write_text(
        "@prefix ak: <https://w3id.org/anthology-kg/ns#> .\n"
        "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
        "@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n"
        '<waiver/x> a ak:Waiver ; ak:waives <LIT-001> ; ak:rule "AK009" ;\n'
        '    rdfs:comment "being written" ; ak:expires "2999-01-01"^^xsd:date .\n',
        encoding="utf-8",
    )
    result = run_cli("--root", str(root), "check")
    assert result.exit_code == 0, result.stdout
    assert "AK009 Violation (waived: being written)" in result.stdout


def test_every_format_carries_the_column():
    root = str(RULES / "rule2-bad")
    github = run_cli("--root", root, "validate", "--format", "github").stdout
    assert ",line=8,col=5,title=AK002 " in github
    junit = run_cli("--root", root, "validate", "--format", "junit").stdout
    assert "LIT-001.ttl:8:5: AK002 " in junit
    doc = json.loads(run_cli("--root", root, "validate", "--format", "json").stdout)
    assert (doc["results"][0]["line"], doc["results"][0]["column"]) == (8, 5)


NEEDS_STATED_AS = """@prefix ak: <https://w3id.org/anthology-kg/ns#> .
@prefix sh: <http://www.w3.org/ns/shacl#> .
<urn:x:StatedAs> a sh:NodeShape ; sh:targetClass ak:StatedUnknown ;
    sh:property [ sh:path ak:statedAs ; sh:minCount 1 ] .
"""


def test_each_failing_blank_node_of_an_entry_is_a_result_at_its_own_place(bundled_copy):
    """hunt7 #8: the stated unknowns of the three arms of COMPARISON-es-baselines (blank
    nodes, one entry) failing one shape were one line and one count, at the entry's
    subject: results were made distinct after rendering. Each is a result, at the
    triple that holds it, on both engines."""
    shapes = bundled_copy / "ontology" / "shapes"
    shapes.mkdir(parents=True)
    (shapes / "mine.ttl").write_text(NEEDS_STATED_AS, encoding="utf-8")
    text = (bundled_copy / "data" / "COMPARISON-es-baselines.ttl").read_text(encoding="utf-8")
    holders = [n for n, line in enumerate(text.splitlines(), 1) if "ak:notStated [" in line]
    args = ("--root", str(bundled_copy), "check", "--select", "urn:x:StatedAs")
    fast = run_cli(*args)
    assert fast.exit_code == 1, fast.output
    assert run_cli(*args, "--engine", "reference").stdout == fast.stdout
    lines = fast.stdout.splitlines()
    located = [line.split(" ")[0] for line in lines if "COMPARISON-es-baselines" in line]
    assert [where.rsplit("/", 1)[1] for where in located] == [
        f"COMPARISON-es-baselines.ttl:{n}:5:"
        for n in holders[1:]  # the arms', not the entry's
    ]
    assert lines[-1].startswith(f"does not conform: {len(lines) - 1} violation(s)")


SHORT_LABELS = """@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix sh: <http://www.w3.org/ns/shacl#> .
<urn:x:ShortLabels> a sh:NodeShape ; sh:targetObjectsOf rdfs:label ; sh:maxLength 10 .
"""

BLANK_WAIVER = """@prefix ak: <https://w3id.org/anthology-kg/ns#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .

<waiver/named> a ak:Waiver ; ak:waives <LIT-168> ; ak:rule "AK007" ;
    rdfs:comment "old" ; ak:expires "2020-01-01"^^xsd:date .
[] a ak:Waiver ; ak:waives <LIT-168> ; ak:rule "AK005" ;
    rdfs:comment "old" ; ak:expires "2020-01-01"^^xsd:date .
"""


def test_a_literal_focus_and_a_blank_waiver_are_located(bundled_copy):
    """hunt7 #5: a literal focus node (sh:targetObjectsOf) and a waiver written as a
    blank node had no file or line ("<graph>", no SARIF location, which GitHub's upload
    refuses). Each is at the triple that holds it, on both engines."""
    shapes = bundled_copy / "ontology" / "shapes"
    shapes.mkdir(parents=True)
    (shapes / "mine.ttl").write_text(SHORT_LABELS, encoding="utf-8")
    (bundled_copy / "waivers.ttl").write_text(BLANK_WAIVER, encoding="utf-8")
    args = ("--root", str(bundled_copy), "check", "--select", "urn:x:ShortLabels,AK000")
    fast = run_cli(*args)
    assert fast.exit_code == 1, fast.output
    assert run_cli(*args, "--engine", "reference").stdout == fast.stdout
    lines = fast.stdout.splitlines()[:-1]
    assert "<graph>" not in fast.stdout
    waivers = [line.split(" ")[0] for line in lines if "AK000" in line]
    assert [w.rsplit("/", 1)[1] for w in waivers] == ["waivers.ttl:5:1:", "waivers.ttl:7:1:"]
    # "Sheng et al." is the object of ak:authors (line 16) and, in a [ … ], of the
    # rdfs:label the shape targets the objects of: placed at the latter.
    arxiv = (bundled_copy / "data" / "ARXIV-2409.19256.ttl").read_text(encoding="utf-8")
    label = arxiv.splitlines().index('        rdfs:label "Sheng et al."') + 1
    assert f"/ARXIV-2409.19256.ttl:{label}:9: urn:x:ShortLabels" in fast.stdout
    sarif = run_cli(*args[:2], "validate", *args[3:], "--format", "sarif")
    results = json.loads(sarif.stdout)["runs"][0]["results"]
    assert len(results) == len(lines)
    assert all("locations" in result for result in results)


def test_blank_waivers_told_apart_by_a_literals_language_are_each_located(bundled_copy):
    """Two blank waivers alike but for their reason's language tag are two statements:
    each expired one is at its own line (a literal is matched by its text, datatype and
    language, not its text alone, which found both for each and placed neither)."""
    waiver = '[] a ak:Waiver ; ak:waives <LIT-168> ; ak:rule "AK005" ;\n    rdfs:comment {} ;'
    waiver += ' ak:expires "2020-01-01"^^xsd:date .\n'
    head = BLANK_WAIVER.split("<waiver/named>", 1)[0]
    text = head + waiver.format('"old"') + waiver.format('"old"@en')
    (bundled_copy / "waivers.ttl").write_text(text, encoding="utf-8")
    args = ("--root", str(bundled_copy), "check", "--select", "AK000")
    for engine in ("fast", "reference"):
        result = run_cli(*args, "--engine", engine)
        assert result.exit_code == 1, result.output
        places = [line.split(" ")[0].rsplit("/", 1)[-1] for line in result.stdout.splitlines()[:-1]]
        assert places == ["waivers.ttl:5:1:", "waivers.ttl:7:1:"], result.stdout


EQUALS_SHAPE = """@prefix sh: <http://www.w3.org/ns/shacl#> .
@prefix ex: <urn:test:> .
ex:EqShape a sh:NodeShape ; sh:targetClass ex:Thing ;
    sh:property [ sh:path ex:p ; sh:equals ex:q ] .
"""

EQUALS_DATA = """@prefix ex: <urn:test:> .
@prefix dcterms: <http://purl.org/dc/terms/> .
@prefix id: <https://w3id.org/anthology-kg/id/> .

id:THING-a a ex:Thing ;
    dcterms:identifier "THING-a" ;
    ex:p ex:one, "5" ;
    ex:q ex:one ,
        ex:two, 5 .
"""


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_an_equals_value_is_placed_where_either_property_writes_it(tmp_path, engine):
    """sh:equals gives the values of the path missing from the other property and those
    of the other property missing from the path, all on the shape's path (SHACL 4.5.1):
    each result is at the triple that writes its value, as written there."""
    (tmp_path / "data").mkdir()
    (tmp_path / "ontology" / "shapes").mkdir(parents=True)
    (tmp_path / "ontology" / "shapes" / "eq.ttl").write_text(EQUALS_SHAPE, "utf-8")
    (tmp_path / "data" / "THING-a.ttl").write_text(EQUALS_DATA, "utf-8")
    result = run_cli("--root", str(tmp_path), "validate", "--engine", engine, "--format", "json")
    assert result.exit_code == 1, result.stderr
    placed = sorted(
        (r["line"], r["column"], r["path"], r["value"])
        for r in json.loads(result.stdout)["results"]
    )
    p = "<urn:test:p>"
    assert placed == [(7, 18, p, "5"), (9, 9, p, "urn:test:two"), (9, 17, p, "5")]
