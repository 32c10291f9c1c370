"""Every fact of the seed record (shared/records/ARXIV-2409.19256.txt) is in the graph.

One SPARQL ASK per fact, on the bundled anthology with the ontology.
"""

import pytest

from anthology_kg.loader import load_anthology

PREFIXES = """
PREFIX ak: <https://w3id.org/anthology-kg/ns#>
PREFIX cito: <http://purl.org/spar/cito/>
PREFIX id: <https://w3id.org/anthology-kg/id/>
PREFIX dcterms: <http://purl.org/dc/terms/>
PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#>
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>
"""

T1 = (
    "RLHF is a dataflow whose nodes are themselves distributed programs. A single-controller "
    "design pays dispatch overhead per intra-node computation; a multi-controller design avoids "
    "that but makes the algorithm inflexible because distributed computation and communication "
    "are nested together. HybridFlow’s claim is that the two paradigms belong at different "
    "levels — single-controller for orchestrating the dataflow, multi-controller inside a node"
)
T2 = (
    "The 3D-HybridEngine reshards the actor between its training and its generation phase "
    "with, by the authors’ account, zero memory redundancy and much reduced communication. "
    "That transition is the part of an RLHF loop that has no analogue in ordinary pretraining, "
    "and it is where the systems work is"
)
T3 = (
    "1.53×–20.57× throughput over the systems baselines of the day, across several RLHF "
    "algorithms — a range wide enough that the number to quote is the algorithm-and-baseline "
    "pair, not the maximum"
)

