"""Apache Jena, the most common consumer of an export, reads what the tool writes
(tests/jena.py: Debian's Jena, one JVM for the whole module's jobs).

RIOT reads every ``export --format`` of the bundled anthology and of an anthology of
hostile literals and IRIs with no warning or error, and reads the graph pyoxigraph reads
from the N-Quads export (blank nodes compared after RDFC-1.0)."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pyoxigraph as ox
import pytest
from conftest import FIXTURES, run_cli
from jena import Jena, jena, quiet  # noqa: F401  (jena: a session fixture, tests/jena.py)
from test_queries import ANTHOLOGIES

from anthology_kg.bnodes import ox_stable_labels
from anthology_kg.engine import open_engine
from anthology_kg.loader import load_anthology
from anthology_kg.queries import bind_params, find_query
from anthology_kg.resources import bundled_dir
from anthology_kg.shacl.graph import ShapesGraph
from anthology_kg.shacl.paths import path_text
from anthology_kg.sparql_text import with_values

#: Each format of ``export --format`` and the constant of Jena's ``Lang`` that reads it.
#: JSON-LD is read by Jena's JSON-LD 1.0 reader (jsonld-java): its 1.1 reader (Titanium)
#: needs a Jakarta JSON Processing implementation, which Debian 12 does not package
#: (libjsonp2-java is the API alone), and fails with LOADING_DOCUMENT_FAILED whatever the
#: document; the export is expanded JSON-LD with no context, the same graph in either.
FORMATS = {
    "turtle": "TURTLE",
    "ntriples": "NTRIPLES",
    "nquads": "NQUADS",
    "jsonld": "JSONLD10",
    "rdfxml": "RDFXML",
}
EVERY_PART = "data,ontology,shapes"

#: An entry whose literals and IRIs a writer gets wrong most easily: escapes, control
#: characters, line breaks, non-BMP characters, every literal kind, IRIs of every script
#: and of the characters Turtle and RDF/XML escape or cannot abbreviate, RDF's own
#: predicates (test_export_checks), blank nodes alike but for their place, a list of
#: equal members. RDF/XML cannot carry the C0 controls but tab, LF and CR: they are in
#: ``NOT_XML``, exported in every format but RDF/XML (which refuses them, a test of its own).
HOSTILE = r'''@prefix ex: <http://example.org/ns#> .
@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .

<https://w3id.org/anthology-kg/id/LIT-903>
    rdfs:label "quote \" backslash \\ tab \t newline \n CR \r end",
        """three "quotes" ""\" and a final quote\"""",
        "", " ", "\u00a0nbsp", "\u2028LS\u2029PS\u0085NEL\ufeffBOM",
        "😀 \U0001F600 𝔸 \u0301e combining", "עברית mixed العربية",
        "<script>alert(1)</script> & <![CDATA[x]]> ]]>",
        "en"@en, "GB"@en-GB, "tw"@zh-Hant-TW, "cased"@EN-us, "x"@x-private-tag ;
    ex:number 1, "01"^^xsd:integer, -0.0, 1.5e3, "INF"^^xsd:double, "NaN"^^xsd:float,
        "-0"^^xsd:decimal, "1.0"^^xsd:decimal, true, "1"^^xsd:boolean,
        "2020-01-01T00:00:00+01:00"^^xsd:dateTime, "2020-01-01Z"^^xsd:date,
        "P1Y"^^xsd:duration, "AQID"^^xsd:base64Binary, "0fA1"^^xsd:hexBinary,
        "<a>x</a>"^^rdf:XMLLiteral, "lexical"^^<http://example.org/dt#é%20(type)> ;
    <http://example.org/é> "v" ;
    <http://example.org/ns#aé> "v" ;
    <http://example.org/日本語·名> "v" ;
    <http://example.org/a_b-c.d> "underscores, hyphens, a dot" ;
    rdf:value "value" ;
    rdf:_1 "one" ;
    rdfs:seeAlso <https://example.org/?a=1&b=%22&c='x'>, <http://example.org/a(b)!*$+,;=:@~>,
        <urn:isbn:0451450523>, <tag:example.org,2026:x>, <file:///tmp/a%20b>,
        <http://example.org/ends.with.dot.>, <http://example.org/#>, <http://example.org/😀>,
        <http://example.org/%E2%82%AC>, <mailto:a@example.org>, <http://[::1]:8080/x> ;
    ex:node [ ex:p "one" ], [ ex:p "one" ], [ ex:q [ ex:p "one" ] ] ;
    ex:list ( "a" "a" "a" ), ( [ ex:p 1 ] [ ex:p 1 ] ), () .
