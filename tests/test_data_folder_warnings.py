"""What the data folder holds that the tool would pass over in silence: a data file named
``*.TTL`` (not read), an empty ``data/`` (every rule holds, nothing checked) and a
``waivers.ttl`` that is no file (no waiver applied). The first two are warnings on stderr
with the exit code the rules give; the third is an input error, exit 2."""

from __future__ import annotations

import json
import os

import pytest
from conftest import rules_fixture_copy, run_cli

ENGINES = ["fast", "reference"]


@pytest.fixture
def root(tmp_path, monkeypatch):
    root = rules_fixture_copy(tmp_path, "rule9-good")
    monkeypatch.chdir(root)  # files are shown relative to it
    return root


@pytest.mark.parametrize("engine", ENGINES)
def test_a_data_file_named_ttl_in_upper_case_is_named_by_check(root, engine):
    expected = run_cli("check", "--engine", engine)
    (root / "data" / "LIT-002.TTL").write_text("not Turtle, and not read", "utf-8")
    result = run_cli("check", "--engine", engine)
    assert result.exit_code == expected.exit_code == 0, result.output
    assert result.stdout == expected.stdout
    assert result.stderr == (
        "data/LIT-002.TTL: warning: not read: data files end in '.ttl', in lower case "
        "(rename it LIT-002.ttl)\n"
    )


@pytest.mark.parametrize("engine", ENGINES)
def test_a_shapes_file_named_ttl_in_upper_case_is_named_by_check(root, engine):
    expected = run_cli("check", "--engine", engine)
    shapes = root / "ontology" / "shapes"
    shapes.mkdir(parents=True)
    (shapes / "MINE.TTL").write_text("not Turtle, and not read", "utf-8")
    result = run_cli("check", "--engine", engine)
    assert result.exit_code == expected.exit_code == 0, result.output
    assert result.stdout == expected.stdout
    assert result.stderr == (
        "ontology/shapes/MINE.TTL: warning: not read: shapes files end in '.ttl', in lower "
        "case (rename it MINE.ttl)\n"
    )


def test_a_data_file_named_ttl_in_mixed_case_is_named_by_fmt(root):
    expected = run_cli("fmt", "--check")
    (root / "data" / "LIT-002.Ttl").write_text("not Turtle, and not read", "utf-8")
    (root / "data" / ".#LIT-003.TTL").write_text("an editor's, not named", "utf-8")
    result = run_cli("fmt", "--check")
    assert result.exit_code == expected.exit_code, result.output
    assert result.stdout == expected.stdout
    assert result.stderr == (
        "data/LIT-002.Ttl: warning: not read: data files end in '.ttl', in lower case "
        "(rename it LIT-002.ttl)\n"
    )


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("other", [(), ("README.md",)])
def test_an_empty_data_folder_conforms_with_a_warning(tmp_path, monkeypatch, engine, other):
    # Exit 0: an anthology before its first entry is a state CI sees (the first commit);
    # the warning says that nothing was checked.
    (tmp_path / "data").mkdir()
    for name in other:
        (tmp_path / "data" / name).write_text("notes", "utf-8")
    monkeypatch.chdir(tmp_path)
    result = run_cli("check", "--engine", engine)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("conforms: 0 violation(s)")
    assert result.stderr == (
        "data: warning: no entries: the folder holds no *.ttl file (an empty anthology: "
        "nothing to check)\n"
    )
    result = run_cli("fmt", "--check")
    assert result.exit_code == 0, result.output
    assert "data: warning: no entries" in result.stderr


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(
    ("make", "said"),
    [
        (lambda path: path.mkdir(), "a folder, not a file"),
        (lambda path: os.symlink("waivers.ttl", path), "a symlink loop"),
        (lambda path: os.symlink("gone.ttl", path), "no such file (a dangling symlink?)"),
    ],
)
@pytest.mark.parametrize("command", ["check", "validate"])
def test_a_waivers_file_that_is_no_file_is_an_input_error(root, engine, make, said, command):
    make(root / "waivers.ttl")
    result = run_cli(command, "--engine", engine)
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.stderr == f"waivers.ttl: cannot read: {said}\n"


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("fmt", ["text", "sarif"])
def test_validate_names_them_too(root, engine, fmt):
    expected = run_cli("validate", "--engine", engine, "--format", fmt)
    (root / "data" / "LIT-002.TTL").write_text("not read", "utf-8")
    (root / "ontology" / "shapes").mkdir(parents=True)
    (root / "ontology" / "shapes" / "MINE.TTL").write_text("not read", "utf-8")
    result = run_cli("validate", "--engine", engine, "--format", fmt)
    assert result.exit_code == expected.exit_code == 0, result.output
    assert result.stdout == expected.stdout
    assert result.stderr == (
        "data/LIT-002.TTL: warning: not read: data files end in '.ttl', in lower case "
        "(rename it LIT-002.ttl)\n"
        "ontology/shapes/MINE.TTL: warning: not read: shapes files end in '.ttl', in lower "
        "case (rename it MINE.ttl)\n"
    )


def test_validate_names_an_empty_data_folder(tmp_path, monkeypatch):
    (tmp_path / "data").mkdir()
    monkeypatch.chdir(tmp_path)
    result = run_cli("validate", "--format", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["conforms"] is True
    assert result.stderr == (
        "data: warning: no entries: the folder holds no *.ttl file (an empty anthology: "
        "nothing to check)\n"
    )


def test_a_data_file_named_ttl_in_upper_case_is_named_by_export(root):
    expected = run_cli("export")
    (root / "data" / "LIT-002.TTL").write_text("not Turtle, and not exported", "utf-8")
    result = run_cli("export")
    assert result.exit_code == expected.exit_code == 0, result.output
    assert result.stdout == expected.stdout
    assert result.stderr == (
        "data/LIT-002.TTL: warning: not read: data files end in '.ttl', in lower case "
        "(rename it LIT-002.ttl)\n"
    )
    # --include ontology reads no data file: nothing to say
    assert run_cli("export", "--include", "ontology").stderr == ""


#: What check says of a Turtle file of the anthology's own ontology/ (hunt21 #13).
ONTOLOGY_NOT_READ = (
    "ontology/extra.ttl: warning: not read: the vocabulary is the bundled ontology;"
    " an anthology's own ontology/*.ttl is not read (its own rules are read from"
    " ontology/shapes/)\n"
)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("command", ["check", "validate"])
def test_an_own_ontology_file_is_named_as_not_read(root, engine, command):
    """Before, ontology/extra.ttl was passed over in silence, Turtle or not, though the
    pre-commit hook runs check when it is staged."""
    expected = run_cli(command, "--engine", engine)
    (root / "ontology").mkdir(exist_ok=True)
    (root / "ontology" / "extra.ttl").write_text("this is not turtle", "utf-8")
    result = run_cli(command, "--engine", engine)
    assert result.exit_code == expected.exit_code == 0, result.output
    assert result.stdout == expected.stdout
    assert result.stderr == ONTOLOGY_NOT_READ


def test_a_copy_of_the_bundled_ontology_is_not_named(root):
    """The bundled ontology in its own place (a checkout of this repository, whose
    anthology is the bundled one), or a copy of it, is what the tool reads."""
    from anthology_kg.resources import ontology_file

    (root / "ontology").mkdir(exist_ok=True)
    (root / "ontology" / "anthology.ttl").write_bytes(ontology_file().read_bytes())
    result = run_cli("check")
    assert result.exit_code == 0 and result.stderr == "", result.output
    result = run_cli("--root", str(ontology_file().parent.parent), "check")
    assert "warning" not in result.stderr, result.stderr
