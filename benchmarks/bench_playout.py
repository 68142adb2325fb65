"""Random playouts per second: the simple baseline, the fast path and the traced path.

    python benchmarks/bench_playout.py [--games N] [--repeat R] [--game NAME]

For each game (default options) it plays N random games from the start three
ways, each move drawn with ``random.Random(seed).choice`` from the legal moves:

* ``baseline``: ``benchmarks/baseline.py``, a deliberately simple plain loop of
  the same rules (for comparison only; the package does not use it);
* ``fast``: :class:`mancala_spec.fast.FastGame` (``legal_moves``, ``play``);
* ``traced``: :class:`mancala_spec.engine.position.Position` (``legal_moves``, then
  ``trace(pit).position``), the reference engine: every move records all its
  events and returns them in a :class:`~mancala_spec.engine.trace.Trace`.

All three draw the same moves from the same seed, so they must play the same
games: the script checks that the move counts agree. Times are CPU time of this
process (``time.process_time``), the best of R rounds for each path. Within a
round the paths run in turn, a different one first each time. Many short rounds
(by default 200 rounds of the same 25 games) rather than a few long ones,
because the speed of this machine drifts: seen here, the same code measured
anywhere from 0.7x to 1.5x of itself a minute apart, so a long round can fall
in a slow spell, while the best of many short rounds is steadier (the ratios
between paths moved by up to 5 % from run to run, against 10 % or more with 3
rounds of 1,000 games).
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import baseline  # noqa: E402  (beside this script)

import mancala_spec as ms  # noqa: E402
from mancala_spec.fast import FastGame  # noqa: E402

SEED = 2024
BASELINES = {"ba-awa": baseline.play_ba_awa, "bakuk": baseline.play_bakuk}
GAMES = {name: ms.get_game(name) for name in BASELINES}          # built once, not timed
FAST = {name: FastGame(game) for name, game in GAMES.items()}


def run_baseline(name: str, games: int) -> int:
    play = BASELINES[name]
    rng = random.Random(SEED)
    return sum(play(rng) for _ in range(games))


def run_fast(name: str, games: int) -> int:
    fast = FAST[name]
    legal_moves, play = fast.legal_moves, fast.play
    rng = random.Random(SEED)
    moves = 0
    for _ in range(games):
        state = fast.start()
        while True:
            legal = legal_moves(state)
            if not legal:
                break
            state = play(state, rng.choice(legal))
            moves += 1
    return moves


def run_traced(name: str, games: int) -> int:
    game = GAMES[name]
    rng = random.Random(SEED)
    moves = 0
    for _ in range(games):
        pos = game.start()
        while True:
            legal = pos.legal_moves()
            if not legal:
                break
            pos = pos.trace(rng.choice(legal)).position
            moves += 1
    return moves


PATHS = {"baseline": run_baseline, "fast": run_fast, "traced": run_traced}


def measure(name: str, games: int, repeat: int) -> dict[str, tuple[int, int, float]]:
    """{path: (games, moves, best seconds)}: *repeat* rounds, each playing the N
    games once on every path, the paths taking turns to go first."""
    best: dict[str, tuple[int, int, float]] = {}
    paths = list(PATHS.items())
    for round_ in range(repeat):
        turn = round_ % len(paths)
        for path, run in paths[turn:] + paths[:turn]:
            start = time.process_time()
            moves = run(name, games)
            seconds = time.process_time() - start
            if path not in best or seconds < best[path][2]:
                best[path] = (games, moves, seconds)
    return best


def check_same_games(name: str) -> None:
    """The three paths play the same games from the same seed."""
    counts = {path: run(name, 20) for path, run in PATHS.items()}
    if len(set(counts.values())) != 1:
        raise SystemExit(f"{name}: the paths disagree on the move count of 20 games: {counts}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=25,
                        help="games per round (the same games every round)")
    parser.add_argument("--game", choices=("ba-awa", "bakuk"), action="append",
                        help="measure only this game (repeatable; default: both)")
    parser.add_argument("--repeat", type=int, default=200, help="rounds; the best is kept")
    args = parser.parse_args(argv)
    header = f"{'game':<8} {'path':<9} {'games':>6} {'moves':>8} {'games/s':>9} " \
             f"{'moves/s':>9} {'vs baseline':>11} {'vs fast':>8}"
    print(header)
    print("-" * len(header))
    summary = []
    for name in args.game or ("ba-awa", "bakuk"):
        check_same_games(name)
        best = measure(name, args.games, args.repeat)
        rate = {path: moves / seconds for path, (_, moves, seconds) in best.items()}
        for path, (games, moves, seconds) in best.items():
            print(f"{name:<8} {path:<9} {games:>6} {moves:>8} {games / seconds:>9,.0f} "
                  f"{rate[path]:>9,.0f} {rate[path] / rate['baseline']:>10.2f}x "
                  f"{rate[path] / rate['fast']:>7.2f}x")
        summary.append(f"{name}: fast path {rate['fast'] / rate['baseline']:.2f}x the baseline "
                       f"(target: at least 1.0x); traced path {rate['fast'] / rate['traced']:.2f}x "
                       "slower than fast (target: within 3x)")
    print("\nCPU time of this process, best of", args.repeat, "rounds;",
          "Python", sys.version.split()[0])
    print("\n".join(summary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
