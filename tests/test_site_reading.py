"""What a reader of the site is told: each entry page's dependencies, mentions and other
links say what the record says, checked against the data graph and the stored queries."""

from __future__ import annotations

import json
import re
import shutil
from html import unescape
from html.parser import HTMLParser
from pathlib import Path

import pytest
from bundled import ES_GAP
from conftest import needs_chromium, run_cli
from rdflib import Graph, URIRef
from rdflib.namespace import DCTERMS

from anthology_kg.namespaces import AK
from anthology_kg.resources import bundled_dir, ontology_file

# The dependency terms of the vocabulary contract (shared/DESIGN.md): the subject, or the
# entry that makes the claim or has the arm, rests on the object.
DEPENDENCY_TERMS = (AK.restsOn, AK.releasedOn, AK.describedIn, AK.checkpointsFrom, AK.trainedWith)
BASE = "https://w3id.org/anthology-kg/id/"


class Sections(HTMLParser):
    """A page's tables and lists by their class: each row (or list item) as its cells,
    each cell as (text, tooltips, links) of what it holds."""

    def __init__(self):
        super().__init__()
        self.found: dict[str, list[list[tuple[str, list[str], list[str]]]]] = {}
        self.current: str | None = None  # the class of the table or list being read
        self.depth = 0
        self.row: list | None = None
        self.cell: list | None = None
        self.head = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in ("table", "ul") and self.current is None and attrs.get("class"):
            self.current, self.depth = attrs["class"], 0
            self.found[self.current] = []
        elif self.current is not None:
            if tag in ("table", "ul"):
                self.depth += 1
            if tag == "thead":
                self.head = True
            if tag == "tr" or (tag == "li" and self.depth == 0):
                self.row = []
                if tag == "li":
                    self.cell = ["", [], []]
            if tag == "td":
                self.cell = ["", [], []]
            if self.cell is not None:
                if attrs.get("title"):
                    self.cell[1].append(attrs["title"])
                if tag == "a" and attrs.get("href"):
                    self.cell[2].append(attrs["href"])

    def handle_endtag(self, tag):
        if self.current is None:
            return
        if tag == "thead":
            self.head = False
        if tag in ("table", "ul"):
            if self.depth == 0:
                self.current = None
                return
            self.depth -= 1
        if (tag == "td" or (tag == "li" and self.depth == 0)) and self.cell is not None:
            assert self.row is not None
            self.row.append((" ".join(self.cell[0].split()), self.cell[1], self.cell[2]))
            self.cell = None
        if (tag == "tr" or (tag == "li" and self.depth == 0)) and self.row is not None:
            if not self.head and self.row:
                self.found[self.current].append(self.row)
            self.row = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell[0] += data


def sections(page: Path) -> dict[str, list[list[tuple[str, list[str], list[str]]]]]:
    parser = Sections()
    parser.feed(page.read_text("utf-8"))
    return parser.found


def iri(cell: tuple[str, list[str], list[str]]) -> str | None:
    """The IRI a cell names (its first tooltip that is an absolute IRI)."""
    return next((t for t in cell[1] if t.startswith(("http://", "https://"))), None)


def identifier(node) -> str:
    return str(node).removeprefix(BASE)


