"""The printed record: import to RDF, render back byte for byte, and bad input."""

from pathlib import Path

import pytest
from conftest import FIXTURES, RECORDS, REPO, records_folder, run_cli
from hypothesis import given, settings
from hypothesis import strategies as st
from rdflib import RDF, BNode, Graph, Literal, URIRef

from anthology_kg.errors import AnthologyError
from anthology_kg.loader import load_anthology
from anthology_kg.namespaces import AK, DCTERMS, DEFAULT_BASE
from anthology_kg.records import (
    anthology_categories,
    known_categories,
    parse_record,
    read_records,
    render_record,
    unified_diff,
)
from anthology_kg.resources import ontology_file

SEED = REPO.parent / "shared" / "records" / "ARXIV-2409.19256.txt"
SEED_COPY = FIXTURES / "records" / "seed" / "ARXIV-2409.19256.txt"
BAD = FIXTURES / "records" / "bad"


def seed_text() -> str:
    path = SEED if SEED.exists() else SEED_COPY
    return path.read_bytes().decode("utf-8")


def test_the_seed_copy_in_the_repo_is_the_shared_record():
    if not SEED.exists():
        pytest.skip("../shared is not beside this checkout")
    assert SEED.read_bytes() == SEED_COPY.read_bytes()


def test_seed_record_round_trip():
    record = parse_record(seed_text())
    assert render_record(record.graph, record.iri) == seed_text()


def test_render_of_the_bundled_entry_is_the_seed_record_byte_for_byte():
    result = run_cli("render", "ARXIV-2409.19256")
    assert result.exit_code == 0
    assert result.stdout_bytes == seed_text().encode("utf-8")
    assert not result.stdout_bytes.endswith(b"\n")


def test_import_check_cli_on_the_seed():
    result = run_cli("import", "--check", str(SEED_COPY))
    assert result.exit_code == 0 and "byte-identical" in result.stdout


def _key(graph: Graph, node, depth=0):
    if isinstance(node, BNode) and depth < 5:
        return frozenset((p, _key(graph, o, depth + 1)) for p, o in graph.predicate_objects(node))
    return node


def described(graph: Graph, subject) -> set:
    return {(p, _key(graph, o)) for p, o in graph.predicate_objects(subject)}


def test_imported_seed_is_a_subset_of_the_bundled_entry():
    record = parse_record(seed_text())
    bundled = load_anthology().data
    imported = described(record.graph, record.iri)
    hand_written = described(bundled, record.iri)
    assert imported <= hand_written
    # What only the richer hand-written Turtle says: the title as a stated unknown (the
    # record names the work only "HybridFlow"), the structured claim and the stated
    # figure "load-bearing in exactly one place".
    extra = {p for p, _ in hand_written - imported}
    assert extra == {AK.notStated, AK.makesClaim, AK.loadBearingPlaces}
    assert (record.iri, DCTERMS.title, None) not in bundled


def test_import_gives_the_structure_of_the_seed():
    g = parse_record(seed_text()).graph
    e = URIRef(DEFAULT_BASE + "ARXIV-2409.19256")
    assert (e, RDF.type, AK.Reference) in g
    assert (e, AK.category, AK.infrastructure) in g
    assert (e, AK.practiceWithheldBy, URIRef(DEFAULT_BASE + "ADR-032")) in g
    assert (e, AK.readingStatus, AK.unread) in g
    mentions = {str(o).rsplit("/", 1)[1] for o in g.objects(e, DCTERMS.references)}
    # Its own identifier, in "it names ARXIV-2409.19256", is not a mention.
    assert mentions == {"ADR-032", "LIT-168", "SOTA-154"}
    positions = sorted(int(g.value(t, AK.position)) for t in g.objects(e, AK.takeaway))
    assert positions == [1, 2, 3]


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_own_records_round_trip(path):
    text = path.read_bytes().decode("utf-8")
    record = parse_record(text, path)
    assert render_record(record.graph, record.iri) == text
    result = run_cli("import", "--check", str(path))
    assert result.exit_code == 0


def test_practices_and_read_status_with_a_note():
    record = parse_record((FIXTURES / "records" / "LIT-201.txt").read_text("utf-8"))
    g, e = record.graph, record.iri
    labels = sorted(
        str(g.value(p, URIRef("http://www.w3.org/2000/01/rdf-schema#label")))
        for p in g.objects(e, AK.carriesPractice)
    )
    assert labels == [
        "Filter zero-variance groups before the update",
        "Report the clip ranges with every GRPO run",
    ]
    assert (e, AK.readingStatus, AK.read) in g
    assert (e, AK.hasNote, URIRef(DEFAULT_BASE + "NOTE-012")) in g
    assert (e, AK.category, AK.method) in g


def test_paragraphs_and_blank_lines_are_kept_verbatim():
    text = (FIXTURES / "records" / "ARXIV-2501.00002.txt").read_text("utf-8")
    record = parse_record(text)
    standing = str(record.graph.value(record.iri, AK.standing))
    assert "nothing.\n\nThe second paragraph" in standing
    assert "wrapped over\ntwo lines" in standing
    assert (record.iri, AK.category, AK.evaluation) in record.graph
    mentions = {
        str(o).rsplit("/", 1)[1] for o in record.graph.objects(record.iri, DCTERMS.references)
    }
    assert mentions == {"SOTA-154", "LIT-168", "NOTE-003"}


