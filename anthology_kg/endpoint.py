"""Talking to a SPARQL 1.1 store over HTTP (httpx): the Protocol for queries, the Graph
Store HTTP Protocol for uploads.

Credentials never come from the command line: ``ANTHOLOGY_KG_TOKEN`` (a bearer token),
else ``ANTHOLOGY_KG_USER`` and ``ANTHOLOGY_KG_PASSWORD``, else the host's entry in
``~/.netrc`` (or ``$NETRC``); a netrc file that cannot be read, is not UTF-8 text or
does not parse gives none, and the connection's ``warn`` says so. A user and password
answer the store's challenge, HTTP Basic or Digest, whichever it asks for. Every failure
is an AnthologyError of one line that names the URL (without credentials) and never
shows a secret. The proxy (HTTPS_PROXY, HTTP_PROXY, ALL_PROXY, NO_PROXY) and the
certificate authorities (SSL_CERT_FILE, SSL_CERT_DIR) are the environment's.
"""

from __future__ import annotations

import base64
import functools
import json
import netrc
import os
import re
import ssl
import threading
import time
import urllib.parse
import warnings
import weakref
from collections.abc import Callable, Generator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from html.parser import HTMLParser
from http.cookiejar import CookieJar, DefaultCookiePolicy

import httpx
import pyoxigraph as ox
from rdflib import BNode, URIRef
from rdflib.term import Node

from .choices import HTTP_TIMEOUT as DEFAULT_TIMEOUT
from .choices import METHODS as METHODS
from .errors import AnthologyError, TimedOut, clipped
from .query_result import QueryResult, graph_from_ox, in_select_star_order
from .rdflib_sparql import query_kind
from .sources import utf8_text
from .sparql_text import VARNAME
from .terms import from_ox

# DEFAULT_TIMEOUT: seconds a request may take in all, from connecting to the last byte of
# the answer. METHODS: how a query is sent (``auto`` tries ``post`` and falls back to
# ``form`` when the store refuses it or sends no status line within PROBE_SECONDS:
# Virtuoso 7.2 never answers one). Both in choices.py, for the command line.
PROBE_SECONDS = 3.0
_REFUSED = {405, 406, 415, 501}
ENV_TOKEN, ENV_USER, ENV_PASSWORD = (
    "ANTHOLOGY_KG_TOKEN",
    "ANTHOLOGY_KG_USER",
    "ANTHOLOGY_KG_PASSWORD",
)


@dataclass(frozen=True)
class Credentials:
    """A bearer token, or a user and password (for Basic or Digest)."""

    user: str | None = None
    password: str | None = field(default=None, repr=False)
    token: str | None = field(default=None, repr=False)

    @property
    def secrets(self) -> list[str]:
        return [s for s in (self.password, self.token) if s]


def _tls() -> ssl.SSLContext:
    """The TLS settings of a client: the certificate authorities of the file
    ``SSL_CERT_FILE`` or the folder ``SSL_CERT_DIR`` names, else certifi's (as httpx,
    curl and pip take them); an AnthologyError naming the variable when they cannot be
    loaded."""
    cafile, capath = os.environ.get("SSL_CERT_FILE") or None, os.environ.get("SSL_CERT_DIR")
    try:
        return _tls_from(cafile, None if cafile else capath or None)
    except (OSError, ssl.SSLError) as exc:
        variable = "SSL_CERT_FILE" if cafile else "SSL_CERT_DIR"
        reason = getattr(exc, "strerror", None) or getattr(exc, "reason", None) or exc
        raise AnthologyError(
            f"{variable}={cafile or capath}: cannot load the certificate authorities it "
            f"names ({reason})"
        ) from None


@functools.cache
def _tls_from(cafile: str | None, capath: str | None) -> ssl.SSLContext:
    """The TLS settings trusting ``cafile`` or ``capath`` (None: certifi's), made once a
    process: loading them takes ~15 ms of CPU, the rest of a client ~0.02 ms."""
    if cafile or capath:
        return ssl.create_default_context(cafile=cafile, capath=capath)
    return httpx.create_ssl_context(trust_env=False)


