"""Every error path: the typed class, its message, and that nothing is half-applied."""
from __future__ import annotations

import re

import pytest
from helpers import NORTH, SOUTH, make

import mancala_spec as ms

BA_AWA = ms.get_game("ba-awa")
BAKUK = ms.get_game("bakuk")


@pytest.mark.parametrize("cls", [ms.MancalaError, ms.UnknownGameError, ms.OptionError,
                                 ms.InvalidPositionError, ms.IllegalMoveError, ms.NotationError])
def test_every_error_is_a_value_error(cls):
    assert issubclass(cls, ms.MancalaError) and issubclass(cls, ValueError)


# -- games and options ------------------------------------------------------------------


@pytest.mark.parametrize("name, message", [
    ("chess", "unknown game 'chess'; known games: ba-awa (also anenam, nam-nam, baawa); bakuk"),
    ("", "unknown game ''"),
    (5, "a game name is a string, not 5"),
    (None, "a game name is a string, not None"),
])
def test_unknown_game(name, message):
    with pytest.raises(ms.UnknownGameError, match=re.escape(message)):
        ms.get_game(name)


@pytest.mark.parametrize("name", ["Ba-Awa", " bakuk ", "nam nam", "Nam_Nam", "anenam", "baawa"])
def test_game_names_are_forgiving(name):
    assert ms.get_game(name).name in {"ba-awa", "bakuk"}


@pytest.mark.parametrize("name, options, message", [
    ("ba-awa", {"chain": "forward"},
     "unknown option 'chain' for ba-awa; its options are: choose, decided, endless, no_move, "
     "players, repetition, skip_origin, turn_order"),
    ("bakuk", {"endless": "stop"},
     "unknown option 'endless' for bakuk; its options are: chain, decided, first_counter, "
     "leftovers, no_move, players, repetition, sixes, skip_origin, turn_order"),
    ("ba-awa", {"Skip_origin": True}, "unknown option 'Skip_origin' for ba-awa"),
])
def test_unknown_option(name, options, message):
    with pytest.raises(ms.OptionError, match=re.escape(message)):
        ms.get_game(name, **options)


@pytest.mark.parametrize("name, option, value, choices", [
    ("ba-awa", "skip_origin", 1, "False, True"),        # 1 == True, but it is not a bool
    ("ba-awa", "skip_origin", 0, "False, True"),
    ("bakuk", "skip_origin", "true", "False, True"),
    ("ba-awa", "endless", "forever", "'illegal', 'stop', 'cap-75'"),
    ("ba-awa", "no_move", None, "'pass', 'owners', 'empty-row'"),
    ("ba-awa", "no_move", "end", "'pass', 'owners', 'empty-row'"),     # Bakuk's value, not Ba-awa's
    ("bakuk", "chain", "Forward", "'forward', 'backward'"),
    ("bakuk", "no_move", "owners", "'end', 'pass'"),
    ("bakuk", "leftovers", "", "'unscored', 'owners'"),
])
def test_bad_option_value(name, option, value, choices):
    message = f"option {option} of {name} must be one of {choices}, not {value!r}"
    with pytest.raises(ms.OptionError, match=re.escape(message)):
        ms.get_game(name, **{option: value})


def test_skip_origin_true_is_accepted_but_1_is_not():
    assert ms.get_game("ba-awa", skip_origin=True).options["skip_origin"] is True
    with pytest.raises(ms.OptionError):
        ms.get_game("ba-awa", skip_origin=1)


def test_unknown_option_name_lookup():
    with pytest.raises(ms.OptionError, match="unknown option 'x' for bakuk"):
        BAKUK.option("x")


def test_options_cannot_be_changed():
    with pytest.raises(TypeError):
        BA_AWA.options["skip_origin"] = True
    assert BA_AWA.options["skip_origin"] is False


# -- invalid positions ---------------------------------------------------------------------

FOURS = [4] * 12


