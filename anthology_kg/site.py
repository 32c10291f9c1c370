"""A static HTML site of the anthology: index, entry pages, query pages, rules, pictures.

Pages link to each other by identifier (``entries/LIT-168.html``); nothing is loaded
from the network; the same anthology gives the same bytes. The dependency picture is
drawn with graphviz's ``dot`` when it is installed, else with a layered layout here.
"""

from __future__ import annotations

import shutil
import subprocess
from collections import defaultdict
from html import escape
from pathlib import Path

from rdflib import RDF, RDFS, BNode, Literal, URIRef
from rdflib.namespace import DCTERMS
from rdflib.term import Node

from .files import write_atomic
from .loader import Anthology
from .namespaces import AK
from .queries import bind_params, catalog, run_local
from .records import ordered_values
from .reports import summary_line
from .rules import rule_catalog
from .validation import Report, validate

STYLE = """
body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;
line-height:1.45;color:#222}
a{color:#0645ad}table{border-collapse:collapse;margin:1rem 0}
td,th{border:1px solid #ccc;padding:.25rem .5rem;text-align:left;vertical-align:top}
th{background:#f3f3f3}.missing{background:#fde2e2;color:#900;font-weight:bold}
.Violation{color:#900}.Warning{color:#a60}.standing{white-space:pre-wrap}
nav a{margin-right:1rem}svg{max-width:100%;height:auto;border:1px solid #ddd}
"""
EDGES = (AK.makesClaim, AK.restsOn, AK.describedIn, AK.releasedOn, AK.addressedIn)


