"""Ba-awa's values as a table in shards (mancala_spec.solved_ba_awa.BaAwaValueTable),
written from a solve (write_ba_awa_table) and read with the standard library.

A solve from a sixteen-seed start (two levels, 1.3 million positions, about 5 s)
is written as a table; every position it holds is read back from the shards and
compared with the solver's, the position numbers with the solver's numbering,
and the values and move values of sampled positions (the engine playing the
moves) with the solution's. A missing shard is named, so that it can be fetched
and the question asked again; a damaged one is a one-line TableError; and an
interrupted write leaves nothing.
"""
from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

import mancala_spec as ms
from mancala_spec.errors import InvalidPositionError, TableError
from mancala_spec.solve.ba_awa import solve
from mancala_spec.solve.ba_awa_levels import Numbering
from mancala_spec.solved_ba_awa import (
    INDEX,
    BaAwaValueTable,
    MissingShards,
    ba_awa_key,
    searched_values,
    shard_name,
    write_ba_awa_table,
)
from mancala_spec.terminal.status import OutputError

#: two levels (16 and 12 seeds): captures lead from one to the other
SIXTEEN = ((2, 2, 1, 0, 3, 1, 0, 1, 2, 1, 1, 2), 0)


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    solution = solve(start=SIXTEEN)
    folder = write_ba_awa_table(tmp_path_factory.mktemp("table") / "ba-awa", solution)
    return solution, folder


