"""A plain ``pip install .`` gives a working command without ``docs/``: the
wheel holds every subpackage, the catalogue, the sources and the prebuilt
conformance suite."""
from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_wheel_runs_the_command_line_and_the_suite_without_docs(tmp_path, wheel):
    # wheel: conftest's, built once a run by pip wheel <checkout> --no-deps
    names = set(zipfile.ZipFile(wheel).namelist())
    packages = {p.parent.relative_to(ROOT).as_posix()
                for p in (ROOT / "mancala_spec").rglob("__init__.py")}
    assert all(f"{package}/__init__.py" in names for package in packages)
    for data in ("mancala_spec/conformance/suite.json", "mancala_spec/catalogue/catalogue.toml",
                 "mancala_spec/py.typed"):        # py.typed: type checkers read our annotations
        assert data in names
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(tmp_path / "site")
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "site")}
    work = tmp_path / "elsewhere"
    work.mkdir()

    def cli(*argv):
        return subprocess.run([sys.executable, "-m", "mancala_spec", *argv], cwd=work, env=env,
                              capture_output=True, text=True, timeout=120)

    where = subprocess.run([sys.executable, "-c",
                            "import mancala_spec; print(mancala_spec.__file__)"],
                           cwd=work, env=env, capture_output=True, text=True, timeout=60)
    assert where.stdout.startswith(str(tmp_path / "site"))
    assert cli("rules", "--game", "anenam").returncode == 0
    reference = f'"{sys.executable}" -m mancala_spec.conformance.engine'
    result = cli("conformance", "run", "--engine", reference, "--no-progress")
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr
    verdict, counts = result.stdout.splitlines()[:2]     # the verdict first, then the counts
    assert verdict.startswith("conforming: all ")
    total, outcome = counts.split(" cases: ")
    assert outcome.startswith(f"{total} pass (")
