"""Folders written whole: the one writer of every folder the project writes (a
table of Ba-awa's values, the site's copy of it); files are written by
:func:`mancala_spec.terminal.output.write_atomic`, with the same rules.

:func:`check_folder` checks the target before any long work starts: its folder
is there and takes a new entry (a probe folder and a block are made there and
removed: read-only, no permission, a full disk or no inodes are found now, not
after a solve of minutes), its name is one of its own (not ``.``, ``..`` or
empty, no longer than the file system takes), and a folder already there is
one this writer can prove it wrote, or empty. The proof is the manifest
(:data:`MANIFEST`) the writer leaves in each folder it writes, naming every
file it put there: a folder holding anything else, or no manifest (a folder
that merely holds ``index.json``), is not replaced and nothing in it is touched.

:class:`WrittenFolder` (a context manager) writes into a temporary folder of
a short name of its own beside the target (``.mancala-spec-XXXXXXXXXXXX.tmp``,
so that every name the file system takes can be written, 255 bytes too). When
the body ends without error, the manifest is written, *verify* (if given) reads
the finished temporary folder, and only then does it replace the target: the
old version keeps its name until the new one is whole. The two renames of a
replacement run with SIGINT, SIGTERM and SIGHUP held back, so no signal falls
between them; the old version is then removed, file by file as its manifest
names them. An error or a signal anywhere removes the temporary folder (a
command's second signal too: :data:`mancala_spec.terminal.signals.TEMPORARY_FOLDERS`).
Only SIGKILL, which nothing can catch, can leave a temporary folder behind. A
symlink to a folder is followed: the folder it names is replaced, the link kept.
Errors are :class:`~mancala_spec.terminal.status.OutputError` (exit status 4),
one line, the name escaped (:func:`~mancala_spec.terminal.escape.shown`).
"""
from __future__ import annotations

import errno
import json
import os
import secrets
import shutil
import signal
from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import signals
from .escape import shown
from .status import OutputError

#: the manifest a written folder holds: the files the writer put there
MANIFEST = ".mancala-spec-written"
_MANIFEST_FORMAT = "mancala_spec written folder 1"
#: the most bytes a manifest may have (a folder of 100,000 files of 80-byte names)
MANIFEST_BYTES = 10_000_000


def _name(target: Any) -> str:
    return shown(os.fsdecode(target) if isinstance(target, (bytes, os.PathLike)) else target)


def _refuse(target: Any, why: str) -> OutputError:
    return OutputError(f"cannot write {_name(target)}: {why}",
                       os.fsdecode(target) if isinstance(target, (str, bytes, os.PathLike))
                       else None)


def _why(error: OSError) -> str:
    if error.errno == errno.ENOSPC:
        return "no space left on the device (or no inodes)"
    return error.strerror or str(error)


def manifest_files(folder: Path) -> list[str] | None:
    """The files the manifest of *folder* names, if the folder is one this
    writer wrote (its manifest is there and names every other entry, each a
    regular file); else ``None``."""
    from ..errors import MancalaError
    from .reading import read_bounded

    try:
        manifest = json.loads(read_bounded(folder / MANIFEST, MANIFEST_BYTES, "manifest") or b"")
    except (MancalaError, ValueError, RecursionError):
        return None
    if not isinstance(manifest, dict):
        return None
    files = manifest.get("files")
    if manifest.get("format") != _MANIFEST_FORMAT or not isinstance(files, list) \
            or not all(isinstance(f, str) and f and "/" not in f and f not in (".", "..")
                       for f in files):
        return None
    try:
        present = set(os.listdir(folder)) - {MANIFEST}
    except OSError:
        return None
    if present - set(files) or not all((folder / f).is_file() and not (folder / f).is_symlink()
                                       for f in present):
        return None
    return sorted(present)


