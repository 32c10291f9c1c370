"""The ``anthology-kg`` command line: options in, library calls, text out.

Exit codes: 0 ok; 1 the anthology breaks a rule (or a difference: fmt --check, import
--check, diff); 2 a usage or input error; 130, 141, 143 stopped by a signal.
"""

from __future__ import annotations

import contextlib
import copy
import gc
import io
import os
import shlex
import stat
import sys
import traceback
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import IO, TYPE_CHECKING, NoReturn, TextIO, TypeVar

import click

from . import __version__
from .choices import (
    DATA_GRAPH,
    DEFAULT_BASE,
    DIFF_FORMATS,
    ENGINES,
    ENTRY_KINDS,
    EXPORT_FORMATS,
    HTTP_TIMEOUT,
    INFERENCE_CHOICES,
    MAX_ENTRIES,
    METHODS,
    MIN_ENTRIES,
    QUERY_DIFF_FORMATS,
    QUERY_TIMEOUT,
    REPORT_FORMATS,
    RESULT_FORMATS,
    SHACL_REPORT_FORMATS,
)
from .completion import complete_entries, complete_params, complete_queries
from .config import FAIL_ON, find_config, format_from_output
from .errors import (
    AnthologyError,
    Interrupted,
    display_path,
    nesting_followed,
    printable,
    printable_lines,
)

# Each command imports the library modules it uses when it runs, not here: `--version`,
# `--help` and `check` then load no more than they need (no pySHACL, owlrl, Jinja2 or
# httpx on the fast engine's path; tests/test_imports.py holds this).
if TYPE_CHECKING:
    from collections.abc import Callable

    from .endpoint import Connection
    from .engine import Engine

F = TypeVar("F", bound=Callable[..., object])
EXIT_OK, EXIT_RULES, EXIT_INPUT = 0, 1, 2
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report it
EXIT_TERMINATED = 143  # 128 + SIGTERM


@contextlib.contextmanager
def _naming_the_configuration(path: Path | None) -> Iterator[None]:
    """A bad value the configuration file gave (click's BadParameter, its source the
    default map) as an AnthologyError naming the file, the line and the key, not the
    command-line option the user did not write: ``anthology-kg.toml:1: root: Directory
    ...``, ``anthology-kg.toml:2: format.validate: 'yaml' is not one of ...``."""
    from click.core import ParameterSource

    from .config import setting_line

    try:
        yield
    except click.BadParameter as exc:
        ctx, param = exc.ctx, exc.param
        if path is None or ctx is None or param is None or param.name is None:
            raise
        if ctx.get_parameter_source(param.name) is not ParameterSource.DEFAULT_MAP:
            raise
        key = _setting(ctx, param.name)
        said = f"{'.'.join(key)}: {exc.message}"
        raise AnthologyError(said, path, setting_line(path, key)) from None


def _setting(ctx: click.Context, name: str) -> tuple[str, ...]:
    """The key of the configuration file that sets option ``name`` of ``ctx``'s command:
    ``("fail-on",)``; a format by its command, ``("format", "validate")``."""
    if name == "fmt":
        return ("format", str(ctx.info_name))
    return (name.replace("_", "-"),)


def _format_choices(group: click.Group) -> dict[str, tuple[str, ...]]:
    """The formats each command of ``group`` takes (its ``--format`` choices), by name."""
    return {
        name: tuple(param.type.choices)
        for name, command in group.commands.items()
        for param in command.params
        if param.name == "fmt" and isinstance(param.type, click.Choice)
    }


def _working_folder() -> Path | None:
    """The working directory; None when it no longer exists (another process removed it)."""
    try:
        return Path.cwd()
    except FileNotFoundError:
        return None


def _reads_no_anthology(args: list[str], extra: dict) -> bool:
    """Whether the command line only asks for help, the version or a completion (click
    parses resiliently then), which a broken configuration file must not stop."""
    asked = args[: args.index("--")] if "--" in args else args
    return bool(extra.get("resilient_parsing")) or any(
        arg in ("--help", "-h", "--version") for arg in asked
    )


#: Where the context keeps the configuration file's path (click's ``Context.meta``).
_CONFIGURATION = "anthology-kg.configuration"