def test_classes_follow_the_identifier_form():
    for name, cls in [
        ("ADR-040", AK.DecisionRecord),
        ("SOTA-300", AK.SotaRecord),
        ("NOTE-009", AK.Note),
    ]:
        record = parse_record((FIXTURES / "records" / f"{name}.txt").read_text("utf-8"))
        assert (record.iri, RDF.type, cls) in record.graph
        assert record.graph.value(record.iri, DCTERMS.identifier) == Literal(name)


def test_import_writes_turtle_that_loads_and_passes_check(bundled_copy):
    out = bundled_copy / "data" / "ARXIV-2501.00002.ttl"
    record = FIXTURES / "records" / "ARXIV-2501.00002.txt"
    assert run_cli("import", str(record), "-o", str(out)).exit_code == 0
    anthology = load_anthology(bundled_copy)
    assert anthology.identifier(URIRef(DEFAULT_BASE + "ARXIV-2501.00002")) == "ARXIV-2501.00002"
    result = run_cli("--root", str(bundled_copy), "render", "ARXIV-2501.00002")
    assert result.stdout_bytes == record.read_bytes()
    # It mentions NOTE-003, which this anthology lacks: rule 9 says so.
    check = run_cli("--root", str(bundled_copy), "check")
    assert check.exit_code == 1 and "id:NOTE-003" in check.stdout


@pytest.mark.parametrize(
    ("name", "line", "message"),
    [
        ("no-heading.txt", 1, "expected the heading"),
        ("unknown-section.txt", 4, "unknown section 'Methods'"),
        ("wrong-identifier.txt", 1, "identifier 'LIT-1' has none of the forms"),
        ("wrong-note.txt", 6, "the status line names 'NOTE-7', not a note"),
        ("no-status.txt", 6, "expected the status line"),
    ],
)
def test_bad_records_are_file_line_errors_and_write_nothing(tmp_path, name, line, message):
    out = tmp_path / "out.ttl"
    result = run_cli("import", str(BAD / name), "-o", str(out))
    assert result.exit_code == 2
    assert f"{name}:{line}: {message}" in result.stderr
    assert not out.exists() and list(tmp_path.iterdir()) == []
    with pytest.raises(AnthologyError):
        parse_record((BAD / name).read_text("utf-8"), BAD / name)


def test_check_shows_a_diff_and_exits_1(tmp_path, monkeypatch):
    # Every record the parser accepts prints back as it was read; the file is compared as
    # it is when printed back, so one edited meanwhile (here: an empty Practices section
    # added after it was parsed) differs.
    from anthology_kg import records

    path = tmp_path / "seed.txt"
    path.write_bytes(seed_text().encode("utf-8"))
    text = seed_text().replace(
        "Standing in the anthology\n", "Practices\nStanding in the anthology\n"
    )
    parse = records.read_records

    def read_then_edit(*args, **kwargs):
        parsed = parse(*args, **kwargs)
        path.write_bytes(text.encode("utf-8"))
        return parsed

    monkeypatch.setattr(records, "read_records", read_then_edit)
    result = run_cli("import", "--check", str(path))
    assert result.exit_code == 1
    assert "+++ " in result.stdout and "-Practices" in result.stdout


@pytest.mark.parametrize("check", [(), ("--check",)])
def test_an_empty_practices_section_is_an_input_error_at_its_line(tmp_path, check):
    # It would not be printed back (no practice, no heading): --check failed the round
    # trip, exit 1, where the record itself is wrong.
    path = tmp_path / "seed.txt"
    text = seed_text().replace(
        "Standing in the anthology\n", "Practices\nStanding in the anthology\n"
    )
    path.write_bytes(text.encode("utf-8"))
    result = run_cli("import", *check, str(path))
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert f"{path}:6: the section 'Practices' has no items" in result.stderr


# ---- edge cases the format allows (RECORD_FORMAT.md) ---------------------------------------


def write(tmp_path, name: str, data: bytes):
    path = tmp_path / name
    path.write_bytes(data)
    return path


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("final-newline.txt", lambda s: s + b"\n"),
        ("crlf.txt", lambda s: s.replace(b"\n", b"\r\n")),
        ("crlf-final-newline.txt", lambda s: s.replace(b"\n", b"\r\n") + b"\r\n"),
        ("bom.txt", lambda s: b"\xef\xbb\xbf" + s),
    ],
)
def test_layouts_round_trip_byte_for_byte(tmp_path, name, data):
    path = write(tmp_path, name, data(seed_text().encode("utf-8")))
    result = run_cli("import", "--check", str(path))
    assert result.exit_code == 0, result.output
    assert "byte-identical" in result.stdout
    # The graph is the seed's, whatever the layout: no BOM in the authors, no CR in the prose.
    record = read_records([path])[0]
    assert record.graph.value(record.iri, AK.authors) == Literal("Sheng et al.")
    assert "\r" not in str(record.graph.value(record.iri, AK.standing))
    assert record.graph.value(record.iri, AK.category) == AK.infrastructure