def build(root: Path | None, out: Path) -> Path:
    result = run_cli(*(["--root", str(root)] if root else []), "site", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    return out


@pytest.fixture(scope="module")
def bundled(bundled_site_built) -> tuple[Path, Graph]:
    """The bundled anthology's site (conftest's, shared with test_site: read only) and
    its data graph."""
    return bundled_site_built, data_graph(bundled_dir() / "data")


@pytest.fixture(scope="module")
def trained(tmp_path_factory) -> tuple[Path, Graph]:
    """The bundled anthology with its ES arm trained with verl (the bundled record says
    of no arm what it was trained with: the gap it states is filled), its site and its
    data graph."""
    root = tmp_path_factory.mktemp("trained") / "anthology"
    shutil.copytree(bundled_dir() / "data", root / "data")
    comparison = root / "data" / "COMPARISON-es-baselines.ttl"
    written = comparison.read_text("utf-8").replace(
        ES_GAP,
        "    ak:algorithm ak:ES ;\n    ak:trainedWith id:CODEBASE-verl .",
    )
    comparison.write_text(written, "utf-8")
    return build(root, root / "site"), data_graph(root / "data")


def data_graph(folder: Path) -> Graph:
    graph = Graph()
    for path in sorted(folder.glob("*.ttl")):
        graph.parse(path, format="turtle", publicID=BASE)
    return graph


def entries(graph: Graph) -> dict[URIRef, str]:
    return {s: str(o) for s, o in graph.subject_objects(DCTERMS.identifier)}  # type: ignore[misc]


def parts(graph: Graph, entry) -> set:
    """The entry, the claims it makes and the arms it has (the contract's ownership)."""
    return {entry, *graph.objects(entry, AK.makesClaim), *graph.objects(entry, AK.arm)}


def owner(graph: Graph, node):
    return next((e for e in entries(graph) if node in parts(graph, e)), None)


def table_rows(site: Path, name: str, table: str) -> list[list[tuple[str, list[str], list[str]]]]:
    return sections(site / "entries" / f"{name}.html").get(table, [])


def direct(rows, dependents: bool) -> set[tuple[str | None, str | None, str | None]]:
    """(what, relation, what it rests on) of a dependency table's rows that touch the
    entry (not those marked as resting on it, or rested on, in turn)."""
    found = set()
    for row in rows:
        if dependents:
            what, _, relation, on, _ = row
            if "which rests on this entry" in on[0]:
                continue
        else:
            what, relation, on, _ = row
            if "which this entry rests on" in what[0]:
                continue
        found.add((iri(what), iri(relation), iri(on)))
    return found


@pytest.mark.parametrize("term", DEPENDENCY_TERMS, ids=lambda t: t.split("#")[1])
def test_rests_on_and_rested_on_by_list_each_dependency_of_the_graph(bundled, trained, term):
    # Each relation on the bundled anthology; ak:trainedWith, which no bundled arm states,
    # on a copy whose ES arm was trained with verl.
    site, graph = trained if term == AK.trainedWith else bundled
    expected_on, expected_by = set(), set()
    for entry, name in entries(graph).items():
        mine = parts(graph, entry)
        for part in mine:
            for target in graph.objects(part, term):
                expected_on.add((name, str(part), str(term), str(target)))
            for source in graph.subjects(term, part):
                if source not in mine:
                    expected_by.add((name, str(source), str(term), str(part)))
    assert expected_on and expected_by, term  # the test has something to find
    shown_on, shown_by = set(), set()
    for name in entries(graph).values():
        rests = direct(table_rows(site, name, "rests-on"), dependents=False)
        shown_on |= {(name, *row) for row in rests if row[1] == str(term)}
        rested = direct(table_rows(site, name, "rested-on-by"), dependents=True)
        shown_by |= {(name, *row) for row in rested if row[1] == str(term)}
    assert shown_on == expected_on
    assert shown_by == expected_by


def test_no_mention_or_digest_is_shown_as_a_dependency(bundled):
    site, graph = bundled
    dependency_terms = {str(t) for t in DEPENDENCY_TERMS}
    for name in entries(graph).values():
        for table in ("rests-on", "rested-on-by"):
            for row in table_rows(site, name, table):
                relation = row[1] if table == "rests-on" else row[2]
                # A dependency term, or a CiTO citation no dependency explains.
                assert iri(relation) in dependency_terms or relation[0] == "cites for support", (
                    name,
                    row,
                )
    # ARXIV-2409.19256 mentions three entries and rests on none of them.
    assert table_rows(site, "ARXIV-2409.19256", "rests-on") == []


def test_rested_on_by_holds_every_row_of_the_depends_on_query(bundled):
    site, graph = bundled
    found_any = False
    for name in entries(graph).values():
        result = run_cli("query", "depends-on", "--param", f"entry={name}", "--format", "json")
        assert result.exit_code == 0, result.stderr
        answer = json.loads(result.stdout)["results"]["bindings"]
        expected = {
            (
                b["dependent"]["value"],
                b["via"]["value"],
                b["owner"]["value"],
                b.get("citation", {}).get("value"),
            )
            for b in answer
            if b["relation"]["value"] == str(AK.restsOn)
        }
        shown = set()
        for what, entry, relation, on, citation in table_rows(site, name, "rested-on-by"):
            if iri(relation) == str(AK.restsOn):
                shown.add((iri(what), iri(on), iri(entry), iri(citation)))
        assert expected <= shown, name
        found_any = found_any or bool(expected)
        # The entry's page links to the query for its own identifier.
        page = (site / "entries" / f"{name}.html").read_text("utf-8")
        assert f'href="../queries/depends-on.html#entry={name}"' in page
    assert found_any
    # The record's one load-bearing place: LIT-168's reproducibility rests on
    # ARXIV-2409.19256 through verl, by the CiTO citation LIT-168 draws its support with.
    rows = table_rows(site, "ARXIV-2409.19256", "rested-on-by")
    claim = [r for r in rows if iri(r[0]) == BASE + "LIT-168-reproducible"]
    assert claim and iri(claim[0][4]) == BASE + "LIT-168-cites-ARXIV-2409.19256"


def test_mentions_and_mentioned_by_are_the_records_mentions(bundled):
    site, graph = bundled
    mentions, mentioned_by = set(), set()
    for entry, name in entries(graph).items():
        for part in parts(graph, entry):
            for target in graph.objects(part, DCTERMS.references):
                mentions.add((name, str(target)))
                by = owner(graph, target)
                if by is not None:
                    mentioned_by.add((entries(graph)[by], str(entry)))
    assert mentions and mentioned_by
    shown, shown_by = set(), set()
    for name in entries(graph).values():
        shown |= {(name, iri(row[0])) for row in table_rows(site, name, "mentions")}
        shown_by |= {(name, iri(row[0])) for row in table_rows(site, name, "mentioned-by")}
    assert shown == mentions
    assert shown_by == mentioned_by


def test_a_term_of_the_vocabulary_belongs_to_no_entry(bundled):
    # ak:trainedWith ak:declaredBy id:ADR-032: the term is declared a confounder property
    # by ADR-032, not by an entry that uses the term (QUESTION-baselines-on-verl).
    site, graph = bundled
    ontology = Graph().parse(ontology_file())
    stated = [
        (s, p, o)
        for s, p, o in graph
        if isinstance(s, URIRef) and (s, None, None) in ontology and o in entries(graph)
    ]
    assert stated
    for term, predicate, target in stated:
        rows = table_rows(site, entries(graph)[target], "referred-by")
        assert any(iri(row[0]) == str(term) and row[0][2] == [] for row in rows), (term, rows)
        named = {iri(row[0]) for row in rows}
        users = {owner(graph, s) for s in graph.subjects(None, term)} - {None}
        assert not {str(u) for u in users} & named, (term, predicate, users)
    # No page links a term of the vocabulary to an entry's page.
    for page in (site / "entries").glob("*.html"):
        for title in re.findall(r'<a href="[^"]*" title="([^"]*)"', page.read_text("utf-8")):
            assert (URIRef(unescape(title)), None, None) not in ontology, (page.name, title)


def test_the_neighbourhood_picture_draws_the_dependencies(bundled):
    site, graph = bundled
    labels = {"rests on", "released on", "described in", "checkpoints from", "trained with"}
    drawn_any = False
    for name in entries(graph).values():
        page = (site / "entries" / f"{name}.html").read_text("utf-8")
        svg = page.split("<svg", 1)[1].split("</svg>", 1)[0] if "<svg" in page else ""
        rows = table_rows(site, name, "rests-on") + table_rows(site, name, "rested-on-by")
        linked = {
            href.removeprefix("../")
            for row in rows
            for cell in row
            for href in cell[2]
            if href.startswith("../entries/")
        }
        if not rows:
            assert not svg, name
            continue
        drawn_any = True
        boxes = {h.removeprefix("../") for h in re.findall(r'href="([^"]+\.html)"', svg)}
        # Every entry the tables name, itself, and nothing else (the tables are short).
        assert boxes == linked | {f"entries/{name}.html"}, name
        edge_labels = {  # Graphviz's edges, and the layered layout's
            *re.findall(r'<a xlink:title="([^"]*)">\s*<path fill="none"', svg),
            *re.findall(r'class="edge"><title>([^<]*)</title>', svg),
        }
        assert edge_labels and edge_labels <= labels, (name, edge_labels)
        assert "mentions" not in svg and "addressed in" not in svg
    assert drawn_any


def test_a_figure_reads_in_order_once_each_with_the_records_words(bundled):
    site, graph = bundled
    checked = 0
    for entry, name in entries(graph).items():
        page = unescape((site / "entries" / f"{name}.html").read_text("utf-8"))
        for claim in graph.objects(entry, AK.makesClaim):
            for figure in graph.objects(claim, AK.figure):
                line = re.search(r"<li>figure: (.*?)</li>", page)
                assert line, name
                shown = re.sub(r"<[^>]+>", "", line.group(1))
                parts = shown.split("; ")
                assert len(parts) == len(set(parts)), shown
                order = [
                    f"{label} {graph.value(figure, term)}"
                    for label, term in (
                        ("measures", AK.measures),
                        ("minimum value", AK.minValue),
                        ("maximum value", AK.maxValue),
                        ("unit", AK.unit),
                    )
                    if graph.value(figure, term) is not None
                ]
                assert [p for p in parts if p in order] == order, shown
                for unknown in graph.objects(figure, AK.notStated):
                    words = graph.value(unknown, AK.statedAs)
                    prop = graph.value(unknown, AK.unknownProperty)
                    assert f"{prop.split('#')[1]} (stated as “{words}”)" in shown, shown
                    checked += 1
    assert checked


def depends_on_rows(entry: str) -> list[dict]:
    result = run_cli("query", "depends-on", "--param", f"entry={entry}", "--format", "json")
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)["results"]["bindings"]