class Site:
    """Builds the pages of one anthology."""

    def __init__(self, anthology: Anthology, report: Report | None = None):
        self.anthology = anthology
        self.data = anthology.data
        self.report = report or validate(anthology)
        self.entries = dict(anthology.entries())
        self.pages: dict[str, str] = {}

    # -- helpers -----------------------------------------------------------------------
    def page_of(self, node: Node) -> str | None:
        """The page of the entry that describes ``node`` (vocabulary terms have none)."""
        if isinstance(node, Literal) or (node, None, None) not in self.data:
            return None
        owner = self.anthology.owner(node)
        if owner is not None and owner in self.entries:
            return f"entries/{self.entries[owner]}.html"
        return None

    def name(self, node: Node) -> str:
        if isinstance(node, Literal):
            return str(node)
        if node in self.entries:
            return self.entries[node]
        label = self.data.value(node, RDFS.label)
        if label is not None:
            return str(label)
        if isinstance(node, BNode):
            return "[]"
        return self.data.namespace_manager.normalizeUri(node).strip("<>")

    def picture_name(self, node: Node) -> str:
        """A codebase by its name (verl), anything else as everywhere else."""
        label = self.data.value(node, RDFS.label)
        if (node, RDF.type, AK.Codebase) in self.data and label is not None:
            return str(label)
        return self.name(node)

    def link(self, node: Node, depth: int) -> str:
        target = self.page_of(node)
        text = escape(self.name(node))
        if target is None:
            return text
        return f'<a href="{"../" * depth}{target}">{text}</a>'

    def html(self, title: str, body: str, depth: int) -> str:
        up = "../" * depth
        nav = (
            f'<nav><a href="{up}index.html">Index</a><a href="{up}rules.html">Rules</a>'
            f'<a href="{up}queries/index.html">Queries</a>'
            f'<a href="{up}graph.html">Dependencies</a></nav>'
        )
        return (
            '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f"<title>{escape(title)}</title><style>{STYLE}</style></head>\n"
            f"<body>{nav}\n<h1>{escape(title)}</h1>\n{body}\n</body></html>\n"
        )

    def table(self, header: list[str], rows: list[list[str]]) -> str:
        head = "".join(f"<th>{escape(h)}</th>" for h in header)
        body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>\n" for row in rows)
        return f"<table><tr>{head}</tr>\n{body}</table>"

    def results_for(self, identifier: str | None = None) -> str:
        rows = [
            [
                f'<span class="{r.severity}">{escape(r.severity)}</span>',
                escape(r.adr or "integrity"),
                escape(r.message),
                escape(r.focus),
                escape(f"{r.file}:{r.line}" if r.file else ""),
            ]
            for r in self.report.results
            if identifier is None or r.focus == identifier
        ]
        if not rows:
            return "<p>No rule is broken.</p>"
        return self.table(["severity", "source", "message", "focus", "where"], rows)

    # -- pages -------------------------------------------------------------------------
    def index(self) -> str:
        groups: dict[tuple[str, str], list[str]] = defaultdict(list)
        for node in self.entries:
            category = self.data.value(node, AK.category)
            status = self.data.value(node, AK.readingStatus)
            key = (
                self.name(category) if category else "(no category)",
                self.name(status) if status else "(no reading status)",
            )
            title = self.data.value(node, DCTERMS.title) or self.data.value(node, RDFS.label)
            suffix = f" — {escape(str(title))}" if title else ""
            groups[key].append(f"<li>{self.link(node, 0)}{suffix}</li>")
        body = [f"<p>{escape(summary_line(self.report))}</p>"]
        for (category, status), items in sorted(groups.items()):
            body.append(f"<h2>{escape(category)}, {escape(status)}</h2><ul>{''.join(items)}</ul>")
        return self.html("The anthology", "\n".join(body), 0)

    def entry(self, node: URIRef, identifier: str) -> str:
        data, body = self.data, []
        title = data.value(node, DCTERMS.title) or data.value(node, RDFS.label)
        if title:
            body.append(f"<p><em>{escape(str(title))}</em></p>")
        takeaways = ordered_values(data, node, AK.takeaway, RDF.value)
        if takeaways:
            items = "".join(f"<li>{escape(t)}</li>" for t in takeaways)
            body.append(f'<h2>Key takeaways</h2><ol class="takeaways">{items}</ol>')
        practices = ordered_values(data, node, AK.carriesPractice, RDFS.label)
        if practices:
            body.append(
                "<h2>Practices</h2><ul>"
                + "".join(f"<li>{escape(p)}</li>" for p in practices)
                + "</ul>"
            )
        standing = data.value(node, AK.standing)
        if standing is not None:
            body.append(
                f'<h2>Standing in the anthology</h2><p class="standing">{escape(str(standing))}</p>'
            )
        facts = []
        for p, o in sorted(data.predicate_objects(node), key=lambda po: (str(po[0]), str(po[1]))):
            if p in (AK.takeaway, AK.carriesPractice, AK.standing):
                continue
            facts.append([escape(data.namespace_manager.normalizeUri(p)), self.link(o, 1)])
        body.append("<h2>Facts</h2>" + self.table(["property", "value"], facts))
        rests = sorted(
            {
                (self.name(claim), self.link(target, 1))
                for claim in [node, *data.objects(node, AK.makesClaim)]
                for p in (AK.restsOn, AK.releasedOn, AK.describedIn)
                for target in data.objects(claim, p)
            }
        )
        if rests:
            body.append(
                "<h2>Rests on</h2>"
                + self.table(["what", "rests on"], [[escape(a), b] for a, b in rests])
            )
        dependents = self.dependents(node)
        if dependents:
            body.append("<h2>What rests on it</h2>" + self.table(["dependent", "via"], dependents))
        questions = sorted(
            set(data.subjects(AK.addressedIn, node)) | set(data.subjects(AK.concerns, node)),
            key=str,
        )
        if questions:
            body.append(
                '<h2>Open questions</h2><ul class="questions">'
                + "".join(
                    f"<li>{self.link(q, 1)}: {escape(str(data.value(q, RDFS.label) or ''))}</li>"
                    for q in questions
                )
                + "</ul>"
            )
        body.append("<h2>Validation</h2>" + self.results_for(identifier))
        return self.html(identifier, "\n".join(body), 1)

    def dependents(self, node: URIRef) -> list[list[str]]:
        stored = catalog(self.anthology).get("depends-on")
        if stored is None:
            return []
        bindings = bind_params(self.anthology, stored, {"entry": self.entries[node]})
        result = run_local(self.anthology, stored.text, bindings)
        index = {v: i for i, v in enumerate(result.variables)}
        return [
            [self.link(row[index["dependent"]], 1), self.link(row[index["via"]], 1)]
            for row in result.rows
        ]

    def query_pages(self) -> None:
        items = []
        for name, stored in catalog(self.anthology).items():
            if stored.params:
                body = (
                    f"<p>{escape(stored.description)}</p><p>This query takes a parameter "
                    "(" + ", ".join(escape(p.name) for p in stored.params) + "); its "
                    "answers are on each entry's page.</p>"
                )
            else:
                result = run_local(self.anthology, stored.text)
                rows = [
                    [self.link(n, 1) if n is not None else "" for n in row] for row in result.rows
                ]
                body = f"<p>{escape(stored.description)}</p>" + self.table(result.variables, rows)
            self.pages[f"queries/{name}.html"] = self.html(f"Query: {name}", body, 1)
            items.append(
                f'<li><a href="{name}.html">{escape(name)}</a>: {escape(stored.summary)}</li>'
            )
        self.pages["queries/index.html"] = self.html(
            "Stored queries", "<ul>" + "".join(items) + "</ul>", 1
        )

    def rules_page(self) -> str:
        rows = [
            [escape(r.name), str(r.number), escape(r.source), escape(r.severity), escape(r.label)]
            for r in rule_catalog(self.anthology)
        ]
        body = (
            self.table(["shape", "rule", "enforces", "severity", "rule in words"], rows)
            + "<h2>Results</h2>"
            + self.results_for()
        )
        return self.html("Rules", body, 0)

    def comparisons(self) -> str:
        data = self.data
        confounders = sorted(data.subjects(RDF.type, AK.ConfounderProperty), key=str)
        parts = []
        for comparison in sorted(data.subjects(RDF.type, AK.Comparison), key=str):
            header = ["arm", "algorithm", "checkpoints from"] + [
                data.namespace_manager.normalizeUri(p) for p in confounders
            ]
            rows = []
            for arm in sorted(data.objects(comparison, AK.arm), key=str):
                row = [
                    escape(self.name(arm)),
                    ", ".join(self.link(a, 0) for a in sorted(data.objects(arm, AK.algorithm))),
                    ", ".join(
                        self.link(s, 0) for s in sorted(data.objects(arm, AK.checkpointsFrom))
                    ),
                ]
                for prop in confounders:
                    values = sorted(data.objects(arm, prop))
                    row.append(
                        ", ".join(self.link(v, 0) for v in values)
                        if values
                        else '<span class="missing">not recorded</span>'
                    )
                rows.append(row)
            parts.append(f"<h3>{self.link(comparison, 0)}</h3>" + self.table(header, rows))
        return "<h2>Comparisons</h2>" + "".join(parts) if parts else ""

    def graph_page(self) -> tuple[str, str]:
        svg = dependency_svg(self)
        inline = svg[svg.index("<svg") :]
        body = (
            f"<p>Entries, claims and codebases, and what rests on what "
            f'(<a href="graph.svg">graph.svg</a>).</p>\n<figure>{inline}</figure>'
            f"{self.comparisons()}"
        )
        return self.html("Dependencies", body, 0), svg

    def build(self) -> dict[str, str]:
        self.pages["index.html"] = self.index()
        for node, identifier in self.entries.items():
            if isinstance(node, URIRef):
                self.pages[f"entries/{identifier}.html"] = self.entry(node, identifier)
        self.query_pages()
        self.pages["rules.html"] = self.rules_page()
        self.pages["graph.html"], self.pages["graph.svg"] = self.graph_page()
        return dict(sorted(self.pages.items()))


