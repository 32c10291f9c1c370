"""anthology-kg: a research anthology kept as an RDF knowledge graph."""

from typing import TYPE_CHECKING

__version__ = "0.1.0"

# The public API, imported on first use so that `import anthology_kg` (and the command
# line) stays fast. Each name is documented where it is defined.
_PUBLIC = {
    "AnthologyError": "errors",
    "Engine": "engine",
    "open_engine": "engine",
    "Anthology": "loader",
    "load_anthology": "loader",
    "validate": "validation",
    "Report": "validation",
    "RuleResult": "validation",
    "Rule": "rules",
    "rule_catalog": "rules",
    "text_report": "reports",
    "json_report": "reports",
    "sarif_report": "reports",
    "select_results": "reports",
    "StoredQuery": "queries",
    "QueryResult": "query_result",
    "catalog": "queries",
    "find_query": "queries",
    "bind_params": "queries",
    "run_local": "local_query",
    "FolderSource": "export_files",
    "build_export": "export",
    "to_turtle": "export_writers",
    "to_ntriples": "export_writers",
    "to_nquads": "export_writers",
    "to_jsonld": "export_writers",
    "to_rdfxml": "export_writers",
    "run_remote": "endpoint",
    "publish": "triplestore",
    "resolve_states": "revisions",
    "read_folder": "revisions",
    "diff_states": "diff",
    "AnthologyDiff": "diff",
    "diff_query": "querydiff",
    "compare_to_baseline": "baseline",
}
__all__ = [
    "__version__",
    "AnthologyError",
    "Engine",
    "open_engine",
    "Anthology",
    "load_anthology",
    "validate",
    "Report",
    "RuleResult",
    "Rule",
    "rule_catalog",
    "text_report",
    "json_report",
    "sarif_report",
    "select_results",
    "StoredQuery",
    "QueryResult",
    "catalog",
    "find_query",
    "bind_params",
    "run_local",
    "FolderSource",
    "build_export",
    "to_turtle",
    "to_ntriples",
    "to_nquads",
    "to_jsonld",
    "to_rdfxml",
    "run_remote",
    "publish",
    "resolve_states",
    "read_folder",
    "diff_states",
    "AnthologyDiff",
    "diff_query",
    "compare_to_baseline",
]

if TYPE_CHECKING:  # the same names, for type checkers (py.typed)
    from .baseline import compare_to_baseline
    from .diff import AnthologyDiff, diff_states
    from .endpoint import run_remote
    from .engine import Engine, open_engine
    from .errors import AnthologyError
    from .export import build_export
    from .export_files import FolderSource
    from .export_writers import to_jsonld, to_nquads, to_ntriples, to_rdfxml, to_turtle
    from .loader import Anthology, load_anthology
    from .local_query import run_local
    from .queries import StoredQuery, bind_params, catalog, find_query
    from .query_result import QueryResult
    from .querydiff import diff_query
    from .reports import json_report, sarif_report, select_results, text_report
    from .revisions import read_folder, resolve_states
    from .rules import Rule, rule_catalog
    from .triplestore import publish
    from .validation import Report, RuleResult, validate


if not TYPE_CHECKING:  # (a module __getattr__ would make every name Any to mypy)

    def __getattr__(name: str) -> object:
        if name in _PUBLIC:
            import importlib

            return getattr(importlib.import_module(f".{_PUBLIC[name]}", __name__), name)
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_PUBLIC))
