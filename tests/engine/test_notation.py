"""Pit names, one-line positions and game records: parse ⇄ format."""
from __future__ import annotations

import random

import pytest
from helpers import NORTH, SOUTH, make, option_combinations, random_game

import mancala_spec as ms

BA_AWA = ms.get_game("ba-awa")
BAKUK = ms.get_game("bakuk")


# -- pit names -------------------------------------------------------------------------


@pytest.mark.parametrize("game, names", [(BA_AWA, "abcdefABCDEF"), (BAKUK, "abcABC")])
def test_pit_names_round_trip(game, names):
    board = game.board
    assert "".join(board.name(p) for p in range(board.size)) == names
    assert [board.pit(n) for n in names] == list(range(board.size))


@pytest.mark.parametrize("game, name", [(BAKUK, "d"), (BAKUK, "D"), (BA_AWA, "g"), (BA_AWA, "aa"),
                                        (BA_AWA, ""), (BA_AWA, "1")])
def test_unknown_pit_name(game, name):
    with pytest.raises(ms.NotationError, match="no pit named") as info:
        game.board.pit(name)
    assert info.value.column == 1


# -- positions ---------------------------------------------------------------------------


def test_start_texts():
    assert BA_AWA.start().to_text() == "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 opener=S"
    assert BAKUK.start(opener=NORTH).to_text() == "6,6,6/6,6,6 N 0-0 opener=N"


def test_rows_are_written_each_in_sowing_order():
    pos = BAKUK.position([1, 2, 3, 4, 5, 7], captured=(8, 6), to_move=NORTH, opener=NORTH)
    assert pos.to_text() == "1,2,3/4,5,7 N 8-6 opener=N"
    assert BAKUK.parse("1,2,3/4,5,7 N 8-6 opener=N") == pos


def test_opener_defaults_to_south_when_left_out():
    assert BAKUK.parse("6,6,6/6,6,6 S 0-0") == BAKUK.start()


def test_history_and_owners_round_trip():
    owners = [SOUTH] * 7 + [NORTH] * 5
    pos = make(BA_AWA, [2, 2, 2, 2, 0, 3, 3, 0, 0, 2, 2, 2], owners=owners)
    after = pos.play("c")                          # c(2) → d 3, e 1: no capture
    text = after.to_text()
    assert "owners=SSSSSSSNNNNN" in text
    assert text.endswith(" seen=2,2,2,2,0,3/3,0,0,2,2,2:S")
    assert BA_AWA.parse(text) == after and BA_AWA.parse(text).history == after.history


def test_seen_lists_several_positions_oldest_first():
    text = "0,1,0/0,0,1 S 14-20 opener=S seen=0,0,1/1,0,0:N;1,0,0/0,1,0:S"
    pos = BAKUK.parse(text)
    assert pos.history == (((0, 0, 1, 1, 0, 0), NORTH), ((1, 0, 0, 0, 1, 0), SOUTH))
    assert pos.to_text() == text


def test_optional_fields_in_any_order():
    a = BAKUK.parse("0,1,0/0,0,1 S 14-20 seen=0,0,1/1,0,0:N opener=N")
    b = BAKUK.parse("0,1,0/0,0,1 S 14-20 opener=N seen=0,0,1/1,0,0:N")
    assert a == b and a.to_text() == "0,1,0/0,0,1 S 14-20 opener=N seen=0,0,1/1,0,0:N"


def test_extra_spaces_are_allowed():
    assert BAKUK.parse("  6,6,6/6,6,6   S  0-0   opener=S ") == BAKUK.start()


@pytest.mark.parametrize("name", ["ba-awa", "bakuk"])
def test_positions_of_random_games_round_trip(name):
    rng = random.Random(2024)
    for options in option_combinations(name):
        game = ms.get_game(name, **options)
        for _ in range(3):
            for trace in random_game(game.start(rng.randrange(2)), rng):
                pos = trace.position
                assert game.parse(pos.to_text()) == pos
                assert eval(repr(pos), {"Position": ms.Position, "get_game": ms.get_game}) == pos


# -- game records --------------------------------------------------------------------------


def test_a_record_by_hand():
    record = ms.parse_game("game: bakuk\noptions: chain=backward\nmoves: a B c\n")
    assert record.game == ms.get_game("bakuk", chain="backward")
    assert record.start == record.game.start()
    assert record.moves == (0, 4, 2)
    positions = record.positions
    assert len(positions) == 4 and positions[0] == record.start
    assert positions[-1] == record.start.play("a").play("B").play("c")
    assert record.to_text() == "game: bakuk\noptions: chain=backward\nmoves: a B c\n"


def test_record_comments_blank_lines_and_move_numbers():
    text = "# a short game\n\ngame: Nam-Nam\nmoves: 1. a 2. B  3. c\n"
    record = ms.parse_game(text)
    assert record.game == BA_AWA and record.moves == (0, 7, 2)
    assert record.to_text() == "game: ba-awa\nmoves: a B c\n"


@pytest.mark.parametrize("name, options, line", [
    ("ba-awa", {"skip_origin": True}, "options: skip_origin=true"),
    ("ba-awa", {"no_move": "owners", "endless": "stop"}, "options: endless=stop no_move=owners"),
    ("bakuk", {"leftovers": "owners", "chain": "backward"},
     "options: chain=backward leftovers=owners"),
    ("bakuk", {"no_move": "pass", "skip_origin": True}, "options: skip_origin=true no_move=pass"),
])
def test_option_values_in_records(name, options, line):
    game = ms.get_game(name, **options)
    text = ms.format_game(game.start(), ["a"])
    assert text.splitlines()[1] == line
    assert ms.parse_game(text).game == game


