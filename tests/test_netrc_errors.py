"""A netrc file (``$NETRC``, else ``~/.netrc``) that cannot be read, is not UTF-8 text or
does not parse gives no credentials, and the command says so once on stderr, naming the
file and what is wrong (hunt1 F2: a non-UTF-8 one was a UnicodeDecodeError traceback,
exit 1; one that did not parse was silently ignored, leaving a bare 401)."""

from __future__ import annotations

import locale
from pathlib import Path

import pytest
from conftest import run_cli
from stores import recording_store

from anthology_kg.endpoint import ENV_TOKEN, ENV_USER, credentials_for

TAIL = "; no credentials are taken from it"


@pytest.fixture(autouse=True)
def _no_credentials_in_the_environment(tmp_path, monkeypatch):
    monkeypatch.delenv(ENV_TOKEN, raising=False)
    monkeypatch.delenv(ENV_USER, raising=False)
    monkeypatch.delenv("NETRC", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (tmp_path / "home").mkdir()


def _netrc(tmp_path: Path, content: bytes) -> Path:
    path = tmp_path / "netrc"
    path.write_bytes(content)
    path.chmod(0o600)
    return path


def _noted(monkeypatch, netrc: Path | str, *options: str) -> tuple[str, list[str]]:
    """stderr of ``query unread`` on a store that refuses both ways of sending it (two
    requests: a direct POST, then a form), with ``$NETRC`` set to ``netrc``."""
    monkeypatch.setenv("NETRC", str(netrc))
    with recording_store(status=405) as (url, seen):
        result = run_cli(*options, "query", "unread", "--endpoint", f"{url}/q")
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and "HTTP 405" in result.stderr, result.stderr
    return result.stderr, seen


@pytest.mark.skipif(
    locale.getpreferredencoding(False).lower().replace("-", "") != "utf8",
    reason="Python's netrc reads a file that is not UTF-8 again in the locale's encoding",
)
def test_a_netrc_that_is_not_utf8_is_said_once(tmp_path, monkeypatch):
    netrc = _netrc(tmp_path, b"machine 127.0.0.1 login \xff\xfe password x\n")
    stderr, seen = _noted(monkeypatch, netrc)
    assert len(seen) == 2  # one note for the command, not one for each request
    assert stderr.count(TAIL) == 1, stderr
    assert f"anthology-kg: {netrc}: not UTF-8 text{TAIL}\n" in stderr, stderr


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (b"machine 127.0.0.1 login me password x\nfoo bar\n", "bad follower token 'foo'"),
        (b"foo bar\n", "bad toplevel token 'foo'"),
        (b"machine\n", "missing 'machine' name"),
    ],
    ids=["unknown-token", "top-level", "no-host"],
)
def test_a_netrc_that_does_not_parse_is_said_once_naming_the_problem(
    tmp_path, monkeypatch, content, said
):
    netrc = _netrc(tmp_path, content)
    stderr, _ = _noted(monkeypatch, netrc)
    assert stderr.count(TAIL) == 1, stderr
    assert f"anthology-kg: {netrc}: {said}{TAIL}\n" in stderr, stderr


def test_a_netrc_that_cannot_be_read_is_said(tmp_path, monkeypatch):
    stderr, _ = _noted(monkeypatch, tmp_path)  # a folder
    assert f"anthology-kg: {tmp_path}: cannot read (Is a directory){TAIL}\n" in stderr, stderr


def test_quiet_leaves_the_note_out(tmp_path, monkeypatch):
    stderr, _ = _noted(monkeypatch, _netrc(tmp_path, b"foo bar\n"), "--quiet")
    assert TAIL not in stderr, stderr


def test_no_note_for_a_good_netrc_or_none(tmp_path, monkeypatch):
    stderr, _ = _noted(monkeypatch, _netrc(tmp_path, b"machine 127.0.0.1 login me password x\n"))
    assert TAIL not in stderr, stderr
    stderr, _ = _noted(monkeypatch, tmp_path / "missing")  # a CI job's NETRC=/nonexistent
    assert TAIL not in stderr, stderr
    monkeypatch.delenv("NETRC")
    with recording_store(status=405) as (url, _):
        result = run_cli("query", "unread", "--endpoint", f"{url}/q")
    assert result.exit_code == 2 and TAIL not in result.stderr, result.stderr


def test_the_library_tells_its_warn_and_returns_no_credentials(tmp_path, monkeypatch):
    monkeypatch.setenv("NETRC", str(_netrc(tmp_path, b"foo bar\n")))
    said: list[str] = []
    assert credentials_for("http://127.0.0.1/q", said.append) is None
    assert said == [f"{tmp_path / 'netrc'}: bad toplevel token 'foo'{TAIL}"]
    with pytest.warns(UserWarning, match="bad toplevel token"):
        assert credentials_for("http://127.0.0.1/q") is None
