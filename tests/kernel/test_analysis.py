"""The experiments of mancala_spec.analysis, checked against the traced engine.

* the Wilson interval on values known in closed form;
* :func:`sow_laps` (lap counts, endless or not) against the traced engine for
  every (board, pit) of up to 7 seeds, every board of 9 seeds with pit a played
  (where the first endless sowings are), with and without ``skip_origin``, and
  the lap count of the endless ones under ``endless="stop"``;
* :func:`exhaustive`'s "sow pit a only, count twelve times" against sowing every pit;
* the rows and example boards the analysis page quotes from the long run:
  rows up to 10 seeds are recomputed, and every quoted example board (up to
  the largest seed count) is replayed with the traced engine;
* the greedy policy picks exactly the moves of largest capture margin, as the
  traced engine computes it;
* runs are reproducible, independent of how they are split among processes;
* recurrence: a found recurrence really ends the game by repetition, and the
  quoted game that ended by repetition does so in the traced engine;
* the quoted large-run statistics agree (overlapping 95 % intervals) with a
  small rerun;
* the Sphinx directives build a page.

About 20 s on two cores.
"""
from __future__ import annotations

import math
import random
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

import mancala_spec as ms
from mancala_spec import analysis as an
from mancala_spec.engine.position import Position
from mancala_spec.engine.trace import EndOfLap
from mancala_spec.errors import MancalaError
from mancala_spec.fast import FastGame

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "analysis.md"
Z = 1.959963984540054


def sowing_of(game, pits, pit):
    """The traced engine's sowing of *pit* on the board *pits* (South to move),
    or ``None`` if it never ends. Boards of eight seeds or fewer are not
    positions of a game in progress, so the position is built without the
    checks; the sowing itself is defined."""
    pos = Position.unchecked(game, pits=tuple(pits), to_move=0, captured=(0, 0), opener=0,
                             owners=game.board.row_owners)
    sowing = game.sow_move(pos, pit)
    return None if sowing.endless else sowing


def traced_laps(game, pits, pit):
    """(laps, endless) by the traced engine."""
    sowing = sowing_of(game, pits, pit)
    if sowing is None:
        return None, True
    return sum(isinstance(e, EndOfLap) for e in sowing.events), False


# -- statistics --------------------------------------------------------------------


def test_wilson_closed_forms():
    # no success: the upper end is z²/(n+z²); all successes: the lower end is n/(n+z²)
    for n in (1, 10, 137, 10_000):
        low, high = an.wilson(0, n)
        assert low == pytest.approx(0, abs=1e-12) and high == pytest.approx(Z * Z / (n + Z * Z))
        low, high = an.wilson(n, n)
        assert high == pytest.approx(1) and low == pytest.approx(n / (n + Z * Z))