def _print_help(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    """click's ``--help``, printed through ``_out``: one that cannot be written is one
    line, exit 2."""
    if value and not ctx.resilient_parsing:
        _out(ctx.get_help(), color=ctx.color)
        ctx.exit()


def _print_version(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    """``--version``, as click's version option says it, printed through ``_out``."""
    if value and not ctx.resilient_parsing:
        _out(f"anthology-kg, version {__version__}")
        ctx.exit()


def _printing_through_out(option: click.Option | None) -> click.Option | None:
    """A command's help ``option`` (None: it has none), printing through ``_out``."""
    if option is not None:
        option.callback = _print_help
    return option


#: Where the context keeps the command line the group was given (``Context.meta``).
_COMMAND_LINE = "anthology-kg.command-line"
#: Set in ``Context.meta`` once a command's own code runs (it says its input errors).
_RUNNING = "anthology-kg.running"


#: What writes a command's input error in the format it is asked for, given that format
#: and the command's parsed options, where the format carries one (a report a workflow or
#: a program reads where it expects the output); None where it does not.
InputErrorWriters = Callable[
    [str | None, Mapping[str, object]], "Callable[[AnthologyError], str] | None"
]


class AnthologyCommand(click.Command):
    """A command whose ``--help`` prints through ``_out``. One given ``input_errors``
    writes an input error in the format it is asked for where that format carries one
    (validate's CI formats and JSON: reports.ERROR_WRITERS; diff's JSON) itself; the
    group writes those raised before it runs (``_written_in_ci_format``)."""

    def __init__(self, *args, input_errors: InputErrorWriters | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.input_errors = input_errors

    def get_help_option(self, ctx: click.Context) -> click.Option | None:
        return _printing_through_out(super().get_help_option(ctx))

    def invoke(self, ctx: click.Context):
        ctx.meta[_RUNNING] = True
        return super().invoke(ctx)


class AnthologyGroup(click.Group):
    """A click group that turns an AnthologyError into ``file:line: message``, exit 2,
    and takes its options' defaults from the configuration file (config.find_config)."""

    command_class = AnthologyCommand

    def get_help_option(self, ctx: click.Context) -> click.Option | None:
        return _printing_through_out(super().get_help_option(ctx))

    def main(self, *args, **kwargs):
        """click's ``main``; what its standalone mode lets escape as a traceback (an
        unwritable stderr under a usage error's message, memory running out while the
        command line is read) is one line, as far as stderr takes it, and exit 2."""
        standalone = kwargs.get("standalone_mode", args[3] if len(args) > 3 else True)
        try:
            return super().main(*args, **kwargs)
        except MemoryError:
            if not standalone:
                raise
            _say("anthology-kg: out of memory: give it more memory")
        except BrokenPipeError:
            if not standalone:
                raise
            _stdout_to_devnull()
            sys.exit(EXIT_BROKEN_PIPE)
        except OSError as exc:
            if not standalone:
                raise
            _say(f"anthology-kg: {exc}")
        sys.exit(EXIT_INPUT)

    def make_context(self, info_name, args, parent=None, **extra):
        from .config import Config, check_formats

        here = _working_folder()
        try:
            config = find_config(here) if here is not None else Config()
            check_formats(config, _format_choices(self), self.commands)
            extra.setdefault("default_map", config.default_map())
        except AnthologyError as exc:
            if not _reads_no_anthology(args, extra):
                self._written_in_ci_format(exc, info_name, args, None)
                _say(_error_line(exc))
                sys.exit(EXIT_INPUT)
            config = Config()  # --help, --version and completion answer all the same
        try:
            # --help and --version print here, before ``invoke`` and its handlers.
            with _naming_the_configuration(config.path):
                ctx = super().make_context(info_name, args, parent, **extra)
        except BrokenPipeError:
            _stdout_to_devnull()
            sys.exit(EXIT_BROKEN_PIPE)
        except AnthologyError as exc:  # a bad --root from the configuration file, _OutputLost
            if not isinstance(exc, _OutputLost):
                self._written_in_ci_format(exc, info_name, args, extra.get("default_map"))
            _say(_error_line(exc))
            sys.exit(EXIT_INPUT)
        ctx.meta[_CONFIGURATION] = config.path  # for invoke: the file is read once
        ctx.meta[_COMMAND_LINE] = (info_name, list(args))
        return ctx

    def _written_before_running(self, ctx: click.Context, error: AnthologyError) -> None:
        """``_written_in_ci_format`` of ``error`` where it was raised before the command's
        own code ran (which writes its errors itself) and the group has its command line."""
        given = ctx.meta.get(_COMMAND_LINE)
        if given and not ctx.meta.get(_RUNNING):
            info_name, args = given
            self._written_in_ci_format(error, info_name, args, ctx.default_map)

    def _written_in_ci_format(
        self, error: AnthologyError, info_name: str | None, args: list[str], default_map
    ) -> None:
        """Write ``error``, raised before the command ran (the configuration file's, read
        before the command line is parsed; a bad option value), where the command line
        ``args`` asks a command that has ``input_errors`` for a format that carries one
        (validate's --format github, sarif, junit or json, diff's json, or -o's
        extension; else the configuration's ``default_map`` format), as the command
        writes its own: a workflow reads it where it expects the report. The command
        line is parsed again for it, its errors passed over (click's resilient
        parsing); one that cannot be written is said on stderr."""
        probe = click.Context(
            self, info_name=info_name, resilient_parsing=True, default_map=default_map
        )
        with probe:
            rest = click.Command.parse_args(self, probe, list(args))  # [command, its args]
            if not rest:
                return
            name, command, rest = self.resolve_command(probe, rest)
            writers = getattr(command, "input_errors", None)
            if name is None or command is None or writers is None:
                return
            with command.make_context(name, rest, parent=probe, resilient_parsing=True) as sub:
                output = sub.params.get("output")
                choices = _format_choices(self)[name]
                fmt = _output_format(name, sub.params.get("fmt"), output, choices)
                writer = writers(fmt, sub.params)
                if writer is not None:
                    try:
                        _emit(writer(error), output)
                    except AnthologyError as unwritten:
                        _say(_error_line(unwritten))

    def invoke(self, ctx: click.Context):
        try:
            outcome = self._invoke_reporting_errors(ctx)
        except (click.exceptions.Exit, SystemExit) as exit_:
            code = exit_.exit_code if isinstance(exit_, click.exceptions.Exit) else exit_.code
            if _TERMINATED and code != EXIT_TERMINATED:
                self._terminated(ctx)
            raise
        if _TERMINATED:
            self._terminated(ctx)
        if _PIPE_SIGNALLED and _reader_gone(sys.stdout):
            # A write of more than the pipe holds, which the reader closed midway, took
            # part and returned the short count, no error (text written through click.echo
            # drops the rest unseen): SIGPIPE came, and the reader is gone.
            _stdout_to_devnull()
            ctx.exit(EXIT_BROKEN_PIPE)
        return outcome

    def _saying_where_a_global_option_goes(
        self, exc: click.NoSuchOption
    ) -> click.NoSuchOption | None:
        """``exc`` (a command's "No such option") saying that the option is the group's
        own (``check --root DIR``), or None if it is not: click takes the group's options
        only before the command's name."""
        name = exc.option_name.partition("=")[0]
        for param in self.params:
            if isinstance(param, click.Option) and name in (*param.opts, *param.secondary_opts):
                program, command = "anthology-kg", "COMMAND"
                if exc.ctx is not None:  # as the usage line names them
                    program = exc.ctx.find_root().info_name or program
                    command = exc.ctx.info_name or command
                value = "" if param.is_flag or param.count else " …"  # -v takes no value
                message = (
                    f"{exc.message} {name} is an option of anthology-kg itself: give it "
                    f"before the command ({program} {name}{value} {command} …)."
                )
                return click.NoSuchOption(exc.option_name, message, exc.possibilities, exc.ctx)
        return None

    @staticmethod
    def _terminated(ctx: click.Context, note: str | None = None) -> None:
        # A SIGTERM came but its KeyboardInterrupt was dropped: Python drops what a signal
        # handler raises while a weakref callback runs (an import's module locks), and the
        # command ran on to its end. It still ends as terminated, for CI to see.
        _say(f"anthology-kg: terminated{'; ' + note if note else ''}")
        ctx.exit(EXIT_TERMINATED)

    def _invoke_reporting_errors(self, ctx: click.Context):
        try:
            with _naming_the_configuration(ctx.meta.get(_CONFIGURATION)), nesting_followed():
                return super().invoke(ctx)
        except click.UsageError as exc:
            if isinstance(exc, click.NoSuchOption):
                exc = self._saying_where_a_global_option_goes(exc) or exc
            # A bad option of the command (--fail-on bogus): so that a report file of an
            # earlier run is not left to be read as this one's.
            self._written_before_running(ctx, AnthologyError(exc.format_message()))
            raise exc from None
        except AnthologyError as exc:
            if not isinstance(exc, _OutputLost):
                # (a bad value of an option or of the environment, said before the command)
                self._written_before_running(ctx, exc)
            _say(_error_line(exc))
            ctx.exit(EXIT_INPUT)
        except MemoryError as exc:
            # The frames of the command hold what filled the memory: freed before a
            # word is said (the frames still running are left as they are).
            traceback.clear_frames(exc.__traceback__)
            del exc
            gc.collect()
            command = ctx.invoked_subcommand or "the command"
            _say(
                f"anthology-kg: out of memory while running {command} (the machine's or the "
                "job's memory limit): give it more memory"
            )
            ctx.exit(EXIT_INPUT)
        except FileNotFoundError:
            if _working_folder() is not None:
                raise
            # Another process removed the working directory: every path relative to it
            # (the anthology found from it, a --baseline's files) is gone with it.
            _say(
                "anthology-kg: the working directory no longer exists (removed meanwhile?): "
                "change to one that does, or name the anthology with --root DIR"
            )
            ctx.exit(EXIT_INPUT)
        except BrokenPipeError:
            # The reader closed the pipe (``| head``): the exit of a command stopped by
            # SIGPIPE (click's would be 1, "a rule is broken"), stdout pointed at
            # /dev/null so that the last flush says nothing (Python's documented way).
            _stdout_to_devnull()
            ctx.exit(EXIT_BROKEN_PIPE)
        except KeyboardInterrupt as exc:
            # (what the stopped work leaves, where the user must know it: Interrupted)
            note = printable(exc.note) if isinstance(exc, Interrupted) else None
            if _TERMINATED:
                self._terminated(ctx, note)
            _say(f"anthology-kg: interrupted{'; ' + note if note else ''}")
            ctx.exit(EXIT_INTERRUPTED)


class Settings:
    """The global options; ``engine`` opens the anthology they name."""

    #: --timeout and --allow-service of the command that runs queries or validation.
    timeout: float = QUERY_TIMEOUT
    allow_service: bool = False

    def __init__(self, root: Path | None, base: str, verbosity: int = 0, color=None):
        self.root = root
        self.base = base
        #: -1 with --quiet (results only), 0, 1 and more with -v.
        self.verbosity = verbosity
        #: False with --no-color, NO_COLOR or TERM=dumb, True with --color or FORCE_COLOR,
        #: None: on terminals.
        self.color = color
        self._root_said = False  # which anthology is read: said once (engine)

    @property
    def quiet(self) -> bool:
        """--quiet: results only, no summary, no notes."""
        return self.verbosity < 0

    def say_root(self, kind: str | None = None, read: str | None = None) -> None:
        """Say once, on stderr, that the bundled anthology is read for want of a data/
        folder (with -v: which anthology is read, and on which engine ``kind``). ``read``
        says what of it is read where that is not the anthology (a command reading a
        store's data: its rules, its stored queries); "" says nothing."""
        from .resources import bundled_dir, nearest_root

        if self._root_said:
            return
        self._root_said = True
        found = self.root or nearest_root()
        if read is None:
            read = "the bundled sample anthology is read (--root DIR names yours)"
        if found is None and read:
            _note(self, f"no data/ folder here or above: {read}")
        on = f", {kind}" if kind else ""
        _note(self, f"the anthology at {display_path(found or bundled_dir())}{on}", 1)

    def engine(
        self,
        kind: str = ENGINES[0],
        *,
        extra_shapes: tuple[Path, ...] = (),
        inference: str = "none",
        validates: bool = False,
        endpoint: str | None = None,
        data_graph: str = DATA_GRAPH,
        graphs: tuple[str, ...] = (),
        connection: Connection | None = None,
        layout: bool = False,
        deferred: bool = False,
    ) -> Engine:
        """The anthology in the engine the library picks for this request; a fallback
        to the reference engine is said on stderr, and so is the bundled anthology read
        for want of a data/ folder (with -v: which anthology is read, on which engine)."""
        from .engine import open_engine

        self.say_root(kind)
        return open_engine(
            kind,
            root=self.root,
            base=self.base,
            extra_shapes=extra_shapes,
            inference=inference,
            validates=validates,
            endpoint=endpoint,
            data_graph=data_graph,
            graphs=graphs,
            connection=connection,
            warn=lambda message: _say(f"anthology-kg: {printable_lines(message)}"),
            layout=layout,
            deferred=deferred,
        )


# The options several commands share: each is a click decorator, reusable as it is
# (every use makes its own Option); ``_options`` joins several into one.


def _options(*options: Callable[[F], F]) -> Callable[[F], F]:
    """One decorator that applies ``options`` as if stacked in this order (the first
    listed is the first shown by --help)."""

    def apply(func: F) -> F:
        for option in reversed(options):
            func = option(func)
        return func

    return apply


_fail_on_option = click.option(
    "--fail-on",
    type=click.Choice(FAIL_ON),
    default="violation",
    show_default=True,
    help="Exit 1 on results of this severity or graver (none: never; info: any result).",
)

_select_options = _options(
    click.option(
        "--select",
        multiple=True,
        metavar="CODE",
        help="Report only these rules (codes as in `anthology-kg rules`, e.g. AK002,AK009).",
    ),
    click.option(
        "--ignore",
        multiple=True,
        metavar="CODE",
        help="Leave out the results of these rules: a code (AK004), a code prefix (AK00: "
        "AK001-AK009; the waivers' AK000 only in full) or a shape name; repeatable or "
        "comma-separated.",
    ),
)


def _codes(values: tuple[str, ...]) -> list[str]:
    return [code.strip() for value in values for code in value.split(",") if code.strip()]


def _check_selection(report, select: tuple[str, ...], ignore: tuple[str, ...]) -> None:
    """Refuse a --select or --ignore pattern that names no rule of ``report``; one the
    configuration file set is reported against the file."""
    from .config import setting_line
    from .reports import check_codes

    ctx = click.get_current_context()
    for name, values in (("select", select), ("ignore", ignore)):
        configuration = ctx.find_root().meta.get(_CONFIGURATION)
        if ctx.get_parameter_source(name) is not click.core.ParameterSource.DEFAULT_MAP:
            check_codes(report, _codes(values), f"--{name}")
            continue
        try:
            check_codes(report, _codes(values), name, configuration)
        except AnthologyError as exc:
            if configuration is None or exc.line is not None:
                raise
            line = setting_line(configuration, (name,))
            raise AnthologyError(exc.message, exc.path, line) from None


_baseline_option = click.option(
    "--baseline",
    metavar="OLD",
    help="Count only the results OLD (a git revision such as origin/main, or a folder) "
    "does not have: the others are reported as existing, the ones OLD had and this "
    "state lacks as fixed (SARIF: baselineState new or unchanged; fixed ones left out).",
)


def _settings_at(settings: Settings, root: Path) -> Settings:
    """The same options (base, timeout, verbosity…) for the anthology at ``root``."""
    moved = copy.copy(settings)
    moved.root = root
    return moved


def _against_baseline(settings: Settings, report, baseline: str | None, validate_root):
    """``report`` compared with the validation of the state ``baseline`` names, which
    ``validate_root(folder)`` validates with the same engine and options."""
    if baseline is None:
        return report
    from .baseline import compare_to_state
    from .resources import find_root
    from .revisions import read_state

    old = read_state(settings.root or find_root(), baseline)  # a bad revision: exit 2
    _note_empty(settings, old, "every result is new")
    return compare_to_state(
        report,
        old,
        validate_root,
        lambda exc: _note(
            settings, f"the baseline {baseline} cannot be validated ({exc}): every result is new"
        ),
    )


def _note_empty(settings: Settings, state, consequence: str) -> None:
    """Say that ``state`` (a revision) holds no entry, and what that makes of the run."""
    if state.empty and state.revision is not None:
        _note(
            settings,
            f"{state.name} has no data/*.ttl: an anthology of no entries ({consequence})",
        )


_method_option = click.option(
    "--method",
    type=click.Choice(METHODS),
    default="auto",
    show_default=True,
    help="With --endpoint, how the query is sent: post (the query as the body), form "
    "(URL-encoded POST), get; auto tries post and falls back to form when the store "
    "refuses it or does not answer it at once (Virtuoso 7.2).",
)


def _connection(settings: Settings, method: str = "auto", timeout: float | None = None):
    """How to reach a store: --method, and --timeout (the command's own, else the
    query timeout the settings hold, else the HTTP default). Credentials come from the
    environment or ~/.netrc, never from an option (a netrc file that gives none for being
    malformed is said on stderr). Its HTTP client is shared by the command's requests and
    closed when the command ends."""
    from .endpoint import Connection

    seconds = timeout or getattr(settings, "timeout", None)
    if seconds is None:
        seconds = HTTP_TIMEOUT
    elif seconds == 0:  # --timeout 0: no limit; a day stands for it
        seconds = 86400
    connection = Connection(
        timeout=float(seconds), method=method, warn=lambda message: _note(settings, message)
    )
    click.get_current_context().call_on_close(connection.close)
    return connection


_engine_option = click.option(
    "--engine",
    type=click.Choice(ENGINES),
    default=ENGINES[0],
    show_default=True,
    help="fast: pyoxigraph, shapes compiled to SPARQL; reference: rdflib and pySHACL. "
    "Both give the same results on the bundled rules, the fixtures and the W3C SHACL "
    "suites (tested); the README lists where pySHACL departs from SHACL on own shapes.",
)

_inference_option = click.option(
    "--inference",
    type=click.Choice(INFERENCE_CHOICES),
    default="none",
    show_default=True,
    help="Entail triples from the ontology first (the RDFS or OWL 2 RL closure of the "
    "data and ontology, as owlrl computes it); queries and rules see them too, on both "
    "engines alike (tested).",
)


def _remember(ctx: click.Context, param: click.Parameter, value):
    """Keep the option's value on the Settings (--timeout, --allow-service)."""
    setattr(ctx.find_object(Settings), str(param.name), value)
    return value


def _output_format(
    command: str, fmt: str | None, output: Path | None, choices: Iterable[str]
) -> str | None:
    """The format of ``command``'s output: --format on the command line, else the one
    ``-o``'s extension implies, else the configuration file's (its [format] table), else
    None. (A configuration's 'validate = "github"' wrote GitHub annotations into
    anthology.sarif.)"""
    from click.core import ParameterSource

    source = click.get_current_context().get_parameter_source("fmt")
    implied = format_from_output(command, output, choices)
    if fmt is not None and source is ParameterSource.DEFAULT_MAP and implied is not None:
        return implied
    return fmt or implied


def _format_named(command: str, fmt: str, output: Path | None, choices: Iterable[str]) -> str:
    """The format ``fmt`` of ``command``'s output (``_output_format``) as an error names
    it: by the option the user typed, by -o's extension, or by the configuration file's
    key and line, never as a --format the user did not type."""
    from click.core import ParameterSource

    from .config import setting_line

    ctx = click.get_current_context()
    source = ctx.get_parameter_source("fmt")
    if source is ParameterSource.COMMANDLINE:
        return f"--format {fmt}"
    if output is not None and format_from_output(command, output, choices) == fmt:
        return f"the format {fmt} (-o {display_path(output)})"
    configuration = ctx.find_root().meta.get(_CONFIGURATION)
    if source is ParameterSource.DEFAULT_MAP and configuration is not None:
        line = setting_line(configuration, ("format", command))
        where = display_path(configuration) + (f":{line}" if line else "")
        return f"the format {fmt} (format.{command} in {where})"
    return f"the format {fmt}"


def _url(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """A store's URL: absolute http or https with a host (else every request would fail
    alike, and publish would say the store may hold a mix of what it never sent)."""
    if value is not None:
        from .endpoint import check_url

        try:
            check_url(value)
        except AnthologyError as exc:
            raise click.BadParameter(exc.message) from None
    return value


def _graph(ctx: click.Context, param: click.Parameter, value: str | tuple[str, ...]):
    """--graph: an absolute IRI, or several (else a store is sent a name that is none, or
    rdflib raises on it in an update's text); the default is one."""
    from click.core import ParameterSource

    if ctx.get_parameter_source(str(param.name)) is not ParameterSource.DEFAULT:
        from .endpoint import check_graph

        try:
            for iri in (value,) if isinstance(value, str) else value:
                check_graph(iri)
        except AnthologyError as exc:
            raise click.BadParameter(exc.message) from None
    return value


def _output_file(ctx: click.Context, param: click.Parameter, value: str | None) -> Path | None:
    """-o FILE: ``-`` is standard output, as no -o (``sparql -`` reads standard input);
    ``./-`` names a file ``-``."""
    return None if value is None or value == "-" else Path(value)


def _output_folder(ctx: click.Context, param: click.Parameter, value: str | None) -> Path | None:
    """-o FOLDER: ``-`` (standard output elsewhere) is refused; ``./-`` names a folder."""
    if value == "-":
        raise click.BadParameter("'-' is standard output, which holds no folder (./- names one)")
    return None if value is None else Path(value)


def _data_graph(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """--graph of publish and validate (the data graph): as ``_graph``, and neither the
    ontology's nor the shapes' graph."""
    from .choices import graph_names

    try:
        graph_names(_graph(ctx, param, value))
    except AnthologyError as exc:
        raise click.BadParameter(exc.message) from None
    return value


def _seconds(ctx: click.Context, param: click.Parameter, value: float | None):
    """--timeout: a number of seconds (click's FloatRange lets nan through: nan < 0 is
    false), kept on the Settings where the command has them."""
    if value is not None and value != value:
        raise click.BadParameter("nan is not a number of seconds")
    return _remember(ctx, param, value) if not param.expose_value else value


def _allow_service(
    help: str = "Let a query or a shape's SPARQL call a remote endpoint "
    "(SERVICE); refused by default: a local query runs on the anthology alone.",
):
    """--allow-service, kept on the Settings (see guards.py)."""
    return click.option(
        "--allow-service", is_flag=True, expose_value=False, callback=_remember, help=help
    )


_allow_service_option = _allow_service()


def _timeout(
    help: str = "Give up after SECONDS (exit 2); 0: no limit. Ctrl-C stops at once (exit 130).",
):
    """--timeout, kept on the Settings (see guards.py)."""
    return click.option(
        "--timeout",
        type=click.FloatRange(min=0),
        default=QUERY_TIMEOUT,
        show_default=True,
        metavar="SECONDS",
        expose_value=False,
        callback=_seconds,
        help=help,
    )


#: --timeout and --allow-service, kept on the Settings (see guards.py).
_limit_options = _options(_timeout(), _allow_service_option)


def _refuse_the_sample(settings: Settings) -> None:
    """AnthologyError when no --root is given and no folder here or above holds data/:
    the commands that judge the anthology do not fall back to the bundled sample, as
    the others do, since a CI job or hook run where no anthology is found would pass on
    the sample's data (hunt21 #3; a note on stderr, as before, fails no build); nor
    does publish, which would put the sample's graphs into a store in place of the
    anthology's."""
    from .resources import bundled_dir, nearest_root

    if settings.root is None and nearest_root() is None:
        raise AnthologyError(
            "no anthology here (no data/ folder here or above); use --root DIR (the "
            f"bundled sample: --root {shlex.quote(str(bundled_dir()))})"
        )


def _validated(
    settings: Settings,
    engine: str,
    inference: str = "none",
    extra_shapes: tuple[Path, ...] = (),
    endpoint: str | None = None,
    graph: str = DATA_GRAPH,
    connection: Connection | None = None,
    opened: Callable[[Engine], None] | None = None,
):
    """Validate within --timeout, with the engine the library picks (it says so on
    stderr when it falls back); a local shape's SERVICE is refused unless allowed.
    ``opened``, if given, is handed the engine (which then scans the data files' text for
    ``Engine.layout_warnings`` as it loads them)."""
    import importlib

    from .guards import bounded
    from .validation import validate as run_validation

    # The engine's modules load before the clock starts: --timeout bounds the work, and
    # a store's own time-out (a second sooner) is the one that names the store.
    for module in (".engine", ".remote") if endpoint else (".engine",):
        importlib.import_module(module, __package__)

    def now():
        anthology = settings.engine(
            engine,
            extra_shapes=extra_shapes,
            inference=inference,
            validates=True,
            endpoint=endpoint,
            data_graph=graph,
            connection=connection,
            layout=opened is not None,
        )
        if opened is not None:
            opened(anthology)
        return run_validation(anthology, inference, allow_service=settings.allow_service)

    if endpoint is None:
        _refuse_the_sample(settings)
    else:  # the data is the store's; the rules are read where the anthology would be
        added = " and those of --shapes" if extra_shapes else ""
        settings.say_root(
            engine,
            "the store's data is validated against the bundled rules (the ontology and "
            f"shapes anthology-kg comes with){added}; --root DIR adds an anthology's own "
            "shapes and waivers",
        )
    seconds = settings.timeout
    if endpoint and seconds:
        # Each request to the store has the same limit and names the store when it runs
        # out: the whole gets a second more, so that the request is the one to say so.
        seconds += 1
    return bounded(now, seconds, "validation")


@click.group(cls=AnthologyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_print_version,
    help="Show the version and exit.",
)
@click.option(
    "--root",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="Anthology folder whose data/ is read (default: the nearest ancestor of the "
    "working directory holding data/; where none does, check, validate, fmt, new and "
    "publish refuse, exit 2, diff compares the working directory's states, and the other "
    "commands read the bundled sample anthology and say so; validate --endpoint and query "
    "--endpoint read the store's data with the bundled rules and stored queries, and say "
    "so). Its own shapes, queries and waivers are added to the bundled ones.",
)
@click.option(
    "--base",
    default=DEFAULT_BASE,
    show_default=True,
    envvar="ANTHOLOGY_KG_BASE",
    show_envvar=True,
    help="Namespace of entry IRIs: an entry's IRI is this base plus its identifier.",
)
@click.option("-q", "--quiet", is_flag=True, help="Print results only: no summary, no notes.")
@click.option("-v", "--verbose", count=True, help="Say more on stderr (what is read, engine).")
@click.option(
    "--color/--no-color",
    default=None,
    help="Colour the text output (default: on a terminal, unless NO_COLOR is set or TERM "
    "is dumb; FORCE_COLOR colours piped output too).",
)
@click.pass_context
def main(
    ctx: click.Context, root: Path | None, base: str, quiet: bool, verbose: int, color
) -> None:
    """Keep a research anthology as an RDF knowledge graph.

    Reads the Turtle files of an anthology's data/ folder against the anthology-kg
    ontology. Exit codes: 0 ok, 1 the anthology breaks a rule (for fmt --check, import
    --check and diff: a difference), 2 usage or input error, 130, 141, 143 stopped
    (Ctrl-C, a closed pipe, SIGTERM). Options may also come from anthology-kg.toml or
    [tool.anthology-kg] in pyproject.toml.
    """

    from .cli_context import command
    from .sources import check_base

    ctx.with_resource(command())  # a progress bar and stoppable canonicalizations
    if color is None:
        color = _colour_from_environment(os.environ)
    # A bad base is named as the user gave it, as the configuration file's is (config).
    from_environment = ctx.get_parameter_source("base") is click.core.ParameterSource.ENVIRONMENT
    check_base(base, "ANTHOLOGY_KG_BASE" if from_environment else "--base")
    ctx.obj = Settings(root, base, -1 if quiet else verbose, color)
    configuration = ctx.meta.get(_CONFIGURATION)
    if verbose and configuration is not None:
        shown = printable(display_path(configuration))
        _say(f"anthology-kg: configuration from {shown}")


def _colour_from_environment(environ: Mapping[str, str]) -> bool | None:
    """What the environment asks of colour when no option does: False for NO_COLOR
    (no-color.org) or TERM=dumb, True for FORCE_COLOR (force-color.org; NO_COLOR wins),
    each set and not empty; None leaves it to whether the output is a terminal."""
    if environ.get("NO_COLOR"):
        return False
    if environ.get("FORCE_COLOR"):
        return True
    if environ.get("TERM") == "dumb":
        return False
    return None


def _note(settings: Settings, message: str, level: int = 0) -> None:
    """A message for people on stderr, shown at verbosity ``level`` and above."""
    if settings.verbosity >= level:
        _say(f"anthology-kg: {printable_lines(message)}")


class _OutputLost(AnthologyError):
    """Standard output could not be written (a full disk behind ``>``, an I/O error, a
    closed descriptor): exit 2 with one line on stderr, not a traceback and exit 1."""


@contextlib.contextmanager
def _writing_output() -> Iterator[None]:
    """Inside, a write to standard output that fails is an ``_OutputLost``, stdout then
    pointed at /dev/null (the interpreter's last flush would fail again); a closed pipe's
    BrokenPipeError stays one (exit 141, as SIGPIPE would end the command)."""
    try:
        yield
    except BrokenPipeError:
        raise
    except OSError as exc:
        from .files import write_reason

        _stdout_to_devnull()
        raise _OutputLost(f"cannot write to standard output: {write_reason(exc)}") from None


def _stdout_or_refusal() -> TextIO:
    """``sys.stdout``; an ``_OutputLost`` where there is none (its descriptor was closed
    when Python started: click.echo would drop the output unsaid)."""
    if sys.stdout is None:
        raise _OutputLost(_STDOUT_CLOSED)
    return sys.stdout


#: What is said when the descriptor of standard output was closed (``>&-``).
_STDOUT_CLOSED = (
    "standard output is closed (>&-): nothing can be printed (send it to /dev/null to discard it)"
)


def _out(message: object = None, nl: bool = True, color: bool | None = None) -> None:
    """Print ``message`` on standard output (``click.echo``); a write that fails is an
    ``_OutputLost``."""
    _stdout_or_refusal()
    with _writing_output():
        click.echo(message, nl=nl, color=color)


def _say(message: str) -> None:
    """Write ``message`` on standard error as far as it takes it: a warning or an error
    lost to a full or broken stderr changes neither the outcome nor the exit code."""
    with contextlib.suppress(OSError):
        click.echo(message, err=True)


def _error_line(exc: AnthologyError) -> str:
    """The line that reports ``exc``: ``file:line: message``, or ``anthology-kg: message``."""
    return f"anthology-kg: {exc}" if exc.path is None else str(exc)


def _summary(settings: Settings, message: str) -> None:
    """A summary line on stdout, left out with --quiet."""
    if not settings.quiet:
        _out(message)


#: How the help of an option that names a store says where the network settings come from.
_NETWORK_HELP = (
    " The environment's HTTPS_PROXY, HTTP_PROXY, ALL_PROXY and NO_PROXY choose a proxy, "
    "SSL_CERT_FILE or SSL_CERT_DIR the certificate authorities to trust."
)

_json_option = click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="text for people, json for programs.",
)


def _echo_json(document) -> None:
    import json

    _out(json.dumps(document, indent=2, ensure_ascii=False))


@main.command(short_help="Print triples, entries by class and category, files read.")
@_json_option
@click.pass_obj
def stats(settings: Settings, fmt: str) -> None:
    """Print triples, entries by class and by category, and the files read."""
    from .stats import compute_stats

    result = compute_stats(settings.engine())
    if fmt == "json":
        _echo_json(
            {
                "triples": result.triples,
                "entries": result.entries,
                "byClass": result.by_class,
                "byCategory": result.by_category,
                "files": list(result.files),
            }
        )
        return
    _out(f"triples: {result.triples}")
    _out(f"entries: {result.entries}")
    _out("entries by class:")
    for name, count in result.by_class.items():
        _out(f"  {printable(name)}: {count}")
    _out("entries by category:")
    for name, count in result.by_category.items():
        _out(f"  {printable(name)}: {count}")
    _out(f"files read: {len(result.files)}")
    for name in result.files:
        _out(f"  {name}")


def _emit(text: str, output: Path | None = None) -> None:
    """Print ``text`` byte for byte (CRLF stays CRLF), or write it atomically to ``output``."""
    if output is None:
        _emit_chunks([text.encode("utf-8")])
    else:
        from .files import write_atomic

        write_atomic(output, text)


def _emit_chunks(chunks: Iterable[bytes], output: Path | None = None) -> None:
    """Print the bytes of ``chunks`` as they come, or write them atomically to ``output``
    (a failure midway leaves no file)."""
    if output is None:
        text_stdout = _stdout_or_refusal()
        with _writing_output():
            text_stdout.flush()  # text printed before goes first, as click.echo of bytes does
        stdout = text_stdout.buffer
        for chunk in chunks:
            # A pipe whose reader closes midway takes part of a large write and returns
            # the short count (no error): the rest, written again, then meets EPIPE, so
            # the command ends with BrokenPipeError's exit 141, not 0 with output lost.
            unwritten = memoryview(chunk)
            with _writing_output():
                while unwritten:
                    unwritten = unwritten[stdout.write(unwritten) :]
        with _writing_output():
            stdout.flush()
    else:
        from .files import write_atomic

        write_atomic(output, chunks)


def _validate_input_errors(fmt: str | None, params: Mapping[str, object]):
    """validate's writer of an input error in ``fmt``: its CI formats' and JSON's."""
    from .reports import ERROR_WRITERS

    return ERROR_WRITERS.get(fmt) if fmt is not None else None


@main.command(
    input_errors=_validate_input_errors,
    short_help="Validate the anthology; write a text, JSON or CI report.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(sorted(REPORT_FORMATS) + list(SHACL_REPORT_FORMATS)),
    default=None,
    help="text (default): path:line:col: CODE severity [ADR] message (focus); json: a "
    "documented object; github: workflow annotations; junit: one testcase per rule "
    "shape, failing as the exit code does; "
    "sarif: SARIF 2.1.0; turtle, jsonld: the W3C sh:ValidationReport graph (every result "
    "of the engine, before waivers and --select/--ignore). Without it, -o's extension "
    "decides (.sarif, .json, .xml: JUnit, .txt, .ttl, .jsonld).",
)
@_inference_option
@click.option(
    "--shapes",
    "extra_shapes",
    multiple=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Add the shapes of this Turtle file to the bundled and the anthology's own.",
)
@_fail_on_option
@_select_options
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, allow_dash=True),
    callback=_output_file,
    help="Write to a file (-: standard output).",
)
@click.option(
    "--endpoint",
    metavar="URL",
    callback=_url,
    help="Validate the data published to this SPARQL query endpoint against the local "
    "rules: the fast engine sends the compiled shapes to the store (only results travel); "
    "the reference engine reads the graph back. Results then carry no file and line."
    + _NETWORK_HELP,
)
@click.option(
    "--graph",
    default=DATA_GRAPH,
    show_default=True,
    metavar="IRI",
    callback=_data_graph,
    help="With --endpoint: the named graph holding the data.",
)
@_limit_options
@_method_option
@_engine_option
@_baseline_option
@click.pass_obj
def validate(
    settings,
    fmt,
    inference,
    extra_shapes,
    fail_on,
    select,
    ignore,
    output,
    endpoint,
    graph,
    method,
    engine,
    baseline,
):
    """Check the anthology against the rules of its decision records (SHACL).

    Exit 0 when it conforms, 1 when a rule is broken, 2 on input errors. A data or
    shapes file named *.TTL (not read) and a data/ holding no *.ttl file are warned of
    on stderr.
    """
    from .reports import (
        WRITERS,
        github_report,
        junit_report,
        limit_warning,
        select_results,
    )
    from .w3c_report import WRITERS as SHACL_WRITERS

    formats = REPORT_FORMATS + SHACL_REPORT_FORMATS
    fmt = _output_format("validate", fmt, output, formats) or "text"
    if baseline and fmt in SHACL_WRITERS:
        raise AnthologyError(
            f"--baseline does not apply to {_format_named('validate', fmt, output, formats)}: "
            "the W3C report graph has no baseline state (use sarif or json)"
        )
    # A store's connection (and its HTTP client) only with --endpoint.
    _refuse_without_endpoint(endpoint, graph="--graph", method="--method")
    connection = _connection(settings, method) if endpoint else None
    try:
        report = _validated(settings, engine, inference, extra_shapes, endpoint, graph, connection)
        _check_selection(report, select, ignore)
        for warning in report.engine.folder_warnings() + report.warnings:
            _say(str(warning))
        report = select_results(report, _codes(select), _codes(ignore))
        report = _against_baseline(
            settings,
            report,
            baseline,
            lambda folder: select_results(
                _validated(_settings_at(settings, folder), engine, inference, extra_shapes),
                _codes(select),
                _codes(ignore),
            ),
        )
    except AnthologyError as exc:
        # A workflow reading a CI format or the JSON reads the error there too (an
        # annotation at the file, a SARIF log to upload, no earlier run's JSON left
        # in -o's file); stderr says it and the exit is 2 as ever.
        writer = _validate_input_errors(fmt, {})
        if writer is not None:
            _emit(writer(exc), output)
        raise
    if fmt in SHACL_WRITERS:
        _emit(SHACL_WRITERS[fmt](report, settings.base), output)
    elif fmt == "text" and output is None:
        _echo_report(settings, report)
    elif fmt == "junit":  # its testcases fail as the exit code does
        _emit(junit_report(report, fail_on), output)
    elif fmt == "github":  # -q: the annotations alone on stdout; a file is written whole
        _emit(github_report(report, summary=not (settings.quiet and output is None)), output)
    else:
        _emit(WRITERS[fmt](report), output)
    beyond = limit_warning(fmt, report)  # (written whole all the same: the log keeps it)
    if beyond is not None:
        _say(f"anthology-kg: warning: {beyond}")
    sys.exit(EXIT_RULES if report.fails(fail_on) else EXIT_OK)


@main.command(short_help="Load and validate the anthology; print results and a summary.")
@_fail_on_option
@_select_options
@_limit_options
@_engine_option
@_inference_option
@_baseline_option
@click.option(
    "--staged",
    is_flag=True,
    help="Check what the next commit holds: the anthology's files as git's index has "
    "them (git add), not the working tree's untracked files or unstaged changes (the "
    "pre-commit hook's way).",
)
@click.pass_obj
def check(settings, fail_on, select, ignore, engine, inference, baseline, staged) -> None:
    """Load and validate the anthology; print each result and a one-line summary.

    The job for CI and pre-commit: exit 0 when it conforms, 1 when a rule is broken,
    2 when a file cannot be read. With --baseline, only new results break the run.
    A data file not named by its entry's identifier, or an entry described in two
    files, is warned of on stderr (the exit code is the rules'), and so are a data or
    shapes file named *.TTL (not read) and a data/ holding no *.ttl file.
    """
    from .baseline import validate_staged
    from .layout import folder_warnings, shapes_folder_warnings
    from .reports import select_results
    from .revisions import anthology_root
    from .sources import TurtleFiles

    def validated(settings: Settings):
        return select_results(
            _validated(settings, engine, inference), _codes(select), _codes(ignore)
        )

    # The layout rule is checked from the text the loader reads anyway (each data file
    # is read once).
    checked: list[Engine] = []

    def validated_staged(folder: Path):
        report = _validated(
            _settings_at(settings, folder), engine, inference, opened=checked.append
        )
        return report, checked[0].layout_warnings()

    if staged:
        root = settings.root or anthology_root()
        current, warnings = validate_staged(root, validated_staged)
        # (what the work tree's folders list that is not read: the index holds no such file)
        warnings += folder_warnings(TurtleFiles.of(root / "data"), empty=False)
        warnings += shapes_folder_warnings(root)
    else:
        current = _validated(settings, engine, inference, opened=checked.append)
        warnings = checked[0].layout_warnings() + shapes_folder_warnings(checked[0].root)
    _check_selection(current, select, ignore)
    report = _against_baseline(
        settings,
        select_results(current, _codes(select), _codes(ignore)),
        baseline,
        lambda folder: validated(_settings_at(settings, folder)),
    )
    for warning in warnings + current.warnings:
        _say(str(warning))
    _echo_report(settings, report)
    sys.exit(EXIT_RULES if report.fails(fail_on) else EXIT_OK)


def _echo_report(settings: Settings, report) -> None:
    """The text report on stdout, coloured on a terminal; --quiet drops the summary."""
    from .reports import text_report

    lines = text_report(report, color=settings.color is not False).splitlines()
    if settings.quiet:
        lines = lines[:-1]
    for line in lines:
        _out(line, color=settings.color)


@main.command(short_help="List the rule shapes: rule, decision record, severity, code.")
@_json_option
@click.pass_obj
def rules(settings, fmt) -> None:
    """List each rule shape: its rule, the decision record it enforces, severity, code, and
    the rule in words."""
    from .rules import rule_catalog

    if fmt == "json":
        _echo_json(
            [
                {
                    "code": rule.code,
                    "shape": rule.name,
                    "rule": rule.number,
                    "enforces": rule.source,
                    "severity": rule.severity,
                    "label": rule.label,
                    "message": rule.message,
                }
                for rule in rule_catalog(settings.engine())
            ]
        )
        return
    for rule in rule_catalog(settings.engine()):  # shapes' text escaped: one line each
        number = f"rule {rule.number}" if rule.number is not None else "no rule number"
        # An IRI bare, as --select takes every shape's (one of no number only so).
        name = rule.name[1:-1] if rule.name[:1] == "<" and rule.name[-1:] == ">" else rule.name
        fields = (name, number, rule.source, rule.severity, rule.code)
        _out("\t".join(printable(str(field)) for field in (*fields, rule.label)))


@main.command("queries", short_help="List the stored queries: name, summary and parameters.")
@_json_option
@click.pass_obj
def list_queries(settings, fmt) -> None:
    """List the stored queries: name, summary and parameters (the data is not read); a
    query that does not parse is refused at its line (exit 2), as query and site do."""
    from .queries import catalog, query_file_warnings, query_folders, query_listing

    settings.say_root()
    folders = query_folders(settings.root)
    for warning in query_file_warnings(folders):
        _say(printable(warning))
    queries = catalog(folders, parsed=True)  # (one that does not parse: exit 2, as query's)
    if fmt == "json":
        _echo_json([query_listing(query) for query in queries.values()])
        return
    for query in queries.values():  # the files' text escaped: one line each
        params = " ".join(f"{p.name}=<{p.type}>" for p in query.params)
        fields = (query.name, query.summary, *([params] if params else []))
        _out("\t".join(map(printable, fields)))


_format_option = click.option(
    "--format",
    "fmt",
    type=click.Choice(RESULT_FORMATS),
    default="table",
    show_default=True,
    help="table for people; csv, tsv, json, xml: the W3C SPARQL 1.1 result formats "
    "(CSV and TSV are defined for SELECT: an ASK answer there is a bare true or false, "
    "as Oxigraph writes it). A CONSTRUCT or DESCRIBE answer is Turtle: another format "
    "given for one is refused (exit 2).",
)

_endpoint_option = _options(
    click.option(
        "--endpoint",
        metavar="URL",
        callback=_url,
        help="Run on this SPARQL 1.1 Protocol query endpoint (Oxigraph: "
        "http://HOST:7878/query) instead of the local anthology." + _NETWORK_HELP,
    ),
    click.option(
        "--graph",
        "graphs",
        multiple=True,
        metavar="IRI",
        callback=_graph,
        help="With --endpoint: the graph(s) the query sees as its default graph "
        f"(default: the published data, ontology and shapes graphs, {DATA_GRAPH} …).",
    ),
    _method_option,
)


def _print_result(settings: Settings, anthology, result, fmt: str) -> None:
    """Print ``result`` in ``fmt``: a table ends with its count of rows, but for --quiet."""
    from rdflib import URIRef

    from .results import graph_to_turtle, to_csv, to_json, to_table, to_tsv, to_xml

    if result.kind == "graph":
        from click.core import ParameterSource

        given = click.get_current_context().get_parameter_source("fmt")
        if fmt != "table" and given is ParameterSource.COMMANDLINE:  # (not a config's)
            raise AnthologyError(
                f"--format {fmt} is a format of SELECT and ASK answers; a CONSTRUCT or "
                "DESCRIBE answer is printed as Turtle (leave --format out)"
            )
        _out(graph_to_turtle(result.graph, anthology.base), nl=False)
        return
    if fmt == "table":

        def show(node):
            if isinstance(node, URIRef):
                return anthology.identifier(node) or anthology.normalize(node)
            return str(node)

        _out(to_table(result, show, count=not settings.quiet), nl=False)
        return
    writer = {"csv": to_csv, "tsv": to_tsv, "json": to_json, "xml": to_xml}[fmt]
    _emit(writer(result))


def _querying_engine(
    settings: Settings,
    engine: str,
    inference: str,
    endpoint: str | None,
    graphs: tuple[str, ...],
    method: str,
    read_for_a_store: str = "",
) -> Callable[[], Engine]:
    """What opens the engine ``query`` and ``sparql`` run on (in the thread --timeout
    bounds): the local anthology (with --inference), or the store at --endpoint reached
    by --method, with ``read_for_a_store`` said where no anthology is found (what of the
    bundled one is read then: ``Settings.say_root``). The options are checked now, where
    click's context is."""
    if endpoint and inference != "none":
        raise AnthologyError("--inference applies to the local anthology, not to --endpoint")
    _refuse_without_endpoint(endpoint, graphs="--graph", method="--method")
    connection = _connection(settings, method) if endpoint else None
    if endpoint:
        settings.say_root(engine, read_for_a_store)
    return lambda: settings.engine(
        engine, inference=inference, endpoint=endpoint, graphs=graphs, connection=connection
    )


def _refuse_without_endpoint(endpoint: str | None, **options: str) -> None:
    """An AnthologyError (exit 2) for a store's option (``options``: parameter name to
    option) given on the command line without --endpoint, where it would be ignored."""
    if not endpoint:
        _refuse_given("applies to --endpoint, not to the local anthology", **options)


def _refuse_given(why: str, **options: str) -> None:
    """An AnthologyError (exit 2), ``OPTION why``, for the first of ``options`` (parameter
    name to option) given on the command line: the caller ignores it in this use."""
    from click.core import ParameterSource

    context = click.get_current_context()
    for name, option in options.items():
        if context.get_parameter_source(name) is ParameterSource.COMMANDLINE:
            raise AnthologyError(f"{option} {why}")


def _run(settings, anthology, text, endpoint, what, bindings=None, source=None):
    """Run ``text`` (``what``: ``query NAME``, as a time-out names it) on ``anthology``;
    a local query within --timeout and without SERVICE unless allowed (each request to
    a remote store is bounded by --timeout, and the store applies its own limits)."""
    from .guards import bounded, timeouts_named
    from .local_query import run_local

    if endpoint:
        with timeouts_named(what):
            return anthology.query(text, bindings, source)
    return bounded(
        lambda: run_local(anthology, text, bindings, source, allow_service=settings.allow_service),
        settings.timeout,
        what,
    )


def _within_timeout(settings, endpoint, what, answer):
    """``answer()`` of a local query within --timeout, the anthology's load and
    inference included, as validation's (a store's requests are each bounded instead)."""
    if endpoint:
        return answer()
    import importlib

    from .guards import bounded

    importlib.import_module(".engine", __package__)  # loaded before the clock starts
    return bounded(answer, settings.timeout, what)


@main.command(short_help="Run the stored query NAME (see `anthology-kg queries`).")
@click.argument("name", shell_complete=complete_queries)
@click.option(
    "--param",
    "params",
    multiple=True,
    metavar="NAME=VALUE",
    shell_complete=complete_params,
    help="Bind a query parameter.",
)
@_format_option
@_endpoint_option
@_limit_options
@_engine_option
@_inference_option
@click.pass_obj
def query(settings, name, params, fmt, endpoint, graphs, method, engine, inference) -> None:
    """Run the stored query NAME (see `anthology-kg queries`).

    Parameters are bound as RDF terms, never pasted into the query text; an entry
    parameter takes an identifier (ARXIV-2409.19256) or an IRI.
    """
    from .guards import timeouts_named
    from .queries import bind_params, find_query, parse_param_options

    what = f"query {name}"
    bundled_queries = (
        "the store's data is queried with the bundled stored queries; --root DIR adds an "
        "anthology's own"
    )
    opened = _querying_engine(
        settings, engine, inference, endpoint, graphs, method, bundled_queries
    )

    def answer():
        with timeouts_named(what):
            anthology = opened()
            stored = find_query(anthology, name)
            bindings = bind_params(anthology, stored, parse_param_options(params))
        return anthology, _run(
            settings, anthology, stored.text, endpoint, what, bindings, stored.path
        )

    anthology, result = _within_timeout(settings, endpoint, what, answer)
    _print_result(settings, anthology, result, fmt)


class _QueryFile(click.File):
    """click's File, read; ``-`` whose standard input is closed (``<&-``) refused as a
    usage error (click's own raises a RuntimeError)."""

    def convert(self, value, param, ctx):
        if value == "-" and sys.stdin is None:
            self.fail("standard input is closed (<&-): no query to read from it", param, ctx)
        return super().convert(value, param, ctx)


@main.command(short_help="Run an ad-hoc SPARQL query from FILE (or - for standard input).")
@click.argument("file", type=_QueryFile("rb"))
@_format_option
@_endpoint_option
@_limit_options
@_engine_option
@_inference_option
@click.pass_obj
def sparql(settings, file, fmt, endpoint, graphs, method, engine, inference) -> None:
    """Run an ad-hoc SPARQL query from FILE (or - for standard input).

    SELECT and ASK print in --format; CONSTRUCT and DESCRIBE print the
    canonical Turtle `export` writes (the same bytes for the same graph).
    """
    from .guards import timeouts_named
    from .utf8 import decode_utf8, without_bom

    name = getattr(file, "name", "<stdin>")
    stdin = name in ("<stdin>", "-")
    source = "<stdin>" if stdin else name  # an error's file:line: <stdin>:4
    # Without a leading byte order mark, as a stored query is read (sources.read_source).
    text = decode_utf8(without_bom(file.read()), source)
    what = "the query from stdin" if stdin else f"the query in {display_path(source)}"
    # (with --endpoint, no file of the bundled anthology is read: no note)
    opened = _querying_engine(settings, engine, inference, endpoint, graphs, method)

    def answer():
        with timeouts_named(what):
            anthology = opened()
        return anthology, _run(settings, anthology, text, endpoint, what, source=source)

    anthology, result = _within_timeout(settings, endpoint, what, answer)
    _print_result(settings, anthology, result, fmt)


@main.command("import", short_help="Turn printed records (RECORD.txt) into Turtle entries.")
@click.argument("record", type=click.Path(exists=True, path_type=Path))
@click.option(
    "-o",
    "--output",
    type=click.Path(allow_dash=True),
    callback=_output_file,
    help="Write the Turtle here (-: standard output; for a folder of records: the folder "
    "to write ID.ttl into).",
)
@click.option(
    "--check",
    is_flag=True,
    help="Parse, print back and compare: exit 0 if byte-identical, else show a diff, exit 1.",
)
@click.option(
    "--replace",
    is_flag=True,
    help="Replace the -o FILE of a record, or a folder's FOLDER/ID.ttl files, that exist "
    "(without it, import refuses them, naming each, exit 2, and writes nothing).",
)
@click.pass_obj
def import_record(settings, record, output, check, replace) -> None:
    """Turn a printed entry (RECORD.txt), or every *.txt record of a folder, into Turtle.

    Without -o the Turtle is printed (a folder needs -o FOLDER: each record is written
    to FOLDER/ID.ttl, all or none). A file there already, -o FILE or an ID.ttl, is refused,
    exit 2, unless --replace. A malformed record is reported as file:line, exit 2, and
    nothing is written, for a folder too.
    """
    from .records import (
        anthology_categories,
        read_records,
        record_file_warnings,
        record_files,
        round_trips,
        write_record,
        write_records,
    )
    from .turtle import canonical_turtle

    paths = record_files(record) if record.is_dir() else [record]
    for warning in record_file_warnings(record) if record.is_dir() else []:
        _say(printable(warning))
    if not paths:
        raise AnthologyError("no printed records (*.txt) in this folder", record)
    settings.say_root()  # (the anthology's categories are the words a record may use)
    categories = anthology_categories(settings.root, settings.base)
    records = read_records(paths, settings.base, categories)
    for parsed in records:
        for note in parsed.notes:
            _say(f"note: {printable_lines(note)}")
    if check:
        differ = False
        for trip in round_trips(records):
            if trip.diff:
                differ = True
                _out(trip.diff, nl=False)
            else:
                _out(f"{printable(str(trip.path))}: round trip is byte-identical")
        if differ:
            sys.exit(EXIT_RULES)
        return
    if record.is_dir():
        if output is None:
            raise AnthologyError("importing a folder needs -o FOLDER to write ID.ttl files into")
        written = write_records(records, output, settings.base, replace)
        for path in written:  # --quiet: the paths alone, as a script reads them
            shown = printable(display_path(path))
            _out(shown if settings.quiet else f"wrote {shown}")
        _summary(settings, f"{len(written)} record(s) imported")
        return
    if output is None:
        _emit(canonical_turtle(records[0].graph, base=settings.base))
    else:
        write_record(records[0], output, settings.base, replace)


@main.command(short_help="Print an entry in the anthology's printed form.")
@click.argument("identifier", shell_complete=complete_entries)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, allow_dash=True),
    callback=_output_file,
    help="Write to a file (-: standard output).",
)
@click.pass_obj
def render(settings, identifier, output) -> None:
    """Print entry IDENTIFIER in the anthology's printed form (no final newline)."""
    from .records import render_entry

    anthology = settings.engine()
    _emit(render_entry(anthology, anthology.resolve_entry(identifier)), output)


