"""Stored SPARQL queries: the catalog, each query's grlc header, and safe parameters.

A stored query is a ``.rq`` file whose first lines are a grlc header of
``#+ key: value`` lines (``summary``, ``description``, ``tags``, ``defaults``,
``enumerate``, read as grlc reads them: YAML), with this tool's ``param: name — meaning``
and ``param-type: name entry|iri|literal``. A parameter is also every grlc variable of
the query (``?_name``, ``?_name_iri``, ``?_name_integer``, ``?_name_en``; ``?__name`` is
optional), so that grlc exposes it. Parameters are bound as RDF terms (initial
bindings, or a ``VALUES`` block): a value is never pasted into the query text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from .config import did_you_mean
from .errors import AnthologyError, clipped, display_path
from .prefixes import PREFIXES
from .sources import list_folder, listed_name, not_read, read_text, utf8_text

if TYPE_CHECKING:
    from collections.abc import Iterable

    from rdflib.term import Node

    from .engine import Engine
    from .ruleset import Rules


class QueryFolders(Protocol):
    """What the catalog reads: the folders of stored queries, bundled one first (an
    engine's or its rules', ``Rules.query_dirs``)."""

    @property
    def query_dirs(self) -> list[Path]: ...


PARAM_TYPES = ("entry", "iri", "literal")
#: The header keys the line reader reads (``read_query``); grlc reads the rest as YAML.
_LINE_KEYS = frozenset({"summary", "description", "param", "param-type"})
_HEADER = re.compile(r"^#\+\s*([\w-]+)\s*:\s*(.*)$")
_PARAM = re.compile(r"^([A-Za-z_]\w*)\s*(?:—|--|-|:)?\s*(.*)$")
# grlc's parameter variables (its gquery.get_parameters, as BASIL named them): one
# underscore (required) or two (optional), the name up to the next underscore, then a
# type: iri, number, literal or string, an XSD datatype (integer, date, ...), a language
# tag of two letters (en), or a prefix and a datatype (xsd_date); any other is a string.
_GRLC_VARIABLE = re.compile(
    r"(?P<optional>__?)(?P<name>[^_]+)_?(?P<type>[a-zA-Z0-9]+)?_?(?P<userdefined>[a-zA-Z0-9]+)?"
)
_GRLC_AGGREGATE = re.compile(r"__agg_\d+__")  # rdflib's name for an aggregate, not grlc's
#: The XSD datatypes a grlc suffix names (grlc's static.XSD_DATATYPES).
XSD_SUFFIXES = frozenset(
    "decimal float double integer positiveInteger negativeInteger nonPositiveInteger "
    "nonNegativeInteger long int short byte unsignedLong unsignedInt unsignedShort "
    "unsignedByte dateTime date gYearMonth gYear duration gMonthDay gDay gMonth string "
    "normalizedString token language NMTOKEN NMTOKENS Name NCName ID IDREFS ENTITY "
    "ENTITIES QName boolean hexBinary base64Binary anyURI notation".split()
)
_XSD = PREFIXES["xsd"]
#: A SPARQL number (INTEGER, DECIMAL, DOUBLE, signed or not), as grlc pastes a
#: ``_number`` value into the query, with the datatype SPARQL gives it.
_NUMBER = re.compile(
    r"[+-]?(?:(?P<integer>\d+)|(?P<decimal>\d*\.\d+)|(?:\d+\.?\d*|\.\d+)[eE][+-]?\d+)"
)


_TIMEZONE = r"(?:Z|[+-](?:(?:0[0-9]|1[0-3]):[0-5][0-9]|14:00))?"
_DATE = r"([0-9]{4})-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])"
_TIME = r"(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\.[0-9]+)?"
_INTEGER = r"[+-]?[0-9]+"
_DECIMAL = r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)"
_FLOAT = rf"{_DECIMAL}(?:[eE][+-]?[0-9]+)?|[+-]?INF|NaN"
#: The lexical space of each XSD datatype a grlc suffix names whose values are checked
#: (XSD 1.1 Part 2, section 3.3; a date's year 0001-9999 and an hour up to 23, as
#: rdflib reads them), written in the regular expressions Python and JavaScript read
#: alike (a site's page checks a value by the same pattern: ``lexical_rule``). The
#: types of text (string, token, Name, anyURI, …) take any value, as rdflib's do.
_LEXICAL = {
    **dict.fromkeys(
        "integer positiveInteger negativeInteger nonPositiveInteger nonNegativeInteger long "
        "int short byte unsignedLong unsignedInt unsignedShort unsignedByte".split(),
        _INTEGER,
    ),
    "decimal": _DECIMAL,
    "float": _FLOAT,
    "double": _FLOAT,
    "boolean": "true|false|1|0",
    "date": _DATE + _TIMEZONE,
    "dateTime": f"{_DATE}T{_TIME}{_TIMEZONE}",
    "time": _TIME + _TIMEZONE,
    "duration": r"-?P(?=[0-9T])(?:[0-9]+Y)?(?:[0-9]+M)?(?:[0-9]+D)?"
    r"(?:T(?=[0-9])(?:[0-9]+H)?(?:[0-9]+M)?(?:[0-9]+(?:\.[0-9]+)?S)?)?",
    "gYearMonth": r"-?(?:[1-9][0-9]{3,}|0[0-9]{3})-(?:0[1-9]|1[0-2])" + _TIMEZONE,
    "gYear": r"-?(?:[1-9][0-9]{3,}|0[0-9]{3})" + _TIMEZONE,
    "gMonthDay": r"--(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])" + _TIMEZONE,
    "gDay": r"---(?:0[1-9]|[12][0-9]|3[01])" + _TIMEZONE,
    "gMonth": r"--(?:0[1-9]|1[0-2])" + _TIMEZONE,
    "hexBinary": "(?:[0-9a-fA-F]{2})*",
    # XSD 1.1 Part 2, 3.3.16.1's grammar as its own regular expression: a blank may
    # follow any character, and the last one before padding is one of 16 or 4.
    "base64Binary": "(?:(?:[A-Za-z0-9+/] ?){4})*(?:(?:[A-Za-z0-9+/] ?){3}[A-Za-z0-9+/]"
    "|(?:[A-Za-z0-9+/] ?){2}[AEIMQUYcgkosw048] ?=|[A-Za-z0-9+/] ?[AQgw] ?= ?=)?",
}
#: The least and greatest value of each bounded integer type (XSD 1.1 Part 2, 3.4).
_BOUNDS: dict[str, tuple[int | None, int | None]] = {
    "positiveInteger": (1, None),
    "nonNegativeInteger": (0, None),
    "negativeInteger": (None, -1),
    "nonPositiveInteger": (None, 0),
    "long": (-(2**63), 2**63 - 1),
    "int": (-(2**31), 2**31 - 1),
    "short": (-(2**15), 2**15 - 1),
    "byte": (-(2**7), 2**7 - 1),
    "unsignedLong": (0, 2**64 - 1),
    "unsignedInt": (0, 2**32 - 1),
    "unsignedShort": (0, 2**16 - 1),
    "unsignedByte": (0, 2**8 - 1),
}
#: The blanks a value of any checked type may have around it (its whiteSpace facet is
#: collapse: #x20, #x9, #xA, #xD).
_BLANKS = "[ \t\n\r]*"


def lexical_rule(datatype: str | None) -> dict[str, str]:
    """What a value of the XSD ``datatype`` must be to be bound (``_term``), for a site's
    page to check a value as the command line does: the ``pattern`` it matches whole,
    blanks around it allowed (group 1-3 a date's year, month and day, where ``calendar``
    says the day must be one of its month), and an integer type's ``min`` and ``max``;
    nothing for a datatype whose values are not checked."""
    local = datatype[len(_XSD) :] if datatype and datatype.startswith(_XSD) else None
    pattern = _LEXICAL.get(local or "")
    if local is None or pattern is None:
        return {}
    rule = {"pattern": f"{_BLANKS}(?:{pattern}){_BLANKS}"}
    if local in ("date", "dateTime"):
        rule["calendar"] = "yes"
    least, greatest = _BOUNDS.get(local, (None, None))
    if least is not None:
        rule["min"] = str(least)
    if greatest is not None:
        rule["max"] = str(greatest)
    return rule


def _well_formed(datatype: str, raw: str) -> bool:
    """Whether ``raw`` is a value of ``datatype`` by ``lexical_rule`` (any value, where
    it has none): matched whole, a date a day of its calendar (year 0001 at least), an
    integer within its type's bounds."""
    rule = lexical_rule(datatype)
    if not rule:
        return True
    found = re.fullmatch(rule["pattern"], raw)
    if found is None:
        return False
    if "calendar" in rule:
        year, month, day = (int(found[n]) for n in (1, 2, 3))
        leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
        days = (31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)[month - 1]
        if year == 0 or day > days:
            return False
    if "min" in rule or "max" in rule:
        value = int(raw.strip(" \t\n\r"))
        if "min" in rule and value < int(rule["min"]) or "max" in rule and value > int(rule["max"]):
            return False
    return True


