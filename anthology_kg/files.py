"""Writing output files so that a failure never leaves a partial file behind: one file
(``write_atomic``), or several all or none (``write_all``)."""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import shutil
import signal
import stat
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import AnthologyError

_WRITE_REASONS = {
    errno.ENOSPC: "no space left on the device",
    errno.EDQUOT: "disk quota exceeded",
    errno.EROFS: "read-only file system",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.EISDIR: "a folder is in the way",
    errno.ENAMETOOLONG: "a name too long for the file system",
}


def write_reason(exc: OSError) -> str:
    """Why a write failed, in words: ``no space left on the device``."""
    return _WRITE_REASONS.get(exc.errno or 0, exc.strerror or str(exc))


def write_error(exc: OSError, path: Path | str) -> AnthologyError:
    """An OSError met while writing ``path`` as the AnthologyError the CLI reports."""
    return AnthologyError(f"cannot write: {write_reason(exc)}", path)


def write_atomic(path: Path, content: str | bytes | Iterable[bytes]) -> None:
    """Write ``content`` (text, bytes, or bytes in chunks, written as they come) to
    ``path`` through a temporary file in the same folder, then rename it into place:
    readers see the old file or the new one, never half of one.

    Any failure (a read-only or full file system, a folder in the way) removes the
    temporary file and raises AnthologyError naming ``path``. A symbolic link is written
    through: its target is replaced, the link stays (as an editor saves a linked file).
    A character device or a named pipe (``/dev/null``, ``/dev/stdout`` in a pipeline) is
    written into as a stream, never replaced; a block device or a socket is refused.
    """
    path = Path(path)
    if isinstance(content, str):
        content = content.encode("utf-8")
    chunks = [content] if isinstance(content, bytes) else content
    if _is_stream(path):
        try:
            with open(path, "wb") as stream:
                stream.writelines(chunks)
        except OSError as exc:
            raise write_error(exc, path) from None
        return
    try:
        if path.is_symlink():
            path = Path(os.path.realpath(path))
        folder = path.parent if str(path.parent) else Path(".")
        if not folder.is_dir():
            raise not_a_folder(folder)
        if path.is_dir():
            raise AnthologyError("cannot write: a folder is in the way", path)
        replaced = _stat_or_none(path)
    except OSError as exc:  # a name too long to look up
        raise write_error(exc, path) from None
    if replaced is not None:
        refuse_unwritable(path)
    prefix = hidden_prefix(path, MKSTEMP_RANDOM + len(".tmp"))
    tmp: str | None = None
    try:
        with stop_signals_held():  # a file made is a name kept, to be removed
            fd, tmp = new_file_beside(folder, prefix, ".tmp")
            handle = os.fdopen(fd, "wb")
        with handle:
            handle.writelines(chunks)
        if replaced is not None:
            _keep_owner_and_mode(tmp, replaced)
        os.replace(tmp, path)
    except OSError as exc:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)
        raise write_error(exc, path) from None
    except BaseException:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)
        raise


def not_a_folder(folder: Path, missing: str = "cannot write: no such folder") -> AnthologyError:
    """The error for writing into ``folder``, which is no folder: "cannot write: a file,
    not a folder" naming it or the ancestor of it that is a file (``-o afile/x.ttl``,
    ``-o afile/sub/x.ttl``), else ``missing`` naming ``folder``."""
    for step in (folder, *folder.parents):
        try:
            mode = step.stat().st_mode
        except OSError:  # not there, or under a file (ENOTDIR): look further up
            continue
        if not stat.S_ISDIR(mode):
            return AnthologyError("cannot write: a file, not a folder", step)
        break
    return AnthologyError(missing, folder)


#: The random characters ``new_file_beside`` puts between its prefix and suffix.
MKSTEMP_RANDOM = 8