@pytest.mark.parametrize("kwargs, message", [
    ({"pits": [4] * 11}, "pits must have 12 entries, not 11"),
    ({"pits": [4] * 13}, "pits must have 12 entries, not 13"),
    ({"pits": [-1] + [4] * 11}, "pits[0] is negative (-1)"),
    ({"pits": [4] * 11 + [4.0]}, "pits[11] must be a whole number, not 4.0"),
    ({"pits": [True] + [4] * 11}, "pits[0] must be a whole number, not True"),
    ({"pits": "444444444444"}, "pits must be a sequence of 12 seed counts"),
    ({"pits": 48}, "pits must be a sequence of 12 seed counts"),
    ({"pits": FOURS, "captured": (1, 0)},
     "seeds are not conserved: 48 on the board + 1 captured = 49, but ba-awa is played with 48"),
    ({"pits": [4] * 11 + [3]}, "the board holds 47 seeds of 48: give captured= explicitly"),
    ({"pits": [4] * 11 + [5], "captured": (0, 0)}, "seeds are not conserved"),
    ({"pits": FOURS, "captured": (24,)}, "captured must have 2 entries, not 1"),
    ({"pits": FOURS, "captured": (0, -1)}, "captured[1] is negative (-1)"),
    ({"pits": FOURS, "to_move": 2}, "to_move must be a player index from 0 to 1, not 2"),
    ({"pits": FOURS, "to_move": True}, "to_move must be a player index from 0 to 1, not True"),
    ({"pits": FOURS, "to_move": "S"}, "to_move must be a player index from 0 to 1, not 'S'"),
    ({"pits": FOURS, "opener": -1}, "opener must be a player index from 0 to 1, not -1"),
    ({"pits": FOURS, "owners": [0] * 11}, "owners must list 12 players, one per pit"),
    ({"pits": FOURS, "owners": "SSSSSSNNNNNN"}, "owners must list 12 players, one per pit"),
    ({"pits": FOURS, "owners": [0] * 11 + [2]},
     "an owner must be a player index from 0 to 1, not 2"),
    ({"pits": FOURS, "history": [5]}, "history entry 1 must be a (pits, player) pair"),
    ({"pits": FOURS, "history": [(FOURS,)]}, "history entry 1 must be a (pits, player) pair"),
    ({"pits": FOURS, "history": [(FOURS, 1), ([4] * 11, 0)]},
     "history entry 2 must have 12 entries, not 11"),
    ({"pits": FOURS, "history": [(FOURS, 3)]},
     "history entry 1 must be a player index from 0 to 1, not 3"),
    ({"pits": FOURS, "history": [([4] * 11 + [0], 1)]},
     "history entry 1 holds 44 seeds, but history only goes back to the last capture, "
     "so it must hold 48 like the board"),
    ({"pits": FOURS, "history": [(FOURS, 1), (FOURS, 0)]},
     "the position already occurs in its history, so the game would have ended "
     "(rule ba-awa-repetition)"),
])
def test_invalid_ba_awa_positions(kwargs, message):
    with pytest.raises(ms.InvalidPositionError, match=re.escape(message)):
        BA_AWA.position(**kwargs)


@pytest.mark.parametrize("seeds", range(1, 9))
def test_ba_awa_board_with_one_to_eight_seeds_is_invalid(seeds):
    pits = [0] * 12
    pits[8] = seeds
    # Play leaves only 4 or 8 of these (captures take fours); the others are
    # refused for their captured counts first, so the eight-seeds check is
    # reached for them only with allow_unreachable.
    unreachable = seeds % 4 != 0
    if unreachable:
        with pytest.raises(ms.InvalidPositionError, match="which play cannot reach") as info:
            make(BA_AWA, pits, to_move=NORTH)
        assert info.value.field == "captured"
    with pytest.raises(ms.InvalidPositionError,
                       match=rf"the board holds {seeds} seeds?, but when eight or fewer remain "
                             r"after a move the opener takes them .*\(rule ba-awa-eight\)"):
        make(BA_AWA, pits, to_move=NORTH, allow_unreachable=unreachable)


def test_ba_awa_board_with_nine_seeds_or_none_is_valid():
    # nine: the eight-seeds check's boundary, on a board play cannot leave
    # (39 captured), so built with allow_unreachable; twelve is the first
    # count above eight play leaves
    nine = make(BA_AWA, [0] * 8 + [9, 0, 0, 0], to_move=NORTH, allow_unreachable=True)
    assert nine.seeds_on_board == 9
    assert make(BA_AWA, [0] * 8 + [12, 0, 0, 0], to_move=NORTH).seeds_on_board == 12
    assert BA_AWA.position([0] * 12, captured=(24, 24)).is_over


