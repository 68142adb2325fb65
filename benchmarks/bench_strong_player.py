"""The Play page's strong player against the greedy player, on the kernel.

Plays GAMES games of Ba-awa (default options) between the search player
(:func:`mancala_spec.fast.search.search_state`, with the node budget the Play
page gives it) and the greedy player (the best immediate capture margin, ties
drawn at random: :func:`mancala_spec.engine.players.greedy_move`, here on the
kernel's states), the strong player taking South in even games and North in odd
ones. Prints wins, draws and losses, the win rate, and the search's time a move.

    python benchmarks/bench_strong_player.py [--games 200] [--nodes N] [--game ba-awa]

A benchmark, not a test: run it by hand (it takes minutes).
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import mancala_spec as ms  # noqa: E402
from mancala_spec.fast import FastGame  # noqa: E402

#: the node budget the Play page gives the strong player (play.py reads it too)
from mancala_spec.fast.search import (
    PAGE_NODES,  # noqa: E402
    search_state,  # noqa: E402
)


def greedy(fast: FastGame, state, rng: random.Random) -> int:
    """The greedy player on the kernel: the best immediate margin of captured
    seeds (the game-end takes included), ties drawn at random."""
    mover = state[1]
    margins = {}
    for pit in state[4]:
        after = fast.play(state, pit)
        gained = [a - b for a, b in zip(after[2], state[2])]
        margins[pit] = gained[mover] - sum(g for p, g in enumerate(gained) if p != mover)
    best = max(margins.values())
    return rng.choice([pit for pit, m in margins.items() if m == best])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--nodes", type=int, default=PAGE_NODES)
    parser.add_argument("--game", default="ba-awa")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    game = ms.get_game(args.game)
    fast = FastGame(game)
    rng = random.Random(args.seed)
    wins = draws = losses = 0
    seconds, searched, moves_total = 0.0, 0, 0
    started = time.perf_counter()
    for number in range(args.games):
        strong = number % 2
        state = fast.start()
        while state[4]:
            if state[1] == strong:
                result = search_state(fast, state, nodes=args.nodes, seconds=60.0, rng=rng)
                seconds += result.seconds
                searched += result.nodes
                moves_total += 1
                pit = result.move
            else:
                pit = greedy(fast, state, rng)
            state = fast.play(state, pit)
        winner = fast.winner(state)
        if winner == strong:
            wins += 1
        elif winner is None:
            draws += 1
        else:
            losses += 1
        if (number + 1) % 20 == 0:
            print(f"{number + 1} games: {wins} won, {draws} drawn, {losses} lost", flush=True)
    print(f"{args.game}, strong player ({args.nodes} nodes a move) against greedy: "
          f"{wins} won, {draws} drawn, {losses} lost of {args.games}: "
          f"win rate {wins / args.games:.1%}")
    print(f"search: {moves_total} moves, {seconds / max(moves_total, 1) * 1000:.0f} ms and "
          f"{searched / max(moves_total, 1):.0f} nodes a move on average (CPython "
          f"{sys.version.split()[0]}); {time.perf_counter() - started:.0f} s in all")


if __name__ == "__main__":
    main()
