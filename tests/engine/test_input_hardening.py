"""Bad input through the Python API: each case ends in a typed error that says
what is wrong (issue 14, "Wrong answers" and "Tracebacks"), and errors carry
their fields as attributes, so nobody needs to parse a message."""
from __future__ import annotations

import pickle
import re

import pytest

import mancala_spec as ms
from mancala_spec.engine.position import Position

BAKUK = ms.get_game("bakuk")
BA_AWA = ms.get_game("ba-awa")


# -- game records ----------------------------------------------------------------------------


def test_format_game_refuses_a_record_with_an_illegal_move():
    start = BAKUK.start()
    with pytest.raises(ms.IllegalMoveError, match=r"move 2 \('b'\) is illegal: pit b belongs "
                                                  "to South, but North is to move") as info:
        ms.format_game(start, ["a", "b"])
    assert info.value.pit == 1 and info.value.reason == "not-yours"
    with pytest.raises(ms.IllegalMoveError, match="move 1 .* no pit 9"):
        ms.format_game(start, [9])


@pytest.mark.parametrize("moves", ["1. a 2. B 3. c", "1. a B 2. c", "a 2. B c", "a B 2. c"])
def test_moves_may_be_numbered_one_by_one_or_by_rounds(moves):
    record = ms.parse_game(f"game: bakuk\nmoves: {moves}\n")
    assert [BAKUK.board.name(pit) for pit in record.moves] == ["a", "B", "c"]


@pytest.mark.parametrize("moves, column, message", [
    ("1. a 3. B", 13, "wrong move number 3.: the next move is move 2"),
    ("2. a B", 8, "wrong move number 2.: the next move is move 1"),
    ("1. a B 4. c", 15, "wrong move number 4.: the next move is move 3 (turn 2)"),
    ("1. 1. a", 11, "move number 1. follows another number"),
    ("1. a 2.", 13, "a move number ends the record: its move is missing"),
    ("1. a " + "9" * 5000 + ".", 13, "wrong move number"),
])
def test_wrong_move_numbers_are_errors(moves, column, message):
    with pytest.raises(ms.NotationError, match=re.escape(message)) as info:
        ms.parse_game(f"game: bakuk\nmoves: {moves}\n")
    assert (info.value.line, info.value.column) == (2, column)


def test_a_truncated_record_is_flagged_as_unfinished():
    full = ms.parse_game("game: bakuk\nmoves: a\n")
    pos, moves = BAKUK.start(), []
    while not pos.is_over:
        move = pos.legal_moves()[0]
        moves.append(move)
        pos = pos.play(move)
    whole = ms.parse_game(ms.format_game(BAKUK.start(), moves, result=True))
    assert whole.finished and whole.result in ("South wins", "North wins", "draw")
    assert whole.to_text(result=True).endswith(f"result: {whole.result}\n")
    assert not full.finished and full.result == "unfinished"
    assert full.to_text(result=True).endswith("moves: a\nresult: unfinished\n")
    # a record that claims a result its moves do not reach: cut short, say
    cut = whole.to_text(result=True).replace("moves: " + BAKUK.board.name(moves[0]) + " ",
                                             "moves: ").split("\n")
    cut[-3] = "moves: " + " ".join(BAKUK.board.name(m) for m in moves[:-1])
    with pytest.raises(ms.NotationError, match=f"the record says '{whole.result}' but its "
                                               "moves end with 'unfinished'") as info:
        ms.parse_game("\n".join(cut))
    assert info.value.line == len(cut) - 1


def test_a_byte_order_mark_is_ignored_and_binary_content_refused():
    record = ms.parse_game("\ufeffgame: bakuk\nmoves: a B\n")
    assert record.moves == (0, 4)
    assert BAKUK.parse("\ufeff6,6,6/6,6,6 S 0-0 opener=S") == BAKUK.start()
    with pytest.raises(ms.NotationError, match="a game record must be text, but this holds "
                                               "NUL bytes") as info:
        ms.parse_game("game: bakuk\nmoves: a\x00\x00\n")
    assert info.value.column == 21
    bad_utf8 = b"game: bakuk\nmoves: \xff\xfe\n".decode("utf-8", "surrogateescape")
    with pytest.raises(ms.NotationError, match="must be UTF-8 text"):
        ms.parse_game(bad_utf8)
    with pytest.raises(ms.NotationError, match="a game record is text, not bytes"):
        ms.parse_game(b"game: bakuk\nmoves: a\n")
    with pytest.raises(ms.NotationError, match="holds NUL bytes"):
        BAKUK.parse("6,6,6/6,6,6 S 0-0\x00")


