"""A cache that outlives one build, for what the site computes and does not change.

The diagram and analysis extensions name each picture they draw by a digest of
everything it depends on (the code, the versions, the position and options), so
a file of that name is the right picture. Within a build they keep them in the
doctree folder; when ``MANCALA_SPEC_CACHE`` names a folder (``dev.py`` sets it),
each is also kept there, and a later build (a fresh clone, the test suite's)
takes it from there instead of drawing it again. The analysis tables are kept
the same way, as JSON, under a digest of the code and the sizes.
"""
from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

FOLDER = "site"


def folder() -> Path | None:
    """The persistent cache folder, or ``None`` when none is set."""
    base = os.environ.get("MANCALA_SPEC_CACHE", "").strip()
    return Path(base) / FOLDER if base else None


def restore(target: Path) -> bool:
    """Put the cached file named like *target* at *target*; whether there was one."""
    where = folder()
    if where is None or not (where / target.name).is_file():
        return False
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(where / target.name, target)
    return True


def keep(target: Path) -> None:
    """Keep a copy of the file *target* in the cache (written whole, then renamed)."""
    where = folder()
    if where is None:
        return
    try:
        where.mkdir(parents=True, exist_ok=True)
        partial = where / f".{target.name}.{os.getpid()}.part"
        shutil.copyfile(target, partial)
        partial.replace(where / target.name)
    except OSError:
        pass                                  # a cache that cannot be written is no cache


def value(name: str, make: Callable[[], Any]) -> Any:
    """The JSON value cached as *name* (a digest of what it depends on), made
    by *make* and kept when it is not there."""
    where = folder()
    path = None if where is None else where / f"{name}.json"
    if path is not None and path.is_file():
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            pass
    result = make()
    if path is not None:
        try:
            where.mkdir(parents=True, exist_ok=True)   # type: ignore[union-attr]
            partial = path.with_name(f".{path.name}.{os.getpid()}.part")
            partial.write_text(json.dumps(result), encoding="utf-8")
            partial.replace(path)
        except OSError:
            pass
    return result