@dataclass(frozen=True)
class Spelling:
    """One variable a parameter binds (``variable``, without the ``?``), and the term its
    value becomes there: an IRI (``kind`` iri), a number, or a literal with ``datatype``
    or ``lang``."""

    variable: str
    kind: str = "literal"
    datatype: str | None = None
    lang: str | None = None


@dataclass(frozen=True)
class Param:
    """A parameter of a stored query: bound to the query variable of the same name, or
    to each of grlc's ``?_name``, ``?_name_iri``, … variables (``spellings``)."""

    name: str
    meaning: str
    type: str = "literal"
    variable: str = ""
    #: grlc's ``#+ defaults``: the value used when none is given.
    default: str | None = None
    #: grlc's ``#+ enumerate`` with values: the only values accepted.
    choices: tuple[str, ...] = ()
    required: bool = True
    #: Every variable the value is bound to, each with its own type (grlc's suffix).
    spellings: tuple[Spelling, ...] = ()

    @property
    def bound_to(self) -> str:
        return self.variable or self.name

    @property
    def bound(self) -> tuple[Spelling, ...]:
        """Every variable a value is bound to, with the term it becomes there (an entry
        parameter's each its entry's IRI): ``bind_params``'s, and a site page's."""
        return self.spellings or (Spelling(self.bound_to, self.type),)


