"""Typed refusals of the Ba-awa table's and solver's API (R4-14 of issue 42): about
25 calls ended in TypeError, AttributeError or IndexError instead of a
MancalaError naming the argument; ``memory=True`` was taken as one byte,
``workers`` was unbounded, and a ``decided=True`` solution written through the
API made a table that could not be read back."""
from __future__ import annotations

import pytest

import mancala_spec as ms
from mancala_spec.errors import InvalidPositionError, MancalaError, OptionError
from mancala_spec.solve.ba_awa import BaAwaRules, solve
from mancala_spec.solved_ba_awa import (
    BaAwaValueTable,
    ba_awa_key,
    searched_values,
    shard_name,
    write_ba_awa_table,
)

START = ((1,) * 12, 0)
BAKUK = ms.get_game("bakuk").start()
BA_AWA = ms.get_game("ba-awa").start()


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    folder = tmp_path_factory.mktemp("refusals") / "table"
    return BaAwaValueTable.from_folder(write_ba_awa_table(folder, solve(start=START)))


def refusal(call, name: str) -> MancalaError:
    """The typed refusal *call* raises, naming the argument *name* (its ``option``,
    or ``field`` for a position's part)."""
    with pytest.raises(MancalaError) as error:
        call()
    named = getattr(error.value, "option", None) or getattr(error.value, "field", None)
    assert named == name or name in str(error.value), (named, str(error.value))
    assert len(str(error.value).splitlines()) == 1
    return error.value


@pytest.mark.parametrize("bad", [None, "x", 1, [], BAKUK])
def test_table_methods_taking_a_position_refuse_what_is_none(table, bad):
    for method in (table.value_of, table.move_values, table.oriented):
        refusal(lambda method=method: method(bad), "game")
    if bad is BAKUK:
        assert table.holds(bad) is False               # a question: no, not a refusal
    else:
        refusal(lambda: table.holds(bad), "game")


@pytest.mark.parametrize("bad", [None, 3, "ab", [(1, 2, 3)], [([1] * 11, 0)], [([1] * 12, 2)]])
def test_need_refuses_what_is_no_list_of_positions(table, bad):
    with pytest.raises((OptionError, InvalidPositionError)):
        table.need(bad)


@pytest.mark.parametrize("pits, to_move, name", [(None, 0, "pits"), ("x" * 12, 0, "pits"),
                                                 ([1] * 11, 0, "pits"), ([1] * 12, 2, "to_move"),
                                                 ([1] * 12, True, "to_move")])
def test_ba_awa_key_refuses_what_is_no_board(pits, to_move, name):
    refusal(lambda: ba_awa_key(pits, to_move), name)


@pytest.mark.parametrize("seeds, number, name", [(None, 0, "seeds"), (12, "0", "number"),
                                                 (49, 0, "seeds"), (12, -1, "number")])
def test_shard_name_refuses_what_names_no_shard(seeds, number, name):
    refusal(lambda: shard_name(seeds, number), name)


@pytest.mark.parametrize("pos, nodes, name", [(None, 10, "game"), ("x", 10, "game"),
                                              (BA_AWA, "10", "nodes"), (BA_AWA, 0, "nodes"),
                                              (BA_AWA, True, "nodes"), (BA_AWA, 1.5, "nodes")])
def test_searched_values_refuses_bad_arguments(pos, nodes, name):
    refusal(lambda: searched_values(pos, nodes), name)


@pytest.mark.parametrize("keyword, value", [
    ("workers", "2"), ("workers", 2.0), ("workers", 0), ("workers", 10**6), ("workers", True),
    ("memory", True), ("memory", -1), ("memory", "1"), ("memory", 1.5), ("progress", 3),
    ("endless_play", []), ("also", {})])
def test_solve_refuses_bad_arguments_naming_them(keyword, value):
    """R4-14: solve(workers="2") was a TypeError, memory=True one byte, workers
    unbounded."""
    refusal(lambda: solve(start=START, **{keyword: value}), keyword)


def test_a_decided_solution_is_refused_by_the_writer_and_nothing_is_written(tmp_path):
    """R4-14: a decided=True solution written through the API made a table that
    could not be read back."""
    decided = solve(BaAwaRules(decided=True), start=START, captured=(18, 18))
    refusal(lambda: write_ba_awa_table(tmp_path / "table", decided), "solution")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("keyword, value", [("solution", None), ("solution", "x"),
                                            ("progress", 3), ("shard_positions", True)])
def test_write_ba_awa_table_refuses_bad_arguments(tmp_path, keyword, value):
    arguments = {"folder": tmp_path / "table", "solution": None, "progress": None,
                 "shard_positions": 1000}
    if keyword != "solution":
        arguments["solution"] = solve(start=START)
    arguments[keyword] = value
    refusal(lambda: write_ba_awa_table(**arguments), keyword)
    assert list(tmp_path.iterdir()) == []
