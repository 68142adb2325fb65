"""The readings page's computations: smallest changed positions and changed winners."""
from __future__ import annotations

import mancala_spec as ms
from mancala_spec.analysis.readings import outcome, smallest_change, winner_changes
from mancala_spec.sphinx.readings_page import page_text


def test_each_smallest_change_is_a_real_change_of_the_moves_result():
    for game, option, value in [("bakuk", "chain", "backward"), ("bakuk", "sixes", True),
                                ("bakuk", "first_counter", "origin"), ("bakuk", "decided", True),
                                ("bakuk", "repetition", "play-on"),
                                ("ba-awa", "no_move", "owners"),
                                ("ba-awa", "no_move", "empty-row"), ("ba-awa", "decided", True),
                                ("ba-awa", "repetition", "play-on"),
                                ("ba-awa", "endless", "cap-75")]:
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


def test_ba_awas_decided_cannot_change_a_move_below_sixteen_seeds():
    """From 12 seeds (the fewest above eight play leaves: captures take fours) a
    capture leaves eight or fewer: the last eight end the game under both
    readings; the search starts at 16, and finds one there, at a split play
    can reach."""
    change = smallest_change("ba-awa", "decided", True)
    assert sum(change.position.pits) == 16
    assert all(n % 4 == 0 for n in change.position.captured)
    after = change.variant.position(change.position.pits, to_move=0,
                                    captured=change.position.captured).play(change.move)
    assert after.is_over and max(after.captured) > 24 and sum(after.pits) > 8
    assert not change.position.play(change.move).is_over


def test_ba_awas_recurrence_is_a_real_cycle_of_quiet_moves_with_the_fewest_seeds():
    change = smallest_change("ba-awa", "repetition", "play-on")
    pos = change.position
    assert sum(pos.pits) == 12      # eight or fewer end the game; play leaves fours
    # the history is a cycle of real moves: each position leads to the next by a
    # legal move that captures nothing, and the move shown brings the first back
    game = change.variant
    chain = [*pos.history, pos.key]
    for (pits, player), nxt in zip(chain, chain[1:]):
        before = game.position(pits, to_move=player, captured=pos.captured)
        assert any(before.play(p).key == nxt and before.play(p).captured == pos.captured
                   for p in before.legal_moves())
    after = pos.play(change.move)
    assert after.is_over and after.outcome.rule == "ba-awa-repetition"
    mover = game.position(pos.pits, to_move=pos.to_move, captured=pos.captured,
                          history=pos.history)
    assert mover.play(change.move).key == pos.history[0] and not mover.play(change.move).is_over


def test_the_recurrence_walk_in_the_kernel_walks_as_the_reference_engine():
    """readings._walk tries each step's moves in the fast kernel of the game with the
    repetition rule, and in the reference engine only the moves that bring a
    position back. Walked here by the reference engine alone, in the game without
    the rule, from random twelve-seed boards as the search draws them: the same
    walks (the same random draws) and the same recurrences found."""
    import random

    from mancala_spec.analysis import readings
    from mancala_spec.fast import FastGame

    def reference_walk(pos, rng):
        seen = []
        for _ in range(readings.WALK_MOVES):
            if pos.is_over:
                return None
            plays = {pit: pos.play(pit) for pit in pos.legal_moves()}
            quiet = [pit for pit, after in plays.items() if after.captured == pos.captured]
            if not quiet:
                return None
            pit = quiet[int(rng.random() * len(quiet))]
            if plays[pit].key in seen or plays[pit].key == pos.key:
                return pos.pits, pos.to_move, pos.captured, pit
            seen.append(pos.key)
            pos = plays[pit]
        return None

    base, variant = ms.get_game("ba-awa"), ms.get_game("ba-awa", repetition="play-on")
    fast = FastGame(base)
    split = readings.reachable_split(base, base.total_seeds - 12)
    boards = random.Random("walk ba-awa 12")
    found = 0
    for walks in range(2000):
        pits = [0] * 12
        for _ in range(12):
            pits[int(boards.random() * 12)] += 1
        pos = variant.position(pits, to_move=0, captured=split)
        ours, theirs = random.Random(walks), random.Random(walks)
        change = readings._walk(base, variant, fast, pos, ours)
        expected = reference_walk(pos, theirs)
        got = None if change is None else (change.position.pits, change.position.to_move,
                                           change.position.captured, change.move)
        assert got == expected, pits
        assert ours.random() == theirs.random(), pits      # the same draws
        found += change is not None
        if found == 2:
            break
    assert found == 2, f"{found} recurrences in {walks + 1} walks"


def test_every_difference_on_the_page_has_its_position_share_or_reason():
    """Each difference an option plays has its smallest position and its share of
    random games (a match setting says why it has none); the others say why
    they are not played; every one shows its basis."""
    for game in ("ba-awa", "bakuk"):
        text = page_text(game, 4, 1)
        for ruleset in ms.rulesets(game):
            for d in ruleset.differences:
                if d.game != game:
                    continue
                value = str(d.value).lower() if isinstance(d.value, bool) else d.value
                label = f"`{d.option}={value}`"
                if not d.option:
                    assert "not played: " in text
                elif d.option == "target":
                    assert f"{label} is a match setting" in text
                    assert "in a match's first game: `" in text
                    assert f"| {label} |" in text and "random matches whose winner" in text
                else:
                    assert f"{label}: the smallest position found" in text, (game, label)
                    assert f"| {label} |" in text, (game, label)
        assert "the search finds no position" not in text


def test_the_match_aims_smallest_change_ends_the_match_under_one_setting_only():
    from mancala_spec.analysis.readings import match_winner_changes, smallest_match_change
    from mancala_spec.engine.games.match import Match

    change = smallest_match_change("target", 10)
    pos = change.position
    assert sum(pos.pits) == 12 and pos.play(change.move).is_over   # the fewest play leaves
    ours = Match.starting_from(pos).play(change.move)
    theirs = Match.starting_from(pos, target=10).play(change.move)
    assert max(ours.earned()) in (10, 11) and not ours.is_over and theirs.is_over
    assert match_winner_changes({}, 3, seed=1) == (0, 3, match_winner_changes({}, 3, 1)[2])
