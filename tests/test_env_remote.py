"""The remote commands in the network environment CI gives them: the proxy that
HTTPS_PROXY, HTTP_PROXY or ALL_PROXY names (NO_PROXY heeded, a store on this machine
reached directly) and the certificate authorities SSL_CERT_FILE or SSL_CERT_DIR names,
as httpx, curl and pip take them; a proxy or a file that cannot be used is one line,
exit 2, that shows no password."""

from __future__ import annotations

import json
import re
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import certifi
import pytest
from conftest import run_cli
from stores import send_answer, served

from anthology_kg import endpoint

PROXY_VARIABLES = ("HTTPS_PROXY", "HTTP_PROXY", "ALL_PROXY", "NO_PROXY")
ANSWER = json.dumps({"head": {"vars": ["x"]}, "results": {"bindings": []}}).encode()
#: What a query sends: the probe of the data graph (RemoteEngine.query), then the query.
TWICE = 2


@pytest.fixture(autouse=True)
def no_environment_proxy(monkeypatch):
    """None of the machine's proxy or certificate settings: each test sets its own."""
    for name in (*PROXY_VARIABLES, "SSL_CERT_FILE", "SSL_CERT_DIR"):
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.lower(), raising=False)


class _Answering(BaseHTTPRequestHandler):
    """A store, or a proxy answering for any store: every request gets an empty SELECT
    answer and its method and URL are kept (a proxy is sent the whole URL)."""

    seen: list[str] = []

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.seen.append(f"{self.command} {self.path.partition('?')[0]}")  # (then the graphs)
        send_answer(self, ANSWER)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def query(tmp_path: Path) -> str:
    path = tmp_path / "q.rq"
    path.write_text("SELECT ?x WHERE {}\n", encoding="utf-8")
    return str(path)


def test_a_store_is_reached_through_the_proxy_the_environment_names(monkeypatch, query):
    _Answering.seen = []
    with served(_Answering) as proxy:
        monkeypatch.setenv("HTTP_PROXY", proxy)
        # store.invalid resolves nowhere (RFC 6761): only the proxy can answer for it.
        result = run_cli("sparql", "--endpoint", "http://store.invalid/query", query)
        assert result.exit_code == 0, result.stderr
        assert _Answering.seen == ["POST http://store.invalid/query"] * TWICE
        monkeypatch.setenv("NO_PROXY", "store.invalid")
        refused = run_cli("sparql", "--endpoint", "http://store.invalid/query", query)
        assert refused.exit_code == 2
        assert "cannot connect" in refused.stderr
        assert len(_Answering.seen) == TWICE


def test_a_store_on_this_machine_is_reached_directly(monkeypatch, query):
    _Answering.seen = []
    monkeypatch.setenv("HTTP_PROXY", "http://proxy.invalid:3128")
    with served(_Answering) as store:
        result = run_cli("sparql", "--endpoint", f"{store}/query", query)
    assert result.exit_code == 0, result.stderr
    assert _Answering.seen == ["POST /query"] * TWICE


def test_a_proxy_that_cannot_be_used_is_one_line_without_its_password(monkeypatch, query):
    monkeypatch.setenv("HTTPS_PROXY", "ftp://user:s3cret@proxy.invalid:21")
    result = run_cli("sparql", "--endpoint", "https://store.invalid/query", query)
    assert result.exit_code == 2
    assert result.stderr.startswith("anthology-kg: cannot use the proxy the environment names")
    assert "s3cret" not in result.stderr
    assert result.stderr.count("\n") == 1


def test_the_certificate_authorities_ssl_cert_file_names_are_trusted(tmp_path, monkeypatch):
    first = re.search(
        r"-----BEGIN CERTIFICATE-----.*?-----END CERTIFICATE-----\n",
        Path(certifi.where()).read_text(encoding="ascii"),
        re.DOTALL,
    )
    assert first is not None
    authority = tmp_path / "ca.pem"
    authority.write_text(first.group(), encoding="ascii")
    assert len(endpoint._tls().get_ca_certs()) > 1  # certifi's
    monkeypatch.setenv("SSL_CERT_FILE", str(authority))
    assert len(endpoint._tls().get_ca_certs()) == 1


def test_a_certificate_file_that_cannot_be_read_is_one_line(tmp_path, monkeypatch, query):
    monkeypatch.setenv("SSL_CERT_FILE", str(tmp_path / "missing.pem"))
    result = run_cli("sparql", "--endpoint", "https://store.invalid/query", query)
    assert result.exit_code == 2
    assert result.stderr == (
        f"anthology-kg: SSL_CERT_FILE={tmp_path / 'missing.pem'}: cannot load the certificate "
        "authorities it names (No such file or directory)\n"
    )