FACTS = {
    "reference with identifier": """
        id:ARXIV-2409.19256 a ak:Reference ; dcterms:identifier "ARXIV-2409.19256" .""",
    "authors": 'id:ARXIV-2409.19256 ak:authors "Sheng et al." .',
    "year": 'id:ARXIV-2409.19256 dcterms:issued "2024"^^xsd:gYear .',
    "title": """id:ARXIV-2409.19256
        dcterms:title "HybridFlow: A Flexible and Efficient RLHF Framework" .""",
    "takeaway 1 verbatim": f"""id:ARXIV-2409.19256
        ak:takeaway [ ak:position 1 ; rdf:value "{T1}" ] .""",
    "takeaway 2 verbatim": f"""id:ARXIV-2409.19256
        ak:takeaway [ ak:position 2 ; rdf:value "{T2}" ] .""",
    "takeaway 3 verbatim": f"""id:ARXIV-2409.19256
        ak:takeaway [ ak:position 3 ; rdf:value "{T3}" ] .""",
    "three takeaways, no more": """
        { SELECT (COUNT(?t) AS ?n) WHERE { id:ARXIV-2409.19256 ak:takeaway ?t } }
        FILTER(?n = 3)""",
    "category infrastructure": "id:ARXIV-2409.19256 ak:category ak:infrastructure .",
    "no practice": "FILTER NOT EXISTS { id:ARXIV-2409.19256 ak:carriesPractice ?p }",
    "practice withheld by ADR-032": "id:ARXIV-2409.19256 ak:practiceWithheldBy id:ADR-032 .",
    "unread": "id:ARXIV-2409.19256 ak:readingStatus ak:unread .",
    "no note": """FILTER NOT EXISTS { ?n ak:noteOn id:ARXIV-2409.19256 }
        FILTER NOT EXISTS { id:ARXIV-2409.19256 ak:hasNote ?n }""",
    "ADR-032 admits three categories": """
        id:ADR-032 a ak:DecisionRecord ;
            ak:admitsCategory ak:method, ak:evaluation, ak:infrastructure .
        { SELECT (COUNT(?c) AS ?n) WHERE { id:ADR-032 ak:admitsCategory ?c } } FILTER(?n = 3)""",
    "ADR-032 uses it as its example": "id:ADR-032 ak:usesAsExample id:ARXIV-2409.19256 .",
    "ADR-032 names it in the backlog top": "id:ADR-032 ak:namesInBacklogTop id:ARXIV-2409.19256 .",
    "backlog top stated 4, one known": """
        id:ADR-032 ak:backlogTopSize 4 .
        { SELECT (COUNT(?e) AS ?n) WHERE { id:ADR-032 ak:namesInBacklogTop ?e } } FILTER(?n = 1)""",
    "sweep read 12 documents": "?sweep a ak:Sweep ; ak:documentsRead 12 .",
    "3 of the sweep's documents cite it": """
        ?tally a ak:CitationTally ; ak:inSweep ?sweep ; ak:tallied id:ARXIV-2409.19256 ;
            ak:citingDocuments 3 . ?sweep ak:documentsRead 12 .""",
    "LIT-168 is DAPO, arXiv 2503.14476": """
        id:LIT-168 a ak:LiteratureRecord ; ak:about id:ARXIV-2503.14476 .
        id:ARXIV-2503.14476 a ak:Reference .""",
    "LIT-168 released its code on verl": """
        id:LIT-168 ak:releasedOn ?verl . ?verl a ak:Codebase ; rdfs:label "verl" .""",
    "LIT-168's four techniques": "id:LIT-168 ak:techniqueCount 4 .",
    "DAPO reproducibility claim rests on verl": """
        id:LIT-168 ak:makesClaim ?c . ?c a ak:ReproducibilityClaim ; ak:restsOn ?verl .
        ?verl rdfs:label "verl" .""",
    "verl described in ARXIV-2409.19256": """
        ?verl a ak:Codebase ; rdfs:label "verl" ; ak:describedIn id:ARXIV-2409.19256 .""",
    "throughput range 1.53-20.57": """
        id:ARXIV-2409.19256 ak:makesClaim ?c . ?c a ak:QuantitativeClaim ; ak:figure ?f .
        ?f ak:minValue 1.53 ; ak:maxValue 20.57 ; ak:unit "×" ; ak:measures "throughput" .""",
    "the algorithm-and-baseline pairs are several and not stated": """
        id:ARXIV-2409.19256 ak:makesClaim/ak:figure ?f .
        ?f ak:notStated ?gap . ?gap a ak:StatedUnknown ; ak:statedAs "several" ;
            ak:unknownProperty ak:algorithm, ak:baseline .
        FILTER NOT EXISTS { ?f ak:algorithm ?any }
        FILTER NOT EXISTS { ?f ak:baseline ?any }""",
    "LIT-168's category is not stated": """
        id:LIT-168 ak:notStated/ak:unknownProperty ak:category .
        FILTER NOT EXISTS { id:LIT-168 ak:category ?any }""",
    "ADR-032's status is not stated": "FILTER NOT EXISTS { id:ADR-032 ak:status ?any }",
    "no self-reference": """
        FILTER NOT EXISTS { id:ARXIV-2409.19256 dcterms:references id:ARXIV-2409.19256 }""",
    "GRPO and PPO arms with SOTA-154 checkpoints, no trainedWith": """
        ?cmp a ak:Comparison ; ak:arm ?g, ?p, ?es .
        ?g ak:algorithm ak:GRPO ; ak:checkpointsFrom id:SOTA-154 .
        ?p ak:algorithm ak:PPO ; ak:checkpointsFrom id:SOTA-154 .
        ?es ak:algorithm ak:ES .
        FILTER NOT EXISTS { ?cmp ak:arm/ak:trainedWith ?any }""",
    "trainedWith is a confounder property declared by ADR-032": """
        ak:trainedWith a ak:ConfounderProperty ; ak:declaredBy id:ADR-032 .""",
    "open question on the arms lives in ARXIV-2409.19256": """
        ?q a ak:OpenQuestion ; ak:concerns ?g, ?p ; ak:addressedIn id:ARXIV-2409.19256 .
        ?g ak:algorithm ak:GRPO . ?p ak:algorithm ak:PPO .""",
    "prose mentions as dcterms:references": """
        id:ARXIV-2409.19256 dcterms:references id:ADR-032, id:LIT-168, id:SOTA-154 .""",
    "load-bearing in exactly one place (stated figure)": """
        id:ARXIV-2409.19256 ak:loadBearingPlaces 1 .""",
    "LIT-168 obtains support from it (CiTO)": """
        ?c a cito:Citation ; cito:hasCitingEntity id:LIT-168 ;
            cito:hasCitedEntity id:ARXIV-2409.19256 ;
            cito:hasCitationCharacterization cito:obtainsSupportFrom .""",
    "no recommendation": "FILTER NOT EXISTS { id:ARXIV-2409.19256 ak:recommends ?r }",
}


@pytest.fixture(scope="module")
def graph():
    return load_anthology().union()


@pytest.mark.parametrize("name", sorted(FACTS))
def test_fact(graph, name):
    assert graph.query(PREFIXES + "ASK { " + FACTS[name] + " }").askAnswer, name