#: Stores on this machine are reached directly whatever proxy the environment names (as
#: Go's clients do): ``serve`` and a local store behind a proxy meant for the outside.
_DIRECT = {"all://localhost": None, "all://127.0.0.1": None, "all://[::1]": None}


class _BodyDropped(Exception):
    """A redirect that httpx would follow as a GET without the request's body."""

    def __init__(self, status: int, target: str):
        super().__init__(status, target)
        self.status = status
        self.target = target


def _refuse_a_redirect_that_drops_the_body(response: httpx.Response) -> None:
    """Stop before following a redirect that turns a request with a body into a GET
    without it (httpx does as browsers do: 302 and 303 turn any method but HEAD into a
    GET, 301 a POST): a write would be reported done with nothing written, a query
    answered without its text. 307 and 308 keep the method and the body."""
    method, status = response.request.method, response.status_code
    if not response.has_redirect_location or method in ("GET", "HEAD"):
        return
    if status in (302, 303) or (status == 301 and method == "POST"):
        target = response.request.url.join(response.headers["location"])
        raise _BodyDropped(status, str(target))


def _as_sent(url: str) -> str:
    """``url`` as httpx sends it (a space or an é percent-encoded): what the URL a
    request reached is compared with, to tell a redirect."""
    try:
        return str(httpx.URL(url))
    except httpx.InvalidURL:
        return url


def _reached(error: object) -> str | None:
    """The URL of the request an httpx error came from (a redirect's target, maybe)."""
    try:
        return str(error.request.url)  # type: ignore[attr-defined]
    except (AttributeError, RuntimeError):  # not an httpx error, or one without a request
        return None


class _Pool:
    """One httpx client, made at the first request and kept for the next ones, so that
    they reuse its open connections (keep-alive) instead of connecting anew each time."""

    def __init__(self) -> None:
        self._client: httpx.Client | None = None
        self._lock = threading.Lock()

    def client(self) -> httpx.Client:
        with self._lock:
            if self._client is None:
                self._client = _client(_tls())
                weakref.finalize(self, self._client.close)
            return self._client

    def close(self) -> None:
        with self._lock:
            client, self._client = self._client, None
        if client is not None:
            client.close()


def _client(tls: ssl.SSLContext) -> httpx.Client:
    """An httpx client trusting ``tls``, through the proxy the environment names for a
    URL (HTTPS_PROXY, HTTP_PROXY, ALL_PROXY, NO_PROXY, as httpx reads them with
    ``trust_env``: httpx from 0.24 reads no netrc file, the credentials are this module's
    own); an AnthologyError for a proxy it cannot use (httpx hides its password)."""
    try:
        return httpx.Client(
            follow_redirects=True,
            trust_env=True,
            verify=tls,
            mounts=dict(_DIRECT),
            # No cookie is kept from one request to the next: each request is
            # answered on its own credentials, as with a client per request.
            cookies=CookieJar(DefaultCookiePolicy(allowed_domains=[])),
            event_hooks={"response": [_refuse_a_redirect_that_drops_the_body]},
        )
    except (ImportError, ValueError, httpx.InvalidURL) as exc:
        raise AnthologyError(
            f"cannot use the proxy the environment names (HTTPS_PROXY, HTTP_PROXY or "
            f"ALL_PROXY): {' '.join(str(exc).split())}"
        ) from None


def _warn(message: str) -> None:
    warnings.warn(message, stacklevel=2)


