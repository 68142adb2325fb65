"""The playout benchmark compares like with like: its three paths play the same games.

Nothing here is timed (speed is shown by running ``benchmarks/bench_playout.py``);
these tests check that the baseline beside the benchmark plays the engine's
rules, so that the comparison means something, and that the report says what
the targets are.
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import baseline  # noqa: E402
import bench_playout  # noqa: E402

import mancala_spec as ms  # noqa: E402
from mancala_spec.engine.position import Position  # noqa: E402


@pytest.mark.parametrize("name", ["ba-awa", "bakuk"])
def test_the_three_paths_play_the_same_games(name, monkeypatch):
    lengths = {path: [] for path in bench_playout.PATHS}
    for seed in range(150):                      # one game per seed, game by game
        monkeypatch.setattr(bench_playout, "SEED", seed)
        for path, run in bench_playout.PATHS.items():
            lengths[path].append(run(name, 1))
    assert lengths["baseline"] == lengths["fast"] == lengths["traced"]
    assert len(set(lengths["baseline"])) > 10    # games of many lengths, not one game


def test_the_baseline_sows_ba_awa_as_the_engine_does():
    game = ms.get_game("ba-awa")
    rng = random.Random(3)
    boards = [((0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 3, 1), 10)]     # E never ends (nine seeds)
    boards += [(tuple(rng.choice((0, 1, 2, 3, 4, 5, 7)) for _ in range(12)), rng.randrange(12))
               for _ in range(2000)]
    endless = 0
    for pits, pit in boards:
        if not pits[pit]:
            continue
        mover = pit // 6
        pos = Position.unchecked(game, pits, mover, (0, 0), 0, game.board.row_owners, ())
        sowing = game.sow_move(pos, pit)
        ours = baseline.ba_awa_sow(pits, pit, mover)
        if sowing is None:
            endless += 1
            assert ours is None, (pits, pit)
        else:
            assert ours == (sowing.pits, list(sowing.captured), sowing.took), (pits, pit)
    assert endless >= 1


def test_the_report_ends_with_a_line_per_game_against_the_targets(capsys):
    assert bench_playout.main(["--games", "2", "--repeat", "1"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert [line.split(":")[0] for line in lines[-2:]] == ["ba-awa", "bakuk"]
    for line in lines[-2:]:
        assert "(target: at least 1.0x)" in line and "(target: within 3x)" in line
    rows = [line.split() for line in lines if line.split()[:1] in (["ba-awa"], ["bakuk"])
            and len(line.split()) == 8]
    assert [(row[0], row[1]) for row in rows] == [
        (game, path) for game in ("ba-awa", "bakuk") for path in ("baseline", "fast", "traced")]
