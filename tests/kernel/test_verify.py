"""The second path for solved values (mancala_spec.verify): its moves against
the traced engine, and planted errors found in written tables (a wrong value,
a missing position, an extra one), Ba-awa's and Bakuk's; the write paths
refusing a table that fails; ``solve verify`` on the command line."""
from __future__ import annotations

import dataclasses
import itertools
import random
import shutil

import numpy as np
import pytest

import mancala_spec as ms
from mancala_spec.cli import main
from mancala_spec.errors import TableError
from mancala_spec.solve.ba_awa import BaAwaRules, solve
from mancala_spec.solved import ValueTable, write_table
from mancala_spec.solved_ba_awa import write_ba_awa_table
from mancala_spec.verify import Problem, TableInconsistent, checked, verify_table
from mancala_spec.verify.ba_awa_moves import END, NONE, PASS_CHOICE, Moves, boards, key_of

#: a sixteen-seed start, North to move, whose one seed in D moves into the
#: first position (row 0) of its level: two levels, about 680,000 positions,
#: one a pass step
START = ((0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 15), 1)


def engine_step(moves: Moves, pits, player: int, choice: int):
    """The move *choice* as the engine plays it, from the verifier's moves:
    (over, South's gain less North's, next pits, next player), a pass step
    after it folded in (the engine passes inside the move)."""
    seeds = sum(pits)
    one = moves.choices(seeds, np.array([pits], dtype=np.int8), np.array([player]))
    kind, gain = int(one.kind[choice, 0]), int(one.gain[choice, 0])
    if kind == END:
        return True, gain, None, None
    left = int(one.seeds[choice, 0])
    after, nxt = boards(left, one.key[choice:choice + 1, 0])
    after, nxt = tuple(after[0].tolist()), int(nxt[0])
    then = moves.choices(left, np.array([after], dtype=np.int8), np.array([nxt]))
    if then.passing[0]:
        if then.kind[PASS_CHOICE, 0] == END:
            return True, gain + int(then.gain[PASS_CHOICE, 0]), None, None
        nxt = 1 - nxt
    return False, gain, after, nxt


OPTIONS = [dict(endless=e, no_move=m) for e, m in itertools.product(
    ("illegal", "stop", "cap-75"), ("pass", "owners", "empty-row"))]


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(o.values()))
def test_the_verifier_s_moves_are_the_engine_s(options):
    """From positions of random games (their history cleared), every legal move
    of the engine is a move of the verifier with the same captures, the same
    end and the same next position; and no other move is."""
    game = ms.get_game("ba-awa", **options)
    moves = Moves(game)
    rng = random.Random(str(options))
    checked_moves = 0
    for _ in range(12):
        pos = game.start()
        while not pos.is_over:
            pos = pos.replace(history=())
            legal = pos.legal_moves()
            for pit in legal:
                after = pos.play(pit)
                over, gain, pits, nxt = engine_step(moves, pos.pits, pos.to_move,
                                                    pit - pos.to_move * 6)
                took = [a - b for a, b in zip(after.captured, pos.captured)]
                assert over == after.is_over, (pos.to_text(), pit)
                assert gain == took[0] - took[1], (pos.to_text(), pit)
                if not over:
                    assert (pits, nxt) == (tuple(after.pits), after.to_move)
                checked_moves += 1
            one = moves.choices(pos.seeds_on_board, np.array([pos.pits], dtype=np.int8),
                                np.array([pos.to_move]))
            assert {pos.to_move * 6 + c for c in range(6) if one.kind[c, 0] != NONE} \
                == set(legal)
            pos = pos.play(rng.choice(legal))
    assert checked_moves > 300


@pytest.fixture(scope="module")
def solution():
    return solve(BaAwaRules(), START)


def written(tmp_path, solution, change=None):
    """The solution written as a table (not checked), after *change*(levels, values)."""
    levels = {s: k.copy() for s, k in solution.levels.items()}
    values = {s: v.copy() for s, v in solution.values.items()}
    if change is not None:
        change(levels, values)
    planted = dataclasses.replace(solution, levels=levels, values=values)
    folder = tmp_path / "table"
    shutil.rmtree(folder, ignore_errors=True)
    return write_ba_awa_table(folder, planted, check=lambda written: None)


def test_a_true_table_has_no_inconsistency(tmp_path, solution):
    report = verify_table(written(tmp_path, solution))
    assert report.ok and report.checked == report.positions == len(solution)
    assert report.pass_steps == 1
    assert report.levels == solution.counts()


def test_a_wrong_value_is_found_with_its_moves(tmp_path, solution):
    seeds = 16
    row = int(np.searchsorted(solution.levels[seeds], key_of(*START)))    # not a pass step
    def change(levels, values):
        values[seeds][row] += 4
    report = verify_table(written(tmp_path, solution, change))
    bad = [p for p in report.problems if p.number == int(solution.levels[seeds][row])]
    assert bad and bad[0].kind == "value" and bad[0].seeds == seeds
    # the position's own value is wrong, and the positions whose moves lead there
    assert all(p.kind == "value" for p in report.problems)
    pits, to_move = boards(seeds, solution.levels[seeds][row:row + 1])
    assert bad[0].pits == tuple(pits[0].tolist()) and bad[0].to_move == int(to_move[0])
    moves = solution.move_values(bad[0].pits, bad[0].to_move)
    names = {ms.get_game("ba-awa").board.name(p): v for p, v in moves.items()}
    assert bad[0].moves == names and not bad[0].passing
    text = bad[0].position()
    assert ms.get_game("ba-awa").parse(text, allow_unreachable=True).pits == bad[0].pits