@main.command(short_help="Export the graph in an RDF format, for other tools.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(EXPORT_FORMATS),
    default=None,
    help="Serialization (default turtle, or what -o's extension says: .ttl .nt .nq "
    ".jsonld/.json .rdf/.xml/.owl; another extension gives turtle); all are byte-stable "
    "for the same graph.",
)
@click.option(
    "--inferred",
    type=click.Choice(INFERENCE_CHOICES),
    default="none",
    show_default=True,
    help="Add the RDFS or OWL-RL closure (owlrl): in a graph of its own (N-Quads, "
    "JSON-LD) or after a comment (Turtle); N-Triples and RDF/XML merge it with the "
    "asserted triples.",
)
@click.option(
    "--include",
    default="data,ontology",
    show_default=True,
    help="Comma list of data, ontology, shapes.",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, allow_dash=True),
    callback=_output_file,
    help="Write atomically to this file (a failure leaves the old file untouched; -: "
    "standard output).",
)
@click.option(
    "--canonical-limit",
    type=click.IntRange(min=0),
    default=None,
    metavar="STEPS",
    help="Refuse (exit 2) blank nodes whose canonical labels (RDFC-1.0) are estimated to "
    "take more than STEPS (default 100000000: about 4 to 21 s of CPU, by how the nodes are "
    "linked); 0: no limit.",
)
@click.pass_obj
def export(settings, fmt, inferred, include, output, canonical_limit) -> None:
    """Export the graph for other tools (Protégé, Fuseki, Oxigraph, GraphDB, rapper)."""
    from .bnodes import CANONICAL_WORK_LIMIT, canonical_work_limit
    from .export import build_export, parse_include
    from .export_files import FolderSource
    from .export_writers import export_bytes
    from .layout import folder_warnings
    from .sources import TurtleFiles

    fmt = _output_format("export", fmt, output, EXPORT_FORMATS) or "turtle"
    settings.say_root()  # no engine is opened: the bundled sample's note is said here
    source, parts = FolderSource(settings.root, settings.base), parse_include(include)
    if "data" in parts:  # a data/X.TTL is not exported: say so, as check does
        for warning in folder_warnings(TurtleFiles.of(source.root / "data"), empty=False):
            _say(str(warning))
    built = build_export(source, parts, inferred)
    limit = CANONICAL_WORK_LIMIT if canonical_limit is None else canonical_limit or None
    with canonical_work_limit(limit, "--canonical-limit"):
        _emit_chunks(export_bytes(built, fmt), output)


