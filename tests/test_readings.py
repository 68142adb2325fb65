"""The readings page's computations: smallest changed positions and changed winners."""
from __future__ import annotations

import mancala_spec as ms
from mancala_spec.analysis.readings import outcome, smallest_change, winner_changes
from mancala_spec.sphinx.readings import page_text


def test_each_smallest_change_is_a_real_change_of_the_moves_result():
    for game, option, value in [("bakuk", "chain", "backward"), ("bakuk", "sixes", True),
                                ("bakuk", "first_counter", "origin"), ("bakuk", "decided", True),
                                ("bakuk", "repetition", "play-on"),
                                ("ba-awa", "no_move", "owners"),
                                ("ba-awa", "no_move", "empty-row")]:
        change = smallest_change(game, option, value)
        assert change is not None, (game, option)
        pos = change.position
        theirs = ms.get_game(game, **{option: value}).position(
            pos.pits, to_move=pos.to_move, captured=pos.captured, opener=pos.opener,
            history=pos.history)
        assert outcome(pos, change.move) != outcome(theirs, change.move)
        assert change.result(change.game) != change.result(change.variant)


def test_the_smallest_change_is_smallest_for_a_chain_that_runs_backward():
    change = smallest_change("bakuk", "chain", "backward")
    assert sum(change.position.pits) == 4        # no board of 1 to 3 counters differs


def test_winner_changes_counts_only_changed_winners():
    assert winner_changes("bakuk", {}, 10, seed=3) == (0, 10, 0)
    changed, games, unfinished = winner_changes("bakuk", {"sixes": True}, 30, seed=3)
    assert 0 < changed < games == 30 and unfinished == 0


def test_the_page_text_cites_the_program_at_its_commit_and_draws_the_changes():
    text = page_text("bakuk", 10, 1)
    assert "blob/2b1c596c12883188ab9df24abe96ef474a7ec825/GameProps/Bakuk.txt#L10-L11" in text
    assert text.count("```{sowing-diagram}") == 5
    assert "line 24" in text and "| the whole `koumma` ruleset |" in text
