"""Issue 21: captured counts that play cannot reach (Ba-awa counts not of
fours, odd Bakuk counts) are refused wherever a position is built from a user's
values (Game.position, Game.parse, Position(game, text), the command line, the
conformance runner's suites, solve), naming the field, unless
allow_unreachable=True says the board is built outside play on purpose; and
every position random play reaches, under every option (other programs'
readings, Koumma, three players, match play), passes the check."""
from __future__ import annotations

import itertools
import json
import pickle
import random
import re
import subprocess
import sys

import pytest

import mancala_spec as ms
from mancala_spec.options import game_options

BA_AWA = ms.get_game("ba-awa")
BAKUK = ms.get_game("bakuk")


def check_reachable(pos):
    """The check of *pos*'s captured counts, by its own game."""
    return pos.game.check_reachable(pos)
EMPTY_BA_AWA = "0,0,0,0,0,0/0,0,0,0,0,0"


def refused(game, text, **options):
    """The error for *text*: Game.parse refuses it, and check_reachable refuses
    it built with allow_unreachable, with the same message."""
    variant = ms.get_game(game, **options)
    with pytest.raises(ms.InvalidPositionError) as info:
        variant.parse(text)
    assert info.value.field == "captured"
    with pytest.raises(ms.InvalidPositionError) as checked:
        check_reachable(variant.parse(text, allow_unreachable=True))
    assert checked.value.field == "captured" and checked.value.message == info.value.message
    return info.value


@pytest.mark.parametrize("game, text, options", [
    ("ba-awa", "2,2,2,2,2,1/0,2,2,2,2,2 S 13-14", {}),      # seeds on the board: fours only
    ("ba-awa", "2,2,2,2,2,2/0,2,2,2,2,2 S 14-12", {}),
    ("ba-awa", "2,2,2,2,2,2/0,2,2,2,2,2 S 14-12", {"no_move": "owners"}),
    ("ba-awa", "2,2,2,2,2,2/0,2,2,2,2,2 S 14-12", {"endless": "cap-75"}),
    ("ba-awa", EMPTY_BA_AWA + " S 47-1", {}),                # the opener takes the end's seeds
    ("ba-awa", EMPTY_BA_AWA + " S 1-47 opener=N", {}),
    ("ba-awa", EMPTY_BA_AWA + " S 45-3", {"repetition": "play-on"}),
    ("ba-awa", EMPTY_BA_AWA + " S 45-3", {"decided": True}),
    ("ba-awa", EMPTY_BA_AWA + " S 12-17-19", {"players": 3}),
    ("bakuk", "0,0,0/1,0,0 S 20-15", {}),                     # odd counts: never
    ("bakuk", "0,0,0/2,0,0 S 21-13", {"sixes": True, "first_counter": "origin"}),   # Koumma
    ("bakuk", "0,0,0/2,0,0 N 21-13", {"leftovers": "owners", "no_move": "pass"}),
    ("bakuk", "0,0,0/0,0,0 S 21-15", {}),
    ("bakuk", "0,0,0/0,0,0 S 11-12-13", {"players": 3}),
])
def test_unreachable_counts_are_refused(game, text, options):
    error = refused(game, text, **options)
    assert "which play cannot reach" in error.message


@pytest.mark.parametrize("game, text, options", [
    ("ba-awa", "2,2,2,2,2,2/0,2,2,2,2,0 S 12-16", {}),
    ("ba-awa", EMPTY_BA_AWA + " S 47-1 opener=N", {"no_move": "owners"}),   # an owner's take
    ("ba-awa", EMPTY_BA_AWA + " S 20-28", {}),
    ("ba-awa", EMPTY_BA_AWA + " S 45-3", {"no_move": "empty-row"}),
    ("ba-awa", EMPTY_BA_AWA + " S 21-27", {"endless": "cap-75"}),
    ("ba-awa", EMPTY_BA_AWA + " S 13-16-19 opener=E", {"players": 3, "no_move": "owners"}),
    ("bakuk", "0,0,0/2,0,0 S 20-14", {}),
    ("bakuk", "0,0,0/0,0,0 S 21-15", {"leftovers": "owners"}),
    ("bakuk", "0,0,0/2,0,0 S 22-12", {"sixes": True, "first_counter": "origin"}),
])
def test_reachable_counts_pass(game, text, options):
    pos = ms.get_game(game, **options).parse(text)
    assert check_reachable(pos) is pos


