"""A command's text argument refused as not UTF-8 says why: bytes that are not UTF-8,
or UTF-8 bytes a locale that is not UTF-8 decoded (``LC_ALL=C`` with ``PYTHONUTF8=0``:
Python gives them as lone surrogates). Before, both said "not UTF-8 text", which is
false of the second (hunt13 finding 9)."""

import sys

import pytest
from conftest import run_cli

NEW = ("new", "lit", "LIT-901", "--authors", "Sahin et al.", "--category", "method")


@pytest.mark.parametrize(
    ("encoding", "title", "said"),
    [
        ("ascii", "Caf\udcc3\udca9", "the value is UTF-8 text, read under a locale that is not"),
        ("ascii", "Caf\udcff", "the value is not UTF-8 text"),
        ("utf-8", "Caf\udcff", "the value is not UTF-8 text"),
    ],
)
def test_a_title_refused_as_not_utf8_says_why(bundled_copy, monkeypatch, encoding, title, said):
    # os.fsencode gives the bytes back with this process's own (UTF-8) encoding and
    # surrogateescape: as an ASCII one would, for these values.
    monkeypatch.setattr(sys, "getfilesystemencoding", lambda: encoding)
    result = run_cli("--root", str(bundled_copy), *NEW, "--title", title)
    assert result.exit_code == 2
    assert result.stderr.startswith(f"anthology-kg: --title: {said}")
    assert not (bundled_copy / "data" / "LIT-901.ttl").exists()
