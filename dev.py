#!/usr/bin/env python3
"""Set up a virtual environment and build the rules site or run the tests.

Usage::

    python3 dev.py site    # install everything into .venv, build build/html
    python3 dev.py test    # install everything into .venv, run the whole test suite
    python3 dev.py doctest # run the site's examples with Sphinx's doctest builder
    python3 dev.py pdf     # the printable edition of the rules, build/mancala_spec-rules.pdf

Only Python 3.11+ is needed: the script makes ``.venv`` itself and installs the
package with its ``docs`` and ``test`` extras (again only when pyproject.toml
changed).

The site's Play page runs the engine in the browser with Pyodide. The build
(``conf.py``) calls :func:`copy_play_assets`, which takes Pyodide from the npm
registry's tarball (fetched once with urllib, checked against the pinned
integrity hash, cached under ``.venv``) and writes the project's own wheel, so
the built site needs no network at run time.
"""
from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import subprocess
import sys
import tarfile
import urllib.request
import venv
import zipfile
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


def ensure_venv() -> None:
    """Create .venv and install the package (editable) with docs and test extras."""
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if STAMP.exists() and STAMP.read_text() == wanted and PYTHON.exists():
        return
    if not PYTHON.exists():
        print(f"+ creating {VENV}", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    run(PYTHON, "-m", "pip", "install", "--quiet", "--upgrade", "pip")
    run(PYTHON, "-m", "pip", "install", "--quiet", "-e", ".[docs,test]")
    STAMP.write_text(wanted)


# -- the Play page's assets: Pyodide and the project's wheel ------------------------

PYODIDE_VERSION = "314.0.7"
PYODIDE_TARBALL = f"https://registry.npmjs.org/pyodide/-/pyodide-{PYODIDE_VERSION}.tgz"
# the registry's "dist.integrity" of that version (npm view pyodide@314.0.7 dist.integrity)
PYODIDE_INTEGRITY = ("sha512-0YvXxEhfEdpLfb/XkM2BFAeMROq0iMUX2bzzH9pOttyMcWkwq+HbE5uyuGD82LN7y2q+"
                     "SNvi/6V5JEsOlD2R1A==")
# what loadPyodide() fetches: the loader, the runtime, the standard library, the lock file
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide-lock.json")


def cache_dir() -> Path:
    """Where downloads are kept: ``MANCALA_SPEC_CACHE``, else the running
    virtual environment (``.venv``), else ``build/.cache``."""
    if os.environ.get("MANCALA_SPEC_CACHE"):
        return Path(os.environ["MANCALA_SPEC_CACHE"])
    if sys.prefix != sys.base_prefix and os.access(sys.prefix, os.W_OK):
        return Path(sys.prefix) / "cache"
    return ROOT / "build" / ".cache"


def integrity_ok(data: bytes, integrity: str = PYODIDE_INTEGRITY) -> bool:
    """Whether *data* matches an npm ``sha512-<base64>`` integrity string."""
    algorithm, _, digest = integrity.partition("-")
    return base64.b64encode(hashlib.new(algorithm, data).digest()).decode() == digest


def pyodide_tarball() -> bytes:
    """The pinned Pyodide npm tarball, from the cache or the registry, checked."""
    cached = cache_dir() / f"pyodide-{PYODIDE_VERSION}.tgz"
    if cached.is_file():
        data = cached.read_bytes()
        if integrity_ok(data):
            return data
    print(f"+ fetching {PYODIDE_TARBALL}", flush=True)
    try:
        with urllib.request.urlopen(PYODIDE_TARBALL, timeout=120) as response:
            data = response.read()
    except OSError as error:
        sys.exit(f"cannot fetch Pyodide for the Play page from the npm registry: {error}")
    if not integrity_ok(data):
        sys.exit(f"{PYODIDE_TARBALL} does not match the pinned integrity {PYODIDE_INTEGRITY}")
    cached.parent.mkdir(parents=True, exist_ok=True)
    partial = cached.with_suffix(".part")
    partial.write_bytes(data)
    partial.replace(cached)
    return data


def copy_pyodide(target: Path) -> None:
    """Write the Pyodide files the page loads into *target*."""
    target.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(pyodide_tarball()), mode="r:gz") as tar:
        for name in PYODIDE_FILES:
            member = tar.extractfile(f"package/{name}")
            if member is None:
                sys.exit(f"the Pyodide tarball has no {name}")
            (target / name).write_bytes(member.read())


def build_wheel(target: Path) -> Path:
    """Write a pure-Python wheel of the package tree (every module and data file
    of ``mancala_spec/``) into *target*; return its path.

    Built with zipfile rather than a build backend so that it needs no network
    and holds every subpackage whatever the packaging metadata lists.
    """
    import mancala_spec

    version = mancala_spec.__version__
    dist_info = f"mancala_spec-{version}.dist-info"
    files: dict[str, bytes] = {}
    package = ROOT / "mancala_spec"
    for path in sorted(package.rglob("*")):
        relative = path.relative_to(ROOT)
        if path.is_file() and "__pycache__" not in relative.parts and path.suffix != ".pyc":
            files[relative.as_posix()] = path.read_bytes()
    files[f"{dist_info}/METADATA"] = (
        f"Metadata-Version: 2.1\nName: mancala-spec\nVersion: {version}\n").encode()
    files[f"{dist_info}/WHEEL"] = (b"Wheel-Version: 1.0\nGenerator: mancala_spec dev.py\n"
                                   b"Root-Is-Purelib: true\nTag: py3-none-any\n")
    record = []
    for name, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{name},sha256={digest},{len(data)}")
    record.append(f"{dist_info}/RECORD,,")
    files[f"{dist_info}/RECORD"] = ("\n".join(record) + "\n").encode()
    target.mkdir(parents=True, exist_ok=True)
    for stale in target.glob("mancala_spec-*.whl"):      # an earlier version's wheel
        stale.unlink()
    wheel = target / f"mancala_spec-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
    return wheel


def copy_play_assets(outdir: Path) -> None:
    """Pyodide into ``_static/pyodide/``, the wheel into ``_static/play/``."""
    copy_pyodide(outdir / "_static" / "pyodide")
    wheel = build_wheel(outdir / "_static" / "play")
    manifest = {"pyodide": PYODIDE_VERSION, "wheel": wheel.name}
    (outdir / "_static" / "play" / "manifest.json").write_text(json.dumps(manifest) + "\n")


def main(argv: list[str]) -> None:
    if len(argv) != 1 or argv[0] not in {"site", "test", "doctest", "pdf"}:
        sys.exit(__doc__)
    ensure_venv()
    if argv[0] == "site":
        run(PYTHON, "-m", "sphinx", "-c", ".", "docs", "build/html", "-n", "-W", "--keep-going")
        print(f"The rules site is in {ROOT / 'build' / 'html' / 'index.html'}")
        print("The Play page needs a web server (browsers load no WebAssembly from file://):")
        print(f"    {sys.executable} -m http.server -d build/html 8000   # then http://localhost:8000/play.html")
    elif argv[0] == "pdf":
        run(PYTHON, "-m", "mancala_spec.catalogue.pdf", "build/mancala_spec-rules.pdf")
    elif argv[0] == "doctest":
        run(PYTHON, "-m", "sphinx", "-M", "doctest", "docs", "build", "-c", ".", "-W",
            "--keep-going")
    else:
        run(PYTHON, "-m", "pytest", "-q")


if __name__ == "__main__":
    main(sys.argv[1:])
