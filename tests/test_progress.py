import io

from anthology_kg import progress


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_nothing_on_a_pipe(monkeypatch):
    monkeypatch.setattr(progress, "DELAY", 0.0)
    out = io.StringIO()
    assert list(progress.track([1, 2, 3], "loading", out)) == [1, 2, 3]
    assert out.getvalue() == ""


def test_a_line_on_a_terminal_after_the_delay_then_cleared(monkeypatch):
    monkeypatch.setattr(progress, "DELAY", 0.0)
    out = Terminal()
    assert list(progress.track(list(range(5)), "loading", out)) == list(range(5))
    text = out.getvalue()
    assert "\rloading 5/5" in text and text.endswith("\r")


def test_nothing_on_a_terminal_for_a_short_run():
    out = Terminal()
    list(progress.track([1, 2], "loading", out))
    assert out.getvalue() == ""
