"""Shell completion: stored query names, their parameter names and entry identifiers.

Click calls these while completing (``_ANTHOLOGY_KG_COMPLETE=bash_source anthology-kg``,
see the README); the group's callback has not run then, so the anthology is found from
the ``--root`` and ``--base`` already typed, else from the working directory. A
completion never fails: an anthology that does not load completes nothing.
"""

from __future__ import annotations

import os
from pathlib import Path

import click
from click.shell_completion import BashComplete, CompletionItem, add_completion_class

from .choices import DEFAULT_BASE
from .errors import AnthologyError


def joined_at_equals(words: list[str]) -> list[str]:
    """``words`` as bash split them, each ``=`` (which is in bash's ``COMP_WORDBREAKS``)
    joined again with the words either side of it: ``entry``, ``=``, ``AR`` is
    ``entry=AR``, and ``entry``, ``=`` at the end is ``entry=``."""
    joined: list[str] = []
    glue = False
    for word in words:
        if word == "=" and joined:
            joined[-1] += word
            glue = True
        elif glue:
            joined[-1] += word
            glue = False
        else:
            joined.append(word)
    return joined


class _Bash(BashComplete):
    """Click's bash completion, the words bash split at ``=`` joined again
    (``--param entry=AR`` reached the command as three words, and completed nothing),
    each answer then cut to the part after the ``=`` that bash replaces, and no space
    typed after an answer that ends in ``=`` (``entry=`` is followed by its value)."""

    source_template = BashComplete.source_template.replace(
        "COMPREPLY+=($value)",
        "COMPREPLY+=($value)\n            [[ $value == *= ]] && compopt -o nospace",
    )
    #: How many characters of each answer bash does not replace (the word before '=').
    _cut = 0

    def get_completion_args(self) -> tuple[list[str], str]:
        args, incomplete = super().get_completion_args()
        words = joined_at_equals([*args, incomplete])
        # Bash replaces only what follows the last '=' of the word being completed.
        self._cut = len(words[-1]) - len(incomplete.lstrip("="))
        return words[:-1], words[-1]

    def format_completion(self, item: CompletionItem) -> str:
        if item.type == "plain" and self._cut:
            return f"{item.type},{item.value[self._cut :]}"
        return super().format_completion(item)


add_completion_class(_Bash)


def _root(ctx: click.Context) -> Path | None:
    root = ctx.find_root().params.get("root")
    return Path(root) if root else None


def _anthology(ctx: click.Context):
    from .engine import open_engine

    base = ctx.find_root().params.get("base") or DEFAULT_BASE
    return open_engine(root=_root(ctx), base=base)


def _stored_queries(ctx: click.Context):
    """The stored queries, read from their folders alone: a TAB waits for no data."""
    from .queries import catalog, query_folders

    return catalog(query_folders(_root(ctx)))


def complete_queries(ctx: click.Context, param, incomplete: str) -> list[CompletionItem]:
    """The stored queries whose name starts with ``incomplete``, with their summary."""
    try:
        queries = _stored_queries(ctx)
    except AnthologyError:
        return []
    return [
        CompletionItem(name, help=query.summary)
        for name, query in queries.items()
        if name.startswith(incomplete)
    ]


def complete_params(ctx: click.Context, param, incomplete: str) -> list[CompletionItem]:
    """``NAME=`` for each parameter of the query being typed; after ``entry=``, the
    entry identifiers."""
    try:
        queries = _stored_queries(ctx)
    except AnthologyError:
        return []
    chosen = ctx.params.get("name") or _typed_query_name()
    params = {
        p.name: p
        for query in queries.values()
        if chosen in (None, query.name)
        for p in query.params
    }
    name, sep, value = incomplete.partition("=")
    if not sep:
        return [
            CompletionItem(f"{p.name}=", help=p.meaning)
            for p in params.values()
            if p.name.startswith(name)
        ]
    types = {p.name: p.type for p in params.values()}
    if types.get(name) != "entry":
        return []
    try:
        anthology = _anthology(ctx)
    except AnthologyError:
        return []
    return [
        CompletionItem(f"{name}={identifier}")
        for identifier in _identifiers(anthology)
        if identifier.startswith(value)
    ]


def _typed_query_name() -> str | None:
    """The query name typed after ``query``, read from the words the shell passes
    (``COMP_WORDS``): while an option's value is being completed, click has not bound
    the command's arguments yet."""
    words = joined_at_equals(os.environ.get("COMP_WORDS", "").split())
    if "query" in words:
        after = words[words.index("query") + 1 :]
        for previous, word in zip(["query", *after], after, strict=False):
            if not word.startswith("-") and previous != "--param" and "=" not in word:
                return word
    return None


def complete_entries(ctx: click.Context, param, incomplete: str) -> list[CompletionItem]:
    """The entry identifiers that start with ``incomplete``."""
    try:
        identifiers = _identifiers(_anthology(ctx))
    except AnthologyError:
        return []
    return [CompletionItem(i) for i in identifiers if i.startswith(incomplete)]


def _identifiers(anthology) -> list[str]:
    return sorted({identifier for _, identifier in anthology.identifier_pairs()})