def test_the_depends_on_page_suggests_the_entry_with_the_most_rows(bundled):
    site, graph = bundled
    page = (site / "queries" / "depends-on.html").read_text("utf-8")
    suggested = re.search(r'id="param-entry"[^>]* value="([^"]*)"', page)
    assert suggested
    counts = {name: len(depends_on_rows(name)) for name in entries(graph).values()}
    assert counts[suggested.group(1)] == max(counts.values()) > 0, (suggested.group(1), counts)
    assert f"for example with entry = {suggested.group(1)}." in page


@pytest.fixture(scope="module")
def tab(browser_tab):
    """The browser's tab, each console message it logs while this module's tests use it
    in ``tab.logged``."""

    def log(message) -> None:
        browser_tab.logged.append(message.text)

    browser_tab.logged = []
    browser_tab.on("console", log)
    yield browser_tab
    browser_tab.remove_listener("console", log)
    del browser_tab.logged


def test_no_page_may_load_an_image(bundled):
    # No page has an image (pictures are inline SVG): the policy allows none.
    site, _ = bundled
    for page in site.rglob("*.html"):
        policy = re.search(
            r'http-equiv="Content-Security-Policy" content="([^"]*)"', page.read_text()
        )
        assert policy and "default-src 'none'" in unescape(policy.group(1)), page
        assert "img-src" not in policy.group(1), (page, policy.group(1))


