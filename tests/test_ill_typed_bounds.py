"""A range bound that is no value of its datatype ("abc"^^xsd:decimal) is data that rule
6's SPARQL reads: the reference engine reports as the fast one and writes no rdflib
traceback on stderr (hunt14 finding 9)."""

import pytest
from conftest import run_cli

FIGURE = """@prefix ak: <https://w3id.org/anthology-kg/ns#> .
@prefix dcterms: <http://purl.org/dc/terms/> .
@prefix id: <https://w3id.org/anthology-kg/id/> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
id:LIT-711 a ak:LiteratureRecord ; dcterms:identifier "LIT-711" ; ak:category ak:method ;
    ak:makesClaim id:LIT-711-q .
id:LIT-711-q a ak:QuantitativeClaim ;
    ak:figure [ a ak:Figure ; ak:minValue "abc"^^xsd:{datatype} ] .
"""


@pytest.mark.parametrize("datatype", ["decimal", "integer", "double"])
def test_an_ill_typed_bound_is_reported_without_a_traceback(tmp_path, datatype, caplog):
    """rdflib logs the traceback (pytest's log capture holds what the command wrote on
    stderr)."""
    (tmp_path / "data").mkdir()
    text = FIGURE.replace("{datatype}", datatype)
    (tmp_path / "data" / "LIT-711.ttl").write_text(text, encoding="utf-8")
    outputs = set()
    for engine in ("fast", "reference"):
        result = run_cli("--root", str(tmp_path), "check", "--select", "AK006", "--engine", engine)
        assert result.exit_code == 1, result.output
        assert "Traceback" not in result.stderr
        assert not [r for r in caplog.records if r.name == "rdflib.term"], engine
        outputs.add(result.stdout)
    (text,) = outputs
    assert text.count("AK006 Violation") == 2  # no algorithm, no baseline
