"""The one folder writer (mancala_spec.terminal.folders) as ``solve ba-awa
--write-table`` and ``write_ba_awa_table`` use it: it replaces only a folder it
can prove it wrote, keeps the old table under its name until the new one is
whole, leaves nothing behind on an error or a signal (between the two renames
too), checks the target before the solve, takes every name the file system
takes and shows names escaped. Each test names the defect of issue 42 it guards.

The read-only, full and inode-less targets are file systems of their own (a
tmpfs in a mount namespace of the test's own: ``unshare``), so that they are
what they say for root too."""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys

import pytest
from helpers import package_env

from mancala_spec.cli import main
from mancala_spec.solve.ba_awa import solve
from mancala_spec.solved_ba_awa import INDEX, BaAwaValueTable, write_ba_awa_table
from mancala_spec.terminal.status import OutputError

TWELVE = "1,1,1,1,1,1/1,1,1,1,1,1 S 20-16"
START = ((1,) * 12, 0)


@pytest.fixture(scope="module")
def solution():
    return solve(start=START)


def entries(folder) -> list[str]:
    return sorted(os.listdir(folder))


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def no_solve(monkeypatch):
    """The solve, replaced by a failure: a refusal must come before it."""
    import mancala_spec.solve.ba_awa as module

    def solved(*args, **kwargs):
        raise AssertionError("the solve started before the target was checked")
    monkeypatch.setattr(module, "solve", solved)


# -- R4-1: never delete what the project did not write ------------------------------


@pytest.mark.parametrize("index", [b"", b"{}", b"my notes"])
def test_a_folder_that_merely_holds_index_json_is_not_replaced(capsys, tmp_path, index):
    """R4-1: a folder holding only a file named index.json (even empty) was
    emptied and 'table written' said, exit 0."""
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / INDEX).write_bytes(index)
    status, out, err = run(capsys, "solve", "ba-awa", "--start", TWELVE, "--no-progress",
                           "--write-table", str(mine))
    assert status == 4 and out == "" and err.count("\n") == 1, err
    assert "not replaced" in err and "nothing in it is touched" in err
    assert entries(mine) == [INDEX] and (mine / INDEX).read_bytes() == index
    assert entries(tmp_path) == ["mine"]


def test_a_users_file_beside_a_table_is_never_deleted(solution, tmp_path):
    """R4-1: a file of the user's kept beside a real table was deleted when the
    table was rewritten; now the table is not replaced, and both are kept."""
    table = write_ba_awa_table(tmp_path / "table", solution)
    (table / "notes.txt").write_text("mine")
    before = {name: (table / name).read_bytes() for name in entries(table)}
    with pytest.raises(OutputError, match="not replaced"):
        write_ba_awa_table(table, solution)
    assert {name: (table / name).read_bytes() for name in entries(table)} == before
    assert entries(tmp_path) == ["table"]


def test_a_table_without_the_writers_manifest_is_not_replaced(solution, tmp_path):
    """R4-1: a table's files copied by hand (no manifest: nothing proves the
    writer wrote that folder) are not replaced; the writer's own table is, and
    its manifest names exactly the files it wrote."""
    from mancala_spec.terminal.folders import MANIFEST

    table = write_ba_awa_table(tmp_path / "table", solution)
    assert json.loads((table / MANIFEST).read_text())["files"] \
        == sorted(BaAwaValueTable.from_folder(table).files())
    copy = tmp_path / "copy"
    copy.mkdir()
    for name in BaAwaValueTable.from_folder(table).files():
        shutil.copyfile(table / name, copy / name)
    with pytest.raises(OutputError, match="no manifest"):
        write_ba_awa_table(copy, solution)
    write_ba_awa_table(table, solution)                  # its own: replaced
    assert entries(tmp_path) == ["copy", "table"]


# -- R4-12: the rename dance ---------------------------------------------------------


def test_a_table_replaced_through_a_symlink_keeps_the_link_and_leaves_nothing(solution,
                                                                               tmp_path):
    """R4-12: through a symlink the old code renamed the link and left
    ``.NAME.PID.old`` behind; now the folder it names is replaced, the link kept."""
    real = tmp_path / "real"
    write_ba_awa_table(real, solution, shard_positions=50_000 // 2)
    link = tmp_path / "link"
    link.symlink_to(real)
    write_ba_awa_table(link, solution)
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert entries(tmp_path) == ["link", "real"]
    assert len(BaAwaValueTable.from_folder(link)) == len(solution)


def test_a_signal_between_the_two_renames_leaves_the_new_table_whole(solution, tmp_path,
                                                                      monkeypatch):
    """R4-12: SIGINT arriving as the old table is moved aside used to leave the old
    table only under its hidden name; now the signal waits for the second rename."""
    target = write_ba_awa_table(tmp_path / "table", solution, shard_positions=50_000 // 2)
    old_files = entries(target)
    renames: list[str] = []
    rename = os.rename

    def interrupted(source, destination):
        rename(source, destination)
        renames.append(str(destination))
        if len(renames) == 1:
            os.kill(os.getpid(), signal.SIGINT)        # Python's handler: KeyboardInterrupt

    monkeypatch.setattr(os, "rename", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_ba_awa_table(target, solution)
    monkeypatch.setattr(os, "rename", rename)
    assert entries(tmp_path) == ["table"]
    assert entries(target) != old_files
    assert len(BaAwaValueTable.from_folder(target)) == len(solution)


def test_an_error_or_a_second_signal_leaves_no_temporary_folder(solution, tmp_path):
    """R4-12: a command's second signal ends it at once (exit_now): the folder
    writer's temporary folder goes with it."""
    code = ("import sys; from mancala_spec.terminal import folders, signals;"
            "out = folders.WrittenFolder(sys.argv[1]).__enter__(); out.write('a', b'x');"
            "signals.STATE.prog = 'mancala-spec'; signals.exit_now()")
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path / "table")],
                          capture_output=True, text=True, timeout=60, env=package_env())
    assert done.returncode == 130, done.stderr
    assert entries(tmp_path) == []