def test_a_huge_option_value_is_refused_as_a_value():
    with pytest.raises(ms.NotationError, match="option players of ba-awa must be one of"):
        ms.parse_game("game: ba-awa\noptions: players=" + "3" * 5000 + "\nmoves:\n")


# -- position text ---------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["", "  ", "\ufeff"])
def test_an_empty_position_text_is_an_error_not_the_start(text):
    with pytest.raises(ms.NotationError, match="the position text is empty"):
        BAKUK.parse(text)
    with pytest.raises(ms.NotationError, match="the position text is empty"):
        Position(BAKUK, text)


@pytest.mark.parametrize("text, column, message", [
    ("6,6,6/6,6,6 S 0-0 seen=6,6,6/6,6,6:N seen=6,6,6/6,6,6:N", 38, "seen= is given twice"),
    ("6,6,6/6,6,6 S 0-0 opener=S opener=S", 28, "opener= is given twice"),
])
def test_a_duplicate_field_is_an_error(text, column, message):
    with pytest.raises(ms.NotationError, match=message) as info:
        BAKUK.parse(text)
    assert info.value.column == column


def test_a_position_seen_twice_in_the_history_is_impossible():
    text = "0,7,7/7,7,0 N 4-4 opener=S seen=0,7,7/7,7,0:S;0,7,7/7,7,0:S"
    with pytest.raises(ms.InvalidPositionError, match="history entry 2 repeats entry 1") as info:
        BAKUK.parse(text)
    assert info.value.field == "history"


def test_a_missing_opener_means_south_as_documented():
    assert "left out it means South" in " ".join(ms.notation.__doc__.split())
    pos = BAKUK.parse("0,7,7/7,7,0 N 4-4")
    assert pos.opener == 0 and pos.to_text() == "0,7,7/7,7,0 N 4-4 opener=S"


@pytest.mark.parametrize("text, column, what", [
    ("6,6," + "6" * 5000 + "/6,6,6 S 0-0", 5, "a seed count is at most 36"),
    ("6,6,6/6,6,6 S 0-" + "1" * 5000, 15, "a captured count is at most 36"),
    ("6,6,6/6,6,6 S 0-0 seen=6,6,6/6,6," + "7" * 999 + ":N", 34, "a seed count is at most"),
])
def test_a_huge_seed_count_is_a_notation_error_naming_the_limit(text, column, what):
    with pytest.raises(ms.NotationError, match=what + r".*found a \d+-digit number") as info:
        BAKUK.parse(text)
    assert info.value.column == column


def test_a_zero_padded_count_is_still_a_count():
    assert BAKUK.parse("0006,6,6/6,6,6 S 0-0").pits[0] == 6


# -- wrong types -----------------------------------------------------------------------------


@pytest.mark.parametrize("game", [None, "bakuk", 3, object()])
def test_position_of_something_that_is_not_a_game(game):
    with pytest.raises(ms.InvalidPositionError, match="needs a game") as info:
        Position(game, "6,6,6/6,6,6 S 0-0")
    assert info.value.field == "game"


