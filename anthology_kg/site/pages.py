"""The site's pages: data gathered from the Model, rendered by Jinja2 templates with
autoescaping on, so every value from the anthology is escaped for where it lands.

A value linking to its entry is rendered once per node and depth (``Pages.link``) and
reused on every page that names it; the templates are compiled once per build.
"""

from __future__ import annotations

import json
import os
import shutil
from collections import defaultdict
from collections.abc import Callable, Collection, Iterable
from dataclasses import asdict, dataclass, field
from functools import cache, cached_property, partial
from operator import itemgetter
from pathlib import Path
from types import SimpleNamespace as N
from typing import TYPE_CHECKING
from urllib.parse import quote

import pyoxigraph as ox
from jinja2 import Environment, PackageLoader, StrictUndefined, Template, select_autoescape
from markupsafe import Markup, escape
from rdflib import Graph

from ..errors import TimedOut, printable
from ..guards import bounded, uses_service
from ..loader import EntryIndex
from ..local_query import run_local
from ..namespaces import bind_prefixes
from ..queries import StoredQuery, catalog, lexical_rule
from ..query_result import QueryResult
from ..reports import summary_line
from ..rules import Rule, rule_catalog
from ..terms import from_ox
from ..validation import Report, RuleResult
from .model import (
    AK,
    DCTERMS,
    MENTIONS,
    PROSE_MIN,
    RDF,
    RDFS,
    RESTS_ON,
    SHOWN_APART,
    Model,
    Term,
    as_term,
    entries_by_identifier,
    paragraphs,
    text,
)
from .output import Source, unique_slug
from .pictures import Box, Picture, draw_all, layered_svg
from .sparql_text import tokens

if TYPE_CHECKING:
    from ..fast import StoreAnswer

# What the pages may load: their own stylesheet and scripts; no image (a picture is
# inline SVG, which no directive governs), no inline script, nothing from the network.
# Query pages also compile the SPARQL engine's WebAssembly.
CSP = (
    "default-src 'none'; style-src 'self'; script-src 'self'; "
    "connect-src 'none'; base-uri 'none'; form-action 'none'"
)
CSP_WASM = CSP.replace("script-src 'self'", "script-src 'self' 'wasm-unsafe-eval'")
PICTURE_MAX_BOXES = 300  # larger anthologies get per-entry pictures only
NEIGHBOURS_MAX = 12
DOT_NEIGHBOURHOODS = 1000  # more are drawn by the layered layout (dot: ~1 ms each)
ANSWER_ROWS_SHOWN = 500  # a query page lists this many rows; the browser runs give all
_QUERY_FOLDER_PAGES = ("index", "sparql")  # the site's own pages in queries/ (queries_pages)
Neighbours = list[tuple[Term, Term, Term]]  # (entry, relation, entry it rests on)
_EMPTY = Markup("")
_COMMA = Markup(", ")  # joins values already escaped
_CITES = Markup("cites for support")  # a CiTO citation no dependency explains
# The note on a row of an entry's dependencies that is not a link of the entry's own.
_THROUGH = ' <span class="note">(which this entry rests on)</span>'
_THROUGH_DEPENDENT = ' <span class="note">(which rests on this entry)</span>'


@dataclass
class SiteText:
    """For each file derived from data, where that came from; what the site warns of."""

    sources: dict[str, Callable[[], Source]] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


@dataclass
class Answer:
    """A stored query's answer as the pages show it: a SELECT's variables and rows of
    terms in the model's syntax (None where unbound), an ASK's boolean, a graph's
    Turtle; or none within ``seconds`` (kind ``timeout``)."""

    kind: str  # "select", "ask", "graph" or "timeout"
    variables: list[str] = field(default_factory=list)
    rows: list[tuple[Term | None, ...]] = field(default_factory=list)
    boolean: bool | None = None
    turtle: str = ""
    seconds: float | None = None

    @classmethod
    def of(cls, result: QueryResult) -> Answer:
        """An engine's answer (rdflib terms)."""
        if result.kind == "select":
            rows = [
                tuple(None if node is None else as_term(node) for node in row)
                for row in result.rows
            ]
            return cls("select", list(result.variables), rows)
        if result.kind == "ask":
            return cls("ask", boolean=result.boolean)
        graph = result.graph
        return cls("graph", turtle=graph.serialize(format="turtle") if graph is not None else "")

    @classmethod
    def of_store(cls, result: StoreAnswer) -> Answer:
        """The Oxigraph engine's own answer: pyoxigraph writes a term in N-Triples syntax,
        the model's, with no rdflib term made (a third of a second of the build, holding
        Python's lock, at 10,000 entries)."""
        if isinstance(result, ox.QueryBoolean | ox.QueryTriples):
            from ..fast import as_query_result

            return cls.of(as_query_result(result))
        variables = [v.value for v in result.variables]
        rows = [tuple(row) for row in result]
        terms: dict[object, Term | None] = {None: None}
        for term in set().union(*rows):
            if term is not None:
                # A triple term is refused, as on every engine (terms.from_ox).
                terms[term] = as_term(from_ox(term)) if isinstance(term, ox.Triple) else str(term)
        get = terms.__getitem__
        return cls("select", variables, [tuple(map(get, row)) for row in rows])


@dataclass
class Answers:
    """What the pages need from the engine: the validation report and the answers of
    the parameterless stored queries (None for those not run)."""

    report: Report
    results: dict[str, Answer | None]


