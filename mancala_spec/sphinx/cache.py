"""A cache that outlives one build, for what the site computes and does not change.

The diagram and analysis extensions name each picture they draw by a digest of
everything it depends on (the code, the versions, the position and options), so
a file of that name is the right picture. Within a build they keep them in the
doctree folder; when ``MANCALA_SPEC_CACHE`` names a folder (``dev.py`` sets it),
each is also kept there, and a later build (a fresh clone, the test suite's)
takes it from there instead of drawing it again. The analysis tables are kept
the same way, as JSON, under a digest of the code and the sizes; the readings
page's text under a digest of the whole package (:func:`package_digest`).

As a Sphinx extension (``conf.py`` lists it), it also keeps sphinx-gallery's
output folder whole, so that a fresh clone's build need not run the gallery's
scripts again when nothing they depend on changed (:func:`restore_gallery`).
"""
from __future__ import annotations

import functools
import hashlib
import json
import os
import shutil
import sys
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


# -- what the whole package's code decides ----------------------------------------------


@functools.cache
def package_digest(package: Path | None = None) -> str:
    """A digest of every file of the package (code and data; *package* is its
    folder, by default mancala_spec's) and of Python's version: a value cached
    under it is remade whenever any of them changes."""
    package = package or Path(__file__).resolve().parent.parent
    digest = hashlib.sha256(f"{sys.version_info[:2]}".encode())
    for path in sorted(package.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
            digest.update(path.relative_to(package).as_posix().encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


# -- the gallery: sphinx-gallery's output, kept whole ----------------------------------------
#
# sphinx-gallery runs every script of a fresh checkout (a third of a warm build). It
# skips a script whose copy and .md5 file in the gallery folder are current, so the
# folder a build wrote, kept under a digest of the scripts, the package, the gallery
# settings and the versions of what draws, and put back before sphinx-gallery looks,
# gives the same pages without running the scripts again.


def _gallery_paths(app) -> tuple[Path, Path] | None:
    """(the scripts' folder, the gallery folder sphinx-gallery writes), if one each."""
    conf = app.config.sphinx_gallery_conf
    found = []
    for key in ("examples_dirs", "gallery_dirs"):
        value = conf.get(key)           # sphinx-gallery makes these lists, at builder-inited
        value = value[0] if isinstance(value, (list, tuple)) and len(value) == 1 else value
        if not isinstance(value, str):
            return None
        found.append((Path(app.srcdir) / value).resolve())
    return found[0], found[1]


def gallery_digest(app) -> str | None:
    """The name the gallery folder of this build is kept under, or ``None``: a digest
    of the scripts, the package, conf.py (which holds the gallery's settings) and
    the versions of what runs and draws them."""
    paths = _gallery_paths(app)
    if paths is None:
        return None
    from importlib.metadata import PackageNotFoundError, version

    examples = paths[0]
    digest = hashlib.sha256(package_digest().encode())
    for name in ("sphinx-gallery", "sphinx", "matplotlib", "numpy", "pillow"):
        try:
            digest.update(f"{name} {version(name)}\0".encode())
        except PackageNotFoundError:    # not installed: its absence is part of the key
            digest.update(f"{name} -\0".encode())
    digest.update((Path(app.confdir) / "conf.py").read_bytes() + b"\0")
    for path in sorted(examples.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(path.relative_to(examples).as_posix().encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
    return f"gallery-{digest.hexdigest()[:20]}.tar"


#: in the gallery folder: the digest (:func:`gallery_digest`) of the build that wrote it
STAMP = ".mancala-spec-digest"


def restore_gallery(app) -> None:
    """Before sphinx-gallery runs: a gallery folder left by a build of other
    scripts, package code or settings is removed (sphinx-gallery would keep its
    pictures, since it re-runs a script only when the script itself changed);
    then, when the checkout has none, the folder kept under the same digest is
    put in place."""
    paths, name = _gallery_paths(app), gallery_digest(app)
    if paths is None or name is None:
        return
    written = paths[1]
    if written.exists():
        try:
            current = (written / STAMP).read_text(encoding="utf-8") == name
        except OSError:
            current = False
        if current:
            return
        shutil.rmtree(written)
    where = folder()
    kept = where / name if where is not None else None
    if kept is None or not kept.is_file():
        return
    import tarfile

    partial = written.with_name(f".{written.name}.{os.getpid()}.part")
    try:
        with tarfile.open(kept) as archive:
            archive.extractall(partial, filter="data")
        partial.rename(written)
    except (OSError, tarfile.TarError):
        shutil.rmtree(partial, ignore_errors=True)   # a bad copy: the scripts run


def keep_gallery(app, exception) -> None:
    """After a good build: stamp the gallery folder with its digest, and keep it
    (once per digest)."""
    paths, name, where = _gallery_paths(app), gallery_digest(app), folder()
    if exception is not None or paths is None or name is None or not paths[1].is_dir():
        return
    try:
        (paths[1] / STAMP).write_text(name, encoding="utf-8")
    except OSError:
        return
    if where is None or (where / name).is_file():
        return
    import tarfile

    try:
        where.mkdir(parents=True, exist_ok=True)
        partial = where / f".{name}.{os.getpid()}.part"
        with tarfile.open(partial, "w") as archive:
            for path in sorted(paths[1].rglob("*")):
                archive.add(path, arcname=path.relative_to(paths[1]).as_posix(),
                            recursive=False)
        partial.replace(where / name)
    except OSError:
        pass


def setup(app):
    # sphinx-gallery writes its pages at builder-inited (priority 500): restore first
    app.connect("builder-inited", restore_gallery, priority=400)
    app.connect("build-finished", keep_gallery)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