@pytest.mark.parametrize("no_move, message", [
    ("pass", "South is to move but has no legal move, so the turn would have passed to North "
             "(rule ba-awa-no-move)"),
    ("owners", "South is to move but has no legal move, so the game would have ended "
               "(rule ba-awa-no-move)"),
])
def test_ba_awa_player_to_move_without_a_legal_move(no_move, message):
    game = ms.get_game("ba-awa", no_move=no_move)
    with pytest.raises(ms.InvalidPositionError, match=re.escape(message)):
        make(game, [0] * 6 + [2] * 6)


def test_bakuk_positions_the_rules_would_already_have_resolved():
    over = [0, 0, 0, 6, 6, 6]                    # South to move, no counters: game over
    assert make(BAKUK, over).is_over               # valid by default: leftovers unscored
    with pytest.raises(ms.InvalidPositionError, match=re.escape(
            "this position ends the game, so with leftovers='owners' its counters would "
            "already belong to their owners (rule bakuk-leftovers)")):
        make(ms.get_game("bakuk", leftovers="owners"), over)
    with pytest.raises(ms.InvalidPositionError, match=re.escape(
            "South is to move but has no counters, so with no_move='pass' the turn would "
            "have passed (rule bakuk-exhausted)")):
        make(ms.get_game("bakuk", no_move="pass"), over)


def test_invalid_bakuk_positions():
    with pytest.raises(ms.InvalidPositionError, match="pits must have 6 entries, not 12"):
        BAKUK.position(FOURS)
    with pytest.raises(ms.InvalidPositionError, match="bakuk is played with 36"):
        BAKUK.position([6] * 6, captured=(1, 1))


# -- illegal moves -----------------------------------------------------------------------------


ENDLESS = "1,0,2,1,0,2/1,2,0,1,0,2 N 16-20 opener=S"     # B never ends (see test_ba_awa.py)


@pytest.mark.parametrize("text, move, error, message", [
    ("4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 opener=S", 6, ms.IllegalMoveError,
     "pit A belongs to North, but South is to move"),
    ("4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 opener=S", "F", ms.IllegalMoveError,
     "pit F belongs to North, but South is to move"),
    ("0,0,0,0,0,2/0,0,3,3,3,1 S 16-20 opener=S", "a", ms.IllegalMoveError,
     "pit a is empty: a move must lift seeds"),
    (ENDLESS, "B", ms.IllegalMoveError,
     "pit B starts a relay sowing that never ends: a lap would start again from a board and "
     "pit already seen in this move (rule ba-awa-endless)"),
    ("0,0,0,0,0,0/0,0,0,0,0,0 S 24-24 opener=S", "a", ms.IllegalMoveError,
     "the game is over: no move can be played (pit a)"),
    ("4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 opener=S", 12, ms.IllegalMoveError,
     "no pit 12: pits are numbered 0 to 11"),
    ("4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 opener=S", -1, ms.IllegalMoveError,
     "no pit -1: pits are numbered 0 to 11"),
    ("4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 opener=S", 2.0, ms.IllegalMoveError,
     "a move is a pit index or name, not 2.0"),
    ("4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 opener=S", True, ms.IllegalMoveError,
     "a move is a pit index or name, not True"),
    ("4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 opener=S", None, ms.IllegalMoveError,
     "a move is a pit index or name, not None"),
    # An unknown pit name is malformed notation, not an illegal move.
    ("4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 opener=S", "g", ms.IllegalMoveError,
     "no pit named 'g': pits are a–f (South) and A–F (North)"),
])
def test_illegal_ba_awa_moves(text, move, error, message):
    pos = BA_AWA.parse(text)
    for call in (pos.play, pos.trace):
        with pytest.raises(error, match=re.escape(message)):
            call(move)
    assert pos == BA_AWA.parse(text)                     # nothing half-applied


@pytest.mark.parametrize("text, move, message", [
    ("6,6,6/6,6,6 N 0-0 opener=N", "a", "pit a belongs to South, but North is to move"),
    ("0,3,0/1,0,2 S 14-16 opener=S", 2, "pit c is empty: a move must lift seeds"),
    ("0,1,3/0,0,0 N 16-16 opener=S", "A", "the game is over: no move can be played (pit A)"),
    ("6,6,6/6,6,6 S 0-0 opener=S", 6, "no pit 6: pits are numbered 0 to 5"),
])
def test_illegal_bakuk_moves(text, move, message):
    pos = BAKUK.parse(text)
    with pytest.raises(ms.IllegalMoveError, match=re.escape(message)):
        pos.play(move)
    assert pos == BAKUK.parse(text)