# -- R4-6: the target is checked before the solve -------------------------------------


@pytest.mark.parametrize("name, why", [
    (".", "a folder of its own"), ("..", "a folder of its own"), ("", "a folder of its own"),
    ("missing/table", "no folder"), ("file", "not a folder")])
def test_a_target_that_cannot_be_written_is_refused_before_the_solve(
        capsys, tmp_path, monkeypatch, no_solve, name, why):
    """R4-6: '.', a missing folder, a file: exit 4 (the documented status for what
    cannot be written), before the solve starts."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "file").write_text("mine")
    status, out, err = run(capsys, "solve", "ba-awa", "--start", TWELVE, "--no-progress",
                           "--write-table", name)
    assert status == 4 and out == "" and err.count("\n") == 1 and why in err, err
    assert entries(tmp_path) == ["file"] and (tmp_path / "file").read_text() == "mine"


@pytest.mark.parametrize("length", [250, 255])
def test_names_of_up_to_255_bytes_are_written(solution, tmp_path, length):
    """R4-6: the temporary name was the name asked for and more (.NAME.PID.part):
    names of 250-255 bytes failed after the solve; 256 is refused before it."""
    target = write_ba_awa_table(tmp_path / ("t" * length), solution)
    assert len(BaAwaValueTable.from_folder(target)) == len(solution)
    assert entries(tmp_path) == ["t" * length]
    from mancala_spec.solved_ba_awa import check_table_folder

    with pytest.raises(OutputError, match="256 bytes"):
        check_table_folder(tmp_path / ("t" * 256))


#: a shell preparing a file system of its own at $1, then running python with the rest
MOUNTED = {
    "read-only": "mount -t tmpfs -o size=1m tmpfs \"$1\" && mount -o remount,ro \"$1\"",
    "full": "mount -t tmpfs -o size=64k tmpfs \"$1\" && "
            "(head -c 1000000 /dev/zero > \"$1/fill\" 2>/dev/null; true)",
    "no inodes": "mount -t tmpfs -o size=1m,nr_inodes=3 tmpfs \"$1\" && "
                 "(for i in 1 2 3 4; do touch \"$1/f$i\" 2>/dev/null; done; true)",
}


@pytest.mark.parametrize("kind", sorted(MOUNTED))
def test_read_only_full_or_inode_less_targets_are_refused_before_the_solve(tmp_path, kind):
    """R4-6: a read-only file system, a full disk, no inodes: refused before the
    solve (which is replaced here by exit 99), with exit status 4 and one line."""
    where = tmp_path / "mount"
    where.mkdir()
    code = ("import sys; import mancala_spec.solve.ba_awa as b;"
            "b.solve = lambda *a, **k: sys.exit(99);"
            "from mancala_spec.cli import main;"
            f"sys.exit(main(['solve', 'ba-awa', '--start', {TWELVE!r}, '--no-progress',"
            "'--write-table', sys.argv[1] + '/table']))")
    script = MOUNTED[kind] + " && shift && exec \"$@\""
    done = subprocess.run(["unshare", "-rm", "sh", "-c", script, "sh", str(where),
                           sys.executable, "-c", code, str(where)],
                          capture_output=True, text=True, timeout=120, env=package_env())
    assert done.returncode == 4, (done.returncode, done.stderr)
    assert done.stderr.count("\n") == 1 and "cannot write" in done.stderr


# -- R4-7: names shown escaped ----------------------------------------------------------


@pytest.mark.parametrize("name, escaped", [
    ("a\nmancala-spec: forged", "a\\nmancala-spec: forged"), ("a\x1b[31mred", "a\\x1b[31mred"),
    ("a\u202etxt", "a\\u202etxt"), (os.fsdecode(b"t\xff"), "t\\xff")])
def test_the_name_written_is_shown_escaped(capsys, tmp_path, name, escaped):
    """R4-7: 'table written: NAME' printed controls and bidi characters raw (a
    newline forged a line), and a name not UTF-8 wrote the table, then exit 4."""
    status, out, err = run(capsys, "solve", "ba-awa", "--start", TWELVE, "--no-progress",
                           "--write-table", str(tmp_path / name))
    assert status == 0 and err == "", err
    line = next(line for line in out.splitlines() if line.startswith("table written: "))
    assert escaped in line and line.isprintable()
    assert os.listdir(tmp_path) == [name]
