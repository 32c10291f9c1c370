"""The stored queries under grlc's conventions: grlc reads the ``#+`` decorators as YAML
(the ``#+`` marker stripped) and exposes a parameter for each ``?_name`` variable
(``?__name`` optional, ``_iri`` and other type suffixes). This test applies those rules,
as grlc documents them, to every stored query and checks grlc would expose what the
tool exposes."""

import re

import pytest
import yaml
from conftest import run_cli

from anthology_kg.loader import load_anthology
from anthology_kg.queries import catalog

QUERIES = catalog(load_anthology())


def grlc_view(text: str) -> tuple[dict, dict]:
    """(decorators, parameters) as grlc reads a query file."""
    decorators = yaml.safe_load(
        "\n".join(row.lstrip("#+") for row in text.split("\n") if row.startswith("#+"))
    )
    return decorators, grlc_parameters(text)


@pytest.mark.parametrize("name", sorted(QUERIES))
def test_grlc_reads_the_header_and_exposes_every_parameter(name):
    query = QUERIES[name]
    decorators, parameters = grlc_view(query.text)
    assert isinstance(decorators, dict)
    assert decorators["summary"] == query.summary
    assert decorators.get("description", "") == query.description
    assert list(decorators.get("tags") or []) == list(query.tags)
    assert set(parameters) == {p.name for p in query.params}
    for param in query.params:
        assert parameters[param.name]["required"] == param.required
        if param.type in ("entry", "iri"):
            assert parameters[param.name]["format"] == "iri"


def test_depends_on_exposes_its_entry_to_grlc():
    decorators, parameters = grlc_view(QUERIES["depends-on"].text)
    assert parameters == {"entry": {"required": True, "format": "iri", "lang": None}}
    assert decorators["tags"] == ["dependencies"]
    (param,) = QUERIES["depends-on"].params
    assert (param.name, param.type, param.variable) == ("entry", "entry", "_entry_iri")


GRLC_QUERY = """#+ summary: Entries filed under a category
#+ tags:
#+   - categories
#+ defaults:
#+   - category: https://w3id.org/anthology-kg/ns#infrastructure
#+ enumerate:
#+   - category:
#+     - https://w3id.org/anthology-kg/ns#infrastructure
#+     - https://w3id.org/anthology-kg/ns#method
PREFIX ak: <https://w3id.org/anthology-kg/ns#>
SELECT ?entry WHERE { ?entry ak:category ?_category_iri . OPTIONAL { ?entry ak:title ?__title } }
ORDER BY ?entry
"""


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_a_query_written_for_grlc_runs_with_its_defaults_and_enumeration(bundled_copy, engine):
    (bundled_copy / "queries").mkdir()
    (bundled_copy / "queries" / "in-category.rq").write_text(GRLC_QUERY, encoding="utf-8")
    base = ("--root", str(bundled_copy), "query", "in-category", "--engine", engine)
    default = run_cli(*base, "--format", "csv")
    assert default.exit_code == 0, default.stderr
    assert default.stdout.splitlines()[1:] == ["https://w3id.org/anthology-kg/id/ARXIV-2409.19256"]
    method = run_cli(*base, "--format", "csv", "--param", f"category={AK}method")
    assert method.exit_code == 0 and method.stdout.splitlines() == ["entry"]  # none filed so
    refused = run_cli(*base, "--param", f"category={AK}evaluation")
    assert refused.exit_code == 2 and "is not one of" in refused.stderr
    listed = run_cli("--root", str(bundled_copy), "queries")
    assert "in-category\tEntries filed under a category\tcategory=<iri>" in listed.stdout


AK = "https://w3id.org/anthology-kg/ns#"


