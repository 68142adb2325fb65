"""The Ba-awa solver (mancala_spec.solve.ba_awa) against a plain search.

The plain search is alpha-beta on the fast kernel (which tests/kernel/test_fast.py
checks against the traced engine) with the kernel's own repetition rule: the
positions seen since the last capture are part of the state, and a recurrence
ends the game, the opener taking what remains. No tables: it searches the game
tree itself, history and all. Where it finishes within its budget, the solver's
value of a position (as reached with no history, as just after a capture) must
be its value exactly.
"""
from __future__ import annotations

import re
import time
from pathlib import Path

import numpy as np
import pytest

import mancala_spec as ms
from mancala_spec.errors import InvalidPositionError, OptionError, UnreachedPositionError
from mancala_spec.fast import FastGame
from mancala_spec.solve.ba_awa import WHY_NOT, BaAwaRules, solve
from mancala_spec.solve.ba_awa_levels import Numbering
from mancala_spec.solve.ba_awa_quoted import MEASURED, estimate_bytes, expected_bytes, quoted_run

#: a twelve-seed start: the twelve-seed level it reaches is the one every game
#: reaches (about 680,000 positions; a few seconds to solve)
TWELVE = ((1,) * 12, 0)
#: a sixteen-seed start: two levels (about 1.3 million positions)
SIXTEEN = ((2, 2, 1, 0, 3, 1, 0, 1, 2, 1, 1, 2), 0)


class OutOfBudget(Exception):
    pass


def plain(fast, state, alpha: int, beta: int, budget: list[int]) -> int:
    """The opener's (South's) final captured margin under perfect play, by
    alpha-beta over the game tree, the history in each state."""
    budget[0] -= 1
    if budget[0] < 0:
        raise OutOfBudget
    moves = state[4]
    if not moves:
        captured = state[2]
        return captured[0] - captured[1]
    play = fast.play
    if state[1] == 0:
        best = -99
        for pit in moves:
            best = max(best, plain(fast, play(state, pit), alpha, beta, budget))
            alpha = max(alpha, best)
            if alpha >= beta:
                break
    else:
        best = 99
        for pit in moves:
            best = min(best, plain(fast, play(state, pit), alpha, beta, budget))
            beta = min(beta, best)
            if alpha >= beta:
                break
    return best


