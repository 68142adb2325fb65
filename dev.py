#!/usr/bin/env python3
"""Set up a virtual environment and build the rules site or run the tests.

Usage::

    python3 dev.py site    # install everything into .venv, build build/html
    python3 dev.py site --ba-awa-values DIR   # ... with Ba-awa's exact values on the Play page
    python3 dev.py test    # install everything into .venv, run the whole test suite
    python3 dev.py doctest # run the site's examples with Sphinx's doctest builder
    python3 dev.py pdf     # the printable edition of the rules, build/mancala_spec-rules.pdf
    python3 dev.py lock    # the hashed locks requirements/*.txt anew (pins kept where they fit)
    python3 dev.py lock --upgrade   # ... with every package at its newest allowed version

Only Python 3.11+ is needed: the script makes ``.venv`` itself and installs what
``requirements/dev.txt`` locks (hashed: the ``dev`` dependency group of
pyproject.toml, docs, test and lint tools), then the package (again only when
pyproject.toml or the lock changed).

The site's Play page runs the engine in the browser with Pyodide. The build
(``conf.py``) calls :func:`copy_play_assets`, which takes Pyodide from
``node_modules/`` (``npm ci`` installs the version and hash package-lock.json
pins; it runs when they are missing) and the project's own wheel, built by pip
with the setuptools backend, so the built site needs no network at run time.
"""
from __future__ import annotations

import base64
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if sys.platform == "win32" else "bin")
PYTHON = BIN / "python"
STAMP = VENV / ".installed"


def run(*cmd: str | Path) -> None:
    print("+", " ".join(map(str, cmd)), flush=True)
    result = subprocess.run([str(c) for c in cmd], cwd=ROOT)
    if result.returncode:
        sys.exit(result.returncode)


#: The hashed locks: every package the site, the tests and the linters run with, at an
#: exact version with the hashes of its files, resolved from pyproject.toml's dependency
#: groups (the lower bounds) by uv; ``python3 dev.py lock`` writes them anew (keeping
#: every pin that still fits), ``python3 dev.py lock --upgrade`` takes the newest.
#: ``dev.txt`` is what .venv holds (the ``dev`` group: docs, test and the lock tool),
#: ``docs.txt`` what Read the Docs installs (the ``docs`` group).
LOCKS = {"dev": ROOT / "requirements" / "dev.txt", "docs": ROOT / "requirements" / "docs.txt"}