@dataclass(frozen=True)
class Connection:
    """How requests reach a store: the total timeout, the query method, and where the
    credentials come from (``credentials`` None: the environment or ~/.netrc; ``warn``
    is told, once, of a netrc file that gives none for being unreadable or malformed).

    Its requests share one HTTP client (open connections are reused, to every store it
    reaches); ``close()``, or leaving a ``with Connection(...)`` block, closes them. A
    request made after ``close()`` opens a new client."""

    timeout: float = DEFAULT_TIMEOUT
    method: str = "auto"
    credentials: Credentials | None = None
    warn: Callable[[str], None] = field(default=_warn, repr=False, compare=False)
    _pool: _Pool = field(default_factory=_Pool, init=False, repr=False, compare=False)
    _warned: set[str] = field(default_factory=set, init=False, repr=False, compare=False)
    #: The endpoints found to take queries only as a form (``send_query``).
    _form_only: set[str] = field(default_factory=set, init=False, repr=False, compare=False)

    def __post_init__(self):
        if self.method not in METHODS:
            raise AnthologyError(f"--method is one of {', '.join(METHODS)}")
        timeout = self.timeout
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not timeout > 0:
            raise AnthologyError("--timeout is a number of seconds above 0")

    def warn_once(self, message: str) -> None:
        """``warn`` of ``message`` unless this connection has already said it (each
        request reads ~/.netrc anew)."""
        if message not in self._warned:
            self._warned.add(message)
            self.warn(message)

    def client(self) -> httpx.Client:
        """The HTTP client the requests of this connection share."""
        return self._pool.client()

    @property
    def form_only(self) -> frozenset[str]:
        """The query endpoints (without their query strings) that the ``auto`` method
        found to take a query only as a form: its later queries to them go as one."""
        return frozenset(self._form_only)

    def close(self) -> None:
        """Close the shared client and its open connections."""
        self._pool.close()

    def __enter__(self) -> Connection:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


@contextmanager
def _opened(connection: Connection | None) -> Iterator[Connection]:
    """``connection``, or a default one made for one call and closed after it."""
    if connection is not None:
        yield connection
        return
    with Connection() as made:
        yield made


def check_url(url: str) -> str:
    """``url`` if it is an absolute http or https URL with a host (and a port, if it
    names one, in 0-65535), else an AnthologyError saying so: every request to it would
    fail alike, or raise before it is sent."""
    refused = f"{clipped(url)} is not an http:// or https:// URL"
    utf8_text(url, "the URL")
    try:
        parts = urllib.parse.urlsplit(url)
        parts.port  # noqa: B018 - read for its check: a port not a number in range raises
    except ValueError as exc:  # that, or a broken [IPv6] bracket
        reason = str(exc)
        raise AnthologyError(f"{refused} ({reason[:1].lower()}{reason[1:]})") from None
    if parts.scheme not in ("http", "https"):
        raise AnthologyError(refused)
    if not parts.hostname:
        raise AnthologyError(f"{refused} (no host)")
    return url


def check_graph(iri: str) -> str:
    """``iri`` if it is an absolute IRI as pyoxigraph parses one (as --base is checked),
    else an AnthologyError: a graph's name goes as it is into a request's parameters and
    an update's text."""
    try:
        ox.NamedNode(iri)
    except ValueError as exc:
        raise AnthologyError(f"{clipped(iri)} is not an absolute IRI: {exc}") from None
    return iri


def shown(url: str) -> str:
    """``url`` as it may be printed: no credentials, no query string (a URL that does
    not parse, as written up to its query string, without what precedes an ``@``)."""
    try:
        parts = urllib.parse.urlsplit(url)
        host, port = parts.hostname or "", parts.port
    except ValueError:
        return re.sub(r"(?<=//)[^/?#]*@", "", url.split("?", 1)[0].split("#", 1)[0])
    if ":" in host:  # an IPv6 address, bracketed again (hostname drops the brackets)
        host = f"[{host}]"
    if port is not None:
        host = f"{host}:{port}"
    return urllib.parse.urlunsplit((parts.scheme, host, parts.path, "", ""))