def test_wilson_known_values():
    # half: centred on 1/2, half-width z·sqrt(n/4 + z²/4)/(n + z²)
    low, high = an.wilson(50, 100)
    half = Z * math.sqrt(25 + Z * Z / 4) / (100 + Z * Z)
    assert (low, high) == pytest.approx((0.5 - half, 0.5 + half))
    assert (round(low, 4), round(high, 4)) == (0.4038, 0.5962)
    # published example (Newcombe 1998, method 3): 81 of 263 → 0.2553 to 0.3662
    assert tuple(round(x, 4) for x in an.wilson(81, 263)) == (0.2553, 0.3662)
    # symmetry, containment, narrowing with n
    for k, n in ((3, 17), (602, 1000), (1, 48_000)):
        low, high = an.wilson(k, n)
        assert low < k / n < high
        assert an.wilson(n - k, n) == pytest.approx((1 - high, 1 - low))
        assert an.wilson(4 * k, 4 * n)[1] - an.wilson(4 * k, 4 * n)[0] < high - low
    assert an.wilson(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        an.wilson(5, 4)


def test_share_text():
    assert an.share_text(602, 1000) == "60.2% (57.1–63.2)"
    assert an.share_text(2, 48521) == "0.004% (0.001–0.015)"
    assert an.share_text(999_996, 1_000_000) == "99.9996% (99.9990–99.9998)"


# -- sowing, exhaustively ----------------------------------------------------------------


def test_sow_laps_matches_the_traced_engine_up_to_seven_seeds():
    game = ms.get_game("ba-awa")
    sowings = 0
    for seeds in range(1, 8):
        for pits in an.compositions(seeds, 12):
            for pit in range(12):
                if pits[pit]:
                    laps, endless = an.sow_laps(pits, pit)
                    assert (laps, endless) == traced_laps(game, pits, pit), (pits, pit)
                    sowings += 1
    assert sowings == sum(an.exhaustive(n).pairs for n in range(1, 8)) == 222_768


def test_nine_seed_boards_pit_a():
    """All 75,582 nine-seed boards with seeds in a, pit a played, by the traced engine."""
    game = ms.get_game("ba-awa")
    stop = ms.get_game("ba-awa", endless="stop")
    endless = 0
    longest = 0
    for first in range(1, 10):
        for rest in an.compositions(9 - first, 11):
            pits = (first,) + rest
            laps, forever = an.sow_laps(pits, 0)
            if forever:
                endless += 1
                assert sowing_of(game, pits, 0) is None
                stopped = sowing_of(stop, pits, 0)
                assert stopped.events[-1].reason == "endless-stopped"
                assert sum(isinstance(e, EndOfLap) for e in stopped.events) == laps
            else:
                assert traced_laps(game, pits, 0) == (laps, False)
                longest = max(longest, laps)
    row = an.exhaustive(9)
    assert (row.endless, row.longest) == (12 * endless, longest)


def test_skip_origin_against_the_traced_engine():
    """skip_origin only matters for laps of twelve seeds or more: random boards
    of up to 48 seeds, every pit, both ways."""
    rng = random.Random(7)
    games = {skip: ms.get_game("ba-awa", skip_origin=skip) for skip in (False, True)}
    differ = 0
    for _ in range(300):
        total = rng.choice(range(12, 49, 4))
        cuts = sorted(rng.randrange(total + 1) for _ in range(11))
        pits = tuple(b - a for a, b in zip([0] + cuts, cuts + [total]))
        for pit in range(12):
            if pits[pit]:
                results = {skip: an.sow_laps(pits, pit, skip) for skip in (False, True)}
                for skip, (laps, endless) in results.items():
                    expected = traced_laps(games[skip], pits, pit)
                    assert (None if endless else laps, endless) == expected, (pits, pit, skip)
                differ += results[False] != results[True]
    assert differ > 0          # the option does change some sowings here


def test_turning_the_board_changes_nothing():
    """exhaustive() sows pit a only and counts twelve times: check the counts
    against sowing every pit of every board, up to six seeds and for 9 seeds'
    endless pairs."""
    for seeds in range(1, 7):
        every = [an.sow_laps(pits, pit) for pits in an.compositions(seeds, 12)
                 for pit in range(12) if pits[pit]]
        row = an.exhaustive(seeds)
        assert row.pairs == len(every)
        assert row.endless == sum(endless for _, endless in every)
        assert row.longest == max(laps for laps, endless in every if not endless)
    pits, pit = (0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 3, 1), 10     # an endless nine-seed sowing
    for turn in range(12):
        turned = pits[-turn:] + pits[:-turn] if turn else pits
        assert an.sow_laps(turned, (pit + turn) % 12) == an.sow_laps(pits, pit)


def test_exhaustive_with_processes_is_the_same():
    assert an.exhaustive(9, processes=2) == an.exhaustive(9)
    assert an.exhaustive(0).pairs == 0


# -- the quoted exhaustive table ----------------------------------------------------------


def quoted_table(marker: str) -> list[list[str]]:
    """The rows of the Markdown table that follows the comment ``% quoted: <marker>``
    on the analysis page (cells without backticks)."""
    text = PAGE.read_text(encoding="utf-8")
    match = re.search(rf"^% quoted: {re.escape(marker)}\s*$", text, re.M)
    assert match, f"no quoted table {marker!r} on {PAGE}"
    lines = text[match.end():].lstrip("\n").splitlines()
    rows = []
    for line in lines:
        if not line.startswith("|"):
            break
        rows.append([cell.strip().strip("`") for cell in line.strip().strip("|").split("|")])
    assert len(rows) > 2
    return rows[2:]     # header and rule left out


def number(text: str) -> int:
    return int(text.replace(",", ""))


def board(text: str) -> tuple[int, ...]:
    return tuple(int(x) for x in text.replace("/", ",").split(","))


def test_quoted_exhaustive_rows():
    rows = quoted_table("exhaustive")
    assert [number(row[0]) for row in rows] == an.exhaustive_seed_counts(number(rows[-1][0]))
    game = ms.get_game("ba-awa")
    for row in rows:
        seeds, boards, pairs, endless, longest, endless_skip, longest_skip, example, far = row
        seeds = number(seeds)
        assert number(boards) == math.comb(seeds + 11, 11)
        assert number(pairs) == 12 * math.comb(seeds + 10, 11)
        if seeds <= 10:           # recomputed
            for skip, (e, lap) in ((False, (endless, longest)),
                                   (True, (endless_skip, longest_skip))):
                result = an.exhaustive(seeds, skip)
                assert (result.endless, result.longest) == (number(e), number(lap))
            result = an.exhaustive(seeds)
            assert result.example == (None if example == "—" else board(example))
            assert result.longest_example == board(far)
        # every quoted board is replayed, however many seeds
        if example != "—":
            assert sum(board(example)) == seeds
            assert sowing_of(game, board(example), 0) is None, row
        else:
            assert number(endless) == 0
        assert sum(board(far)) == seeds
        assert traced_laps(game, board(far), 0) == (number(longest), False), row


def test_smallest_endless_counts():
    """The claims the page makes in words: nothing endless below nine seeds;
    nine seeds: 72 pairs; ten and eleven: none; twelve: 120."""
    rows = {number(row[0]): number(row[3]) for row in quoted_table("exhaustive")}
    assert [n for n in sorted(rows) if rows[n]][:2] == [9, 12]
    assert rows[9] == 72 and rows[12] == 120
    assert an.exhaustive(9).endless == 72


# -- policies ------------------------------------------------------------------------------


def traced_margin(pos, pit) -> int:
    after = pos.play(pit)
    mover = pos.to_move
    return ((after.captured[mover] - pos.captured[mover])
            - (after.captured[1 - mover] - pos.captured[1 - mover]))


def test_greedy_picks_the_largest_capture_margin():
    """Over positions of random games, under every option set: greedy_moves is
    exactly the set of moves whose traced capture margin is largest."""
    checked = ties = 0
    for config in an.CONFIGS:
        game = ms.get_game("ba-awa", **an.CONFIGS[config])
        fast = FastGame(game)
        rng = random.Random(config)
        for _ in range(15):
            state = fast.start()
            while not fast.is_over(state):
                pos = fast.to_position(state)
                margins = {pit: traced_margin(pos, pit) for pit in pos.legal_moves()}
                best = max(margins.values())
                expected = [pit for pit, margin in margins.items() if margin == best]
                assert an.greedy_moves(fast, state) == expected, pos
                assert an.choose("greedy", fast, state, random.Random(1)) in expected
                checked += 1
                ties += len(expected) > 1
                state = fast.play(state, rng.choice(fast.legal_moves(state)))
    assert checked > 500 and ties > 0


def test_greedy_takes_a_capture_when_there_is_one():
    # South's c (3 seeds) ends its lap in f, which holds 3: the mover's four.
    game = ms.get_game("ba-awa")
    pos = game.position([0, 0, 3, 0, 0, 3, 5, 5, 5, 5, 5, 9], to_move=0, captured=[4, 4])
    fast, state = FastGame.for_position(pos)
    margins = {pit: traced_margin(pos, pit) for pit in pos.legal_moves()}
    assert margins[2] == max(margins.values()) > 0
    assert 2 in an.greedy_moves(fast, state)
    with pytest.raises(ValueError):
        an.choose("clever", fast, state, random.Random(0))


# -- runs ------------------------------------------------------------------------------------


def test_runs_are_reproducible_and_split_freely():
    one = an.play_games("default", "random", 60, seed=11)
    assert an.play_games("default", "random", 60, seed=11) == one
    split = an.play_games("default", "random", 25, seed=11)
    split.merge(an.play_games("default", "random", 35, seed=11, first=25))
    split.games = 60
    assert split == one
    assert an.play_games("default", "random", 60, seed=11, processes=2) == one
    assert an.play_games("default", "random", 60, seed=12) != one
    greedy = an.play_games("skip_origin", "greedy", 20, seed=3)
    assert an.play_games("skip_origin", "greedy", 20, seed=3) == greedy
    assert sum(one.outcomes.values()) == 60 == sum(one.end_reasons.values())


def test_run_counts_against_the_traced_engine():
    """Replay a short run's games with the traced engine: the outcomes, the
    moves and the endless positions agree."""
    result = an.play_games("default", "random", **ENDLESS_WINDOW)
    game = ms.get_game("ba-awa")
    fast = FastGame(game)
    outcomes, moves, endless_positions = {"opener": 0, "draw": 0, "second": 0}, 0, 0
    first = ENDLESS_WINDOW["first"]
    for number in range(first, first + ENDLESS_WINDOW["games"]):
        rng = an.game_rng(ENDLESS_WINDOW["seed"], number)
        state, pos = fast.start(), game.start()
        while not pos.is_over:
            own = [p for p in range(12) if pos.owners[p] == pos.to_move and pos.pits[p]]
            endless_positions += any(pos.game.sow_move(pos, p).endless for p in own)
            pit = an.choose("random", fast, state, rng)
            state, pos = fast.play(state, pit), pos.play(pit)
            moves += 1
        winner = pos.winner
        outcomes["draw" if winner is None else "opener" if winner == 0 else "second"] += 1
    assert dict(result.outcomes) == {k: v for k, v in outcomes.items() if v}
    assert (result.moves, result.endless_positions) == (moves, endless_positions)
    assert endless_positions > 0


def test_count_endings_counts_random_games_in_batches():
    games = an.ENDING_BATCH + 5_000                    # a whole batch and part of one
    endings = an.count_endings("default", "random", games, seed=2026)
    assert sum(endings.reasons.values()) == games
    assert an.count_endings("default", "random", games, seed=2026, processes=2) == endings
    # game k is game k % ENDING_BATCH of batch k // ENDING_BATCH, whatever the count
    first = an.count_endings("default", "random", an.ENDING_BATCH, seed=2026)
    second = an.ending_batch("default", 2026, 1)
    rest = Counter(second.outcome(i).reason for i in range(5_000))
    assert first.reasons + rest == endings.reasons
    # and each game is a game of the rules: the one-game kernel, playing its
    # moves, finds each move legal and ends it the same way at the same move
    fast = FastGame(ms.get_game("ba-awa"))
    for index in range(300):
        state = fast.start()
        for pit in second.record(index):
            assert not fast.is_over(state) and pit in fast.legal_moves(state)
            state = fast.play(state, pit)
        assert fast.outcome(state) == second.outcome(index)
    with pytest.raises(MancalaError):
        an.count_endings("default", "random", 80, seed=2026, known=an.play_games(
            "default", "random", 30, seed=2026))


def test_count_endings_plays_the_same_greedy_games():
    endings = an.count_endings("default", "greedy", 40, seed=2026)
    assert endings.reasons == an.play_games("default", "greedy", 40, seed=2026).end_reasons
    assert an.count_endings("default", "greedy", 40, seed=2026, processes=2) == endings
    # the first 15 games known from a play_games run: only the other 25 are played
    known = an.play_games("default", "greedy", 15, seed=2026)
    assert an.count_endings("default", "greedy", 40, seed=2026, known=known) == endings
    with pytest.raises(MancalaError):
        an.count_endings("default", "greedy", 40, seed=2027, known=known)


# Games 2630 to 2649 of seed 2026 include the first (game 2641) that meets a
# position with an endless pit.
ENDLESS_WINDOW = {"games": 20, "seed": 2026, "first": 2630}


def test_endless_moves_are_played_only_when_legal():
    illegal = an.play_games("default", "random", **ENDLESS_WINDOW)
    stop = an.play_games("endless-stop", "random", **ENDLESS_WINDOW)
    assert illegal.endless_positions > 0 and stop.endless_positions > 0
    assert illegal.endless_played == 0


# -- recurrence --------------------------------------------------------------------------------


def test_found_recurrences_end_games_by_repetition():
    game = ms.get_game("ba-awa")
    fast = FastGame(game)
    assert an.find_recurrence(fast, fast.start()) is False      # 48 seeds: none can follow
    found = 0
    for number in range(6):
        rng = an.game_rng(2026, number)
        state, played = fast.start(), []
        while not fast.is_over(state) and found <= number:
            moves = an.find_recurrence(fast, state, budget=800)
            if moves:
                found += 1
                pos = fast.to_position(state)
                for pit in moves[:-1]:
                    pos = pos.play(pit)
                    assert not pos.is_over
                assert pos.trace(moves[-1]).events[-1].reason == "repetition"
                rep = an.describe_repetition("default", played + moves)
                assert rep.reason == "repetition" and rep.seeds == sum(state[0])
                assert 0 < rep.cycle <= len(played + moves)
            pit = an.choose("random", fast, state, rng)
            played.append(pit)
            state = fast.play(state, pit)
    assert found >= 1


def test_quoted_repetition_games():
    rows = quoted_table("repetitions")
    assert rows
    for row in rows:
        label, policy, game_number, moves, seeds, cycle, recurring, reason = row
        config = next(c for c in an.CONFIGS if an.label(c).strip("`") == label)
        game = ms.get_game("ba-awa", **an.CONFIGS[config])
        pits = [game.board.pit(name) for name in moves.split()]
        rep = an.describe_repetition(config, pits)
        assert (rep.seeds, rep.cycle, rep.recurring, rep.reason) == (
            number(seeds), number(cycle), recurring, "repetition")
        # and it is the game that run played: same seed, same game number
        assert policy == "random"
        batch, index = divmod(int(game_number), an.ENDING_BATCH)
        played = an.ending_batch(config, an.FULL["seed"], batch)
        assert played.record(index) == tuple(pits)
        assert played.outcome(index).reason == "repetition"


def test_recurrence_search_counts():
    result = an.recurrence_search("default", games=2, seed=2026, budget=500)
    assert result.none[48] >= 2 and result.found[48] == 0   # the start: no way round
    total = sum(result.found.values()) + sum(result.none.values()) + sum(
        result.undecided.values())
    assert total == an.play_games("default", "random", 2, 2026).positions
    assert an.recurrence_search("default", 2, 2026, 500, processes=2) == result


# -- the quoted large run ----------------------------------------------------------------


def interval(text: str) -> tuple[float, float]:
    low, high = re.search(r"\(([\d.]+)–([\d.]+)\)", text).groups()
    return float(low) / 100, float(high) / 100


Z999 = 3.2905267314919255      # two-sided 99.9 %


def test_quoted_opener_results_agree_with_a_small_rerun():
    """A rerun of 400 random games per option set (the first 400 of the quoted
    run) and 100 greedy ones: each outcome's 99.9 % interval overlaps the quoted
    95 % one (a wrong quoted share fails; so would one rerun in a thousand by
    chance, and the rerun is fixed, so it either fails always or never)."""
    rows = quoted_table("opener")
    seen = set()
    for row in rows:
        label, policy, games, opener, draws, second, _moves = row
        config = next(c for c in an.CONFIGS if an.label(c).strip("`") == label)
        if policy != "random":
            continue
        seen.add(config)
        small = an.play_games(config, "random", 400, an.FULL["seed"])
        for key, text in (("opener", opener), ("draw", draws), ("second", second)):
            low, high = an.wilson(small.outcomes[key], 400, Z999)
            q_low, q_high = interval(text)
            assert low <= q_high and q_low <= high, (config, key)
    assert seen == set(an.CONFIGS)
    for row in rows:                       # the greedy rows: 100 games each
        label, policy, games, opener, draws, second, _moves = row
        if policy == "greedy":
            config = next(c for c in an.CONFIGS if an.label(c).strip("`") == label)
            small = an.play_games(config, "greedy", 100, an.FULL["seed"])
            low, high = an.wilson(small.outcomes["opener"], 100, Z999)
            q_low, q_high = interval(opener)
            assert low <= q_high and q_low <= high, (config, "greedy")


def test_quoted_longest_moves_replay():
    """Each quoted longest move takes the quoted number of laps in the traced
    engine, and is a legal move of the position (which holds no history)."""
    rows = quoted_table("longest")
    assert len(rows) == 2 * len(an.CONFIGS)
    for label, policy, laps, _number, text, pit in rows:
        config = next(c for c in an.CONFIGS if an.label(c).strip("`") == label)
        pos = ms.get_game("ba-awa", **an.CONFIGS[config]).parse(text)
        trace = pos.trace(pit)
        assert trace.laps == number(laps), (label, policy)


def test_quoted_in_play_longest_agrees_with_exhaustive():
    """No finite move met in play is longer than the exhaustive maximum for its
    seed count (checked for the quoted examples, whose seed counts are listed)."""
    exhaustive = {number(row[0]): number(row[4]) for row in quoted_table("exhaustive")}
    for _label, _policy, laps, _number, text, _pit in quoted_table("longest"):
        seeds = sum(board(text.split()[0]))
        if seeds in exhaustive:
            assert number(laps) <= exhaustive[seeds]


# -- the Sphinx directives -------------------------------------------------------------


def test_directives_build_a_page(tmp_path):
    (tmp_path / "conf.py").write_text(
        f"import sys; sys.path.insert(0, {str(ROOT)!r})\n"
        "extensions = ['myst_parser', 'mancala_spec.sphinx.analysis']\n"
        "source_suffix = {'.md': 'markdown'}\n", encoding="utf-8")
    (tmp_path / "index.md").write_text(
        "# Test\n\n"
        "```{analysis-table} opener\n:games: 30\n:greedy-games: 6\n:seed: 4\n"
        ":caption: Small run\n```\n\n"
        "```{analysis-table} exhaustive\n:max-seeds: 5\n```\n\n"
        "```{analysis-figure} opener\n:games: 30\n:greedy-games: 6\n:seed: 4\n"
        ":caption: The figure\n```\n", encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "sphinx", "-b", "html", "-W", "-q", str(tmp_path),
         str(tmp_path / "out")], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    html = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    table = an.opener_table(30, 6, 4)
    assert "Small run" in html and "The figure" in html
    assert table[1][0][3].split(" ")[0] in html          # the computed share
    assert "skip_origin=True)" in html and "no_move='owners')" in html
    assert html.count("<table") == 2
    assert list((tmp_path / "out" / "_images").glob("opener-*.png"))


def test_the_command_line_runs_and_refuses_bad_sizes():
    small = ["--games", "8", "--greedy-games", "4", "--max-seeds", "2", "--ending-games", "0",
             "--recurrence-games", "0", "--processes", "1"]
    done = subprocess.run([sys.executable, "-m", "mancala_spec.analysis", *small],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0 and done.stderr == ""
    assert "## The opener's results (seed 2026)" in done.stdout
    bad = subprocess.run([sys.executable, "-m", "mancala_spec.analysis", "--games", "0"],
                         capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert bad.returncode == 2 and "must be from 1 to 10,000,000, not 0" in bad.stderr
    assert "Traceback" not in bad.stderr