@main.command("fmt", short_help="Rewrite data/*.ttl in the canonical Turtle style.")
@click.option(
    "--check",
    is_flag=True,
    help="Change nothing; exit 1 listing the files that would change, each with its diff.",
)
@click.option(
    "--diff",
    "show_diff",
    is_flag=True,
    help="Change nothing; print a unified diff of what would change (exit 1 if anything).",
)
@click.option(
    "--staged",
    is_flag=True,
    help="With --check or --diff: the data files as git's index has them (git add), not "
    "the working tree's untracked files or unstaged changes (the pre-commit hook's way).",
)
@click.pass_obj
def fmt_command(settings, check, show_diff, staged) -> None:
    """Rewrite data/*.ttl in the canonical Turtle style (what contributors commit).

    Comments written before a statement are kept; the graph never changes, nor any
    literal's lexical form. A file edited while fmt runs is left alone and reported
    ("changed while formatting: FILE", exit 1).
    """
    from dataclasses import replace

    from .formatting import diff_labels, format_anthology, printable_diff, unified_diff
    from .layout import folder_warnings, staged_warnings
    from .resources import data_folder, nearest_root
    from .revisions import anthology_root, staged_folder
    from .sources import TurtleFiles

    check = check or show_diff
    if staged and not check:
        raise AnthologyError("--staged rewrites nothing: give it with --check or --diff")
    root = settings.root or (anthology_root() if staged else nearest_root())
    if root is None:  # not the bundled sample: fmt would rewrite the installed package
        raise AnthologyError("no anthology here (no data/ folder); use --root DIR")
    if staged:
        with staged_folder(root, "fmt --check") as (folder, state):
            run = format_anthology(folder, settings.base, write=False)
            files = [replace(f, path=root / f.path.relative_to(folder)) for f in run.files]
            found = run.layout_warnings(settings.base)
            warnings = staged_warnings(found, folder, root, state.files)
        # (what the work tree's data/ lists that is not read: the index holds no such file)
        warnings += folder_warnings(TurtleFiles.of(root / "data"), empty=False)
        run = replace(run, files=files)
    else:
        data_folder(root)
        run = format_anthology(root, settings.base, write=not check)
        warnings = run.layout_warnings(settings.base)
    changed = [
        item for item in run.files if item.changed and item.path not in run.changed_meanwhile
    ]
    for item in changed:
        if not show_diff:
            verb = "would reformat" if check else "reformatted"
            _out(f"{verb} {printable(display_path(item.path))}")
        if check:
            labels = diff_labels(display_path(item.path))
            diff = unified_diff(item.original, item.canonical, *labels)
            _out(printable_diff(diff), nl=False)
    for path in run.changed_meanwhile:
        _say(f"changed while formatting: {printable(display_path(path))}")
    for warning in warnings:
        _say(str(warning))
    _summary(
        settings,
        f"{len(changed)} of {len(run.files)} file(s) {'would change' if check else 'changed'}",
    )
    if (check and changed) or run.changed_meanwhile:
        sys.exit(EXIT_RULES)