def new_file_beside(folder: Path | str, prefix: str, suffix: str) -> tuple[int, str]:
    """A new file in ``folder``, named ``prefix``, ``MKSTEMP_RANDOM`` random characters and
    ``suffix``, opened for writing: its descriptor and its path. Its mode is what
    ``open()`` gives, 0o666 less the umask (tempfile.mkstemp makes 0o600, and a mode
    forced after it ignored the umask: 0o644 under ``umask 077``)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC | getattr(os, "O_BINARY", 0)
    for _ in range(100):
        name = os.path.join(folder, f"{prefix}{secrets.token_hex(MKSTEMP_RANDOM // 2)}{suffix}")
        try:
            return os.open(name, flags, 0o666), name
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no free temporary name", str(folder))


def new_folder_beside(folder: Path | str, prefix: str) -> Path:
    """A new folder in ``folder``, named ``prefix`` and random characters, whose mode
    is what ``mkdir`` gives, 0o777 less the umask (tempfile.mkdtemp makes 0o700)."""
    for _ in range(100):
        name = Path(folder) / f"{prefix}{secrets.token_hex(MKSTEMP_RANDOM // 2)}"
        try:
            name.mkdir(0o777)
            return name
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no free temporary name", str(folder))


def _stat_or_none(path: Path) -> os.stat_result | None:
    """``os.stat(path)``, None where nothing is."""
    try:
        return os.stat(path)
    except FileNotFoundError:
        return None


def refuse_unwritable(path: Path) -> None:
    """An AnthologyError if the file ``path`` exists and this user may not write it (its
    mode, say 0o444, or its owner): a rename over it needs only the folder's permission,
    and replaced a file its user had protected, which a shell's ``>`` refuses."""
    if os.path.exists(path) and not os.access(path, os.W_OK):
        raise AnthologyError(
            "cannot write: permission denied (the file is read-only to you); nothing written",
            path,
        )


def _keep_owner_and_mode(new: str | Path, replaced: os.stat_result) -> None:
    """Give the file ``new``, about to replace one whose ``os.stat`` is ``replaced``, that
    file's owner and group where this process may (root may; anyone may give a file a
    group of theirs) and its permission bits."""
    made = os.stat(new)
    if (replaced.st_uid, replaced.st_gid) != (made.st_uid, made.st_gid):
        for owner in (replaced.st_uid, -1):  # the owner too, else the group alone
            try:
                os.chown(new, owner, replaced.st_gid)
                break
            except OSError:
                continue
    os.chmod(new, replaced.st_mode & 0o777)


def hidden_prefix(target: Path, more: int) -> str:
    """``.NAME.`` for a hidden temporary file beside ``target`` (NAME its name), NAME cut
    short (at a character) when the prefix and ``more`` bytes after it would not fit in
    a name of its folder's file system: a legal name of 249 bytes made a temporary one
    of 263."""
    name = os.fsencode(target.name)
    room = _name_max(target.parent) - 2 - more
    if len(name) <= room:
        return f".{target.name}."
    room = max(room, 0)
    while room and name[room] & 0xC0 == 0x80:  # not within a UTF-8 character
        room -= 1
    return f".{os.fsdecode(name[:room])}."


def _name_max(folder: Path) -> int:
    """The longest name, in bytes, the file system of ``folder`` takes (255 when it
    cannot say)."""
    try:
        return os.pathconf(folder, "PC_NAME_MAX")
    except (OSError, ValueError, AttributeError):  # no pathconf on Windows
        return 255


#: The signals that stop a command (Ctrl-C; SIGTERM, which the command line turns into
#: KeyboardInterrupt as well): ``stop_signals_held`` holds them back.
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