def credentials_for(url: str, warn: Callable[[str], None] = _warn) -> Credentials | None:
    """The credentials for ``url``'s host: from the environment, else ~/.netrc (one that
    cannot be read, is not UTF-8 text or does not parse gives none: ``warn`` says why).

    A URL that carries credentials itself is refused: they would sit on the command
    line, in the shell's history and in process listings.
    """
    parts = urllib.parse.urlsplit(url)
    if parts.username is not None or parts.password is not None:
        raise AnthologyError(
            f"{shown(url)}: credentials in the URL are not accepted; set {ENV_USER} and "
            f"{ENV_PASSWORD} (or {ENV_TOKEN}) in the environment, or use ~/.netrc"
        )
    if os.environ.get(ENV_TOKEN):
        return Credentials(token=os.environ[ENV_TOKEN])
    if os.environ.get(ENV_USER):
        return Credentials(os.environ[ENV_USER], os.environ.get(ENV_PASSWORD, ""))
    found = _netrc_entry(parts.hostname or "", warn)
    if found:
        user, _, password = found
        return Credentials(user, password or "")
    return None


def _netrc_entry(
    host: str, warn: Callable[[str], None]
) -> tuple[str, str | None, str | None] | None:
    """``host``'s login, account and password in ``$NETRC``, else ``~/.netrc``; None when
    the file names no such host, or (``warn`` says which and why, the sentence naming the
    file) cannot be read, is not UTF-8 text or does not parse. No such file is no news
    (``NETRC=/nonexistent`` is how a CI job keeps a runner's ~/.netrc out)."""
    given = os.environ.get("NETRC")
    name = given or "~/.netrc"
    problem = None
    try:
        return netrc.netrc(given).authenticators(host)
    except FileNotFoundError:
        pass
    except OSError as exc:
        problem = f"{name}: cannot read ({exc.strerror or type(exc).__name__})"
    except UnicodeDecodeError:  # (after netrc's own retry in the locale's encoding)
        problem = f"{name}: not UTF-8 text"
    except netrc.NetrcParseError as exc:
        # Without exc.lineno: it is one line on when the bad token ends its line.
        problem = f"{name}: {exc.msg}"
    if problem:
        warn(f"{problem}; no credentials are taken from it")
    return None


class _StoreAuth(httpx.Auth):
    """Answer the store's challenge: a bearer token is sent up front; a user and
    password answer a 401 with Basic or Digest, as the store asks."""

    requires_request_body = True

    def __init__(self, credentials: Credentials):
        self.credentials = credentials

    def auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        if self.credentials.token:
            request.headers["Authorization"] = f"Bearer {self.credentials.token}"
            yield request
            return
        response = yield request
        if response.status_code != 401:
            return
        challenge = response.headers.get("www-authenticate", "")
        user, password = self.credentials.user or "", self.credentials.password or ""
        if challenge.lower().startswith("digest"):
            # httpx's Digest flow first sends the request bare: that answer is this one.
            flow = httpx.DigestAuth(user, password).auth_flow(request)
            next(flow)
            try:
                retried = flow.send(response)
                while True:
                    retried = flow.send((yield retried))
            except StopIteration:
                return
        elif challenge.lower().startswith("basic") or not challenge:
            token = base64.b64encode(f"{user}:{password}".encode()).decode("ascii")
            request.headers["Authorization"] = f"Basic {token}"
            yield request


class _Text(HTMLParser):
    """The text of an HTML page, without its scripts and styles."""

    def __init__(self):
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self._skip += 1
        elif tag in ("br", "p", "div", "pre", "tr", "li", "h1", "h2", "h3", "title"):
            self.parts.append("\n")

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self._skip:
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip:
            self.parts.append(data)


_SECRET_PARAMETER = re.compile(r"(?i)\b(password|passwd|pwd|token|secret|api[-_]?key)=([^&\s]+)")
_AUTH_HEADER = re.compile(r"(?i)\b(authorization:\s*\w+)\s+\S+")
_CAUSE = re.compile(r"(?i)error|exception|denied|forbidden|not allowed|invalid|unknown")