'''
NOT_XML = r"""@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
<https://w3id.org/anthology-kg/id/LIT-904>
    rdfs:label "\u0001 \u001b[31m \u0000 \u007f \uFFFE \u000b\u000c" .
"""


#: Jena 4.5's Turtle, N-Triples and N-Quads readers check an IRI's characters one UTF-16
#: unit at a time, and warn of each half of a character beyond U+FFFF (<http://example.org/😀>:
#: 'Illegal character in IRI (Not a ucschar: 0xD83D)', then 0xDE00), which RFC 3987's
#: ucschar admits (%x10000-1FFFD ...): Jena's bug, apache/jena#2766, fixed in 5.2.0
#: (apache/jena#2769). UTF-8 has no surrogates, so no file of ours can hold one.
JENA_2766 = re.compile(r": Illegal character in IRI \(Not a ucschar: 0xD[89A-F][0-9A-F]{2}\): ")


def said_of_ours(said: dict[str, Any]) -> list[str]:
    """What Jena said of a file, but for its own bug JENA_2766."""
    return [line for line in quiet(said) if not JENA_2766.search(line)]


def anthology(folder: Path, files: dict[str, str]) -> Path:
    """An anthology of these data files (name: Turtle) and no ontology of its own."""
    (folder / "data").mkdir(parents=True)
    for name, text in files.items():
        (folder / "data" / name).write_text(text, encoding="utf-8")
    return folder


def export(root: Path, fmt: str, out: Path, include: str = EVERY_PART, *more: str) -> Path:
    """``export --format FMT --include INCLUDE MORE -o OUT`` of ``root``; OUT."""
    result = run_cli(
        "--root", str(root), "export", "--format", fmt, "--include", include, *more, "-o", str(out)
    )
    assert result.exit_code == 0, result.output
    return out


def canonical(path: Path, fmt: ox.RdfFormat, triples: bool = False) -> list[str]:
    """The dataset pyoxigraph reads from ``path`` with RDFC-1.0 blank node labels, as
    sorted N-Quads lines (the triples of every graph in the default graph with
    ``triples``, each once)."""
    quads = ox.parse(path=path, format=fmt)
    if triples:
        quads = (ox.Quad(q.subject, q.predicate, q.object) for q in quads)
    dataset = ox.Dataset(quads)
    dataset.canonicalize(ox.CanonicalizationAlgorithm.RDFC_1_0)
    return sorted(str(quad) for quad in dataset)


def differences(ours: list[str], theirs: list[str]) -> str:
    """The first lines only one side has, for an assertion's message."""
    only_ours, only_theirs = sorted(set(ours) - set(theirs)), sorted(set(theirs) - set(ours))
    return (
        f"{len(ours)} vs {len(theirs)} quads; only ours: {only_ours[:5]}; "
        f"only Jena's: {only_theirs[:5]}"
    )


#: The exports Jena reads: the bundled anthology with every part, with its RDFS closure
#: too (a named graph in N-Quads and JSON-LD, merged in the others), and the hostile
#: anthology (without what RDF/XML cannot carry, in RDF/XML).
SOURCES = {
    "bundled": ((), "data,ontology,shapes"),
    "bundled-inferred": (("--inferred", "rdfs"), "data,ontology"),
    "hostile": ((), "data"),
}
CASES = [(source, fmt) for source in SOURCES for fmt in FORMATS]
#: The anthologies the stored queries run on (with an entry for depends-on), as the
#: goldens of test_queries have them, and the stored queries.
QUERY_ANTHOLOGIES = ANTHOLOGIES
QUERIES = sorted(path.stem for path in (bundled_dir() / "queries").glob("*.rq"))
QUERY_CASES = [(source, name) for source in QUERY_ANTHOLOGIES for name in QUERIES]


def riot_jobs(folder: Path) -> tuple[list[dict[str, str]], dict[str, tuple[Path, ...]]]:
    """Jena's jobs of reading every export of ``SOURCES`` in every format, and each
    case's files: our N-Quads export, the export in this format, what Jena read of it."""
    roots = {
        "bundled": bundled_dir(),
        "bundled-inferred": bundled_dir(),
        "hostile": anthology(folder / "hostile", {"LIT-903.ttl": HOSTILE, "LIT-904.ttl": NOT_XML}),
        "hostile-xml": anthology(folder / "hostile-xml", {"LIT-903.ttl": HOSTILE}),
    }
    jobs, cases = [], {}
    for source, fmt in CASES:
        more, include = SOURCES[source]
        root = roots["hostile-xml" if (source, fmt) == ("hostile", "rdfxml") else source]
        name = f"{source}.{fmt}"
        written = export(root, fmt, folder / name, include, *more)
        reference = export(root, "nquads", folder / f"{name}.reference.nq", include, *more)
        out = folder / f"{name}.jena.nq"
        jobs.append(
            {"id": name, "kind": "parse", "in": str(written), "lang": FORMATS[fmt], "out": str(out)}
        )
        cases[name] = (reference, written, out)
    return jobs, cases


def query_jobs(folder: Path) -> tuple[list[dict[str, str]], dict[str, tuple[Any, ...]]]:
    """Jena's jobs of running each stored query on the N-Quads export of every part of
    each of ``QUERY_ANTHOLOGIES``, the query's text as our engine runs it (its parameter
    bound in VALUES blocks, ``with_values``), and each case's: what ``query NAME --format
    json`` printed, the query's text, Jena's answer."""
    jobs, cases = [], {}
    for source, (root, entry) in QUERY_ANTHOLOGIES.items():
        data = export(root, "nquads", folder / f"{source}.nq")
        loaded = load_anthology(root)
        for name in QUERIES:
            stored = find_query(loaded, name)
            given = {"entry": entry} if stored.params else {}
            text = with_values(stored.text, bind_params(loaded, stored, given))
            params = [f"--param=entry={entry}"] if given else []
            ours = run_cli("--root", str(root), "query", name, *params, "--format", "json")
            assert ours.exit_code == 0, ours.output
            case = f"query.{source}.{name}"
            (folder / f"{case}.rq").write_text(text, encoding="utf-8")
            out = folder / f"{case}.srj"
            jobs.append(
                {
                    "id": case,
                    "kind": "query",
                    "in": str(data),
                    "query": str(folder / f"{case}.rq"),
                    "out": str(out),
                }
            )
            cases[case] = (ours.stdout, text, out)
    return jobs, cases


#: The anthologies Jena's SHACL validates: the bundled one and every rules fixture (each
#: rule's good and bad anthologies and their variants).
SHACL_CASES = ["bundled", *sorted(path.name for path in (FIXTURES / "rules").iterdir())]
RDF_TYPE = ox.NamedNode("http://www.w3.org/1999/02/22-rdf-syntax-ns#type")
SUBCLASS_OF = ox.NamedNode("http://www.w3.org/2000/01/rdf-schema#subClassOf")


def shacl_jobs(folder: Path) -> tuple[list[dict[str, str]], dict[str, tuple[Any, ...]]]:
    """Jena's jobs of validating each of ``SHACL_CASES`` with its shapes, and each case's:
    our results (``results_of`` the rows ``check`` reports, before waivers), Jena's file.
    The data graph is what ``check`` validates: the data and the ontology's rdf:type and
    rdfs:subClassOf triples (``ruleset.vocabulary``), from the N-Triples exports of the
    data and of the ontology (each its own blank nodes); the shapes graph is the export of
    the shapes."""
    jobs, cases = [], {}
    rules: dict[Path | None, dict[str, Path]] = {}  # exports of the ontology and shapes
    for name in SHACL_CASES:
        root = bundled_dir() if name == "bundled" else FIXTURES / "rules" / name
        case = f"shacl.{name}"
        # An anthology of data alone has the bundled ontology and shapes: exported once.
        owner = root if any(path.name != "data" for path in root.iterdir()) else None
        if owner not in rules:
            rules[owner] = {
                part: export(root, "ntriples", folder / f"{case}.{part}.nt", part)
                for part in ("ontology", "shapes")
            }
        written = ox.parse(path=export(root, "ntriples", folder / f"{case}.data.nt", "data"))
        ontology = ox.parse(path=rules[owner]["ontology"])
        vocabulary = (q for q in ontology if q.predicate in (RDF_TYPE, SUBCLASS_OF))
        data = folder / f"{case}.nt"
        data.write_bytes(
            ox.serialize([q.triple for q in (*written, *vocabulary)], format=ox.RdfFormat.N_TRIPLES)
        )
        shapes = rules[owner]["shapes"]
        engine = open_engine(root=root, validates=True, warn=pytest.fail)
        ours = results_of(engine.shacl_rows(), engine.rules.shapes_view)
        out = folder / f"{case}.jena.nq"
        jobs.append(
            {"id": case, "kind": "shacl", "data": str(data), "shapes": str(shapes), "out": str(out)}
        )
        cases[case] = (ours, out)
    return jobs, cases


@pytest.fixture(scope="module")
def said_by_jena(jena: Jena, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:  # noqa: F811
    """Every case of the module, by its job's id: its files and what Jena said, all
    Jena's jobs in one run (a JVM's start costs more than they do)."""
    folder = tmp_path_factory.mktemp("jena")
    jobs, cases = [], {}
    for make in (riot_jobs, query_jobs, shacl_jobs):
        more_jobs, more_cases = make(folder)
        jobs += more_jobs
        cases.update(more_cases)
    said = jena.run(jobs)
    return {name: (*files, said[name]) for name, files in cases.items()}


@pytest.mark.parametrize(("source", "fmt"), CASES)
def test_jena_reads_every_export_as_written(said_by_jena, source, fmt):
    reference, written, read, said = said_by_jena[f"{source}.{fmt}"]
    assert not said_of_ours(said), said
    triples = fmt not in ("nquads", "jsonld")  # formats of one graph merge the named ones
    ours = canonical(reference, ox.RdfFormat.N_QUADS, triples)
    theirs = canonical(read, ox.RdfFormat.N_QUADS)
    assert ours == theirs, differences(ours, theirs)
    assert len(ours) > 30


def test_the_hostile_anthology_is_exported_whole(said_by_jena):
    """The hostile anthology's N-Quads hold every one of its triples (pyoxigraph's reading
    of its data file), so the comparisons above compare all of it."""
    reference = said_by_jena["hostile.nquads"][0]
    expected = ox.Dataset(
        ox.Quad(q.subject, q.predicate, q.object)
        for text in (HOSTILE, NOT_XML)
        for q in ox.parse(text, format=ox.RdfFormat.TURTLE)
    )
    expected.canonicalize(ox.CanonicalizationAlgorithm.RDFC_1_0)
    assert canonical(reference, ox.RdfFormat.N_QUADS) == sorted(str(q) for q in expected)


XSD_STRING = "http://www.w3.org/2001/XMLSchema#string"


def term_text(binding: dict[str, str] | None) -> str | None:
    """A term of SPARQL 1.1 Query Results JSON in N-Triples, None when unbound. A blank
    node is "_:" whatever its label: a label is the writer's own, scoped to the results
    object (SPARQL 1.1 Query Results JSON Format 3.2.2, Encoding RDF terms), nothing of
    the data's; the stored queries answer none on these anthologies (the test says so)."""
    if binding is None:
        return None
    kind, value = binding["type"], binding["value"]
    if kind == "uri":
        return f"<{value}>"
    if kind == "bnode":
        return "_:"
    lexical = json.dumps(value, ensure_ascii=False)
    if "xml:lang" in binding:
        return f"{lexical}@{binding['xml:lang']}"
    return f"{lexical}^^<{binding.get('datatype', XSD_STRING)}>"


def solutions(text: str) -> tuple[list[str], list[tuple[str | None, ...]]]:
    """The variables and the rows, in order, of SPARQL 1.1 Query Results JSON."""
    results = json.loads(text)
    names = results["head"]["vars"]
    rows = [tuple(term_text(row.get(n)) for n in names) for row in results["results"]["bindings"]]
    return names, rows


def order_keys(text: str) -> list[str]:
    """The variables of a query's ORDER BY clause, in order (each stored query has one, of
    variables only: ``DESC(?relation) ?dependent …``)."""
    (clause,) = re.findall(r"^ORDER BY (.*)$", text, flags=re.MULTILINE)
    return re.findall(r"\?(\w+)", clause)


@pytest.mark.parametrize(("source", "name"), QUERY_CASES)
def test_jena_answers_every_stored_query_alike(said_by_jena, source, name):
    """ARQ, on the N-Quads export of the data, ontology and shapes (one default graph, as
    the query's is), gives the rows ``query NAME --format json`` gives: the same bag of
    solutions, in the order of the ORDER BY's keys."""
    ours_text, text, out, said = said_by_jena[f"query.{source}.{name}"]
    assert not said_of_ours(said), said
    names, ours = solutions(ours_text)
    their_names, theirs = solutions(out.read_text(encoding="utf-8"))
    assert their_names == names
    assert Counter(theirs) == Counter(ours), (ours, theirs)
    keys = [names.index(key) for key in order_keys(text)]
    assert [[row[k] for k in keys] for row in theirs] == [[row[k] for k in keys] for row in ours]
    assert "_:" not in {term for row in ours for term in row}


SH = "http://www.w3.org/ns/shacl#"
#: A SHACL validation result as compared: severity, constraint component, source shape,
#: focus node, result path (SPARQL property path), value node.
Result = tuple[str, str, str, str, str | None, str | None]


def node_text(term: Any, shape_labels: dict[ox.BlankNode, ox.BlankNode]) -> str:
    """An IRI or literal in N-Triples; a blank node of the shapes graph by its label from
    its content and context (``bnodes.ox_stable_labels``, the same for the same graph
    whoever read it); a blank node of the data as "_:", whichever it is (the rows of our
    fast engine name the store's blank nodes, which no file shares)."""
    if isinstance(term, ox.BlankNode):
        label = shape_labels.get(term)
        return f"_:shapes-{label.value}" if label is not None else "_:"
    return str(term)


def results_of(rows: Iterable[Any], shapes: ShapesGraph) -> Counter[Result]:
    """The bag of results of ``rows`` (``ResultRow``), blank nodes of ``shapes`` (the
    shapes graph they name) labelled from their content."""
    labels = ox_stable_labels(shapes)
    return Counter(
        (
            row.severity.value,
            row.source_constraint_component.value,
            node_text(row.source_shape, labels),
            node_text(row.focus, labels),
            None if row.path is None else path_text(shapes, row.path, bound=True),
            None if row.value is None else node_text(row.value, labels),
        )
        for row in rows
    )


def jena_results(out: Path) -> Counter[Result]:
    """The bag of results of the report Jena wrote beside the data and shapes graphs (the
    blank nodes of its shapes graph labelled as ``results_of`` labels ours)."""
    graphs: dict[str, list[tuple[Any, Any, Any]]] = {"shapes": [], "report": [], "data": []}
    for quad in ox.parse(path=out, format=ox.RdfFormat.N_QUADS):
        name = getattr(quad.graph_name, "value", "urn:x-jena:data").removeprefix("urn:x-jena:")
        graphs[name].append((quad.subject, quad.predicate, quad.object))
    shapes = ShapesGraph(graphs["shapes"])
    report = ShapesGraph([*graphs["report"], *graphs["shapes"]])  # a path may be either's
    labels = ox_stable_labels(graphs["shapes"])
    found: Counter[Result] = Counter()
    for result in report.subjects(RDF_TYPE, ox.NamedNode(SH + "ValidationResult")):
        said = {
            p.value.removeprefix(SH): report.value(result, p) for p in report.predicates(result)
        }
        path, value = said.get("resultPath"), said.get("value")
        found[
            (
                said["resultSeverity"].value,
                said["sourceConstraintComponent"].value,
                node_text(said["sourceShape"], labels),
                node_text(said["focusNode"], labels),
                None if path is None else path_text(report, path, bound=True),
                None if value is None else node_text(value, labels),
            )
        ] += 1
    assert shapes
    return found


@pytest.mark.parametrize("name", SHACL_CASES)
def test_jena_shacl_gives_the_results_check_gives(said_by_jena, name):
    """Jena's SHACL, validating the exported data graph with the exported shapes, reports
    the results ``check`` reports (every one, before waivers): the same bag of severity,
    constraint component, source shape, focus node, path and value."""
    ours, out, said = said_by_jena[f"shacl.{name}"]
    assert not said_of_ours(said), said
    theirs = jena_results(out)
    assert theirs == ours, (sorted(ours - theirs), sorted(theirs - ours))
    assert bool(ours) == name.endswith(("-bad", "-unstated", "-nary")) or name == "bundled"
