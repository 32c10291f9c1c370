from conftest import FIXTURES, run_cli


def test_stats_on_bundled_anthology():
    result = run_cli("stats")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("triples: ")
    assert int(lines[0].split(": ")[1]) > 50
    assert "  ak:Reference: 2" in lines
    assert "  ak:infrastructure: 1" in lines
    assert "  ARXIV-2409.19256.ttl" in lines


def test_stats_on_fixture_root():
    result = run_cli("--root", str(FIXTURES / "minimal"), "stats")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[:2] == ["triples: 4", "entries: 1"]
    assert "  ak:method: 1" in result.stdout
    assert "files read: 1" in result.stdout


def test_version_and_help():
    assert run_cli("--version").stdout.startswith("anthology-kg, version ")
    result = run_cli("--help")
    assert result.exit_code == 0 and "--root" in result.stdout
    assert run_cli("stats", "--help").exit_code == 0