def position(pits, to_move: int):
    """The engine's position of a board of the table (South opened; the captured
    seeds split as play can leave them: they do not change the values)."""
    fours = (48 - sum(pits)) // 4
    return ms.get_game("ba-awa").position(list(pits), to_move=to_move, opener=0,
                                          captured=(4 * (fours // 2), 4 * (fours - fours // 2)))


def test_every_position_of_the_solution_is_read_back(written):
    solution, folder = written
    table = BaAwaValueTable.from_folder(folder)
    assert len(table) == len(solution) > 1_000_000
    assert sorted(table.levels) == sorted(solution.levels) == [12, 16]
    for seeds, shards in table.levels.items():
        keys: list[int] = []
        values = bytearray()
        for number in range(len(shards)):
            shard_keys, shard_values = table._shard(shard_name(seeds, number))
            keys += shard_keys
            values += shard_values
        assert keys == solution.levels[seeds].tolist(), seeds
        assert np.frombuffer(bytes(values), dtype=np.int8).tolist() \
            == solution.values[seeds].tolist(), seeds
    header = json.loads((folder / INDEX).read_text())
    assert header["start"] == {"pits": list(SIXTEEN[0]), "to_move": 0}
    assert header["version"] == ms.__version__ and header["positions"] == len(solution)
    assert {k: header[k] for k in ms.get_game("ba-awa").options} \
        == {k: v if isinstance(v, (bool, int)) else str(v)
            for k, v in ms.get_game("ba-awa").options.items()}


def test_values_and_move_values_are_the_solvers(written):
    solution, folder = written
    table = BaAwaValueTable.from_folder(folder)
    rng = np.random.default_rng(7)
    moves_compared = 0
    for seeds, keys in solution.levels.items():
        numbering = Numbering(seeds)
        pits, players = numbering.boards(rng.choice(keys, 1500, replace=False))
        for n, (board, player) in enumerate(zip(pits.tolist(), players.tolist())):
            key = ba_awa_key(board, player)
            assert key == int(numbering.keys(np.array([board], dtype=np.int8),
                                             np.array([player], dtype=np.int8))[0])
            assert table.value(board, player) == solution.value(board, player)
            if n < 250:
                pos = position(board, player)
                if not pos.is_over:
                    assert table.move_values(pos) == solution.move_values(board, player)
                    moves_compared += 1
    assert moves_compared > 400
    # a board of the level that play does not reach from this start, and a level the
    # table does not have
    unreached = next(b for b in ([16] + [0] * 11, [0] * 11 + [16], [8, 8] + [0] * 10)
                     if ba_awa_key(b, 1) not in set(solution.levels[16].tolist()))
    assert table.value(unreached, 1) is None
    assert table.value([4] * 12, 0) is None
    with pytest.raises(InvalidPositionError):
        table.value([4] * 11, 0)


def test_a_missing_shard_is_named_and_read_once_it_is_there(written, tmp_path):
    _, folder = written
    partial = tmp_path / "partial"
    partial.mkdir()
    shutil.copy(folder / INDEX, partial / INDEX)
    table = BaAwaValueTable.from_folder(partial)
    pos = position(SIXTEEN[0], 0)
    with pytest.raises(MissingShards) as missing:
        table.move_values(pos)
    names = missing.value.names
    assert names and all((folder / name).is_file() for name in names)
    assert len(str(missing.value).splitlines()) == 1
    for name in names:                      # what the Play page's worker does: fetch them
        shutil.copy(folder / name, partial / name)
    assert table.move_values(pos) == BaAwaValueTable.from_folder(folder).move_values(pos)


def test_a_damaged_table_is_a_one_line_error(written, tmp_path):
    _, folder = written
    damaged = tmp_path / "damaged"
    shutil.copytree(folder, damaged)
    name = shard_name(16, 0)
    data = bytearray((damaged / name).read_bytes())
    data[len(data) // 2] ^= 0xFF
    (damaged / name).write_bytes(bytes(data))
    table = BaAwaValueTable.from_folder(damaged)
    with pytest.raises(TableError, match="damaged") as error:
        table.value(*_first(table, 16))
    assert len(str(error.value).splitlines()) == 1
    (damaged / name).write_bytes(b"")       # what a failed fetch leaves
    with pytest.raises(TableError, match="damaged"):
        BaAwaValueTable.from_folder(damaged).value(*_first(table, 16))
    for index, why in ((b"<!doctype html>", "not JSON"), (b'{"format": "x"}', "does not say"),
                       (b'{"format": "mancala_spec ba-awa values 1", "game": "ba-awa"}',
                        "each of its options")):
        (damaged / INDEX).write_bytes(index)
        with pytest.raises(TableError, match=why):
            BaAwaValueTable.from_folder(damaged)
    with pytest.raises(TableError, match="no index.json"):
        BaAwaValueTable.from_folder(tmp_path / "nothing")


def _first(table: BaAwaValueTable, seeds: int):
    """The board and player of a level's first position."""
    key = table.levels[seeds][0][0]
    pits, players = Numbering(seeds).boards(np.array([key], dtype=np.int64))
    return pits[0].tolist(), int(players[0])


def test_writing_is_whole_or_nothing(written, tmp_path):
    solution, _ = written

    class Interrupted(dict):
        """The second level's values: Ctrl-C arrives as they are read."""

        def __getitem__(self, seeds):
            if seeds == 12:
                raise KeyboardInterrupt
            return super().__getitem__(seeds)

    import dataclasses
    stopped = dataclasses.replace(solution, values=Interrupted(solution.values))
    target = tmp_path / "table"
    with pytest.raises(KeyboardInterrupt):
        write_ba_awa_table(target, stopped)
    assert list(tmp_path.iterdir()) == []   # no table, no temporary folder
    # a table already there is replaced, whole; a folder that holds something else is not
    write_ba_awa_table(target, solution, shard_positions=100_000 // 4)
    first = sorted(p.name for p in target.iterdir())
    write_ba_awa_table(target, solution)
    assert sorted(p.name for p in target.iterdir()) != first
    assert sorted(p.name for p in tmp_path.iterdir()) == ["table"]
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    with pytest.raises(OutputError, match="not replaced"):
        write_ba_awa_table(other, solution)
    assert (other / "notes.txt").read_text() == "mine"


def test_the_exact_search_agrees_with_the_solver_where_it_finishes(written):
    """Outside the table the Play page searches to the game's end within a budget:
    where it finishes, its values are the solver's (sampled twelve-seed positions,
    history cleared, as the solver values them); and the table's values of a game
    North opened (read with the rows turned) are the search's."""
    solution, folder = written
    table = BaAwaValueTable.from_folder(folder)
    rng = np.random.default_rng(3)
    pits, players = Numbering(12).boards(rng.choice(solution.levels[12], 150, replace=False))
    finished = 0
    for board, player in zip(pits.tolist(), players.tolist()):
        pos = position(board, player)
        if pos.is_over or not pos.legal_moves():
            continue
        found = searched_values(pos, nodes=3_000)
        if found is not None:
            finished += 1
            assert found == solution.move_values(board, player), board
            # the same game opened by North: the rows turned, the players swapped
            turned = ms.get_game("ba-awa").position(board[6:] + board[:6], to_move=1 - player,
                                                    opener=1, captured=pos.captured[::-1])
            assert table.move_values(turned) == {(p + 6) % 12: v for p, v in found.items()}
            assert searched_values(turned, nodes=3_000) == table.move_values(turned)
    assert finished >= 10
    assert searched_values(position(SIXTEEN[0], 0), nodes=50) is None
