"""Bakuk's values as the Play page reads them (mancala_spec.solved), against the
solver (mancala_spec.solve): the same value for every reachable position, the
same value for every move, in a file within the page's 3 MB budget."""
from __future__ import annotations

import random

import numpy as np
import pytest

import mancala_spec as ms
from mancala_spec.solve import Moves, Rules, solve
from mancala_spec.solved import UNREACHED, ValueTable, write_table

BUDGET = 3_000_000      # bytes the values may add to the site (issue 20)


@pytest.fixture(scope="module")
def solved():
    solution = solve()
    table = ValueTable.from_solution(solution)
    return solution, table


def test_every_reachable_position_has_the_solvers_value(solved):
    solution, table = solved
    dense = np.frombuffer(table.values, dtype=np.int8)
    assert (dense[solution.keys] == solution.values).all()
    unreached = np.ones(len(dense), dtype=bool)
    unreached[solution.keys] = False
    assert (dense[unreached] == UNREACHED).all()


def test_the_table_numbers_positions_as_the_solver(solved):
    solution, table = solved
    moves = Moves(Rules())
    rng = np.random.default_rng(3)
    rows = rng.integers(0, len(solution), 500)
    boards, players = moves.boards(solution.keys[rows])
    for board, player, key in zip(boards.tolist(), players.tolist(), solution.keys[rows].tolist()):
        assert table.key(board, player) == key
        assert table.value(board, player) == solution.value(board, player)


def test_move_values_are_the_solvers_along_random_games(solved):
    solution, table = solved
    game = ms.get_game("bakuk")
    rng = random.Random(7)
    compared = 0
    for _ in range(12):
        pos = game.start()
        while not pos.is_over:
            values = table.move_values(pos)
            ends = [p for p in pos.legal_moves() if pos.play(p).is_over]
            expected = solution.move_values(pos.pits, pos.to_move)
            for pit in ends:     # the engine ends the game: the move is worth what it scores
                after = pos.play(pit)
                mover = pos.to_move
                expected[pit] = ((after.captured[mover] - pos.captured[mover])
                                 - (after.captured[1 - mover] - pos.captured[1 - mover]))
            assert values == expected, pos.to_text()
            compared += 1
            pos = pos.play(rng.choice(pos.legal_moves()))
    assert compared > 200


def test_the_file_is_within_the_budget_and_reads_back(solved, tmp_path):
    _, table = solved
    path = write_table(tmp_path / "bakuk-values.bin", table)
    assert path.stat().st_size < BUDGET
    again = ValueTable.from_bytes(path.read_bytes())
    assert again.values == table.values and again.header == table.header
    assert again.holds_for(ms.get_game("bakuk"))
    assert not again.holds_for(ms.get_game("bakuk", chain="backward"))
    assert not again.holds_for(ms.get_game("bakuk", players=3))
    assert not again.holds_for(ms.get_game("ba-awa"))
    with pytest.raises(ValueError):
        ValueTable.from_bytes(b'{"format": "other"}\n')
