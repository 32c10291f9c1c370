"""The graph says what the seed record says, sentence by sentence, and nothing else.

Each fact pairs the record's own words (``quote``, found in
shared/records/ARXIV-2409.19256.txt) with a SPARQL pattern over the bundled anthology:
``triples`` (a basic graph pattern, variables for blank nodes) and ``filters`` (what
must be absent). One ASK per fact. The triples of every fact, with those of the public
facts in ``ALLOWED`` (each with its reason), must cover every triple of ``data/``: a
triple no sentence of the record states, and no allowed public fact, is an invention.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from conftest import FIXTURES, REPO
from rdflib import URIRef

from anthology_kg.loader import load_anthology

SEED = REPO.parent / "shared" / "records" / "ARXIV-2409.19256.txt"
SEED_COPY = FIXTURES / "records" / "seed" / "ARXIV-2409.19256.txt"

PREFIXES = """
PREFIX ak: <https://w3id.org/anthology-kg/ns#>
PREFIX cito: <http://purl.org/spar/cito/>
PREFIX id: <https://w3id.org/anthology-kg/id/>
PREFIX dcterms: <http://purl.org/dc/terms/>
PREFIX prov: <http://www.w3.org/ns/prov#>
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
T2_CLAIM = T2.split(". ")[0]
T3_CLAIM = T3.split(" — ")[0]
PAIR_GAP = (
    "a range wide enough that the number to quote is the algorithm-and-baseline pair, "
    "not the maximum"
)
UNNAMED_CODEBASE = (
    "the record’s claim that DAPO is reproducible rests on a codebase the record could not "
    "name until now"
)
FILING_REASON = (
    "nothing here recommends HybridFlow over an alternative, and nothing in the record "
    "compares it to one"
)


@dataclass(frozen=True)
class Fact:
    """A statement of the record: its words, and how the graph says it."""

    quote: str
    triples: str = ""
    filters: str = ""


E = "id:ARXIV-2409.19256"


def pair_gap(quote: str, stated_as: str, unknown: str, other: str) -> Fact:
    """The stated unknown of one side (``unknown``: algorithm or baseline) of the pairs
    behind the throughput range, in the record's words for it; the figure gives no
    value for it, and the gap is about that side alone (not ``other``)."""
    return Fact(
        quote,
        f"""{E} ak:makesClaim ?c . ?c ak:figure ?f . ?f ak:notStated ?gap .
        ?gap a ak:StatedUnknown ; ak:statedAs "{stated_as}" ;
            rdfs:label "the algorithm-and-baseline pair" ;
            rdfs:comment "{PAIR_GAP}" ;
            ak:unknownProperty ak:{unknown} ; ak:lookedIn {E} .""",
        f"""FILTER NOT EXISTS {{ ?f ak:{unknown} ?any }}
        FILTER NOT EXISTS {{ ?gap ak:unknownProperty ak:{other} }}""",
    )


