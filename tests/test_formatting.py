"""fmt keeps what the file says: language tags as written; where the store cannot, the
exact behaviour is pinned (README, the store's canonical forms)."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from conftest import run_cli

from anthology_kg.formatting import _language_tags, format_file, write_formatted
from anthology_kg.resources import bundled_dir

NOTE = '\nid:LIT-168 rdfs:comment "A Color note"@en-US, "Ein Hinweis"@de-CH-1996 .\n'


@pytest.fixture
def tagged(tmp_path):
    """A copy of the bundled anthology whose LIT-168 has tags with upper-case letters."""
    root = tmp_path / "anthology"
    shutil.copytree(bundled_dir() / "data", root / "data")
    path = root / "data" / "LIT-168.ttl"
    text = path.read_text(encoding="utf-8")
    if "@prefix rdfs:" not in text:
        text = "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n" + text
    path.write_text(text + NOTE, encoding="utf-8")
    return root


def test_fmt_keeps_language_tags_as_written(tagged):
    """Before: fmt rewrote "…"@en-US as "…"@en-us in the contributor's file."""
    assert run_cli("--root", str(tagged), "fmt").exit_code == 0
    written = (tagged / "data" / "LIT-168.ttl").read_text(encoding="utf-8")
    assert '"A Color note"@en-US' in written and '"Ein Hinweis"@de-CH-1996' in written
    assert "@en-us" not in written and "@de-ch" not in written
    assert run_cli("--root", str(tagged), "fmt", "--check").exit_code == 0  # stable


def test_a_tag_written_in_two_spellings_stays_in_lower_case(tmp_path):
    path = tmp_path / "X.ttl"
    path.write_text(
        '<https://w3id.org/anthology-kg/id/X> <urn:p> "a"@en-US, "b"@en-us .\n', encoding="utf-8"
    )
    canonical = format_file(path).canonical
    assert '"a"@en-us' in canonical and '"b"@en-us' in canonical


def test_language_tags_are_found_only_after_strings():
    text = (
        '@prefix a: <urn:a@X> . # "x"@No\n'
        'a:s a:p """say "hi"@EN """@en-GB, \'y\'@fr-CA, "mail me@Example.org"@de, "q\\"@X" .\n'
    )
    assert [m[1] for m in _language_tags(text)] == ["en-GB", "fr-CA", "de"]


def test_the_store_answers_with_tags_in_lower_case_on_both_engines(tagged):
    """Pinned: pyoxigraph, which parses the data files for both engines, lower-cases a
    language tag, so a query answer gives "A Color note"@en-us (README, canonical forms)."""
    query = (
        "SELECT ?c WHERE { ?s <http://www.w3.org/2000/01/rdf-schema#comment> ?c "
        'FILTER (STRSTARTS(?c, "A Color")) }'
    )
    for engine in ("fast", "reference"):
        result = run_cli(
            "--root", str(tagged), "sparql", "-", "--format", "tsv", "--engine", engine,
            input=query,
        )  # fmt: skip
        assert result.exit_code == 0, result.stderr
        assert result.stdout == '?c\n"A Color note"@en-us\n'


