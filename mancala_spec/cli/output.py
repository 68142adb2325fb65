"""Writing: standard output written whole and checked, and files written
atomically.

Python's text layer can drop the failure of part of a large write, and tells a
closed standard output only as ``None``. So ``mancala-spec`` never writes
standard output through it: :class:`Stdout` collects what a command prints and
writes it at the end with ``os.write``, every byte accounted for (a command
that talks with its user, such as ``play``, writes each piece at once, the same
way). A failed or short write, a reader that has gone, or an encoding that
cannot carry the text is an :class:`~mancala_spec.cli.status.OutputError`
(exit status 4).
"""
from __future__ import annotations

import errno
import io
import os
import select
import tempfile
from pathlib import Path
from typing import TextIO

from .status import OutputError

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
        try:
            self.target.flush()
            if fd is None:                          # not a file (a test's capture)
                self.target.write(text)
                self.target.flush()
            else:
                write_all(fd, data)
        except OSError as error:
            raise OutputError(f"cannot write {STDOUT}: {_describe(error)}") from None


def check_target(target: str | os.PathLike[str]) -> Path:
    """The real path *target* names, if a file may be written there; else
    :class:`OutputError` saying why (no such folder, not a regular file)."""
    path = Path(target)
    name = os.fspath(target)
    try:
        real = path.resolve()
    except (OSError, RuntimeError) as error:
        raise OutputError(f"cannot write {name}: {error}", name) from None
    if real.exists() and not real.is_file():
        raise OutputError(f"cannot write {name}: it is not a regular file", name)
    if not real.parent.is_dir():
        raise OutputError(f"cannot write {name}: no folder {real.parent}", name)
    if not os.access(real.parent, os.W_OK):
        raise OutputError(f"cannot write {name}: no permission to write in {real.parent}",
                          name)
    return real


def write_atomic(target: str | os.PathLike[str], data: bytes) -> Path:
    """Write *data* to *target* completely or not at all: into a temporary file
    in the target's folder, then renamed over it. A symlink is followed to the
    file it names; a target that exists and is not a regular file (a device
    such as /dev/full, a folder, a pipe) is refused. Raises :class:`OutputError`."""
    real = check_target(target)
    name = os.fspath(target)
    folder = real.parent
    try:
        fd, temporary = tempfile.mkstemp(prefix=f".{real.name}.", suffix=".tmp", dir=folder)
    except OSError as error:
        raise OutputError(f"cannot write {name}: {error.strerror or error}", name) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, 0o666 & ~_umask())
        os.replace(temporary, real)
    except OSError as error:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise OutputError(f"cannot write {name}: {error.strerror or error}", name) from None
    return real


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