FACTS: dict[str, Fact] = {
    # The heading.
    "a reference with its identifier": Fact(
        "— ARXIV-2409.19256", f'{E} a ak:Reference ; dcterms:identifier "ARXIV-2409.19256" .'
    ),
    "authors": Fact("Sheng et al.", f'{E} ak:authors "Sheng et al." .'),
    "year": Fact("(2024)", f'{E} dcterms:issued "2024"^^xsd:gYear .'),
    # Key takeaways.
    "takeaway 1 verbatim": Fact(
        T1, f'{E} ak:takeaway ?t . ?t a ak:Takeaway ; ak:position 1 ; rdf:value "{T1}" .'
    ),
    "takeaway 2 verbatim": Fact(
        T2, f'{E} ak:takeaway ?t . ?t a ak:Takeaway ; ak:position 2 ; rdf:value "{T2}" .'
    ),
    "takeaway 3 verbatim": Fact(
        T3, f'{E} ak:takeaway ?t . ?t a ak:Takeaway ; ak:position 3 ; rdf:value "{T3}" .'
    ),
    "three takeaways, no more": Fact(
        "Key takeaways",
        filters=f"""{{ SELECT (COUNT(?t) AS ?n) WHERE {{ {E} ak:takeaway ?t }} }}
            FILTER(?n = 3)""",
    ),
    "takeaway 2 is the authors' claim": Fact(
        "by the authors’ account",
        f"""{E} ak:makesClaim id:ARXIV-2409.19256-resharding .
        id:ARXIV-2409.19256-resharding a ak:Claim ; rdfs:label "{T2_CLAIM}" ;
            prov:wasAttributedTo ?authors .
        ?authors a prov:Agent ; rdfs:label "Sheng et al." .""",
    ),
    "a throughput range of 1.53× to 20.57×": Fact(
        T3_CLAIM,
        f"""{E} ak:makesClaim ?c . ?c a ak:QuantitativeClaim ; rdfs:label "{T3_CLAIM}" ;
            ak:figure ?f .
        ?f a ak:Figure ; ak:minValue 1.53 ; ak:maxValue 20.57 ; ak:unit "×" ;
            ak:measures "throughput" .""",
    ),
    "the pairs behind the range: several algorithms, none given": pair_gap(
        "across several RLHF algorithms", "several", "algorithm", "baseline"
    ),
    "the pairs behind the range: the baselines of the day, none given": pair_gap(
        "over the systems baselines of the day",
        "the systems baselines of the day",
        "baseline",
        "algorithm",
    ),
    # Standing in the anthology.
    "the standing prose verbatim": Fact(
        "Carries no practice, deliberately — ADR-032.", f"{E} ak:standing ?standing ."
    ),
    "carries no practice": Fact(
        "Carries no practice", filters=f"FILTER NOT EXISTS {{ {E} ak:carriesPractice ?p }}"
    ),
    "deliberately, by ADR-032": Fact(
        "deliberately — ADR-032", f"{E} ak:practiceWithheldBy id:ADR-032 ."
    ),
    "ADR-032 is a decision record": Fact(
        "that decision", 'id:ADR-032 a ak:DecisionRecord ; dcterms:identifier "ADR-032" .'
    ),
    "an infrastructure entry": Fact(
        "This is the infrastructure entry", f"{E} ak:category ak:infrastructure ."
    ),
    "ADR-032 used it as its example": Fact(
        "that decision used as its example", f"id:ADR-032 ak:usesAsExample {E} ."
    ),
    "of the third admissible category, for a reason": Fact(
        "its example of the third admissible category",
        f"""id:ADR-032 ak:admits ?admission ; ak:admitsCategory ak:infrastructure .
        ?admission a ak:CategoryAdmission ; ak:admittedCategory ak:infrastructure ;
            ak:position 3 ; ak:example {E} ;
            ak:reason "a framework is a confounder a comparison cannot see" .""",
    ),
    "one of the four references at the top of the backlog": Fact(
        "it names ARXIV-2409.19256 in its consequences as one of the four references at the "
        "top of the backlog",
        f"id:ADR-032 ak:namesInBacklogTop {E} ; ak:backlogTopSize 4 .",
        """{ SELECT (COUNT(?e) AS ?n) WHERE { id:ADR-032 ak:namesInBacklogTop ?e } }
        FILTER(?n = 1)""",
    ),
    "the twelve documents the sweep read": Fact(
        "twelve documents the sweep read",
        """id:SWEEP-backlog a ak:Sweep ; ak:documentsRead 12 .""",
        "FILTER NOT EXISTS { id:SWEEP-backlog ak:readDocument ?any }",
    ),
    "the sweep is the backlog's": Fact(
        "top of the backlog, cited by three of the twelve documents the sweep read",
        "id:ADR-032 ak:backlogSweep id:SWEEP-backlog .",
    ),
    "cited by three of them": Fact(
        "cited by three of the twelve documents",
        f"""id:SWEEP-backlog-ARXIV-2409.19256 a ak:CitationTally ; ak:citingDocuments 3 ;
            ak:inSweep id:SWEEP-backlog ; ak:tallied {E} .""",
    ),
    "load-bearing in exactly one place": Fact(
        "load-bearing in exactly one place", f"{E} ak:loadBearingPlaces 1 ."
    ),
    "LIT-168 is DAPO": Fact(
        "LIT-168 (DAPO)",
        'id:LIT-168 a ak:LiteratureRecord ; dcterms:identifier "LIT-168" ; rdfs:label "DAPO" .',
    ),
    "its training code was released on verl": Fact(
        "its training code was released on verl",
        """id:LIT-168 ak:releasedOn id:CODEBASE-verl .
        id:CODEBASE-verl a ak:Codebase ; rdfs:label "verl" .""",
    ),
    "its four techniques": Fact("its four techniques", "id:LIT-168 ak:techniqueCount 4 ."),
    "the claim that DAPO is reproducible rests on verl": Fact(
        "the record’s claim that DAPO is reproducible rests on a codebase",
        """id:LIT-168 ak:makesClaim id:LIT-168-reproducible .
        id:LIT-168-reproducible a ak:ReproducibilityClaim ; rdfs:label "DAPO is reproducible" ;
            ak:restsOn id:CODEBASE-verl .""",
    ),
    "verl is the codebase this entry describes": Fact(
        "a codebase the record could not name until now",
        f"id:CODEBASE-verl ak:describedIn {E} .",
    ),
    "that single citation: LIT-168 obtains support from it": Fact(
        "beyond that single citation",
        f"""id:LIT-168-cites-ARXIV-2409.19256 a cito:Citation ;
            rdfs:comment "{UNNAMED_CODEBASE}" ;
            cito:hasCitingEntity id:LIT-168 ; cito:hasCitedEntity {E} ;
            cito:hasCitationCharacterization cito:obtainsSupportFrom .""",
    ),
    "a framework is a confounder, by ADR-032": Fact(
        "the one ADR-032 gives for the category: a framework is a confounder a comparison "
        "cannot see",
        "ak:trainedWith a ak:ConfounderProperty ; ak:declaredBy id:ADR-032 .",
    ),
    "the GRPO and PPO arms the evolution-strategies line is measured against": Fact(
        "the GRPO and PPO arms the evolution-strategies line is measured against",
        """?cmp a ak:Comparison ; ak:arm ?g, ?p, ?es .
        ?g a ak:Arm ; ak:algorithm ak:GRPO . ?p a ak:Arm ; ak:algorithm ak:PPO .
        ?es a ak:Arm ; ak:algorithm ak:ES .""",
    ),
    "the published checkpoints in SOTA-154": Fact(
        "the published checkpoints in SOTA-154",
        """id:SOTA-154 a ak:SotaRecord ; dcterms:identifier "SOTA-154" .
        ?g ak:algorithm ak:GRPO ; ak:checkpointsFrom id:SOTA-154 .
        ?p ak:algorithm ak:PPO ; ak:checkpointsFrom id:SOTA-154 .""",
    ),
    "whether they were run on verl is not stated by the documents that cite them": Fact(
        "were run on verl is not stated by the documents that cite them",
        """?arm ak:checkpointsFrom id:SOTA-154 ; ak:notStated ?gap .
        ?gap a ak:StatedUnknown ; ak:unknownProperty ak:trainedWith ;
            ak:notStatedBy "the documents that cite them" .""",
        "FILTER NOT EXISTS { ?any ak:trainedWith ?framework }",
    ),
    "the question now has its address here": Fact(
        "this note is where that question now has an address",
        f"""?q a ak:OpenQuestion ; ak:concerns ?g, ?p ; ak:concernsProperty ak:trainedWith ;
            ak:addressedIn {E} .
        ?g ak:algorithm ak:GRPO . ?p ak:algorithm ak:PPO .""",
    ),
    "filed as infrastructure rather than as a method": Fact(
        "Filed as infrastructure rather than as a method",
        f"{E} ak:category ak:infrastructure ; ak:ratherThan ak:method .",
    ),
    "why: nothing here recommends it, nothing compares it": Fact(
        FILING_REASON, f'{E} ak:filingReason "{FILING_REASON}" .'
    ),
    "nothing here recommends HybridFlow over an alternative": Fact(
        "nothing here recommends HybridFlow over an alternative",
        filters=f"FILTER NOT EXISTS {{ {E} ak:recommends ?r }}",
    ),
    "nothing in the record compares it to one": Fact(
        "nothing in the record compares it to one",
        filters=f"FILTER NOT EXISTS {{ ?c ak:reportedIn {E} }}",
    ),
    "the prose mentions ADR-032, LIT-168 and SOTA-154": Fact(
        "SOTA-154",
        f"{E} dcterms:references id:ADR-032, id:LIT-168, id:SOTA-154 .",
        f"""FILTER NOT EXISTS {{ {E} dcterms:references {E} }}
        {{ SELECT (COUNT(?m) AS ?n) WHERE {{ {E} dcterms:references ?m }} }} FILTER(?n = 3)""",
    ),
    "unread, no note": Fact(
        "Unread — no NOTE.",
        f"{E} ak:readingStatus ak:unread .",
        f"""FILTER NOT EXISTS {{ ?n ak:noteOn {E} }}
        FILTER NOT EXISTS {{ {E} ak:hasNote ?n }}""",
    ),
    # What the record leaves open is a gap, not a value.
    "its title is not stated: the record calls the work HybridFlow": Fact(
        "nothing here recommends HybridFlow over an alternative",
        f"""{E} ak:notStated ?gap .
        ?gap a ak:StatedUnknown ; ak:unknownProperty dcterms:title ; ak:lookedIn {E} ;
            ak:statedAs "HybridFlow" .""",
        f"FILTER NOT EXISTS {{ {E} dcterms:title ?any }}",
    ),
    "the work LIT-168 digests is not stated: the record calls it DAPO": Fact(
        "LIT-168 (DAPO)",
        f"""id:LIT-168 ak:notStated ?gap .
        ?gap a ak:StatedUnknown ; ak:unknownProperty ak:about ; ak:lookedIn {E} ;
            ak:statedAs "DAPO" .""",
        "FILTER NOT EXISTS { id:LIT-168 ak:about ?any }",
    ),
    "the record names no entry by an identifier of its own but these four": Fact(
        "SOTA-154",
        filters="""FILTER NOT EXISTS {
            ?entry dcterms:identifier ?id .
            FILTER (REGEX(?id, "^(LIT|ADR|SOTA|NOTE)-[0-9]{3}$|^ARXIV-")
                && ?id NOT IN ("ARXIV-2409.19256", "ADR-032", "LIT-168", "SOTA-154"))
        }""",
    ),
    "LIT-168's category is not stated": Fact(
        "LIT-168 (DAPO) records",
        f"""id:LIT-168 ak:notStated ?gap .
        ?gap a ak:StatedUnknown ; ak:unknownProperty ak:category ; ak:lookedIn {E} .""",
        "FILTER NOT EXISTS { id:LIT-168 ak:category ?any }",
    ),
    "ADR-032's status is not stated": Fact(
        "ADR-032",
        f"""id:ADR-032 ak:notStated ?gap .
        ?gap a ak:StatedUnknown ; ak:unknownProperty ak:status ; ak:lookedIn {E} .""",
        """FILTER NOT EXISTS { id:ADR-032 ak:status ?any }
        FILTER NOT EXISTS { ?gap ak:statedAs ?words }""",
    ),
    "the evolution-strategies arm's framework is not stated": Fact(
        "the evolution-strategies line is measured against",
        f"""?es a ak:Arm ; ak:algorithm ak:ES ; ak:notStated ?gap .
        ?gap a ak:StatedUnknown ; ak:unknownProperty ak:trainedWith ; ak:lookedIn {E} .""",
        """FILTER NOT EXISTS { ?es ak:trainedWith ?any }
        FILTER NOT EXISTS { ?gap ak:statedAs ?words }""",
    ),
    "the entry that reports the comparison is not named: the evolution-strategies line": Fact(
        "the GRPO and PPO arms the evolution-strategies line is measured against",
        f"""?cmp a ak:Comparison ; ak:notStated ?gap .
        ?gap a ak:StatedUnknown ; ak:unknownProperty ak:reportedIn ; ak:lookedIn {E} ;
            ak:statedAs "the evolution-strategies line" .""",
        "FILTER NOT EXISTS { ?cmp ak:reportedIn ?any }",
    ),
}

