"""``mancala-spec play``: your side shown and drawn from, help, undo, quit, each
move and the end explained with rule IDs."""
from __future__ import annotations

import io
import re
import sys

import mancala_spec as ms
from mancala_spec import cli
from mancala_spec.cli.play import board_from, explain, explain_end


def play(capsys, monkeypatch, *argv, lines=()):
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
    status = cli.main(["play", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_your_side_is_said_and_the_board_drawn_from_it(capsys, monkeypatch):
    status, out, _ = play(capsys, monkeypatch, "bakuk", "--as", "north", "--seed", "1",
                          lines=["quit"])
    assert status == 0
    assert out.startswith("Bakuk: you play North against the random player; South opens.")
    board = out.split("\n\n")[1]
    assert board.splitlines()[-1].split() == ["A", "B", "C"]        # North's row at the bottom
    assert board.splitlines()[0].split() == ["c", "b", "a"]
    assert board.splitlines()[2].startswith("North")
    south_view = board_from(ms.get_game("bakuk").start(), 0)
    assert south_view.splitlines()[-1].split() == ["a", "b", "c"]


def test_help_undo_and_quit(capsys, monkeypatch):
    status, out, _ = play(capsys, monkeypatch, "bakuk", "--opponent", "greedy", "--seed", "1",
                          lines=["undo", "help", "a", "undo", "b", "quit"])
    assert status == 0
    assert "nothing to undo" in out
    assert "undo   take back your last move" in out
    assert "undone: back to South's move" in out
    # after the undo, b was played instead of a (and the computer replied): the record
    record = ms.parse_game(out[out.index("game: bakuk"):])
    assert len(record.moves) == 2 and record.moves[0] == 1


def test_a_ba_awa_move_is_explained_with_its_relays_and_rule_ids():
    pos = ms.get_game("ba-awa").start()
    trace = pos.trace("c")
    lines = explain(trace)
    laps = sum(event.kind == "end-of-lap" for event in trace.events)
    assert lines[0] == f"  relay sowing: {laps} laps"
    assert sum("[ba-awa-relay]" in line for line in lines) == laps - 1
    assert lines[-1].endswith("[ba-awa-sowing-end]")
    captures = [event for event in trace.events if event.kind == "capture"]
    assert sum(line.endswith(f"[{e.rule}]") and "captures" in line
               for line in lines for e in captures[:1]) >= min(1, len(captures))


def test_the_end_of_bakuk_is_explained_with_its_leftovers():
    game = ms.get_game("bakuk")
    pos = game.parse("2,0,1/1,0,0 S 16-16 opener=S")
    trace = pos.trace("c")
    lines = explain_end(trace)
    assert trace.position.is_over
    assert lines[0].startswith("The game is over: ") and lines[0].endswith("].")
    assert any("left on the board score for nobody [bakuk-leftovers]" in line or
               "left on the board scores for nobody [bakuk-leftovers]" in line for line in lines)
    owners = ms.get_game("bakuk", leftovers="owners").parse("2,0,1/1,0,0 S 16-16 opener=S")
    lines = explain_end(owners.trace("c"))
    assert any(re.match(r"South takes the \d+ left in . \[bakuk-leftovers\]\.", line)
               for line in lines), lines


def test_a_whole_game_against_the_computer_ends_explained(capsys, monkeypatch):
    status, out, _ = play(capsys, monkeypatch, "nam-nam", "--opponent", "greedy", "--seed", "3",
                          lines=list("abcdef" * 60))
    assert status == 0
    assert "North (greedy) plays" in out and "South (you) plays" in out
    assert re.search(r"^The game is over: .* \[ba-awa-[a-z-]+\]\.$", out, re.M)
    assert re.search(r"^Captured: South \d+, North \d+: (South wins|North wins|a draw)\.$",
                     out, re.M)
