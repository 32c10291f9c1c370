"""git run for the tests: a fixed author and no user or system configuration."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

#: The author and committer of the tests' commits; the user's and the system's git
#: configuration left out (a signing key or hook there would change what is tested).
GIT_ENV = {
    "GIT_AUTHOR_NAME": "t",
    "GIT_AUTHOR_EMAIL": "t@example.org",
    "GIT_COMMITTER_NAME": "t",
    "GIT_COMMITTER_EMAIL": "t@example.org",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_CONFIG_NOSYSTEM": "1",
}


def git(folder: Path, *args: str) -> str:
    """``git -C folder args``'s standard output, decoded as the file system names are
    (a path that is not UTF-8 comes back as it was); a failure raises."""
    done = subprocess.run(
        ["git", "-C", folder, *args],
        capture_output=True,
        check=True,
        env={**os.environ, **GIT_ENV},
    )
    return os.fsdecode(done.stdout)
