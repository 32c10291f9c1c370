"""A process building the site killed (the OOM killer's SIGKILL, a ``kill -9``): one line
naming the signal, exit 2, the earlier site kept. Before, a RuntimeError's traceback and
exit 1 (hunt4 finding 4)."""

import os
import signal
import sys

import pytest
from conftest import run_cli

from anthology_kg.errors import AnthologyError
from anthology_kg.resources import bundled_dir
from anthology_kg.site import workers
from anthology_kg.site.output import GENERATOR

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="fork: Linux")


def _killed() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def test_a_worker_killed_is_an_input_error_naming_the_signal():
    with pytest.raises(
        AnthologyError, match=r"a process building it stopped \(killed by SIGKILL; out"
    ):
        workers.in_processes([lambda: None, _killed], callers=set())


def test_a_worker_ending_without_a_word_names_its_status():
    with pytest.raises(AnthologyError, match=r"a process building it stopped \(exit code 3\)"):
        workers.in_processes([lambda: None, lambda: os._exit(3)], callers=set())


def test_the_child_answering_beside_killed_is_an_input_error():
    with pytest.raises(AnthologyError, match=r"stopped \(killed by SIGTERM\)"):
        workers.beside(lambda: os.kill(os.getpid(), signal.SIGTERM)).result()


def test_site_with_its_validating_child_killed_exits_2_and_keeps_the_earlier_site(
    tmp_path, monkeypatch
):
    import anthology_kg.site as site

    earlier = tmp_path / "site"
    earlier.mkdir()
    (earlier / "index.html").write_text(f'<meta name="generator" content="{GENERATOR}">')
    (earlier / "entries").mkdir()
    (earlier / "entries" / "old.html").write_text("kept")
    # Two processes for the bundled anthology's few entries: the validation and the
    # stored queries then run in a forked child, which here kills itself.
    monkeypatch.setattr(site, "_processes", lambda workers, anthology: 2)
    monkeypatch.setattr(site, "_answers", lambda *args: _killed())
    result = run_cli("--root", str(bundled_dir()), "site", "-o", str(earlier))
    assert result.exit_code == 2
    assert result.stderr == (
        "anthology-kg: the site was not written: a process building it stopped "
        "(killed by SIGKILL; out of memory?)\n"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]  # no new folder left
    assert (earlier / "entries" / "old.html").read_text() == "kept"