def test_a_byte_order_mark_is_skipped_and_said(tmp_path):
    path = write(tmp_path, "bom.txt", b"\xef\xbb\xbf" + seed_text().encode("utf-8"))
    result = run_cli("import", str(path))
    assert result.exit_code == 0
    assert "skipped the UTF-8 byte order mark" in result.stderr
    assert 'ak:authors "Sheng et al."' in result.stdout and "\ufeff" not in result.stdout


def test_an_identifier_in_a_takeaway_or_practice_is_a_mention():
    text = seed_text().replace("not the maximum", "not the maximum (see LIT-200)")
    text = text.replace(
        "Standing in the anthology", "Practices\n- Read NOTE-004 first\nStanding in the anthology"
    ).replace("Carries no practice, deliberately — ADR-032.\n", "")  # it has one now
    record = parse_record(text)
    mentions = {
        str(o).rsplit("/", 1)[1] for o in record.graph.objects(record.iri, DCTERMS.references)
    }
    assert mentions == {"ADR-032", "LIT-168", "SOTA-154", "LIT-200", "NOTE-004"}


def test_an_empty_standing_section_round_trips(tmp_path):
    head = seed_text().split("Standing in the anthology\n")[0]
    path = write(
        tmp_path, "empty.txt", (head + "Standing in the anthology\nUnread — no NOTE.").encode()
    )
    result = run_cli("import", "--check", str(path))
    assert result.exit_code == 0, result.output
    record = read_records([path])[0]
    assert record.graph.value(record.iri, AK.standing) == Literal("")


@pytest.mark.parametrize(
    ("change", "line", "message"),
    [
        (
            lambda s: s.replace("Filed as infrastructure", "Filed as Evaluation"),
            23,
            "'Evaluation' after 'Filed as' is not a category: category words are lower case",
        ),
        (
            lambda s: s.replace("Filed as infrastructure", "Filed as survey"),
            23,
            "'survey' after 'Filed as' is not a category: known categories: evaluation, ",
        ),
        (
            lambda s: s.replace("rather than as a method", "rather than as a Method"),
            23,
            "'Method' after 'Filed as' is not a category",
        ),
        (
            lambda s: s.replace(" — ARXIV-2409.19256", " — ARXIV-2409.19256 "),
            1,
            "trailing whitespace after the heading's identifier",
        ),
        (
            lambda s: s.replace("Key takeaways", "Key takeaways "),
            2,
            "trailing whitespace after the section heading 'Key takeaways'",
        ),
        (
            lambda s: s.replace("Standing in the anthology", "Standing in the anthology\t"),
            6,
            "trailing whitespace after the section heading 'Standing in the anthology'",
        ),
        (lambda s: s + " ", 24, "trailing whitespace after the status line"),
        (
            lambda s: s.replace(
                "Standing in the anthology",
                "Practices\n- one\nPractices\nStanding in the anthology",
            ),
            8,
            "a second section 'Practices' (the first is on line 6)",
        ),
        (
            lambda s: s.replace("\n", "\r\n", 3),
            4,
            "mixed line endings: some lines end with CRLF, others with LF",
        ),
        (
            lambda s: s.replace("Key takeaways", "Key\rtakeaways"),
            2,
            "a carriage return (CR) inside a line: line endings are LF or CRLF",
        ),
        (
            lambda s: (
                s.split("Standing in the anthology\n")[0] + "Standing in the anthology\n\n"
                "Unread — no NOTE."
            ),
            7,
            "the section 'Standing in the anthology' holds only blank lines",
        ),
        (
            lambda s: s.replace(
                "Standing in the anthology", "Practices\n- one\nStanding in the anthology"
            ),
            9,
            "the entry carries practices (section 'Practices', line 6) and says here that it "
            "carries none",
        ),
    ],
)
def test_format_errors_name_the_line_and_write_nothing(tmp_path, change, line, message):
    path = write(tmp_path, "bad.txt", change(seed_text()).encode("utf-8"))
    out = tmp_path / "out.ttl"
    result = run_cli("import", str(path), "-o", str(out))
    assert result.exit_code == 2
    assert f"bad.txt:{line}: {message}" in result.stderr
    assert "expected the heading" not in result.stderr
    assert not out.exists()


def test_a_category_an_adr_of_the_anthology_admits_is_accepted(tmp_path):
    root = tmp_path / "anthology"
    (root / "data").mkdir(parents=True)
    (root / "data" / "ADR-001.ttl").write_text(
        "@prefix ak: <https://w3id.org/anthology-kg/ns#> .\n"
        "<https://w3id.org/anthology-kg/id/ADR-001> a ak:DecisionRecord ;\n"
        '    <http://purl.org/dc/terms/identifier> "ADR-001" ;\n'
        "    ak:admitsCategory ak:survey .\n",
        encoding="utf-8",
    )
    path = write(tmp_path, "r.txt", seed_text().replace("as infrastructure", "as survey").encode())
    result = run_cli("--root", str(root), "import", str(path))
    assert result.exit_code == 0, result.stderr
    assert "ak:category ak:survey" in result.stdout