def test_a_header_that_is_not_yaml_is_refused_where_yaml_alone_says_something(bundled_copy):
    """A summary holding ': ' makes the header invalid YAML. Read as nothing, its
    enumerate no longer limited the values (any IRI was taken, exit 0); where the line
    reader reads everything the header says, the query is kept (hunt5 #5)."""
    (bundled_copy / "queries").mkdir()
    stored = bundled_copy / "queries" / "in-category.rq"
    stored.write_text(
        GRLC_QUERY.replace("under a category", "under a category: any"), encoding="utf-8"
    )
    for args in (("queries",), ("query", "in-category", "--param", "category=http://x/y")):
        result = run_cli("--root", str(bundled_copy), *args)
        assert result.exit_code == 2, result.output
        assert result.stdout == ""
        assert result.stderr.startswith(f"{stored}:1: the #+ header is not YAML (")
    plain = "#+ summary: By status: read or not\nSELECT ?s WHERE { ?s ?p ?o } LIMIT 1\n"
    stored.write_text(plain, encoding="utf-8")
    listed = run_cli("--root", str(bundled_copy), "queries")
    assert listed.exit_code == 0 and "in-category\tBy status: read or not" in listed.stdout


def grlc_parameters(text: str) -> dict[str, dict]:
    """grlc's parameters of a query (its gquery.get_parameters): the variables of the
    parsed query (rdflib's algebra), each name up to its next underscore, typed by the
    suffix after it. (grlc reads the algebra's ``_vars``, in which rdflib 7 leaves out a
    variable used in an expression alone; every variable of the algebra is taken here,
    as the tool takes every variable of the query's code.)"""
    from rdflib import Variable
    from rdflib.plugins.sparql import prepareQuery
    from rdflib.plugins.sparql.algebra import traverse

    variables: set[Variable] = set()

    def visit(node):
        if isinstance(node, Variable):
            variables.add(node)

    traverse(prepareQuery(text).algebra, visit)

    matcher = re.compile(
        r"(?P<required>[_]{1,2})(?P<name>[^_]+)_?(?P<type>[a-zA-Z0-9]+)?_?(?P<userdefined>[a-zA-Z0-9]+)?.*$"
    )
    found = {}
    for variable in sorted(variables):
        match = matcher.match(str(variable))
        if match and not re.match(r"__agg_\d+__", str(variable)):
            kind = match.group("type")
            found[match.group("name")] = {
                "required": match.group("required") == "_",
                "format": "iri" if kind == "iri" else None,
                "lang": kind if kind and len(kind) == 2 and kind.isalpha() else None,
            }
    return found


TYPED = (
    "#+ summary: grlc's typed variables\n"
    "PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>\n"
    "SELECT ?x ?label ?first ?a ?b ?d WHERE {\n"
    "  VALUES ?x { 1 2 3 5 } FILTER(?x >= ?_min_integer)\n"
    "  BIND(?_name_en AS ?label) BIND(?_first_name AS ?first)\n"
    "  BIND(?_x AS ?a) BIND(STR(?_x_iri) AS ?b) BIND(?__day_xsd_date AS ?d)\n"
    '  FILTER(!CONTAINS(STR(?label), "?_draft"))  # was: FILTER(?t = ?_title)\n'
    "} ORDER BY ?x\n"
)


def test_grlc_s_typed_variables_are_parameters_as_grlc_reads_them(bundled_copy):
    (bundled_copy / "queries").mkdir()
    (bundled_copy / "queries" / "typed.rq").write_text(TYPED, encoding="utf-8")
    (query,) = [q for q in catalog(load_anthology(bundled_copy)).values() if q.name == "typed"]
    params = {p.name: p for p in query.params}
    grlc = grlc_parameters(TYPED)
    assert set(params) == set(grlc) == {"min", "name", "first", "x", "day"}  # not draft, title
    for name, seen in grlc.items():
        assert params[name].required == seen["required"], name
    assert [s.lang for s in params["name"].spellings] == ["en"]
    assert {s.variable for s in params["x"].spellings} == {"_x", "_x_iri"}


