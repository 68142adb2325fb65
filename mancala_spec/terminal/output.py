"""Writing: standard output written whole and checked, and files written
atomically.

Python's text layer can drop the failure of part of a large write, and tells a
closed standard output only as ``None``. So ``mancala-spec`` never writes
standard output through it: :class:`Stdout` collects what a command prints and
writes it at the end with ``os.write``, every byte accounted for (a command
that talks with its user, such as ``play``, writes each piece at once, the same
way). A failed or short write, a reader that has gone, or an encoding that
cannot carry the text is an :class:`~mancala_spec.terminal.status.OutputError`
(exit status 4), and what a failed write left in a regular file is cut off
again (the file keeps what it held before). A reader that has gone (``| head``)
is a :class:`~mancala_spec.terminal.status.ReaderGone`: the command stops quietly.
"""
from __future__ import annotations

import errno
import io
import os
import secrets
import select
import stat
from pathlib import Path
from typing import TextIO

from . import signals
from .escape import shown
from .status import OutputError, ReaderGone

STDOUT = "standard output"


def _describe(error: OSError) -> str:
    if error.errno == errno.EPIPE:
        return "its reader has closed the pipe"
    if error.errno == errno.EBADF:
        return "it is closed"
    return error.strerror or str(error)


def _fileno(stream: TextIO) -> int | None:
    try:
        return stream.fileno()
    except (AttributeError, ValueError, OSError, io.UnsupportedOperation):
        return None


def write_all(fd: int, data: bytes) -> None:
    """Write every byte of *data* to *fd*, however many writes it takes (a pipe
    or a terminal may take part of it each time); raises OSError if a write
    fails or makes no progress."""
    view = memoryview(data)
    while view:
        try:
            written = os.write(fd, view[:1 << 20])
        except BlockingIOError:                     # a non-blocking descriptor: wait
            select.select([], [fd], [], 60)
            continue
        if written <= 0:
            raise OSError(errno.EIO, "a write to it made no progress")
        view = view[written:]


class Stdout(io.TextIOBase):
    """Standard output as ``mancala-spec`` writes it (see the module's text).

    While not *live*, what is printed is kept and written by :meth:`finish`,
    whole, once the command has succeeded (nothing is written when it fails).
    When *live* (a command in conversation with its user), each write goes out
    at once, checked.
    """

    def __init__(self, target: TextIO, live: bool = False) -> None:
        super().__init__()
        self.target = target
        self.live = live
        self.parts: list[str] = []

    @property
    def encoding(self) -> str:   # type: ignore[override]
        return getattr(self.target, "encoding", None) or "utf-8"

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        try:
            return bool(self.target.isatty())
        except (AttributeError, ValueError, OSError):
            return False

    def write(self, text: str) -> int:
        if self.live:
            self._emit(text)
        else:
            self.parts.append(text)
        return len(text)

    def flush(self) -> None:
        pass

    def go_live(self) -> None:
        """From now on write at once (what was kept goes first)."""
        self.finish()
        self.live = True

    def discard(self) -> None:
        self.parts.clear()

    def finish(self) -> None:
        """Write what was kept; raises :class:`OutputError` if it cannot all be written."""
        text, self.parts = "".join(self.parts), []
        if text:
            self._emit(text)

    def _emit(self, text: str) -> None:
        try:
            data = text.encode(self.encoding)
        except (UnicodeEncodeError, LookupError) as error:
            where = ""
            if isinstance(error, UnicodeEncodeError):
                where = f" U+{ord(error.object[error.start]):04X}"
            raise OutputError(
                f"cannot write {STDOUT}: its encoding, {self.encoding}, cannot carry{where}; "
                "set PYTHONIOENCODING=utf-8 or a UTF-8 locale") from None
        fd = _fileno(self.target)
        end = None
        try:
            self.target.flush()
            if fd is None:                          # not a file (a test's capture)
                self.target.write(text)
                self.target.flush()
            else:
                end = _end_of_regular_file(fd)
                write_all(fd, data)
        except OSError as error:
            if error.errno == errno.EPIPE:
                raise ReaderGone(f"cannot write {STDOUT}: {_describe(error)}") from None
            if end is not None and fd is not None:
                _cut(fd, end)
            raise OutputError(f"cannot write {STDOUT}: {_describe(error)}") from None


