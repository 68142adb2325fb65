"""The one bounded reader (mancala_spec.terminal.reading) as BaAwaValueTable reads a
table: regular files only, each within what it can hold, every field of the
index checked, and every failure one TableError of one line. Each test names
the defect of issue 42 it guards."""
from __future__ import annotations

import json
import os
import shutil
import threading

import pytest

from mancala_spec.errors import MancalaError, OptionError, TableError
from mancala_spec.solve.ba_awa import solve
from mancala_spec.solved_ba_awa import INDEX, BaAwaValueTable, write_ba_awa_table

START = ((1,) * 12, 0)


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    """A table of the twelve-seed start (21 shards)."""
    return write_ba_awa_table(tmp_path_factory.mktemp("reader") / "table", solve(start=START))


@pytest.fixture
def copy(table, tmp_path):
    folder = tmp_path / "copy"
    shutil.copytree(table, folder)
    return folder


def refused(call, match: str | None = None) -> TableError:
    """The TableError *call* raises, within 20 s (a read that blocks fails the test)."""
    outcome: list[BaseException | None] = []

    def run() -> None:
        try:
            call()
            outcome.append(None)
        except BaseException as error:      # noqa: BLE001 - handed to the test
            outcome.append(error)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(20)
    assert outcome, "the read did not return (it blocks)"
    error = outcome[0]
    assert isinstance(error, TableError), repr(error)
    assert len(str(error).splitlines()) == 1
    if match is not None:
        assert match in str(error), str(error)
    return error


def first_value(folder):
    table = BaAwaValueTable.from_folder(folder)
    return table.value([1] * 12, 0)


# -- R4-9: regular files only, within their bound -----------------------------------------


@pytest.mark.parametrize("which", ["index", "shard"])
def test_a_device_a_fifo_or_a_huge_sparse_file_is_refused_without_reading_it(copy, which):
    """R4-9: an index or a shard that was /dev/zero or a huge sparse file was read
    whole (16 GB resident before the kernel killed it); a FIFO hung."""
    name = INDEX if which == "index" else \
        BaAwaValueTable.from_folder(copy)._where([1] * 12, 0)[0]
    target = copy / name
    target.unlink()
    target.symlink_to("/dev/zero")
    refused(lambda: first_value(copy), "not a regular file")
    target.unlink()
    os.mkfifo(target)
    refused(lambda: first_value(copy), "not a regular file")
    target.unlink()
    with open(target, "wb") as sparse:
        sparse.truncate(20 * 2**30)
    refused(lambda: first_value(copy), "at most")


def test_a_shard_given_by_a_caller_is_held_to_its_bound(table):
    """R4-9: from_index's reader may give anything: more bytes than a shard of its
    positions can hold, or no bytes at all, is a TableError."""
    index = (table / INDEX).read_bytes()
    big = BaAwaValueTable.from_index(index, lambda name: b"x" * 50_000_000)
    refused(lambda: big.value([1] * 12, 0), "damaged")
    text = BaAwaValueTable.from_index(index, lambda name: "not bytes")
    refused(lambda: text.value([1] * 12, 0), "damaged")


# -- R4-10: malformed indexes: one TableError -----------------------------------------


def _index(table) -> dict:
    return json.loads((table / INDEX).read_text())


@pytest.mark.parametrize("damage", ["superscript", "digits", "nested", "deep list"])
def test_a_malformed_index_is_a_table_error(table, damage):
    """R4-10: a level key "²" or of 5,000 digits raised ValueError, deep nesting
    RecursionError: not TableError (and the site build stopped with a traceback)."""
    index = _index(table)
    if damage == "superscript":
        index["levels"]["²"] = index["levels"].pop("12")
    elif damage == "digits":
        index["levels"]["1" * 5000] = index["levels"].pop("12")
    data = json.dumps(index).encode()
    if damage == "nested":
        data = data[:-1] + b', "x": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    elif damage == "deep list":
        data = b"[" * 100_000 + b"]" * 100_000
    refused(lambda: BaAwaValueTable.from_index(data, lambda name: None))


# -- R4-15: damaged indexes taken for tables -------------------------------------------


def _damaged(index: dict, damage: str) -> dict:
    level = index["levels"]["12"]
    if damage == "no levels":
        index["levels"] = {}
    elif damage == "first key":
        level["shards"][0][0] += 1
    elif damage == "a later first key":
        level["shards"][3][0] += 1000
    elif damage == "players":
        index["players"] = 3
    elif damage == "start":
        index["start"]["pits"] = [1] * 11
    elif damage == "positions":
        index["positions"] += 1
    elif damage == "level positions":
        level["positions"] -= 1
    elif damage == "overlapping shards":
        level["shards"][1][0] = level["shards"][0][0] + 1
    elif damage == "another level":
        index["levels"]["13"] = level
    elif damage == "board":
        index["pits_per_row"] = 7
    elif damage == "past the numbering":
        level["shards"][-1][0] = 2 * 10**12
    return index


@pytest.mark.parametrize("damage", ["no levels", "players", "start", "positions",
                                    "level positions", "overlapping shards", "another level",
                                    "board", "past the numbering"])
def test_a_damaged_index_is_refused_when_it_is_read(table, damage):
    """R4-15: "levels": {}, players: 3 and the like were taken for a table, its
    positions read as unreachable."""
    data = json.dumps(_damaged(_index(table), damage)).encode()
    refused(lambda: BaAwaValueTable.from_index(data, lambda name: None))


@pytest.mark.parametrize("damage", ["first key", "a later first key"])
def test_a_wrong_first_key_is_found_not_taken_for_unreachable(table, copy, damage):
    """R4-15: a shard's first number changed in the index made the positions before
    it read as unreachable (None); every position of the table is still asked
    for here, and the first whose shard the wrong number touches is an error."""
    (copy / INDEX).write_text(json.dumps(_damaged(_index(table), damage)))
    good = BaAwaValueTable.from_folder(table)
    bad = BaAwaValueTable.from_folder(copy)
    import numpy as np

    from mancala_spec.solve.ba_awa_levels import Numbering

    keys = []
    for first, _count, _ in good.levels[12]:
        keys += [first, first + 1, first - 1]
    pits, players = Numbering(12).boards(np.array(sorted(k for k in keys if k >= 0)))

    def ask() -> None:
        for board, player in zip(pits.tolist(), players.tolist()):
            assert bad.value(board, player) == good.value(board, player)
    refused(ask, "does not hold")


# -- R4-14: typed refusals naming the argument -----------------------------------------


@pytest.mark.parametrize("folder", [None, 3, 1.5, ["x"]])
def test_from_folder_refuses_what_is_no_path_naming_it(folder):
    """R4-14: BaAwaValueTable.from_folder(None) was a TypeError."""
    with pytest.raises(OptionError, match="folder must be") as error:
        BaAwaValueTable.from_folder(folder)
    assert error.value.option == "folder"


def test_from_index_refuses_what_is_no_index_naming_it(table):
    index = (table / INDEX).read_bytes()
    for data, read, name in ((None, lambda n: None, "data"), (index, None, "read"),
                             (index, "not callable", "read")):
        with pytest.raises(OptionError, match=f"{name} must be") as error:
            BaAwaValueTable.from_index(data, read)
        assert isinstance(error.value, MancalaError) and error.value.option == name