#: The formats ``diff --query`` writes, as its help and its message name them.
_QUERY_DIFF_USABLE = f"{', '.join(QUERY_DIFF_FORMATS[:-1])} or {QUERY_DIFF_FORMATS[-1]}"


def _diff_input_errors(fmt: str | None, params: Mapping[str, object]):
    """diff's writer of an input error in ``fmt``: JSON's, of the diff or of the query's
    answers (--query); the other formats are for people or a patch, and carry none."""
    from .diffreport import json_error, query_json_error

    if fmt != "json":
        return None
    name = params.get("query_name")
    return json_error if name is None else lambda error: query_json_error(str(name), error)


@main.command(
    "diff",
    input_errors=_diff_input_errors,
    short_help="Show what changed in the graph from OLD to NEW, by entry.",
)
@click.argument("old", required=False)
@click.argument("new", required=False)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(DIFF_FORMATS),
    default=None,
    help="text (default) for people; markdown: a summary table and a section per entry (a "
    "pull-request comment, $GITHUB_STEP_SUMMARY); json: a documented object; nquads: a "
    "patch, the removed and the added triples in two named graphs. Without it, -o's "
    "extension decides (.txt, .md, .json, .nq).",
)
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when the states differ.")
@click.option(
    "--query",
    "query_name",
    metavar="NAME",
    shell_complete=complete_queries,
    help="Compare the answers of stored query NAME in both states instead: the rows that "
    f"appeared and disappeared ({_QUERY_DIFF_USABLE}).",
)
@click.option(
    "--param",
    "params",
    multiple=True,
    metavar="NAME=VALUE",
    help="With --query: bind a query parameter.",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, allow_dash=True),
    callback=_output_file,
    help="Write to a file (-: standard output).",
)
@_timeout(
    "With --query: give up on a state's answer after SECONDS (exit 2); 0: no limit. "
    "Ctrl-C stops at once (exit 130)."
)
@_allow_service(
    "With --query: let the stored query call a remote endpoint (SERVICE); refused by "
    "default: a local query runs on the anthology alone."
)
@click.pass_obj
def diff_command(settings, old, new, fmt, exit_zero, query_name, params, output) -> None:
    """Show what changed in the graph from OLD to NEW, by entry.

    OLD and NEW are git revisions of the repository holding the anthology, or folders;
    the default is HEAD against the working tree, and OLD alone may be a range
    (origin/main...HEAD). Blank nodes are matched by content: reformatting is no change.
    With --query NAME, the rows of a stored query's answer that appeared and
    disappeared. Exit 0 when the graphs (or answers) are equal, 1 when they differ, 2 for
    a bad revision or an unreadable state. With --format json an input error (exit 2) is
    written as JSON too, an object holding "error" as validate's JSON report does, where
    a program reads the diff.
    """
    from .diff import diff_states
    from .diffreport import QUERY_WRITERS as QUERY_DIFF_WRITERS
    from .diffreport import WRITERS as DIFF_WRITERS
    from .diffreport import query_text_diff, text_diff
    from .queries import parse_param_options
    from .querydiff import diff_query
    from .revisions import anthology_root, resolve_states

    fmt = _output_format("diff", fmt, output, DIFF_FORMATS) or "text"
    try:
        if query_name is None:  # (each applies to the query run in both states)
            _refuse_given(
                "needs --query",
                params="--param",
                timeout="--timeout",
                allow_service="--allow-service",
            )
        old_state, new_state = resolve_states(settings.root or anthology_root(), old, new)
        _note_empty(settings, old_state, "everything is added")
        _note_empty(settings, new_state, "everything is removed")
        if query_name is None:
            result = diff_states(old_state, new_state, settings.base)
        else:
            if fmt not in QUERY_DIFF_WRITERS:
                named = _format_named("diff", fmt, output, DIFF_FORMATS)
                raise AnthologyError(f"{named} does not apply to --query: use {_QUERY_DIFF_USABLE}")
            answers = diff_query(
                old_state,
                new_state,
                query_name,
                parse_param_options(params),
                settings.base,
                allow_service=settings.allow_service,
                timeout=settings.timeout,
            )
    except AnthologyError as exc:
        # A program reading the JSON reads the error there too (no earlier run's diff
        # left in -o's file); stderr says it and the exit is 2 as ever.
        writer = _diff_input_errors(fmt, {"query_name": query_name})
        if writer is not None:
            _emit(writer(exc), output)
        raise
    if query_name is not None:
        if fmt == "text" and settings.quiet:  # the rows, not the summary
            _emit(query_text_diff(answers, summary=False), output)
        else:
            _emit(QUERY_DIFF_WRITERS[fmt](answers), output)
        sys.exit(EXIT_OK if answers.equal or exit_zero else EXIT_RULES)
    if fmt == "text" and settings.quiet:  # the entries, not the summary
        _emit(text_diff(result, summary=False), output)
    else:
        _emit(DIFF_WRITERS[fmt](result), output)
    sys.exit(EXIT_OK if result.equal or exit_zero else EXIT_RULES)


