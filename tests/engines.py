"""The three engines over one anthology folder, for tests of the engine interface's
lookups: the remote one over its read-back copy of the data, so that no store is asked.

    from engines import ENGINES  # {"fast": ..., "reference": ..., "remote": ...}
"""

from __future__ import annotations

from pathlib import Path

from anthology_kg.fast import load_fast
from anthology_kg.loader import load_anthology
from anthology_kg.remote import RemoteEngine


def remote_over_copy(root: Path) -> RemoteEngine:
    """A remote engine whose copy of the store's data graph is already read back."""
    local = load_anthology(root)
    return RemoteEngine(
        root=root,
        endpoint="http://127.0.0.1:9/sparql",  # never asked: the copy is there
        rules=local.rules,
        data_files=[],
        _copy=local,
    )


ENGINES = {"fast": load_fast, "reference": load_anthology, "remote": remote_over_copy}
