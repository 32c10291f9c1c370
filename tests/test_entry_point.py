"""The console script's entry point (``cli.run``, also ``python -m anthology_kg``): the
command's output and exit code are ``main``'s, and what the command left is frozen out
of the interpreter's last garbage collection."""

import subprocess
import sys

import pytest

# Says on stderr, at the process's end, whether objects were frozen.
PROBE = (
    "import atexit, gc, sys\n"
    "atexit.register(lambda: print('frozen:', gc.get_freeze_count() > 0, file=sys.stderr))\n"
)


@pytest.mark.parametrize(
    ("args", "code", "said"),
    [(["--version"], 0, "anthology-kg, version"), (["--root", "/no/such/folder"], 2, "")],
)
def test_run_exits_as_main_does_and_freezes_what_is_left(args, code, said):
    script = (
        PROBE + f"sys.argv = ['anthology-kg', *{args!r}]\nfrom anthology_kg.cli import run\nrun()\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == code
    assert said in done.stdout
    assert "Traceback" not in done.stderr
    assert done.stderr.rstrip().endswith("frozen: True")


def test_python_dash_m_runs_the_same_entry_point():
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            PROBE + "import runpy; runpy.run_module('anthology_kg', run_name='__main__')",
            "--version",
        ],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0 and "anthology-kg, version" in done.stdout
    assert done.stderr.rstrip().endswith("frozen: True")