@dataclass(frozen=True)
class StoredQuery:
    """A ``.rq`` file of the catalog."""

    name: str
    path: Path
    summary: str
    description: str
    params: tuple[Param, ...]
    text: str
    tags: tuple[str, ...] = ()


def read_query(path: Path) -> StoredQuery:
    """Read a stored query and its header; a malformed header is an AnthologyError."""
    text = read_text(path)  # a non-file, unreadable or non-UTF-8 .rq: file:line, exit 2
    meta: dict[str, str] = {}
    params: list[tuple[str, str]] = []
    param_lines: dict[str, int] = {}
    types: dict[str, str] = {}
    type_lines: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.startswith("#"):
            break
        match = _HEADER.match(line)
        if not match:
            continue
        key, value = match.group(1).lower(), match.group(2).strip()
        if key == "param":
            param = _PARAM.match(value)
            if not param:
                raise AnthologyError(f"bad param line: {clipped(value)}", path, number)
            params.append((param.group(1), param.group(2)))
            param_lines.setdefault(param.group(1), number)
        elif key == "param-type":
            name, _, kind = value.partition(" ")
            if kind.strip() not in PARAM_TYPES:
                raise AnthologyError(
                    f"param-type of {name!r} must be one of {', '.join(PARAM_TYPES)}", path, number
                )
            types[name] = kind.strip()
            type_lines.setdefault(name, number)
        else:
            meta[key] = value
    if "summary" not in meta:
        raise AnthologyError("the header has no '#+ summary:' line", path, 1)
    decorators = _grlc_decorators(text, path)
    meanings = dict(params)
    declared: dict[str, Param] = {}
    for name, spellings in _grlc_parameters(text, path).items():
        required = any(not variable.startswith("__") for variable in spellings)
        kinds = {spelling.kind for spelling in spellings.values()}
        declared[name] = Param(
            name,
            meanings.get(name, ""),
            types.get(name) or ("iri" if kinds == {"iri"} else next(iter(spellings.values())).kind),
            variable=next(iter(spellings)),
            required=required,
            spellings=tuple(
                replace(spelling, kind=types[name]) if name in types else spelling
                for spelling in spellings.values()
            ),
        )
    _refuse_unused_params(text, path, param_lines, declared)
    for name, meaning in params:
        declared.setdefault(name, Param(name, meaning, types.get(name, "literal")))
    defaults = _named_values(decorators.get("defaults"))
    enumerated = _named_values(decorators.get("enumerate"))
    _refuse_unknown_names(text, path, declared, type_lines, decorators)
    tags = decorators.get("tags")
    return StoredQuery(
        name=path.stem,
        path=path,
        summary=_text(decorators, "summary", text, path) or meta["summary"],
        description=_text(decorators, "description", text, path) or meta.get("description", ""),
        params=tuple(
            replace(
                p,
                # (an empty default is none, as grlc reads it: YAML's null)
                default=_scalar(defaults.get(p.name)) or None,
                choices=tuple(map(_scalar, _as_list(enumerated.get(p.name)))),
            )
            for p in declared.values()
        ),
        text=text,
        tags=tuple(map(_scalar, _as_list(tags))),
    )


