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

And it makes ahead what the pages will ask it for (:func:`ahead`): when a build
starts, the values the extensions say the sources will need (the conformance
suite, the readings pages, the analysis tables) are made in one forked process,
beside sphinx-gallery's scripts in the main one, so that on two cores a cold build
does not wait for them one after the other. A page that asks for a value still
being made waits for it (a lock the process holds until the value is kept); if the
process failed, the page makes the value itself, as without it. Then the process
draws the diagrams (:func:`share`), from the last page's while the pages draw
theirs from the first, each under a claim (:func:`claimed`) that whoever comes
second waits for, so that no picture is drawn twice.
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
    wait(target.name)
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
    wait(f"{name}.json")
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


def file(target: Path, name: str, write: Callable[[Path], Any]) -> Path:
    """Put the file cached as *name* (a digest of what it depends on) at *target*; when
    there is none, *write* it there (``write(path)``) and keep it under *name*."""
    wait(name)
    where = folder()
    target.parent.mkdir(parents=True, exist_ok=True)
    if where is not None and (where / name).is_file():
        shutil.copyfile(where / name, target)
        return target
    write(target)
    if where is not None:
        try:
            where.mkdir(parents=True, exist_ok=True)
            partial = where / f".{name}.{os.getpid()}.part"
            shutil.copyfile(target, partial)
            partial.replace(where / name)
        except OSError:
            pass
    return target


def made(name: str, write: Callable[[Path], Any]) -> Callable[[], None]:
    """A job for :func:`ahead`: *write* the file cached as *name* into the cache folder."""
    def make() -> None:
        where = folder()
        if where is None or (where / name).is_file():
            return
        partial = where / f".{name}.{os.getpid()}.part"
        write(partial)
        partial.replace(where / name)
    return make


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


# -- made ahead: what the sources will ask for, made beside the gallery ------------------

#: the extensions' lists of what a build will need: each takes the app and returns
#: (file name in the cache folder, a function that makes and keeps that file)
PLANNERS: list[Callable[[Any], list[tuple[str, Callable[[], Any]]]]] = []

#: the lists of what either process may make, whichever comes to it first (the
#: diagrams): each takes the app and returns (claim name, a function that makes and
#: keeps it); the maker takes them from the last, the pages from the first
SHARED: list[Callable[[Any], list[tuple[str, Callable[[], Any]]]]] = []

#: cache file name -> the lock file the process making it holds until it is kept
_MAKING: dict[str, Path] = {}

#: the folder of this build's claims (:func:`claimed`), while a maker runs beside it
_CLAIMS: list[Path] = []

#: how long a page waits for a claim the other process holds before it makes the
#: thing itself (a drawing takes a second; a process that holds one this long is stuck)
PATIENCE = 120.0

#: (when, planner): the order in which the maker makes what the planners list
_ORDER: dict[Callable[..., Any], int] = {}


def plan(planner: Callable[[Any], list[tuple[str, Callable[[], Any]]]], *,
         when: int = 1) -> None:
    """Register *planner* (an extension's setup() calls this): at the start of a
    build it lists what the sources will need, to be made ahead (:func:`ahead`).
    The maker makes the lists in the order of *when*: 0 for what the first pages
    read need, 1 for the others, 3 for what only the end of the build needs (the
    shared drawings, :func:`share`, come between, at 2)."""
    _ORDER[planner] = when
    if planner not in PLANNERS:
        PLANNERS.append(planner)


def share(planner: Callable[[Any], list[tuple[str, Callable[[], Any]]]]) -> None:
    """Register *planner* of things the pages make themselves when the maker has
    not (the diagrams): the maker, after the planned values, makes them from the
    last one listed while the pages make theirs from the first, each under a claim
    (:func:`claimed`), so that no file is made twice and neither waits for long."""
    if planner not in SHARED:
        SHARED.append(planner)


def sharing() -> bool:
    """Whether a maker beside this build makes what the shared planners list."""
    return bool(_CLAIMS)


def claimed(name: str, make: Callable[[], Any], *, wait: bool = True) -> bool:
    """Run *make* holding this build's claim on *name*, and say whether it ran.
    Without a maker beside the build there is no claim: *make* just runs. The claim
    is a lock (flock) the holder's death also releases; with *wait*, one the other
    process holds is waited for (at most :data:`PATIENCE` seconds, then *make* runs
    anyway: it writes whole files under temporary names, so two makers only cost
    time), without it the claim is not taken and *make* does not run. *make* is to
    check first whether the other process made the thing already."""
    if not _CLAIMS:
        make()
        return True
    import fcntl
    import time

    try:
        handle = open(_CLAIMS[0] / f"{name}.lock", "ab")
    except OSError:                  # the claims are gone (the build ended): no claim
        make()
        return True
    with handle:
        deadline = time.monotonic() + PATIENCE
        pause = 0.005
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if not wait:
                    return False
                if time.monotonic() > deadline:
                    break
                time.sleep(pause)
                pause = min(pause * 2, 0.05)
        make()                       # the lock goes with the handle
    return True


