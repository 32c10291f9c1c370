"""The project's configuration file, and the conventions of the command line built on it.

Settings are read from ``anthology-kg.toml`` (top-level keys) or from the
``[tool.anthology-kg]`` table of ``pyproject.toml``, whichever is found first in the
working directory or its ancestors (``anthology-kg.toml`` wins in one folder)::

    root = "."                    # the anthology folder, relative to the file
    base = "https://example.org/id/"
    fail-on = "warning"           # none | info | warning | violation
    select = ["AK001", "AK002"]   # report only these rules
    ignore = ["AK004"]            # leave these out
    [format]                      # default output format of each command
    validate = "github"
    query = "json"

An option given on the command line, or ``ANTHOLOGY_KG_BASE`` for ``--base``, wins
over the file. The result is a click ``default_map``.
"""

from __future__ import annotations

import copy
import difflib
import functools
import re
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import AnthologyError, clipped
from .utf8 import decode_utf8, without_bom

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

CONFIG_FILE = "anthology-kg.toml"
PYPROJECT = "pyproject.toml"
#: ``--fail-on`` choices, from never failing to failing on violations only.
FAIL_ON = ("none", "info", "warning", "violation")

#: The commands whose ``--fail-on``, ``--select`` and ``--ignore`` the file sets.
RULE_COMMANDS = ("check", "validate")
#: The commands whose ``--format`` the file may set.
FORMAT_COMMANDS = ("validate", "query", "sparql", "export", "stats", "rules", "queries")
_KEYS = {"root", "base", "fail-on", "select", "ignore", "format"}
#: Where ``pyproject.toml`` holds the settings.
_TOOL_TABLE = ("tool", "anthology-kg")

#: The format ``-o FILE`` implies, by file extension, for each command that writes one
#: in a format of its choice (tests/test_output_format_precedence.py holds every key
#: one of the command's formats).
OUTPUT_FORMATS: dict[str, dict[str, str]] = {
    "validate": {
        ".sarif": "sarif",
        ".json": "json",
        ".xml": "junit",
        ".txt": "text",
        ".ttl": "turtle",
        ".jsonld": "jsonld",
    },
    "diff": {
        ".txt": "text",
        ".md": "markdown",
        ".json": "json",
        ".nq": "nquads",
    },
    "export": {
        ".ttl": "turtle",
        ".nt": "ntriples",
        ".nq": "nquads",
        ".jsonld": "jsonld",
        ".json": "jsonld",
        ".rdf": "rdfxml",
        ".xml": "rdfxml",
        ".owl": "rdfxml",
    },
}


@dataclass
class Config:
    """What a configuration file says, and which file said it."""

    path: Path | None = None
    values: dict[str, Any] = field(default_factory=dict)

    def default_map(self) -> dict[str, Any]:
        """The settings as click's ``default_map``: group options at the top, each
        command's under its name."""
        values = self.values
        defaults: dict[str, Any] = {}
        if "root" in values and self.path is not None:
            defaults["root"] = (self.path.parent / str(values["root"])).resolve()
        if "base" in values:
            defaults["base"] = str(values["base"])
        for command in RULE_COMMANDS:
            options: dict[str, Any] = {}
            if "fail-on" in values:
                options["fail_on"] = values["fail-on"]
            for key in ("select", "ignore"):
                if key in values:
                    options[key] = tuple(values[key])
            if options:
                defaults[command] = options
        for command, fmt in values.get("format", {}).items():
            defaults.setdefault(command, {})["fmt"] = fmt
        return defaults


#: A TOML key (one part of a dotted key): bare, "basic" or 'literal'.
_KEY_PART = r"""[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|'[^']*'"""
_DOTTED = rf"(?:{_KEY_PART})(?:\s*\.\s*(?:{_KEY_PART}))*"
_TABLE_LINE = re.compile(rf"\s*\[\[?\s*({_DOTTED})\s*\]")
_KEY_LINE = re.compile(rf"\s*({_DOTTED})\s*=")