def test_a_failed_move_leaves_the_position_usable():
    pos = BA_AWA.parse(ENDLESS)
    before = (pos.pits, pos.to_move, pos.captured, pos.history)
    for bad in ("B", "a", 42, "z"):
        with pytest.raises(ms.MancalaError):
            pos.play(bad)
    assert (pos.pits, pos.to_move, pos.captured, pos.history) == before
    assert pos.legal_moves() == [6, 9, 11]
    assert pos.play("A").to_move == SOUTH
    # Bakuk too: a failed move, then a good one from the same position.
    start = BAKUK.start()
    with pytest.raises(ms.IllegalMoveError):
        start.play("A")
    assert start == BAKUK.start() and start.play("a").pits == (1, 7, 7, 7, 7, 7)


# -- malformed position text -------------------------------------------------------------------


@pytest.mark.parametrize("text, column, message", [
    ("6,6,6|6,6,6 S 0-0", 1, "pits must be two rows separated by '/', like '6,6,6/6,6,6'"),
    ("6,6/6,6,6 S 0-0", 1, "South's row must have 3 pits, found 2 in '6,6'"),
    ("6,6,6/6,6 S 0-0", 7, "North's row must have 3 pits, found 2 in '6,6'"),
    ("6,x,6/6,6,6 S 0-0", 3, "expected a seed count, found 'x'"),
    ("6,,6/6,6,6 S 0-0", 3, "expected a seed count, found ''"),
    ("6,6,6/6,6,-6 S 0-0", 11, "expected a seed count, found '-6'"),
    ("６,6,6/6,6,6 S 0-0", 1, "expected a seed count, found '６'"),
    ("6,6,6/6,6,6 X 0-0", 13, "expected the player to move (S or N), found 'X'"),
    ("6,6,6/6,6,6 south 0-0", 13, "expected the player to move (S or N), found 'south'"),
    ("6,6,6/6,6,6 S 0-0-0", 15, "expected captured seeds as 2 counts joined by '-', like '0-0'"),
    ("6,6,6/6,6,6 S 0_0", 15,
     "expected captured seeds as 2 counts joined by '-', like '0-0'; found '0_0'"),
    ("6,6,6/6,6,6 S 0-0 opener=X", 26, "expected the opener (S or N), found 'X'"),
    ("6,6,6/6,6,6 S 0-0 foo=S", 19, "expected opener=, owners= or seen=, found 'foo=S'"),
    ("6,6,6/6,6,6 S 0-0 opener", 19, "expected opener=, owners= or seen=, found 'opener'"),
    ("6,6,6/6,6,6 S 0-0 opener=S opener=S", 28, "opener= is given twice"),
    ("6,6,6/6,6,6 S 0-0 owners=SSN", 26, "owners= needs one letter per pit (6), found 3"),
    ("6,6,6/6,6,6 S 0-0 owners=SSXNNN", 28, "expected an owner (S or N), found 'X'"),
    ("6,6,6/6,6,6 S 0-0 seen=6,6,6/6,6,6", 24, "each seen= entry is pits:player"),
    ("6,6,6/6,6,6 S 0-0 seen=6,6,6/6,6,6:N;6,6,6/6,6,6:Q", 50,
     "expected the player to move (S or N), found 'Q'"),
    ("6,6,6/6,6,6 S 0-0 seen=6,6,6/6,6,6:N;6,6/6,6,6:S", 38,
     "South's row must have 3 pits, found 2 in '6,6'"),
])
def test_malformed_position_text_names_the_column(text, column, message):
    with pytest.raises(ms.NotationError, match=re.escape(f"column {column}: {message}")) as info:
        BAKUK.parse(text)
    assert info.value.column == column and info.value.line is None
    assert info.value.text == text


@pytest.mark.parametrize("text", ["", "   ", "6,6,6/6,6,6", "6,6,6/6,6,6 S"])
def test_position_text_too_short(text):
    with pytest.raises(ms.NotationError, match="a position needs at least pits, the player to "
                                               "move and the captured seeds") as info:
        BAKUK.parse(text)
    assert info.value.column is None


def test_position_text_must_be_text():
    with pytest.raises(ms.NotationError, match="a position is text, not int"):
        BAKUK.parse(5)
    with pytest.raises(ms.NotationError, match="a position is text, not bytes"):
        ms.Position(BAKUK, b"6,6,6/6,6,6 S 0-0")


