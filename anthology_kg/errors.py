"""Errors a user can cause, reported as ``file:line: message`` and exit code 2."""

from __future__ import annotations

import os
import re
import signal
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path


class AnthologyError(Exception):
    """A mistake in the user's input: a file, an option or a value.

    The CLI prints it as ``path:line: message`` (or ``path: message`` when no line
    is known) and exits with code 2; it is never shown as a traceback.
    """

    def __init__(self, message: str, path: Path | str | None = None, line: int | None = None):
        super().__init__(message)
        self.message = message
        self.path = path
        self.line = line

    def __str__(self) -> str:
        """``path:line: message``, the path and each line of the message shown as
        ``printable`` shows data: a file name or a value quoted in the message that holds
        ESC or a line break can neither restyle the terminal nor forge a line."""
        message = printable_lines(self.message)
        if self.path is None:
            return message
        where = printable(display_path(self.path))
        if self.line is not None:
            where = f"{where}:{self.line}"
        return f"{where}: {message}"


def display_path(path: Path | str) -> str:
    """Show ``path`` relative to the working directory when it lies under it."""
    p = Path(path)
    try:
        # abspath, not resolve: a symlink is shown by its own name (and a symlink loop
        # cannot make the error message itself fail).
        return Path(os.path.abspath(p)).relative_to(os.getcwd()).as_posix()
    except (ValueError, OSError):
        return p.as_posix()


#: What data text is never printed as: C0 and C1 controls and DEL (a line end starts a
#: line a CI runner reads as a workflow command, ESC a terminal's escape sequence), the
#: line and paragraph separators (``str.splitlines`` breaks lines there), the bidi
#: embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069: they reorder how
#: the rest of a line reads, "Trojan Source"), and the surrogates, U+FFFE and U+FFFF
#: (which XML 1.0 cannot carry either).
_UNPRINTABLE = re.compile(
    "[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff\ufffe\uffff]"
)


#: Unicode's Default_Ignorable_Code_Point characters (DerivedCoreProperties.txt).
_IGNORABLE = (
    "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e"
    "\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8\U0001bca0-\U0001bca3"
    "\U0001d173-\U0001d17a\U000e0000-\U000e0fff"
)
#: What a GitHub runner reads as a workflow command in a log line (stdout or stderr):
#: ``##[`` anywhere (the legacy form) and ``::`` at its start after blanks (the runner
#: trims leading white space first). The runner matches with .NET's culture-sensitive
#: ``IndexOf``/``StartsWith``, which under ICU skip zero-width characters, so the
#: ignorable ones count as nothing here too. A text is one piece of a line, so its own
#: start counts as a line's start (a table cell after blanks, a name listed alone).
_WORKFLOW_COMMAND = re.compile(
    f"#(?=[{_IGNORABLE}]*#[{_IGNORABLE}]*\\[)|^(?P<lead>[\\s{_IGNORABLE}]*):(?=[{_IGNORABLE}]*:)"
)


def _defused(match: re.Match[str]) -> str:
    # The first character of the form is written as its Python escape, as printable
    # writes a control character: plain ASCII, which no comparison of the runner's can
    # read as ``#`` or ``:``, and visibly not the data's own text. An invisible word
    # joiner (U+2060) would be skipped by that same culture-sensitive match.
    if match.group("lead") is None:
        return "\\x23"
    return match.group("lead") + "\\x3a"


def printable_characters(text: str, kept: str = "") -> str:
    """``text`` with each character of ``_UNPRINTABLE`` written as its Python escape
    (``\\n``, ``\\x1b``, ``\\u2028``), and nothing else changed: how a data format or a
    page shows data (a JSON report's file name, a picture's label), which no CI runner
    reads line by line for a workflow command. The characters of ``kept`` (a diff's
    tab) are left as they are."""
    if text.isprintable():  # (in C: none of _UNPRINTABLE, the common case)
        return text
    return _UNPRINTABLE.sub(
        lambda m: (
            m.group() if m.group() in kept else m.group().encode("unicode_escape").decode("ascii")
        ),
        text,
    )


def printable(text: str, kept: str = "") -> str:
    """``printable_characters(text, kept)``, and the first character of what a CI runner
    would read as a workflow command (``_WORKFLOW_COMMAND``: ``##[``, a leading ``::``)
    written as its escape too (``\\x23#[``, ``\\x3a:``): how reports, warnings and
    tables show data, on one line that cannot command the runner."""
    text = printable_characters(text, kept)
    if "#" in text or ":" in text:
        text = _WORKFLOW_COMMAND.sub(_defused, text)
    return text


def workflow_command_marks(text: str) -> list[int]:
    """Where in ``text`` a ``##[`` begins that a CI runner reads as a workflow command
    (``_WORKFLOW_COMMAND``): the index of each first ``#``, which ``printable`` escapes."""
    if "#" not in text:
        return []
    return [m.start() for m in _WORKFLOW_COMMAND.finditer(text) if m.group("lead") is None]


def printable_lines(text: str) -> str:
    """Each line of ``text`` (a message of several lines) as ``printable`` shows it; the
    line breaks between them are the message's own."""
    if text.isprintable() and "#" not in text and ":" not in text:
        return text
    return "\n".join(map(printable, text.split("\n")))


#: How many characters of a value a one-line message quotes (``clipped``).
CLIPPED_AT = 80
#: How many items of a list a one-line message names (``first_of``).
LISTED_AT = 10


