"""Random playouts per second: the simple baseline, the kernel and the reference engine.

    python benchmarks/bench_playout.py [--games N] [--repeat R] [--game NAME] [--batch B]

For each game (default options) it plays N random games from the start three
ways, each move drawn with ``random.Random(seed).choice`` from the legal moves:

* ``baseline``: ``benchmarks/baseline.py``, a deliberately simple plain loop of
  the same rules (for comparison only; the package does not use it);
* ``kernel``: :class:`mancala_spec.fast.FastGame` (``legal_moves``, ``play``),
  one game at a time;
* ``reference``: :class:`mancala_spec.engine.position.Position` (``legal_moves``,
  then ``trace(pit).position``), the reference engine: every move records all
  its events and returns them in a :class:`~mancala_spec.engine.trace.Trace`;

and a fourth, ``kernel-batch``: :func:`mancala_spec.fast.playouts`, B games at
once with numpy (its own random numbers, so other games of the same rules).

The first three draw the same moves from the same seed, so they must play the
same games: the script checks that the move counts agree. The targets (issue
22) are against the Python program MancalaGames, which
``benchmarks/bench_mancalagames.py`` times beside these paths: the kernel at
least 10x MancalaGames one game at a time and 50x in batches, the reference
engine not slower than it. Times are CPU time of this
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
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import baseline  # noqa: E402  (beside this script)

import mancala_spec as ms  # noqa: E402
from mancala_spec.fast import FastGame, playouts  # noqa: E402

SEED = 2024
BASELINES = {"ba-awa": baseline.play_ba_awa, "bakuk": baseline.play_bakuk}
GAMES = {name: ms.get_game(name) for name in BASELINES}          # built once, not timed
FAST = {name: FastGame(game) for name, game in GAMES.items()}


def run_baseline(name: str, games: int) -> int:
    play = BASELINES[name]
    rng = random.Random(SEED)
    return sum(play(rng) for _ in range(games))


def run_kernel(name: str, games: int) -> int:
    fast = FAST[name]
    fast.forget()    # what it remembers of earlier rounds would flatter it: same games
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


def run_reference(name: str, games: int) -> int:
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


PATHS = {"baseline": run_baseline, "kernel": run_kernel, "reference": run_reference}
BATCH = 20_000          #: games a call of the batch kernel (--batch)


def run_batch(name: str, games: int) -> int:
    return int(playouts(GAMES[name], games, seed=SEED).moves.sum())


def measure(name: str, games: int, repeat: int,
            batch: int = BATCH) -> dict[str, tuple[int, int, float]]:
    """{path: (games, moves, best seconds)}: *repeat* rounds, each playing the N
    games once on every path (*batch* games on the batch path)."""
    paths = [(path, run, games) for path, run in PATHS.items()]
    paths.append(("kernel-batch", run_batch, batch))
    return best_of(name, paths, repeat)


def best_of(name: str, paths: list[tuple[str, Callable[[str, int], int], int]],
            repeat: int) -> dict[str, tuple[int, int, float]]:
    """{path: (games, moves, best seconds)} over *repeat* rounds of every
    ``(path, run, games)``, the paths taking turns to go first; CPU time."""
    best: dict[str, tuple[int, int, float]] = {}
    for round_ in range(repeat):
        turn = round_ % len(paths)
        for path, run, count in paths[turn:] + paths[:turn]:
            start = time.process_time()
            moves = run(name, count)
            seconds = time.process_time() - start
            if path not in best or seconds < best[path][2]:
                best[path] = (count, moves, seconds)
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
    parser.add_argument("--batch", type=int, default=BATCH,
                        help="games a call of the batch kernel (default %(default)s)")
    args = parser.parse_args(argv)
    header = f"{'game':<8} {'path':<12} {'games':>6} {'moves':>8} {'games/s':>9} " \
             f"{'moves/s':>10} {'vs baseline':>11}"
    print(header)
    print("-" * len(header))
    summary = []
    for name in args.game or ("ba-awa", "bakuk"):
        check_same_games(name)
        best = measure(name, args.games, args.repeat, args.batch)
        rate = {path: games / seconds for path, (games, _, seconds) in best.items()}
        for path, (games, moves, seconds) in best.items():
            print(f"{name:<8} {path:<12} {games:>6} {moves:>8} {rate[path]:>9,.0f} "
                  f"{moves / seconds:>10,.0f} {rate[path] / rate['baseline']:>10.2f}x")
        summary.append(f"{name}: games/s against the baseline: reference "
                       f"{rate['reference'] / rate['baseline']:.2f}x, kernel "
                       f"{rate['kernel'] / rate['baseline']:.2f}x, kernel-batch "
                       f"{rate['kernel-batch'] / rate['baseline']:.2f}x")
    print("\nCPU time of this process, best of", args.repeat, "rounds;",
          "Python", sys.version.split()[0])
    print("\n".join(summary))
    print("targets (measured against MancalaGames by benchmarks/bench_mancalagames.py): "
          "kernel at least 10x MancalaGames one game at a time and 50x in batches; "
          "reference not slower than MancalaGames")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
