"""The progress bar in the terminal the environment gives it: none on ``TERM=dumb``
(click's bar hides the cursor with escape sequences), and no wider than the terminal
(each redraw of a wider line wraps onto a new one)."""

from __future__ import annotations

import io

import pytest

from anthology_kg import cli_context, progress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture(autouse=True)
def a_long_run_of_a_command(monkeypatch):
    monkeypatch.setattr(progress, "DELAY", -1.0)
    monkeypatch.delenv("TERM", raising=False)
    with cli_context.command():
        yield


def test_no_bar_on_a_dumb_terminal(monkeypatch):
    monkeypatch.setenv("TERM", "dumb")
    out = Terminal()
    assert list(progress.track(list(range(30)), "loading", out)) == list(range(30))
    assert out.getvalue() == ""


@pytest.mark.parametrize("columns", [30, 45])
def test_the_bar_fits_the_terminal(monkeypatch, columns):
    monkeypatch.setenv("COLUMNS", str(columns))
    out = Terminal()
    assert list(progress.track(list(range(30)), "loading", out)) == list(range(30))
    text = out.getvalue().replace("\x1b[?25l", "").replace("\x1b[?25h", "")
    drawn = [line.rstrip("\n") for line in text.split("\r") if line]
    assert drawn and all(len(line) < columns for line in drawn)
    assert "30/30" in drawn[-1]


def test_a_wide_terminal_keeps_clicks_width(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    out = Terminal()
    list(progress.track(list(range(3)), "loading", out))
    assert "[" + "#" * progress.WIDTH + "]" in out.getvalue()
