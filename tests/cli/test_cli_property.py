"""Property tests of the command line over arguments, positions and game records:
never a traceback, always an exit status from the documented table, always
finished in bounded time (an alarm in process, a timeout for subprocesses)."""
from __future__ import annotations

import contextlib
import io
import signal
import subprocess
import sys

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mancala_spec as ms
from mancala_spec import cli
from mancala_spec.cli import EXIT_STATUSES

STATUSES = {status.code for status in EXIT_STATUSES}
GAMES = st.sampled_from(["ba-awa", "bakuk", "anenam", "Nam-Nam", "BAKUK", "chess", "", "-x"])
RULES = st.sampled_from([rule.id for rule in ms.load_catalogue()]) | st.text(max_size=20)
LETTERS = st.sampled_from(list("abcdefABCDEF") + ["", " ", "z", "0", "aa"])


@st.composite
def positions(draw):
    """Position text: well-formed, nearly well-formed, or junk."""
    kind = draw(st.integers(0, 2))
    if kind == 0:
        game = ms.get_game(draw(st.sampled_from(["ba-awa", "bakuk"])))
        pos = game.start()
        for _ in range(draw(st.integers(0, 12))):
            if pos.is_over:
                break
            pos = pos.play(draw(st.sampled_from(pos.legal_moves())))
        return pos.to_text()
    if kind == 1:
        n = draw(st.sampled_from([3, 6, 2, 7]))
        counts = st.one_of(st.integers(0, 40), st.integers(-5, 10 ** 30))
        rows = [",".join(map(str, draw(st.lists(counts, min_size=n, max_size=n))))
                for _ in range(2)]
        side = draw(st.sampled_from(["S", "N", "E", "x", ""]))
        score = draw(st.sampled_from(["0-0", "12-4", "1-2-3", "-", "a-b"]))
        extra = draw(st.sampled_from(["", " opener=S", " opener=N", " seen=", " owners=SSN"]))
        return f"{rows[0]}/{rows[1]} {side} {score}{extra}"
    return draw(st.text(max_size=60))


@st.composite
def records(draw):
    """Game-record text: a real game's record, mangled or not, or junk."""
    game = ms.get_game(draw(st.sampled_from(["ba-awa", "bakuk"])))
    pos, moves = game.start(), []
    for _ in range(draw(st.integers(0, 15))):
        if pos.is_over:
            break
        pit = draw(st.sampled_from(pos.legal_moves()))
        moves.append(pit)
        pos = pos.play(pit)
    text = ms.format_game(game.start(), moves)
    mangle = draw(st.integers(0, 4))
    if mangle == 1 and text:
        cut = draw(st.integers(0, len(text)))
        text = text[:cut]
    elif mangle == 2:
        text = text.replace("moves:", draw(st.sampled_from(["moves: 1.", "move:", "moves: zz"])))
    elif mangle == 3:
        text = draw(st.text(max_size=80))
    elif mangle == 4:
        text = "\ufeff" + text
    return text


def argvs():
    return st.one_of(
        st.tuples(st.just("show"), GAMES, positions()).map(list),
        st.tuples(st.just("rules"), RULES).map(list),
        st.tuples(st.just("rules"), st.just("--game"), GAMES).map(list),
        st.tuples(st.just("cite"), RULES).map(list),
        st.tuples(st.just("show"), GAMES, st.just("-O"), st.text(max_size=20)).map(list),
        st.tuples(st.just("solve"), GAMES, st.just("--pits-per-row"),
                  st.integers(-1, 3).map(str), st.just("--seeds-per-pit"),
                  st.sampled_from(["0", "1", "2", "15", "x"]), st.just("--no-progress")).map(list),
        st.lists(st.text(max_size=12), max_size=4),
    )


class Hung(Exception):
    pass


def _alarm(signum, frame):
    raise Hung()


def call(argv: list[str], stdin: bytes = b"") -> tuple[int, str]:
    """Run ``cli.main(argv)`` in process; return (status, stderr). Fails if it
    takes more than 20 s (SIGALRM), prints a traceback or an undocumented status."""
    out, err = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(20)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = cli.main(argv)
            except SystemExit as exit_:       # argparse: --help, usage errors
                status = exit_.code if isinstance(exit_.code, int) else 2
    except Hung:
        raise AssertionError(f"mancala-spec {argv} took more than 20 s") from None
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
        sys.stdin = old_stdin
    text = err.getvalue()
    assert "Traceback" not in text, (argv, text)
    assert status in STATUSES, (argv, status, text)
    if status not in (0, 1):
        assert len(text.strip().splitlines()) <= 1, (argv, text)
    return status, text


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(argvs())
def test_any_arguments(argv):
    call(argv)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(records(), st.booleans())
def test_any_game_record(text, as_bytes):
    data = text.encode("utf-8")
    if as_bytes:
        data = data.replace(b"a", b"\xff", 1)
    status, err = call(["replay", "-"], stdin=data)
    assert status in (0, 2)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(GAMES, st.sampled_from(["south", "north"]),
       st.lists(st.one_of(LETTERS, st.sampled_from(["undo", "help", "quit", "?"])),
                max_size=40))
def test_any_play_session(game, seat, lines):
    status, err = call(["play", game, "--as", seat, "--seed", "1"],
                       stdin=("\n".join(lines) + "\n").encode())
    assert status in (0, 1, 2)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(argvs())
def test_any_arguments_through_the_real_command(argv):
    argv = [a.replace("\x00", "") for a in argv]
    result = subprocess.run([sys.executable, "-m", "mancala_spec", *argv],
                            capture_output=True, text=True, errors="replace",
                            stdin=subprocess.DEVNULL, timeout=60)
    assert "Traceback" not in result.stderr
    assert result.returncode in STATUSES