@main.command(short_help="Upload data, ontology and shapes to a SPARQL 1.1 store.")
@click.option(
    "--endpoint",
    metavar="URL",
    callback=_url,
    help="Graph Store HTTP Protocol endpoint (Oxigraph: http://HOST:7878/store)." + _NETWORK_HELP,
)
@click.option(
    "--update",
    "update_endpoint",
    metavar="URL",
    callback=_url,
    help="Instead of --endpoint: a SPARQL 1.1 Update endpoint (Oxigraph: "
    "http://HOST:7878/update), sent the three graphs in one request (all or nothing on "
    "a store that applies an update as one transaction, as Oxigraph does).",
)
@click.option(
    "--graph",
    default=DATA_GRAPH,
    show_default=True,
    metavar="IRI",
    callback=_data_graph,
    help="Graph for the data.",
)
@click.option(
    "--replace",
    is_flag=True,
    help="Replace each graph (PUT, one operation: readers see the old or the new graph).",
)
@click.option(
    "--add",
    is_flag=True,
    help="Add to what each graph holds (POST; each blank node anew: the same anthology "
    "added twice holds two copies of each). With neither option, a graph the store has "
    "already is refused, nothing sent (with --update, one of them is needed).",
)
@click.option(
    "--timeout",
    "http_timeout",
    type=click.FloatRange(min=0, min_open=True),
    default=HTTP_TIMEOUT,
    show_default=True,
    metavar="SECONDS",
    callback=_seconds,
    help="Give up on a request the store has not answered in full within SECONDS.",
)
@click.pass_obj
def publish(settings, endpoint, update_endpoint, graph, replace, add, http_timeout) -> None:
    """Upload the data, ontology and shapes to a SPARQL 1.1 store, as three named graphs.

    A graph the store has already is refused, exit 2, nothing sent, unless --replace or
    --add says what to do with it: added again, the anthology's blank nodes (its
    takeaways, claims, arms) would be in the store twice.

    Credentials come from ANTHOLOGY_KG_USER and ANTHOLOGY_KG_PASSWORD (or
    ANTHOLOGY_KG_TOKEN) or ~/.netrc, answering Basic or Digest. Server errors
    (unreachable, no answer in time, 4xx, 5xx) are reported with the HTTP status and
    the body's text, exit 2; a failure or a stop signal (Ctrl-C, SIGTERM) after some
    graphs were sent names them.
    """
    if (endpoint is None) == (update_endpoint is None):
        raise AnthologyError("publish needs one of --endpoint URL or --update URL")
    if replace and add:
        raise AnthologyError("publish takes one of --replace or --add, not both")
    from .literal_terms import store_form_warnings
    from .triplestore import publish as run_publish
    from .triplestore import publish_update

    _refuse_the_sample(settings)  # a store's graphs are not replaced by the sample's
    connection = _connection(settings, timeout=http_timeout)
    send = run_publish if endpoint else publish_update
    target = endpoint or update_endpoint
    anthology = settings.engine()
    for line in store_form_warnings(anthology, _HELD_BY_A_STORE):
        _say(printable_lines(line))
    for sent in send(anthology, target, graph, replace, connection, add):
        verb = "replaced" if replace else "added to"
        _summary(settings, f"{verb} <{sent.graph}>: {sent.triples} triples")