def dependency_edges(site: Site) -> list[tuple[Node, str, Node]]:
    """Edges between entries, claims and codebases, as (from, label, to), sorted."""
    data = site.data
    edges = {
        (s, data.namespace_manager.normalizeUri(p).split(":")[-1], o)
        for p in EDGES
        for s, o in data.subject_objects(p)
        if isinstance(o, URIRef) and isinstance(s, URIRef)
    }
    return sorted(edges, key=lambda e: (str(e[0]), e[1], str(e[2])))


def dependency_svg(site: Site) -> str:
    """The dependency picture as SVG: graphviz's dot when present, else a layered layout."""
    edges = dependency_edges(site)
    dot = shutil.which("dot")
    if dot:
        lines = ["digraph anthology {", "rankdir=LR;", 'node [shape=box, fontname="sans-serif"];']
        nodes = sorted({n for e in edges for n in (e[0], e[2])}, key=str)
        for n in nodes:
            target = site.page_of(n)
            url = f', URL="{target}"' if target else ""
            lines.append(f'"{n}" [label="{site.picture_name(n)}"{url}];')
        lines += [f'"{a}" -> "{b}" [label="{label}"];' for a, label, b in edges]
        lines.append("}")
        done = subprocess.run(
            [dot, "-Tsvg"], input="\n".join(lines), capture_output=True, text=True
        )
        if done.returncode == 0:
            return done.stdout
    return layered_svg(site, edges)


