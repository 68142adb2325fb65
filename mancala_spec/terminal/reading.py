"""The one bounded reader of every table, index and data file the package reads.

:func:`read_bounded` reads a regular file only (a FIFO, a device such as
``/dev/zero``, a folder or a socket is refused at once: it is opened without
blocking and looked at before a byte is read), and at most the bytes that
what it holds can take (the caller's bound, from what the file can hold: a
huge or sparse file is refused by its size, and a file that grows while it is
read is refused when it passes the bound). :func:`json_bounded` parses JSON
read so, nesting of any depth included. Every failure is one error type, one
line: :class:`~mancala_spec.errors.TableError` unless the caller names another.
"""
from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

from ..errors import MancalaError, TableError
from .escape import shown


def read_bounded(path: str | os.PathLike[str], limit: int, what: str,
                 error: type[MancalaError] = TableError, missing_ok: bool = False,
                 field: str = "format") -> bytes | None:
    """The bytes of the regular file *path*, *limit* bytes at most; *what*
    names it in a message. ``None`` if it is not there and *missing_ok*; else
    *error* (``field`` given when the error is a :class:`TableError`)."""
    def fail(why: str) -> MancalaError:
        message = f"cannot read {what} {shown(os.fspath(path))}: {why}"
        return error(message, field=field) if error is TableError else error(message)

    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        if missing_ok:
            return None
        raise fail("it is not there") from None
    except (OSError, ValueError) as failure:
        raise fail(getattr(failure, "strerror", None) or str(failure)) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise fail("it is not a regular file")
        if info.st_size > limit:
            raise fail(f"it has {info.st_size:,} bytes; {what} holds {limit:,} at most")
        parts, total = [], 0
        while True:
            part = os.read(fd, min(1 << 20, limit + 1 - total))
            if not part:
                break
            parts.append(part)
            total += len(part)
            if total > limit:
                raise fail(f"it has more than {limit:,} bytes; {what} holds no more")
        return b"".join(parts)
    except OSError as failure:
        raise fail(failure.strerror or str(failure)) from None
    finally:
        os.close(fd)


def json_bounded(data: bytes | str, what: str, error: type[MancalaError] = TableError,
                 field: str = "format") -> Any:
    """*data* parsed as JSON (already read within its bound); *error*, one line,
    if it is not JSON, is nested too deeply, or holds a number too long to read."""
    def fail(why: str) -> MancalaError:
        message = f"{what} {why}"
        return error(message, field=field) if error is TableError else error(message)

    try:
        return json.loads(data)
    except RecursionError:
        raise fail("is nested too deeply") from None
    except (ValueError, TypeError):
        raise fail("is not JSON") from None


def folder_of(folder: Any, name: str = "folder") -> Path:
    """*folder* as a path, or :class:`~mancala_spec.errors.OptionError` naming the
    argument *name*."""
    from ..errors import not_a

    if isinstance(folder, bytes):
        return Path(os.fsdecode(folder))
    if not isinstance(folder, (str, os.PathLike)):
        raise not_a(name, folder, "a folder's path")
    return Path(folder)


__all__ = ["folder_of", "json_bounded", "read_bounded"]