def error_text(body: bytes, content_type: str, secrets: list[str], limit: int = 300) -> str:
    """The meaningful text of an error body on one line: HTML stripped, from the first
    line that names an error (Virtuoso puts ``SQ110: Permission denied`` below a
    banner), secrets and credentials replaced by ``***``."""
    text = body.decode("utf-8", "replace")
    if "html" in content_type.lower() or text.lstrip().lower().startswith(("<!doctype", "<html")):
        parser = _Text()
        parser.feed(text)
        text = "".join(parser.parts)
    lines = [" ".join(line.split()) for line in text.splitlines()]
    lines = [line for line in lines if line]
    for index, line in enumerate(lines):
        if _CAUSE.search(line) and len(line.split()) > 2:  # not a bare "Error" title
            lines = lines[index:]
            break
    one = " ".join(lines)
    for secret in secrets:
        one = one.replace(secret, "***")
    one = _SECRET_PARAMETER.sub(r"\1=***", one)
    one = _AUTH_HEADER.sub(r"\1 ***", one)
    return one if len(one) <= limit else one[: limit - 1] + "…"


class RequestFailed(AnthologyError):
    """A request that failed. ``unknown``: it was sent but no whole answer came (a
    broken connection), so the store may have carried it out or not; otherwise it was
    not carried out (no connection, or the store answered an error: its HTTP
    ``status``)."""

    def __init__(self, message: str, unknown: bool = False, status: int | None = None):
        super().__init__(message)
        self.unknown = unknown
        self.status = status


class _Silent(Exception):
    """No status line came within the time a request was given to start answering."""


def left_unanswered(error: AnthologyError) -> bool:
    """Whether the failed request may have been carried out all the same: it got no
    whole answer (TimedOut, or a RequestFailed that is ``unknown``)."""
    return isinstance(error, TimedOut) or (isinstance(error, RequestFailed) and error.unknown)


@dataclass
class Answer:
    """A store's answer: status, content type and the whole body."""

    status: int
    content_type: str
    body: bytes


def request(
    url: str,
    *,
    method: str = "GET",
    data: bytes | None = None,
    headers: dict[str, str] | None = None,
    params: list[tuple[str, str]] | None = None,
    connection: Connection | None = None,
    deadline: float | None = None,
    status_within: float | None = None,
) -> Answer:
    """One HTTP exchange, read in full within the connection's timeout (a store that
    drips its answer is cut at the deadline too), or by ``deadline`` (``time.monotonic``)
    when given. A URL that is no http or https URL (``check_url``), an HTTP error
    status, a refused or broken connection, or no answer in time (TimedOut) is an
    AnthologyError naming the URL; no status line within ``status_within`` seconds is
    ``_Silent`` (the request's connection closed)."""
    check_url(url)
    with _opened(connection) as opened:
        return _exchange(url, method, data, headers, params, opened, deadline, status_within)


