"""A reproducible synthetic anthology with the real structure, for scale runs and tests.

``generate(n, seed, out, violations=k)`` writes ``out/data/ID.ttl`` for exactly ``n``
entries: decision records admitting the three categories, references and literature
records of every category, state-of-the-art records, codebases, comparisons with arms,
claims resting on codebases, notes on read entries, sweeps and tallies. It conforms to
every rule, except for ``k`` planted violations spread over the rules (any ``k`` up to
the entry count: when there are as many violations left to plant as entries left to write,
every entry carries one, a dangling reference where it can host no other), which are
listed in ``out/expected-violations.json`` as ``{"focus": ..., "shape": ...}``.

Every file is written by the canonical Turtle writer, so ``fmt --check`` passes on a
generated anthology; everything is written into a temporary folder inside ``out`` that is
moved into place only when the whole anthology is written.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import shutil
import tempfile
from collections.abc import Iterable
from pathlib import Path

from .choices import MAX_ENTRIES as MAX_ENTRIES
from .choices import MIN_ENTRIES
from .errors import AnthologyError
from .files import link_new, stop_signals_held
from .namespaces import DEFAULT_BASE
from .sources import parse_quads
from .turtle import turtle_of_quads

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


DANGLING = "dangling-reference"
#: The list of the planted violations, beside ``data/``.
EXPECTED = "expected-violations.json"


class _Plants:
    """The violations left to plant, in the order they are due (the last first), held as
    each kind's positions in that order: the one due, and the last one of some kinds, are
    found in a step per kind (nine), where a scan of the list made --violations N
    quadratic in N (the kinds few entries host gather at its end)."""

    def __init__(self, order: Iterable[str]) -> None:
        self._at: dict[str, list[int]] = {}
        self._left = 0
        for position, kind in enumerate(order):
            self._at.setdefault(kind, []).append(position)
            self._left += 1

    def __len__(self) -> int:
        return self._left

    def last(self, kinds: set[str] | None = None) -> str | None:
        """The kind of the last violation left (of ``kinds`` only, when given)."""
        found, at = None, -1
        for kind, positions in self._at.items():
            if positions and positions[-1] > at and (kinds is None or kind in kinds):
                found, at = kind, positions[-1]
        return found

    def pop(self, kind: str) -> str:
        """Take the last violation of ``kind`` left; return ``kind``."""
        self._at[kind].pop()
        self._left -= 1
        return kind


class _Writer:
    def __init__(self, out: Path, seed: int, plants: Iterable[str] = ()):
        self.data = out / "data"
        self.random = random.Random(seed)
        self.files = 0
        self.plants = _Plants(plants)

    def write(self, identifier: str, body: str) -> None:
        """Write ``data/IDENTIFIER.ttl`` in the canonical style (what ``fmt`` writes)."""
        path = self.data / f"{identifier}.ttl"
        quads = parse_quads(HEADER + body, path, DEFAULT_BASE)
        path.write_text(turtle_of_quads(quads), encoding="utf-8")
        self.files += 1

    def take(self, hostable: set[str], left: int) -> str | None:
        """The violation the next entry carries: the one due if the entry can host it;
        when no more entries than violations are ``left``, one it can host (the due
        one, another of those to plant, else a dangling reference), so every violation
        asked for is planted."""
        due = self.plants.last()
        if due is None:
            return None
        if due in hostable:
            return self.plants.pop(due)
        if len(self.plants) < left:
            return None
        other = self.plants.last(hostable)
        if other is not None:
            return self.plants.pop(other)
        self.plants.pop(due)
        return DANGLING


def generate(entries: int, seed: int, out: Path, violations: int = 0) -> dict:
    """Write a synthetic anthology of exactly ``entries`` entries (20 to ``MAX_ENTRIES``)
    into ``out``; return a summary. Nothing is left in ``out`` (nor a parent folder it
    made) unless the whole anthology was written, and nothing there is written over: a
    ``data`` that is not an empty folder, or is a link, and an existing
    ``expected-violations.json`` are refused before anything is written."""
    if entries < MIN_ENTRIES:
        raise AnthologyError(f"--entries must be at least {MIN_ENTRIES}")
    if entries > MAX_ENTRIES:
        raise AnthologyError(
            f"--entries {entries} is more than {MAX_ENTRIES:,}, the most it writes"
        )
    if violations > entries:
        raise AnthologyError(
            f"--violations {violations} is more than --entries {entries}: "
            "at most one planted violation per entry"
        )
    data = out / "data"
    expected_file = out / EXPECTED
    _refuse_what_is_there(out, data, expected_file)
    made = _missing_folders(out)
    work: Path | None = None
    linked: int | None = None  # the inode of the list once linked into ``out``
    done = False
    # One try from the first folder made on: a stop signal (Ctrl-C, SIGTERM) as soon as
    # ``out`` exists removes it (one between its mkdir and a second try left it behind).
    try:
        out.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(prefix=".generate-", dir=out))
        (work / "data").mkdir()
        summary, expected = _write_anthology(entries, seed, work, violations)
        listed = work / EXPECTED
        listed.write_text(json.dumps(expected, indent=2) + "\n", encoding="utf-8")
        # Both moved with the stop signals held, so the anthology is all there or not at
        # all: the list first, linked (never over a file made meanwhile); data/ last, the
        # one step that completes it (a rename, over the empty folder if there is one).
        with stop_signals_held():
            inode = listed.stat().st_ino
            try:
                link_new(listed, expected_file)
            except FileExistsError:
                raise AnthologyError(
                    "written meanwhile by another process; nothing written", expected_file
                ) from None
            linked = inode
            os.replace(work / "data", data)
            done = True
    except OSError as exc:
        raise AnthologyError(f"cannot write: {exc.strerror or exc}", out) from None
    finally:
        if not done:
            with stop_signals_held():
                if linked is not None:
                    _unlink_if(expected_file, linked)
        if work is not None:
            shutil.rmtree(work, ignore_errors=True)
        if not done:
            _remove_made(made)
    return summary


def _refuse_what_is_there(out: Path, data: Path, expected_file: Path) -> None:
    """An AnthologyError if ``out`` holds what generate would write over: a ``data``
    that is not an empty folder (a symbolic link to one included, which the rename of
    ``data/`` into place would replace) or an ``expected-violations.json``."""
    try:
        if data.is_symlink():
            raise AnthologyError(
                "the folder's data is a symbolic link, which the anthology would replace; "
                "choose an empty folder",
                out,
            )
        if os.path.lexists(data) and (not data.is_dir() or any(data.iterdir())):
            raise AnthologyError("the folder already holds data/; choose an empty one", out)
        if os.path.lexists(expected_file):
            raise AnthologyError(f"the folder already holds {EXPECTED}; choose an empty one", out)
    except OSError as exc:
        raise AnthologyError(f"cannot write: {exc.strerror or exc}", out) from None


def _missing_folders(out: Path) -> list[Path]:
    """``out`` and those of its ancestors that do not exist, ``out`` first: the folders
    ``mkdir(parents=True)`` makes."""
    missing = []
    absolute = Path(os.path.abspath(out))
    for folder in (absolute, *absolute.parents):
        if os.path.lexists(folder):
            break
        missing.append(folder)
    return missing


def _remove_made(made: list[Path]) -> None:
    """Remove the folders of ``made`` (``out`` first, then its parents) this run made:
    ``out`` with what is left in it, a parent only while it is empty."""
    if not made:
        return
    shutil.rmtree(made[0], ignore_errors=True)
    for folder in made[1:]:
        try:
            folder.rmdir()
        except OSError:  # not empty: someone else's now
            return


def _unlink_if(path: Path, inode: int) -> None:
    """Remove ``path`` if it is still the file ``inode`` (this run's, not one another
    process put there since)."""
    with contextlib.suppress(OSError):
        if path.lstat().st_ino == inode:
            path.unlink()


def _dangling(node: str) -> str:
    return f"\nid:{node} dcterms:references id:ARXIV-9999.99999 .\n"


def _write_anthology(
    entries: int, seed: int, out: Path, violations: int
) -> tuple[dict, list[dict]]:
    w = _Writer(out, seed)
    rnd = w.random
    plants = [PLANTS[i % len(PLANTS)][0] for i in range(violations)]
    rnd.shuffle(plants)
    w.plants = _Plants(plants)
    expected: list[dict] = []
    shapes = dict(PLANTS)

    def simple(identifier: str, text: str, left: int) -> None:
        """Write an entry that hosts no violation of its own kind: under pressure it
        carries a dangling reference."""
        if w.take(set(), left) is not None:
            text += _dangling(identifier)
            expected.append({"focus": identifier, "shape": shapes[DANGLING]})
        w.write(identifier, text)

    simple(
        "ADR-001",
        (
            'id:ADR-001 a ak:DecisionRecord ;\n    dcterms:identifier "ADR-001" ;\n'
            "    ak:status ak:superseded .\n"
        ),
        entries,
    )
    simple(
        "ADR-002",
        (
            'id:ADR-002 a ak:DecisionRecord ;\n    dcterms:identifier "ADR-002" ;\n'
            "    ak:status ak:accepted ;\n    dcterms:replaces id:ADR-001 ;\n"
            "    ak:admitsCategory ak:method, ak:evaluation, ak:infrastructure .\n\n"
            "ak:trainedWith a ak:ConfounderProperty ;\n    ak:declaredBy id:ADR-002 .\n"
        ),
        entries - 1,
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
                plant = w.take({"bad-identifier"}, budget)
                text = (
                    f"id:{sid} a ak:SotaRecord ;\n    dcterms:identifier {{identifier}} ;\n"
                    f"    rdfs:label {_q(f'published checkpoints {number}')} .\n"
                )
                if plant == "bad-identifier":
                    identifier = f"SOTA-{number:04d}"
                elif plant == DANGLING:
                    text += _dangling(sid)
                if plant is not None:
                    expected.append({"focus": identifier, "shape": shapes[plant]})
                # Named by its identifier, as every entry's file (the layout fmt and check
                # warn about): the planted violation is the identifier's form, nothing else.
                w.write(identifier, text.replace("{identifier}", _q(identifier)))
                sotas.append(sid)
                budget -= 1
                continue
        category = CATEGORIES[unit % 3]
        if category == "infrastructure" and budget < 2:
            # An infrastructure reference is held by an open question, written with it:
            # the last place goes to a reference of another category, so that the
            # anthology holds exactly ``entries`` entries.
            category = CATEGORIES[0]
        # The place an infrastructure unit keeps for its open question, written last.
        kept = 1 if category == "infrastructure" else 0
        ref = f"ARXIV-{2000 + unit // 100000:04d}.{unit % 100000:05d}"
        lines = [
            f"id:{ref} a ak:Reference ;",
            f"    dcterms:identifier {_q(ref)} ;",
            f"    dcterms:title {_q(f'Synthetic work {unit}')} ;",
            f"    ak:authors {_q(f'Author{unit} et al.')} ;",
            f'    dcterms:issued "{2015 + unit % 10}"^^xsd:gYear ;',
            "    ak:readingStatus ak:unread ;",
        ]
        hostable = {"range-without-baseline", DANGLING}
        if category == "infrastructure":
            hostable |= {"practice-on-infrastructure", "verdict-on-infrastructure"}
        plant = w.take(hostable, budget)
        if plant is not None:
            expected.append({"focus": ref, "shape": shapes[plant]})
        if plant == "practice-on-infrastructure":
            lines.append('    ak:carriesPractice [ a ak:Practice ; rdfs:label "Use it" ] ;')
        elif plant == "verdict-on-infrastructure":
            lines.append(
                "    ak:recommends [ a ak:Recommendation ; ak:preferred ak:GRPO ;"
                " ak:over ak:PPO ] ;"
            )
        elif plant == DANGLING:
            lines.append("    dcterms:references id:ARXIV-9999.99999 ;")
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
        if plant != "range-without-baseline":
            figure.append('ak:baseline "the baselines of the day"')
        text = "\n".join(lines) + "\n\n"
        text += (
            f"id:{claim} a ak:QuantitativeClaim ;\n    ak:figure [ a ak:Figure ; "
            + " ; ".join(figure)
            + " ] .\n"
        )
        w.write(ref, text)
        budget -= 1
        if category == "infrastructure" and budget > kept:
            cb = f"CODEBASE-gen{unit}"
            simple(
                cb,
                (
                    f"id:{cb} a ak:Codebase ;\n    dcterms:identifier {_q(cb)} ;\n"
                    f"    rdfs:label {_q(f'framework {unit}')} ;\n"
                    f"    ak:describedIn id:{ref} .\n"
                ),
                budget,
            )
            codebases.append(cb)
            budget -= 1
        if budget > kept and unit % 2 == 0:
            number = next(lit_numbers, None)
            if number is not None:
                lit = f"LIT-{number:03d}"
                read = rnd.random() < 0.4
                lit_plant = w.take(
                    {"no-category", "read-without-note", "claim-resting-on-nothing", DANGLING},
                    budget,
                )
                if lit_plant is not None:
                    expected.append({"focus": lit, "shape": shapes[lit_plant]})
                body = [
                    f"id:{lit} a ak:LiteratureRecord ;",
                    f"    dcterms:identifier {_q(lit)} ;",
                    f"    ak:about id:{ref} ;",
                ]
                if lit_plant != "no-category":
                    body.append(f"    ak:category ak:{category} ;")
                if lit_plant == "read-without-note":
                    read = True
                if lit_plant == DANGLING:
                    body.append("    dcterms:references id:ARXIV-9999.99999 ;")
                note = None
                if read and lit_plant != "read-without-note":
                    # Read only with room for its note (rule 5): the last entry is unread.
                    note = next(note_numbers, None) if budget >= 2 + kept else None
                    read = note is not None
                body.append(f"    ak:readingStatus ak:{'read' if read else 'unread'} ;")
                repro = f"{lit}-reproducible"
                body.append(f"    ak:makesClaim id:{repro} .")
                text = "\n".join(body) + "\n\n" + f"id:{repro} a ak:ReproducibilityClaim"
                if lit_plant == "claim-resting-on-nothing":
                    text += " .\n"
                elif not codebases:
                    text += f" ;\n    ak:restsOn id:{ref} .\n"
                else:
                    text += f" ;\n    ak:restsOn id:{rnd.choice(codebases)} .\n"
                w.write(lit, text)
                addresses.append(lit)
                budget -= 1
                if note is not None and budget > kept:
                    nid = f"NOTE-{note:03d}"
                    simple(
                        nid,
                        f"id:{nid} a ak:Note ;\n    dcterms:identifier {_q(nid)} ;\n"
                        f"    ak:noteOn id:{lit} .\n",
                        budget,
                    )
                    budget -= 1
        if budget > kept and unit % 5 == 0 and sotas:
            cmp_id = f"COMPARISON-gen{unit}"
            cmp_plant = w.take({"one-armed-comparison", DANGLING}, budget)
            arms = 1 if cmp_plant == "one-armed-comparison" else rnd.randint(2, 3)
            if cmp_plant is not None:
                expected.append({"focus": cmp_id, "shape": shapes[cmp_plant]})
            names = [f"{cmp_id}-arm{i}" for i in range(arms)]
            text = (
                f"id:{cmp_id} a ak:Comparison ;\n    dcterms:identifier {_q(cmp_id)} ;\n"
                f"    ak:reportedIn id:{ref} ;\n    ak:arm "
                + ", ".join(f"id:{n}" for n in names)
                + " .\n"
            )
            if cmp_plant == DANGLING:
                text += _dangling(cmp_id)
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
        if kept:  # always: an infrastructure entry must be held (its place was kept)
            qid = f"QUESTION-gen{unit}"
            simple(
                qid,
                (
                    f"id:{qid} a ak:OpenQuestion ;\n    dcterms:identifier {_q(qid)} ;\n"
                    f"    rdfs:label {_q(f'Open question {unit}')} ;\n"
                    "    ak:addressedIn " + ", ".join(f"id:{a}" for a in addresses) + " .\n"
                ),
                budget,
            )
            budget -= 1
        if budget > 0 and unit % 50 == 0:
            sid = f"SWEEP-gen{unit}"
            read_count = rnd.randint(5, 40)
            simple(
                sid,
                (
                    f"id:{sid} a ak:Sweep ;\n    dcterms:identifier {_q(sid)} ;\n"
                    f"    ak:documentsRead {read_count} .\n\n"
                    f"id:{sid}-tally a ak:CitationTally ;\n    ak:inSweep id:{sid} ;\n"
                    f"    ak:tallied id:{ref} ;\n"
                    f"    ak:citingDocuments {rnd.randint(1, read_count)} .\n"
                ),
                budget,
            )
            budget -= 1
    if w.plants:
        raise AnthologyError(f"could not plant {len(w.plants)} violation(s): add entries")
    expected.sort(key=lambda e: (e["focus"], e["shape"]))
    return {"files": w.files, "violations": len(expected)}, expected
