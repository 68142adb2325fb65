"""The playout benchmarks compare like with like: their paths play the same games.

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

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import baseline  # noqa: E402
import bench_mancalagames  # noqa: E402
import bench_playout  # noqa: E402

from mancala_spec.fast import sow  # noqa: E402
from mancala_spec.fast.tables import sowing_next  # noqa: E402


@pytest.mark.parametrize("name", ["ba-awa", "bakuk"])
def test_the_three_paths_play_the_same_games(name, monkeypatch):
    lengths = {path: [] for path in bench_playout.PATHS}
    for seed in range(150):                      # one game per seed, game by game
        monkeypatch.setattr(bench_playout, "SEED", seed)
        for path, run in bench_playout.PATHS.items():
            lengths[path].append(run(name, 1))
    assert lengths["baseline"] == lengths["kernel"] == lengths["reference"]
    assert len(set(lengths["baseline"])) > 10    # games of many lengths, not one game


def test_the_baseline_sows_ba_awa_as_the_kernel_does():
    """(The kernel's sowing is checked against the reference engine by
    tests/kernel/test_fast.py.)"""
    step, owners = sowing_next(12, False), (0,) * 6 + (1,) * 6
    rng = random.Random(3)
    boards = [((0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 3, 1), 10)]     # E never ends (nine seeds)
    boards += [(tuple(rng.choice((0, 1, 2, 3, 4, 5, 7)) for _ in range(12)), rng.randrange(12))
               for _ in range(2000)]
    endless = 0
    for pits, pit in boards:
        if not pits[pit]:
            continue
        mover = pit // 6
        after, won, took, _, forever = sow(pits, pit, mover, step, owners)
        ours = baseline.ba_awa_sow(pits, pit, mover)
        if forever:
            endless += 1
            assert ours is None, (pits, pit)
        else:
            assert ours == (list(after), list(won), took), (pits, pit)
    assert endless >= 1


def test_the_report_ends_with_a_line_per_game_and_the_targets(capsys):
    assert bench_playout.main(["--games", "2", "--repeat", "1", "--batch", "50"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert [line.split(":")[0] for line in lines[-3:-1]] == ["ba-awa", "bakuk"]
    assert "kernel at least 10x MancalaGames one game at a time and 50x in batches" in lines[-1]
    assert "reference not slower than MancalaGames" in lines[-1]
    assert "within 3x" not in "".join(lines)   # the withdrawn target is gone
    rows = [line.split() for line in lines if line.split()[:1] in (["ba-awa"], ["bakuk"])
            and len(line.split()) == 7]
    assert [(row[0], row[1]) for row in rows] == [
        (game, path) for game in ("ba-awa", "bakuk")
        for path in ("baseline", "kernel", "reference", "kernel-batch")]


def test_the_mancalagames_benchmark_needs_a_checkout(tmp_path, capsys):
    """Without a MancalaGames checkout it says so, and exits with status 2."""
    for argv in ([], ["--mancalagames", str(tmp_path)]):
        with pytest.raises(SystemExit) as exit_:
            bench_mancalagames.main(argv)
        assert exit_.value.code == 2
        assert "MancalaGames" in capsys.readouterr().err


def test_the_mancalagames_benchmarks_own_paths_play_the_same_games(tmp_path):
    """Its reference and kernel paths (the checkout is not needed for them)
    play the same games as each other."""
    (tmp_path / "src").mkdir()
    runners = {}
    import types
    fake = types.SimpleNamespace()
    original = bench_mancalagames.load_mancalagames
    try:
        bench_mancalagames.load_mancalagames = lambda path: (
            lambda filename: (fake, None))
        runners = bench_mancalagames.make_runners(tmp_path, batch=10)
    finally:
        bench_mancalagames.load_mancalagames = original
    for name in ("ba-awa", "bakuk"):
        assert runners["reference"][0](name, 30) == runners["kernel"][0](name, 30)
        assert runners["kernel-batch"][0](name, 10) > 10