def test_the_categories_read_alone_are_those_of_the_whole_anthology(tmp_path):
    """import reads the categories from the files that name them, not every entry."""
    root = tmp_path / "anthology"
    (root / "data").mkdir(parents=True)
    (root / "data" / "ADR-001.ttl").write_text(
        "<https://w3id.org/anthology-kg/id/ADR-001> "
        "<https://w3id.org/anthology-kg/ns#admittedCategory> "
        "<https://w3id.org/anthology-kg/ns#survey> .\n",
        encoding="utf-8",
    )
    (root / "data" / "X.ttl").write_text(
        "@prefix ak: <https://w3id.org/anthology-kg/ns#> .\nak:tutorial a ak:Category .\n",
        encoding="utf-8",
    )
    for tree in (REPO, root):
        anthology = load_anthology(tree)
        whole = known_categories(anthology.data + anthology.ontology)
        assert anthology_categories(tree) == whole
    assert {"survey", "tutorial"} <= anthology_categories(root)
    # A file without the word is not read: a broken one does not stop an import.
    (root / "data" / "broken.ttl").write_text("not Turtle", encoding="utf-8")
    path = write(tmp_path, "r.txt", seed_text().replace("as infrastructure", "as survey").encode())
    assert run_cli("--root", str(root), "import", "--check", str(path)).exit_code == 0
    # One that holds it is read, and its error is the loader's: file and line, exit 2.
    (root / "data" / "broken.ttl").write_text("ak:Category a", encoding="utf-8")
    result = run_cli("--root", str(root), "import", "--check", str(path))
    assert result.exit_code == 2 and "broken.ttl:1: Turtle syntax error" in result.stderr


def test_the_ontologys_categories_are_parsed_once_for_the_same_bytes(tmp_path, monkeypatch):
    """Each import and new reads the ontology's categories: its file is parsed once a
    process for the same bytes and base, and again when its bytes change."""
    from anthology_kg import records

    ontology = tmp_path / "ontology.ttl"
    ontology.write_bytes(ontology_file().read_bytes())
    parsed: list[Path] = []
    real = records.parse_turtle

    def counted(path, *args, **kwargs):
        parsed.append(Path(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(records, "ontology_file", lambda: ontology)
    monkeypatch.setattr(records, "parse_turtle", counted)
    root = tmp_path / "a"
    (root / "data").mkdir(parents=True)
    first = anthology_categories(root)
    assert anthology_categories(root) == first and parsed == [ontology]
    with ontology.open("a", encoding="utf-8") as file:
        file.write("\nak:sketch a ak:Category .\n")
    assert anthology_categories(root) == first | {"sketch"} and parsed == [ontology] * 2
    assert anthology_categories(root, "https://example.org/id/") == first | {"sketch"}
    assert parsed == [ontology] * 3


def test_import_a_folder_writes_every_record_and_reports_it(tmp_path):
    folder = records_folder(tmp_path, RECORDS)
    out = tmp_path / "data"
    out.mkdir()
    result = run_cli("import", str(folder), "-o", str(out))
    assert result.exit_code == 0, result.stderr
    names = sorted(p.name for p in out.iterdir())
    assert names == sorted(p.stem + ".ttl" for p in RECORDS)
    assert result.stdout.splitlines()[-1] == f"{len(RECORDS)} record(s) imported"
    assert sum(line.startswith("wrote ") for line in result.stdout.splitlines()) == len(RECORDS)
    check = run_cli("import", "--check", str(folder))
    assert check.exit_code == 0 and check.stdout.count("byte-identical") == len(RECORDS)


def test_import_a_folder_is_all_or_nothing(tmp_path):
    folder = records_folder(tmp_path, RECORDS)
    (folder / "zz-bad.txt").write_bytes(
        seed_text().replace("Filed as infrastructure", "Filed as Evaluation").encode()
    )
    out = tmp_path / "data"
    out.mkdir()
    result = run_cli("import", str(folder), "-o", str(out))
    assert result.exit_code == 2 and "zz-bad.txt:23: 'Evaluation'" in result.stderr
    assert list(out.iterdir()) == []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "importing a folder needs -o FOLDER"),
        (["-o", "missing"], "not a folder to write into"),
    ],
)
def test_import_a_folder_needs_an_output_folder(tmp_path, monkeypatch, args, message):
    folder = tmp_path / "records"
    folder.mkdir()
    (folder / "a.txt").write_bytes(seed_text().encode())
    monkeypatch.chdir(tmp_path)
    result = run_cli("import", str(folder), *args)
    assert result.exit_code == 2 and message in result.stderr


def test_two_records_of_one_identifier_are_an_error(tmp_path):
    folder = tmp_path / "records"
    folder.mkdir()
    (folder / "a.txt").write_bytes(seed_text().encode())
    (folder / "b.txt").write_bytes(seed_text().encode())
    out = tmp_path / "out"
    out.mkdir()
    result = run_cli("import", str(folder), "-o", str(out))
    assert result.exit_code == 2 and "ARXIV-2409.19256 is printed in a.txt as well" in result.stderr
    assert list(out.iterdir()) == []


def test_an_empty_folder_is_an_error(tmp_path):
    result = run_cli("import", str(tmp_path), "-o", str(tmp_path))
    assert result.exit_code == 2 and "no printed records (*.txt)" in result.stderr


def test_render_of_an_unknown_entry_exits_2():
    result = run_cli("render", "LIT-999")
    assert result.exit_code == 2 and "no entry 'LIT-999'" in result.stderr