def test_the_takers_of_an_ending_follow_the_options():
    owners = BA_AWA.board.row_owners
    assert BA_AWA.end_takers(1, owners) == {1}
    assert ms.get_game("ba-awa", no_move="owners").end_takers(0, (0,) * 12) == {0}
    assert ms.get_game("ba-awa", no_move="owners").end_takers(0, owners) == {0, 1}
    assert BAKUK.end_takers(0, BAKUK.board.row_owners) == set()
    assert ms.get_game("bakuk", leftovers="owners").end_takers(0, (1,) * 6) == {1}


def every_game(name):
    """Every game of *name* that get_game accepts: each combination of its options."""
    options = game_options(name)
    for values in itertools.product(*(option.choices for option in options)):
        try:
            yield ms.get_game(name, **{o.name: v for o, v in zip(options, values)})
        except ms.OptionError:
            continue


def random_positions(start, rng, cap=400):
    pos = start
    yield pos
    for _ in range(cap):
        if pos.is_over:
            return
        pos = pos.play(rng.choice(pos.legal_moves()))
        yield pos


@pytest.mark.parametrize("name", ["ba-awa", "bakuk"])
def test_every_position_random_play_reaches_passes_under_every_option(name):
    rng = random.Random(21)
    games = list(every_game(name))
    assert len(games) > 20
    finished = 0
    for game in games:
        for opener in range(game.players):
            for pos in random_positions(game.start(opener), rng):
                check_reachable(pos)
            finished += pos.is_over
    assert finished > len(games)       # most games were played to their end


def test_every_position_of_random_matches_passes():
    rng = random.Random(4)
    for game, settings in [(BA_AWA, {}), (ms.get_game("ba-awa", players=3), {}),
                           (ms.get_game("ba-awa", no_move="owners"),
                            {"allocation": "consecutive"})]:
        match = ms.Match(game, target=10, **settings)
        for _ in range(3000):
            if match.is_over:
                break
            if match.game_over:
                match = match.next_game()
            check_reachable(match.position)
            match = match.play(rng.choice(match.position.legal_moves()))
        check_reachable(match.position)


def test_every_example_gallery_figure_and_conformance_case_starts_where_play_can_reach():
    """What the reader meets starts from a position some game reaches: the rules
    pages' examples, the shipped conformance suite (examples, derived and
    supplementary cases, and those of the readings studies) and the gallery's
    scripts. Twenty-six examples and the readings studies' positions once did
    not (docs/changelog.md lists them). Game.parse now refuses them; this checks
    them with check_reachable too, on positions built with allow_unreachable,
    so that the test says what it checks even if parse's default changed."""
    from pathlib import Path

    from mancala_spec.conformance import extract_examples, packaged_suite

    root = Path(__file__).resolve().parents[2]
    seen = 0
    for example in extract_examples(root / "docs"):
        for play in example.plays:
            if play.start:
                game = ms.get_game(play.case.game, **dict(play.case.options))
                check_reachable(game.parse(play.start, allow_unreachable=True))
                seen += 1
    assert seen > 50
    cases = packaged_suite()["cases"]
    readings = 0
    for case in cases:
        game = ms.get_game(case["game"], ruleset=case["ruleset"], **case["options"])
        check_reachable(game.parse(case["position"]["text"], allow_unreachable=True))
        readings += case["where"].startswith("readings-compared.html")
    assert len(cases) > 150 and readings > 20
    literal = re.compile(r'parse\("([^"]+)"\)')
    scripts = sorted((root / "gallery").glob("plot_*.py"))
    found = 0
    for script in scripts:
        for text in literal.findall(script.read_text("utf-8")):
            game = ms.get_game("bakuk" if text.count(",") == 4 else "ba-awa")
            check_reachable(game.parse(text, allow_unreachable=True))
            found += 1
    assert found >= 4