def check_folder(target: str | bytes | os.PathLike[str], what: str = "folder") -> Path:
    """The real path of the folder *target* names, if it can be written now
    (see the module's text); else :class:`OutputError`, one line, saying why."""
    if not isinstance(target, (str, bytes, os.PathLike)):
        raise OutputError(f"the {what} must be a folder's path, not {shown(target)}")
    text = os.fsdecode(target)
    base = os.path.basename(text.rstrip("/")) if text.strip("/") else text
    if base in ("", ".", ".."):
        raise _refuse(target, f"a {what} is written as a folder of its own: give a new "
                              "folder's name, not '.', '..' or the root")
    parent_text = os.path.dirname(text.rstrip("/")) or "."
    try:
        longest = os.pathconf(parent_text, "PC_NAME_MAX")
    except (OSError, ValueError):
        longest = 255
    if len(os.fsencode(base)) > longest:
        raise _refuse(target, f"its name has {len(os.fsencode(base))} bytes; the file "
                              f"system takes {longest} at most")
    path = Path(text)
    try:
        real = path.resolve() if path.is_symlink() else path.absolute()
    except (OSError, RuntimeError) as error:
        raise _refuse(target, getattr(error, "strerror", None) or str(error)) from None
    parent = real.parent
    if not parent.is_dir():
        raise _refuse(target, f"no folder {shown(parent)}")
    if len(os.fsencode(real.name)) > longest:
        raise _refuse(target, f"the folder its link names has a name of "
                              f"{len(os.fsencode(real.name))} bytes; the file system "
                              f"takes {longest} at most")
    if os.path.lexists(real):
        if not real.is_dir():
            raise _refuse(target, "it is not a folder")
        if any(os.scandir(real)) and manifest_files(real) is None:
            raise _refuse(target, "it is not empty and holds no manifest of the files "
                                  f"mancala-spec wrote there ({MANIFEST}); it is not "
                                  "replaced and nothing in it is touched")
        if not os.access(real, os.W_OK | os.X_OK):
            raise _refuse(target, "no permission to replace it")
    probe = _temporary_folder(parent, target)
    try:
        fd = os.open(probe / "probe", os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.posix_fallocate(fd, 0, 4096)
        except OSError as error:
            if error.errno not in (errno.EOPNOTSUPP, errno.EINVAL, errno.ENOSYS):
                raise _refuse(target, _why(error)) from None
        finally:
            os.close(fd)
    except OSError as error:
        raise _refuse(target, _why(error)) from None
    finally:
        _remove_temporary(probe)
    return real


def _temporary_folder(parent: Path, target: Any) -> Path:
    """A new folder of a short name of its own in *parent*, removed if the process
    ends at a signal."""
    while True:
        temporary = parent / f".mancala-spec-{secrets.token_hex(6)}.tmp"
        signals.TEMPORARY_FOLDERS.add(str(temporary))
        try:
            os.mkdir(temporary, 0o700)
            return temporary
        except FileExistsError:
            signals.TEMPORARY_FOLDERS.discard(str(temporary))
        except OSError as error:
            signals.TEMPORARY_FOLDERS.discard(str(temporary))
            raise _refuse(target, _why(error)) from None


def _remove_temporary(folder: Path) -> None:
    shutil.rmtree(folder, ignore_errors=True)
    signals.TEMPORARY_FOLDERS.discard(str(folder))


class _Held:
    """SIGINT, SIGTERM and SIGHUP held back: one that arrives is noted, and
    raised again once the block ends (its handler then runs). Python runs signal
    handlers in the main thread only, whichever thread the system gave the
    signal to, so the handlers are what is swapped; elsewhere nothing is done
    (a signal's handler cannot interrupt a thread other than the main one)."""

    def __enter__(self) -> None:
        import threading

        self.previous: dict[int, Any] = {}
        self.arrived: list[int] = []
        if threading.current_thread() is not threading.main_thread():
            return
        for number in signals.SIGNALS:
            try:
                if signal.getsignal(number) not in (signal.SIG_IGN, None):
                    self.previous[number] = signal.signal(number, self._note)
            except (OSError, ValueError):
                pass

    def _note(self, number: int, frame: Any) -> None:
        self.arrived.append(number)

    def __exit__(self, *exc: Any) -> None:
        for number, handler in self.previous.items():
            signal.signal(number, handler)
        for number in dict.fromkeys(self.arrived):
            signal.raise_signal(number)


class WrittenFolder:
    """``with WrittenFolder(target) as out:`` write the folder's files with
    :meth:`write` or :meth:`copy` (or into :meth:`file`'s paths, then
    :meth:`add`); when the body ends without error the folder replaces
    *target*, whole, once *verify* (called with the finished temporary folder's
    path; it raises to refuse it) has read it. See the module's text."""

    def __init__(self, target: str | bytes | os.PathLike[str], what: str = "folder",
                 verify: Callable[[Path], Any] | None = None) -> None:
        self.target = target
        self.what = what
        self.verify = verify
        self.real = check_folder(target, what)
        self.path = Path()
        self.names: list[str] = []

    def __enter__(self) -> WrittenFolder:
        self.path = _temporary_folder(self.real.parent, self.target)
        return self

    def file(self, name: str) -> Path:
        """The path to write the file *name* at (then :meth:`add` it)."""
        if not name or "/" in name or name in (".", "..", MANIFEST):
            raise ValueError(f"not a file name of a written folder: {name!r}")
        return self.path / name

    def add(self, name: str) -> None:
        self.file(name)
        if name not in self.names:
            self.names.append(name)

    def write(self, name: str, data: bytes) -> None:
        """Write the file *name* of the folder."""
        try:
            (self.file(name)).write_bytes(data)
        except OSError as error:
            raise _refuse(self.target, _why(error)) from None
        self.add(name)

    def copy(self, source: Path, name: str | None = None) -> None:
        """Copy the file *source* into the folder (a hard link where the file
        system allows: the files are never written in place)."""
        name = source.name if name is None else name
        try:
            try:
                os.link(source, self.file(name))
            except OSError:
                shutil.copyfile(source, self.file(name))
        except OSError as error:
            raise _refuse(self.target, _why(error)) from None
        self.add(name)

    def __exit__(self, kind: Any, value: Any, traceback: Any) -> None:
        try:
            if kind is None:
                self._finish()
                self._commit()
        finally:
            _remove_temporary(self.path)

    def _finish(self) -> None:
        manifest = {"format": _MANIFEST_FORMAT, "files": sorted(self.names)}
        try:
            (self.path / MANIFEST).write_text(json.dumps(manifest) + "\n", encoding="utf-8")
            for name in [*self.names, MANIFEST]:
                fd = os.open(self.path / name, os.O_RDONLY)
                try:
                    os.fsync(fd)
                finally:
                    os.close(fd)
            os.chmod(self.path, 0o777 & ~_umask())
        except OSError as error:
            raise _refuse(self.target, _why(error)) from None
        if self.verify is not None:
            self.verify(self.path)

    def _commit(self) -> None:
        real = self.real
        old: Path | None = None
        swapped = False
        try:
            if os.path.lexists(real):
                owned = manifest_files(real)
                if owned is None and any(os.scandir(real)):
                    raise _refuse(self.target, "it changed while it was written: it now holds "
                                               "files mancala-spec did not write there")
                old = self.real.parent / f".mancala-spec-{secrets.token_hex(6)}.old"
                signals.TEMPORARY_FOLDERS.add(str(old))
                with _Held():                   # no signal between the two renames
                    os.rename(real, old)
                    try:
                        os.rename(self.path, real)
                    except OSError:
                        os.rename(old, real)
                        raise
                    swapped = True
            else:
                os.rename(self.path, real)
        except OSError as error:
            raise _refuse(self.target, _why(error)) from None
        finally:
            if old is not None:
                if swapped:                     # (a signal held back is raised after this)
                    _remove_written(old)
                signals.TEMPORARY_FOLDERS.discard(str(old))


def _remove_written(folder: Path) -> None:
    """Remove a folder this writer wrote: the files its manifest names, the
    manifest, the folder (anything else in it is left, and so the folder)."""
    for name in manifest_files(folder) or []:
        try:
            os.unlink(folder / name)
        except OSError:
            pass
    for last in (folder / MANIFEST, folder):
        try:
            os.unlink(last) if last != folder else os.rmdir(last)
        except OSError:
            pass
    signals.TEMPORARY_FOLDERS.discard(str(folder))


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


__all__ = ["MANIFEST", "WrittenFolder", "check_folder", "manifest_files"]