@contextlib.contextmanager
def stop_signals_held() -> Iterator[None]:
    """Hold Ctrl-C and SIGTERM back while the block runs, then give the first that came
    to its own handler: a temporary file made is a name kept, and a clean-up is not left
    half done. Outside the main thread (where Python runs no signal handler) the block
    runs as it is, and a signal ignored, or handled outside Python, is left alone."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    pending: list[int] = []

    def hold(number: int, _frame: object) -> None:
        pending.append(number)

    previous: dict[int, Any] = {}
    try:
        for number in STOP_SIGNALS:
            handler = signal.getsignal(number)
            if callable(handler) or handler == signal.SIG_DFL:
                previous[number] = handler
                signal.signal(number, hold)
        yield
    finally:
        _put_back(previous)
        if pending:
            signal.raise_signal(pending[0])  # its handler runs now, as if it came now


def _put_back(handlers: dict[int, Any]) -> None:
    """Install each of ``handlers`` again, all of them even if a signal whose handler is
    back already comes meanwhile: its handler runs within ``signal.signal`` (and may
    raise); what it raised is raised once every handler is back."""
    stopped: BaseException | None = None
    for number, handler in handlers.items():
        while True:
            try:
                signal.signal(number, handler)
                break
            except BaseException as exc:  # raised by a handler put back already
                stopped = stopped or exc
    if stopped is not None:
        raise stopped


def _is_stream(path: Path) -> bool:
    """Whether ``path`` (a symbolic link followed) is a character device or a named
    pipe. A rename over it would replace the device or the pipe with a plain file (as
    root, ``-o /dev/null`` did); a block device or a socket raises AnthologyError."""
    kind = special_file(path)
    if kind in ("a block device", "a socket"):
        refuse_special_file(path)
    return kind is not None


def special_file(path: Path) -> str | None:
    """What ``path`` (a symbolic link followed) is when it is neither a regular file nor
    a folder ("a character device", "a named pipe", "a block device", "a socket"); None
    for those, and where nothing is (or it cannot be reached)."""
    try:
        return _SPECIAL_FILES.get(stat.S_IFMT(os.stat(path).st_mode))
    except OSError:
        return None


def refuse_special_file(path: Path) -> None:
    """Raise AnthologyError when ``path`` is a ``special_file``: output that must be a
    file (a folder's, written all or none) is not written into a device or a pipe."""
    kind = special_file(path)
    if kind is not None:
        raise AnthologyError(f"cannot write: {kind} is in the way, not a file", path)


_SPECIAL_FILES = {
    stat.S_IFCHR: "a character device",
    stat.S_IFIFO: "a named pipe",
    stat.S_IFBLK: "a block device",
    stat.S_IFSOCK: "a socket",
}


def write_new_file(target: Path, text: str) -> None:
    """Write ``text`` to ``target``, a name no file (nor link) may hold, by the rule of
    ``write_all``: a file there already is refused ("the file exists already;
    nothing written"), and so is one another process makes while this call writes
    (the file is linked into place, never over an existing name)."""
    refusal = "the file exists already; nothing written"
    write_all([target], [text], target, refusal=refusal)


def write_all(
    targets: list[Path],
    texts: list[str],
    where: Path,
    replace: bool = False,
    refusal: str = "exists already; nothing written (--replace replaces it)",
    keep: Callable[[int], bool] | None = None,
) -> None:
    """Write each of ``texts`` to the target of the same index, all or none: each is
    first written beside its target under a temporary name of its own, then all are
    moved into place.

    Unless ``replace``, a target that exists (a dangling symbolic link included) is
    refused before any is moved, an AnthologyError naming every one (one alone with
    ``refusal``), and so is a name another process takes meanwhile: a file is linked
    into place, never over an existing name. With ``replace``, a device, a pipe or a
    socket in the way is refused, a symbolic link is written through and a file
    replaced keeps its mode, as ``write_atomic`` writes. On any failure (those, a full
    disk, Ctrl-C) the files this call placed are removed and those it replaced put
    back before the error is raised; an OSError becomes an AnthologyError naming the
    target reached, or ``where`` before any is. ``keep``, when given, is asked just
    before each file is moved, with its index: a target it answers False for is left
    as it is."""
    if replace:
        targets = [Path(os.path.realpath(t)) if t.is_symlink() else t for t in targets]
        for target in targets:  # all or none: nothing is written into a device or a pipe
            refuse_special_file(target)
            refuse_unwritable(target)
    staged: list[tuple[Path, int]] = []
    placed: list[_Placed] = []
    try:
        for text, target in zip(texts, targets, strict=True):
            _stage(target, text, staged)
        if not replace:
            _refuse_existing(targets, refusal)
        for index, ((temporary, inode), target) in enumerate(zip(staged, targets, strict=True)):
            if keep is not None and not keep(index):
                continue
            # Listed before it is moved, so that Ctrl-C at any point finds it to undo.
            placed.append(_Placed(target, inode))
            _place(temporary, placed[-1], replace)
    except BaseException as error:
        with stop_signals_held():
            _undo(placed)
        where = placed[-1].target if placed else where
        if isinstance(error, FileExistsError):
            raise AnthologyError(
                "written meanwhile by another process; nothing written", where
            ) from None
        if isinstance(error, OSError):
            raise write_error(error, where) from None
        raise
    finally:
        with stop_signals_held():
            for temporary, _ in staged:
                temporary.unlink(missing_ok=True)
            for done in placed:
                if done.backup is not None:
                    done.backup.unlink(missing_ok=True)


#: errno values of os.link on a file system without hard links (FAT, some network shares),
#: or where a file may not be linked (another user's, under fs.protected_hardlinks).
_NO_HARD_LINKS = frozenset({errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.ENOSYS})


@dataclass
class _Placed:
    """A target ``write_all`` moves its file to: the file's inode, and the hard link
    that keeps the file it replaced, if any."""

    target: Path
    inode: int
    backup: Path | None = None


def _stage(target: Path, text: str, staged: list[tuple[Path, int]]) -> None:
    """Write ``text`` to a new temporary file beside ``target`` and list it in ``staged``
    with its inode."""
    with stop_signals_held():  # a file made is a file listed, to be removed
        fd, name = new_file_beside(
            target.parent,
            hidden_prefix(target, MKSTEMP_RANDOM + len(".importing")),
            ".importing",
        )
        temporary = Path(name)
        staged.append((temporary, os.fstat(fd).st_ino))
    with os.fdopen(fd, "wb") as handle:
        handle.write(text.encode("utf-8"))


def link_new(source: Path, target: Path) -> None:
    """Give ``source``'s file the name ``target`` too, a name no file may hold: a hard link,
    atomic and never over an existing name (FileExistsError). Where the file system has
    no hard links, ``source`` is renamed to ``target`` instead, after a check that the
    name is free."""
    try:
        os.link(source, target)
    except OSError as error:
        if error.errno not in _NO_HARD_LINKS:
            raise
        if os.path.lexists(target):
            raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), str(target)) from None
        os.replace(source, target)


