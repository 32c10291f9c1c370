"""The format of a command's output: --format on the command line, else the one -o's
extension implies, else the configuration file's [format] (review3 R5: the README's
config example 'validate = "github"' wrote GitHub annotations into anthology.sarif)."""

from __future__ import annotations

import json

from conftest import run_cli


def test_the_extension_of_o_wins_over_the_configuration(bundled_copy, monkeypatch):
    (bundled_copy / "anthology-kg.toml").write_text(
        '[format]\nvalidate = "github"\nexport = "nquads"\n', encoding="utf-8"
    )
    monkeypatch.chdir(bundled_copy)
    assert run_cli("validate", "-o", "a.sarif").exit_code == 0
    assert json.loads((bundled_copy / "a.sarif").read_text(encoding="utf-8"))["runs"]
    assert run_cli("validate", "-o", "a.log").exit_code == 0  # no format of its own
    assert (bundled_copy / "a.log").read_text(encoding="utf-8").startswith("::notice ")
    assert run_cli("validate", "--format", "text", "-o", "b.sarif").exit_code == 0
    assert (bundled_copy / "b.sarif").read_text(encoding="utf-8").startswith("data/")
    assert run_cli("export", "-o", "g.ttl").exit_code == 0
    assert (bundled_copy / "g.ttl").read_text(encoding="utf-8").startswith("@prefix ")
    assert run_cli("export").stdout.startswith("<")  # N-Quads, as configured


def test_o_with_the_w3c_reports_extension_writes_that_graph(tmp_path):
    """hunt7 #12: ``validate -o x.ttl`` (or .jsonld) wrote the text report."""
    from conftest import FIXTURES

    root = str(FIXTURES / "minimal")
    for name, read in (("x.ttl", str.strip), ("x.jsonld", json.loads)):
        result = run_cli("--root", root, "validate", "-o", str(tmp_path / name))
        assert result.exit_code == 1, result.output  # the fixture breaks rule 1
        written = (tmp_path / name).read_text(encoding="utf-8")
        assert read(written) and "ValidationReport" in written, written[:200]
        assert not written.startswith("data/"), written[:200]  # (the text report)


def test_diff_o_writes_the_format_of_its_extension(tmp_path):
    """diff has --format and -o too: ``-o changes.json`` wrote text."""
    import shutil

    from conftest import FIXTURES

    for name in ("a", "b"):
        shutil.copytree(FIXTURES / "minimal" / "data", tmp_path / name / "data")
    folders = (str(tmp_path / "a"), str(tmp_path / "b"))
    for name, check in (("d.json", lambda t: json.loads(t)["equal"]), ("d.md", str)):
        assert run_cli("diff", *folders, "-o", str(tmp_path / name)).exit_code == 0
        assert check((tmp_path / name).read_text(encoding="utf-8"))
    assert (tmp_path / "d.md").read_text(encoding="utf-8") != ""
    run_cli("diff", *folders, "--format", "text", "-o", str(tmp_path / "e.json"))
    assert not (tmp_path / "e.json").read_text(encoding="utf-8").startswith("{")


def test_every_command_with_format_and_o_maps_extensions_to_its_formats():
    """A command writing a file in a format of its choice picks it from -o's extension
    (config.OUTPUT_FORMATS), and each extension names one of the command's formats."""
    import click

    from anthology_kg.cli import main
    from anthology_kg.config import OUTPUT_FORMATS

    both = {}
    for name, command in main.commands.items():
        params = {p.name: p for p in command.params}
        if "fmt" in params and "output" in params:
            assert isinstance(params["fmt"].type, click.Choice)
            both[name] = set(params["fmt"].type.choices)
    assert set(both) == set(OUTPUT_FORMATS)
    for name, implied in OUTPUT_FORMATS.items():
        assert set(implied.values()) <= both[name], name


def test_an_error_about_the_format_names_where_the_format_came_from(tmp_path, monkeypatch):
    """hunt7 #14: a format the configuration file (or -o's extension) chose was blamed on
    a --format the user did not type."""
    import shutil

    from conftest import FIXTURES

    shutil.copytree(FIXTURES / "minimal" / "data", tmp_path / "data")
    (tmp_path / "anthology-kg.toml").write_text('\n[format]\nvalidate = "turtle"\n', "utf-8")
    monkeypatch.chdir(tmp_path)
    for options, named in (
        ((), "the format turtle (format.validate in anthology-kg.toml:3)"),
        (("-o", "x.jsonld"), "the format jsonld (-o x.jsonld)"),
        (("--format", "jsonld"), "--format jsonld"),
    ):
        result = run_cli("validate", "--baseline", ".", *options)
        assert result.exit_code == 2, result.output
        assert result.stderr.startswith(f"anthology-kg: --baseline does not apply to {named}:")
    result = run_cli("diff", ".", ".", "--query", "x", "-o", "d.nq")
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("anthology-kg: the format nquads (-o d.nq) does not apply")
    assert not (tmp_path / "x.jsonld").exists() and not (tmp_path / "d.nq").exists()