def ask(
    anthology: EntryIndex,
    queries: dict[str, StoredQuery],
    validator: Callable[[EntryIndex], Report],
    first: Collection[str] | None = None,
    timeout: float | None = None,
) -> Answers:
    """Ask the engine what the pages show: validate, then run each parameterless stored
    query that calls no remote service, each within ``timeout`` seconds (in this order:
    the reference validator adds to the graph the queries see); only those named in
    ``first`` when given (``answer`` runs the others)."""
    report = validator(anthology)
    chosen = queries if first is None else {n: q for n, q in queries.items() if n in first}
    return Answers(report, answer(anthology, chosen, timeout))


def answer(
    anthology: EntryIndex, queries: dict[str, StoredQuery], timeout: float | None = None
) -> dict[str, Answer | None]:
    """The answer of each parameterless stored query that calls no remote service (None
    for the others); one that gives none within ``timeout`` seconds (None or 0: no
    limit) is an Answer of kind ``timeout``, its work left to end on its own thread. One
    that takes parameters is parsed, not run: a query that does not parse is an
    AnthologyError at its line either way."""
    store_answer = getattr(anthology, "store_answer", None)  # the Oxigraph engine's

    def run(stored: StoredQuery) -> Answer:
        if store_answer is not None:
            from ..fast import converted

            # No name for the answer here: on a refusal ``converted`` drops it.
            return converted(store_answer(stored.text, stored.path), Answer.of_store, stored.path)
        return Answer.of(run_local(anthology, stored.text, source=stored.path))  # type: ignore[arg-type]

    answers: dict[str, Answer | None] = {}
    for name, stored in queries.items():
        if uses_service(stored.text) or stored.params:
            if stored.params and not uses_service(stored.text):
                from ..fast import refuse_unparsed

                # Not run, but published to run in the browser: refused as a run would be.
                refuse_unparsed(stored.text, stored.path)
            answers[name] = None
            continue
        try:
            # (in a worker thread: a query a pull request adds cannot hold the build)
            answers[name] = bounded(partial(run, stored), timeout, f"query {name}")
        except TimedOut as exc:
            answers[name] = Answer("timeout", seconds=exc.seconds)
    return answers


