"""A store that redirects a request with a body so that it would come back as a GET
without it (HTTP 301 for a POST, 302 and 303 for any method: what httpx, as browsers,
does) fails the command, exit 2, naming the URL, the status and the target; nothing is
sent there (hunt1 F16: publish printed 'added to ...', exit 0, with nothing written, when
a proxy redirected http:// to https://). 307 and 308 keep the method and the body."""

from __future__ import annotations

import pytest
from conftest import run_cli
from stores import free_port, recording_store

SAID = "which would get it as a GET without its body; nothing was sent there"


CASES = [
    (301, ("publish", "--add", "--endpoint"), "/store", "POST"),
    (302, ("publish", "--replace", "--endpoint"), "/store", "PUT"),
    (303, ("publish", "--add", "--update"), "/update", "POST"),
    (301, ("query", "unread", "--endpoint"), "/query", "POST"),
]


@pytest.mark.parametrize(("status", "command", "path", "method"), CASES, ids=str)
def test_a_write_redirected_into_a_get_fails_and_nothing_is_sent(status, command, path, method):
    with (
        recording_store(204) as (target, seen),
        recording_store(status, location=target) as (store, _),
    ):
        result = run_cli(*command, f"{store}{path}")
    assert result.exit_code == 2, result.output
    said = f"{method} {store}{path}: the store redirects it (HTTP {status}) to {target}{path}, "
    assert said + SAID in result.stderr, result.stderr
    assert "added to" not in result.stdout and "replaced" not in result.stdout
    assert seen == []


@pytest.mark.parametrize(
    ("status", "replace", "method"),
    [(307, ("--add",), "POST"), (308, ("--replace",), "PUT"), (301, ("--replace",), "PUT")],
)
def test_a_redirect_that_keeps_the_method_and_body_is_followed(status, replace, method):
    with (
        recording_store(204) as (target, seen),
        recording_store(status, location=target) as (store, _),
    ):
        result = run_cli("publish", *replace, "--endpoint", f"{store}/store")
    assert result.exit_code == 0, result.output
    assert len(seen) == 3 and all(s.startswith(f"{method} /store?graph=") for s in seen), seen


def test_a_failure_after_a_redirect_names_where_it_was_redirected():
    closed = f"http://127.0.0.1:{free_port()}"
    with recording_store(307, location=closed) as (store, _):
        result = run_cli("publish", "--add", "--endpoint", f"{store}/store")
    assert result.exit_code == 2, result.output
    said = f"POST {store}/store (redirected to {closed}/store): cannot connect"
    assert said in result.stderr, result.stderr


def test_a_401_behind_a_redirect_to_another_origin_says_credentials_are_not_sent(monkeypatch):
    """httpx sends no credentials across origins: the hint says so and to use that URL.
    Before, "(the credentials were refused)" sent the user to check a password the store
    was never given (hunt4 #14)."""
    monkeypatch.setenv("ANTHOLOGY_KG_USER", "bob")
    monkeypatch.setenv("ANTHOLOGY_KG_PASSWORD", "hunter2")
    with (
        recording_store(401) as (target, _),
        recording_store(307, location=target) as (store, _),
    ):
        result = run_cli("publish", "--replace", "--endpoint", f"{store}/store")
    assert result.exit_code == 2, result.output
    assert result.stderr == (
        f"anthology-kg: PUT {store}/store (redirected to {target}/store): HTTP 401 "
        "Unauthorized (the store redirected it to another origin, to which credentials are "
        "not sent: use that URL)\n"
    )


@pytest.mark.parametrize(
    ("requested", "reached", "sent"),
    [
        ("http://h/store", "http://h:80/other", True),
        ("http://h/store", "https://h/store", True),  # httpx keeps them on an upgrade
        ("http://h:8080/store", "https://h/store", False),
        ("http://h/store", "http://h:8080/store", False),
        ("http://a/store", "http://b/store", False),
    ],
)
def test_credentials_follow_a_redirect_as_httpx_sends_them(requested, reached, sent):
    from anthology_kg.endpoint import _sends_credentials

    assert _sends_credentials(requested, reached) is sent


@pytest.mark.parametrize("path", ["/qé", "/a b"])
def test_an_error_says_no_redirect_where_httpx_only_encoded_the_url(path):
    """Before (hunt18 #13): 'POST http://…/qé (redirected to http://…/q%C3%A9): HTTP 404'
    (the URL strings compared; httpx had only percent-encoded it)."""
    with recording_store(404) as (store, seen):
        result = run_cli("query", "confounders", "--endpoint", f"{store}{path}")
    assert result.exit_code == 2, result.output
    assert len(seen) == 1 and "redirected" not in result.stderr, result.stderr
    assert f"POST {store}{path}: HTTP 404" in result.stderr, result.stderr


def test_a_connection_error_says_no_redirect_where_httpx_only_encoded_the_url():
    closed = f"http://127.0.0.1:{free_port()}"
    result = run_cli("query", "confounders", "--endpoint", f"{closed}/a b")
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"anthology-kg: POST {closed}/a b: cannot connect"), (
        result.stderr
    )
