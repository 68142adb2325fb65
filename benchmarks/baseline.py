"""A deliberately simple baseline: random playouts of Ba-awa and Bakuk in a plain loop.

For comparison only (``bench_playout.py`` times it beside the package's fast and
traced paths). It plays the same rules as the engine's defaults — Ba-awa's
endless sowing is not a legal move, a player with no legal move is passed over,
eight seeds or fewer go to the opener, a recurring position ends the game;
Bakuk's forward capture chain, the game ends when the player to move has no
counters or a position recurs since the last capture — written the obvious way:
one mutable board, legal moves found by trying each pit, the chosen move sown
again. No options, no events, no positions. The package does not use it.

Each function plays one game, drawing every move with ``rng.choice`` from the
legal moves in pit order (as the other paths do, so the same seed plays the
same game), and returns the number of moves played.
"""
from __future__ import annotations

import random


def ba_awa_sow(pits, pit, mover):
    """Sow Ba-awa pit *pit* for *mover* on a copy of *pits*.

    Returns (pits after, seeds won by South, by North, any capture?) or None
    if the relay sowing never ends (a lap would start from a board and pit
    already seen in this move)."""
    pits = list(pits)
    won = [0, 0]
    took = False
    seen = {(tuple(pits), pit)}
    seeds, pits[pit] = pits[pit], 0
    while True:
        for left in range(seeds - 1, -1, -1):
            pit = (pit + 1) % 12
            pits[pit] += 1
            if pits[pit] == 4 and left:          # a four on the way: its owner's
                won[pit // 6] += 4
                pits[pit] = 0
                took = True
        if pits[pit] == 4:                       # last seed makes four: the mover's
            won[mover] += 4
            pits[pit] = 0
            return pits, won, True
        if pits[pit] == 1:                       # landed in an empty pit
            return pits, won, took
        state = (tuple(pits), pit)
        if state in seen:                        # endless: not a legal move
            return None
        seen.add(state)
        seeds, pits[pit] = pits[pit], 0          # relay


def ba_awa_legal(pits, player):
    return [pit for pit in range(6 * player, 6 * player + 6)
            if pits[pit] and ba_awa_sow(pits, pit, player) is not None]


def play_ba_awa(rng: random.Random) -> int:
    pits = [4] * 12
    player = 0
    captured = [0, 0]
    seen = set()
    moves = 0
    while True:
        legal = ba_awa_legal(pits, player)
        if not legal:
            break
        pit = rng.choice(legal)
        key = (tuple(pits), player)
        pits, won, took = ba_awa_sow(pits, pit, player)
        captured[0] += won[0]
        captured[1] += won[1]
        moves += 1
        if took:
            seen.clear()
        else:
            seen.add(key)
        if sum(pits) <= 8:                       # eight or fewer: the opener's
            break
        mover, player = player, 1 - player
        if not ba_awa_legal(pits, player):       # no move: passed over
            player = mover
            if not ba_awa_legal(pits, player):   # nobody can move: game over
                break
        if (tuple(pits), player) in seen:        # a position recurs: game over
            break
    return moves


def play_bakuk(rng: random.Random) -> int:
    pits = [6] * 6
    player = 0
    captured = [0, 0]
    seen = set()
    moves = 0
    while True:
        legal = [pit for pit in range(3 * player, 3 * player + 3) if pits[pit]]
        if not legal:                            # no counters: game over
            break
        pit = rng.choice(legal)
        key = (tuple(pits), player)
        seeds, pits[pit] = pits[pit], 0
        for _ in range(seeds):
            pit = (pit + 1) % 6
            pits[pit] += 1
        took = False
        while pits[pit] == 2 or pits[pit] == 4:  # the last hole, then the next ones
            captured[player] += pits[pit]
            pits[pit] = 0
            pit = (pit + 1) % 6
            took = True
        moves += 1
        if took:
            seen.clear()
        else:
            seen.add(key)
        player = 1 - player
        if (tuple(pits), player) in seen:        # a position recurs: game over
            break
    return moves