def test_render_needs_standing_text():
    result = run_cli("render", "LIT-168")
    assert result.exit_code == 2 and "cannot be printed" in result.stderr


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            "ak:category ak:infrastructure ;",
            "ak:category ak:evaluation ;",
            "its ak:standing says ak:category 'infrastructure', the graph says 'evaluation'",
        ),
        (
            "ak:ratherThan ak:method ;",
            "",
            "its ak:standing says ak:ratherThan 'method', the graph says nothing",
        ),
        (
            "ak:practiceWithheldBy id:ADR-032 ;",
            "",
            "its ak:standing says ak:practiceWithheldBy 'ADR-032', the graph says nothing",
        ),
        (
            "ak:practiceWithheldBy id:ADR-032 ;",
            "ak:practiceWithheldBy id:ADR-032 ; "
            'ak:carriesPractice [ a ak:Practice ; rdfs:label "Pin it" ; ak:position 1 ] ;',
            "its ak:standing says it carries no practice, and the graph gives it "
            "ak:carriesPractice",
        ),
    ],
)
def test_render_refuses_a_standing_the_triples_contradict(bundled_copy, old, new, message):
    """The Standing prose is printed as stored: where its sentences say other than the
    triples, the printed entry (and what an import of it gives) would contradict the graph."""
    path = bundled_copy / "data" / "ARXIV-2409.19256.ttl"
    text = path.read_text("utf-8")
    assert old in text
    path.write_text(text.replace(old, new), "utf-8")
    result = run_cli("--root", str(bundled_copy), "render", "ARXIV-2409.19256")
    assert result.exit_code == 2 and result.stdout == ""
    assert f"ARXIV-2409.19256 cannot be printed: {message}" in result.stderr


@pytest.mark.parametrize(
    "turtle",
    [
        # An IRI may write any character as a \u or \U escape (Turtle and N-Triples).
        "<https://w3id.org/anthology-kg/id/ADR-001> "
        "<https://w3id.org/anthology-kg/ns#admitted\\u0043ategory> "
        "<https://w3id.org/anthology-kg/ns#survey> .\n",
        "<https://w3id.org/anthology-kg/ns#survey> "
        "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type> "
        "<https://w3id.org/anthology-kg/ns#\\U00000043ategory> .\n",
        # A prefix whose IRI ends inside the word, its local name holding the rest.
        "@prefix c: <https://w3id.org/anthology-kg/ns#admitsCat> .\n"
        "<https://w3id.org/anthology-kg/id/ADR-001> c:egory "
        "<https://w3id.org/anthology-kg/ns#survey> .\n",
        # The same, the prefix IRI relative to the file's base.
        "@base <https://w3id.org/anthology-kg/ns> .\nPREFIX c: <#C>\n<#survey> a c:ategory .\n",
    ],
    ids=["uchar", "big-uchar", "split-prefix", "relative-prefix"],
)
def test_a_category_written_without_the_word_is_still_read(tmp_path, turtle):
    """A data file that admits a category is read whichever legal way it writes the term:
    import --check then accepts a record filed under it (before: 'not a category')."""
    root = tmp_path / "anthology"
    (root / "data").mkdir(parents=True)
    (root / "data" / "ADR-001.ttl").write_text(turtle, encoding="utf-8")
    assert b"Category" not in (root / "data" / "ADR-001.ttl").read_bytes()
    assert "survey" in known_categories(load_anthology(root).data)
    assert "survey" in anthology_categories(root)
    path = write(tmp_path, "r.txt", seed_text().replace("as infrastructure", "as survey").encode())
    result = run_cli("--root", str(root), "import", "--check", str(path))
    assert result.exit_code == 0, result.stderr


def test_the_check_diff_says_no_newline_at_end_of_file():
    """The diff import --check prints marks a last line without a newline, as diff and
    git do, so that a change of the final newline alone is visible."""
    diff = unified_diff("a\nb\nc", "a\nb\nc\n", "r.txt")
    assert diff.endswith("@@ -1,3 +1,3 @@\n a\n b\n-c\n\\ No newline at end of file\n+c\n")
    context = unified_diff("a\nb\nc", "A\nb\nc", "r.txt")
    assert context.endswith("-a\n+A\n b\n c\n\\ No newline at end of file\n")


def test_a_record_that_is_not_utf8_is_reported_at_its_line(tmp_path):
    """As a data file is (FILE:LINE), not by a byte offset (hunt5 #10)."""
    record = tmp_path / "x.txt"
    record.write_bytes(b"Sheng et al. (2024)\nline two\n \xff ARXIV-2409.19256\n")
    for args in (
        [str(record)],
        ["--check", str(record)],
        [str(tmp_path), "-o", str(tmp_path / "o")],
    ):
        result = run_cli("import", *args)
        assert result.exit_code == 2, result.output
        assert result.stderr == f"{record}:3: not UTF-8 text\n", result.stderr


# ---- "Filed as" sentences (hunt6 #3) --------------------------------------------------------


def small_record(standing: str) -> str:
    """A record of one takeaway whose Standing section is ``standing`` (from line 5)."""
    return (
        "Doe (2024) — ARXIV-2401.00003\nKey takeaways\n- t\nStanding in the anthology\n"
        f"{standing}\nUnread — no NOTE."
    )