# Facts the record does not state, allowed in data/ for the reason given (written in the
# data file's comment too): what the record's printed form (RECORD_FORMAT.md) says of
# every entry, the anthology's own keys for what the record names without an identifier,
# and names for people made of the record's words. No fact from outside the record (a
# title, an arXiv identifier it never prints): what it does not state is a stated unknown.
# Kept here, in one place.
ALLOWED: dict[str, tuple[str, str]] = {
    "the other two admissible categories": (
        "the record says infrastructure is ADR-032's third admissible category, so there "
        "are two others, and RECORD_FORMAT.md, the record's printed form, names the category "
        "words: method, evaluation and infrastructure (the record itself files against "
        "'a method'). Their positions are not stated, so they have no ak:admits node",
        "id:ADR-032 ak:admitsCategory ak:method, ak:evaluation .",
    ),
    "keys the anthology gives to what the record names without one": (
        "an entry of the anthology has one identifier (rule 8); the record names verl, the "
        "comparison, the question and the sweep without one",
        """id:CODEBASE-verl dcterms:identifier "CODEBASE-verl" .
        id:COMPARISON-es-baselines a ak:Comparison ;
            dcterms:identifier "COMPARISON-es-baselines" .
        id:QUESTION-baselines-on-verl dcterms:identifier "QUESTION-baselines-on-verl" .
        id:SWEEP-backlog dcterms:identifier "SWEEP-backlog" .""",
    ),
    "names for people": (
        "labels made of the record's words, for the nodes the record describes without a name",
        """?node rdfs:label ?label .
        VALUES ?node { id:COMPARISON-es-baselines id:COMPARISON-es-baselines-es
            id:COMPARISON-es-baselines-grpo id:COMPARISON-es-baselines-ppo
            id:QUESTION-baselines-on-verl id:SOTA-154 id:SWEEP-backlog }""",
    ),
}


