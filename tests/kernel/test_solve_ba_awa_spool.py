"""The Ba-awa solver's level at a time (mancala_spec.solve.ba_awa_spool): its
temporary folder goes, however the solve ends, and the predecessor lists its
value iteration reads are the moves turned round."""
from __future__ import annotations

import tempfile

import numpy as np
import pytest

from mancala_spec.solve import ba_awa_values
from mancala_spec.solve.ba_awa import BaAwaRules, solve
from mancala_spec.solve.ba_awa_values import predecessor_lists

TWELVE = ((1,) * 12, 0)


@pytest.fixture
def temporary(tmp_path, monkeypatch):
    """The folder the solver's temporary folder is made in."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    return tmp_path


def test_the_folder_is_removed_when_the_solve_ends(temporary):
    made = []

    def progress(phase, done, total):
        made.extend(p.name for p in temporary.iterdir())

    solution = solve(BaAwaRules(), TWELVE, progress=progress)
    assert solution.value(*TWELVE) is not None
    assert made and all(name.startswith("mancala-spec-ba-awa-") for name in made)
    assert list(temporary.iterdir()) == []


@pytest.mark.parametrize("phase", ["enumerating", "solving"])
def test_the_folder_is_removed_when_the_solve_is_interrupted(temporary, phase):
    def progress(now, done, total):
        if now.startswith(phase):
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        solve(BaAwaRules(), TWELVE, progress=progress)
    assert list(temporary.iterdir()) == []


@pytest.mark.parametrize("at_once", [1 << 22, 7])
def test_predecessor_lists_turn_the_moves_round(monkeypatch, at_once):
    """Random moves (many sharing a target in one slice, some read from the
    other side, some no move): each position's predecessors are exactly the
    rows with a move to it, as many times as they have one."""
    monkeypatch.setattr(ba_awa_values, "EDGES_AT_ONCE", at_once)
    rng = np.random.default_rng(7)
    n = 500
    at = rng.integers(0, 2 * n + 1, size=(6, n)).astype(np.int32)
    at[:, :40] = 3                                   # one target shared by many
    at[rng.random((6, n)) < 0.2] = 2 * n             # no move
    pred, start = predecessor_lists(at.copy(), n)
    expected: list[list[int]] = [[] for _ in range(n)]
    for c in range(6):
        for row in range(n):
            if at[c, row] < 2 * n:
                expected[at[c, row] % n].append(row)
    for target in range(n):
        assert sorted(pred[start[target]:start[target + 1]].tolist()) == sorted(
            expected[target])
    assert start[-1] == sum(len(e) for e in expected) == len(pred)