def ensure_venv() -> None:
    """Create .venv and install what requirements/dev.txt locks (``pip --require-hashes``:
    every file checked against its hash), then the package itself, editable, without
    its dependencies (it has none) and without build isolation (setuptools is locked)."""
    lock = LOCKS["dev"]
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes() + lock.read_bytes()
                            ).hexdigest()
    if STAMP.exists() and STAMP.read_text() == wanted and PYTHON.exists():
        return
    if not PYTHON.exists():
        print(f"+ creating {VENV}", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    run(PYTHON, "-m", "pip", "install", "--quiet", "--require-hashes", "-r", lock)
    run(PYTHON, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
        "-e", ".")
    STAMP.write_text(wanted)


def write_locks(upgrade: bool) -> None:
    """requirements/*.txt anew from the dependency groups, resolved by uv (the ``lock``
    group, installed in .venv) for the Python that runs .venv; with *upgrade*, every
    package at the newest version the bounds allow, else the pins kept where they fit.
    Run after changing a group, then commit the locks."""
    uv = BIN / "uv"
    if not uv.exists():
        ensure_venv()
    for group, lock in LOCKS.items():
        lock.parent.mkdir(exist_ok=True)
        run(uv, "pip", "compile", "--quiet", "--group", f"pyproject.toml:{group}",
            "--generate-hashes", "--python", PYTHON, "--output-file", lock,
            "--custom-compile-command", "python3 dev.py lock",
            *(["--upgrade"] if upgrade else []))
        pins = sum(1 for line in lock.read_text("utf-8").splitlines() if "==" in line)
        print(f"wrote {lock.relative_to(ROOT)}: {pins} packages")


# -- the Play page's assets: Pyodide and the project's wheel ------------------------

# Pyodide comes through npm: package.json names it, package-lock.json pins its
# version and integrity hash, and `npm ci` installs exactly that into node_modules/.
LOCK = json.loads((ROOT / "package-lock.json").read_text(encoding="utf-8"))
PYODIDE_VERSION = LOCK["packages"]["node_modules/pyodide"]["version"]
PYODIDE_INTEGRITY = LOCK["packages"]["node_modules/pyodide"]["integrity"]
# what loadPyodide() fetches: the loader, the runtime, the standard library, the lock file
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide-lock.json")
NODE_MODULES = ROOT / "node_modules"


def cache_dir() -> Path:
    """Where built things that do not change are kept: ``MANCALA_SPEC_CACHE``,
    else the running virtual environment (``.venv``), else ``~/.cache/mancala-spec``
    (``$XDG_CACHE_HOME``): never inside the tree."""
    if os.environ.get("MANCALA_SPEC_CACHE"):
        return Path(os.environ["MANCALA_SPEC_CACHE"])
    if sys.prefix != sys.base_prefix and os.access(sys.prefix, os.W_OK):
        return Path(sys.prefix) / "cache"
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "mancala-spec"


def integrity_ok(data: bytes, integrity: str = PYODIDE_INTEGRITY) -> bool:
    """Whether *data* matches an npm ``sha512-<base64>`` integrity string."""
    algorithm, _, digest = integrity.partition("-")
    return base64.b64encode(hashlib.new(algorithm, data).digest()).decode() == digest


def _installed(package: str) -> str | None:
    try:
        manifest = NODE_MODULES / package / "package.json"
        return json.loads(manifest.read_text(encoding="utf-8"))["version"]
    except (OSError, ValueError, KeyError):
        return None


def node_modules_ok() -> bool:
    """Whether node_modules/ holds every package package-lock.json pins."""
    wanted = {name.removeprefix("node_modules/"): entry["version"]
              for name, entry in LOCK["packages"].items() if name.count("node_modules/") == 1}
    return all(_installed(name) == version for name, version in wanted.items())


def play_engine_available() -> bool:
    """Whether the Play page's engine files can be built: node_modules/ holds what the
    lock pins, or npm is there to install it."""
    return node_modules_ok() or shutil.which("npm") is not None


def ensure_node_modules() -> None:
    """Run ``npm ci`` (the versions and hashes package-lock.json pins) unless
    node_modules/ already holds them."""
    if node_modules_ok():
        return
    if shutil.which("npm") is None:
        sys.exit("the site needs Node.js and npm (for Pyodide and axe-core): "
                 "apt-get install nodejs npm")
    run("npm", "ci", "--no-audit", "--no-fund")


def copy_pyodide(target: Path) -> None:
    """Write the Pyodide files the page loads (from node_modules/pyodide) into *target*."""
    ensure_node_modules()
    target.mkdir(parents=True, exist_ok=True)
    for name in PYODIDE_FILES:
        shutil.copyfile(NODE_MODULES / "pyodide" / name, target / name)


def _described_version() -> str:
    """The version the checkout's package names (a development version names its
    commit: mancala_spec/version.py), read as the build reads it."""
    import runpy
    return str(runpy.run_path(str(ROOT / "mancala_spec" / "version.py"))["__version__"])


def _package_digest() -> str:
    """A digest of everything the wheel is built from, and the version it names."""
    digest = hashlib.sha256(_described_version().encode() + b"\0")
    paths = [ROOT / "pyproject.toml", ROOT / "README.md", *sorted((ROOT / "LICENSES").glob("*")),
             *sorted((ROOT / "mancala_spec").rglob("*"))]
    for path in paths:
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
            digest.update(path.relative_to(ROOT).as_posix().encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:20]


def build_wheel(target: Path) -> Path:
    """The project's wheel, built by the standard build (``pip wheel``, the
    setuptools backend that pyproject.toml names: its metadata, licence files
    and package data), into *target*; return its path. A wheel built from the
    same files before is taken from the cache."""
    cached = cache_dir() / "wheels" / _package_digest()
    wheels = sorted(cached.glob("mancala_spec-*.whl"))
    if not wheels:
        building = cached.with_name(cached.name + f".{os.getpid()}.part")
        shutil.rmtree(building, ignore_errors=True)
        with tempfile.TemporaryDirectory() as scratch:   # no stale build/lib of the checkout
            source = Path(scratch) / "src"
            shutil.copytree(ROOT / "mancala_spec", source / "mancala_spec",
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
            shutil.copytree(ROOT / "LICENSES", source / "LICENSES")
            for name in ("pyproject.toml", "README.md"):
                shutil.copy2(ROOT / name, source / name)
            # the copy has no .git: it names its version as an sdist does, in PKG-INFO
            # (mancala_spec/version.py reads it), so the wheel names the commit
            (source / "PKG-INFO").write_text(
                f"Metadata-Version: 2.4\nName: mancala-spec\nVersion: {_described_version()}\n",
                encoding="utf-8")
            run(sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                "--no-build-isolation", "--wheel-dir", building, source)
        try:
            building.rename(cached)
        except OSError:                       # another build put it there first
            shutil.rmtree(building, ignore_errors=True)
        wheels = sorted(cached.glob("mancala_spec-*.whl"))
    target.mkdir(parents=True, exist_ok=True)
    for stale in target.glob("mancala_spec-*.whl"):      # an earlier version's wheel
        stale.unlink()
    wheel = target / wheels[0].name
    shutil.copyfile(wheels[0], wheel)
    return wheel


def copy_play_assets(outdir: Path) -> str | None:
    """Pyodide into ``_static/pyodide/``, the wheel and the engine's snapshot into
    ``_static/play/``. Returns why there is no snapshot (the page then starts its
    engine cold, slower but the same), or ``None``."""
    copy_pyodide(outdir / "_static" / "pyodide")
    play = outdir / "_static" / "play"
    wheel = build_wheel(play)
    snapshot, problem = write_play_snapshot(play, wheel)
    # ba_awa_values: whether the site has Ba-awa's table (copy_ba_awa_values says so):
    # without it the page offers no values for Ba-awa and fetches nothing to find out
    manifest = {"pyodide": PYODIDE_VERSION, "wheel": wheel.name,
                "snapshot": snapshot.name if snapshot else None, "ba_awa_values": False}
    (play / "manifest.json").write_text(json.dumps(manifest) + "\n")
    write_play_preload(play / "preload.json")
    # the Play page's service worker, at the site's root so that it may answer for
    # play.html (a worker answers for the folder it is served from, and below)
    shutil.copyfile(ROOT / "docs" / "_static" / "play" / "service-worker.js", outdir / "play-sw.js")
    return problem


#: The script that makes the engine's snapshot, and the longest it may take (a cold
#: start in Node takes about 3 s, gzip 3 s more; a loaded machine several times that).
SNAPSHOT_SCRIPT = ROOT / "tools" / "play_snapshot.mjs"
SNAPSHOT_TIMEOUT = 240


def write_play_snapshot(target: Path, wheel: Path) -> tuple[Path | None, str | None]:
    """The Play page's engine started once, in Node, and kept as a memory snapshot
    (``tools/play_snapshot.mjs``): Pyodide booted with the wheel and play.py loaded, which
    the page's worker restores instead of starting Python cold (most of the engine's
    start). Named and cached by a digest of what it is made from (the wheel, play.py,
    Pyodide's version and the script), so a new wheel makes a new one. Returns its path
    in *target*, or ``None`` and why it could not be made (no Node.js, an error, or
    longer than :data:`SNAPSHOT_TIMEOUT`): the page then starts the engine cold."""
    for stale in target.glob("engine-*.snapshot.gz"):
        stale.unlink()
    bridge = ROOT / "docs" / "_static" / "play" / "play.py"
    digest = hashlib.sha256()
    for part in (wheel.read_bytes(), bridge.read_bytes(), PYODIDE_INTEGRITY.encode(),
                 SNAPSHOT_SCRIPT.read_bytes()):
        digest.update(hashlib.sha256(part).digest())
    name = f"engine-{digest.hexdigest()[:20]}.snapshot.gz"
    cached = cache_dir() / "snapshots" / name
    if not cached.is_file():
        node = shutil.which("node")
        if node is None:
            return None, "Node.js (node) is not installed"
        cached.parent.mkdir(parents=True, exist_ok=True)
        partial = cached.with_name(f"{name}.{os.getpid()}.part")
        try:
            result = subprocess.run([node, SNAPSHOT_SCRIPT, NODE_MODULES / "pyodide", wheel,
                                     bridge, partial], capture_output=True, text=True,
                                    timeout=SNAPSHOT_TIMEOUT)
        except subprocess.TimeoutExpired:
            partial.unlink(missing_ok=True)
            return None, f"{SNAPSHOT_SCRIPT.name} took longer than {SNAPSHOT_TIMEOUT} s"
        if result.returncode or not partial.is_file():
            partial.unlink(missing_ok=True)
            lines = (result.stderr or result.stdout).strip().splitlines() or ["no output"]
            why = next((line for line in lines if "Error" in line), lines[-1])[:300]
            return None, f"{SNAPSHOT_SCRIPT.name} failed (status {result.returncode}): {why}"
        partial.replace(cached)
    shutil.copyfile(cached, target / name)
    return target / name, None


#: the environment variable naming a table of Ba-awa's values for the site build
#: (``mancala-spec solve ba-awa --write-table DIR``; ``dev.py site --ba-awa-values DIR``
#: sets it): the build copies it into the Play page's files
BA_AWA_VALUES = "MANCALA_SPEC_BA_AWA_VALUES"
#: where the Play page finds it, under _static/
BA_AWA_VALUES_DIR = "play/ba-awa-values"


def ba_awa_values() -> Path | None:
    """The folder of Ba-awa's values the build is to ship (:data:`BA_AWA_VALUES`), or None."""
    folder = os.environ.get(BA_AWA_VALUES, "").strip()
    return Path(folder).expanduser().resolve() if folder else None


def copy_ba_awa_values(outdir: Path, folder: Path) -> int:
    """The table in *folder* into the site (``_static/play/ba-awa-values/``), once
    every file its index names is there and whole
    (:func:`mancala_spec.solved_ba_awa.check_table_files`: a truncated, emptied,
    flipped or swapped file, or one of another table, is no table), by the one
    folder writer (hard links where the file system allows; the copy read back
    before it replaces an earlier build's). Returns the number of files;
    :class:`mancala_spec.errors.TableError` or
    :class:`mancala_spec.terminal.status.OutputError` (one line) if it is no table or
    cannot be copied, and then the site holds no table of Ba-awa's values at all
    (never one an earlier build shipped)."""
    from mancala_spec.solved_ba_awa import check_table_files
    from mancala_spec.terminal.folders import WrittenFolder, manifest_files

    target = outdir / "_static" / BA_AWA_VALUES_DIR
    try:
        files = check_table_files(folder).files()
        target.parent.mkdir(parents=True, exist_ok=True)
        if target.exists() and manifest_files(target) is None:
            remove_ba_awa_values(outdir)         # a build's own copy, from before the writer
        with WrittenFolder(target, "copy of Ba-awa's values", verify=check_table_files) as out:
            for name in files:
                out.copy(folder / name)
    except BaseException:
        remove_ba_awa_values(outdir)
        raise
    # the manifest says the site has the table (written anew: in a copy of a site made
    # of links, the link is replaced, never the file it points to)
    manifest = outdir / "_static" / "play" / "manifest.json"
    if manifest.exists():
        data = json.loads(manifest.read_text())
        data["ba_awa_values"] = True
        manifest.unlink()
        manifest.write_text(json.dumps(data) + "\n")
    return len(files)


def remove_ba_awa_values(outdir: Path) -> None:
    """The site's copy of Ba-awa's values, gone (a build that ships none, or
    refused the one it was given)."""
    shutil.rmtree(outdir / "_static" / BA_AWA_VALUES_DIR, ignore_errors=True)


def write_play_preload(path: Path) -> None:
    """What the Play page draws before its engine has loaded: every game with its
    options and rulesets and each game's opening state, as the page's own bridge
    (docs/_static/play/play.py) returns them, computed here by the same engine."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("play_bridge",
                                                  ROOT / "docs" / "_static" / "play" / "play.py")
    assert spec is not None and spec.loader is not None
    bridge = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bridge)
    games = json.loads(bridge.games())
    states = {game["name"]: json.loads(bridge.Session().new(game["name"], "{}"))
              for game in games}
    # the colours of the site's diagrams (light theme), for the page's image of a position
    from mancala_spec.diagrams.style import LIGHT
    diagram = {"background": LIGHT.background, "ink": LIGHT.ink, "grey": LIGHT.grey,
               "players": list(LIGHT.players), "tints": list(LIGHT.tints)}
    path.write_text(json.dumps({"games": games, "states": states, "diagram": diagram}) + "\n")


def main(argv: list[str]) -> None:
    if argv[:1] == ["lock"] and argv[1:] in ([], ["--upgrade"]):
        write_locks(upgrade=argv[1:] == ["--upgrade"])
        return
    if argv[:1] == ["site"] and len(argv) == 3 and argv[1] == "--ba-awa-values":
        folder = Path(argv[2]).expanduser().resolve()
        from mancala_spec.errors import MancalaError
        from mancala_spec.solved_ba_awa import INDEX, check_table_files
        from mancala_spec.terminal.escape import shown
        try:
            check_table_files(folder)         # checked before the build, not after it
        except MancalaError as error:
            hint = "" if (folder / INDEX).is_file() else (
                "; write one with: mancala-spec solve ba-awa --write-table DIR")
            sys.exit(f"dev.py site: --ba-awa-values {shown(argv[2])}: {error}{hint}")
        os.environ[BA_AWA_VALUES] = str(folder)
        argv = argv[:1]
    if len(argv) != 1 or argv[0] not in {"site", "test", "doctest", "pdf"}:
        sys.exit(__doc__)
    ensure_venv()
    # what the site draws and computes, kept between builds (mancala_spec.sphinx.cache)
    os.environ.setdefault("MANCALA_SPEC_CACHE", str(VENV / "cache"))
    if argv[0] == "site":
        # the doctrees (the pickled environment) outside build/html: the site holds the site
        run(PYTHON, "-m", "sphinx", "-c", ".", "docs", "build/html", "-d", "build/doctrees",
            "-n", "-W", "--keep-going")
        print(f"The rules site is in {ROOT / 'build' / 'html' / 'index.html'}")
        print("The Play page needs a web server (browsers load no WebAssembly from file://):")
        print(f"    {sys.executable} -m http.server -d build/html 8000   # then http://localhost:8000/play.html")
    elif argv[0] == "pdf":
        # reproducible: dated by SOURCE_DATE_EPOCH, by default the last commit's time
        if "SOURCE_DATE_EPOCH" not in os.environ:
            last = subprocess.run(["git", "log", "-1", "--format=%ct"], cwd=ROOT,
                                  capture_output=True, text=True)
            if last.returncode == 0 and last.stdout.strip().isdigit():
                os.environ["SOURCE_DATE_EPOCH"] = last.stdout.strip()
        run(PYTHON, "-m", "mancala_spec.catalogue.pdf", "build/mancala_spec-rules.pdf")
    elif argv[0] == "doctest":
        run(PYTHON, "-m", "sphinx", "-b", "doctest", "docs", "build/doctest", "-d",
            "build/doctrees", "-c", ".", "-W", "--keep-going")
    else:
        # the tests take axe-core and ajv from node_modules/ (npm ci), as the site takes Pyodide
        ensure_node_modules()
        # the package's bytecode, written once: the hundreds of Python processes the tests
        # start (the command line, engines, builds) read it instead of each compiling the
        # package again (where PYTHONDONTWRITEBYTECODE is set, none of them writes it)
        run(PYTHON, "-m", "compileall", "-q", "mancala_spec")
        # on every core (pytest-xdist); the site is built once, beside the other tests.
        # worksteal: a worker that runs out of tests takes queued ones from the other,
        # so the long browser tests at the end do not all wait on one worker
        run(PYTHON, "-m", "pytest", "-q", "-n", "auto", "--dist", "worksteal")


if __name__ == "__main__":
    main(sys.argv[1:])