def _end_of_regular_file(fd: int) -> int | None:
    """The size of the regular file *fd* writes at its end (``>`` or ``>>``), else ``None``."""
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return None
        if os.lseek(fd, 0, os.SEEK_CUR) < info.st_size and not _appends(fd):
            return None                             # writing inside the file (1<>F): leave it
        return info.st_size
    except OSError:
        return None


def _appends(fd: int) -> bool:
    import fcntl

    try:
        return bool(fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_APPEND)
    except OSError:
        return False


def _cut(fd: int, size: int) -> None:
    """Cut the regular file *fd* back to *size* bytes: what a failed write left goes."""
    try:
        os.ftruncate(fd, size)
        if not _appends(fd):
            os.lseek(fd, size, os.SEEK_SET)
    except OSError:
        pass


def check_target(target: str | os.PathLike[str]) -> Path:
    """The real path *target* names, if a file may be written there; else
    :class:`OutputError` saying why (no such folder, not a regular file, a
    file with other hard links, which replacing it would break)."""
    path = Path(target)
    name = shown(os.fspath(target))
    try:
        real = path.resolve()
    except (OSError, RuntimeError) as error:
        raise OutputError(f"cannot write {name}: {error}", os.fspath(target)) from None
    if real.exists() and not real.is_file():
        raise OutputError(f"cannot write {name}: it is not a regular file", os.fspath(target))
    if not real.parent.is_dir():
        raise OutputError(f"cannot write {name}: no folder {shown(real.parent)}", os.fspath(target))
    if not os.access(real.parent, os.W_OK):
        raise OutputError(f"cannot write {name}: no permission to write in "
                          f"{shown(real.parent)}", os.fspath(target))
    try:
        links = real.stat().st_nlink if real.exists() else 1
    except OSError:
        links = 1
    if links > 1:
        raise OutputError(f"cannot write {name}: it has {links} hard links, and writing it "
                          "whole (a new file renamed over it) would break them; write "
                          "another file and copy it over this one", os.fspath(target))
    return real


def write_atomic(target: str | os.PathLike[str], data: bytes) -> Path:
    """Write *data* to *target* completely or not at all: into a temporary file
    in the target's folder, then renamed over it. A symlink is followed to the
    file it names; a target that exists and is not a regular file (a device
    such as /dev/full, a folder, a pipe) or has other hard links is refused. A
    file replaced keeps its mode (and its owner, where allowed). The temporary
    file has a short name of its own (``.mancala-spec-XXXXXXXXXXXX.tmp``), so
    every name a file system takes can be written, and it is removed however
    the command ends (an error, a signal). Raises :class:`OutputError`."""
    real = check_target(target)
    name = shown(os.fspath(target))
    try:
        before: os.stat_result | None = real.stat()
    except OSError:
        before = None
    temporary = ""
    try:
        fd = -1
        while fd < 0:
            temporary = os.path.join(real.parent, f".mancala-spec-{secrets.token_hex(6)}.tmp")
            signals.TEMPORARY.add(temporary)       # removed even if the process ends at once
            try:
                fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            except FileExistsError:
                signals.TEMPORARY.discard(temporary)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if before is None:
            os.chmod(temporary, 0o666 & ~_umask())
        else:
            try:
                os.chown(temporary, before.st_uid, before.st_gid)
            except OSError:
                pass                                # not ours to give: the owner is the writer
            os.chmod(temporary, stat.S_IMODE(before.st_mode))
        os.replace(temporary, real)
        signals.TEMPORARY.discard(temporary)
    except OSError as error:
        raise OutputError(f"cannot write {name}: {error.strerror or error}",
                          os.fspath(target)) from None
    finally:
        if temporary in signals.TEMPORARY:
            try:
                os.unlink(temporary)
            except OSError:
                pass
            signals.TEMPORARY.discard(temporary)
    return real


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
