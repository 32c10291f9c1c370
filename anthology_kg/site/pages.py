"""The site's pages: data gathered from the Model, rendered by Jinja2 templates with
autoescaping on, so every value from the anthology is escaped for where it lands."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from markupsafe import Markup, escape
from rdflib import BNode, Graph, Literal, URIRef
from rdflib.term import Node

from ..loader import EntryIndex
from ..namespaces import bind_prefixes
from ..queries import QueryResult, StoredQuery, catalog, run_local
from ..reports import summary_line
from ..rules import rule_catalog
from ..validation import Report, RuleResult
from .model import (
    AK,
    DCTERMS,
    NEIGHBOURS,
    PROSE_MIN,
    RDF,
    RDFS,
    RESTS_ON,
    SHOWN_APART,
    Model,
    entries_by_identifier,
    paragraphs,
)
from .output import Source, slug
from .pictures import Box, picture
from .sparql_text import has_service, tokens

# What the pages may load: their own stylesheet and scripts, images of their own or
# inline SVG; no inline script, nothing from the network. Query pages also compile
# the SPARQL engine's WebAssembly.
CSP = (
    "default-src 'none'; style-src 'self'; img-src 'self' data:; script-src 'self'; "
    "connect-src 'none'; base-uri 'none'; form-action 'none'"
)
CSP_WASM = CSP.replace("script-src 'self'", "script-src 'self' 'wasm-unsafe-eval'")
PICTURE_MAX_BOXES = 300  # larger anthologies get per-entry pictures only
NEIGHBOURS_MAX = 12
ANSWER_ROWS_SHOWN = 500  # a query page lists this many rows; the browser runs give all
PICTURE_EDGES = (AK.makesClaim, AK.restsOn, AK.describedIn, AK.releasedOn, AK.addressedIn)


@dataclass
class Term:
    """A value as shown: its text, the page it links to, its IRI (the tooltip). Templates
    print it through ``__html__``, which escapes every part (as Jinja2's autoescape would)
    without a macro call per value."""

    text: str
    href: str | None = None
    iri: str | None = None
    note: str | None = None

    def __html__(self) -> str:
        if self.href:
            title = Markup(' title="{}"').format(self.iri) if self.iri else ""
            shown = Markup('<a href="{}"{}>{}</a>').format(self.href, title, self.text)
        elif self.iri:
            shown = Markup('<span title="{}">{}</span>').format(self.iri, self.text)
        else:
            shown = escape(self.text)
        if self.note:
            shown += Markup(' <span class="note">{}</span>').format(self.note)
        return str(shown)


@dataclass
class SiteText:
    """The files of a site and, for each file derived from data, where that came from."""

    files: dict[str, str | bytes] = field(default_factory=dict)
    sources: dict[str, Callable[[], Source]] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


def environment() -> Environment:
    return Environment(
        loader=PackageLoader("anthology_kg.site", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        auto_reload=False,
        undefined=StrictUndefined,
        trim_blocks=False,
        keep_trailing_newline=True,
    )


class Pages:
    """Builds every page of one anthology from its Model and validation Report."""

    def __init__(self, anthology: EntryIndex, model: Model, report: Report, name: str):
        self.anthology = anthology
        self.model = model
        self.report = report
        self.env = environment()
        self.site_name = name
        self.out = SiteText()
        self.queries = catalog(anthology)  # type: ignore[arg-type]
        self.query_pages = {q: f"queries/{slug(q)}.html" for q in self.queries}
        self.results_by_focus: dict[str, list[RuleResult]] = defaultdict(list)
        for result in report.results:
            self.results_by_focus[result.focus].append(result)
        self._lines: dict[str, list[str]] = {}
        self._names = bind_prefixes(Graph(), anthology.base)

    # -- shared pieces ----------------------------------------------------------------------
    def render(self, template: str, path: str, **context) -> None:
        depth = path.count("/")
        context.setdefault("csp", CSP)
        self.out.files[path] = self.env.get_template(template).render(
            up="../" * depth, site_name=self.site_name, **context
        )

    def term(self, node: Node | None, depth: int, note: str | None = None) -> Term:
        """``node`` as shown on a page ``depth`` folders below the root."""
        if node is None:
            return Term("")
        m = self.model
        iri = str(node) if isinstance(node, URIRef) else None
        if isinstance(node, Literal):
            return Term(str(node), note=note)
        page = m.page_of(node)
        href = "../" * depth + page if page else None
        if isinstance(node, BNode) and node not in m.labels:
            return Term(m.describe(node) or m.label(node), note=note)  # shown where it is
        return Term(m.label(node), href=href, iri=iri, note=note)

    def source_line(self, result: RuleResult) -> str | None:
        """The text of the line a result points at (read once per file)."""
        if not result.file or not result.line:
            return None
        if result.file not in self._lines:
            try:
                self._lines[result.file] = Path(result.file).read_text("utf-8").splitlines()
            except (OSError, UnicodeDecodeError):
                self._lines[result.file] = []
        lines = self._lines[result.file]
        return lines[result.line - 1].strip() if 0 < result.line <= len(lines) else None

    def result_rows(self, results: list[RuleResult], depth: int) -> list[dict]:
        rows = []
        for r in results:
            focus_nodes = list(self.anthology.identified(r.focus))
            focus = self.term(focus_nodes[0], depth) if focus_nodes else Term(r.focus)
            rows.append(
                {
                    "severity": r.severity,
                    "waived": r.waived,
                    "source": f"{r.adr or 'integrity'}"
                    + (f", rule {r.rule}" if r.rule is not None else ""),
                    "message": r.message,
                    "path": self.curie_label(r.path),
                    "value": self.curie_label(r.value),
                    "focus": focus,
                    "where": f"{r.file}:{r.line}" if r.file else None,
                    "source_line": self.source_line(r),
                }
            )
        return rows

    def curie_label(self, text: str | None) -> str | None:
        """A result's path or value as labels: ``ak:notStated/ak:unknownProperty`` becomes
        ``not stated / unknown property``; what is not a known prefixed name stays."""
        if not text:
            return text
        parts = []
        for part in text.split("/"):
            try:
                iri = self._names.namespace_manager.expand_curie(part)
            except ValueError:
                return text
            parts.append(self.model.label(iri))
        return " / ".join(parts)

    def source_of(self, node: Node, what: str) -> Source:
        """What a page was derived from and where it is written (for a refusal)."""
        location = self.model.location(node)
        return what, (location.path, location.line) if location else None

    def byline(self, node: Node) -> str:
        """``authors (year)`` when the entry records them."""
        authors = self.model.value(node, AK.authors)
        year = self.model.value(node, DCTERMS.issued)
        if authors is not None and year is not None:
            return f"{authors} ({year})"
        return str(authors or year or "")

    # -- the index ---------------------------------------------------------------------------
    def index(self) -> None:
        m = self.model
        groups: dict[str, dict[str, list[dict]]] = defaultdict(lambda: defaultdict(list))
        kinds: set[str] = set()
        for node, _ in entries_by_identifier(m):
            category = m.value(node, AK.category)
            status = m.value(node, AK.readingStatus)
            heading = m.label(category) if category is not None else m.kind(node) + "s"
            if category is None:
                kinds.add(heading)
            sub = m.label(status) if status is not None else ""
            groups[heading][sub].append(
                {
                    "link": self.term(node, 0),
                    "byline": self.byline(node),
                    "title": m.title(node),
                }
            )
        ordered = []
        # Categories first, then entries without one, by kind.
        by_order = sorted(groups, key=lambda h: (h in kinds, h.casefold()))
        for i, heading in enumerate(by_order):
            subs = groups[heading]
            ordered.append(
                {
                    "heading": heading[:1].upper() + heading[1:],
                    "anchor": f"group-{i + 1}",
                    "count": sum(len(v) for v in subs.values()),
                    "part": "Entries without a category, by kind"
                    if heading in kinds
                    else "By category and reading status",
                    "subgroups": [
                        {"heading": s[:1].upper() + s[1:], "entries": subs[s]}
                        for s in sorted(subs, key=str.casefold)
                    ],
                }
            )
        self.render(
            "index.html",
            "index.html",
            title="Index",
            groups=ordered,
            summary=summary_line(self.report),
            entry_count=len(m.pages),
        )
        self.render("search.html", "search.html", title="Search")

    # -- entry pages -------------------------------------------------------------------------
    def entries(self, confounders: QueryResult | None) -> None:
        missing = self.missing_confounders(confounders)
        for node, identifier in entries_by_identifier(self.model):
            path = self.model.pages[node]
            self.out.sources[path] = partial(self.source_of, node, f"entry {identifier!r}")
            self.render(
                "entry.html",
                path,
                title=identifier,
                e=self.entry(node, missing),
                depends_on=Path(self.query_pages.get("depends-on", "")).name,
            )

    def entry(self, node: URIRef, missing) -> dict:
        m = self.model
        owned = m.owned(node)
        owned_set = set(owned)
        byline = [
            part
            for part in (
                self.byline(node),
                m.kind(node),
                *(m.label(c) for c in m.values(node, AK.category)),
                *(m.label(s) for s in m.values(node, AK.readingStatus)),
            )
            if part
        ]
        prose, facts = [], []
        for predicate in sorted({p for p, _ in m.out[node]}, key=str):
            if predicate in SHOWN_APART or predicate in RESTS_ON:
                continue
            values = m.values(node, predicate)
            label = m.label(predicate)
            long_text = [
                v
                for v in values
                if isinstance(v, Literal) and (len(str(v)) >= PROSE_MIN or "\n" in str(v))
            ]
            for text in long_text:
                prose.append(
                    {"heading": label[:1].upper() + label[1:], "paragraphs": paragraphs(str(text))}
                )
            rest = [v for v in values if v not in long_text]
            if rest:
                facts.append({"label": label, "shown": [self.term(v, 1) for v in rest]})
        claims = []
        for claim in m.values(node, AK.makesClaim):
            claim_facts = [
                {"label": m.label(p), "shown": [self.term(o, 1)]}
                for p, o in m.out.get(claim, ())
                if p not in {RDF.type, RDFS.label, AK.restsOn}
            ]
            claims.append(
                {"claim": self.term(claim, 1), "kind": m.kind(claim), "facts": claim_facts}
            )
        rests_on = []
        for part in owned:
            for p, o in m.out.get(part, ()):
                if p in RESTS_ON and isinstance(o, URIRef):
                    target = m.owner(o)
                    rests_on.append(
                        {
                            "what": self.term(part, 1),
                            "relation": m.label(p),
                            "target": self.term(o, 1),
                            "title": m.title(target)
                            if target is not None and target == o
                            else None,
                        }
                    )
        rested, mentioned, questions = [], {}, []
        for part in owned:
            for p, s in m.into.get(part, ()):
                owner = m.owner(s)
                if s in owned_set:
                    continue
                if p in RESTS_ON:
                    rested.append(
                        {
                            "what": self.term(s, 1),
                            "entry": self.term(owner, 1),
                            "relation": m.label(p),
                            "target": self.term(part, 1),
                        }
                    )
                elif p in {AK.addressedIn, AK.concerns} and m.is_a(s, AK.OpenQuestion):
                    questions.append(
                        {
                            "link": self.term(s, 1),
                            "text": m.labels.get(s, ""),
                            "relation": (
                                "lives here" if p == AK.addressedIn else f"concerns {m.label(part)}"
                            ),
                        }
                    )
                elif p != AK.reportedIn and owner is not None:
                    key = (str(owner), m.label(p))
                    mentioned[key] = {"entry": self.term(owner, 1), "relation": m.label(p)}
        reports = [self.term(c, 1) for c in m.subjects(AK.reportedIn, node)]
        comparison = self.comparison(node, missing) if m.is_a(node, AK.Comparison) else None
        results = self.results_by_focus.get(m.identifiers[node], [])
        return {
            "identifier": m.identifiers[node],
            "title": m.title(node),
            "byline": byline,
            "iri": str(node),
            "takeaways": m.ordered(node, AK.takeaway, RDF.value),
            "practices": m.ordered(node, AK.carriesPractice, RDFS.label),
            "prose": prose,
            "claims": claims,
            "rests_on": rests_on,
            "rested_on_by": _unique(rested),
            "mentioned_by": [mentioned[k] for k in sorted(mentioned)],
            "questions": _merged_questions(questions),
            "reports": reports,
            "comparison": comparison,
            "facts": facts,
            "picture": Markup(self.neighbourhood(node)),
            "results": self.result_rows(results, 1),
        }

    # -- comparisons -------------------------------------------------------------------------
    def missing_confounders(self, answer: QueryResult | None) -> dict:
        """(arm, property) to the open questions, for each row of the confounders answer."""
        missing: dict[tuple[Node, Node], list[Node]] = defaultdict(list)
        if answer is None or answer.kind != "select":
            return missing
        column = {v: i for i, v in enumerate(answer.variables)}
        if "arm" not in column or "property" not in column:
            return missing
        for row in answer.rows:
            arm, prop = row[column["arm"]], row[column["property"]]
            question = row[column["question"]] if "question" in column else None
            if arm is None or prop is None:
                continue
            questions = missing[(arm, prop)]
            if question is not None and question not in questions:
                questions.append(question)
        return missing

    def comparison(self, node: URIRef, missing) -> dict:
        """The comparison as arms × properties: algorithm, checkpoints, then each confounder
        property; a cell is marked "not recorded" exactly when the stored confounders
        query lists that arm and property."""
        m = self.model
        confounders = sorted(
            {s for s in m.subjects(RDF.type, AK.ConfounderProperty)}
            | {prop for (_, prop) in missing},
            key=str,
        )
        columns = [AK.algorithm, AK.checkpointsFrom, *confounders]
        rows = []
        for arm in sorted(m.values(node, AK.arm), key=lambda a: (m.label(a), str(a))):
            cells = []
            for prop in columns:
                values = m.values(arm, prop)
                if (arm, prop) in missing:
                    cells.append(
                        {
                            "missing": True,
                            "questions": [self.term(q, 1) for q in missing[(arm, prop)]],
                        }
                    )
                else:
                    cells.append({"missing": False, "shown": [self.term(v, 1) for v in values]})
            rows.append({"arm": self.term(arm, 1), "cells": cells})
        return {
            "columns": [{"text": m.label(c), "iri": str(c)} for c in columns],
            "rows": rows,
            "query": Path(self.query_pages.get("confounders", "")).name,
        }

    # -- pictures ----------------------------------------------------------------------------
    def neighbourhood(self, node: URIRef) -> str:
        """The entry, the entries it rests on and those resting on it, one box each."""
        m = self.model
        owned = set(m.owned(node))
        edges: set[tuple[str, str, str]] = set()
        boxes: dict[str, Box] = {}

        def box(entry: Node) -> str:
            key = str(entry)
            if key not in boxes:
                href = m.pages.get(entry)
                label = m.picture_name(entry)
                boxes[key] = Box(key, label, "../" + href if href else None)
            return key

        me = box(node)
        forward = sorted(
            {
                (m.label(p), m.owner(o))
                for part in owned
                for p, o in m.out.get(part, ())
                if p in NEIGHBOURS and m.owner(o) not in (None, node)
            },
            key=lambda e: (str(e[1]), e[0]),
        )[:NEIGHBOURS_MAX]
        backward = sorted(
            {
                (m.label(p), m.owner(s))
                for part in owned
                for p, s in m.into.get(part, ())
                if p in NEIGHBOURS and m.owner(s) not in (None, node)
            },
            key=lambda e: (str(e[1]), e[0]),
        )[:NEIGHBOURS_MAX]
        for relation, target in forward:
            if target is not None:
                edges.add((me, relation, box(target)))
        for relation, source in backward:
            if source is not None:
                edges.add((box(source), relation, me))
        if not edges:
            return ""
        return picture(list(boxes.values()), sorted(edges), prefer_dot=False)

    def graph_page(self) -> None:
        m = self.model
        edges = sorted(
            {
                (str(s), m.label(p), str(o))
                for p in PICTURE_EDGES
                for s, pairs in m.out.items()
                for q, o in pairs
                if q == p and isinstance(s, URIRef) and isinstance(o, URIRef) and s != o
            }
        )
        keys = sorted({k for a, _, b in edges for k in (a, b)})
        if len(keys) > PICTURE_MAX_BOXES:
            self.render(
                "graph.html",
                "graph.html",
                title="Dependencies",
                svg=None,
                laid_out_by=None,
                too_large=f"{len(keys)} entries, claims and codebases are too many for one "
                "legible picture: each entry's page shows its neighbourhood.",
            )
            return
        boxes = []
        for key in keys:
            node = URIRef(key)
            href = m.page_of(node)
            boxes.append(Box(key, m.picture_name(node), href))
        svg = picture(boxes, edges)
        self.out.files["graph.svg"] = '<?xml version="1.0" encoding="UTF-8"?>\n' + svg
        self.render(
            "graph.html",
            "graph.html",
            title="Dependencies",
            svg=Markup(svg),
            laid_out_by="Graphviz dot" if 'class="layered"' not in svg else None,
            too_large=None,
        )

    # -- queries and rules -------------------------------------------------------------------
    def stored_query_answer(self, stored: StoredQuery) -> tuple[QueryResult | None, str | None]:
        """The answer of a parameterless stored query, or why the site does not run it."""
        if has_service(stored.text):
            message = (
                f"query {stored.name!r} calls a remote service (SERVICE); the site runs "
                "stored queries on the anthology alone and skips it"
            )
            self.out.warnings.append(message)
            return None, message[0].upper() + message[1:] + "."
        if stored.params:
            return None, None
        return run_local(self.anthology, stored.text, source=stored.path), None  # type: ignore[arg-type]

    def query_view(self, result: QueryResult | None) -> dict | None:
        if result is None:
            return None
        if result.kind == "select":
            return {
                "kind": "select",
                "variables": result.variables,
                "rows": [
                    [self.term(n, 1) if n is not None else None for n in row]
                    for row in result.rows[:ANSWER_ROWS_SHOWN]
                ],
                "total": len(result.rows),
            }
        if result.kind == "ask":
            return {"kind": "ask", "boolean": result.boolean}
        graph = result.graph
        return {
            "kind": "graph",
            "turtle": graph.serialize(format="turtle") if graph is not None else "",
        }

    def queries_pages(self) -> QueryResult | None:
        listed, confounders = [], None
        first_entry = next(iter(entries_by_identifier(self.model)), (None, ""))[1]
        for name, stored in self.queries.items():
            path = self.query_pages[name]
            self.out.sources[path] = partial(_fixed, f"query {name!r}", (stored.path, None))
            result, refused = self.stored_query_answer(stored)
            if name == "confounders":
                confounders = result
            params = [
                {
                    "name": p.name,
                    "type": p.type,
                    "meaning": p.meaning,
                    "variable": getattr(p, "bound_to", p.name),
                    "required": getattr(p, "required", True),
                    "example": getattr(p, "default", None)
                    or (first_entry if p.type == "entry" else ""),
                }
                for p in stored.params
            ]
            self.render(
                "query.html",
                path,
                title=f"Query: {name}",
                csp=CSP_WASM,
                q={
                    "title": f"Query: {name}",
                    "summary": stored.summary,
                    "description": stored.description,
                    "params": params,
                    "params_json": json.dumps([p["name"] for p in params]),
                    "tokens": tokens(stored.text),
                    "text": stored.text,
                    "rows": min(40, stored.text.count("\n") + 2),
                    "result": self.query_view(result),
                    "refused": refused,
                    "example": ", ".join(
                        f"{p['name']} = {p['example']}" for p in params if p["example"]
                    ),
                },
            )
            listed.append(
                {
                    "name": name,
                    "href": Path(path).name,
                    "summary": stored.summary,
                    "params": [p.name for p in stored.params],
                }
            )
        self.render("queries.html", "queries/index.html", title="Stored queries", queries=listed)
        example = (
            "PREFIX ak: <https://w3id.org/anthology-kg/ns#>\n"
            "PREFIX dcterms: <http://purl.org/dc/terms/>\n\n"
            "SELECT ?entry ?identifier WHERE {\n    ?entry dcterms:identifier ?identifier .\n}\n"
            "ORDER BY ?identifier\nLIMIT 20\n"
        )
        self.render(
            "query.html",
            "queries/sparql.html",
            title="SPARQL",
            csp=CSP_WASM,
            q={
                "title": "Ask anything (SPARQL)",
                "summary": "Write a SPARQL query and run it on the anthology in your browser.",
                "description": "",
                "params": [],
                "params_json": "[]",
                "tokens": None,
                "text": example,
                "rows": 14,
                "result": None,
                "refused": None,
                "example": "",
            },
        )
        return confounders

    def rules_page(self) -> None:
        rules = [
            {
                "number": r.number if r.number is not None else "",
                "source": r.source,
                "severity": r.severity,
                "label": r.label,
                "name": r.name,
            }
            for r in rule_catalog(self.anthology)  # type: ignore[arg-type]
        ]
        self.render(
            "rules.html",
            "rules.html",
            title="Rules",
            rules=rules,
            rows=self.result_rows(self.report.results, 0),
            summary=summary_line(self.report),
        )

    def build(self) -> SiteText:
        confounders = self.queries_pages()
        self.index()
        self.entries(confounders)
        self.rules_page()
        self.graph_page()
        return self.out


def _unique(rows: list[dict]) -> list[dict]:
    seen, out = set(), []
    for row in rows:
        key = repr(sorted((k, repr(v)) for k, v in row.items()))
        if key not in seen:
            seen.add(key)
            out.append(row)
    return out


def _fixed(what: str, where: tuple[Path, int | None] | None) -> Source:
    return what, where


def _merged_questions(rows: list[dict]) -> list[dict]:
    """One line per question, its relations to the entry joined (lives here, concerns
    the GRPO arm, concerns the PPO arm), in first-seen order."""
    merged: dict[str, dict] = {}
    for row in rows:
        key = row["link"].text
        if key not in merged:
            merged[key] = {**row, "relations": []}
        if row["relation"] not in merged[key]["relations"]:
            merged[key]["relations"].append(row["relation"])
    for row in merged.values():
        row["relation"] = "; ".join(row.pop("relations"))
    return list(merged.values())