def test_a_missing_position_is_found(tmp_path, solution):
    keys = solution.levels[12]
    gone = int(keys[len(keys) // 2])
    def change(levels, values):
        at = len(levels[12]) // 2
        levels[12] = np.delete(levels[12], at)
        values[12] = np.delete(values[12], at)
    report = verify_table(written(tmp_path, solution, change))
    assert report.inconsistencies >= 1
    assert {p.kind for p in report.problems} == {"missing"}
    pits, to_move = boards(12, np.array([gone]))
    lost = [p.missing for p in report.problems]
    assert all(m == Problem("missing", 12, gone, tuple(pits[0].tolist()),
                                      int(to_move[0])).position() for m in lost)


def test_an_extra_position_is_found(tmp_path, solution):
    keys = set(solution.levels[12].tolist())
    extra = next(k for k in (key_of((12,) + (0,) * 11, p) for p in (0, 1)) if k not in keys)
    def change(levels, values):
        at = int(np.searchsorted(levels[12], extra))
        levels[12] = np.insert(levels[12], at, extra)
        values[12] = np.insert(values[12], at, 0)
    report = verify_table(written(tmp_path, solution, change))
    assert [(p.kind, p.number) for p in report.problems] == [("extra", extra)]


def test_two_tables_are_compared_position_by_position(tmp_path, solution):
    from mancala_spec.verify.ba_awa_table import compare

    written(tmp_path, solution).rename(tmp_path / "first")
    def change(levels, values):
        values[16][5] += 4
        levels[12] = levels[12][1:]
        values[12] = values[12][1:]
    second = written(tmp_path, solution, change)
    found = compare(tmp_path / "first", second)
    key5, key0 = int(solution.levels[16][5]), int(solution.levels[12][0])
    assert found == [(16, key5, int(solution.values[16][5]), int(solution.values[16][5]) + 4),
                     (12, key0, int(solution.values[12][0]), None)]


def test_the_write_path_refuses_a_wrong_table_and_writes_nothing(tmp_path, solution):
    def change(levels, values):
        values[16][3] -= 4
    levels = {s: k.copy() for s, k in solution.levels.items()}
    values = {s: v.copy() for s, v in solution.values.items()}
    change(levels, values)
    planted = dataclasses.replace(solution, levels=levels, values=values)
    with pytest.raises(TableInconsistent, match="inconsistenc.*the first: "):
        write_ba_awa_table(tmp_path / "table", planted)
    assert list(tmp_path.iterdir()) == []


def test_solve_verify_on_the_command_line(tmp_path, solution, capsys):
    good = written(tmp_path, solution)
    assert main(["solve", "verify", str(good), "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert f"positions checked: {len(solution):,}" in out and "inconsistencies: 0" in out
    assert "1 pass steps" in out
    def change(levels, values):
        values[16][0] += 4
    bad = written(tmp_path, solution, change)
    assert main(["solve", "verify", str(bad), "--no-progress"]) == 1
    out = capsys.readouterr().out
    assert "inconsistencies: " in out and "opener=S (a pass step): the table's value" in out
    for wrong in (["solve", "verify", str(tmp_path / "nothing")],
                  ["solve", "verify"],
                  ["solve", "verify", str(good), "--start", "x"],
                  ["solve", "bakuk", str(good)]):
        assert main(wrong) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err


# -- Bakuk ------------------------------------------------------------------------

SMALL = dict(pits_per_row=2, seeds_per_pit=4)


def test_bakuk_s_table_is_checked_and_a_planted_value_found(tmp_path):
    table = ValueTable.from_rules(**SMALL)
    good = tmp_path / "good.bin"
    good.write_bytes(table.to_bytes())
    report = verify_table(good)
    assert report.ok and report.checked == report.positions > 100
    values = bytearray(table.values)
    at = next(i for i, v in enumerate(values) if v not in (0x80,) and i > 2)
    values[at] = (values[at] + 2) % 256
    bad = tmp_path / "bad.bin"
    bad.write_bytes(ValueTable(table.header, bytes(values)).to_bytes())
    report = verify_table(bad)
    assert not report.ok
    values[at] = 0x80                            # a reached position left without a value
    bad.write_bytes(ValueTable(table.header, bytes(values)).to_bytes())
    assert "missing" in {p.kind for p in verify_table(bad).problems}
    with pytest.raises(TableInconsistent):
        write_table(tmp_path / "written.bin", ValueTable(table.header, bytes(values)))
    assert not (tmp_path / "written.bin").exists()
    assert not list(tmp_path.glob("*.part"))


def test_bakuk_s_standard_table_has_no_inconsistency(tmp_path):
    report = checked(write_table(tmp_path / "bakuk.bin"))
    assert report.ok and report.checked == report.positions > 2_000_000


def test_not_a_table_is_one_error(tmp_path):
    (tmp_path / "file").write_bytes(b"not a table\n")
    for path in (tmp_path / "file", tmp_path, tmp_path / "none"):
        with pytest.raises(TableError):
            verify_table(path)


def test_a_table_whose_start_skips_a_level_is_read_and_checked(tmp_path):
    """From this 36-seed position of the real game play reaches no position of 28
    seeds: the table written from it is read (it once named the empty level, which
    the reader refused) and passes its check."""
    from mancala_spec.solved_ba_awa import BaAwaValueTable

    start = ((0,) * 9 + (1, 0, 35), 1)
    solution = solve(BaAwaRules(), start)
    assert not len(solution.levels[28])
    folder = write_ba_awa_table(tmp_path / "table", solution)
    table = BaAwaValueTable.from_folder(folder)
    assert len(table) == len(solution)
    assert table.value(*start) == solution.value(*start) == -4
