"""Every public name of ``anthology_kg`` is typed for a type checker (the package ships
py.typed): its ``TYPE_CHECKING`` block imports each name of ``_PUBLIC`` from the module
that defines it, and the lazy ``__getattr__`` is hidden from type checkers, which would
take any attribute of the package as ``Any`` (hunt12's finding 5). Read from the
module's text, without running mypy."""

from __future__ import annotations

import ast
import inspect

import anthology_kg


def _module() -> ast.Module:
    return ast.parse(inspect.getsource(anthology_kg))


def _tests(node: ast.If) -> str:
    return ast.unparse(node.test)


def test_the_type_checking_block_imports_every_public_name_from_its_module():
    typed: dict[str, str] = {}
    for block in _module().body:
        if isinstance(block, ast.If) and _tests(block) == "TYPE_CHECKING":
            for statement in block.body:
                assert isinstance(statement, ast.ImportFrom) and statement.level == 1
                for alias in statement.names:
                    typed[alias.asname or alias.name] = statement.module or ""
    assert typed == anthology_kg._PUBLIC
    assert set(anthology_kg.__all__) == {"__version__", *anthology_kg._PUBLIC}


def test_the_lazy_getattr_is_not_seen_by_type_checkers():
    for node in _module().body:
        assert not (isinstance(node, ast.FunctionDef) and node.name == "__getattr__")
        if isinstance(node, ast.If) and any(
            isinstance(inner, ast.FunctionDef) and inner.name == "__getattr__"
            for inner in node.body
        ):
            assert _tests(node) == "not TYPE_CHECKING"
    assert anthology_kg.open_engine.__module__ == "anthology_kg.engine"  # still lazy
