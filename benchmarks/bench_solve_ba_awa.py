"""Ba-awa strongly solved (mancala_spec.solve.ba_awa): the full solve of the
default rules from the opening, timed level by level.

    nice -n 19 python benchmarks/bench_solve_ba_awa.py [--also nothing] [--workers N] [--json]
        [-O NAME=VALUE ...]                  # an option set other than the defaults
    python benchmarks/bench_solve_ba_awa.py --render RUN.json      # a saved --json run, as text

Prints the positions of each level (seeds on the board), the seconds spent
enumerating and solving it and the positions per second, the rounds of value
iteration, the whole time (wall and CPU) and the peak resident memory; then the
opening's value and each opening move's value, and one perfectly played game
(each player taking the first best move, as ``Solution.move_values`` lists
them), played by the traced engine as the first game of a match: its moves,
its captures and the pits each player wins for the next game. With ``--also nothing`` each
level is solved a second time with endless play worth nothing (value iteration
from 0, as the Bakuk solver scores it) and the script counts the positions whose
value the repetition rule changes (with ``-O repetition=play-on`` the solver
itself solves endless play both ways, worth all to the opener and to the other
player, and ``differ`` counts the positions left without a value). Not a test:
it takes minutes and gigabytes.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shlex
import sys
import time

from mancala_spec import __version__
from mancala_spec.options import parse_options
from mancala_spec.solve.ba_awa import BaAwaRules, solve


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--also", choices=("nothing", "opener", "other"), default=None)
    parser.add_argument("-O", "--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a Ba-awa option (as get_game's keywords), repeatable")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--workers", type=int, default=2,
                        help="processes sowing while enumerating (default 2)")
    parser.add_argument("--render", metavar="RUN.json",
                        help="print a run saved with --json as text, and stop")
    args = parser.parse_args()
    if args.render:
        with open(args.render, encoding="utf-8") as saved:
            print(render(json.load(saved)))
        return 0
    options = parse_options("ba-awa", args.option)
    rules = BaAwaRules(**options)
    load = os.getloadavg()
    wall, cpu = time.perf_counter(), time.process_time()
    last = [0.0]

    def progress(phase: str, done: int, total: int | None) -> None:
        now = time.perf_counter()
        if now - last[0] >= 30 or (total is not None and done >= total):
            last[0] = now
            print(f"  {now - wall:7.1f} s  {phase}: {done:,}", file=sys.stderr, flush=True)

    solution = solve(rules, progress=progress, also=args.also, workers=args.workers)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu += children.ru_utime + children.ru_stime           # the workers'
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    start = solution.start
    at_start = {"captured": (0, 0)} if solution.decided else {}     # (decided: the counts too)
    result = {
        # the version (between releases it names the commit) and the command, as run
        "version": __version__, "command": shlex.join(["python", *sys.argv]),
        "date": time.strftime("%Y-%m-%d", time.gmtime()),
        "time": time.strftime("%H:%M", time.gmtime()),
        "options": {name: str(value).lower() if isinstance(value, bool) else str(value)
                    for name, value in options.items()},
        "machine": f"{platform.machine()}, {platform.python_implementation()} "
                   f"{platform.python_version()}",
        # positions: the solver's nodes; pass_steps: those whose player to move has
        # no legal move (the engine accepts the rest as positions)
        "positions": len(solution), "pass_steps": sum(solution.pass_steps().values()),
        "levels": {}, "wall_seconds": round(wall, 1),
        "cpu_seconds": round(cpu, 1), "peak_bytes": peak, "workers": args.workers,
        "worker_peak_bytes": children.ru_maxrss * 1024,       # the largest worker's
        "value": solution.value(*start, **at_start),
        "moves": solution.move_values(*start, **at_start),
        "seconds": {k: round(v, 1) for k, v in solution.seconds.items()},
        "load_average": {"start": [round(x, 2) for x in load],
                         "end": [round(x, 2) for x in os.getloadavg()]},
        "also": "other" if solution.play_on else args.also,
        "perfect_game": perfect_game(solution),
    }
    for seeds, count in solution.counts().items():
        spent = solution.enumerate_seconds[seeds] + solution.level_seconds[seeds]
        entry = {"positions": count, "pass_steps": solution.pass_steps()[seeds],
                 "enumerate_seconds": round(solution.enumerate_seconds[seeds], 2),
                 "solve_seconds": round(solution.level_seconds[seeds], 2),
                 "positions_per_second": round(count / spent) if spent else None,
                 "rounds": solution.rounds[seeds],
                 "enumerate_rounds": solution.enumerate_rounds[seeds]}
        if solution.also:
            differ = solution.also[seeds] != solution.values[seeds]
            # (decided: a row a split; a position differs if it does at any split)
            entry["differ"] = int((differ.any(axis=0) if differ.ndim > 1 else differ).sum())
        result["levels"][seeds] = entry
    if args.json:
        print(json.dumps(result, indent=1))
        return 0
    print(render(result))
    return 0


def perfect_game(solution) -> dict:
    """One perfectly played game from the opening, by the traced engine, as the
    first game of a match: each player takes the first of the moves worth the
    most (``move_values``); the moves, the captures and the pits won."""
    import mancala_spec as ms
    match = ms.Match(ms.get_game("ba-awa", **solution.rules.options()))
    moves = []
    while not match.position.is_over:
        position = match.position
        values = solution.move_values(position.pits, position.to_move,
                                      **({"captured": position.captured} if solution.decided
                                         else {}))
        best = max(values.values())
        pit = min(p for p, v in values.items() if v == best)
        moves.append(("abcdef" if pit < 6 else "ABCDEF")[pit % 6])
        match = match.play(pit)
    return {"moves": " ".join(moves), "captured": list(match.position.captured),
            "end": match.position.outcome.reason, "pits": list(match.earned())}


def render(result: dict) -> str:
    """A run (as --json prints it) as text."""
    also = result.get("also")
    chosen = ", ".join(f"{k}={v}" for k, v in result.get("options", {}).items())
    lines = [f"Ba-awa ({chosen or 'defaults'}), mancala-spec {result['version']}, "
             f"{result['date']}, {result['machine']}",
             f"{'seeds':>5} {'positions':>12} {'enum s':>8} {'solve s':>8} {'pos/s':>9} "
             f"{'rounds':>6} {'bfs':>5}" + (f" {'differ':>7}" if also else "")]
    for seeds, e in result["levels"].items():
        lines.append(f"{seeds:>5} {e['positions']:>12,} {e['enumerate_seconds']:>8.1f} "
                     f"{e['solve_seconds']:>8.1f} {e['positions_per_second'] or 0:>9,} "
                     f"{e['rounds']:>6} {e['enumerate_rounds']:>5}"
                     + (f" {e['differ']:>7,}" if also else ""))
    lines.append(f"positions: {result['positions']:,}; wall {result['wall_seconds']:.1f} s, "
                 f"CPU {result['cpu_seconds']:.1f} s ({result['workers']} workers), peak "
                 f"{result['peak_bytes'] / 2**30:.2f} GiB (the main process)")
    if "load_average" in result:
        lines.append(f"load average (1, 5, 15 min) at the start {result['load_average']['start']}"
                     f", at the end {result['load_average']['end']}")
    lines.append(f"value of the opening, South to move: {result['value']:+d}")
    lines.append("first moves: " + ", ".join(f"{pit}: {v:+d}"
                                             for pit, v in result["moves"].items()))
    if "perfect_game" in result:
        game = result["perfect_game"]
        lines.append(f"a perfect game: {game['moves']}; captured {game['captured']}, "
                     f"pits won {game['pits']}")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
