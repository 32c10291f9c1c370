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

# grlc's parameter variables, from its documentation of get_parameters: a '?', one
# (required) or two (optional) underscores, the name, then an optional type.
GRLC_VARIABLE = re.compile(
    r"\?(?P<required>_{1,2})(?P<name>[a-zA-Z0-9]+)(_(?P<type>iri|number|literal|integer))?"
)
QUERIES = catalog(load_anthology())


def grlc_view(text: str) -> tuple[dict, dict]:
    """(decorators, parameters) as grlc reads a query file."""
    decorators = yaml.safe_load(
        "\n".join(row.lstrip("#+") for row in text.split("\n") if row.startswith("#+"))
    )
    body = "\n".join(row for row in text.split("\n") if not row.startswith("#+"))
    parameters = {}
    for match in GRLC_VARIABLE.finditer(body):
        parameters[match.group("name")] = {
            "required": len(match.group("required")) == 1,
            "format": "iri" if match.group("type") == "iri" else None,
        }
    return decorators, parameters


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
    assert parameters == {"entry": {"required": True, "format": "iri"}}
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
