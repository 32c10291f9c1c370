"""The ``anthology-kg`` command line: options in, library calls, text out.

Exit codes: 0 ok; 1 the anthology breaks a rule; 2 a usage or input error.
"""

from __future__ import annotations

from pathlib import Path

import click

from . import __version__
from .errors import AnthologyError
from .loader import Anthology, load_anthology
from .namespaces import DEFAULT_BASE
from .stats import compute_stats

EXIT_OK, EXIT_RULES, EXIT_INPUT = 0, 1, 2


class AnthologyGroup(click.Group):
    """A click group that turns an AnthologyError into ``file:line: message``, exit 2."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except AnthologyError as exc:
            click.echo(f"anthology-kg: {exc}" if exc.path is None else str(exc), err=True)
            ctx.exit(EXIT_INPUT)


class Settings:
    """The global options, and the anthology loaded from them on first use."""

    def __init__(self, root: Path | None, base: str):
        self.root = root
        self.base = base
        self._anthology: Anthology | None = None

    def anthology(self, **kwargs) -> Anthology:
        if self._anthology is None or kwargs:
            self._anthology = load_anthology(self.root, base=self.base, **kwargs)
        return self._anthology


@click.group(cls=AnthologyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="anthology-kg")
@click.option(
    "--root",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="Anthology folder whose data/ is read (default: the nearest ancestor of the "
    "working directory holding data/, else the bundled anthology).",
)
@click.option(
    "--base",
    default=DEFAULT_BASE,
    show_default=True,
    envvar="ANTHOLOGY_KG_BASE",
    help="Namespace of entry IRIs: an entry's IRI is this base plus its identifier.",
)
@click.pass_context
def main(ctx: click.Context, root: Path | None, base: str) -> None:
    """Keep a research anthology as an RDF knowledge graph.

    Reads the Turtle files of an anthology's data/ folder against the anthology-kg
    ontology. Exit codes: 0 ok, 1 the anthology breaks a rule, 2 usage or input error.
    """
    ctx.obj = Settings(root, base)


@main.command()
@click.pass_obj
def stats(settings: Settings) -> None:
    """Print triples, entries by class and by category, and the files read."""
    result = compute_stats(settings.anthology())
    click.echo(f"triples: {result.triples}")
    click.echo(f"entries: {result.entries}")
    click.echo("entries by class:")
    for name, count in result.by_class.items():
        click.echo(f"  {name}: {count}")
    click.echo("entries by category:")
    for name, count in result.by_category.items():
        click.echo(f"  {name}: {count}")
    click.echo(f"files read: {len(result.files)}")
    for name in result.files:
        click.echo(f"  {name}")