def setting_line(path: Path, key: Sequence[str]) -> int | None:
    """The line of the configuration file ``path`` where the setting ``key`` is written
    (``("format", "validate")``; in ``pyproject.toml``, under ``[tool.anthology-kg]``):
    its own line (or, for a table, its first line or key: ``[tool.anthology-kg]`` for
    ``tool``), else that of the nearest table written to hold it (an inline table's
    key). None when the file cannot be read or the scan does not find it. A scan of the
    text, not a parse: tomllib says where a syntax error is, not where a key is."""
    return _written_at(path, (*(_TOOL_TABLE if path.name == PYPROJECT else ()), *key))


def _written_at(path: Path, wanted: tuple[str, ...]) -> int | None:
    """``setting_line`` of the key ``wanted``, from the top of the file."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeError):
        return None
    table: tuple[str, ...] = ()
    found, found_depth, in_string = None, 0, False
    # (TOML's line ends are LF and CRLF alone: str.splitlines would break at more)
    for number, line in enumerate(text.split("\n"), start=1):
        quotes = line.count('"""') + line.count("'''")
        if in_string:  # inside a multi-line string, which may hold "key = value"
            in_string = quotes % 2 == 0
            continue
        in_string = quotes % 2 == 1
        header = _TABLE_LINE.match(line)
        written = _KEY_LINE.match(line) if header is None else None
        if header is not None:
            table = _key_parts(header.group(1))
            here = table
        elif written is not None:
            here = (*table, *_key_parts(written.group(1)))
        else:
            continue
        if here[: len(wanted)] == wanted:  # the key, or a key of its table (its first)
            return number
        if len(here) > found_depth and wanted[: len(here)] == here:
            found, found_depth = number, len(here)
    return found


def _key_parts(dotted: str) -> tuple[str, ...]:
    """The parts of a dotted TOML key, quotes taken off (``"a.b".c``: ``a.b``, ``c``)."""
    parts = []
    for match in re.finditer(_KEY_PART, dotted):
        part = match.group()
        if part[0] == '"':
            import json  # here: an error's line only, not every run's startup

            try:
                part = json.loads(part)  # (TOML's basic-string escapes are JSON's but few)
            except ValueError:
                part = part[1:-1]
        elif part[0] == "'":
            part = part[1:-1]
        parts.append(part)
    return tuple(parts)


def find_config(start: Path) -> Config:
    """The configuration of the nearest folder, from ``start`` up, that has an
    ``anthology-kg.toml`` or a ``pyproject.toml`` with ``[tool.anthology-kg]``."""
    for folder in (start, *start.parents):
        own = folder / CONFIG_FILE
        if own.is_file():
            return Config(own, _checked(copy.deepcopy(_read(own)), own))
        pyproject = folder / PYPROJECT
        data = _ours(pyproject) if pyproject.is_file() else None
        if data is not None:
            tool = _read(pyproject, data).get("tool", {})
            if not isinstance(tool, dict):
                raise AnthologyError(
                    "[tool] is not a table", pyproject, _written_at(pyproject, ("tool",))
                )
            table = tool.get("anthology-kg")
            if table is not None:
                return Config(pyproject, _checked(copy.deepcopy(table), pyproject))
    return Config()


def _ours(pyproject: Path) -> bytes | None:
    """The bytes of ``pyproject`` if it names anthology-kg at all: one that does not, or
    that cannot be read, is another project's (an enclosing repository's, another
    user's), whose typo or permissions must not stop this tool; None then."""
    try:
        data = pyproject.read_bytes()
    except OSError:
        return None
    return data if b"anthology-kg" in data else None


def _read(path: Path, data: bytes | None = None) -> dict[str, Any]:
    """The tables of the TOML file at ``path`` (its bytes ``data`` when already read)."""
    try:
        raw = path.read_bytes() if data is None else data
        # A byte order mark (an editor's, as data files may start with one) is read past,
        # where tomllib calls it an invalid statement; bytes that are not UTF-8 are said
        # at their line, as a data file's; line ends as read_text's universal newlines.
        text = decode_utf8(without_bom(raw), path).replace("\r\n", "\n").replace("\r", "\n")
        return _parsed(text)
    except OSError as exc:
        raise AnthologyError(f"cannot read the configuration: {exc}", path) from None
    except tomllib.TOMLDecodeError as exc:
        raise _syntax_error(exc, text, path) from None