def directive_uses(app, name: str) -> list[tuple[list[str], dict[str, str]]]:
    """(arguments, options) of each use of directive *name* in the MyST pages of the
    build's sources, as written (fenced ```{name} args, then :option: value lines)."""
    import re

    fence = re.compile(r"^(?:`{3,}|:{3,})\{" + re.escape(name) + r"\}[ \t]*(.*)\n"
                       r"((?:[ \t]*:[\w-]+:.*\n)*)", re.MULTILINE)
    found = []
    for path in sorted(Path(app.srcdir).rglob("*.md")):
        for match in fence.finditer(path.read_text(encoding="utf-8")):
            options = dict(re.findall(r"^[ \t]*:([\w-]+):[ \t]*(.*?)[ \t]*$", match.group(2),
                                      re.MULTILINE))
            found.append((match.group(1).split(), options))
    return found


def wait(name: str) -> None:
    """If the file *name* of the cache folder is being made ahead, wait until it is
    (or until the process making it has ended, whatever became of it)."""
    lock = _MAKING.get(name)
    if lock is None:
        return
    import fcntl

    try:
        with open(lock, "rb") as held:
            fcntl.flock(held, fcntl.LOCK_EX)     # released by the maker when it is kept
    except OSError:
        pass


def ahead(app) -> None:
    """At the start of a build (builder-inited, before sphinx-gallery runs the
    scripts): fork one process, the maker, that makes, one after the other, what
    the planners list and the cache folder does not hold yet, in the order they
    ask for (:func:`plan`). Each is locked (flock) before the fork and released by
    the maker when it is kept, so a page asking for it waits for exactly that one;
    a lock is also released if the maker dies. Between the values that the pages
    need and those only the end of the build needs, the maker makes what the
    shared planners list (:func:`share`), from the last, each under a claim."""
    where = folder()
    if where is None or not hasattr(os, "fork") or _CLAIMS:
        return
    import fcntl

    jobs: list[tuple[str, Callable[[], Any]]] = []
    late: set[str] = set()
    for planner in sorted(PLANNERS, key=lambda planner: _ORDER.get(planner, 1)):
        try:
            listed = planner(app)
        except Exception:      # noqa: BLE001 - a plan that fails only costs the head start
            continue
        jobs += listed
        if _ORDER.get(planner, 1) >= 3:
            late.update(name for name, _ in listed)
    jobs = [(name, make) for name, make in dict(jobs).items()
            if name not in _MAKING and not (where / name).is_file()]
    if not jobs and not SHARED:
        return
    where.mkdir(parents=True, exist_ok=True)
    held = []
    for name, _ in jobs:
        lock = where / f".{name}.{os.getpid()}.lock"
        handle = open(lock, "wb")
        fcntl.flock(handle, fcntl.LOCK_EX)
        held.append(handle)
        _MAKING[name] = lock
    claims = where / f".claims-{os.getpid()}"
    shutil.rmtree(claims, ignore_errors=True)
    claims.mkdir()
    _CLAIMS.append(claims)
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:                                   # the maker
        code = 0
        _MAKING.clear()                  # it waits for nothing: it holds the locks
        try:
            steps = [(name, make, handle) for (name, make), handle in zip(jobs, held)]
            for name, make, handle in steps:
                if name in late:
                    continue
                code |= _run(make, handle)
            code |= _shared(app)
            for name, make, handle in steps:
                if name in late:
                    code |= _run(make, handle)
        finally:
            os._exit(code)
    for handle in held:                  # the maker holds the locks now
        handle.close()
    app.connect("build-finished", lambda app, exception: _reap(pid, jobs))


def _run(make: Callable[[], Any], handle) -> int:
    """In the maker: make one planned value, then release its lock; 1 if it failed."""
    try:
        make()
    except BaseException:   # noqa: BLE001 - the page makes it, and says why
        return 1
    finally:
        handle.close()       # released: a page waiting for it reads it now
    return 0


def _shared(app) -> int:
    """In the maker: what the shared planners list, from the last, each under its
    claim (one a page holds is the page's); 1 if something failed."""
    code = 0
    jobs: list[tuple[str, Callable[[], Any]]] = []
    for planner in SHARED:
        try:
            jobs += planner(app)
        except Exception:      # noqa: BLE001 - the pages make it all themselves
            code = 1
    for name, make in reversed(jobs):
        try:
            claimed(name, make, wait=False)
        except Exception:      # noqa: BLE001 - the page makes it, and says why
            code = 1
    return code


def _reap(pid: int, jobs) -> None:
    """After the build: wait for the maker (it may still make what no page asked
    for), and remove its lock files and claims."""
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass
    for name, _ in jobs:
        lock = _MAKING.pop(name, None)
        if lock is not None:
            try:
                lock.unlink()
            except OSError:
                pass
    while _CLAIMS:
        shutil.rmtree(_CLAIMS.pop(), ignore_errors=True)


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
    # the values the pages will ask for: made ahead, beside the gallery's scripts
    app.connect("builder-inited", ahead, priority=450)
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
