"""The site's static files: stylesheet and scripts, the search index, the anthology and the
SPARQL engine for the browser.

Everything a page loads is a file of the site loaded by a classic ``<script src>``:
Chromium refuses ES modules and ``fetch()`` from a ``file://`` page, so data travels as
JavaScript string literals (JSON-encoded), and Oxigraph's ES-module build is turned
into a classic script whose WebAssembly bytes are a base64 string.
"""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Iterable
from importlib import resources

from rdflib import Graph

from ..terms import nt_term
from .model import AK, DCTERMS, RDF, RDFS, Model, Term, entries_by_identifier, text

VENDOR = "vendor/oxigraph"
VENDORED = ("LICENSE-MIT", "LICENSE-APACHE", "VENDORED.md")
EDITOR = ("codemirror.js", "codemirror.css", "sparql.js", "LICENSE", "VENDORED.md")
_WORD = re.compile(r"\w+", re.UNICODE)


def package_file(relative: str) -> bytes:
    return (resources.files("anthology_kg.site") / relative).read_bytes()


def js_value(value: object) -> str:
    """``value`` as a JavaScript literal that is safe inside a script file: JSON, with
    ``<``, U+2028 and U+2029 escaped."""
    return (
        json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        .replace("<", "\\u003c")
        .replace("\u2028", "\\u2028")
        .replace("\u2029", "\\u2029")
    )


def oxigraph_script() -> str:
    """Oxigraph's ``web.js`` (an ES module) as a classic script defining
    ``window.oxigraph``: ``export`` keywords dropped, the module wrapped in a function,
    the default wasm URL (which needs ``import.meta``) removed: the page passes the
    bytes to ``initSync`` itself."""
    source = package_file(f"{VENDOR}/web.js").decode("utf-8")
    names = re.findall(r"^export (?:async function|function|class) (\w+)", source, flags=re.M)
    body = re.sub(r"^export (async function|function|class) ", r"\1 ", source, flags=re.M)
    body = body.replace("export { initSync, __wbg_init as default };", "")
    body = body.replace("new URL('web_bg.wasm', import.meta.url)", "undefined")
    if "import.meta" in body or re.search(r"^\s*(?:import|export)\b", body, flags=re.M):
        raise RuntimeError("the vendored oxigraph web.js changed shape; update assets.py")
    exported = ", ".join([*names, "initSync"])
    return (
        "// Oxigraph (MIT OR Apache-2.0), see oxigraph/VENDORED.md: web.js as a classic script.\n"
        "(function () {\n'use strict';\n"
        + body
        + f"\nwindow.oxigraph = {{ {exported} }};\n}})();\n"
    )


def oxigraph_wasm_script() -> str:
    wasm = base64.b64encode(package_file(f"{VENDOR}/web_bg.wasm")).decode("ascii")
    return f'window.OXIGRAPH_WASM = "{wasm}";\n'


def anthology_script(model: Model, ontology: Graph, shapes: Graph) -> str:
    """The anthology for the browser's engine: the data files' Turtle as written (what
    the command line loads, so the browser and the command line answer alike), its
    base IRI, and the ontology and shapes as sorted N-Triples. An anthology with no
    files (a remote store) travels as N-Triples of its data too."""
    lines = {
        f"{nt_term(s)} {nt_term(p)} {nt_term(o)} .\n"
        for graph in (ontology, shapes)
        for s, p, o in graph
    }
    if not model.documents:  # pyoxigraph writes its terms in N-Triples syntax
        lines.update(f"{s} {p} {o} .\n" for s, pairs in model.out.items() for p, o in pairs)
    data = {
        "base": model.anthology.base,
        "turtle": model.documents,
        "ntriples": "".join(sorted(lines)),
    }
    return f"window.ANTHOLOGY_DATA = {js_value(data)};\n"


def search_entries(
    model: Model, entries: Iterable[tuple[Term, str]] | None = None
) -> list[list[str]]:
    """One row per entry: identifier, page, IRI, title, byline, and its distinct words
    (identifier, title, authors, year, takeaways, prose, and the names of what it links
    to), lower case, in order of first use. ``entries``: ``entries_by_identifier``'s,
    when the caller has them already."""
    rows = []
    labels, identifiers, vocabulary = model.labels, model.identifiers, model.vocabulary
    for node, identifier in entries if entries is not None else entries_by_identifier(model):
        texts: list[str] = [identifier]
        for part in model.owned(node):
            for p, o in model.out.get(part, ()):
                if p == RDF.type:
                    continue
                if o[0] == '"':
                    texts.append(text(o))
                elif o in identifiers:
                    texts.append(identifiers[o])
                    label = labels.get(o)
                    if label:
                        texts.append(label)
                elif o in labels or o in vocabulary:
                    texts.append(model.label(o))
        words = dict.fromkeys(_WORD.findall(" ".join(texts).lower()))
        authors = model.text(node, AK.authors)
        year = model.text(node, DCTERMS.issued)
        byline = " ".join(x for x in (authors, f"({year})" if year else None) if x)
        title = model.text(node, DCTERMS.title) or model.text(node, RDFS.label)
        rows.append(
            [
                identifier,
                model.pages[node],
                text(node),
                title or "",
                byline,
                " ".join(words),
            ]
        )
    return rows


SEARCH_INDEX = "assets/search-index.js"


def search_script(model: Model, entries: Iterable[tuple[Term, str]] | None = None) -> str:
    return f"window.ANTHOLOGY_SEARCH = {js_value(search_entries(model, entries))};\n"


def static_files(model: Model, ontology: Graph, shapes: Graph) -> dict[str, str | bytes]:
    """Every file under ``assets/`` of the site but the search index (``search_script``,
    ``SEARCH_INDEX``)."""
    files: dict[str, str | bytes] = {
        f"assets/{name}": package_file(f"static/{name}")
        for name in ("style.css", "search.js", "query.js")
    }
    files["assets/oxigraph.js"] = oxigraph_script()
    files["assets/oxigraph-wasm.js"] = oxigraph_wasm_script()
    files["assets/anthology-data.js"] = anthology_script(model, ontology, shapes)
    for name in VENDORED:
        files[f"assets/oxigraph/{name}"] = package_file(f"{VENDOR}/{name}")
    for name in EDITOR:
        files[f"assets/codemirror/{name}"] = package_file(f"vendor/codemirror/{name}")
    return files
