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
"""
from __future__ import annotations

import hashlib
import subprocess
import sys
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


def main(argv: list[str]) -> None:
    if len(argv) != 1 or argv[0] not in {"site", "test", "doctest", "pdf"}:
        sys.exit(__doc__)
    ensure_venv()
    if argv[0] == "site":
        run(PYTHON, "-m", "sphinx", "-c", ".", "docs", "build/html", "-n", "-W", "--keep-going")
        print(f"The rules site is in {ROOT / 'build' / 'html' / 'index.html'}")
    elif argv[0] == "pdf":
        run(PYTHON, "-m", "mancala_spec.catalogue.pdf", "build/mancala_spec-rules.pdf")
    elif argv[0] == "doctest":
        run(PYTHON, "-m", "sphinx", "-M", "doctest", "docs", "build", "-c", ".", "-W", "--keep-going")
    else:
        run(PYTHON, "-m", "pytest", "-q")


if __name__ == "__main__":
    main(sys.argv[1:])