def _text(decorators: dict[str, Any], key: str, text: str, path: Path) -> str:
    """The YAML header's ``key`` (``summary``, ``description``): text, or an
    AnthologyError at its line for a list or mapping, which has no one text to show."""
    value = decorators.get(key)
    if value is None or isinstance(value, str):
        return value or ""
    line = next(
        (n for n, row in enumerate(text.splitlines(), 1) if re.match(rf"#\+\s*{key}\s*:", row)),
        1,
    )
    raise AnthologyError(f"#+ {key} must be text, not a YAML list or mapping", path, line)


def _grlc_parameters(text: str, path: Path) -> dict[str, dict[str, Spelling]]:
    """grlc's parameters of the query, by name: each variable of the query's own syntax
    (not in a comment or string) named as grlc names one, with the term it takes. A
    ``prefix_datatype`` suffix whose prefix the query does not declare is an
    AnthologyError at its line (``xsd`` needs none: grlc declares it)."""
    from .sparql_text import declared_prefixes, variable_tokens

    prefixes: dict[str, str] | None = None  # read for a prefix_datatype suffix alone
    found: dict[str, dict[str, Spelling]] = {}
    for at, variable in variable_tokens(text):
        match = _GRLC_VARIABLE.match(variable)
        if match is None or _GRLC_AGGREGATE.match(variable):
            continue
        suffix, user = match.group("type"), match.group("userdefined")
        spelling = Spelling(variable)
        if suffix in ("iri", "number"):
            spelling = Spelling(variable, suffix)
        elif suffix in (None, "literal", "string"):
            pass
        elif suffix in XSD_SUFFIXES:
            spelling = Spelling(variable, datatype=_XSD + suffix)
        elif len(suffix) == 2 and suffix.isalpha():
            spelling = Spelling(variable, lang=suffix)
        elif user is not None:
            if prefixes is None:
                prefixes = {"xsd": _XSD, **declared_prefixes(text)}
            if suffix not in prefixes:
                raise AnthologyError(
                    f"?{variable} is typed {suffix}:{user}, but the query declares no "
                    f"PREFIX {suffix}:",
                    path,
                    text.count("\n", 0, at) + 1,
                )
            spelling = Spelling(variable, datatype=prefixes[suffix] + user)
        found.setdefault(match.group("name"), {}).setdefault(variable, spelling)
    return found


