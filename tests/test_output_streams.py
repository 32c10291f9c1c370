"""``-o`` names a character device or a named pipe: written into as a stream, never replaced
by a file (as root, ``export -o /dev/null`` once replaced the device with a plain file); a
block device or a socket is refused, exit 2; ``import FOLDER --replace`` refuses any of
them (all or none). The device nodes are made in the test's own folder (``mknod``, as
root), so that a failure breaks nothing of the machine's."""

from __future__ import annotations

import fcntl
import os
import socket
import stat
import subprocess
from pathlib import Path

import pytest
from conftest import RECORDS, cli_process, records_folder, run_cli

#: The pipe's buffer: room for the whole export, which no one reads until the command ends.
PIPE_BYTES = 1 << 20


def _device(tmp_path: Path, kind: int, major: int, minor: int) -> Path:
    """A device node in ``tmp_path`` (skips where nodes cannot be made or opened)."""
    node = tmp_path / "device"
    try:
        os.mknod(node, 0o666 | kind, os.makedev(major, minor))
    except PermissionError:
        pytest.skip("making a device node needs root (CAP_MKNOD)")
    return node


def _opened_for_reading(fifo: Path) -> int:
    """The read end of ``fifo``, open before anything writes to it, so that the writer's
    open does not wait for a reader (the export fits in the pipe's buffer: no thread)."""
    fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    if hasattr(fcntl, "F_SETPIPE_SZ"):  # Linux; elsewhere the default buffer (64 KiB)
        fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, PIPE_BYTES)
    return fd


def _drained(fd: int) -> bytes:
    """What was written to the pipe at ``fd`` (nothing, if no writer ever opened it)."""
    read = []
    while True:
        try:
            chunk = os.read(fd, 1 << 16)
        except BlockingIOError:
            break
        if not chunk:
            break
        read.append(chunk)
    os.close(fd)
    return b"".join(read)


@pytest.fixture(scope="module")
def exported() -> bytes:
    """The bundled anthology's Turtle as ``export`` prints it."""
    result = run_cli("export")
    assert result.exit_code == 0, result.stderr
    assert len(result.stdout_bytes) < PIPE_BYTES
    return result.stdout_bytes


@pytest.mark.parametrize("through_a_link", [False, True])
def test_a_named_pipe_is_written_into_and_stays_a_pipe(tmp_path, exported, through_a_link):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    target = fifo
    if through_a_link:
        target = tmp_path / "link.ttl"
        target.symlink_to(fifo)
    reading = _opened_for_reading(fifo)
    result = run_cli("export", "-o", str(target))
    assert _drained(reading) == exported
    assert result.exit_code == 0, result.stderr
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted({fifo.name, target.name})


def test_a_character_device_is_written_into_and_stays_a_device(tmp_path):
    null = _device(tmp_path, stat.S_IFCHR, 1, 3)  # the null device's numbers
    try:
        null.open("wb").close()
    except PermissionError:
        pytest.skip("device nodes cannot be opened here (a nodev file system)")
    for args in (("export",), ("validate", "--format", "json")):
        result = run_cli(*args, "-o", str(null))
        assert result.exit_code == 0, result.stderr
        assert stat.S_ISCHR(null.lstat().st_mode)
        assert [p.name for p in tmp_path.iterdir()] == [null.name]


def test_a_block_device_or_a_socket_is_refused_and_left_as_it_was(tmp_path):
    block = _device(tmp_path, stat.S_IFBLK, 7, 255)  # a loop device's numbers, never opened
    result = run_cli("export", "-o", str(block))
    assert result.exit_code == 2
    assert result.stderr == f"{block}: cannot write: a block device is in the way, not a file\n"
    assert stat.S_ISBLK(block.lstat().st_mode)
    with socket.socket(socket.AF_UNIX) as listening:
        listening.bind(str(tmp_path / "socket"))
        result = run_cli("export", "-o", str(tmp_path / "socket"))
        assert result.exit_code == 2
        assert result.stderr.endswith("cannot write: a socket is in the way, not a file\n")
        assert stat.S_ISSOCK((tmp_path / "socket").lstat().st_mode)


def test_dev_stdout_in_a_pipeline_gets_the_output(exported):
    """``-o /dev/stdout`` with the standard output a pipe: the link leads to the pipe,
    which is written into (the old rename looked for a file named ``pipe:[…]``)."""
    process = cli_process("export", "-o", "/dev/stdout", stdout=subprocess.PIPE)
    out, _ = process.communicate(timeout=120)
    assert process.returncode == 0
    assert out == exported


def test_import_of_a_folder_refuses_a_named_pipe_it_would_replace_and_writes_nothing(tmp_path):
    """All or none: an ID.ttl that is a pipe is not written into, nor replaced."""
    folder = records_folder(tmp_path, RECORDS)
    out = tmp_path / "out"
    out.mkdir()
    fifo = out / f"{RECORDS[-1].stem}.ttl"
    os.mkfifo(fifo)
    result = run_cli("import", "--replace", str(folder), "-o", str(out))
    assert result.exit_code == 2
    assert result.stderr == f"{fifo}: cannot write: a named pipe is in the way, not a file\n"
    assert [p.name for p in out.iterdir()] == [fifo.name]
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
