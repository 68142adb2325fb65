"""Random playouts per second: MancalaGames beside our kernel and reference engine.

    python benchmarks/bench_mancalagames.py --mancalagames PATH [--games N] [--repeat R]

MancalaGames (https://github.com/StoneShark/MancalaGames) is a Python program
that plays several hundred mancala games, Ba-awa and Bakuk among them
(``GameProps/Ba-awa.txt``, ``GameProps/Bakuk.txt``). PATH is a local checkout
of it (the directory holding ``src/`` and ``GameProps/``); nothing of it is
copied here, it is imported from PATH when the script runs. Without a
checkout the script says so and exits with status 2.

In the same run, for each game, it times random playouts from the start:

* ``mancalagames``: its ``Mancala`` game object (``get_moves``, ``move``), its
  animation and logging off, every move drawn with ``random.choice``; a Ba-awa
  game ends with its first round (MancalaGames plays rounds; ours is one round);
* ``reference``: :meth:`Position.trace <mancala_spec.engine.position.Position.trace>`,
  the reference engine (events recorded);
* ``kernel``: :class:`mancala_spec.fast.FastGame`, one game at a time;
* ``kernel-batch``: :func:`mancala_spec.fast.playouts`, many games at once
  (``--batch`` games a call).

The rules differ in one known way: MancalaGames stops a sowing after 75 laps
(so an endless Ba-awa sowing is a legal, stopped move there), while our engine
and kernel detect endless sowings exactly. Games per second is the measure
(moves per game are printed beside it, to show the games are alike); times are
CPU time of this process (``time.process_time``), the best of R rounds, the
paths taking turns to go first. Targets (issue 22): the kernel at least 10x
MancalaGames one game at a time and at least 50x in batches, the reference
engine not slower than it.
"""
from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

# the same games, played the same way, as bench_playout.py times them
from bench_playout import SEED, best_of, run_batch, run_kernel, run_reference  # noqa: E402

GAMES = ("ba-awa", "bakuk")
PROPS = {"ba-awa": "Ba-awa.txt", "bakuk": "Bakuk.txt"}


def load_mancalagames(path: Path):
    """MancalaGames' ``make_game``, imported from the checkout at *path*, with
    its animation and game log switched off."""
    sys.path.insert(0, str(path / "src"))
    import animator  # noqa: PLC0415  (MancalaGames' own modules, from PATH)
    animator.ENABLED = False
    import man_config  # noqa: PLC0415
    from game_logger import game_log  # noqa: PLC0415
    game_log.active = False
    return man_config.make_game


def mancalagames_path(text: str | None) -> Path:
    """The checkout, or exit 2 saying what is missing."""
    if not text:
        raise SystemExit(_missing("no --mancalagames PATH given"))
    path = Path(text)
    needed = [path / "src" / "mancala.py"] + [path / "GameProps" / name
                                              for name in PROPS.values()]
    absent = [str(p) for p in needed if not p.is_file()]
    if absent:
        raise SystemExit(_missing(f"{path} is not a MancalaGames checkout "
                                  f"(missing {', '.join(absent)})"))
    return path


def _missing(reason: str) -> int:
    print(f"bench_mancalagames: {reason}; get one with "
          "'git clone https://github.com/StoneShark/MancalaGames' and pass its path",
          file=sys.stderr)
    return 2


def make_runners(path: Path, batch: int):
    """{path name: function(game name, games) -> moves played}."""
    make_game = load_mancalagames(path)
    theirs = {name: make_game(str(path / "GameProps" / props))[0]
              for name, props in PROPS.items()}

    def mancalagames(name: str, count: int) -> int:
        game = theirs[name]
        random.seed(SEED)
        moves = 0
        for _ in range(count):
            game.new_game()
            while True:
                legal = game.get_moves()
                if not legal:
                    break
                cond = game.move(random.choice(legal))
                moves += 1
                if cond and (cond.is_game_over() or cond.is_round_over()):
                    break
                if game.info.mustpass:
                    game.test_pass()
        return moves

    return {"mancalagames": (mancalagames, None), "reference": (run_reference, None),
            "kernel": (run_kernel, None), "kernel-batch": (run_batch, batch)}


def measure(runners, name: str, games: int, repeat: int) -> dict[str, tuple[int, int, float]]:
    """{path: (games, moves, best seconds)} over *repeat* rounds."""
    return best_of(name, [(path, run, fixed or games) for path, (run, fixed) in runners.items()],
                   repeat)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mancalagames", metavar="PATH",
                        help="a local checkout of MancalaGames (required)")
    parser.add_argument("--games", type=int, default=200, help="games per round, one at a time")
    parser.add_argument("--batch", type=int, default=20_000,
                        help="games per call of the batch kernel")
    parser.add_argument("--repeat", type=int, default=10, help="rounds; the best is kept")
    parser.add_argument("--game", choices=GAMES, action="append",
                        help="measure only this game (repeatable; default: both)")
    args = parser.parse_args(argv)
    path = mancalagames_path(args.mancalagames)
    runners = make_runners(path, args.batch)
    header = (f"{'game':<8} {'path':<13} {'games':>6} {'moves/game':>10} {'games/s':>9} "
              f"{'vs MancalaGames':>15}")
    print(header)
    print("-" * len(header))
    summary = []
    for name in args.game or GAMES:
        best = measure(runners, name, args.games, args.repeat)
        rate = {path: games / seconds for path, (games, _, seconds) in best.items()}
        for path, (games, moves, _) in best.items():
            print(f"{name:<8} {path:<13} {games:>6} {moves / games:>10.2f} {rate[path]:>9,.0f} "
                  f"{rate[path] / rate['mancalagames']:>14.2f}x")
        theirs = rate["mancalagames"]
        summary.append(
            f"{name}: kernel {rate['kernel'] / theirs:.1f}x MancalaGames one game at a time "
            f"(target: at least 10x), {rate['kernel-batch'] / theirs:.1f}x in batches "
            f"(target: at least 50x); reference {rate['reference'] / theirs:.2f}x "
            "(target: at least 1.0x)")
    print(f"\nCPU time of this process, best of {args.repeat} rounds; Python "
          f"{sys.version.split()[0]}; MancalaGames caps a sowing at 75 laps, ours are exact")
    print("\n".join(summary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