def searched(options: dict, pits, to_move: int, nodes: int) -> int | None:
    """The margin the player to move can force, by plain search (None: over budget)."""
    fast = FastGame(ms.get_game("ba-awa", **options))
    fast.remember_above = -1
    off = 48 - sum(pits)                    # captured before: what it is does not matter
    captured = (off // 2, off - off // 2)
    state = fast.state(pits, to_move, captured)
    try:
        margin = plain(fast, state, -99, 99, [nodes]) - (captured[0] - captured[1])
    except OutOfBudget:
        return None
    return margin if to_move == 0 else -margin


def compare(solution, options: dict, per_level: int, nodes: int, seed: int = 0):
    """Sampled positions of every level: (compared, equal), each also checked
    against its own move values."""
    rng = np.random.default_rng(seed)
    compared = equal = 0
    for seeds, keys in solution.levels.items():
        pits, players = Numbering(seeds).boards(rng.choice(keys, per_level, replace=False))
        for board, player in zip(pits.tolist(), players.tolist()):
            value = solution.value(board, player)
            moves = solution.move_values(board, player)
            if moves:
                assert value == max(moves.values())
            found = searched(options, board, player, nodes)
            if found is not None:
                compared += 1
                equal += found == value
    return compared, equal


@pytest.fixture(scope="module")
def twelve():
    return solve(start=TWELVE)


def test_numbering_round_trip():
    rng = np.random.default_rng(1)
    for seeds in range(12, 49, 4):
        numbering = Numbering(seeds)
        pits = np.array([np.bincount(rng.integers(0, 12, seeds), minlength=12)
                         for _ in range(300)], dtype=np.int8)
        players = rng.integers(0, 2, 300).astype(np.int8)
        keys = numbering.keys(pits, players)
        assert keys.max() < 2 * numbering.count
        back, who = numbering.boards(keys)
        assert (back == pits).all() and (who == players).all()


def test_twelve_seeds_equal_plain_search(twelve):
    compared, equal = compare(twelve, {}, per_level=40, nodes=4000)
    assert compared >= 20 and equal == compared


def test_values_are_margins_of_the_seeds_left(twelve):
    values = twelve.values[12].astype(int)
    assert values.min() >= -12 and values.max() <= 12
    assert (values % 2 == 0).all()          # 12 seeds shared: an even margin
    assert twelve.value(*TWELVE) == max(twelve.move_values(*TWELVE).values())


def test_unreached_and_invalid_positions(twelve):
    with pytest.raises(UnreachedPositionError):
        twelve.value((4,) * 12, 0)          # 48 seeds: not reached from twelve
    with pytest.raises(InvalidPositionError):
        twelve.value((1,) * 11, 0)
    with pytest.raises(InvalidPositionError):
        twelve.value((1,) * 12, 2)


@pytest.mark.parametrize("options, word", [
    ({"players": 3}, WHY_NOT["players"]),
    ({"target": 25}, "single two-player game"),
])
def test_unsolvable_options_are_refused(options, word):
    with pytest.raises(OptionError) as error:
        BaAwaRules(**options)
    assert word in str(error.value)


# -- the other programs' rules: each against a plain search on the traced engine ----

def engine_search(pos, alpha: int, beta: int, budget: list[int]) -> int:
    """The opener's final captured margin from *pos* under perfect play, by
    alpha-beta on the traced engine itself (its own rules: the lap cap, an
    emptied row, play on or the repetition rule, with the history in *pos*)."""
    budget[0] -= 1
    if budget[0] < 0:
        raise OutOfBudget
    if pos.is_over:
        return pos.captured[0] - pos.captured[1]
    best = -99 if pos.to_move == 0 else 99
    for pit in pos.legal_moves():
        value = engine_search(pos.play(pit), alpha, beta, budget)
        if pos.to_move == 0:
            best, alpha = max(best, value), max(alpha, value)
        else:
            best, beta = min(best, value), min(beta, value)
        if alpha >= beta:
            break
    return best


def engine_value(game, pits, to_move: int, nodes: int) -> int | None:
    off = 48 - sum(pits)
    captured = (off // 2 // 4 * 4, off - off // 2 // 4 * 4)     # fours, as play leaves them
    pos = game.position(pits, to_move, captured=captured, allow_unreachable=True)
    try:
        margin = engine_search(pos, -99, 99, [nodes]) - (captured[0] - captured[1])
    except OutOfBudget:
        return None
    return margin if to_move == 0 else -margin


#: MancalaGames' round: its ruleset's options (the match to ten pits left out)
ROUND = {"endless": "cap-75", "no_move": "owners", "repetition": "play-on"}


@pytest.mark.parametrize("options", [{"endless": "cap-75"}, {"no_move": "empty-row"}, ROUND])
def test_other_programs_rules_equal_a_plain_search_on_the_engine(options):
    """From one seed in every pit: sampled positions, and positions with a move
    that the rule ends (capped at 75 laps, 120 such moves; or leaving a row
    empty), have the value a plain search on the traced engine finds."""
    from mancala_spec.solve.ba_awa_levels import Kernel
    rules = BaAwaRules(**options)
    solution = solve(rules, start=TWELVE)
    game = ms.get_game("ba-awa", **options)
    keys = solution.levels[12]
    rng = np.random.default_rng(3)
    chosen = rng.choice(keys, 40, replace=False)
    # the positions with a move the rule ends: capped, or leaving a row empty
    kernel = Kernel(rules)
    pits, players = Numbering(12).boards(keys)
    ended = np.zeros(len(keys), dtype=bool)
    for choice in range(6):
        legal, after, won, _, capped = kernel._sow(pits, players, choice)
        rows = after.reshape(-1, 2, 6).sum(axis=2)
        emptied = legal & (after.sum(axis=1) > 0) & (rows.min(axis=1) == 0)
        ended |= capped if "endless" in options else emptied
    assert ended.sum() >= 100
    chosen = np.concatenate((chosen, rng.choice(keys[ended], 25, replace=False)))
    compared = ended_compared = 0
    pits, players = Numbering(12).boards(chosen)
    for row, (board, player) in enumerate(zip(pits.tolist(), players.tolist())):
        found = engine_value(game, board, player, 2500)
        if found is not None:
            compared += 1
            ended_compared += row >= 40
            assert solution.value(board, player) == found, (board, player)
    assert compared >= 20 and ended_compared >= 10


#: a twenty-seed start: its successors are two levels of 16 and 12 seeds
#: (about 1.3 million positions)
TWENTY = ((3, 0, 1, 3, 1, 2, 0, 1, 3, 2, 2, 2), 0)
#: EveryBoard's ruleset, its single game
EVERYBOARD = {"no_move": "empty-row", "decided": True, "repetition": "play-on"}


@pytest.mark.parametrize("options,captured,splits", [
    ({"decided": True}, (20, 8), {20: (20,), 16: (20, 24), 12: (20, 24)}),
    (EVERYBOARD, (4, 24), {20: (4,), 16: (8,), 12: (12,)})])     # North's capture decides
def test_decided_equals_a_plain_search_on_the_engine(options, captured, splits):
    """decided=true: from twenty seeds with captured counts near the end (a
    player one capture from more than half), positions of every level at
    every split of the captured seeds, among them those with a capture
    that decides the game, have the value a plain search on the traced
    engine finds with those counts; a move's value is its successor's."""
    from mancala_spec.solve.ba_awa_levels import Kernel
    rules = BaAwaRules(**options)
    solution = solve(rules, start=TWENTY, captured=captured)
    game = ms.get_game("ba-awa", **options)
    kernel = Kernel(rules)
    rng = np.random.default_rng(5)
    assert solution.splits == splits
    compared = deciding = 0
    for seeds in (16, 12):
        keys = solution.levels[seeds]
        pits, players = Numbering(seeds).boards(keys)
        capturing = np.zeros(len(keys), dtype=bool)
        for choice in range(6):
            legal, after, won, took, _ = kernel._sow(pits, players, choice)
            capturing |= legal & took & (after.sum(axis=1) > 8)
        for south in solution.splits[seeds]:
            counts = (south, 48 - seeds - south)
            chosen = np.concatenate((rng.choice(keys, 12, replace=False), rng.choice(
                keys[capturing], 12 if capturing.any() else 0, replace=False)))
            boards, movers = Numbering(seeds).boards(chosen)
            for board, player in zip(boards.tolist(), movers.tolist()):
                pos = game.position(board, player, captured=counts, allow_unreachable=True)
                try:
                    found = engine_search(pos, -99, 99, [2500]) - (counts[0] - counts[1])
                except OutOfBudget:
                    continue
                compared += 1
                assert solution.value(board, player, captured=counts) == (
                    found if player == 0 else -found), (board, player, counts)
                for pit, value in solution.move_values(board, player, captured=counts).items():
                    after = pos.play(pit)
                    ended = any(c > 24 for c in after.captured) and after.is_over
                    deciding += ended and after.outcome.reason == "decided"
                    if after.is_over:
                        margin = (after.captured[0] - after.captured[1]) - (counts[0] - counts[1])
                        assert value == (margin if player == 0 else -margin), (board, pit)
    assert compared >= 20 and deciding >= 10, (compared, deciding)


def test_decided_needs_the_captured_counts():
    solution = solve(BaAwaRules(decided=True), start=TWELVE, captured=(20, 16))
    for captured in (None, (20, 12), (28, 8), (20, "16")):
        with pytest.raises(InvalidPositionError, match="captured"):
            solution.value(*TWELVE, captured=captured)
    with pytest.raises(InvalidPositionError, match="captured"):
        solve(BaAwaRules(decided=True), start=TWELVE)     # (0, 0) is not 36 captured
    with pytest.raises(OptionError, match="decided"):
        solve(start=TWELVE, captured=(20, 16))


def test_play_on_is_solved_both_ways_and_valued_where_they_agree():
    """repetition="play-on": endless play worth all to the opener (the values)
    and all to the other player (also): from twelve seeds they agree everywhere,
    and the values are those of the repetition rule's; the scorings are ordered
    (-S <= 0 <= S, monotone); a position where they disagreed would have no value."""
    from mancala_spec.solve.ba_awa import EndlessPlayError
    solution = solve(BaAwaRules(repetition="play-on"), start=TWELVE)
    assert solution.undecided() == {12: 0}
    assert (solution.values[12] == solve(start=TWELVE).values[12]).all()
    low = solve(start=TWELVE, endless_play="other", also="nothing")
    assert (low.values[12] <= low.also[12]).all() and (low.also[12] <= solution.values[12]).all()
    with pytest.raises(OptionError, match="both ways"):
        solve(BaAwaRules(repetition="play-on"), start=TWELVE, also="nothing")
    solution.also[12] = solution.also[12].copy()
    solution.also[12][:] -= 2                          # as if the two scorings disagreed
    assert solution.undecided() == {12: len(solution.levels[12])}
    with pytest.raises(EndlessPlayError, match="no value"):
        solution.value(*TWELVE)


def test_starts_play_cannot_reach_are_refused():
    for start in (((1,) * 11 + (2,), 0), ((1,) * 8 + (0,) * 4, 0), ("x", 0)):
        with pytest.raises(InvalidPositionError):
            solve(start=start)


def test_memory_estimate_refuses_before_solving():
    assert estimate_bytes({12: 10, 16: 100}) > estimate_bytes({12: 10, 16: 10})
    assert expected_bytes(16) >= expected_bytes(12) > 0
    started = time.perf_counter()
    with pytest.raises(MemoryError, match="expected to need about"):
        solve(start=((0,) * 11 + (12,), 0), memory=1000)
    assert time.perf_counter() - started < 1          # before enumerating


@pytest.mark.slow
@pytest.mark.parametrize("options", [{}, {"no_move": "owners", "endless": "stop",
                                          "skip_origin": True}])
def test_sixteen_seeds_equal_plain_search(options):
    solution = solve(BaAwaRules(**options), start=SIXTEEN)
    assert set(solution.levels) == {12, 16}
    compared, equal = compare(solution, options, per_level=15, nodes=3000, seed=2)
    assert compared >= 10 and equal == compared


# -- the numbers the site quotes ------------------------------------------------------

PAGES = Path(__file__).resolve().parents[2] / "docs"


def quoted(page: str, marker: str) -> list[list[str]]:
    """The rows of the table after ``% quoted: <marker>`` on *page* (cells
    without backticks; header and rule left out)."""
    text = (PAGES / page).read_text(encoding="utf-8")
    match = re.search(rf"^% quoted: {re.escape(marker)}\s*$", text, re.M)
    assert match, f"no quoted table {marker!r} on {page}"
    rows = []
    for line in text[match.end():].lstrip("\n").splitlines():
        if not line.startswith("|"):
            break
        rows.append([cell.strip().strip("`") for cell in line.strip().strip("|").split("|")])
    return rows[2:]


def test_the_quoted_twelve_seed_check_is_re_derived(twelve):
    [row] = quoted("ba-awa.md", "ba-awa-solve-twelve")
    start, positions, passes, value, each = row
    assert start == "1,1,1,1,1,1/1,1,1,1,1,1 S"
    steps = sum(twelve.pass_steps().values())
    assert [int(positions.replace(",", "")), int(passes)] == [len(twelve) - steps, steps]
    assert int(value) == twelve.value(*TWELVE)
    moves = twelve.move_values(*TWELVE)
    assert each == f"{int(value):+d} each" and set(moves.values()) == {int(value)}


# -- the quoted full solve of the opening ---------------------------------------------

RUN = quoted_run()
LETTERS = "abcdef"


def test_the_quoted_opening_is_the_runs_on_every_page():
    moves = {int(pit): value for pit, value in RUN["moves"].items()}
    best = max(moves.values())
    assert RUN["value"] == best                      # the opening is its best move
    [row] = quoted("ba-awa.md", "ba-awa-solve-opening")
    assert row[0] == "get_game('ba-awa')"
    assert int(row[1].replace(",", "")) == RUN["positions"] == sum(MEASURED.values())
    assert [int(cell) for cell in row[2:]] == [RUN["value"], *(moves[p] for p in range(6))]
    [row] = quoted("analysis.md", "opener-perfect")
    assert row[:2] == ["get_game('ba-awa')", "perfect"]
    assert [int(cell) for cell in row[2:5]] == [(48 + best) // 2, (48 - best) // 2, best]
    assert row[5] == ", ".join(LETTERS[p] for p in range(6) if moves[p] == best)
    [row] = quoted("match-and-three-players.md", "match-perfect-first-game")
    assert [int(cell) for cell in row[1:3]] == RUN["perfect_game"]["captured"]
    assert [int(cell) for cell in row[3:]] == RUN["perfect_game"]["pits"]


def test_the_quoted_levels_and_run_are_the_runs():
    rows = quoted("ba-awa.md", "ba-awa-solve-levels")
    levels = RUN["levels"]
    assert [row[0] for row in rows] == list(levels)
    for row in rows:
        level = levels[row[0]]
        assert [int(cell.replace(",", "")) for cell in row[1:3]] == [
            level["positions"], level["differ"]]
        assert float(row[3]) == round(level["enumerate_seconds"] + level["solve_seconds"])
    text = " ".join((PAGES / "ba-awa.md").read_text(encoding="utf-8").split())
    for said in (f"{RUN['wall_seconds']:,.0f} s of wall-clock time",
                 f"{RUN['cpu_seconds']:,.0f} s of CPU time",
                 f"peak memory {RUN['peak_bytes'] / 2**30:.1f} GiB", RUN["version"],
                 f"load average {RUN['load_average']['start'][0]} at the start and "
                 f"{RUN['load_average']['end'][0]} at the end",
                 f"every one of the {RUN['positions']:,} positions"):
        assert said in text


def test_the_memory_estimate_is_the_largest_level_not_every_level():
    """The solve holds one level's moves at a time: a level smaller than the
    largest adds at most its positions' keys and values (8 and 2 bytes each),
    not its moves (the estimate of every level's moves held together added
    72 bytes a position)."""
    one, two = estimate_bytes({28: 10**6}), estimate_bytes({28: 10**6, 24: 10**6})
    assert one < two <= one + 10 * 10**6


def test_the_memory_estimate_covers_the_quoted_runs_peak():
    """The estimate the command line checks before solving from the opening
    is at least what the quoted run used, and not far above it."""
    assert RUN["peak_bytes"] <= expected_bytes(48) <= 1.25 * RUN["peak_bytes"]


def test_the_quoted_top_levels_are_enumerated_again():
    """The two top levels of the opening, enumerated again (a fraction of a
    second): their positions are the quoted run's."""
    from mancala_spec.solve.ba_awa_levels import Kernel
    from mancala_spec.solve.ba_awa_spool import enumerate_levels
    levels = enumerate_levels(Kernel(BaAwaRules()), (4,) * 12, 0,
                              lambda *report: None, lowest=44)
    assert {seeds: len(level.keys) for seeds, level in levels.items()} == {
        48: RUN["levels"]["48"]["positions"], 44: RUN["levels"]["44"]["positions"]}


def test_the_quoted_perfect_game_is_played_again():
    """The quoted perfect game, played by the traced engine as a match's first
    game, ends with the quoted margin, captures and pits."""
    game = RUN["perfect_game"]
    [row] = quoted("ba-awa.md", "ba-awa-solve-game")
    assert row[0] == game["moves"]
    match = ms.Match(ms.get_game("ba-awa"))
    for letter in game["moves"].split():
        match = match.play(letter)
    captured = match.position.captured
    assert match.position.is_over and match.position.outcome.reason == game["end"]
    assert list(captured) == game["captured"] == [int(row[1]), int(row[2])]
    assert captured[0] - captured[1] == RUN["value"]
    assert list(match.earned()) == game["pits"]
    assert row[3] == f"{game['pits'][0]} and {game['pits'][1]}"


def bound(fast, state, depth: int, side: int, alpha: int = -99, beta: int = 99) -> int:
    """A bound on the opener's final margin from *state* by alpha-beta alone
    (the kernel's own repetition rule, no tables): the positions *depth* moves
    deep are given the margin so far plus (*side* 1) or minus (-1) every seed
    still on the board, the most either player could still gain."""
    moves, captured = state[4], state[2]
    if not moves:
        return captured[0] - captured[1]
    if depth == 0:
        return captured[0] - captured[1] + side * (48 - captured[0] - captured[1])
    best = -99 if state[1] == 0 else 99
    for pit in moves:
        value = bound(fast, fast.play(state, pit), depth - 1, side, alpha, beta)
        if state[1] == 0:
            best = max(best, value)
            alpha = max(alpha, best)
        else:
            best = min(best, value)
            beta = min(beta, best)
        if alpha >= beta:
            break
    return best


@pytest.mark.slow
def test_search_alone_bounds_the_opening_s_value():
    """By search alone the opening is worth at most +8 (ten moves deep) and at
    least -8 (eleven), as the site says; the solver's quoted value lies between."""
    fast = FastGame(ms.get_game("ba-awa"))
    fast.remember_above = -1
    opening = fast.state((4,) * 12, 0, (0, 0))
    most, least = bound(fast, opening, 10, 1), bound(fast, opening, 11, -1)
    assert (least, most) == (-8, 8)
    assert least <= RUN["value"] <= most
    text = " ".join((PAGES / "ba-awa.md").read_text(encoding="utf-8").split())
    assert f"at most {most:+d} (10 moves deep) and at least {least:+d} (11 moves deep)" in text


# -- the quoted full solves of the other option sets and rulesets ---------------------

def test_every_option_value_and_ruleset_is_a_row_solved_or_refused_with_why():
    """The table of readings: each other value of each option (but those that
    make the same game) and each other program's ruleset is a row; a row has a
    quoted solve exactly when the solver takes its options, else the solver's
    reason (WHY_NOT, one truth)."""
    from mancala_spec.options import game_options
    from mancala_spec.rulesets import DEFAULT, game_values, rulesets
    from mancala_spec.solve.ba_awa_readings import SAME_GAME, readings
    rows = readings()
    assert rows[0].options == {} and rows[0].run == RUN
    wanted = [{o.name: v} for o in game_options("ba-awa") if o.name not in SAME_GAME
              for v in o.choices if v != o.default]
    wanted += [dict(game_values("ba-awa", r.name)) for r in rulesets("ba-awa")
               if r.name != DEFAULT]
    assert [r.options for r in rows[1:]] == wanted
    assert [r.ruleset for r in rows if r.ruleset] == [r.name for r in rulesets("ba-awa")
                                                      if r.name != DEFAULT]
    for row in rows:
        assert (row.run is None) == bool(row.why)
        if row.run is None:
            with pytest.raises(OptionError) as error:
                BaAwaRules(**row.options)
            assert str(error.value).endswith(row.why)
        else:
            BaAwaRules(**row.options)
    assert any(r.why for r in rows) and sum(r.run is not None for r in rows) >= 8


def _variants():
    from mancala_spec.solve.ba_awa_readings import readings
    return [r for r in readings() if r.run is not None and r.options]


@pytest.mark.parametrize("reading", _variants(),
                         ids=lambda r: r.ruleset or ",".join(f"{k}={v}"
                                                            for k, v in r.options.items()))
def test_each_quoted_variant_is_re_derived(reading):
    """Each quoted solve of another option set: its value is its best move's,
    its positions its levels'; its two top levels, enumerated again under its
    options, have the quoted positions; and its perfect game, replayed by the
    traced engine under its options as a match's first game, ends with the
    quoted captures (their margin the quoted value), ending and pits."""
    from mancala_spec.solve.ba_awa_levels import Kernel
    from mancala_spec.solve.ba_awa_spool import enumerate_levels
    run = reading.run
    assert run["options"] == {k: str(v).lower() if isinstance(v, bool) else str(v)
                              for k, v in reading.options.items()}
    assert run["value"] == max(run["moves"].values())
    assert run["positions"] == sum(level["positions"] for level in run["levels"].values())
    if reading.options.get("repetition") == "play-on":
        assert run["also"] == "other" and all("differ" in level
                                              for level in run["levels"].values())
    levels = enumerate_levels(Kernel(BaAwaRules(**reading.options)), (4,) * 12, 0,
                              lambda *report: None, lowest=44)
    assert {seeds: len(level.keys) for seeds, level in levels.items()} == {
        48: run["levels"]["48"]["positions"], 44: run["levels"]["44"]["positions"]}
    game = run["perfect_game"]
    match = ms.Match(ms.get_game("ba-awa", **reading.options))
    for letter in game["moves"].split():
        match = match.play(letter)
    captured = match.position.captured
    assert match.position.is_over and match.position.outcome.reason == game["end"]
    assert list(captured) == game["captured"]
    assert captured[0] - captured[1] == run["value"]
    assert list(match.earned()) == game["pits"]


#: two positions of the real game, North to move with 36 seeds on the board:
#: North's one seed in D (or C) and 35 in F, each reachable from the opening
#: (a 67-move game that ends in a capture, so with no history). North's move from
#: D (C) leads to the first position of the level below in its numbering (row 0),
#: which the level solver once read as "no move" (issue 40: value -12 where the
#: move is worth -4)
ROW_ZERO = ["0,0,0,0,0,0/0,0,0,1,0,35 N 8-4 opener=S",
            "0,0,0,0,0,0/0,0,1,0,0,35 N 8-4 opener=S"]


@pytest.mark.parametrize("text", ROW_ZERO)
def test_a_move_into_row_zero_counts_at_real_positions(text):
    """Solved from a position of the real game: its value is its best move's,
    and the perfect game from it, played by the traced engine (each side
    choosing a move the solver rates best), ends with that margin."""
    game = ms.get_game("ba-awa")
    pos = game.parse(text, allow_unreachable=True)
    start = (tuple(pos.pits), pos.to_move)
    solution = solve(start=start)
    value = solution.value(*start)
    assert value == max(solution.move_values(*start).values())
    mover, before = pos.to_move, pos.captured[pos.to_move] - pos.captured[1 - pos.to_move]
    while not pos.is_over:
        moves = solution.move_values(tuple(pos.pits), pos.to_move)
        assert solution.value(tuple(pos.pits), pos.to_move) == max(moves.values())
        best = max(moves, key=moves.__getitem__)
        pos = pos.play(game.board.name(best))
    margin = pos.captured[mover] - pos.captured[1 - mover] - before
    assert margin == value