def test_default_options_are_not_written_and_may_be_given():
    game = ms.get_game("ba-awa", skip_origin=False, endless="illegal")
    assert ms.format_game(game.start(), []) == "game: ba-awa\nmoves:\n"
    record = ms.parse_game("game: ba-awa\noptions: skip_origin=false endless=illegal\nmoves:\n")
    assert record.game == BA_AWA and record.moves == ()


def test_start_line_for_a_position_other_than_the_start():
    start = BAKUK.parse("0,1,0/0,0,1 S 14-20 opener=S")
    text = ms.format_game(start, ["b", "C"])
    assert text == "game: bakuk\nstart: 0,1,0/0,0,1 S 14-20 opener=S\nmoves: b C\n"
    record = ms.parse_game(text)
    assert record.start == start and record.moves == (1, 5)


def test_record_of_a_game_north_opened():
    start = BAKUK.start(opener=NORTH)
    record = ms.parse_game(ms.format_game(start, ["A", "a"]))
    assert record.start == start and record.moves == (3, 0)


@pytest.mark.parametrize("name", ["ba-awa", "bakuk"])
def test_records_of_random_games_round_trip(name):
    rng = random.Random(7)
    for options in option_combinations(name):
        game = ms.get_game(name, **options)
        for _ in range(3):
            traces = random_game(game.start(), rng)
            moves = [t.pit for t in traces]
            text = ms.format_game(game.start(), moves)
            record = ms.parse_game(text)
            assert record.game == game and record.start == game.start()
            assert record.moves == tuple(moves)
            assert record.positions[-1] == traces[-1].position and record.positions[-1].is_over
            assert record.to_text() == text
            # Names work as moves too.
            assert ms.format_game(game.start(), [game.board.name(m) for m in moves]) == text


@pytest.mark.parametrize("name", ["ba-awa", "bakuk"])
def test_records_of_random_games_from_random_positions(name):
    rng = random.Random(11)
    game = ms.get_game(name)
    for _ in range(5):
        middle = random_game(game.start(), rng)
        start = middle[len(middle) // 2].before
        moves = [t.pit for t in middle[len(middle) // 2:]]
        record = ms.parse_game(ms.format_game(start, moves))
        assert record.start == start and record.positions[-1] == middle[-1].position


def test_a_record_with_variations_reads_back_the_same_tree_and_bad_ones_get_one_line():
    """Variations in parentheses after the move they replace (the Play page's record):
    the record's moves are the game, its tree every line, and it writes back the same."""
    text = "game: bakuk\nmoves: 1. a B (C b (c) A) 2. c\n"
    record = ms.parse_game(text)
    board = record.game.board
    assert [board.name(p) for p in record.moves] == ["a", "B", "c"]
    def named(tree):
        return [(board.name(p), [named(v) for v in variations]) for p, variations in tree]
    assert named(record.tree) == [("a", []), ("B", [[("C", []), ("b", [[("c", [])]]), ("A", [])]]),
                                  ("c", [])]
    assert record.to_text() == "game: bakuk\nmoves: a B (C b (c) A) c\n"
    assert ms.parse_game(record.to_text()) == record
    assert ms.parse_game("game: bakuk\nmoves: a B c\n").tree == ((0, ()), (4, ()), (2, ()))
    # variations nested as deep as allowed are read; a move tried twice is one move
    deep = "a " + "(b " * 100 + ")" * 100
    assert ms.parse_game(f"game: bakuk\nmoves: {deep}\n").to_text() == (
        "game: bakuk\nmoves: a (b)\n")
    for bad, message in (("(a)", "must follow"), ("a (B", "illegal"), ("a B)", "closes no"),
                         ("a ()", "empty"), ("a (b", "not closed"), ("a (1.)", "number"),
                         ("a " + "(b " * 101 + ")" * 101, "nest")):
        with pytest.raises(ms.NotationError, match=message) as error:
            ms.parse_game(f"game: bakuk\nmoves: {bad}\n")
        assert "\n" not in str(error.value).splitlines()[0]


def test_annotation_marks_and_comments_are_kept_and_old_records_read_as_before():
    """A move's mark (!, ?, !!, ??, !?, ?!) right after it and a comment in braces after
    it, in the game and in variations: read into GameRecord.notes (by the moves from the
    start), written back the same; a record without them reads and writes as before."""
    text = "game: bakuk\nmoves: 1. a!? B? {C keeps the seeds} (C!! {a fine reply} b??) 2. c ?! A\n"
    with pytest.raises(ms.NotationError, match="pit name"):      # a mark apart is no move
        ms.parse_game(text)
    record = ms.parse_game(text.replace("c ?!", "c?!"))
    a, b, c, big_a, big_b, big_c = range(6)
    assert record.moves == (a, big_b, c, big_a)
    assert dict((path, (mark, comment)) for path, mark, comment in record.notes) == {
        (a,): ("!?", ""), (a, big_b): ("?", "C keeps the seeds"),
        (a, big_c): ("!!", "a fine reply"), (a, big_c, b): ("??", ""), (a, big_b, c): ("?!", "")}
    written = record.to_text()
    assert written == ("game: bakuk\nmoves: a!? B? {C keeps the seeds} (C!! {a fine reply} b??) "
                       "c?! A\n")
    assert ms.parse_game(written) == record
    plain = ms.parse_game("game: bakuk\nmoves: a B (C b) c\n")
    assert plain.notes == () and plain.to_text() == "game: bakuk\nmoves: a B (C b) c\n"
    for bad in ("{x} a", "a {x", "a {" + "x" * 501 + "}", "a ({x} b)", "1. {x} a"):
        with pytest.raises(ms.NotationError, match="comment") as error:
            ms.parse_game(f"game: bakuk\nmoves: {bad}\n")
        assert "\n" not in str(error.value).splitlines()[0]