#: Where tomllib's message says the error is (its exception has no line before 3.14).
_TOML_AT = re.compile(r" \(at (?:line (\d+), column (\d+)|end of document)\)$")


def _syntax_error(exc: tomllib.TOMLDecodeError, text: str, path: Path) -> AnthologyError:
    """tomllib's ``exc`` in ``text`` as an AnthologyError at the file and line it names
    (the end of the document: the line of the last character), its column said."""
    said = str(exc)
    at = _TOML_AT.search(said)
    if at is None:
        return AnthologyError(f"not TOML: {said}", path)
    if at.group(1) is None:
        line = max(1, text.count("\n") + (0 if text.endswith("\n") else 1))
        return AnthologyError(f"not TOML: {said[: at.start()]} (at the end)", path, line)
    return AnthologyError(
        f"not TOML: {said[: at.start()]} (column {at.group(2)})", path, int(at.group(1))
    )


@functools.lru_cache(maxsize=8)
def _parsed(text: str) -> dict[str, Any]:
    """tomllib's tables of ``text``, parsed once for each text: a process that runs the
    command line again and again (a notebook, a test suite: 1,400 runs) reads the same
    pyproject.toml each time, whose parse (~1.6 ms for this project's) is most of
    finding the configuration. Shared: ``find_config`` copies the table it returns."""
    return tomllib.loads(text)


def _first_setting(table: dict[str, Any]) -> str:
    """The first setting of a ``[tool.anthology-kg]`` table as a top-level key would be
    written (``fail-on = "warning"``), for a message; ``base = "…"`` where it has none."""
    settings = [(k, v) for k, v in table[_TOOL_TABLE[1]].items() if not isinstance(v, dict)]
    if not settings:
        return 'base = "…"'
    key, value = settings[0]
    written = f'"{value}"' if isinstance(value, str) else str(value)
    return f"{key} = {written}"


def _checked(values: Any, path: Path) -> dict[str, Any]:
    """``values`` if every key and value is one this module knows, else an
    AnthologyError naming the first that is not, at its line (``setting_line``)."""

    def refused(message: str, *key: str) -> AnthologyError:
        return AnthologyError(message, path, setting_line(path, key))

    if not isinstance(values, dict):
        raise refused("[tool.anthology-kg] is not a table")
    for key, value in values.items():
        if key not in _KEYS:
            table = (
                f": [tool.anthology-kg] is a table of pyproject.toml; {path.name} holds the "
                f"settings as top-level keys ({_first_setting(value)})"
                if key == _TOOL_TABLE[0]
                and path.name != "pyproject.toml"
                and isinstance(value, dict)
                and isinstance(value.get(_TOOL_TABLE[1]), dict)
                else did_you_mean(key, _KEYS)
            )
            raise refused(
                f"unknown setting {clipped(key)}{table}; known: " + ", ".join(sorted(_KEYS)),
                key,
            )
        if key in ("root", "base") and not isinstance(value, str):
            raise refused(f"{key} is a string", key)
        if key == "base":
            _check_base(value, path)
        if key == "fail-on" and value not in FAIL_ON:
            raise refused(f"fail-on is one of {', '.join(FAIL_ON)}", key)
        if key in ("select", "ignore") and not (
            isinstance(value, list) and all(isinstance(v, str) for v in value)
        ):
            raise refused(f"{key} is a list of rule codes", key)
        if key == "format" and not isinstance(value, dict):
            raise refused("format is a table: command = format", key)
    return values


#: How a value that is not a string is named, by its TOML type.
_TOML_TYPES: dict[type, str] = {
    bool: "a boolean",
    int: "an integer",
    float: "a float",
    list: "an array",
    dict: "a table",
}