def layered_svg(site: Site, edges: list[tuple[Node, str, Node]]) -> str:
    """A left-to-right layered drawing: each node one column after everything it rests on."""
    nodes = sorted({n for e in edges for n in (e[0], e[2])}, key=str)
    targets = defaultdict(list)
    for a, _, b in edges:
        targets[a].append(b)
    depth: dict[Node, int] = {}

    def layer(node: Node, seen: frozenset = frozenset()) -> int:
        if node not in depth:
            nexts = [b for b in targets[node] if b not in seen]
            depth[node] = 0 if not nexts else 1 + max(layer(b, seen | {node}) for b in nexts)
        return depth[node]

    for n in nodes:
        layer(n)
    columns = defaultdict(list)
    for n in nodes:
        columns[max(depth.values(), default=0) - depth[n]].append(n)
    width, height, gap_x, gap_y = 190, 34, 90, 26
    place = {}
    for col, members in columns.items():
        for row, n in enumerate(sorted(members, key=site.picture_name)):
            place[n] = (20 + col * (width + gap_x), 20 + row * (height + gap_y))
    total_w = 40 + (max(columns, default=0) + 1) * (width + gap_x)
    total_h = 40 + max((len(m) for m in columns.values()), default=1) * (height + gap_y)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {total_w} {total_h}" '
        f'width="{total_w}" height="{total_h}" font-family="sans-serif" font-size="12">',
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" '
        'markerHeight="8" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#555"/>'
        "</marker></defs>",
    ]
    for a, label, b in edges:
        (x1, y1), (x2, y2) = place[a], place[b]
        sx, sy, ex, ey = x1 + width, y1 + height / 2, x2, y2 + height / 2
        out.append(
            f'<line x1="{sx}" y1="{sy}" x2="{ex}" y2="{ey}" stroke="#555" '
            'marker-end="url(#arrow)"/>'
        )
        out.append(
            f'<text x="{(sx + ex) / 2}" y="{(sy + ey) / 2 - 4}" text-anchor="middle" '
            f'fill="#555">{escape(label)}</text>'
        )
    for n in nodes:
        x, y = place[n]
        name = escape(site.picture_name(n)[:30])
        box = (
            f'<rect x="{x}" y="{y}" width="{width}" height="{height}" rx="4" fill="#eef3fb" '
            f'stroke="#336"/><text x="{x + width / 2}" y="{y + 21}" text-anchor="middle">'
            f"{name}</text>"
        )
        target = site.page_of(n)
        out.append(f'<a href="{target}">{box}</a>' if target else box)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def build_site(anthology: Anthology, output: Path) -> list[Path]:
    """Write the site into ``output``; returns the files written, sorted."""
    pages = Site(anthology).build()
    written = []
    for relative, text in pages.items():
        path = output / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, text)
        written.append(path)
    return written
