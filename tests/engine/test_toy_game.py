"""A third game is cheap (issue 33): the test-only toy of tests/toy_game.py, one
module, plays through ``get_game``, the command line's ``show`` and the
conformance runner, with nothing else of the package changed."""
from __future__ import annotations

import copy
import sys
from pathlib import Path

import pytest
from toy_game import Toy, registered

import mancala_spec as ms
import mancala_spec.conformance as conformance
from mancala_spec.cli import main
from mancala_spec.conformance.protocol import PROTOCOL
from mancala_spec.conformance.runner import PASS, run

TESTS = Path(__file__).resolve().parent


@pytest.fixture
def toy():
    with registered():
        yield ms.get_game("toy")


def test_the_toy_is_known_only_while_registered(toy):
    assert isinstance(toy, Toy) and repr(toy) == "get_game('toy')"
    with registered():
        pass
    assert ms.get_game("Toy") == toy                 # still registered in the fixture


def test_an_unregistered_toy_is_an_unknown_game():
    with pytest.raises(ms.UnknownGameError):
        ms.get_game("toy")


def test_the_toy_plays_its_one_capture_rule(toy):
    pos = toy.start()
    assert pos.to_text() == "2,2/2,2 S 0-0 opener=S" and pos.legal_moves() == [0, 1]
    after = pos.play("a")                            # b and A take a seed each: no two
    assert (after.pits, after.to_move, after.captured) == ((0, 3, 3, 2), 1, (0, 0))
    capture = toy.parse("1,1/0,2 S 2-2").trace("a")  # the last seed makes two in b
    assert [e.kind for e in capture.events] == ["pick-up", "drop", "end-of-lap", "capture",
                                                 "end-of-move"]
    assert capture.position.captured == (4, 2) and capture.position.pits == (0, 0, 0, 2)


def test_the_toy_ends_and_checks_what_is_its_own(toy):
    over = toy.parse("0,0/1,1 S 2-4")                # South has no seeds: the game is over
    assert over.outcome == ms.Outcome("exhausted", "toy-end", 1)
    with pytest.raises(ms.IllegalMoveError, match="belongs to North"):
        toy.parse("1,1/0,2 S 2-2").play("B")
    with pytest.raises(ms.InvalidPositionError, match="the toy captures only twos"):
        toy.parse("1,1/1,2 S 1-2")
    seen = toy.parse("1,1/0,2 S 2-2 seen=1,1/0,2:S")
    assert seen.outcome.reason == "repetition"


def test_the_toy_plays_through_the_command_lines_show(toy, capsys):
    assert main(["show", "toy", "1,1/0,2 S 2-2"]) == 0
    shown = capsys.readouterr().out
    assert "1,1/0,2 S 2-2 opener=S" in shown and "South to move; legal moves: a b" in shown


TOY_CASE = {
    "id": "toy-capture-1", "rule": "toy-capture", "game": "toy", "ruleset": "mancala_spec",
    "options": {}, "where": "toy.html#example-toy-capture-1",
    "position": {"text": "1,1/0,2 S 2-2 opener=S",
                 "fields": {"pits": [1, 1, 0, 2], "to_move": 0, "captured": [2, 2],
                            "opener": 0, "owners": [0, 0, 1, 1], "history": []}},
    "move": {"pit": 0, "name": "a"},
    "expected": {"legal_moves": [0, 1],
                 "result": {"pits": [0, 0, 0, 2], "to_move": 1, "captured": [4, 2],
                            "opener": 0, "owners": [0, 0, 1, 1], "is_over": False,
                            "winner": None, "text": "0,0/0,2 N 4-2 opener=S"},
                 "events": [{"event": "pick-up", "rule": "toy-sow", "pit": 0, "seeds": 1},
                            {"event": "drop", "rule": "toy-sow", "pit": 1, "count": 2},
                            {"event": "end-of-lap", "rule": "toy-sow", "lap": 1, "pit": 1,
                             "count": 2},
                            {"event": "capture", "rule": "toy-capture", "pit": 1, "seeds": 2,
                             "player": 0},
                            {"event": "end-of-move", "rule": "toy-sow",
                             "reason": "single-lap"}]}}


def test_the_toy_plays_through_the_conformance_runner(monkeypatch):
    """The reference engine, the toy registered in it, passes a toy case; one
    whose expected capture is wrong fails. The suite's schema names the games
    it knows and bounds their boards: a third game adds its name there, and a
    smaller board its size, as this copy does."""
    schema = conformance.schema()
    schema["$defs"]["case"]["properties"]["game"]["enum"].append("toy")
    schema["$defs"]["pits"]["minItems"] = 4
    monkeypatch.setattr(conformance, "schema", lambda: copy.deepcopy(schema))
    wrong = copy.deepcopy(TOY_CASE)
    wrong["id"] = "toy-capture-wrong"
    wrong["expected"]["result"]["captured"] = [2, 4]
    suite = {"format": "mancala-spec-conformance-suite", "version": 1,
             "mancala_spec": ms.__version__, "protocol": PROTOCOL, "cases": [TOY_CASE, wrong]}
    engine = [sys.executable, "-c",
              f"import sys; sys.path.insert(0, {str(TESTS)!r}); import toy_game; "
              "toy_game.serve()"]
    report = run(engine, suite, timeout=60)
    assert [(o.case, o.status) for o in report.outcomes] == [
        ("toy-capture-1", PASS), ("toy-capture-wrong", "fail")]
    assert "result.captured" in report.outcomes[1].diff[0]