@cache
def environment() -> Environment:
    """The templates' environment: autoescaping on, an undefined name an error, and the
    macros of ``macros.html`` known to every template. Made once a process, so that its
    templates are compiled once, not once a build (~25 ms of a bundled site's ~100)."""
    env = Environment(
        loader=PackageLoader("anthology_kg.site", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        auto_reload=False,
        undefined=StrictUndefined,
        trim_blocks=False,
        keep_trailing_newline=True,
    )
    macros = env.get_template("macros.html").module
    env.globals.update(results=macros.results, answer=macros.answer, figure=macros.figure)  # type: ignore[attr-defined]
    return env


class Pages:
    """Builds every page of one anthology from its Model and, once the engine has
    answered (``Answers``), its validation report and stored queries' answers."""

    def __init__(
        self,
        anthology: EntryIndex,
        model: Model,
        name: str,
        emit: Callable[[str, str | bytes], None],
        queries: dict[str, StoredQuery] | None = None,
    ):
        """``emit(path, content)`` receives each page as it is rendered; ``queries``
        are the stored queries (default: the anthology's catalog)."""
        self.anthology = anthology
        self.emit = emit
        self.model = model
        self.env = environment()
        self.site_name = name
        self.out = SiteText()
        self.queries = queries if queries is not None else catalog(anthology)
        # A query named index or sparql, or two names equal up to case, must not take a
        # page already taken: the later name (sorted) gets the hashed slug, as entries do.
        used = set(_QUERY_FOLDER_PAGES)
        self.query_pages = {q: f"queries/{unique_slug(q, used)}.html" for q in sorted(self.queries)}
        self._lines: dict[str, list[str]] = {}
        self._names = bind_prefixes(Graph(), anthology.base)
        self._links: dict[tuple[Term, int], Markup] = {}
        self.pictures: dict[Term, str] = {}
        # Each entry's neighbours, once known (``known_neighbours``),
        # and those of the entries found before the fork that have some, in order: their
        # pictures are drawn by the layered layout when their page is rendered, unless
        # drawn already.
        self._neighbours: dict[Term, Neighbours] = {}
        self._undrawn: dict[Term, Neighbours] = {}
        self._boxes: dict[Term, Box] = {}  # each entry's box in the neighbourhood pictures
        self._columns: tuple[dict, list[Term]] | None = None  # the comparisons' columns
        self.pictures_note = ""
        self._entry_template: Template | None = None

    @cached_property
    def by_identifier(self) -> list[tuple[Term, str]]:
        """The entries that have a page and their identifiers, by identifier (sorted once:
        the index, the pictures and the entry pages each go through them)."""
        return list(entries_by_identifier(self.model))

    def entry_template(self) -> Template:
        """``entry.html``, compiled with the template it includes, once (called before
        the workers are forked, none compiles them again)."""
        if self._entry_template is None:
            template = self.env.get_template("entry.html")
            # A render copies the template's globals into its context: Jinja2 holds them
            # in a ChainMap, which Python copies key by key (a quarter of an entry page's
            # rendering); a dict of the same names is copied at C speed.
            template.globals = dict(template.globals)
            for compiled in (template, self.env.get_template("comparison.html")):
                # The module Jinja2 compiled the template into calls ``escape`` on every
                # value it writes (two hundred thousand at 10,000 entries).
                compiled.root_render_func.__globals__["escape"] = _escape
            self._entry_template = template
        return self._entry_template

    # -- shared pieces ----------------------------------------------------------------------
    def render(self, template: str, path: str, **context) -> None:
        depth = path.count("/")
        context.setdefault("csp", CSP)
        self.emit(
            path,
            self.env.get_template(template).render(
                up="../" * depth, site_name=self.site_name, **context
            ),
        )

    def link(self, node: Term | None, depth: int) -> Markup:
        """``node`` as shown on a page ``depth`` folders below the root: its label, a link
        to its entry's page, its IRI as the tooltip; every part escaped."""
        if node is None:
            return _EMPTY
        key = (node, depth)
        shown = self._links.get(key)
        if shown is None:
            # A literal is its text (the same short values recur: units, figures).
            shown = _escape(text(node)) if node[0] == '"' else self._link(node, depth)
            self._links[key] = shown
        return shown

    def _link(self, node: Term, depth: int) -> Markup:
        m = self.model
        if node[0] == "_" and node not in m.labels:
            return _escape(m.describe(node) or m.label(node))  # shown where it is
        # Each part escaped as text (markupsafe's escape, without a Markup per part).
        page = m.page_of(node)
        if page is None and node in m.out and m.label(node) == m.prefixed(text(node)):
            # Described in the data but named nowhere (a citation tally): by what it says.
            shown = _escape_inner(f"{m.kind(node)}: {m.describe(node)}")
        else:
            shown = _escape_inner(m.label(node))
        iri = _escape_inner(text(node)) if node[0] == "<" else None
        if page:
            title = f' title="{iri}"' if iri else ""
            return _markup(f'<a href="{"../" * depth}{_escape_inner(page)}"{title}>{shown}</a>')
        if iri:
            return _markup(f'<span title="{iri}">{shown}</span>')
        return _markup(shown)

    def source_line(self, result: RuleResult) -> str | None:
        """The text of the line a result points at (read once per file), lines counted
        as the sourcemap counts them: each ends at a "\n", nothing else."""
        if not result.file or not result.line:
            return None
        if result.file not in self._lines:
            try:
                # Bytes decoded, not read as text (which ends a line at a lone "\r" too),
                # and no str.splitlines (at U+2028, U+0085, a form feed too).
                text = Path(result.file).read_bytes().decode("utf-8")
                self._lines[result.file] = text.split("\n")
            except (OSError, UnicodeDecodeError):
                self._lines[result.file] = []
        lines = self._lines[result.file]
        return lines[result.line - 1].strip() if 0 < result.line <= len(lines) else None

    def where(self, result: RuleResult) -> str | None:
        """A result's file and line as the anthology names them (``data/X.ttl:7``): not
        as the command line shows them, relative to the working directory, which would
        make the site depend on where it was built and show the builder's folders."""
        if not result.file:
            return None
        path = Path(os.path.abspath(result.file))
        shown = (
            path.relative_to(self.anthology.root)
            if path.is_relative_to(self.anthology.root)
            else Path(path.name)
        )
        return printable(f"{shown.as_posix()}:{result.line}")  # a name may not be UTF-8

    @cached_property
    def rules(self) -> list[Rule]:
        """The rule catalogue, for a report that carries none (a caller's validator):
        each ADR's identifier read from the model, not asked of the engine (whose store
        may be loaded in another process: the site's validating child)."""
        identifiers = self.model.identifiers
        return rule_catalog(self.anthology, lambda adr: identifiers.get(str(adr)))  # type: ignore[arg-type]

    @cached_property
    def identified(self) -> dict[Term, Term]:
        """Each ``dcterms:identifier`` of the data (a literal, as the model writes it)
        and the first subject with it, in the order the model read the subjects: read
        from the model, not asked of the engine (whose store may be loaded in another
        process: the site's validating child). A result's focus links there."""
        found: dict[Term, Term] = {}
        for node, table in self.model.by_predicate.items():
            for value in table.get(DCTERMS.identifier, ()):
                found.setdefault(value, node)
        return found

    def result_rows(self, results: list[RuleResult], depth: int) -> list[N]:
        rows = []
        for r in results:
            node = self.identified.get(str(ox.Literal(r.focus)))
            focus = self.link(node, depth) if node is not None else escape(r.focus)
            rows.append(
                N(
                    severity=r.severity,
                    waived=r.waived,
                    source=f"{r.adr or 'integrity'}"
                    + (f", rule {r.rule}" if r.rule is not None else ""),
                    message=r.message,
                    path=self.curie_label(r.path),
                    value=self.curie_label(r.value),
                    focus=focus,
                    where=self.where(r),
                    source_line=self.source_line(r),
                )
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
            parts.append(self.model.label(as_term(iri)))
        return " / ".join(parts)

    def source_of(self, node: Term, what: str) -> Source:
        """What a page was derived from and where it is written (for a refusal)."""
        location = self.model.location(node)
        return what, (location.path, location.line) if location else None

    def byline(self, node: Term) -> str:
        """``authors (year)`` when the entry records them."""
        authors = self.model.text(node, AK.authors)
        year = self.model.text(node, DCTERMS.issued)
        if authors is not None and year is not None:
            return f"{authors} ({year})"
        return authors or year or ""

    # -- the index ---------------------------------------------------------------------------
    def index(self, report: Report) -> None:
        m = self.model
        groups: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
        kinds: set[str] = set()
        for node, _ in self.by_identifier:
            category = m.value(node, AK.category)
            status = m.value(node, AK.readingStatus)
            heading = m.label(category) if category is not None else m.kind(node) + "s"
            if category is None:
                kinds.add(heading)
            sub = m.label(status) if status is not None else ""
            groups[heading][sub].append(self.index_line(node))
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
                        {
                            "heading": s[:1].upper() + s[1:],
                            "count": len(subs[s]),
                            "entries": Markup("".join(subs[s])),
                        }
                        for s in sorted(subs, key=str.casefold)
                    ],
                }
            )
        self.render(
            "index.html",
            "index.html",
            title="Index",
            groups=ordered,
            summary=summary_line(report),
            entry_count=len(m.pages),
        )
        self.render("search.html", "search.html", title="Search")

    def index_line(self, node: Term) -> str:
        """The entry's line in the index, as HTML: its link, authors and year, title, each
        escaped (a hundred thousand lines are built here rather than by the template, at
        a quarter of its cost)."""
        byline, title = self.byline(node), self.model.title(node)
        line = f"\n<li>{self.link(node, 0)}"
        if byline:
            line += f' <span class="byline">{_escape_inner(byline)}</span>'
        if title:
            line += f' — <span class="title">{_escape_inner(title)}</span>'
        return line + "</li>"

    # -- entry pages -------------------------------------------------------------------------
    def entry_pages(self) -> list[tuple[Term, str, str]]:
        """Each entry with a page, its identifier and its page's path, by identifier;
        ``sources`` learns what each page is derived from."""
        listed = []
        sources = self.out.sources
        for node, identifier in self.by_identifier:
            path = self.model.pages[node]
            sources[path] = partial(self.source_of, node, f"entry {identifier!r}")
            listed.append((node, identifier, path))
        return listed

    def entries(
        self,
        answers: Answers,
        listed: Iterable[tuple[Term, str, str]],
        emit: Callable[[str, str], None] | None = None,
    ) -> None:
        """The pages of the ``listed`` entries (from ``entry_pages``, or those this
        process takes of them), each given to ``emit`` (default: the emit of the build)
        as it is rendered."""
        missing = self.missing_confounders(answers.results.get("confounders"))
        by_focus: dict[str, list[RuleResult]] = defaultdict(list)
        for result in answers.report.results:
            by_focus[result.focus].append(result)
        template = self.entry_template()
        depends_on = Path(self.query_pages.get("depends-on", "")).name
        emit = emit or self.emit
        for node, identifier, path in listed:
            emit(
                path,
                template.render(
                    site_name=self.site_name,
                    csp=CSP,
                    title=identifier,
                    e=self.entry(node, identifier, missing, by_focus.get(identifier, [])),
                    depends_on=depends_on,
                    pictures_note=self.pictures_note,
                    neighbours_max=NEIGHBOURS_MAX,
                ),
            )

    def entry(self, node: Term, identifier: str, missing, results) -> N:
        m = self.model
        link = self.link
        owned = m.owned(node)
        owned_set = set(owned)
        byline = " · ".join(
            part
            for part in (
                self.byline(node),
                m.kind(node),
                *(m.label(c) for c in m.values(node, AK.category)),
                *(m.label(s) for s in m.values(node, AK.readingStatus)),
            )
            if part
        )
        prose, facts = [], []
        table = m.by_predicate.get(node, {})
        for predicate in sorted(table):
            if predicate in SHOWN_APART or predicate in RESTS_ON:
                continue
            values = table[predicate]
            label = m.label(predicate)
            rest = []
            for v in values:
                written = text(v) if v[0] == '"' else ""
                if len(written) >= PROSE_MIN or "\n" in written:
                    heading = label[:1].upper() + label[1:]
                    prose.append(N(heading=heading, paragraphs=paragraphs(written)))
                else:
                    rest.append(link(v, 1))
            if rest:
                facts.append(N(label=label, shown=_joined(rest)))
        claims = []
        for claim in m.values(node, AK.makesClaim):
            claim_facts = [
                N(label=m.label(p), shown=link(o, 1))
                for p, o in m.out.get(claim, ())
                if p not in _CLAIM_APART
            ]
            claims.append(N(claim=link(claim, 1), kind=m.kind(claim), facts=claim_facts))
        rests_on = self.dependency_rows(node, dependents=False)
        rested_on_by = self.dependency_rows(node, dependents=True)
        mentions = []
        for part in owned:
            for target in m.values(part, MENTIONS):
                if target not in owned_set and target[0] != '"':
                    target_entry = m.owner(target)
                    mentions.append(
                        N(
                            what=link(part, 1),
                            target=link(target, 1),
                            title=m.title(target) if target_entry == target else None,
                        )
                    )
        mentioned: dict[tuple, N] = {}
        referred: dict[tuple, N] = {}
        questions = []
        for part in owned:
            for p, s in m.into.get(part, ()):
                if s in owned_set or p in RESTS_ON:
                    continue
                owner = m.owner(s)
                if (p == AK.addressedIn or p == AK.concerns) and m.is_a(s, AK.OpenQuestion):
                    questions.append(
                        {
                            "link": link(s, 1),
                            "key": s,
                            "text": m.labels.get(s, ""),
                            "relation": (
                                "lives here" if p == AK.addressedIn else f"concerns {m.label(part)}"
                            ),
                        }
                    )
                elif p == MENTIONS:
                    if owner is not None:
                        mentioned[(m.sort_key(owner),)] = N(entry=link(owner, 1))
                elif p == AK.reportedIn:
                    continue
                elif owner is not None or m.is_term(s):
                    # An entry's part is named by its kind (its stated unknown); a term
                    # of the vocabulary (ak:trainedWith declared by ADR-032) is itself.
                    who = owner if owner is not None else s
                    through = m.kind(s) if s != who and s[0] == "_" else None
                    key = (m.sort_key(who), m.label(p), through or "")
                    referred[key] = N(entry=link(who, 1), relation=m.label(p), through=through)
        reports = [link(c, 1) for c in m.subjects(AK.reportedIn, node)]
        comparison = self.comparison(node, missing) if m.is_a(node, AK.Comparison) else None
        return N(
            identifier=identifier,
            title=m.title(node),
            byline=byline,
            iri=text(node),
            takeaways=m.ordered(node, AK.takeaway, RDF.value),
            practices=m.ordered(node, AK.carriesPractice, RDFS.label),
            prose=prose,
            claims=claims,
            rests_on=rests_on,
            rested_on_by=rested_on_by,
            mentions=mentions,
            mentioned_by=[mentioned[k] for k in sorted(mentioned)],
            referred_by=[referred[k] for k in sorted(referred)],
            depends_on_query=f"#entry={quote(identifier)}",
            questions=[N(**row) for row in _merged_questions(questions)],
            reports=reports,
            comparison=comparison,
            facts=facts,
            picture=Markup(self.picture(node)),
            results=self.result_rows(results, 1),
        )

    def dependency_rows(self, node: Term, *, dependents: bool) -> Markup:
        """The entry's "Rests on" rows (what it or a part of it rests on, and what that
        rests on in turn), or with ``dependents`` its "Rested on by" rows (what rests on
        it, directly or in turn: each restsOn row of the stored query depends-on for the
        entry is one of them), as the HTML of the table's rows, every value escaped
        (one f-string a row rather than a dozen steps of the template: 32,000 rows at
        10,000 entries). Each row names the CiTO citation by which the depending entry
        obtains support from the other, when recorded; a citation of that kind that no
        dependency explains is a row of its own."""
        m = self.model
        link = self.link
        rows: list[tuple[tuple, str]] = []
        cited = m.support(node, cited=dependents)
        explained: set[Term] = set()
        for d in m.dependencies(node, dependents=dependents):
            dependent, on, through = d.dependent, d.on, d.depth > 0
            other = m.owner(dependent if dependents else on)
            citations = [c for c, entry in cited if entry == other] if cited else []
            if citations:
                explained.update(citations)
            shown = "".join(map(self.citation, citations)) if citations else ""
            start = '<tr class="through"><td>' if through else "<tr><td>"
            if dependents:
                row = (
                    f"{start}{link(dependent, 1)}</td><td>{link(other, 1)}</td><td>"
                    f"{link(d.relation, 1)}</td><td>{link(on, 1)}"
                    f"{_THROUGH_DEPENDENT if through else ''}</td><td>{shown}</td></tr>"
                )
            else:
                title = m.title(on) if m.owner(on) == on else None
                row = (
                    f"{start}{link(dependent, 1)}{_THROUGH if through else ''}</td><td>"
                    f"{link(d.relation, 1)}</td><td>{link(on, 1)}"
                    f"{_note(title) if title else ''}</td><td>{shown}</td></tr>"
                )
            key = (
                d.depth,
                m.sort_key(other or dependent),
                m.sort_key(dependent),
                m.label(d.relation),
                m.sort_key(on),
            )
            rows.append((key, row))
        for citation, other in cited:
            if citation in explained:
                continue
            what, on = (other, node) if dependents else (node, other)
            entry = f"{link(other, 1)}</td><td>" if dependents else ""
            rows.append(
                (
                    (1 << 30, m.sort_key(other), m.sort_key(citation)),
                    f"<tr><td>{link(what, 1)}</td><td>{entry}{_CITES}</td><td>{link(on, 1)}"
                    f"</td><td>{self.citation(citation)}</td></tr>",
                )
            )
        rows.sort(key=itemgetter(0))
        return _markup("".join([row for _, row in rows]))

    def citation(self, citation: Term) -> str:
        """A CiTO citation as a row shows it, as HTML: its characterization, the
        citation's IRI as the tooltip, and its comment."""
        iri = f' title="{_escape_inner(text(citation))}"' if citation[0] == "<" else ""
        comment = self.model.text(citation, RDFS.comment)
        return f'<span class="citation"{iri}>obtains support from</span>' + (
            _note(comment) if comment else ""
        )

    # -- comparisons -------------------------------------------------------------------------
    def missing_confounders(self, answer: Answer | None) -> dict:
        """(arm, property) to the open questions, for each row of the confounders answer."""
        missing: dict[tuple[Term, Term], list[Term]] = defaultdict(list)
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

    def comparison(self, node: Term, missing) -> N:
        """The comparison as arms × properties: algorithm, checkpoints, then each confounder
        property; a cell is marked "not recorded" exactly when the stored confounders
        query lists that arm and property."""
        m = self.model
        if self._columns is None or self._columns[0] is not missing:
            confounders = sorted(
                {s for s in m.subjects(RDF.type, AK.ConfounderProperty)}
                | {prop for (_, prop) in missing},
                key=m.sort_key,
            )
            self._columns = (missing, [AK.algorithm, AK.checkpointsFrom, *confounders])
        columns = self._columns[1]
        rows = []
        for arm in sorted(m.values(node, AK.arm), key=lambda a: (m.label(a), m.sort_key(a))):
            cells = []
            for prop in columns:
                if (arm, prop) in missing:
                    questions = _joined([self.link(q, 1) for q in missing[(arm, prop)]])
                    cells.append(N(missing=True, questions=questions))
                else:
                    shown = _joined([self.link(v, 1) for v in m.values(arm, prop)])
                    cells.append(N(missing=False, shown=shown))
            rows.append(N(arm=self.link(arm, 1), cells=cells))
        return N(
            columns=[N(text=m.label(c), iri=text(c)) for c in columns],
            rows=rows,
            query=Path(self.query_pages.get("confounders", "")).name,
        )

    # -- pictures ----------------------------------------------------------------------------
    def neighbourhood(self, node: Term, neighbours: Neighbours | None = None) -> Picture | None:
        """The entry's dependencies as its "Rests on" and "Rested on by" tables list
        them, entry by entry: one box per entry, an arrow from an entry to one it rests on
        labelled by the relation (``neighbours``: its ``neighbours``, when known)."""
        m = self.model
        edges = neighbours if neighbours is not None else self.neighbours(node)
        if not edges:
            return None
        boxes: dict[str, Box] = {}

        def box(entry: Term) -> str:
            shown = self._boxes.get(entry)  # an entry is drawn in each neighbour's picture
            if shown is None:
                href = m.pages.get(entry)
                shown = Box(text(entry), m.picture_name(entry), "../" + href if href else None)
                self._boxes[entry] = shown
            boxes.setdefault(shown.key, shown)
            return shown.key

        box(node)
        drawn = {(box(source), m.label(p), box(target)) for source, p, target in edges}
        return Picture(list(boxes.values()), sorted(drawn), across=True, title=m.label(node))

    def neighbours(self, node: Term) -> Neighbours:
        """The links of what ``node`` rests on and of what rests on it (``Model.dependencies``)
        between entries, as (entry, relation, entry it rests on): the nearest
        NEIGHBOURS_MAX links each way, what its neighbourhood picture draws."""
        m = self.model
        owner = m.owner
        found: list[tuple[Term, Term, Term]] = []
        for dependents in (False, True):
            links: dict[tuple[Term, Term, Term], None] = {}
            for d in m.dependencies(node, dependents=dependents):
                source, target = owner(d.dependent), owner(d.on)
                if source is not None and target is not None and source != target:
                    links[(source, d.relation, target)] = None
                    if len(links) == NEIGHBOURS_MAX:
                        break
            found.extend(links)
        return found

    def draw_neighbourhoods(
        self, meanwhile: Callable[[], bool] | None = None, share: bool = False
    ) -> bool:
        """Every entry's neighbourhood picture: drawn together by one ``dot`` run when
        Graphviz is installed and there are at most DOT_NEIGHBOURHOODS of them (dot
        takes about a millisecond each), else each by the layered layout when its page
        is rendered (``picture``, in the process rendering it); the caption says which.
        Given ``meanwhile``, the layered pictures are drawn here, in the order of the
        pages, for as long as it returns True (the time the engine takes to answer).

        With ``share`` (and ``meanwhile``), the neighbours of the entries are found only
        until ``meanwhile`` returns False and more than DOT_NEIGHBOURHOODS have some:
        the processes the pages are shared out between find the others', each those of
        its share (``learn_neighbours``), and tell one another how many have some, which
        the caption says (``count_pictures``). Return whether every entry's are known."""
        known, having = self._neighbours, self._undrawn
        stopping = meanwhile if share else None
        asked = -64
        for index, (node, _) in enumerate(self.by_identifier):
            # Asked every 64 entries: a poll of the engine's pipe costs a few microseconds.
            if stopping is not None and len(having) > DOT_NEIGHBOURHOODS and index >= asked + 64:
                asked = index
                if not stopping():
                    return False
            if node not in known and (neighbours := self.known_neighbours(node)):
                having[node] = neighbours
        few = len(having) <= DOT_NEIGHBOURHOODS
        laid_out_by = None
        if few:
            wanted = {
                node: picture
                for node, neighbours in having.items()
                if (picture := self.neighbourhood(node, neighbours)) is not None
            }
            drawn, laid_out_by = draw_all(list(wanted.values()), prefer_dot=True)
            self.pictures = dict(zip(wanted, drawn, strict=True))
            self._undrawn = {}
        else:
            drawing = list(having)
            while meanwhile is not None and meanwhile() and len(self.pictures) < len(drawing):
                node = drawing[len(self.pictures)]
                self.pictures[node] = self.picture(node)
        if laid_out_by:
            self.pictures_note = f" Laid out by {laid_out_by}."
        elif not few:
            self.count_pictures(len(having))
        return True

    def learn_neighbours(self, listed: Iterable[tuple[Term, str, str]]) -> int:
        """Find the neighbours of the ``listed`` entries (``entry_pages``'s) not known
        yet; return how many of them have some."""
        known = self._neighbours
        return sum(bool(self.known_neighbours(node)) for node, _, _ in listed if node not in known)

    def known_neighbours(self, node: Term) -> Neighbours:
        """``neighbours(node)``, found once for the build."""
        neighbours = self._neighbours.get(node)
        if neighbours is None:
            neighbours = self._neighbours[node] = self.neighbours(node)
        return neighbours

    def known_pictures(self) -> int:
        """How many of the entries whose neighbours ``draw_neighbourhoods`` found have a
        neighbourhood picture."""
        return len(self._undrawn)

    def count_pictures(self, having: int) -> None:
        """Say in the caption of the layered pictures that ``having`` entries have one."""
        if shutil.which("dot"):
            self.pictures_note = (
                f" Laid out by anthology-kg’s layered layout: Graphviz draws the "
                f"neighbourhoods of at most {DOT_NEIGHBOURHOODS:,} entries, and "
                f"{having:,} have one."
            )

    def picture(self, node: Term) -> str:
        """The SVG of ``node``'s neighbourhood ("" when it has none)."""
        drawn = self.pictures.get(node)
        if drawn is None:
            neighbours = self.known_neighbours(node)  # found here for another's share
            wanted = self.neighbourhood(node, neighbours) if neighbours else None
            drawn = layered_svg(wanted.boxes, wanted.edges) if wanted is not None else ""
        return drawn

    def graph_page(self) -> None:
        """The anthology's dependencies between entries: an arrow from an entry to one it
        (or a claim it makes, an arm it has) rests on, by the dependency terms."""
        m = self.model
        owner = m.owner
        drawn = set()
        for s, pairs in m.out.items():
            for p, o in pairs:
                if p in RESTS_ON and o[0] != '"':
                    a, b = owner(s), owner(o)
                    if a is not None and b is not None and a != b:
                        drawn.add((a, p, b))
        ends = {node for s, _, o in drawn for node in (s, o)}
        if len(ends) > PICTURE_MAX_BOXES:  # counted before anything is labelled or sorted
            self.render(
                "graph.html",
                "graph.html",
                title="Dependencies",
                svg=None,
                laid_out_by=None,
                too_large=f"{len(ends)} entries are too many for one legible picture: each "
                "entry's page shows its neighbourhood.",
            )
            return
        edges = sorted({(text(s), m.label(p), text(o)) for s, p, o in drawn})
        keys = sorted({k for a, _, b in edges for k in (a, b)})
        boxes = []
        for key in keys:
            node = f"<{key}>"
            boxes.append(Box(key, m.picture_name(node), m.page_of(node)))
        [svg], laid_out_by = draw_all([Picture(boxes, edges)])
        self.emit("graph.svg", '<?xml version="1.0" encoding="UTF-8"?>\n' + svg)
        self.render(
            "graph.html",
            "graph.html",
            title="Dependencies",
            svg=Markup(svg),
            laid_out_by=laid_out_by,
            too_large=None,
        )

    # -- queries and rules -------------------------------------------------------------------
    def query_view(self, result: Answer | None) -> dict | None:
        if result is None or result.kind == "timeout":
            return None
        if result.kind == "select":
            link = self.link
            return {
                "kind": "select",
                "variables": result.variables,
                "rows": [
                    [link(n, 1) if n is not None else None for n in row]
                    for row in result.rows[:ANSWER_ROWS_SHOWN]
                ],
                "total": len(result.rows),
            }
        if result.kind == "ask":
            return {"kind": "ask", "boolean": result.boolean}
        return {"kind": "graph", "turtle": result.turtle}

    def queries_pages(self, answers: Answers) -> None:
        listed = []
        wanted = any(p.type == "entry" for q in self.queries.values() for p in q.params)
        example_entry = self.loaded_entry() if wanted else ""
        for name, stored in self.queries.items():
            path = self.query_pages[name]
            shown = printable(name)  # as `queries` lists it: a file's name may not be UTF-8
            self.out.sources[path] = partial(_fixed, f"query {name!r}", (stored.path, None))
            refused = None
            if uses_service(stored.text):
                message = (
                    f"query {name!r} calls a remote service (SERVICE); the site runs "
                    "stored queries on the anthology alone and skips it"
                )
                self.out.warnings.append(message)
                refused = message[0].upper() + message[1:] + "."
            found = answers.results.get(name)
            gave_up = None
            if found is not None and found.kind == "timeout":
                message = (
                    f"query {name!r} gave no answer within {found.seconds:g} s (--timeout); "
                    "its page shows none"
                )
                self.out.warnings.append(message)
                gave_up = message[0].upper() + message[1:] + "."
            params = [
                {
                    "name": p.name,
                    "type": p.type,
                    "meaning": p.meaning,
                    # What query.js binds a value to: every spelling, as bind_params,
                    # and what a value of its datatype must be, as bind_params checks it.
                    "spellings": json.dumps(
                        [
                            {k: v for k, v in asdict(spelling).items() if v is not None}
                            | lexical_rule(spelling.datatype)
                            for spelling in p.bound
                        ],
                        ensure_ascii=False,
                    ),
                    "choices": json.dumps(list(p.choices), ensure_ascii=False) if p.choices else "",
                    "required": getattr(p, "required", True),
                    "example": getattr(p, "default", None)
                    or (example_entry if p.type == "entry" else ""),
                }
                for p in stored.params
            ]
            self.render(
                "query.html",
                path,
                title=f"Query: {shown}",
                csp=CSP_WASM,
                q={
                    "title": f"Query: {shown}",
                    "summary": stored.summary,
                    "description": stored.description,
                    "params": params,
                    "params_json": json.dumps([p["name"] for p in params]),
                    "tokens": tokens(stored.text),
                    "text": stored.text,
                    "rows": min(40, stored.text.count("\n") + 2),
                    "result": self.query_view(found),
                    "refused": refused,
                    "gave_up": gave_up,
                    "example": ", ".join(
                        f"{p['name']} = {p['example']}" for p in params if p["example"]
                    ),
                },
            )
            listed.append(
                {
                    "name": shown,
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
                "gave_up": None,
                "example": "",
            },
        )

    def loaded_entry(self) -> str:
        """The identifier to suggest for an entry parameter: the entry for which the
        stored query depends-on has the most rows, counted from the model (the claims
        resting on it, directly or through what rests on it or a codebase it describes,
        and the open questions living in it), the first by identifier on a tie; the first
        entry when none has any."""
        m = self.model
        best, most = (self.by_identifier[0][1] if self.by_identifier else ""), 0
        for node, identifier in self.by_identifier:
            claims, seen, todo = set(), {node}, [node]
            while todo:
                for p, s in m.into.get(todo.pop(), ()):
                    if p == AK.restsOn or p == AK.describedIn:
                        if p == AK.restsOn and any(m.is_a(s, kind) for kind in _CLAIM_KINDS):
                            claims.add(s)
                        if s not in seen:
                            seen.add(s)
                            todo.append(s)
            questions = {
                s
                for p, s in m.into.get(node, ())
                if p == AK.addressedIn and m.is_a(s, AK.OpenQuestion)
            }
            if len(claims) + len(questions) > most:
                best, most = identifier, len(claims) + len(questions)
        return best

    def rules_page(self, report: Report) -> None:
        rules = [
            {
                "number": r.number if r.number is not None else "",
                "source": r.source,
                "severity": r.severity,
                "label": r.label,
                "name": r.name,
                "code": r.code,
            }
            # The report's own catalogue, whose ADR names its results carry.
            for r in report.rules or self.rules
        ]
        self.render(
            "rules.html",
            "rules.html",
            title="Rules",
            rules=rules,
            rows=self.result_rows(report.results, 0),
            summary=summary_line(report),
        )

    def build(self, answers: Answers) -> SiteText:
        """Every page, once the engine has answered (pictures planned beforehand)."""
        self.other_pages(answers)
        self.entries(answers, self.entry_pages())
        return self.out

    def other_pages(self, answers: Answers) -> None:
        """Every page but the entries' (``entries``)."""
        self.queries_pages(answers)
        self.index(answers.report)
        self.rules_page(answers.report)
        self.graph_page()


