"""How a move ends, as the many-games kernel reports it (``BaAwaBatch.ended``),
against the traced engine: the seam the Ba-awa solver reads its ends from.

For random boards and moves under the options that end a move early (the lap
cap, an emptied row) and the default, the kernel's sowing and its report of
the end are compared with the engine's move: the same ending (the lap cap, an
emptied row, the last eight, or play going on after a capture or none), and
the same seeds given at the end (the engine's captured counts after the move,
less those before and the sowing's own captures).
"""
from __future__ import annotations

import random

import numpy as np
import pytest

import mancala_spec as ms
from mancala_spec.engine.games.ba_awa import LAP_CAP
from mancala_spec.fast.ba_awa.many import (
    CAPTURED,
    EMPTIED_ROW,
    GOES_ON,
    LAP_CAP_END,
    LAST_EIGHT,
    BaAwaBatch,
)

REASONS = {LAP_CAP_END: "lap-cap", EMPTIED_ROW: "empty-row", LAST_EIGHT: "eight-seeds"}


def boards(rng: random.Random, count: int, low: bool):
    """Random boards of 12 to 28 seeds (a multiple of four, as in play), with
    a mover and a pit of theirs holding seeds; *low*: pits of at most three
    (what long and endless sowings are made of)."""
    found = []
    while len(found) < count:
        total = rng.choice([12, 16, 20, 24, 28])
        pits = [0] * 12
        for _ in range(total):
            pits[rng.randrange(12)] += 1
        if low:
            pits = [min(p, rng.choice([1, 2, 3])) for p in pits]
            pits[rng.randrange(12)] += (-sum(pits)) % 4
        mover = rng.randrange(2)
        choices = [p for p in range(mover * 6, mover * 6 + 6) if pits[p]]
        if choices and sum(pits) > 8:
            found.append((pits, mover, rng.choice(choices)))
    return found


@pytest.mark.parametrize("options", [{}, {"endless": "cap-75"}, {"no_move": "empty-row"},
                                     {"endless": "cap-75", "no_move": "empty-row",
                                      "skip_origin": True}])
def test_the_kernel_reports_how_each_move_ended_as_the_engine_ends_it(options):
    game = ms.get_game("ba-awa", **options)
    batch = BaAwaBatch(game)
    rng = random.Random(f"ended {options}")
    cases = boards(rng, 1500, low=False) + boards(rng, 1500, low=True)
    # an endless sowing (capped at its 75th lap; ba_awa.sow's example), and its mirror
    endless_board = [0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 3, 1]
    cases += [(endless_board, 1, 10), (endless_board[6:] + endless_board[:6], 0, 4)]
    pits = np.array([c[0] for c in cases], dtype=np.int8)
    movers = np.array([c[1] for c in cases], dtype=np.int8)
    chosen = np.array([c[2] for c in cases])
    cap = LAP_CAP if options.get("endless") == "cap-75" else None
    after, won, _, endless, _ = batch.sow(pits, chosen, movers, cap=cap)
    capped = endless if cap else np.zeros(len(cases), dtype=bool)
    counts = np.stack([np.zeros(len(cases), dtype=np.int16),
                       (48 - pits.sum(axis=1)).astype(np.int16)], axis=1) + won
    how, share = batch.ended(after, won, movers, capped, captured=counts)
    seen = set()
    for row, (board, mover, pit) in enumerate(cases):
        if not cap and endless[row]:
            continue                     # an endless sowing: the engine's to refuse or stop
        before = game.position(board, mover, captured=(0, 48 - sum(board)),
                               allow_unreachable=True)
        moved = before.play(pit)
        gained = [a - b for a, b in zip(moved.captured, before.captured)]
        reason = moved.outcome.reason if moved.is_over else None
        kind = int(how[row])
        seen.add(kind)
        if kind in REASONS:
            assert reason == REASONS[kind], (board, mover, pit)
            assert gained[0] - gained[1] == won[row, 0] - won[row, 1] + share[row]
        else:
            # play goes on (the engine may still end it: nobody able to move is
            # for the caller to ask)
            assert reason in (None, "no-moves"), (board, mover, pit, reason)
            assert gained == won[row].tolist() and share[row] == 0
            assert (kind == CAPTURED) == any(gained)
            assert kind in (GOES_ON, CAPTURED)
    expected = {GOES_ON, CAPTURED, LAST_EIGHT}
    expected |= {LAP_CAP_END} if cap else set()
    expected |= {EMPTIED_ROW} if options.get("no_move") == "empty-row" else set()
    assert seen == expected               # every ending these options have was met


def test_an_odd_seed_at_the_lap_cap_needs_the_captured_counts():
    """The lap cap shares the seeds left equally; an odd one goes to South if
    North has captured more, else to North (the engine's rule): without the
    counts the kernel refuses to guess."""
    batch = BaAwaBatch(ms.get_game("ba-awa", endless="cap-75"))
    after = np.array([[1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 10]], dtype=np.int8)
    won = np.zeros((1, 2), dtype=np.int16)
    args = (after, won, np.array([0], dtype=np.int8), np.array([True]))
    with pytest.raises(ValueError, match="captured counts"):
        batch.ended(*args)
    for captured, odd in (((10, 27), 1), ((27, 10), -1), ((18, 19), 1), ((19, 18), -1)):
        how, share = batch.ended(*args, captured=np.array([captured]))
        assert int(how[0]) == LAP_CAP_END and int(share[0]) == odd