def _grlc_decorators(text: str, path: Path) -> dict[str, Any]:
    """The ``#+`` lines read as grlc reads them: the marker stripped, the rest YAML.
    A header that is not YAML gives nothing here when the line reader reads all it
    says (summary, description, param and param-type lines); one that also says what
    only YAML carries (``enumerate``, ``defaults``, ``tags``, a nested value) is an
    AnthologyError at its line: read as nothing, its ``enumerate`` would no longer
    limit the values a parameter takes."""
    # Any: a YAML value is a string, a list or a mapping, and read_query takes each as
    # grlc does (iterating a list) without checking its shape first.
    import yaml

    lines = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.startswith("#+")]
    source = "\n".join(line[2:] for _, line in lines)
    # The base loader: every scalar a string as written (YAML 1.1's implicit types read
    # `no` as False and `010` as 8, which the query then received as "False" and "8").
    # libyaml's where PyYAML has it (its wheels do): the same documents read ~6x faster
    # than by the pure-Python one (the bundled catalog: 3.3 -> 0.55 ms).
    loader = getattr(yaml, "CBaseLoader", yaml.BaseLoader)
    try:
        if "&" in source or "*" in source:
            _refuse_aliases(yaml.parse(source, Loader=loader), lines, path)
        found = yaml.load(source, Loader=loader)  # (both loaders build no objects)
    except yaml.YAMLError as exc:
        yaml_only = [
            number
            for number, line in lines
            if not (match := _HEADER.match(line)) or match.group(1).lower() not in _LINE_KEYS
        ]
        if not yaml_only:
            return {}
        mark = getattr(exc, "problem_mark", None)
        at = lines[mark.line][0] if mark is not None and mark.line < len(lines) else yaml_only[0]
        problem = getattr(exc, "problem", None) or "not YAML"
        raise AnthologyError(
            f"the #+ header is not YAML ({problem}), so its enumerate, defaults and tags "
            "cannot be read: quote a value holding ': ' or '#'",
            path,
            at,
        ) from None
    return found if isinstance(found, dict) else {}


def _refuse_aliases(events: Iterable[Any], lines: list[tuple[int, str]], path: Path) -> None:
    """An AnthologyError at its line for the first YAML anchor or alias among ``events``
    (the header's, parsed: nothing expanded yet). Each alias is the whole node it names,
    so nine aliases of nine aliases of ... make a few hundred bytes of header a value of
    billions of strings once read (a "billion laughs"); a grlc header never needs one."""
    import yaml

    for event in events:
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None) is not None:
            at = event.start_mark.line
            raise AnthologyError(
                "the #+ header uses a YAML anchor or alias (&name, *name), which a query "
                "header does not take: write the value out",
                path,
                lines[at][0] if at < len(lines) else lines[-1][0],
            )


def _refuse_unused_params(
    text: str, path: Path, param_lines: dict[str, int], grlc: dict[str, Param]
) -> None:
    """An AnthologyError at its line for a ``#+ param`` name that is neither a grlc
    parameter of the query nor one of its variables (a typo): its value would be bound
    to a variable the query does not use, and restrict nothing."""
    from .sparql_text import variable_tokens

    unknown = [name for name in param_lines if name not in grlc]
    if not unknown:
        return
    variables = sorted({variable for _, variable in variable_tokens(text)})
    for name in unknown:
        if name in variables:
            continue
        shown = ", ".join(f"?{v}" for v in variables) or "none"
        raise AnthologyError(
            f"#+ param names {clipped(name)}, which is no variable of the query "
            f"(?{name}, or grlc's ?_{name}…){did_you_mean(name, [*grlc, *variables])} "
            f"(variables: {shown})",
            path,
            param_lines[name],
        )


def _refuse_unknown_names(
    text: str,
    path: Path,
    declared: dict[str, Param],
    type_lines: dict[str, int],
    decorators: dict[str, Any],
) -> None:
    """An AnthologyError at its line for a ``param-type``, ``defaults`` or ``enumerate``
    name that is no parameter of the query (a typo): ignored, its restriction was gone."""
    named = [("param-type", name, line) for name, line in type_lines.items()]
    for key in ("defaults", "enumerate"):
        value = decorators.get(key)
        for item in value if isinstance(value, list) else [value]:
            names = (
                list(item) if isinstance(item, dict) else [item] if isinstance(item, str) else []
            )
            named += [(key, name, _key_line(text, key, name)) for name in names if name]
    for key, name, line in named:
        if name not in declared:
            known = ", ".join(declared) or "none"
            raise AnthologyError(
                f"#+ {key} names {clipped(name)}, which is no parameter of the query"
                f"{did_you_mean(name, declared)} (parameters: {known})",
                path,
                line,
            )