@main.command(short_help="Serve the anthology from an Oxigraph SPARQL server.")
@click.option(
    "--port",
    type=click.IntRange(1, 65535),
    default=7878,
    show_default=True,
    help="Port to listen on (the server cannot tell a port the system picks: no 0).",
)
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on (anyone who can reach it may query: keep it local).",
)
@click.option(
    "--read-only/--writable",
    default=True,
    show_default=True,
    help="Refuse updates (SPARQL Update, Graph Store), or take them: then any web page "
    "open in a browser on this machine can change or drop the served store (a "
    "cross-site form POST) while it runs.",
)
@_timeout(
    "Ask the server to give up on a query after SECONDS (Oxigraph's --timeout-s, whole "
    "seconds; 0 or inf: none). Oxigraph 0.5.13 was seen to run a join on past it."
)
@click.pass_obj
def serve(settings, port, host, read_only) -> None:
    """Start an Oxigraph SPARQL server loaded with the anthology (until Ctrl-C or SIGTERM).

    Queries at http://HOST:PORT/query see data, ontology and shapes as one default graph.
    The endpoint is printed once the server listens; a port in use is exit 2.

    The endpoint takes requests from whoever reaches it, web pages open in a browser on
    this machine included (which cannot read the answers: no CORS headers). It runs any
    query, and a SERVICE in one makes the server call the URL it names, any host this
    machine reaches (local queries refuse SERVICE; the server cannot). Read-only by
    default: updates are refused (HTTP 403). The anthology's files are never written.
    """
    from .server import serve as run_serve

    def started(base: str) -> None:
        _out(f"SPARQL endpoint: {base}/query   Graph Store: {base}/store")
        _summary(
            settings,
            f"try: curl -s {base}/query -H 'Accept: text/csv' "
            "--data-urlencode 'query=SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }'",
        )

    from .literal_terms import store_form_warnings

    anthology = settings.engine()
    for line in store_form_warnings(anthology, _HELD_BY_THE_SERVER):
        _say(printable_lines(line))
    sys.exit(run_serve(anthology, host, port, read_only, started, timeout=settings.timeout))


#: Where publish and serve put a literal other than written (store_form_warnings).
_HELD_BY_A_STORE = (
    "in a store that keeps literals as values, as Oxigraph does: its answers and "
    "validate --endpoint read that form, not the one written"
)
_HELD_BY_THE_SERVER = (
    "in the served store (Oxigraph keeps literals as values): its answers read that form, "
    "not the one written"
)