_CLAIM_APART = frozenset((RDF.type, RDFS.label, AK.restsOn))
_CLAIM_KINDS = (AK.Claim, AK.ReproducibilityClaim, AK.QuantitativeClaim)  # as depends-on asks


try:  # markupsafe's C escaper without the Markup it wraps its result in (3.x, private)
    from markupsafe._speedups import _escape_inner
except ImportError:  # MarkupSafe 2.x, or a pure-Python install: the public escape

    def _escape_inner(s: str, /) -> str:
        return str(escape(s))


def _markup(html: str) -> Markup:
    """``html`` (escaped already, a str) as a Markup, without Markup's own constructor."""
    return str.__new__(Markup, html)


def _escape(value: object) -> Markup:
    """``markupsafe.escape(value)``, faster for what pages mostly hold: a Markup (a link,
    escaped once when made) is itself, not copied into a new Markup; a str is escaped in
    C and made a Markup without Markup's own constructor (written in Python)."""
    kind = type(value)
    if kind is Markup:
        return value  # type: ignore[return-value]
    if kind is str:
        return _markup(_escape_inner(value))  # type: ignore[arg-type]
    return escape(value)


def _note(value: str) -> str:
    """``value``, escaped, as a note after a value."""
    return f' <span class="note">{_escape_inner(value)}</span>'


def _joined(links: list[Markup]) -> Markup:
    """Values as ``link`` shows them, joined by commas; one value is itself (it is
    escaped already: Markup.join would only copy it, at a cost per fact)."""
    return links[0] if len(links) == 1 else _COMMA.join(links)


def _fixed(what: str, where: tuple[Path, int | None] | None) -> Source:
    return what, where


def _merged_questions(rows: list[dict]) -> list[dict]:
    """One line per question, its relations to the entry joined (lives here, concerns
    the GRPO arm, concerns the PPO arm), in first-seen order."""
    merged: dict[Term, dict] = {}
    for row in rows:
        key = row.pop("key")
        if key not in merged:
            merged[key] = {**row, "relations": []}
        if row["relation"] not in merged[key]["relations"]:
            merged[key]["relations"].append(row["relation"])
    for row in merged.values():
        row["relation"] = "; ".join(row.pop("relations"))
    return list(merged.values())
