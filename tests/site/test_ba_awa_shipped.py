"""What the site build ships of Ba-awa's values (``dev.py site --ba-awa-values DIR``,
conf.py through ``dev.copy_ba_awa_values``): only a table whose every file is
whole (R4-2 of issue 42: truncated, emptied, flipped or swapped shards and
another rule set's files were shipped without a word), and never an earlier
build's table once it has refused the one it was given (R4-2); a copy that
fails (a full disk) leaves no part of a table in the site (R4-10)."""
from __future__ import annotations

import shutil
import subprocess
import sys

import pytest
from helpers import ROOT, package_env

import dev
from mancala_spec.errors import TableError
from mancala_spec.solve.ba_awa import BaAwaRules, solve
from mancala_spec.solved_ba_awa import INDEX, BaAwaValueTable, write_ba_awa_table
from mancala_spec.terminal.status import OutputError

START = ((1,) * 12, 0)


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    """A table of the twelve-seed start, and one of the same start under other rules
    (endless=stop: 12 of its 679,396 values differ)."""
    scratch = tmp_path_factory.mktemp("shipped")
    return (write_ba_awa_table(scratch / "table", solve(start=START)),
            write_ba_awa_table(scratch / "stop",
                               solve(BaAwaRules(endless="stop"), start=START)))


def _shards(folder) -> list[str]:
    return BaAwaValueTable.from_folder(folder).files()[1:]


def damaged(table, other, tmp_path, damage: str):
    folder = tmp_path / damage.replace(" ", "-")
    shutil.copytree(table, folder)
    first, second = _shards(folder)[:2]
    data = (folder / first).read_bytes()
    if damage == "truncated":
        (folder / first).write_bytes(data[:len(data) // 2])
    elif damage == "emptied":
        (folder / first).write_bytes(b"")
    elif damage == "flipped":
        (folder / first).write_bytes(data[:9] + bytes([data[9] ^ 1]) + data[10:])
    elif damage == "swapped":
        (folder / first).write_bytes((folder / second).read_bytes())
        (folder / second).write_bytes(data)
    elif damage == "another rule set's":     # its first shard of other values
        name = next(n for n in _shards(folder)
                    if (other / n).read_bytes() != (folder / n).read_bytes())
        (folder / name).write_bytes((other / name).read_bytes())
    elif damage == "another rule set's index":
        (folder / INDEX).write_bytes((other / INDEX).read_bytes())
    elif damage == "emptied index":
        (folder / INDEX).write_bytes(b"")
    elif damage == "missing":
        (folder / second).unlink()
    return folder


DAMAGES = ["truncated", "emptied", "flipped", "swapped", "another rule set's",
           "another rule set's index", "emptied index", "missing"]


@pytest.mark.parametrize("damage", DAMAGES)
def test_a_damaged_table_is_refused_and_the_earlier_builds_is_not_kept(tables, tmp_path,
                                                                       damage):
    """R4-2: 6 of 6 damaged tables were shipped; 5 of 5 refusals kept the table an
    earlier build had shipped."""
    table, other = tables
    site = tmp_path / "html"
    assert dev.copy_ba_awa_values(site, table) == len(BaAwaValueTable.from_folder(table).files())
    shipped = site / "_static" / dev.BA_AWA_VALUES_DIR
    assert len(BaAwaValueTable.from_folder(shipped)) == len(BaAwaValueTable.from_folder(table))
    bad = damaged(table, other, tmp_path, damage)
    with pytest.raises(TableError) as error:
        dev.copy_ba_awa_values(site, bad)
    assert len(str(error.value).splitlines()) == 1
    assert not shipped.exists() and sorted(p.name for p in shipped.parent.iterdir()) == []


@pytest.mark.parametrize("damage", ["flipped", "emptied index"])
def test_dev_py_refuses_a_damaged_table_before_the_build(tables, tmp_path, monkeypatch, damage):
    """R4-2: dev.py site --ba-awa-values looked for index.json only; the table is
    now checked whole before the build starts (one line, no build: the build's
    first step is replaced by a failure here)."""
    bad = damaged(*tables, tmp_path, damage)

    def build(*args, **kwargs):
        raise AssertionError("the build started with a damaged table")
    monkeypatch.setattr(dev, "ensure_venv", build)
    monkeypatch.delenv(dev.BA_AWA_VALUES, raising=False)
    with pytest.raises(SystemExit) as stopped:
        dev.main(["site", "--ba-awa-values", str(bad)])
    said = str(stopped.value.code)
    assert said.startswith("dev.py site: --ba-awa-values ") and "\n" not in said, said


def test_a_copy_onto_a_full_disk_leaves_no_part_of_a_table(tables, tmp_path):
    """R4-10: a copy onto a full disk left 14 of 23 files in the site; the site is a
    tmpfs of 64 kB here (a mount namespace of the test's own), and what is left in
    it is listed before the namespace goes."""
    table, _ = tables
    site = tmp_path / "html"
    site.mkdir()
    code = ("import os, sys, dev; from pathlib import Path\n"
            "from mancala_spec.errors import MancalaError\n"
            "try:\n    dev.copy_ba_awa_values(Path(sys.argv[1]), Path(sys.argv[2]))\n"
            "except MancalaError as error:\n    print(type(error).__name__, error)\n"
            "print([f for _, _, files in os.walk(sys.argv[1]) for f in files])\n")
    script = 'mount -t tmpfs -o size=64k tmpfs "$1" && exec "$2" -c "$3" "$1" "$4"'
    done = subprocess.run(["unshare", "-rm", "sh", "-c", script, "sh", str(site),
                           sys.executable, code, str(table)], capture_output=True, text=True,
                          timeout=120, env=package_env(ROOT), cwd=ROOT)
    assert done.returncode == 0, done.stderr
    said, left = done.stdout.splitlines()
    assert said.startswith(OutputError.__name__) and "no space" in said, said
    assert left == "[]"