def test_grlc_s_typed_variables_bind_typed_terms_on_both_engines(bundled_copy):
    (bundled_copy / "queries").mkdir()
    (bundled_copy / "queries" / "typed.rq").write_text(TYPED, encoding="utf-8")
    values = ("min=2", "name=Ada", "first=Lovelace", "x=http://e.org/1", "day=2024-02-29")
    answers = []
    for engine in ("fast", "reference"):
        args = [a for value in values for a in ("--param", value)]
        result = run_cli(
            "--root", str(bundled_copy), "query", "typed", *args, "--engine", engine,
            "--format", "tsv",
        )  # fmt: skip
        assert result.exit_code == 0, result.output
        answers.append(result.stdout)
    assert answers[0] == answers[1]
    rows = answers[0].splitlines()[1:]
    # an integer compared as one (a string matched nothing); a tagged literal; both
    # spellings of x bound; an optional xsd:date
    assert [row.split("\t")[0] for row in rows] == ["2", "3", "5"]
    assert rows[0].split("\t")[1:] == [
        '"Ada"@en', '"Lovelace"', '"http://e.org/1"', '"http://e.org/1"',
        '"2024-02-29"^^<http://www.w3.org/2001/XMLSchema#date>',
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("value", "why"),
    [("min=two", "'two' is not a valid xsd:integer"), ("day=29/02", "is not a valid xsd:date")],
)
def test_a_value_its_type_refuses_is_exit_2(bundled_copy, value, why):
    (bundled_copy / "queries").mkdir()
    (bundled_copy / "queries" / "typed.rq").write_text(TYPED, encoding="utf-8")
    values = {"min": "2", "name": "a", "first": "b", "x": "http://e.org/1"}
    values.update([value.split("=")])
    args = [a for name, v in values.items() for a in ("--param", f"{name}={v}")]
    result = run_cli("--root", str(bundled_copy), "query", "typed", *args)
    assert result.exit_code == 2 and why in result.stderr, result.output
    assert "Traceback" not in result.output


def test_header_values_reach_the_query_as_written(bundled_copy):
    """YAML 1.1 read `no` as False, `010` as 8 and an empty value as None, which the
    query then received as "False", "8" and "None" (hunt8 #4)."""
    (bundled_copy / "queries").mkdir()
    (bundled_copy / "queries" / "as-written.rq").write_text(
        "#+ summary: yes\n"
        "#+ tags: [on, 010]\n"
        "#+ defaults:\n"
        "#+   - a: no\n#+   - b: 010\n#+   - c: 1_000\n#+   - d: 12:30\n#+   - e: yes\n"
        "#+   - f:\n"
        "#+ enumerate:\n#+   - a:\n#+     - no\n#+     - off\n"
        "SELECT ?_a ?_b ?_c ?_d ?_e ?__f WHERE { }\n",
        encoding="utf-8",
    )
    (query,) = [q for q in catalog(load_anthology(bundled_copy)).values() if q.name == "as-written"]
    assert (query.summary, query.tags) == ("yes", ("on", "010"))
    assert [p.default for p in query.params] == ["no", "010", "1_000", "12:30", "yes", None]
    assert query.params[0].choices == ("no", "off")
    result = run_cli("--root", str(bundled_copy), "query", "as-written", "--format", "tsv")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[1] == '"no"\t"010"\t"1_000"\t"12:30"\t"yes"\t'
    chosen = run_cli("--root", str(bundled_copy), "query", "as-written", "--param", "a=off")
    assert chosen.exit_code == 0, chosen.output


@pytest.mark.parametrize(
    ("header", "line", "key", "name"),
    [
        ("#+ enumerate:\n#+   - stauts:\n#+     - urn:a\n", 3, "enumerate", "stauts"),
        ("#+ defaults:\n#+   - entry: urn:a\n#+   - stat: urn:a\n", 4, "defaults", "stat"),
        ("#+ param-type: stat entry\n", 2, "param-type", "stat"),
    ],
)
def test_a_header_naming_no_parameter_is_refused_at_its_line(bundled_copy, header, line, key, name):
    """A typo in enumerate, defaults or param-type was ignored, and so was the
    restriction it meant: any value was taken, exit 0 (hunt8 #5)."""
    (bundled_copy / "queries").mkdir()
    stored = bundled_copy / "queries" / "typo.rq"
    stored.write_text(
        f"#+ summary: a typo\n{header}"
        f"PREFIX ak: <{AK}>\nSELECT ?e WHERE {{ ?e ak:readingStatus ?_status_iri . "
        "OPTIONAL { ?e ak:x ?__entry } }\n",
        encoding="utf-8",
    )
    for args in (("queries",), ("query", "typo", "--param", "status=http://evil.example/x")):
        result = run_cli("--root", str(bundled_copy), *args)
        assert result.exit_code == 2, result.output
        assert result.stderr.startswith(
            f"{stored}:{line}: #+ {key} names {name!r}, which is no parameter of the query; "
            "did you mean 'status'?"
        ), result.stderr
