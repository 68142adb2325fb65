"""One rule, one function: every engine function shown beside a rule declares that
rule alone, except the short, documented list below; and the lines of its code
that pass the rule's ID (highlighted on the site) are found exactly."""
from __future__ import annotations

import inspect

import mancala_spec as ms
from mancala_spec.catalogue import load_catalogue
from mancala_spec.sphinx.rule_nodes import rule_lines

#: Functions that declare more than one rule, and why (the closing note of issue 22
#: lists them too). The two games state these rules alike, so one function holds
#: both games' rule; or the catalogue splits one construction into two rules.
SHARED = {
    "Board.row_owners": "each player owns their own row (both games)",
    "Board.three_player_owners": "the three-player seating, stated by the three-players "
                                 "rule (how many) and the three-turns rule (which)",
    "Game.next_turn": "the players move alternately (both games)",
    "Game.start": "the opener moves first, South unless told (both games)",
    "Game.next_player": "turns pass in the sowing direction or against it (both games)",
    "Game.next_pit": "a long lap's origin (both games)",
    "Game.winner": "the most captured wins (both games)",
    "Game.setup": "the game's seeds in every pit, nothing captured (both games)",
    "Game.pass_over": "a player who cannot move is passed over, when the game's option "
                      "says so (both games)",
    "Game.decided": "the game ends once its winner is decided, other programs' reading "
                    "of both games (an option of each)",
    "BaAwa.make_board": "the board and its optional stores (two rules of one board)",
}
#: Of those, the functions that carry two different rules (not one rule both games
#: state alike), each with its reason: at most two (issue 33).
TWO_RULES = {"Board.three_player_owners", "BaAwa.make_board"}


def test_every_function_declares_one_rule_but_the_documented_few():
    many = {}
    for rule in load_catalogue():
        for func in rule.implementations:
            if len(func.__rules__) > 1:
                many[func.__qualname__] = func.__rules__
    assert sorted(many) == sorted(SHARED)
    different = {name for name, rules in many.items()
                 if len({rule.removeprefix("ba-awa-").removeprefix("bakuk-")
                         for rule in rules}) > 1}
    # Game.decided's and Game.pass_over's two IDs are each game's rule for the one step the
    # games share (the catalogue names it differently in each game)
    assert different - {"Game.decided", "Game.pass_over"} == TWO_RULES and len(TWO_RULES) <= 2


def test_the_highlighted_lines_are_those_that_pass_the_rule_id():
    lines, _ = inspect.getsourcelines(ms.engine.games.ba_awa.BaAwa.mover_four)
    marked = rule_lines(lines, "ba-awa-mover-four")
    assert [lines[n - 1].strip() for n in marked] == [
        's.capture(last, s.mover, "ba-awa-mover-four")',
        's.end_move("four", "ba-awa-mover-four")']           # not the @implements line
    assert rule_lines(lines, "ba-awa-four") == []            # a prefix is not the ID
    assert rule_lines(["x = 'bakuk-chain'\n"], "bakuk-chain") == [1]
