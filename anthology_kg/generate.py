"""A reproducible synthetic anthology with the real structure, for scale runs and tests.

``generate(n, seed, out, violations=k)`` writes ``out/data/ID.ttl`` for about ``n``
entries: decision records admitting the three categories, references and literature
records of every category, state-of-the-art records, codebases, comparisons with arms,
claims resting on codebases, notes on read entries, sweeps and tallies. It conforms to
every rule, except for ``k`` planted violations spread over the rules, which are listed
in ``out/expected-violations.json`` as ``{"focus": ..., "shape": ...}``.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from .errors import AnthologyError

HEADER = (
    "@prefix ak: <https://w3id.org/anthology-kg/ns#> .\n"
    "@prefix dcterms: <http://purl.org/dc/terms/> .\n"
    "@prefix id: <https://w3id.org/anthology-kg/id/> .\n"
    "@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .\n"
    "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
    "@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n\n"
)
CATEGORIES = ("method", "evaluation", "infrastructure")
ALGORITHMS = ("GRPO", "PPO", "ES")
#: Planted violations, in the order they are spread: (kind, shape the result names).
PLANTS = (
    ("no-category", "aks:Rule1OneCategory"),
    ("practice-on-infrastructure", "aks:Rule2NoPracticeOnInfrastructure"),
    ("verdict-on-infrastructure", "aks:Rule3NoVerdictOnInfrastructure"),
    ("read-without-note", "aks:Rule5ReadNeedsNote"),
    ("range-without-baseline", "aks:Rule6RangeNamesBaseline"),
    ("claim-resting-on-nothing", "aks:Rule7ReproducibilityRestsOnRecord"),
    ("bad-identifier", "aks:Rule8SotaIdentifier"),
    ("dangling-reference", "aks:Rule9NoDanglingReference"),
    ("one-armed-comparison", "aks:Rule10ComparisonHasTwoArms"),
)


def _q(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


class _Writer:
    def __init__(self, out: Path, seed: int):
        self.data = out / "data"
        self.random = random.Random(seed)
        self.files = 0

    def write(self, identifier: str, body: str) -> None:
        (self.data / f"{identifier}.ttl").write_text(HEADER + body, encoding="utf-8")
        self.files += 1


def generate(entries: int, seed: int, out: Path, violations: int = 0) -> dict:
    """Write a synthetic anthology of about ``entries`` entries; return a summary."""
    if entries < 20:
        raise AnthologyError("--entries must be at least 20")
    if violations > entries // 10:
        raise AnthologyError("--violations may be at most a tenth of --entries")
    data = out / "data"
    if data.exists() and any(data.iterdir()):
        raise AnthologyError("the folder already holds data/; choose an empty one", out)
    data.mkdir(parents=True, exist_ok=True)
    w = _Writer(out, seed)
    rnd = w.random
    plants = [PLANTS[i % len(PLANTS)][0] for i in range(violations)]
    rnd.shuffle(plants)
    expected: list[dict] = []

    w.write(
        "ADR-001",
        (
            'id:ADR-001 a ak:DecisionRecord ;\n    dcterms:identifier "ADR-001" ;\n'
            "    ak:status ak:superseded .\n\n"
        ),
    )
    w.write(
        "ADR-002",
        (
            'id:ADR-002 a ak:DecisionRecord ;\n    dcterms:identifier "ADR-002" ;\n'
            "    ak:status ak:accepted ;\n    dcterms:replaces id:ADR-001 ;\n"
            "    ak:admitsCategory ak:method, ak:evaluation, ak:infrastructure .\n\n"
            "ak:trainedWith a ak:ConfounderProperty ;\n    ak:declaredBy id:ADR-002 .\n"
        ),
    )
    budget = entries - 2
    # Units of work: a state-of-the-art record, then references with their digests.
    sotas: list[str] = []
    codebases: list[str] = []
    unit = 0
    lit_numbers = iter(range(1, 1000))
    note_numbers = iter(range(1, 1000))
    sota_numbers = iter(range(1, 1000))
    while budget > 0:
        unit += 1
        if unit % 10 == 1 and budget >= 1:
            number = next(sota_numbers, None)
            if number is not None:
                sid = f"SOTA-{number:03d}"
                identifier = sid
                if plants and plants[-1] == "bad-identifier":
                    plants.pop()
                    identifier = f"SOTA-{number:04d}"
                    expected.append({"focus": identifier, "shape": "aks:Rule8SotaIdentifier"})
                w.write(
                    sid,
                    (
                        f"id:{sid} a ak:SotaRecord ;\n    dcterms:identifier {_q(identifier)} ;\n"
                        f"    rdfs:label {_q(f'published checkpoints {number}')} .\n"
                    ),
                )
                sotas.append(sid)
                budget -= 1
                continue
        category = CATEGORIES[unit % 3]
        ref = f"ARXIV-{2000 + unit // 100000:04d}.{unit % 100000:05d}"
        lines = [
            f"id:{ref} a ak:Reference ;",
            f"    dcterms:identifier {_q(ref)} ;",
            f"    dcterms:title {_q(f'Synthetic work {unit}')} ;",
            f"    ak:authors {_q(f'Author{unit} et al.')} ;",
            f'    dcterms:issued "{2015 + unit % 10}"^^xsd:gYear ;',
            "    ak:readingStatus ak:unread ;",
        ]
        hostable = {"range-without-baseline", "dangling-reference"}
        if category == "infrastructure":
            hostable |= {"practice-on-infrastructure", "verdict-on-infrastructure"}
        plant = plants.pop() if plants and plants[-1] in hostable else None
        if plant == "practice-on-infrastructure":
            lines.append('    ak:carriesPractice [ a ak:Practice ; rdfs:label "Use it" ] ;')
            expected.append({"focus": ref, "shape": "aks:Rule2NoPracticeOnInfrastructure"})
        elif plant == "verdict-on-infrastructure":
            lines.append(
                "    ak:recommends [ a ak:Recommendation ; ak:preferred ak:GRPO ;"
                " ak:over ak:PPO ] ;"
            )
            expected.append({"focus": ref, "shape": "aks:Rule3NoVerdictOnInfrastructure"})
        elif plant == "dangling-reference":
            lines.append("    dcterms:references id:ARXIV-9999.99999 ;")
            expected.append({"focus": ref, "shape": "aks:Rule9NoDanglingReference"})
        claim = f"{ref}-throughput"
        addresses = [ref]
        lines.append(f"    ak:category ak:{category} ;")
        lines.append(
            f"    ak:takeaway [ a ak:Takeaway ; ak:position 1 ; rdf:value "
            f"{_q(f'Takeaway of work {unit}')} ] ;"
        )
        lines.append(f"    ak:makesClaim id:{claim} .")
        figure = [
            f"ak:minValue {1 + rnd.randint(0, 50) / 10:.1f}",
            f"ak:maxValue {10 + rnd.randint(0, 200) / 10:.1f}",
            'ak:unit "×"',
            f"ak:algorithm ak:{rnd.choice(ALGORITHMS)}",
        ]
        if plant == "range-without-baseline":
            expected.append({"focus": ref, "shape": "aks:Rule6RangeNamesBaseline"})
        else:
            figure.append('ak:baseline "the baselines of the day"')
        body = "\n".join(lines) + "\n\n"
        body += (
            f"id:{claim} a ak:QuantitativeClaim ;\n    ak:figure [ a ak:Figure ; "
            + " ; ".join(figure)
            + " ] .\n"
        )
        w.write(ref, body)
        budget -= 1
        if category == "infrastructure" and budget > 0:
            cb = f"CODEBASE-gen{unit}"
            w.write(
                cb,
                (
                    f"id:{cb} a ak:Codebase ;\n    dcterms:identifier {_q(cb)} ;\n"
                    f"    rdfs:label {_q(f'framework {unit}')} ;\n"
                    f"    ak:describedIn id:{ref} .\n"
                ),
            )
            codebases.append(cb)
            budget -= 1
        if budget > 0 and unit % 2 == 0:
            number = next(lit_numbers, None)
            if number is not None:
                lit = f"LIT-{number:03d}"
                read = rnd.random() < 0.4
                lit_plant = None
                if plants and plants[-1] in (
                    "no-category",
                    "read-without-note",
                    "claim-resting-on-nothing",
                ):
                    lit_plant = plants.pop()
                body = [
                    f"id:{lit} a ak:LiteratureRecord ;",
                    f"    dcterms:identifier {_q(lit)} ;",
                    f"    ak:about id:{ref} ;",
                ]
                if lit_plant == "no-category":
                    expected.append({"focus": lit, "shape": "aks:Rule1OneCategory"})
                else:
                    body.append(f"    ak:category ak:{category} ;")
                if lit_plant == "read-without-note":
                    read = True
                    expected.append({"focus": lit, "shape": "aks:Rule5ReadNeedsNote"})
                note = None
                if read and lit_plant != "read-without-note":
                    note = next(note_numbers, None)
                    read = note is not None
                body.append(f"    ak:readingStatus ak:{'read' if read else 'unread'} ;")
                repro = f"{lit}-reproducible"
                body.append(f"    ak:makesClaim id:{repro} .")
                text = "\n".join(body) + "\n\n" + f"id:{repro} a ak:ReproducibilityClaim"
                if lit_plant == "claim-resting-on-nothing" or not codebases:
                    if lit_plant == "claim-resting-on-nothing":
                        expected.append(
                            {"focus": lit, "shape": "aks:Rule7ReproducibilityRestsOnRecord"}
                        )
                        text += " .\n"
                    else:
                        text += f" ;\n    ak:restsOn id:{ref} .\n"
                else:
                    text += f" ;\n    ak:restsOn id:{rnd.choice(codebases)} .\n"
                w.write(lit, text)
                addresses.append(lit)
                budget -= 1
                if note is not None and budget > 0:
                    nid = f"NOTE-{note:03d}"
                    w.write(
                        nid,
                        f"id:{nid} a ak:Note ;\n    dcterms:identifier {_q(nid)} ;\n"
                        f"    ak:noteOn id:{lit} .\n",
                    )
                    budget -= 1
        if budget > 0 and unit % 5 == 0 and sotas:
            cmp_id = f"COMPARISON-gen{unit}"
            arms = 1 if plants and plants[-1] == "one-armed-comparison" else rnd.randint(2, 3)
            if arms == 1:
                plants.pop()
                expected.append({"focus": cmp_id, "shape": "aks:Rule10ComparisonHasTwoArms"})
            names = [f"{cmp_id}-arm{i}" for i in range(arms)]
            text = (
                f"id:{cmp_id} a ak:Comparison ;\n    dcterms:identifier {_q(cmp_id)} ;\n"
                f"    ak:reportedIn id:{ref} ;\n    ak:arm "
                + ", ".join(f"id:{n}" for n in names)
                + " .\n"
            )
            for name in names:
                text += (
                    f"\nid:{name} a ak:Arm ;\n    ak:algorithm ak:{rnd.choice(ALGORITHMS)} ;\n"
                    f"    ak:checkpointsFrom id:{rnd.choice(sotas)}"
                )
                if codebases and rnd.random() < 0.5:
                    text += f" ;\n    ak:trainedWith id:{rnd.choice(codebases)}"
                text += " .\n"
            w.write(cmp_id, text)
            budget -= 1
        if category == "infrastructure":  # always: an infrastructure entry must be held
            qid = f"QUESTION-gen{unit}"
            w.write(
                qid,
                (
                    f"id:{qid} a ak:OpenQuestion ;\n    dcterms:identifier {_q(qid)} ;\n"
                    f"    rdfs:label {_q(f'Open question {unit}')} ;\n"
                    "    ak:addressedIn " + ", ".join(f"id:{a}" for a in addresses) + " .\n"
                ),
            )
            budget -= 1
        if budget > 0 and unit % 50 == 0:
            sid = f"SWEEP-gen{unit}"
            read_count = rnd.randint(5, 40)
            w.write(
                sid,
                (
                    f"id:{sid} a ak:Sweep ;\n    dcterms:identifier {_q(sid)} ;\n"
                    f"    ak:documentsRead {read_count} .\n\n"
                    f"id:{sid}-tally a ak:CitationTally ;\n    ak:inSweep id:{sid} ;\n"
                    f"    ak:tallied id:{ref} ;\n"
                    f"    ak:citingDocuments {rnd.randint(1, read_count)} .\n"
                ),
            )
            budget -= 1
    if plants:
        raise AnthologyError(f"could not plant {len(plants)} violation(s): add entries")
    expected.sort(key=lambda e: (e["focus"], e["shape"]))
    (out / "expected-violations.json").write_text(
        json.dumps(expected, indent=2) + "\n", encoding="utf-8"
    )
    return {"files": w.files, "violations": len(expected)}