@needs_chromium
def test_enter_in_the_search_box_searches_and_sends_nothing(bundled, tab):
    site, _ = bundled
    tab.logged.clear()
    for name in ("search.html", "index.html"):
        uri = (site / name).as_uri()
        tab.goto(uri)
        tab.fill("#q", "verl")
        tab.press("#q", "Enter")
        # A selector, not a string wait_for_function: the page's CSP forbids the eval
        # that the function would need should the wait have to poll.
        tab.wait_for_selector("#search-count:not(:empty)")
        assert tab.url == uri
        hits = set(tab.locator("#search-results a").all_inner_texts())
        assert {"CODEBASE-verl", "LIT-168", "ARXIV-2409.19256"} <= hits, hits
        assert tab.get_attribute("#search-count", "role") == "status"  # read out as it changes
    tab.goto("about:blank")
    assert not [m for m in tab.logged if "Content Security Policy" in m], tab.logged


@needs_chromium
def test_an_entry_page_opens_depends_on_for_itself(bundled, tab):
    site, _ = bundled
    tab.goto((site / "entries" / "CODEBASE-verl.html").as_uri())
    tab.click("text=depends-on for CODEBASE-verl")
    tab.wait_for_load_state("load")
    assert tab.input_value("#param-entry") == "CODEBASE-verl"
    tab.click("#run")
    tab.wait_for_selector("#live[data-done]", timeout=120_000)
    rows = tab.evaluate(
        """() => [...document.querySelectorAll('#live-result tr')].slice(1).map(tr =>
             [...tr.querySelectorAll('td')].map(td => td.getAttribute('data-value')))"""
    )
    names = ("relation", "dependent", "kind", "via", "owner", "citation")
    expected = {
        tuple(b[v]["value"] if v in b else None for v in names)
        for b in depends_on_rows("CODEBASE-verl")
    }
    assert {tuple(r) for r in rows} == set(expected) and rows