@pytest.mark.parametrize(
    ("sentence", "message"),
    [
        ("Filed as method, since it proposes one.", "a 'Filed as' sentence of no known form"),
        ("Filed as method because it proposes one.", "a 'Filed as' sentence of no known form"),
        ("Filed as method", "a 'Filed as' sentence of no known form"),
        ("Filed as a Method, really.", "'Method' after 'Filed as' is not a category"),
        (
            "Filed as infrastructure rather than as a method; nothing here.",
            "a 'Filed as' sentence of no known form",
        ),
        ("Some prose. Filed as method: ", "a 'Filed as' sentence of no known form"),
        # hunt18 #14: a "Carries no practice" the same (before: plain prose, exit 0)
        *(
            (f"Filed as method. {sentence}", "a 'Carries no practice' sentence of no known form")
            for sentence in (
                "Carries no practice, deliberately — ADR-9.",
                "Carries no practice, deliberately - ADR-009.",
                "Carries no practice, deliberately — ADR-009",
                "Carries  no practice.",
                # (the read-through of 6 December: lower case, a plural)
                "carries no practice, deliberately — ADR-009.",
                "Carries no practices, deliberately — ADR-009.",
            )
        ),
    ],
)
def test_a_filed_as_sentence_of_another_form_is_an_error_at_its_line(tmp_path, sentence, message):
    """RECORD_FORMAT.md: any other word after "Filed as" is an error, not a silent
    omission; before, these gave no ak:category and exit 0."""
    path = write(tmp_path, "f.txt", small_record(sentence).encode("utf-8"))
    result = run_cli("import", str(path))
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"{path}:5: {message}"), result.stderr


def test_a_carries_no_practice_sentence_after_a_line_break_is_an_error_at_its_line(tmp_path):
    standing = "Filed as method.\nOther prose.\nCarries no practice, deliberately — ADR-9."
    path = write(tmp_path, "f.txt", small_record(standing).encode("utf-8"))
    result = run_cli("import", str(path))
    assert result.exit_code == 2, result.output
    assert result.stderr == (
        f"{path}:7: a 'Carries no practice' sentence of no known form: expected 'Carries no "
        "practice, deliberately — ADR-nnn.'\n"
    )


def test_carries_no_practice_mid_sentence_is_prose():
    record = parse_record(small_record("Filed as method. It carries no practice of its own."))
    assert record.graph.value(record.iri, AK.practiceWithheldBy) is None


def test_a_carries_no_practice_sentence_wrapped_over_two_lines_is_read():
    record = parse_record(
        small_record("Filed as method. Carries no\npractice, deliberately — ADR-009.")
    )
    assert record.graph.value(record.iri, AK.practiceWithheldBy) == URIRef(DEFAULT_BASE + "ADR-009")


def test_a_filed_as_sentence_wrapped_over_two_lines_is_read():
    record = parse_record(
        small_record("Some prose. Filed as method\nrather than as an evaluation.")
    )
    assert record.graph.value(record.iri, AK.category) == AK.method
    assert record.graph.value(record.iri, AK.ratherThan) == AK.evaluation


def test_render_refuses_a_standing_whose_filed_as_an_import_would_refuse():
    record = parse_record(small_record("Nothing filed."))
    graph, entry = record.graph, record.iri
    graph.set((entry, AK.standing, Literal("Read.\nFiled as method because it is one.")))
    graph.add((entry, AK.category, AK.method))
    with pytest.raises(AnthologyError, match="line 2 of its ak:standing has a 'Filed as'"):
        render_record(graph, entry)


@pytest.mark.parametrize(
    ("standing", "reason"),
    [
        ("Filed as method: it proposes e.g. a new loss.", "it proposes e.g. a new loss"),
        (
            "Prose. Filed as method rather than as an evaluation: it is PPO vs. GRPO. Really.",
            "it is PPO vs. GRPO. Really",
        ),
        (
            "Filed as method: it proposes\ne.g. a new loss.\nMore prose.",
            "it proposes e.g. a new loss",
        ),
    ],
)
def test_a_filing_reason_runs_to_the_end_of_its_line(tmp_path, standing, reason):
    """Not to its first '. ' (hunt6 #4: 'it proposes e.g'), and import --check and render
    agree with the graph's reason."""
    record = parse_record(small_record(standing))
    assert record.graph.value(record.iri, AK.filingReason) == Literal(reason)
    assert render_record(record.graph, record.iri) == small_record(standing)


def test_a_filing_reason_does_not_run_past_its_paragraph(tmp_path):
    path = write(tmp_path, "f.txt", small_record("Filed as method: it proposes\n\nOther.").encode())
    result = run_cli("import", str(path))
    assert result.exit_code == 2
    assert result.stderr.startswith(f"{path}:5: a 'Filed as' sentence of no known form")


# ---- what render cannot print faithfully (hunt6 #2, #6) -------------------------------------


GYEAR = URIRef("http://www.w3.org/2001/XMLSchema#gYear")


def printable_entry(standing: str = "Filed as method.") -> tuple[Graph, URIRef]:
    """A one-takeaway reference that render prints, and its IRI."""
    record = parse_record(small_record(standing))
    return record.graph, record.iri


