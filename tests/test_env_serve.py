"""serve closes what it opened: the pipe of the oxigraph server's stderr is closed when
serve ends (``python -X dev`` and ``-W error`` runs reported it unclosed)."""

from __future__ import annotations

import subprocess

import click
from conftest import run_cli
from stores import free_port


def test_the_servers_stderr_pipe_is_closed_when_serve_ends(tmp_path, monkeypatch):
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    servers: list[subprocess.Popen] = []

    class Recorded(subprocess.Popen):
        def __init__(self, args, *rest, **options):
            super().__init__(args, *rest, **options)
            if "serve" in args:
                servers.append(self)

    echo = click.echo

    def stop_once_serving(message=None, **options) -> None:
        echo(message, **options)
        if str(message).startswith("SPARQL endpoint"):
            raise KeyboardInterrupt  # Ctrl-C once serving: exit 0

    monkeypatch.setattr(subprocess, "Popen", Recorded)
    monkeypatch.setattr(click, "echo", stop_once_serving)
    result = run_cli("serve", "--port", str(free_port()))
    assert result.exit_code == 0, result.stderr
    (server,) = servers
    assert server.returncode is not None
    assert server.stderr is not None and server.stderr.closed
