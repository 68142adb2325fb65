"""A cache that outlives one build, for what the site computes and does not change.

The diagram and analysis extensions name each picture they draw by a digest of
everything it depends on (the code, the versions, the position and options), so
a file of that name is the right picture. Within a build they keep them in the
doctree folder; when ``MANCALA_SPEC_CACHE`` names a folder (``dev.py`` sets it),
each is also kept there, and a later build (a fresh clone, the test suite's)
takes it from there instead of drawing it again. The analysis tables are kept
the same way, as JSON, under a digest of the code and the sizes; the readings
page's text, the conformance suite and the Play page's Bakuk values under a
digest of the whole package (:func:`package_digest`).

As a Sphinx extension (``conf.py`` lists it), it also keeps sphinx-gallery's
output folder whole, so that a fresh clone's build need not run the gallery's
scripts again when nothing they depend on changed (:func:`restore_gallery`).

What it saves (a build of the site on two idle cores, seconds of wall time): a
fresh clone with the cache filled 11 instead of 58, a rebuild with nothing changed
2 instead of 5 (the Bakuk values are not solved again).
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


def _kept(name: str) -> Path | None:
    """The cache's file *name*, if it holds one."""
    where = folder()
    return where / name if where is not None and (where / name).is_file() else None


def _keep(name: str, write: Callable[[Path], Any]) -> None:
    """*write* the cache's file *name* (``write(path)``), whole: under a temporary
    name, then renamed, so that no build reads half a file."""
    where = folder()
    if where is None:
        return
    try:
        where.mkdir(parents=True, exist_ok=True)
        partial = where / f".{name}.{os.getpid()}.part"
        write(partial)
        partial.replace(where / name)
    except OSError:
        pass                                  # a cache that cannot be written is no cache


def file(target: Path, write: Callable[[Path], Any], name: str | None = None) -> Path:
    """Put the file cached as *name* (by default *target*'s name: a digest of what it
    depends on) at *target*; when there is none, *write* it there (``write(path)``)
    and keep a copy."""
    name = name or target.name
    target.parent.mkdir(parents=True, exist_ok=True)
    kept = _kept(name)
    if kept is not None:
        shutil.copyfile(kept, target)
    else:
        write(target)
        _keep(name, lambda partial: shutil.copyfile(target, partial))
    return target


def value(name: str, make: Callable[[], Any]) -> Any:
    """The JSON value cached as *name* (a digest of what it depends on), made
    by *make* and kept when it is not there."""
    kept = _kept(f"{name}.json")
    if kept is not None:
        try:
            return json.loads(kept.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            pass
    result = make()
    _keep(f"{name}.json", lambda partial: partial.write_text(json.dumps(result),
                                                             encoding="utf-8"))
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
    kept = _kept(name)
    if kept is None:
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
    paths, name = _gallery_paths(app), gallery_digest(app)
    if exception is not None or paths is None or name is None or not paths[1].is_dir():
        return
    try:
        (paths[1] / STAMP).write_text(name, encoding="utf-8")
    except OSError:
        return
    if _kept(name) is not None:
        return
    import tarfile

    written = paths[1]

    def write(partial: Path) -> None:
        with tarfile.open(partial, "w") as archive:
            for path in sorted(written.rglob("*")):
                archive.add(path, arcname=path.relative_to(written).as_posix(),
                            recursive=False)
    _keep(name, write)


def setup(app):
    # sphinx-gallery writes its pages at builder-inited (priority 500): restore first
    app.connect("builder-inited", restore_gallery, priority=400)
    app.connect("build-finished", keep_gallery)
    return {"parallel_read_safe": True, "parallel_write_safe": True}


def suite_key(docs: Path) -> str:
    """The name the suite of the pages in *docs* is kept under: a digest of the
    package and of the pages (the test suite's ``docs_suite`` keeps it under the
    same name, so that the tests and the site build make it once). Here, not in
    :mod:`.reference`, so that the tests read it without Sphinx."""
    digest = hashlib.sha256(package_digest().encode())
    for path in sorted(docs.rglob("*.md")):
        if "auto_examples" not in path.parts:
            digest.update(path.relative_to(docs).as_posix().encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
    return f"suite-{digest.hexdigest()[:20]}"
