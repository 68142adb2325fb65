"""Values with a history (issue 40, item 5): where value_holds says a solved
value (a value with no history) holds for a position reached since the last
capture, a search that plays the repetition rule with that history finds the
same value; where the history changes the value, value_holds says it may not
hold; the opener never gets less; and the table answers as the solution does."""
from __future__ import annotations

import random

import pytest

import mancala_spec as ms
from mancala_spec.solve.ba_awa import BaAwaRules, solve
from mancala_spec.solved_ba_awa import BaAwaValueTable, searched_values, write_ba_awa_table
from mancala_spec.solved_history import value_holds

#: a sixteen-seed start (two levels, about 680,000 positions)
START = ((0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 15), 1)


@pytest.fixture(scope="module")
def solution():
    return solve(BaAwaRules(), START)


def positions_with_history(count: int, seed: int):
    """Positions of random games from the start, each with the history play gave it."""
    game = ms.get_game("ba-awa")
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        pos = game.position(START[0], START[1], captured=(16, 16))
        while not pos.is_over and len(found) < count:
            pos = pos.play(rng.choice(pos.legal_moves()))
            if pos.history and not pos.is_over:
                found.append(pos)
    return found


def test_a_value_that_holds_is_the_searched_value_with_the_history(solution):
    """Positions of random games, with their history: where the value is said
    to hold, a search with the history finds it (and the opener never less)."""
    held = 0
    for pos in positions_with_history(250, 40):
        found = searched_values(pos, 30_000)
        if found is None:
            continue
        truth = max(found.values())
        value = solution.value(pos.pits, pos.to_move)
        side = 1 if pos.to_move == 0 else -1
        assert side * truth >= side * value          # the opener never gets less
        holds = value_holds(solution.value, pos.pits, pos.to_move, pos.history)
        if holds:
            assert truth == value, pos.to_text()
            held += 1
    assert held >= 12


def test_no_history_holds_and_a_recurring_one_may_not(solution):
    pos = ms.get_game("ba-awa").position(START[0], START[1], captured=(16, 16))
    assert value_holds(solution.value, pos.pits, pos.to_move, ())
    later = pos.play(pos.legal_moves()[0])
    if later.seeds_on_board == pos.seeds_on_board and not later.is_over:
        value = solution.value(later.pits, later.to_move)
        south = value if later.to_move == 0 else -value
        worth = solution.value(pos.pits, pos.to_move)
        south_before = worth if pos.to_move == 0 else -worth
        assert value_holds(solution.value, later.pits, later.to_move, later.history) \
            == (south_before > south or south == later.seeds_on_board)


def test_the_table_answers_as_the_solution(tmp_path, solution):
    table = BaAwaValueTable.from_folder(write_ba_awa_table(tmp_path / "t", solution))
    for pos in positions_with_history(60, 7):
        assert table.value_holds(pos) == value_holds(solution.value, pos.pits, pos.to_move,
                                                     pos.history)


def test_a_history_that_changes_the_value_is_said(solution):
    """Positions with one move best for the player to move, given as history the
    position that move leads to (so playing it now repeats, and the opener takes
    what remains): where a search with that history finds another value, the
    value is said not to hold, and the opener's side is never worse."""
    import numpy as np

    from mancala_spec.verify.ba_awa_moves import boards

    game = ms.get_game("ba-awa")
    rng = random.Random(1)
    changed = 0
    for key in rng.sample(solution.levels[12].tolist(), 3000):
        board, player = boards(12, np.array([key]))
        pits, to_move = tuple(board[0].tolist()), int(player[0])
        try:
            pos = game.position(pits, to_move, captured=(20, 16))
        except ms.InvalidPositionError:
            continue                              # a pass step: no position of the engine
        moves = solution.move_values(pits, to_move)
        best = [pit for pit, v in moves.items() if v == max(moves.values())]
        if len(best) != 1 or len(moves) < 2:
            continue
        after = pos.play(best[0])
        if after.is_over or after.seeds_on_board != 12:
            continue
        with_history = pos.replace(history=((tuple(after.pits), after.to_move),))
        found = searched_values(with_history, 20_000)
        if found is None:
            continue
        truth, value = max(found.values()), solution.value(pits, to_move)
        side = 1 if to_move == 0 else -1
        assert side * truth >= side * value
        holds = value_holds(solution.value, pits, to_move, with_history.history)
        assert not holds or truth == value, with_history.to_text()
        changed += truth != value
        if changed >= 3:
            break
    assert changed >= 3