def record_text() -> str:
    path = SEED if SEED.exists() else SEED_COPY
    return path.read_bytes().decode("utf-8")


def words(text: str) -> str:
    """The text with its line breaks and runs of spaces made single spaces."""
    return re.sub(r"\s+", " ", text)


@pytest.fixture(scope="module")
def graph():
    return load_anthology().union()


@pytest.fixture(scope="module")
def data():
    return load_anthology().data


@pytest.mark.parametrize("name", sorted(FACTS))
def test_the_quote_is_the_record_s_own_words(name):
    assert words(FACTS[name].quote) in words(record_text()), name


@pytest.mark.parametrize("name", sorted(FACTS))
def test_fact(graph, name):
    fact = FACTS[name]
    assert graph.query(PREFIXES + "ASK { " + fact.triples + fact.filters + " }").askAnswer, name


def test_the_audit_s_statements_are_all_queryable():
    """The audit counted 42 atomic statements in the record; each has its ASK here or
    is one of the verbatim takeaways and prose that a single fact carries."""
    assert len(FACTS) >= 40


def test_no_triple_of_data_lacks_a_source(data):
    """Every triple of data/ is stated by a sentence of the record or an allowed fact."""
    covered = set()
    patterns = [f.triples for f in FACTS.values() if f.triples]
    patterns += [pattern for _, pattern in ALLOWED.values()]
    for pattern in patterns:
        template = pattern.split("VALUES")[0]
        result = data.query(PREFIXES + f"CONSTRUCT {{ {template} }} WHERE {{ {pattern} }}")
        assert len(result) > 0, pattern
        covered |= set(result)
    unsourced = sorted(
        (data.namespace_manager.normalizeUri(p), str(s), str(o)) for s, p, o in set(data) - covered
    )
    assert unsourced == []


def test_no_invented_values(data):
    """The placeholders issue 16 removed stay out: no RLHF stand-in, no accepted status;
    nor the public facts the record never states: a full title, the DAPO paper's arXiv
    identifier or title."""
    text = "\n".join(f"{s} {p} {o}" for s, p, o in data)
    assert "ns#RLHF" not in text and "ns#accepted" not in text
    assert "2503.14476" not in text and "Flexible and Efficient" not in text
    assert "Open-Source LLM" not in text
    # The record's words for the baselines it does not name: what a stated unknown says
    # of the gap (ak:statedAs), never a value standing in for them.
    stated_as = URIRef("https://w3id.org/anthology-kg/ns#statedAs")
    values = {str(o) for _, p, o in data if p != stated_as}
    assert "the systems baselines of the day" not in values