@pytest.mark.parametrize("call, error, field", [
    (lambda: Position(BAKUK, None), ms.NotationError, None),
    (lambda: BAKUK.position(None), ms.InvalidPositionError, "pits"),
    (lambda: BAKUK.position([6] * 6, captured="00"), ms.InvalidPositionError, "captured"),
    (lambda: BAKUK.position([6] * 6, to_move=None), ms.InvalidPositionError, "to_move"),
    (lambda: BAKUK.position([6] * 6, opener=1.0), ms.InvalidPositionError, "opener"),
    (lambda: BAKUK.position([6] * 6, owners=[0] * 5), ms.InvalidPositionError, "owners"),
    (lambda: BAKUK.position([6] * 6, history=None), ms.InvalidPositionError, "history"),
    (lambda: BAKUK.position([6] * 6, history=[None]), ms.InvalidPositionError, "history"),
    (lambda: BAKUK.position([7] * 6), ms.InvalidPositionError, "captured"),
    (lambda: BAKUK.position([6] * 5 + [7], captured=(0, 0)), ms.InvalidPositionError, None),
])
def test_wrong_types_give_typed_errors_with_their_field(call, error, field):
    with pytest.raises(error) as info:
        call()
    assert getattr(info.value, "field", None) == field


# -- errors carry their fields ----------------------------------------------------------------


@pytest.mark.parametrize("move, pit, reason", [("z", "z", "no-such-pit"),
                                               (99, 99, "no-such-pit"),
                                               (None, None, "no-such-pit"),
                                               ("A", 3, "not-yours"), (3, 3, "not-yours")])
def test_an_illegal_move_carries_the_pit_and_the_reason(move, pit, reason):
    with pytest.raises(ms.IllegalMoveError) as info:
        BAKUK.start().play(move)
    assert (info.value.pit, info.value.reason) == (pit, reason)


def test_an_illegal_move_by_rule_and_on_an_empty_pit():
    # the smallest endless board play can reach (twelve seeds): a never ends
    pos = BA_AWA.parse("2,0,1,0,2,1/0,2,1,0,2,1 S 20-16 opener=S")
    with pytest.raises(ms.IllegalMoveError) as info:
        pos.play("a")
    assert (info.value.pit, info.value.reason) == (0, "rule")
    assert "never ends" in info.value.message
    with pytest.raises(ms.IllegalMoveError) as info:
        pos.play("b")
    assert (info.value.pit, info.value.reason) == (1, "empty")


def test_a_bad_pit_name_keeps_the_board_message_without_its_column():
    with pytest.raises(ms.IllegalMoveError) as info:
        BAKUK.start().play("q")
    assert str(info.value) == info.value.message == (
        "no pit named 'q': pits are a–c (South) and A–C (North)")


def test_notation_errors_keep_the_message_apart_from_where():
    with pytest.raises(ms.NotationError) as info:
        BAKUK.parse("6,6,6/6,6,6 Q 0-0")
    assert str(info.value) == "column 13: " + info.value.message
    assert info.value.message == "expected the player to move (S or N), found 'Q'"


def test_unknown_games_carry_the_name_and_the_known_games():
    with pytest.raises(ms.UnknownGameError) as info:
        ms.get_game("oware")
    assert info.value.name == "oware" and info.value.known == ("ba-awa", "bakuk")
    with pytest.raises(ms.UnknownGameError) as info:
        ms.get_game(None)
    assert info.value.name is None


def test_errors_still_pickle_and_compare_as_value_errors():
    error = ms.IllegalMoveError("nope", pit=3, reason="empty")
    assert isinstance(error, ValueError) and str(error) == "nope"
    assert pickle.loads(pickle.dumps(ms.NotationError("bad", "x", 2, 1))).args == (
        "line 1, column 2: bad",)


def test_a_long_history_is_checked_entry_by_entry_once():
    """16,000 distinct entries are accepted, and a repeat at the end names the
    entry it repeats (each entry is looked up, not compared with every earlier
    one: the check was quadratic, 6 s for this history)."""
    import itertools

    import mancala_spec as ms
    from mancala_spec.errors import InvalidPositionError

    game = ms.get_game("bakuk")
    start = (6,) * 6
    keys = [(c + (36 - sum(c),), 0) for c in itertools.product(range(8), repeat=5)
            if sum(c) <= 36 and c + (36 - sum(c),) != start][:16_000]
    assert len(keys) == 16_000
    pos = game.position(start, history=keys)
    assert len(pos.history) == 16_000
    assert game.parse(pos.to_text()).history == pos.history
    with pytest.raises(InvalidPositionError) as error:
        game.position(start, history=keys + [keys[9]])
    assert error.value.field == "history"
    assert str(error.value).startswith("history entry 16001 repeats entry 10,")