def _key_line(text: str, section: str, name: str) -> int:
    """The line of the ``#+`` header where ``section`` (``defaults``, ``enumerate``)
    names ``name``: the first line after the section's own that starts with it (the
    section's line when none does)."""
    lines = text.splitlines()
    start = next((n for n, line in enumerate(lines) if re.match(rf"#\+\s*{section}\s*:", line)), 0)
    item = re.compile(rf"#\+\s*(?:-\s*)?['\"]?{re.escape(name)}['\"]?\s*:")
    for number in range(start, len(lines)):
        if not lines[number].startswith("#"):
            break
        if number > start and item.match(lines[number]):
            return number + 1
    return start + 1


def _as_list(value: object) -> list[Any]:
    """A YAML value as a list: a list as it is, a scalar as one item, nothing as none."""
    if isinstance(value, list):
        return value
    return [] if value is None or value == "" else [value]


def _scalar(value: object) -> str:
    """A YAML value as the text written (the base loader leaves every scalar a string);
    a nested list or mapping as YAML's flow form."""
    if value is None or isinstance(value, str):
        return value or ""
    import yaml

    return str(yaml.safe_dump(value, default_flow_style=True)).strip()


def _named_values(value: object) -> dict[str, Any]:
    """grlc's ``defaults``/``enumerate``: a list of one-key mappings (``- entry: X``)
    or a mapping; bare names (enumerate from the endpoint) carry no values."""
    found: dict[str, Any] = {}  # (YAML values, as in _grlc_decorators)
    for item in value if isinstance(value, list) else [value] if value else []:
        if isinstance(item, dict):
            found.update(item)
    return found


def _query_files(anthology: QueryFolders) -> dict[str, Path]:
    """The stored queries' files by name, sorted, none of them read; a query of the
    anthology's own replaces a bundled one."""
    files: dict[str, Path] = {}
    for folder in anthology.query_dirs:
        for path in sorted(p for p in folder.glob("*.rq") if listed_name(p.name, ".rq")):
            files[path.stem] = path
    return dict(sorted(files.items()))


def _unread_query_files(anthology: QueryFolders) -> list[Path]:
    """The files of the query folders named ``*.RQ`` (``.rq`` in another case): almost
    surely stored queries, which are not read."""
    return [
        folder / name
        for folder in anthology.query_dirs
        if folder.is_dir()
        for name in list_folder(folder, ".rq")[1]
    ]


def query_file_warnings(anthology: QueryFolders) -> list[str]:
    """``_unread_query_files`` as ``FILE: warning: ...`` lines."""
    return [
        f"{display_path(path)}: warning: {not_read(path.name, '.rq', 'stored queries')}"
        for path in _unread_query_files(anthology)
    ]


def query_folders(root: Path | None = None) -> Rules:
    """The stored queries' folders of the anthology at ``root`` (default: the nearest one
    holding data/, else the bundled one), as ``catalog`` reads them: no data, ontology
    or shapes parsed, so a listing neither waits for the data nor fails on it."""
    from .resources import find_root
    from .ruleset import load_rules

    return load_rules((root or find_root()).resolve())


def catalog(anthology: QueryFolders, parsed: bool = False) -> dict[str, StoredQuery]:
    """The stored queries by name; a query of the anthology's own replaces a bundled one.
    A malformed one is an AnthologyError at its file. With ``parsed``, each query's text
    is parsed too (``fast.refuse_unparsed``: pyoxigraph parses a query as it runs it, on
    an empty store here), and one that does not parse is an AnthologyError at its line,
    as ``query`` and ``site`` refuse it (the ``queries`` listing lists none such); one
    calling SERVICE is not parsed (running it would call the service)."""
    found = {name: read_query(path) for name, path in _query_files(anthology).items()}
    if parsed:
        from .fast import refuse_unparsed
        from .guards import uses_service

        for stored in found.values():
            if not uses_service(stored.text):
                refuse_unparsed(stored.text, stored.path)
    return found


def find_query(anthology: QueryFolders, name: str) -> StoredQuery:
    """The stored query ``name``, its file alone read (a malformed file of another query
    does not stop it), or an AnthologyError listing the known names."""
    files = _query_files(anthology)
    if name not in files:
        unread = [path for path in _unread_query_files(anthology) if path.stem == name]
        if unread:
            why = not_read(unread[0].name, ".rq", "stored queries")
            raise AnthologyError(f"no stored query {clipped(name)}: {why}", unread[0])
        raise AnthologyError(
            f"no stored query {clipped(name)}{did_you_mean(name, files)}; known: {', '.join(files)}"
        )
    return read_query(files[name])