def takeaway_node(graph: Graph, entry: URIRef):
    return next(graph.objects(entry, AK.takeaway))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda g, e: g.set(
                (
                    takeaway_node(g, e),
                    RDF.value,
                    Literal("first\nStanding in the anthology\nFiled as evaluation."),
                )
            ),
            "its takeaway 1 'first\\nStanding in the anthology\\nFiled as evaluation.' holds a "
            "line break",
        ),
        (
            lambda g, e: g.set((e, DCTERMS.issued, Literal("12345", datatype=GYEAR))),
            "its dcterms:issued '12345' is not a year of four digits (xsd:gYear)",
        ),
        (
            lambda g, e: g.set((e, DCTERMS.issued, Literal("2024"))),
            "its dcterms:issued '2024' is not a year of four digits (xsd:gYear)",
        ),
        (
            lambda g, e: g.set((takeaway_node(g, e), RDF.value, Literal(""))),
            "its takeaway 1 '' is empty",
        ),
        (
            lambda g, e: g.set((takeaway_node(g, e), RDF.value, Literal(" "))),
            "its takeaway 1 ' ' is only whitespace",
        ),
        (
            lambda g, e: g.set((takeaway_node(g, e), RDF.value, Literal("t", lang="en"))),
            "its takeaway 1 't' has a language tag (@en)",
        ),
        (
            lambda g, e: g.set((e, AK.authors, Literal("Doe\nKey takeaways"))),
            "its ak:authors 'Doe\\nKey takeaways' holds a line break",
        ),
        (
            lambda g, e: g.set((e, AK.authors, Literal(""))),
            "its ak:authors '' is empty",
        ),
        (
            lambda g, e: g.set((e, AK.standing, Literal("Filed as method.\r"))),
            "its ak:standing 'Filed as method.\\r' holds a carriage return (CR)",
        ),
        (
            lambda g, e: (
                g.set((e, AK.readingStatus, AK.read)),
                g.add((e, AK.hasNote, URIRef("http://other/xyz"))),
            ),
            "its printed form would not read back (line 6: the status line names 'xyz', not a "
            "note (NOTE-nnn))",
        ),
        (
            lambda g, e: g.set((e, AK.category, Literal("method"))),
            "its printed form would read back ak:category ak:method, which the graph does not",
        ),
        (
            lambda g, e: g.remove((e, AK.readingStatus, None)),
            "it has no ak:readingStatus",
        ),
        (
            # hunt6 #6: a mention in the prose is a dcterms:references the graph must state.
            lambda g, e: g.set(
                (e, AK.standing, Literal("Filed as method. Superseded by SOTA-154."))
            ),
            "its printed form would read back dcterms:references id:SOTA-154, which the graph "
            "does not state",
        ),
        (
            # fixrec's note: a takeaway node with no rdf:value was left out without a word.
            lambda g, e: g.add((e, AK.takeaway, BNode())),
            "a value of its ak:takeaway has no rdf:value, so the printed form has no line",
        ),
    ],
)
def test_render_refuses_what_it_cannot_print_as_the_graph_says(change, message):
    """Before, each printed with exit 0 a text that an import read back as another graph
    (another category, a cut takeaway, the year 1234) or refused."""
    graph, entry = printable_entry()
    render_record(graph, entry)  # printable as it is
    change(graph, entry)
    with pytest.raises(AnthologyError) as error:
        render_record(graph, entry)
    assert message in str(error.value), str(error.value)
    assert str(error.value).startswith(("ARXIV-2401.00003 cannot be printed: ", "https://"))


def test_render_cli_names_the_entry_and_the_field(bundled_copy):
    path = bundled_copy / "data" / "ARXIV-2409.19256.ttl"
    text = path.read_text("utf-8")
    path.write_text(text.replace('"2024"^^xsd:gYear', '"12345"^^xsd:gYear'), "utf-8")
    result = run_cli("--root", str(bundled_copy), "render", "ARXIV-2409.19256")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith(
        "anthology-kg: ARXIV-2409.19256 cannot be printed: its dcterms:issued '12345' is not"
    )


@settings(max_examples=150, deadline=None)
@given(
    field=st.sampled_from(["authors", "takeaway", "standing"]),
    text=st.lists(
        st.sampled_from(["a", " ", "\n", "\r", "-", ".", "—", "Filed as ", ": ", "method"])
    ).map("".join),
)
def test_what_render_prints_reads_back_as_the_graph_says(field, text):
    """For any text in a field, render either refuses (AnthologyError) or prints what
    an import reads back to the same authors, takeaways and standing."""
    graph, entry = printable_entry()
    subject, predicate = {
        "authors": (entry, AK.authors),
        "takeaway": (takeaway_node(graph, entry), RDF.value),
        "standing": (entry, AK.standing),
    }[field]
    graph.set((subject, predicate, Literal(text)))
    try:
        printed = render_record(graph, entry)
    except AnthologyError:
        return
    back = parse_record(printed)
    for p in (AK.authors, AK.standing, DCTERMS.issued, AK.category):
        assert set(back.graph.objects(entry, p)) == set(graph.objects(entry, p))
    values = {str(back.graph.value(n, RDF.value)) for n in back.graph.objects(entry, AK.takeaway)}
    assert values == {str(graph.value(n, RDF.value)) for n in graph.objects(entry, AK.takeaway)}