def _exchange(
    url: str,
    method: str,
    data: bytes | None,
    headers: dict[str, str] | None,
    params: list[tuple[str, str]] | None,
    connection: Connection,
    deadline: float | None,
    status_within: float | None,
) -> Answer:
    credentials = connection.credentials or credentials_for(url, connection.warn_once)
    secrets = credentials.secrets if credentials else []
    # inf (--timeout inf) or any number past what a thread's wait takes is no limit.
    limit = min(connection.timeout, threading.TIMEOUT_MAX)
    started = time.monotonic()
    wait = limit if deadline is None else min(limit, max(deadline - started, 0.0))
    where = f"{method} {shown(url)}"
    outcome: dict[str, object] = {}
    answering = threading.Event()
    # A probe's first read waits ``status_within`` for the status line, and httpx then
    # closes the connection: Virtuoso 7.2 holds a thread for as long as a direct POST
    # it never answers is open, and the form sent next would wait behind it.
    probing = status_within is not None and status_within < wait
    timeout = httpx.Timeout(wait, read=status_within) if probing else httpx.Timeout(wait)

    client = connection.client()

    def exchange() -> None:
        try:
            query = httpx.QueryParams(tuple(params)) if params else None
            with client.stream(
                method,
                url,
                content=data,
                headers=headers,
                params=query,
                auth=_StoreAuth(credentials) if credentials else None,
                timeout=timeout,
            ) as r:
                answering.set()
                if probing:
                    # The body's reads get the time left: httpcore takes the read
                    # timeout from the request's extensions as it starts on the body.
                    left = max(started + wait - time.monotonic(), 0.0)
                    r.request.extensions["timeout"]["read"] = left
                outcome["body"] = b"".join(r.iter_bytes())
                outcome["response"] = r
        except Exception as exc:  # handed to the caller's thread below
            outcome["error"] = exc

    # httpx bounds each read, not the whole exchange: a store that drips its headers or
    # its body a byte at a time would never time out. The exchange runs in a thread
    # that is given up on at the deadline (it ends at its next read timeout, or when the
    # connection's client is closed).
    worker = threading.Thread(target=exchange, daemon=True)
    worker.start()
    worker.join(wait)
    if worker.is_alive():
        raise TimedOut(limit, shown(url))
    error = outcome.get("error")
    if probing and isinstance(error, httpx.ReadTimeout) and not answering.is_set():
        raise _Silent()
    if isinstance(error, httpx.TimeoutException):
        raise TimedOut(limit, shown(url))
    if isinstance(error, _BodyDropped):
        raise RequestFailed(
            f"{where}: the store redirects it (HTTP {error.status}) to {shown(error.target)}, "
            "which would get it as a GET without its body; nothing was sent there: use that "
            "URL instead"
        )
    response = outcome.get("response")
    if isinstance(response, httpx.Response):
        reached = str(response.url) if response.history else None
    else:  # the failed request: a redirect's if its URL is not the one asked for
        reached = _reached(error)
    if reached is not None and shown(reached) != shown(_as_sent(url)):
        where = f"{where} (redirected to {shown(reached)})"
    if isinstance(error, httpx.ConnectError):
        raise RequestFailed(f"{where}: cannot connect ({_reason(error, secrets)})")
    if isinstance(error, (httpx.RemoteProtocolError, httpx.DecodingError)):
        raise RequestFailed(
            f"{where}: the answer is not valid HTTP or was cut short ({_reason(error, secrets)})",
            unknown=True,
        )
    if isinstance(error, httpx.HTTPError):
        raise RequestFailed(f"{where}: {_reason(error, secrets)}", unknown=True)
    if isinstance(error, Exception):
        raise error
    r = outcome["response"]
    body = outcome["body"]
    assert isinstance(r, httpx.Response) and isinstance(body, bytes)
    content_type = r.headers.get("content-type", "")
    if r.status_code >= 400:
        detail = error_text(body, content_type, secrets)
        hint = ""
        if r.status_code == 401:
            if not _sends_credentials(url, str(r.url)):
                hint = (
                    " (the store redirected it to another origin, to which credentials "
                    "are not sent: use that URL)"
                )
            elif credentials is None:
                hint = (
                    f" (no credentials: set {ENV_USER}/{ENV_PASSWORD} or {ENV_TOKEN}, or ~/.netrc)"
                )
            else:
                hint = " (the credentials were refused)"
        raise RequestFailed(
            f"{where}: HTTP {r.status_code} {r.reason_phrase}{hint}"
            + (f": {detail}" if detail else ""),
            status=r.status_code,
        )
    return Answer(r.status_code, content_type, body)