# -- refused where positions are built; allowed when asked -------------------------------

MID_BA_AWA = ([2, 2, 2, 2, 2, 1, 0, 2, 2, 2, 2, 2], (13, 14))     # 21 on the board
ODD_BAKUK = ([0, 0, 0, 1, 0, 0], (20, 15))


@pytest.mark.parametrize("game, pits, captured", [("ba-awa", *MID_BA_AWA),
                                                  ("bakuk", *ODD_BAKUK)])
def test_every_way_of_building_a_position_refuses_unreachable_counts(game, pits, captured):
    variant = ms.get_game(game)
    text = variant.position(pits, captured=captured, allow_unreachable=True).to_text()
    builds = [lambda: variant.position(pits, captured=captured),
              lambda: variant.parse(text),
              lambda: ms.Position(variant, text),
              lambda: ms.Position(variant, text, allow_unreachable=False)]
    for build in builds:
        with pytest.raises(ms.InvalidPositionError, match="which play cannot reach") as info:
            build()
        assert info.value.field == "captured"
        assert "\n" not in str(info.value)                   # one line


def test_the_end_takers_may_hold_any_count_once_the_board_is_empty():
    # By default only the opener takes the seeds that end a game, so the other
    # count is still whole fours (and with 48 in all, so is the opener's)
    with pytest.raises(ms.InvalidPositionError, match="South has captured 47"):
        BA_AWA.parse(EMPTY_BA_AWA + " S 47-1 opener=N")
    # under rulesets whose endings let the owners, or either player, take
    for ruleset in ("mancalagames", "everyboard"):
        game = ms.get_game("ba-awa", ruleset=ruleset)
        assert game.parse(EMPTY_BA_AWA + " S 47-1 opener=N").is_over
    # Bakuk takes no leftovers by default; with leftovers="owners" each owner does
    with pytest.raises(ms.InvalidPositionError, match="which play cannot reach"):
        BAKUK.parse("0,0,0/0,0,0 S 21-15")
    assert ms.get_game("bakuk", leftovers="owners").parse("0,0,0/0,0,0 S 21-15").is_over


def test_the_default_captured_counts_are_reachable():
    # 36 missing: 18-18 would be unreachable; the default gives fours, South first
    pos = BA_AWA.position([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1])
    assert pos.captured == (20, 16)
    assert BAKUK.position([1, 1, 1, 1, 1, 1]).captured == (16, 14)
    assert ms.get_game("ba-awa", players=3).position([1] * 12).captured == (12, 12, 12)
    with pytest.raises(ms.InvalidPositionError, match="give captured= explicitly") as info:
        BAKUK.position([0, 0, 0, 1, 0, 0])                    # 35 missing: no split
    assert "35 are off it, not a multiple of 2" in info.value.message
    assert info.value.field == "captured"


@pytest.mark.parametrize("game, pits, captured", [("ba-awa", *MID_BA_AWA),
                                                  ("bakuk", *ODD_BAKUK)])
