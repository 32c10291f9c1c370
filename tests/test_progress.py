import io

import pytest

from anthology_kg import cli_context, progress


@pytest.fixture(autouse=True)
def in_a_command():
    """The bar is a command's (``cli.main`` runs each within ``cli_context.command``)."""
    with cli_context.command():
        yield


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_nothing_on_a_pipe(monkeypatch):
    monkeypatch.setattr(progress, "DELAY", 0.0)
    out = io.StringIO()
    assert list(progress.track([1, 2, 3], "loading", out)) == [1, 2, 3]
    assert out.getvalue() == ""


def test_a_bar_on_a_terminal_after_the_delay_that_ends_at_the_total(monkeypatch):
    monkeypatch.setattr(progress, "DELAY", -1.0)
    out = Terminal()
    assert list(progress.track(list(range(5)), "loading", out)) == list(range(5))
    text = out.getvalue()
    assert "loading" in text and "5/5" in text
    assert text.endswith("\n")  # the bar's line is finished, the next output starts clean


def test_nothing_on_a_terminal_for_a_short_run():
    out = Terminal()
    assert list(progress.track([1, 2], "loading", out)) == [1, 2]
    assert out.getvalue() == ""


def test_every_item_once_when_the_bar_starts_midway(monkeypatch):
    monkeypatch.setattr(progress, "DELAY", -1.0)
    items = list(range(250))
    assert list(progress.track(items, "checking", Terminal())) == items
