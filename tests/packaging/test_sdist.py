"""Issue 21: the sdist is the whole project. Built with the standard build
(``python -m build --sdist``, the setuptools backend), it holds every file of
the repository, and a fast part of the test suite runs from it unpacked."""
from __future__ import annotations

import os
import subprocess
import sys
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: Tests that run from the unpacked sdist: the engine, the text forms, the command
#: line's streams, and those reading docs/, examples/, CITATION.cff and dev.py.
FAST = ["tests/catalogue/test_traceability.py", "tests/cli/test_streams.py",
        "tests/packaging/test_readme.py", "tests/site/test_play_bridge.py", "-k", "not solve"]


def test_the_sdist_holds_the_project_and_its_tests_pass_from_it(tmp_path):
    # setuptools writes its egg-info beside the package: told (by the configuration file
    # DIST_EXTRA_CONFIG names) to write it here, it leaves the tree as it was
    before = {p.name for p in ROOT.glob("*.egg-info")}
    extra = tmp_path / "setup.cfg"
    extra.write_text(f"[egg_info]\negg_base = {tmp_path}\n", encoding="utf-8")
    built = subprocess.run([sys.executable, "-m", "build", "--sdist", "--no-isolation",
                            "--outdir", str(tmp_path / "dist"), str(ROOT)],
                           capture_output=True, text=True, timeout=600,
                           env={**os.environ, "DIST_EXTRA_CONFIG": str(extra)})
    assert built.returncode == 0, built.stdout[-2000:] + built.stderr[-2000:]
    assert {p.name for p in ROOT.glob("*.egg-info")} == before     # nothing written in the tree
    (sdist,) = (tmp_path / "dist").glob("mancala_spec-*.tar.gz")
    with tarfile.open(sdist) as archive:
        archive.extractall(tmp_path / "unpacked", filter="data")
    (tree,) = (tmp_path / "unpacked").iterdir()
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                            check=True).stdout.decode().split("\0")
    missing = [name for name in listed if name and (ROOT / name).exists()
               and not (tree / name).exists()]
    assert not missing, missing
    assert not (tree / "docs" / "auto_examples").exists() and not (tree / "build").exists()
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    where = subprocess.run([sys.executable, "-c",
                            "import mancala_spec; print(mancala_spec.__file__)"],
                           cwd=tree, capture_output=True, text=True, env=env, timeout=60)
    assert where.stdout.startswith(str(tree)), where.stdout + where.stderr
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                             "-p", "no:xdist", *FAST], cwd=tree, capture_output=True,
                            text=True, env=env, timeout=600)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert " passed" in result.stdout.splitlines()[-1]