def _place(temporary: Path, placed: _Placed, replace: bool) -> None:
    """Give ``temporary``'s file the name ``placed.target``: without ``replace`` only if
    the name is free (else FileExistsError); with it, first keeping the file it replaces."""
    target = placed.target
    if not replace:
        link_new(temporary, target)
        return
    backup = target.with_name(f".{target.name}.{secrets.token_hex(8)}.replaced")
    placed.backup = backup  # before it exists, so that Ctrl-C finds it to remove
    try:
        os.link(target, backup, follow_symlinks=False)
    except FileNotFoundError:
        placed.backup = None  # nothing to replace
    except OSError as error:
        if error.errno not in _NO_HARD_LINKS:
            raise
        if os.path.lexists(target):
            shutil.copy2(target, backup, follow_symlinks=False)
        else:
            placed.backup = None
    if placed.backup is not None:  # the file replaced keeps its mode, as write_atomic's do
        _keep_owner_and_mode(temporary, os.stat(placed.backup))
    os.replace(temporary, target)


def _undo(placed: list[_Placed]) -> None:
    """Take back the moves of ``placed``, last first: a target still holding this call's
    file is removed, or given back the file it replaced. A failure to undo is not raised
    (the error that made the call undo its work is the one reported), and then the file
    replaced stays in its backup."""
    for done in reversed(placed):
        backup, done.backup = done.backup, None  # kept, if it cannot be put back
        with contextlib.suppress(OSError):
            ours = done.target.lstat().st_ino == done.inode
            if ours and backup is not None:
                os.replace(backup, done.target)
            elif ours:
                done.target.unlink()
            elif backup is not None:  # another process wrote the target since
                backup.unlink(missing_ok=True)


def _refuse_existing(targets: list[Path], refusal: str) -> None:
    """Raise an AnthologyError naming each of ``targets`` that exists (a dangling symbolic
    link included), one alone with ``refusal``: import replaces a file only when asked to."""
    existing = [target for target in targets if os.path.lexists(target)]
    folder = next((t for t in existing if t.is_dir() and not t.is_symlink()), None)
    if folder is not None:  # which --replace would not replace either
        raise AnthologyError(
            "a folder, not a file: name the file to write; nothing written", folder
        )
    if len(existing) == 1:
        raise AnthologyError(refusal, existing[0])
    if existing:
        names = ", ".join(target.name for target in existing)
        raise AnthologyError(
            f"{len(existing)} files exist already; nothing written (--replace replaces them): "
            + names,
            existing[0].parent,
        )