def query_listing(query: StoredQuery) -> dict[str, Any]:
    """``queries --format json``'s object for ``query``: its header, and each
    parameter's type, meaning, whether it is required, its default and its choices."""
    return {
        "name": query.name,
        "summary": query.summary,
        "description": query.description,
        "tags": list(query.tags),
        "params": [
            {
                "name": p.name,
                "type": p.type,
                "meaning": p.meaning,
                "required": p.required,
                "default": p.default,
                "choices": list(p.choices),
            }
            for p in query.params
        ],
        "file": display_path(query.path),
    }


def bind_params(anthology: Engine, query: StoredQuery, values: dict[str, str]) -> dict[str, Node]:
    """Turn ``name=value`` strings into RDF terms of each parameter's type.

    An unknown parameter, a missing one, a value that is no ``str``, an entry the
    anthology lacks or a value invalid for its type is an AnthologyError that names the
    parameter.
    """
    declared = {p.name: p for p in query.params}
    for name, value in values.items():
        if name not in declared:
            known = ", ".join(declared) or "none"
            raise AnthologyError(
                f"query {query.name!r} has no parameter {clipped(name)} (known: {known})"
            )
        utf8_text(value, f"parameter {clipped(name)}")
    bound: dict[str, Node] = {}
    for param in query.params:
        raw = values.get(param.name, param.default)
        if raw is None:
            if not param.required:
                continue
            raise AnthologyError(f"query {query.name!r} needs --param {param.name}=VALUE")
        if param.choices and raw not in param.choices:
            raise AnthologyError(
                f"parameter {param.name!r}: {clipped(raw)} is not one of {', '.join(param.choices)}"
            )
        spellings = param.bound
        if param.type == "entry":
            try:
                entry = anthology.resolve_entry(raw)
            except AnthologyError as exc:
                raise AnthologyError(f"parameter {param.name!r}: {exc.message}") from None
            bound.update((spelling.variable, entry) for spelling in spellings)
            continue
        for spelling in spellings:
            bound[spelling.variable] = _term(param.name, spelling, raw)
    return bound


def _term(name: str, spelling: Spelling, raw: str) -> Node:
    """``raw`` as the term ``spelling`` takes; a value that is not one is an
    AnthologyError naming the parameter."""
    from rdflib import Literal, URIRef  # (not for a listing: rdflib takes 0.3 s to import)

    from .terms import is_iri

    if spelling.kind == "iri":
        if "://" not in raw and not raw.startswith("urn:") or not is_iri(raw):
            raise AnthologyError(
                f"parameter {clipped(name)}: {clipped(raw)} is not an absolute IRI"
            )
        return URIRef(raw)
    if spelling.kind == "number":
        number = _NUMBER.fullmatch(raw)
        if number is None:
            raise AnthologyError(f"parameter {clipped(name)}: {clipped(raw)} is not a number")
        kind = "integer" if number["integer"] else "decimal" if number["decimal"] else "double"
        return Literal(raw, datatype=URIRef(_XSD + kind), normalize=False)
    if spelling.lang is not None:
        return Literal(raw, lang=spelling.lang)
    if spelling.datatype is None:
        return Literal(raw)
    from .terms import quiet_ill_typed

    with quiet_ill_typed():
        literal = Literal(raw, datatype=URIRef(spelling.datatype), normalize=False)
    if literal.ill_typed or not _well_formed(spelling.datatype, raw):
        shown = spelling.datatype.replace(_XSD, "xsd:")
        raise AnthologyError(f"parameter {clipped(name)}: {clipped(raw)} is not a valid {shown}")
    return literal


def parse_param_options(options: tuple[str, ...]) -> dict[str, str]:
    """``("entry=LIT-168",)`` to ``{"entry": "LIT-168"}``; a value may contain ``=``."""
    values: dict[str, str] = {}
    for option in options:
        name, sep, value = option.partition("=")
        if not sep or not name:
            raise AnthologyError(f"--param {clipped(option)}: expected NAME=VALUE")
        if name in values:
            raise AnthologyError(f"--param {clipped(name)} given twice")
        values[name] = utf8_text(value, f"--param {name}")
    return values