@pytest.mark.parametrize("flag", ["--diff", "--check"])
def test_fmt_diff_labels_a_file_outside_the_working_directory_as_git_does(
    bundled_copy, tmp_path, monkeypatch, flag
):
    """Before: ``--- a//tmp/…/data/LIT-168.ttl`` (a doubled slash) for a file shown by
    its absolute path; ``git diff --no-index`` prints ``--- a/tmp/…/data/LIT-168.ttl``."""
    path = bundled_copy / "data" / "LIT-168.ttl"
    path.write_text(path.read_text(encoding="utf-8").replace("    ", "  "), encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    result = run_cli("--root", str(bundled_copy), "fmt", flag)
    assert result.exit_code == 1
    shown = path.as_posix().lstrip("/")
    assert f"\n--- a/{shown}\n+++ b/{shown}\n" in "\n" + result.stdout
    assert "a//" not in result.stdout and "b//" not in result.stdout


def test_fmt_diff_labels_a_file_under_the_working_directory_by_its_relative_path(
    bundled_copy, monkeypatch
):
    path = bundled_copy / "data" / "LIT-168.ttl"
    path.write_text(path.read_text(encoding="utf-8").replace("    ", "  "), encoding="utf-8")
    monkeypatch.chdir(bundled_copy)
    result = run_cli("fmt", "--diff")
    assert result.exit_code == 1
    assert result.stdout.startswith("--- a/data/LIT-168.ttl\n+++ b/data/LIT-168.ttl\n")


@pytest.mark.parametrize("name", ["a b.ttl", "a b ü.ttl"])
def test_fmt_diff_labels_a_name_with_a_space_as_git_does_and_patch_applies_it(
    tmp_path, monkeypatch, name
):
    """git ends a ``---``/``+++`` label holding a space with a tab, so that GNU patch,
    which reads a name up to a space or a tab, reads it whole (hunt20 #13: ``patch -p1``
    found no file ``data/a``)."""
    (tmp_path / "data").mkdir()
    path = tmp_path / "data" / name
    written = '<https://w3id.org/anthology-kg/id/X>   <urn:p> "a" .\n'
    path.write_text(written, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = run_cli("fmt", "--diff")
    assert result.exit_code == 1, result.stderr
    assert result.stdout.startswith(f"--- a/data/{name}\t\n+++ b/data/{name}\t\n")
    if shutil.which("patch") is None:
        pytest.skip("GNU patch is not installed")
    applied = subprocess.run(
        ["patch", "-p1"], input=result.stdout, cwd=tmp_path, capture_output=True, text=True
    )
    assert applied.returncode == 0, applied.stdout + applied.stderr
    assert run_cli("fmt", "--check").exit_code == 0  # what fmt would write, written


BOM = b"\xef\xbb\xbf"


def test_fmt_keeps_a_byte_order_mark_and_check_agrees(bundled_copy):
    """Before: fmt dropped the mark of a file it rewrote, while ``fmt --check`` showed a
    diff without that change and passed a marked file otherwise canonical. Now the mark
    stays, as black keeps it: the diff is exactly what is written."""
    path = bundled_copy / "data" / "LIT-168.ttl"
    canonical = path.read_bytes()
    path.write_bytes(BOM + canonical.replace(b"    ", b"  "))
    check = run_cli("--root", str(bundled_copy), "fmt", "--check")
    assert check.exit_code == 1 and "would reformat" in check.stdout
    assert run_cli("--root", str(bundled_copy), "fmt").exit_code == 0
    assert path.read_bytes() == BOM + canonical
    assert run_cli("--root", str(bundled_copy), "fmt", "--check").exit_code == 0
    assert run_cli("--root", str(bundled_copy), "fmt").exit_code == 0
    assert path.read_bytes() == BOM + canonical  # a marked canonical file is left as it is


def test_fmt_leaves_a_file_whose_mark_changed_meanwhile(tmp_path):
    """The file's bytes, mark included, are compared before it is replaced: a mark
    added (or removed) while fmt runs is an edit, and it is not lost."""
    path = tmp_path / "X.ttl"
    path.write_bytes(b'<https://w3id.org/anthology-kg/id/X>   <urn:p> "a" .\n')
    formatted = format_file(path)
    assert formatted.changed and formatted.mark == b""
    path.write_bytes(BOM + path.read_bytes())
    assert write_formatted([formatted]) == [path]
    assert path.read_bytes().startswith(BOM + b"<https://w3id.org/anthology-kg/id/X>   ")


@pytest.mark.parametrize(
    "statement",
    [
        "e:s e:p <<( e:x e:c 1 )>> .",
        "e:x e:c 1 ~ e:r .",  # a reifier: e:r rdf:reifies <<( e:x e:c 1 )>>
        'e:x e:c 1 {| e:q "note" |} .',  # an annotation, on a blank reifier
    ],
)
def test_fmt_refuses_a_triple_term_at_its_file_and_line(tmp_path, statement):
    """RDF 1.2 triple terms are not supported, however written: fmt stops with the file
    and the line of the statement (before: the message alone, no file; a reifier or an
    annotation was rewritten as an rdf:reifies statement), nothing written."""
    text = f"@prefix e: <http://e.org/> .\n\ne:a e:b e:c .\n\n{statement}\n"
    assert_fmt_refuses(
        tmp_path, text, "X.ttl:5: RDF-star triple terms are not supported: <http://e.org/"
    )


def assert_fmt_refuses(tmp_path, text: str, message: str) -> None:
    """``fmt`` and ``fmt --check`` of an anthology whose one data file, X.ttl, holds
    ``text`` exit 2 with ``message`` on stderr, and the file stays as it is."""
    root = tmp_path / "anthology"
    (root / "data").mkdir(parents=True)
    path = root / "data" / "X.ttl"
    path.write_text(text, encoding="utf-8")
    for args in (["fmt"], ["fmt", "--check"]):
        result = run_cli("--root", str(root), *args)
        assert result.exit_code == 2, result.output
        assert message in result.stderr
    assert path.read_text(encoding="utf-8") == text


@pytest.mark.parametrize(
    "first",
    [
        'e:a e:p """a""b""" .',  # a long string holding two quotes
        "e:a e:p 'it\\'s' , '''x''y''' .",  # escaped quote; long string
        "e:a\\.1 e:p e:o .",  # a local name with an escaped dot
        "e:a e:p e:o .# a comment right after the dot",
        'e:a e:p "unclosed .',  # not Turtle: refused, the comment below never matters
    ],
)
def test_fmt_keeps_the_comment_before_the_statement_after_a_tricky_one(tmp_path, first):
    """The source map finds where each statement starts past long strings, escaped local
    names and a comment straight after a dot; the comment written before the next
    statement stays before it (the last statement ends the file without a newline)."""
    from anthology_kg.errors import AnthologyError

    path = tmp_path / "X.ttl"
    path.write_text(
        f"@prefix e: <http://e.org/> .\n\n{first}\n\n# about B\ne:b e:p e:o .", encoding="utf-8"
    )
    if "unclosed" in first:
        with pytest.raises(AnthologyError):
            format_file(path)
        return
    canonical = format_file(path).canonical
    assert "\n# about B\n<http://e.org/b> <http://e.org/p> <http://e.org/o> .\n" in canonical


def test_fmt_keeps_the_comment_before_a_statement_whose_subject_has_an_escape(tmp_path):
    """A local name with an escaped character (``e:c\\.1``) is one name to the source
    map: the comment before its statement stays there."""
    path = tmp_path / "X.ttl"
    text = "@prefix e: <http://e.org/> .\n\ne:a e:p e:o .\n\n# esc\ne:c\\.1 e:p e:o .\n"
    path.write_text(text, encoding="utf-8")
    assert "\n# esc\n<http://e.org/c.1> <http://e.org/p>" in format_file(path).canonical


@pytest.mark.parametrize("statement", ["_:x e:p e:o .", "[] e:p e:o .", "[ e:p e:o ] ."])
def test_fmt_refuses_to_drop_a_comment_before_a_blank_node_statement(tmp_path, statement):
    """The canonical text keys comments by subject IRI: one written before a statement
    whose subject is a blank node has no place there, so fmt stops at the comment's line
    with the file as it is (before: the comment was silently dropped)."""
    text = f"@prefix e: <http://e.org/> .\n\n# about e:a\ne:a e:p e:o .\n\n# lost?\n{statement}\n"
    assert_fmt_refuses(
        tmp_path, text, "X.ttl:6: formatting would drop this comment, which goes with a statement"
    )


@pytest.mark.parametrize("header", ["", "# about the file\n\n"])
def test_a_file_with_no_prefix_starts_with_its_header_or_first_statement(tmp_path, header):
    """With no prefix to declare, nothing but the header's own empty line comes before
    the first statement."""
    path = tmp_path / "X.ttl"
    statement = '<http://x.example/a> <http://x.example/b> "t" .\n'
    path.write_text(f"{header}{statement}\n<http://x.example/c> <http://x.example/b> 1 .\n")
    canonical = format_file(path).canonical
    assert canonical.startswith(header + statement)
    assert format_file(path).canonical == canonical


def test_a_subject_whose_predicates_begin_one_another_lists_them_in_iri_order(tmp_path):
    """rdf:_1 is the beginning of rdf:_10: the members of a Seq (and any predicates one
    of which begins another) are written in IRI order, not in N-Triples line order,
    whichever subject shows the pair first."""
    members = " ;\n".join(f'    rdf:_{n} "m{n}"' for n in range(12, 0, -1))
    path = tmp_path / "X.ttl"
    path.write_text(
        "@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .\n"
        "@prefix e: <http://e.org/> .\n"
        "e:a e:p-q 1 ; e:p 2 .\n"
        "e:b e:p 3 ; e:p-q 4 .\n"
        f"e:s a rdf:Seq ;\n{members} .\n",
        encoding="utf-8",
    )
    text = format_file(path).canonical
    written = [line.split()[0] for line in text.splitlines() if line.startswith("    rdf:_")]
    assert written == [f"rdf:_{n}" for n in sorted(range(1, 13), key=str)]
    assert text.index("<http://e.org/p> 2") < text.index("<http://e.org/p-q> 1")
    assert text.index("<http://e.org/p> 3") < text.index("<http://e.org/p-q> 4")


def test_a_predicate_seen_alone_first_is_still_found_to_begin_a_later_one(tmp_path):
    """e:p is seen (at e:a) before e:p-q, which begins with it: at e:b, where N-Triples
    line order puts p-q first ("-" sorts before ">"), IRI order puts p first."""
    path = tmp_path / "X.ttl"
    path.write_text(
        "@prefix e: <http://e.org/> .\ne:a e:p 1 .\ne:b e:p-q 2 ; e:p 3 .\n", encoding="utf-8"
    )
    text = format_file(path).canonical
    assert text.index("<http://e.org/p> 3") < text.index("<http://e.org/p-q> 2"), text