def check_formats(
    config: Config, choices: Mapping[str, Sequence[str]], commands: Iterable[str] = ()
) -> None:
    """An AnthologyError at its line (``setting_line``) for the first ``[format]`` key of
    ``config`` that is not one of ``FORMAT_COMMANDS`` (a command of ``choices``, those
    with a --format, or of ``commands``, the others, is named as one), or value that is
    not one of its command's ``choices``, whichever command runs: the command it sets
    would be the only one to notice it otherwise."""
    if config.path is None:
        return
    for command, value in config.values.get("format", {}).items():
        if command not in FORMAT_COMMANDS:
            raise AnthologyError(
                _not_configurable(command, choices, commands),
                config.path,
                setting_line(config.path, ("format", command)),
            )
        allowed = choices.get(command)
        if allowed is not None and value not in allowed:
            shown = clipped(value) if isinstance(value, str) else _TOML_TYPES.get(type(value))
            raise AnthologyError(
                f"format.{command}: {shown or 'a date or time'} is not one of "
                f"{', '.join(map(repr, allowed))}.",
                config.path,
                setting_line(config.path, ("format", command)),
            )


def _not_configurable(
    command: str, choices: Mapping[str, Sequence[str]], commands: Iterable[str]
) -> str:
    """Why ``[format]`` cannot hold ``command``: its --format is not set by the file, it
    has none, or there is no such command."""
    settable = f"the file sets the --format of {', '.join(FORMAT_COMMANDS)}"
    if command in choices:
        return f"format: {command}'s --format is given on the command line only ({settable})"
    if command in commands:
        return f"format: {command} has no --format ({settable})"
    return f"format: no command {clipped(command)}{did_you_mean(command, FORMAT_COMMANDS)}"


def _check_base(base: str, path: Path) -> None:
    """An AnthologyError naming the file and its key, not the --base option the user did
    not write, if ``sources.check_base`` refuses ``base`` (not an absolute IRI, or one
    that ``<ID>`` does not resolve against to base + ``ID``)."""
    # pyoxigraph's IRI parser: every command loads it anyway (main checks --base); only
    # --help, --version and completion pay for it here (~10 ms of CPU) with a base set.
    from .sources import check_base

    try:
        check_base(base, "base:")
    except AnthologyError as exc:
        raise AnthologyError(exc.message, path, setting_line(path, ("base",))) from None


def format_from_output(command: str, output: Path | None, choices: Iterable[str]) -> str | None:
    """The format ``-o output`` implies for ``command`` by its extension, if any and if
    the command writes it."""
    if output is None:
        return None
    implied = OUTPUT_FORMATS.get(command, {}).get(output.suffix.lower())
    return implied if implied in set(choices) else None


def did_you_mean(word: str, choices: Iterable[str], prefix: str = "") -> str:
    """``; did you mean 'x'?`` for the closest of ``choices`` to ``word`` (``closest``:
    each as close, up to three), else ``""``; ``prefix`` is written before each
    (compared without: ``sh:`` would make any two names of SHACL alike)."""
    return suggested([prefix + choice for choice in closest(word, choices)])


def closest(word: str, choices: Iterable[str], cutoff: float = 0.6) -> list[str]:
    """The ``choices`` closest to ``word`` by difflib's ratio (``cutoff`` at least): each
    as close as the closest, in the order of ``choices`` (difflib's get_close_matches
    gives one of several equally close, the last in alphabetical order: AK010 for AK01,
    where AK001 is as close); compared without case where none is close with it."""
    unique = list(dict.fromkeys(choices))
    matcher = difflib.SequenceMatcher()
    for fold in (False, True):
        matcher.set_seq2(word.lower() if fold else word)
        scored = []
        for choice in unique:
            matcher.set_seq1(choice.lower() if fold else choice)
            if matcher.real_quick_ratio() >= cutoff and matcher.quick_ratio() >= cutoff:
                ratio = matcher.ratio()
                if ratio >= cutoff:
                    scored.append((ratio, choice))
        if scored:
            best = max(ratio for ratio, _ in scored)
            return [choice for ratio, choice in scored if ratio == best]
    return []


def suggested(names: Sequence[str]) -> str:
    """``; did you mean 'a', 'b' or 'c'?`` for the first three of ``names``; ``""`` for none."""
    shown = [repr(name) for name in names[:3]]
    if not shown:
        return ""
    listed = shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} or {shown[-1]}"
    return f"; did you mean {listed}?"
