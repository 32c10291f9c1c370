"""The bytecode the test set-up compiles for the package is checked against each
source's hash, so a test never runs code that is no longer in the tree."""

import importlib.util
import struct
from pathlib import Path

from conftest import _compiled_for_child_processes

import anthology_kg

#: PEP 552: the flags word of a .pyc; bit 0 set, a hash-based file; bit 1, checked.
CHECKED_HASH = 0b11


def test_every_module_is_compiled_checked_against_its_source_hash():
    _compiled_for_child_processes()
    package = Path(anthology_kg.__file__).parent
    sources = sorted(package.rglob("*.py"))
    assert len(sources) > 50
    for source in sources:
        cached = Path(importlib.util.cache_from_source(str(source)))
        magic, flags = struct.unpack("<4sL", cached.read_bytes()[:8])
        assert magic == importlib.util.MAGIC_NUMBER, cached
        assert flags == CHECKED_HASH, cached
