"""The site's swap of folders (OUTPUT aside, the new site in its place) is not cut in
two by a stop signal: a SIGINT or SIGTERM between the two renames left no site at
OUTPUT, the new one discarded and the old one in a hidden folder (hunt9 #9)."""

import os
import signal
from pathlib import Path

import pytest

from anthology_kg.site import output as site_output


@pytest.fixture
def sigint_raises():
    """Ctrl-C raises KeyboardInterrupt in this test, whatever pytest was started with."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


@pytest.fixture
def sites(tmp_path) -> tuple[Path, Path]:
    """An old site at ``site`` and a new one beside it, ready to swap."""
    output, fresh = tmp_path / "site", tmp_path / ".site.new-x"
    for folder, text in ((output, "old"), (fresh, "new")):
        folder.mkdir()
        (folder / "index.html").write_text(text, encoding="utf-8")
    return output, fresh


def test_a_signal_between_the_renames_comes_after_the_new_site_is_in_place(
    sites, monkeypatch, sigint_raises
):
    output, fresh = sites
    real = os.replace

    def replace(source, target):
        real(source, target)
        if Path(target).name.startswith(".site.old-"):
            signal.raise_signal(signal.SIGINT)  # just after OUTPUT was put aside

    monkeypatch.setattr(site_output.os, "replace", replace)
    with pytest.raises(KeyboardInterrupt):
        site_output._swap(fresh, output)
    assert (output / "index.html").read_text(encoding="utf-8") == "new"
    assert sorted(p.name for p in output.parent.iterdir()) == ["site"]


def test_an_interrupt_of_the_second_rename_puts_the_old_site_back(sites, monkeypatch):
    output, fresh = sites
    real = os.replace

    def replace(source, target):
        if Path(source) == fresh:
            raise KeyboardInterrupt
        real(source, target)

    monkeypatch.setattr(site_output.os, "replace", replace)
    with pytest.raises(KeyboardInterrupt):
        site_output._swap(fresh, output)
    assert (output / "index.html").read_text(encoding="utf-8") == "old"
    assert sorted(p.name for p in output.parent.iterdir()) == [".site.new-x", "site"]