def clipped(value: str, limit: int = CLIPPED_AT) -> str:
    """``value`` quoted as ``repr`` quotes it, for a one-line message; past ``limit``
    characters its first ``limit`` and how long it is (``'xxx…'… (100004 characters)``):
    a value of any length given on a command line or in a file is not echoed whole."""
    if len(value) <= limit:
        return repr(value)
    return f"{value[:limit]!r}… ({len(value)} characters)"


def first_of(items: Sequence[str], limit: int = LISTED_AT) -> str:
    """``items`` joined with commas, for a one-line message; past ``limit`` items the
    first ``limit`` and how many more (``A, B, C and 9990 more``)."""
    if len(items) <= limit:
        return ", ".join(items)
    return f"{', '.join(items[:limit])} and {len(items) - limit} more"


@contextmanager
def nesting_followed(path: Path | str | None = None) -> Iterator[None]:
    """Inside (or, as a decorator, in the function), Python's own limit on nesting, met
    by data or a query nested hundreds of levels deep (blank nodes written nested,
    groups), is an AnthologyError at ``path``: an input error, not a crash."""
    try:
        yield
    except RecursionError:
        raise AnthologyError(
            "the input nests too deep to follow (blank nodes or groups nested hundreds of "
            "levels deep)",
            path,
        ) from None


class InferenceUnsupported(AnthologyError):
    """The graph uses an OWL construct whose OWL 2 RL rules are not implemented here
    (inference.py); here, so that an engine can catch it without loading the rules."""


class TimedOut(AnthologyError):
    """A time limit ran out: a local query or validation (``url`` None), or a request to
    a store at ``url``. ``what`` names it in the user's terms (``query confounders``);
    ``option`` is the one that sets the limit. Exit code 2, like any AnthologyError."""

    def __init__(
        self,
        seconds: float,
        url: str | None = None,
        what: str | None = None,
        option: str = "--timeout",
    ):
        self.seconds, self.url, self.what, self.option = seconds, url, what, option
        subject = what or url or "the request"
        source = f" from {url}" if url and what else ""
        super().__init__(f"{subject}: no answer{source} within {seconds:g} s ({option})")

    def about(self, what: str) -> TimedOut:
        """The same time-out, said of ``what`` (kept if it already names something)."""
        return self if self.what else TimedOut(self.seconds, self.url, what, self.option)


class Interrupted(KeyboardInterrupt):
    """Ctrl-C (or SIGTERM, which the command line turns into it) that stopped work whose
    outcome the user must know: ``note`` says it (``publish``: which graphs the store
    has taken), and the command line says it after "interrupted" or "terminated"."""

    def __init__(self, note: str) -> None:
        super().__init__(note)
        self.note = note


class CanonicalizationTooCostly(AnthologyError):
    """Labelling blank nodes by RDF Dataset Canonicalization (RDFC-1.0) is estimated to
    cost more than ``limit`` steps (``bnodes.canonical_work``): the costliest of
    ``groups`` groups is ``size`` blank nodes that only their paths tell apart, hanging
    from ``where`` (a subject IRI and predicate, or None), ``orders`` orderings of alike
    neighbours at one of them, linked by the predicates ``linked``; ``nested`` if Turtle
    writes them nested, without labels.
    ``option`` is the command's option that raises the limit (None if it has none)."""

    def __init__(
        self,
        size: int,
        orders: int,
        steps: int,
        limit: int,
        where: tuple[str, str] | None = None,
        option: str | None = None,
        *,
        groups: int = 1,
        nested: bool = False,
        linked: tuple[str, ...] = (),
    ):
        self.size, self.orders, self.steps, self.limit = size, orders, steps, limit
        self.where, self.option, self.groups, self.nested = where, option, groups, nested
        self.linked = linked
        by = (
            f" linked by {', '.join(linked[:3])}{', …' if len(linked) > 3 else ''}"
            if linked
            else ""
        )
        place = f" in the triples of {where[0]} {where[1]}" if where else ""
        alike = f", one of them with {orders:,} orders of alike neighbours to try"
        others = f" (and {groups - 1:,} other groups)" if groups > 1 else ""
        advice = ["give these nodes IRIs"]
        if nested:
            advice.insert(0, "write Turtle (--format turtle), which nests them and needs no labels")
        if option:
            advice.append(f"raise the limit with {option} (0: none), accepting the time")
        todo = "; or ".join(advice)
        steps_text = f"{steps:,}" if steps < 10**15 else f"{steps:.2e}"
        super().__init__(
            f"{size:,} blank nodes{by}{place}{others} look alike to RDF canonicalization "
            f"(RDFC-1.0): none of them is told apart by its own triples"
            f"{alike if orders > 1 else ''} (as in an rdf:List of equal values or a chain "
            f"of blank nodes). Labelling them is estimated at {steps_text} steps, past the "
            f"limit of {limit:,}; the work grows with the cube of their number. "
            f"{todo[0].upper()}{todo[1:]}."
        )


def how_ended(code: int) -> str:
    """How a child process ended, from its return code as ``subprocess`` gives it (a
    signal's number negated): ``killed by SIGKILL; out of memory?`` or ``exit code 3``."""
    if code >= 0:
        return f"exit code {code}"
    try:
        name = signal.Signals(-code).name
    except ValueError:
        name = f"signal {-code}"
    return f"killed by {name}{'; out of memory?' if -code == signal.SIGKILL else ''}"