def _sends_credentials(requested: str, reached: str) -> bool:
    """Whether httpx sends a request's credentials on to the URL it was redirected to:
    the same origin, or the same host upgraded from http to https (its default ports)."""
    a, b = httpx.URL(requested), httpx.URL(reached)
    if (a.scheme, a.host, a.port) == (b.scheme, b.host, b.port):
        return True
    upgraded = (a.scheme, b.scheme) == ("http", "https") and a.port in (None, 80)
    return upgraded and a.host == b.host and b.port in (None, 443)


def _reason(exc: Exception, secrets: list[str]) -> str:
    text = str(exc) or type(exc).__name__
    for secret in secrets:
        text = text.replace(secret, "***")
    return " ".join(text.split())[:200]


def http(
    url: str,
    *,
    method: str = "GET",
    data: bytes | None = None,
    headers: dict[str, str] | None = None,
    connection: Connection | None = None,
) -> bytes:
    """The body of one HTTP exchange (see ``request``)."""
    return request(url, method=method, data=data, headers=headers, connection=connection).body


def send_query(endpoint: str, text: str, accept: str, connection: Connection) -> Answer:
    """Send query ``text`` with the connection's method. ``auto``: a direct POST, sent
    again as a form when the store refuses it (HTTP 405, 406, 415, 501) or sends no
    status line within PROBE_SECONDS (Virtuoso 7.2 never answers one), within what is
    left of the connection's timeout; the connection then sends that endpoint's later
    queries as a form (``Connection.form_only``). A store that starts answering is
    waited for, the query sent once."""
    base, _, query_string = endpoint.partition("?")
    params = urllib.parse.parse_qsl(query_string, keep_blank_values=True)
    method = connection.method
    if method == "auto":
        method = "form"
        if base not in connection._form_only:
            deadline = time.monotonic() + connection.timeout
            try:
                return _query_request(
                    "post", base, params, text, accept, connection, deadline, PROBE_SECONDS
                )
            except RequestFailed as exc:
                if exc.status not in _REFUSED:
                    raise
            except _Silent:
                pass
            connection._form_only.add(base)
            return _query_request(method, base, params, text, accept, connection, deadline)
    return _query_request(method, base, params, text, accept, connection)


def _query_request(
    method: str,
    base: str,
    params: list[tuple[str, str]],
    text: str,
    accept: str,
    connection: Connection,
    deadline: float | None = None,
    status_within: float | None = None,
) -> Answer:
    """One query request sent as ``method`` says (SPARQL 1.1 Protocol 2.1): ``post``,
    the query as the body; ``get``, a ``query`` parameter; ``form``, a URL-encoded body.
    The endpoint's own parameters (``params``) stay in the URL, or join the form."""
    if method == "post":
        data: bytes | None = text.encode("utf-8")
        headers = {"Content-Type": "application/sparql-query"}
    elif method == "get":
        data, headers, params = None, {}, [*params, ("query", text)]
    else:
        data = urllib.parse.urlencode([*params, ("query", text)]).encode("ascii")
        headers, params = {"Content-Type": "application/x-www-form-urlencoded"}, []
    return request(
        base,
        method="GET" if method == "get" else "POST",
        data=data,
        params=params,
        headers={**headers, "Accept": accept},
        connection=connection,
        deadline=deadline,
        status_within=status_within,
    )


def _term(binding: object) -> Node:
    """The term of one binding of a SPARQL 1.1 JSON result (section 3.2.2) as a local run
    gives it: a literal through ``terms.from_ox``, its text as the store wrote it (rdflib
    would collapse the spaces of an xsd:token, write "1000"^^xsd:double as "1000.0").
    A blank node keeps whatever label the store gave (Virtuoso's ``nodeID://b1`` is no
    Turtle label, so pyoxigraph's own parser of results refuses such an answer)."""
    if not isinstance(binding, dict):
        raise ValueError("a binding that is not an object")
    kind, value = binding.get("type"), binding.get("value")
    if kind == "triple":  # SPARQL 1.2's form of a triple term
        raise AnthologyError(
            "the answer holds a triple term: RDF 1.2 triple terms are not supported"
        )
    if not isinstance(value, str):
        raise ValueError("a binding without a text value")
    if kind == "uri":
        ox.NamedNode(value)  # (its ValueError: not an IRI, which no local run gives)
        return URIRef(value)
    if kind == "bnode":
        return BNode(value)
    if kind not in ("literal", "typed-literal"):  # typed-literal: SPARQL 1.0's JSON form
        raise ValueError(f"a binding of unknown type {kind!r}")
    language, datatype = binding.get("xml:lang"), binding.get("datatype")
    if language:
        return from_ox(ox.Literal(value, language=language))
    if datatype:
        return from_ox(ox.Literal(value, datatype=ox.NamedNode(datatype)))
    return from_ox(ox.Literal(value))