# ---- several values where the printed form has room for one (hunt6 #5) ----------------------


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda g, e: (
                g.add((e, AK.authors, Literal("Roe"))),
                g.add((e, AK.authors, Literal("Xu"))),
            ),
            "it has 3 values of ak:authors ('Doe', 'Roe', 'Xu'), and its printed form has room "
            "for one",
        ),
        (
            lambda g, e: g.add((e, DCTERMS.issued, Literal("2023", datatype=GYEAR))),
            "it has 2 values of dcterms:issued ('2023', '2024')",
        ),
        (
            lambda g, e: g.add((e, AK.standing, Literal("Filed as method. Other."))),
            "it has 2 values of ak:standing",
        ),
        (
            lambda g, e: g.add((e, AK.readingStatus, AK.read)),
            "it has 2 values of ak:readingStatus (ak:read, ak:unread)",
        ),
        (
            lambda g, e: (
                g.set((e, AK.readingStatus, AK.read)),
                g.add((e, AK.hasNote, URIRef(DEFAULT_BASE + "NOTE-002"))),
                g.add((URIRef(DEFAULT_BASE + "NOTE-001"), AK.noteOn, e)),
            ),
            "it has 2 notes (NOTE-001, NOTE-002; ak:hasNote or ak:noteOn), and its status line",
        ),
        (
            lambda g, e: g.add((takeaway_node(g, e), RDF.value, Literal("u"))),
            "it has 2 values of rdf:value ('t', 'u')",
        ),
    ],
)
def test_render_refuses_several_values_of_a_field_printed_once(change, message):
    """Before, one was printed (Graph.value picks any) and the others dropped, exit 0."""
    graph, entry = printable_entry()
    change(graph, entry)
    with pytest.raises(AnthologyError) as error:
        render_record(graph, entry)
    assert message in str(error.value), str(error.value)


def test_render_cli_refuses_two_authors(bundled_copy):
    path = bundled_copy / "data" / "ARXIV-2409.19256.ttl"
    text = path.read_text("utf-8")
    assert 'ak:authors "Sheng et al." ;' in text
    path.write_text(
        text.replace('ak:authors "Sheng et al." ;', 'ak:authors "Sheng et al.", "Roe" ;')
    )
    result = run_cli("--root", str(bundled_copy), "render", "ARXIV-2409.19256")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == (
        "anthology-kg: ARXIV-2409.19256 cannot be printed: it has 2 values of ak:authors "
        "('Roe', 'Sheng et al.'), and its printed form has room for one\n"
    )


def test_render_takes_an_xsd_string_literal_as_the_plain_one_it_is():
    """RDF 1.1: "x" and "x"^^xsd:string are one term; rdflib's graphs keep them apart."""
    graph, entry = printable_entry()
    string = URIRef("http://www.w3.org/2001/XMLSchema#string")
    for predicate in (DCTERMS.identifier, AK.authors, AK.standing):
        graph.set((entry, predicate, Literal(str(graph.value(entry, predicate)), datatype=string)))
    assert render_record(graph, entry) == small_record("Filed as method.")


# ---- takeaway positions the printed form cannot give back (hunt18 #9) ------------------------

POSITIONED = """\
@prefix ak: <https://w3id.org/anthology-kg/ns#> . @prefix dcterms: <http://purl.org/dc/terms/> .
@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
<LIT-300> a ak:LiteratureRecord ; dcterms:identifier "LIT-300" ; dcterms:issued "2023"^^xsd:gYear ;
  ak:authors "Doe" ; ak:readingStatus ak:unread ; ak:standing "p" ; {values} .
"""


def positioned(link: str, text: str, *positions: int | None) -> str:
    nodes = (
        f'[ {text} "v{n}"' + ("" if p is None else f" ; ak:position {p}") + " ]"
        for n, p in enumerate(positions)
    )
    return POSITIONED.format(values=f"{link} " + ", ".join(nodes))


@pytest.mark.parametrize(
    ("positions", "shown"),
    [((1, 1, None), "1, 1 and none"), ((1, 3), "1 and 3"), ((2,), "2"), ((0, 1), "0 and 1")],
)
@pytest.mark.parametrize(
    ("link", "text"), [("ak:takeaway", "rdf:value"), ("ak:carriesPractice", "rdfs:label")]
)
def test_render_refuses_positions_its_print_would_not_give_back(
    tmp_path, link, text, positions, shown
):
    """Before: two takeaways at ak:position 1 and one with none printed as 1, 2, 3 (the
    one with none first), exit 0, and an import of the print stated those positions."""
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "LIT-300.ttl").write_text(positioned(link, text, *positions), "utf-8")
    result = run_cli("--root", str(tmp_path), "render", "LIT-300")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == (
        f"anthology-kg: LIT-300 cannot be printed: the ak:position of its {len(positions)} "
        f"{link} values are {shown}, and its printed form numbers them 1 to {len(positions)} "
        "in order, which an import would read back as positions the graph does not state\n"
    )


def test_render_prints_values_in_position_order_whatever_their_text(tmp_path):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "LIT-300.ttl").write_text(
        positioned("ak:takeaway", "rdf:value", 3, 1, 2), "utf-8"
    )
    result = run_cli("--root", str(tmp_path), "render", "LIT-300")
    assert result.exit_code == 0, result.stderr
    assert "Key takeaways\n- v1\n- v2\n- v0\n" in result.stdout