def test_a_picture_names_its_boxes_and_edges_by_their_labels(bundled):
    # A <title> is what a screen reader calls a box or an edge: never dot's node names.
    site, _ = bundled
    pictures = 0
    for page in [site / "graph.html", *sorted((site / "entries").glob("*.html"))]:
        html = page.read_text("utf-8")
        for svg in re.findall(r"<svg.*?</svg>", html, re.S):
            pictures += 1
            titles = [unescape(t) for t in re.findall(r"<title>([^<]*)</title>", svg)]
            assert titles, page.name
            generated = [t for t in titles if re.fullmatch(r"n[0-9]+(->n[0-9]+)?", t)]
            assert not generated, (page.name, generated)
            if 'class="layered"' in svg:
                continue  # the layered layout's titles are its labels and relations
            # Graphviz's: the graph's own, then each box's label (its tooltip too) and
            # each edge's "label relation label".
            names = {
                unescape(n) for n in re.findall(r'<a xlink:href="[^"]*" xlink:title="([^"]*)"', svg)
            }
            for title in titles[1:]:
                assert title in names or any(
                    title.startswith(f"{a} ") and title.endswith(f" {b}")
                    for a in names
                    for b in names
                ), (page.name, title, names)
    assert pictures


@needs_chromium
def test_the_query_editor_has_a_name(bundled, tab):
    site, _ = bundled
    for name in ("depends-on.html", "sparql.html"):
        tab.goto((site / "queries" / name).as_uri())
        tab.click(".CodeMirror")
        focused = tab.evaluate(
            "() => [document.activeElement.tagName,"
            " document.activeElement.getAttribute('aria-label')]"
        )
        assert focused == ["TEXTAREA", "SPARQL query"], (name, focused)
        assert tab.get_by_role("textbox", name="SPARQL query").count() >= 1


CURIE = re.compile(r"\b(?:ak|aks|rdf|rdfs|dcterms|id|xsd|cito|prov|skos|sh):[A-Za-z]")


def test_the_answers_and_the_rules_name_things_by_label_not_curie(bundled):
    site, _ = bundled
    known = (site / "queries" / "known-unknowns.html").read_text("utf-8")
    answer = known.split('<table class="answer">', 1)[1].split("</table>", 1)[0]
    shown = unescape(re.sub(r"<[^>]+>", " ", answer))
    assert not CURIE.search(shown), CURIE.findall(shown)
    # The tally the record does not name is shown by what it says.
    assert "citation tally: citing documents 3; in sweep SWEEP-backlog" in shown
    rules = (site / "rules.html").read_text("utf-8")
    table = rules.split('<table class="rules">', 1)[1].split("</table>", 1)[0]
    shown = unescape(re.sub(r"<[^>]+>", " ", table))
    assert not CURIE.search(shown), CURIE.findall(shown)
    # Each rule by the code `check` prints, its shape in the tooltip.
    assert re.search(r'<code title="shape aks:Rule1AdmittedCategory">AK001</code>', table)


def test_the_dependencies_page_draws_what_rests_on_what_between_entries(bundled):
    site, graph = bundled
    html = (site / "graph.html").read_text("utf-8")
    svg = html.split("<svg", 1)[1].split("</svg>", 1)[0]
    expected = set()
    for term in DEPENDENCY_TERMS:
        for s, o in graph.subject_objects(term):
            a, b = owner(graph, s), owner(graph, o)
            if a is not None and b is not None and a != b:
                expected |= {
                    f"entries/{entries(graph)[a]}.html",
                    f"entries/{entries(graph)[b]}.html",
                }
    assert expected
    assert set(re.findall(r'href="([^"]+\.html)"', svg)) == expected
    labels = {  # Graphviz's edges, and the layered layout's
        *re.findall(r'<a xlink:title="([^"]*)">\s*<path fill="none"', svg),
        *re.findall(r'class="edge"><title>([^<]*)</title>', svg),
    }
    assert labels == {"described in", "released on", "rests on", "checkpoints from"}, labels