def test_allow_unreachable_accepts_and_its_repr_pastes_back(game, pits, captured):
    from mancala_spec import Position, get_game  # noqa: F401  (what the repr names)

    variant = ms.get_game(game)
    pos = variant.position(pits, captured=captured, allow_unreachable=True)
    assert pos.captured == captured and not pos.reachable
    text = repr(pos)
    assert text.endswith(", allow_unreachable=True)")
    assert eval(text) == pos                                   # pasted back
    assert variant.parse(pos.to_text(), allow_unreachable=True) == pos
    assert pickle.loads(pickle.dumps(pos)) == pos
    # still conserved, still checked otherwise
    with pytest.raises(ms.InvalidPositionError, match="not conserved"):
        variant.position(pits, captured=(captured[0] + 1, captured[1]), allow_unreachable=True)
    # only True allows: a truthy "no" or 1 is a mistake, not a yes
    for given in ("no", 1, None):
        with pytest.raises(ms.OptionError) as info:
            variant.position(pits, captured=captured, allow_unreachable=given)
        assert (info.value.option, info.value.value) == ("allow_unreachable", given)
    # a reachable position's repr is unchanged
    start = variant.start()
    assert start.reachable and repr(start) == f"Position({variant!r}, {start.to_text()!r})"


def test_play_goes_on_from_an_allowed_unreachable_position():
    from mancala_spec.fast import FastGame

    pos = BA_AWA.position(*MID_BA_AWA[:1], captured=MID_BA_AWA[1], allow_unreachable=True)
    after = pos.play(pos.legal_moves()[0])
    assert sum(after.pits) + sum(after.captured) == 48
    assert not after.reachable and "allow_unreachable=True" in repr(after)   # it carries it
    fast, state = FastGame.for_position(pos)
    played = fast.play(state, pos.legal_moves()[0])
    assert fast.to_position(played, allow_unreachable=True) == after
    with pytest.raises(ms.InvalidPositionError, match="which play cannot reach"):
        fast.to_position(played)
    bakuk = BAKUK.position(ODD_BAKUK[0], to_move=1, captured=ODD_BAKUK[1],
                           allow_unreachable=True)
    assert bakuk.play("A").is_over       # North sows its one counter; South has none


def test_the_command_line_refuses_an_unreachable_position_in_one_line():
    for argv in (["show", "bakuk", "0,0,0/1,0,0 S 20-15"],
                 ["diagram", "2,2,2,2,2,1/0,2,2,2,2,2 S 13-14", "a", "-o", "x.svg"]):
        result = subprocess.run([sys.executable, "-m", "mancala_spec", *argv],
                                capture_output=True, text=True, timeout=120)
        assert result.returncode == 2, result
        lines = result.stderr.splitlines()
        assert len(lines) == 1 and result.stdout == ""
        assert lines[0].startswith(f"mancala-spec {argv[0]}: error: ")
        assert "which play cannot reach" in lines[0] and "Traceback" not in result.stderr


def test_the_conformance_runner_refuses_a_suite_case_play_cannot_reach(tmp_path):
    from mancala_spec.conformance import packaged_suite
    from mancala_spec.conformance.runner import run
    from mancala_spec.errors import SuiteError

    suite = packaged_suite()
    index = next(i for i, case in enumerate(suite["cases"])
                 if case["game"] == "bakuk" and case["position"]["fields"]["captured"] == [0, 0])
    case = suite["cases"][index]
    fields = case["position"]["fields"]
    fields["pits"][0] -= 1                       # one counter off the board: odd captures
    fields["captured"] = [1, 0]
    with pytest.raises(SuiteError) as info:
        run([sys.executable, "-c", "pass"], suite)
    assert info.value.path == f"$.cases[{index}].position.fields.captured"
    assert "which play cannot reach" in str(info.value)
    target = tmp_path / "suite.json"
    target.write_text(json.dumps(suite), "utf-8")
    engine = f'"{sys.executable}" -m mancala_spec.conformance.engine'
    result = subprocess.run([sys.executable, "-m", "mancala_spec", "conformance", "run",
                             "--engine", engine, "--suite", str(target), "--no-progress"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 2                # a malformed suite (docs/conformance.md)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and "position.fields.captured" in lines[0], result.stderr
    assert case["id"] in lines[0]