def _variables(names: object) -> list[str]:
    """``head.vars`` of a SPARQL 1.1 JSON result (section 3.1): a list of distinct
    variable names; else ValueError."""
    if not (
        isinstance(names, list)
        and all(isinstance(name, str) and VARNAME.fullmatch(name) for name in names)
        and len(set(names)) == len(names)
    ):
        raise ValueError("vars that are not a list of distinct variable names")
    return names


def run_remote(
    endpoint: str, text: str, kind: str | None = None, *, connection: Connection | None = None
) -> QueryResult:
    """Run ``text`` on a SPARQL 1.1 Protocol endpoint and return the same QueryResult
    a local run gives (``kind``, when the caller knows it, spares parsing the query), a
    ``SELECT *``'s columns in the order a local run gives (``in_select_star_order``: the
    store's order is its own). An answer that is not what the protocol promises (not
    JSON, ``{}``, a binding without a value, Turtle that does not parse) is an
    AnthologyError."""
    answer = store_result(endpoint, text, kind, connection=connection)
    return in_select_star_order(answer, text)


def store_result(
    endpoint: str, text: str, kind: str | None = None, *, connection: Connection | None = None
) -> QueryResult:
    """``run_remote``'s answer with a ``SELECT *``'s columns in the store's order: for a
    caller that orders them by another text than the one sent (``RemoteEngine.query``
    sends its parameters in a VALUES block, which names them first)."""
    kind = kind or query_kind(text)
    accept = "text/turtle" if kind == "graph" else "application/sparql-results+json"
    with _opened(connection) as opened:
        answer = send_query(endpoint, text, accept, opened)
    where = shown(endpoint)
    if kind == "graph":
        try:
            answer.body.decode("utf-8")
            triples = ox.parse(answer.body, format=ox.RdfFormat.TURTLE)
            # (each term as a local run gives it)
            return QueryResult(kind="graph", graph=graph_from_ox(triples))
        except UnicodeDecodeError:
            raise AnthologyError(f"{where}: the Turtle answer is not UTF-8 text") from None
        except (SyntaxError, ValueError) as exc:
            first = " ".join(str(exc).split())[:200]
            raise AnthologyError(f"{where}: the Turtle answer does not parse ({first})") from None
    try:
        document = json.loads(answer.body)
        if kind == "ask":
            if not isinstance(document, dict) or not isinstance(document.get("boolean"), bool):
                raise ValueError("no boolean")
            return QueryResult(kind="ask", boolean=document["boolean"])
        variables = _variables(document["head"]["vars"])
        bindings = document["results"]["bindings"]
        if not isinstance(bindings, list) or not all(isinstance(b, dict) for b in bindings):
            raise ValueError("bindings that are not a list of objects")
        rows = [tuple(_term(b[v]) if v in b else None for v in variables) for b in bindings]
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
        # (RecursionError: JSON nested past Python's limit, which SPARQL's never is)
        raise AnthologyError(
            f"{where}: the answer is not SPARQL JSON results "
            f"({answer.content_type or 'no content type'}, {len(answer.body)} bytes)"
        ) from None
    return QueryResult(kind="select", variables=list(variables), rows=rows)