@main.command(short_help="Write data/IDENTIFIER.ttl for a new entry, then check it.")
@click.argument("kind", type=click.Choice(sorted(ENTRY_KINDS)))
@click.argument("identifier")
@click.option(
    "--title",
    help="The entry's title: dcterms:title of a reference (the work's title), rdfs:label "
    "of a lit, adr, sota or note entry; one line, not empty.",
)
@click.option("--authors", help='As the record prints them: "Sheng et al."; one line, not empty.')
@click.option(
    "--category",
    help="For a reference or lit entry: a category a decision record in force admits "
    "(ak:admitsCategory; none in a new anthology: write that record first).",
)
@_allow_service_option
@click.pass_obj
def new(settings, kind, identifier, title, authors, category) -> None:
    """Write data/IDENTIFIER.ttl for a new entry of KIND, then check it.

    Refuses an identifier of the wrong form or one the anthology has, and a category
    no decision record in force admits, as rule 1 reads them (exit 2, nothing written).
    Prints what the rules still ask of the entry: only you can fill it in; and the
    values the template set that no option gave (a new reference or lit entry unread,
    a decision record proposed), for you to change where they are not so. With -q
    (anthology-kg -q new …), prints only the path of the file written, for a script.
    """
    from .authoring import (
        new_entry_graph,
        refuse_unusable_rules,
        template_values,
        write_new_entry,
    )
    from .resources import bundled_dir, find_root
    from .validation import validate as run_validation

    if settings.root is None and find_root() == bundled_dir():
        raise AnthologyError("no anthology here (no data/ folder); use --root DIR")
    anthology = settings.engine()
    graph = new_entry_graph(anthology, kind, identifier, title, authors, category)
    refuse_unusable_rules(anthology, settings.allow_service)
    path = write_new_entry(anthology, graph, identifier)
    if settings.quiet:  # the result is the file written; the check's lines are for people
        _out(printable(display_path(path)))
        return
    _out(f"wrote {display_path(path)}")
    report = run_validation(settings.engine(validates=True), allow_service=settings.allow_service)
    todo = [r for r in report.counted if r.focus == identifier]
    said = set()
    for r in todo:
        # A result about a value the entry has asks to change it, not to fill it in.
        value = r.shown_value or r.value
        what = " ".join(part for part in (r.path, value) if part)
        said.add(what)
        todo_text = f"{what} ({r.message})" if what else r.message
        _out(f"{'to change' if value else 'to fill in'}: {printable(todo_text)}")
    for prop, value, why in template_values(kind):
        what = f"{anthology.normalize(prop)} {anthology.normalize(value)}"
        if what not in said:  # a rule that refuses it has said so already
            _out(f"set by the template: {what} ({why})")
    if not todo:
        _out(f"{identifier} passes check")


@main.command(short_help="Build a static HTML site of the anthology.")
@click.option(
    "-o",
    "--output",
    required=True,
    type=click.Path(file_okay=False),
    callback=_output_folder,
    help="Folder to write the site into (created if missing).",
)
@_engine_option
@_allow_service(
    "Let a shape's SPARQL call a remote endpoint (SERVICE); refused by default. A stored "
    "query that calls one is never run by the site: its page shows its text."
)
@_timeout(
    "Give up on a stored query after SECONDS (0: no limit): its page says so and shows no "
    "answer, and the site is built. Ctrl-C stops at once (exit 130)."
)
@click.pass_obj
def site(settings, output, engine) -> None:
    """Build a static HTML site: index, entry pages, stored queries (run again in the
    browser), search, rules, pictures. It replaces the whole content of OUTPUT: a new or
    empty folder, or an earlier site holding nothing else (a CNAME, .git or notes beside
    it are refused, exit 2, and kept)."""
    from .files import write_error
    from .site import build_site

    try:
        # The site's model parses the data files again: the engine keeps what it read,
        # to parse it into its store where the site validates (a forked child).
        built = build_site(
            settings.engine(engine, validates=True, deferred=True),
            output,
            allow_service=settings.allow_service,
            timeout=settings.timeout,
        )
    except OSError as exc:  # a read-only or full file system under the site's folders
        raise write_error(exc, output) from None
    for warning in built.warnings:
        _say(f"anthology-kg: {printable_lines(warning)}")
    _summary(
        settings,
        f"wrote {len(built.names)} files to {display_path(output)}; open "
        f"{display_path(output / 'index.html')}",
    )


@main.command(short_help="Write a reproducible synthetic anthology, for scale runs.")
@click.option(
    "--entries",
    "count",
    type=click.IntRange(min=MIN_ENTRIES, max=MAX_ENTRIES),
    required=True,
    metavar="N",
    help="Write exactly N entries, one file each.",
)
@click.option(
    "--seed", type=int, default=0, show_default=True, help="The same seed, the same files."
)
@click.option(
    "--violations",
    type=click.IntRange(min=0),
    default=0,
    show_default=True,
    help="Plant K violations spread over the rules, listed in expected-violations.json.",
)
@click.option(
    "-o",
    "--output",
    required=True,
    type=click.Path(file_okay=False),
    callback=_output_folder,
    help="Folder to write data/ (and expected-violations.json) into.",
)
@click.pass_obj
def generate(settings: Settings, count, seed, violations, output) -> None:
    """Write a reproducible synthetic anthology, for scale runs and test fixtures."""
    from .generate import generate as run_generate

    summary = run_generate(count, seed, output, violations)
    _summary(
        settings,
        f"wrote {summary['files']} entry files and {summary['violations']} planted "
        f"violation(s) to {display_path(output)}",
    )


#: The exit of a command whose reader closed its output pipe (128 + SIGPIPE).
EXIT_BROKEN_PIPE = 141
#: Set when SIGTERM stopped the command (``run``): exit 143, not Ctrl-C's 130.
_TERMINATED: list[int] = []


def _terminate(number: int, frame: object) -> None:
    """SIGTERM (a cancelled CI job, ``timeout``) stops the command as Ctrl-C does, with
    the same cleanup (temporary files and folders removed, child processes stopped). A
    forked child of the command (the site's workers) ends at once, as SIGTERM's default
    would: its parent stops it so, and cleans up after it."""
    if os.getpid() != _MAIN_PROCESS[0]:
        os._exit(128 + number)
    _TERMINATED.append(number)
    raise KeyboardInterrupt


_MAIN_PROCESS: list[int] = []
#: Set when SIGPIPE came (``run``): a write met a pipe whose reader had closed it.
_PIPE_SIGNALLED: list[int] = []


def _pipe_signalled(number: int, frame: object) -> None:
    _PIPE_SIGNALLED.append(number)


def _reader_gone(stream: IO[str]) -> bool:
    """Whether ``stream`` is a pipe whose reading end is closed (poll says POLLERR):
    not a socket that SIGPIPE may also have come from (a store's connection)."""
    import select

    try:
        fd = stream.fileno()
        if not stat.S_ISFIFO(os.fstat(fd).st_mode):
            return False
        poll = select.poll()
        poll.register(fd, select.POLLOUT)
        return any(events & select.POLLERR for _, events in poll.poll(0))
    except (OSError, ValueError, io.UnsupportedOperation):  # closed, or no descriptor
        return False


def _stdout_to_devnull() -> None:
    """Point stdout at /dev/null, so that the interpreter's last flush says nothing
    (Python's documented way after a BrokenPipeError); a stdout with no descriptor of
    its own (a test's capture) is left as it is."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    os.close(devnull)


def run() -> None:
    """The ``anthology-kg`` console script (and ``python -m anthology_kg``): ``main``,
    then every object it left is frozen out of the interpreter's last garbage
    collection, which would walk them all only to end the process (0.3 s after a
    10,000-entry ``site``). In-process callers of ``main`` keep their collector as it was,
    and their SIGTERM: here SIGTERM stops the command as Ctrl-C does (``_terminate``).
    """
    import signal

    if _standard_descriptors_reopened():
        _say(f"anthology-kg: {_STDOUT_CLOSED}")
        sys.exit(EXIT_INPUT)
    _MAIN_PROCESS[:] = [os.getpid()]
    signal.signal(signal.SIGTERM, _terminate)
    # Handled rather than ignored (Python's default): a write still fails with EPIPE,
    # and a short write that met a closed pipe is then known (``_reader_gone``).
    signal.signal(signal.SIGPIPE, _pipe_signalled)
    try:
        main()
    except SystemExit as done:
        # Only a command that imported guards can have a worker given up on; importing it
        # here for the others cost every run (--help, a usage error) ~10 ms of imports.
        guards = sys.modules.get(f"{__package__}.guards")
        if guards is not None and guards.still_working():  # no finalization under a worker
            _exit_now(done.code)
        raise
    finally:
        gc.freeze()


def _standard_descriptors_reopened() -> bool:
    """Open /dev/null on each of the descriptors 0, 1 and 2 that was closed when the
    process started (``>&-``, ``<&-``, ``2>&-``), so that no file the command opens takes
    their number (a child process, git, writes to the inherited 1 and 2); stderr then
    writes there. Whether standard output was closed: the command's output would be lost.
    Standard input stays None (``sparql -`` says that it is closed)."""
    closed = []
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            closed.append(fd)
    for fd in closed:  # the lowest free number: this one
        devnull = os.open(os.devnull, os.O_RDWR)
        if devnull != fd:
            os.dup2(devnull, fd)
            os.close(devnull)
    if 2 in closed and sys.stderr is None:
        sys.stderr = open(2, "w", encoding="utf-8", errors="backslashreplace", closefd=False)
    return 1 in closed and sys.stdout is None


def _exit_now(code: object) -> NoReturn:
    """End the process with ``code`` (SystemExit's) at once, the output flushed."""
    if isinstance(code, str):
        print(code, file=sys.stderr)
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    os._exit(code if isinstance(code, int) else 0 if code is None else 1)


def _help_from_the_source() -> None:
    """Give each command the help its function's docstring says, read from this module's
    source: ``python -OO`` strips the docstrings click takes the help from (the exit
    codes and every command's description were gone from ``--help``)."""
    import ast
    import inspect

    try:
        tree = ast.parse(Path(__file__).read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError):  # installed without its source
        return
    docstrings = {  # the commands are functions of the module itself
        node.name: ast.get_docstring(node) or ""
        for node in tree.body
        if isinstance(node, ast.FunctionDef)
    }
    for command in (main, *main.commands.values()):
        name = getattr(command.callback, "__name__", "")
        if command.help is None and docstrings.get(name):
            command.help = inspect.cleandoc(docstrings[name]).split("\f")[0]


if main.help is None:  # (python -OO)
    _help_from_the_source()
