"""Worked examples checked against the reference engine.

:func:`check` runs each case of an :class:`~mancala_spec.conformance.worked_examples.Example`
on the reference engine and compares every answer its data states: the legal
moves, the move's events and resulting position, the winner, the error of an
illegal move, and what a match says. It also asks for the answers the data must
state and leaves out (the winner of a finished game, the next game of a match).
The Sphinx build warns of every difference, the tests fail on it, and
:func:`~mancala_spec.conformance.build_suite` exports nothing from an example that
has one.
"""
from __future__ import annotations

import doctest
from collections.abc import Callable
from typing import Any

from ..engine.games import get_game
from ..engine.position import Position, Rules
from ..errors import MancalaError
from .worked_examples import ELIDED, Case, Example, Play


def events_match(expected: str, actual: str) -> bool:
    """Whether the events a move wrote (*actual*) are those of *expected*, in
    which a line ``...`` stands for any lines (as doctest's ELLIPSIS does)."""
    want = expected.strip() + "\n"
    return doctest.OutputChecker().check_output(want, actual.strip() + "\n", doctest.ELLIPSIS)


def _first_difference(stated: list[str], actual: list[str]) -> str:
    """Where two event listings part, in one line."""
    for number, (mine, theirs) in enumerate(zip(stated, actual), start=1):
        if mine != theirs and mine != ELIDED:
            return f"line {number} is {theirs!r}, not {mine!r}"
        if mine == ELIDED:
            break
    return f"the engine writes {len(actual)} lines, the example {len(stated)}"


def _names(game, pits) -> list[str]:
    return [game.board.name(pit) for pit in pits]


def case_position(case: Case) -> Position:
    """The case's position, built by the reference engine."""
    game = get_game(case.game, **dict(case.options))
    return game.parse(case.position) if case.position else game.start(case.opener)


def case_pit(case: Case, game: Rules) -> int | None:
    """The case's move as a pit index of *game* (``None`` when it plays none)."""
    return game.board.pit(case.move) if isinstance(case.move, str) else case.move


def check(example: Example) -> list[str]:
    """What the reference engine answers differently from the example's data
    (empty when they agree), and any answer the data leaves unstated that it
    must state: the winner of a finished game, the next game of a match."""
    problems = []
    for case_id, play in zip(example.case_ids(), example.plays):
        try:
            problems += [f"{case_id}: {p}" for p in _check_play(play)]
        except MancalaError as error:
            problems.append(f"{case_id}: the engine refuses it: {error}")
    return problems


def _winner_problems(pos: Any, expect: dict[str, Any], compare: Callable[[str, Any], None],
                     over: str, goes_on: str) -> list[str]:
    """The winner of *pos* compared with the data's (*compare* notes a
    difference), and what the data must state or leave out: a finished
    game's winner (*over* says it is finished), no winner for a game that
    goes on (*goes_on*)."""
    if pos.is_over:
        compare("winner", "draw" if pos.winner is None else pos.winner)
        return [] if "winner" in expect else [f"{over}: state its winner"]
    return [f"{goes_on}: it has no winner"] if "winner" in expect else []


def _check_play(play: Play) -> list[str]:
    case, expect = play.case, play.expect
    pos = case_position(case)
    game = pos.game
    problems = []

    def compare(key: str, actual: Any) -> None:
        if key in expect and expect[key] != actual:
            problems.append(f"{key} is {actual!r}, not {expect[key]!r} as the example says")

    legal = [] if pos.is_over else pos.legal_moves()
    compare("legal", _names(game, legal))
    pit = case_pit(case, game)
    if pit is None:
        problems += _winner_problems(pos, expect, compare, "the position is over",
                                     "the position is not over")
        return problems
    if pit not in legal:
        try:
            pos.play(pit)
        except MancalaError as error:
            compare("error", str(error))
        if "error" not in expect:
            problems.append("the move is illegal: state its error")
        return problems
    if "error" in expect:
        problems.append("the move is legal, not an error")
        return problems
    trace = pos.trace(pit)
    after = trace.position
    if "events" in expect and not events_match(expect["events"], trace.describe()):
        problems.append("events differ from the engine's: " + _first_difference(
            expect["events"].strip().splitlines(), trace.describe().splitlines()))
    compare("result", after.to_text())
    problems += _winner_problems(after, expect, compare, "the game is over after the move",
                                 "the game goes on after the move")
    if case.match is not None:
        from ..engine.games.match import Match

        match = Match.starting_from(pos, **dict(case.match)).play(pit)
        compare("earned", list(match.earned()))
        compare("match_over", match.is_over)
        if match.is_over:
            compare("match_winner", "draw" if match.winner is None else match.winner)
            if "match_winner" not in expect:
                problems.append("the match is over: state its winner (match_winner)")
        else:
            compare("next", match.next_game().position.to_text())
            if "next" not in expect:
                problems.append("the match goes on: state the next game (next)")
    return problems