def test_well_formed_text_of_an_impossible_position():
    with pytest.raises(ms.InvalidPositionError, match="seeds are not conserved"):
        BAKUK.parse("6,6,6/6,6,6 S 0-1")
    with pytest.raises(ms.InvalidPositionError, match="already occurs in its history"):
        BA_AWA.parse("4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 seen=4,4,4,4,4,4/4,4,4,4,4,4:S")
    with pytest.raises(ms.InvalidPositionError, match="the board holds 8 seeds"):
        BA_AWA.parse("8,0,0,0,0,0/0,0,0,0,0,0 N 20-20")


# -- malformed game records ------------------------------------------------------------------


@pytest.mark.parametrize("text, line, column, message", [
    ("game: bakuk\n", None, None, "a game record needs a 'moves:' line"),
    ("moves: a\n", None, None, "a game record needs a 'game:' line"),
    ("game: bakuk\nfoo: 1\nmoves: a\n", 2, 1,
     "expected 'game:', 'options:', 'start:', 'moves:' or 'result:'"),
    ("game: bakuk\nmoves a\n", 2, 1,
     "expected 'game:', 'options:', 'start:', 'moves:' or 'result:'"),
    ("game: bakuk\ngame: bakuk\nmoves: a\n", 2, 1, "'game:' is given twice"),
    ("game: bakuk\nmoves: a\nmoves: b\n", 3, 1, "'moves:' is given twice"),
    ("game: chess\nmoves: a\n", 1, 7, "unknown game 'chess'"),
    ("game: bakuk\noptions: chain=sideways\nmoves: a\n", 2, None,
     "option chain of bakuk must be one of 'forward', 'backward', not 'sideways'"),
    ("game: ba-awa\noptions: skip_origin=1\nmoves: a\n", 2, None,
     "option skip_origin of ba-awa must be one of False, True, not 1"),
    ("game: bakuk\noptions: colour=red\nmoves: a\n", 2, None, "unknown option 'colour' for bakuk"),
    ("game: bakuk\noptions: chain\nmoves: a\n", 2, 10, "options are key=value, found 'chain'"),
    ("game: bakuk\nstart: 6,6,6/6,6 S 0-0\nmoves: a\n", 2, 14,
     "North's row must have 3 pits, found 2 in '6,6'"),
    ("game: bakuk\nstart:   6,6,6/6,x,6 S 0-0\nmoves: a\n", 2, 18,
     "expected a seed count, found 'x'"),
    ("game: bakuk\nstart: 6,6,6/6,6,6 S 0-1\nmoves: a\n", 2, 8,
     "impossible start position: seeds are not conserved"),
    ("game: bakuk\nmoves: a z\n", 2, 10, "expected a pit name, found 'z'"),
    ("game: bakuk\nmoves: a a\n", 2, 10,
     "move 2 (a) is illegal: pit a belongs to South, but North is to move"),
    ("# header\n\ngame: bakuk\nmoves: a  A  A\n", 4, 14,
     "move 3 (A) is illegal: pit A belongs to North, but South is to move"),
    ("game: bakuk\nstart: 0,0,0/0,0,0 S 18-18\nmoves: a\n", 3, 8,
     "move 1 (a) is illegal: the game is over: no move can be played (pit a)"),
    ("game: ba-awa\nstart: 1,0,2,1,0,2/1,2,0,1,0,2 N 16-20\nmoves: B\n", 3, 8,
     "move 1 (B) is illegal: pit B starts a relay sowing that never ends"),
])
def test_malformed_game_records_name_line_and_column(text, line, column, message):
    where = ", ".join(filter(None, [line and f"line {line}", column and f"column {column}"]))
    full = f"{where}: {message}" if where else message
    with pytest.raises(ms.NotationError, match=re.escape(full)) as info:
        ms.parse_game(text)
    assert (info.value.line, info.value.column) == (line, column)


def test_unknown_game_with_options_is_blamed_on_the_game_line():
    with pytest.raises(ms.NotationError) as info:
        ms.parse_game("game: chess\noptions: chain=forward\nmoves: a\n")
    assert info.value.line == 1


def test_record_columns_with_spaces_around_the_key():
    with pytest.raises(ms.NotationError) as info:
        ms.parse_game("game: bakuk\nmoves : a z\n")
    assert info.value.column == 11                      # 'z' is the 11th character
