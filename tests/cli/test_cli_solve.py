"""``mancala-spec solve`` and ``mancala-spec --version``."""
from __future__ import annotations

import io
import re
import subprocess
import sys

import pytest

import mancala_spec as ms
from mancala_spec.cli import COMMANDS, ProgressBar, main


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_version(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out.strip() == f"mancala-spec {ms.__version__}"


def test_solve_a_board_small_enough_to_check_by_hand(capsys):
    """Two holes a row, three counters each, chain backward: either opening move
    takes all twelve counters (see the docstring of mancala_spec.solve)."""
    status, out, err = run(capsys, "solve", "bakuk", "--pits-per-row", "2",
                           "--seeds-per-pit", "3", "--chain", "backward", "--no-progress")
    assert status == 0 and err == ""
    assert "chain=backward" in out
    assert "positions reachable from the start: 1\n" in out
    assert "value of the opening, South to move: +12\n" in out
    assert re.search(r"^  a  \+12   best$", out, re.M)
    assert re.search(r"^  b  \+12   best$", out, re.M)


def test_options_reach_the_solver(capsys):
    outputs = {}
    for extra in ([], ["--chain", "backward"], ["--leftovers", "owners"], ["--no-move", "pass"],
                  ["--skip-origin"]):
        status, out, _ = run(capsys, "solve", "bakuk", "--pits-per-row", "2",
                             "--seeds-per-pit", "2", "--no-progress", *extra)
        assert status == 0
        outputs[" ".join(extra)] = out.splitlines()[0]
    assert outputs[""].startswith("Bakuk (skip_origin=False, chain=forward, no_move=end, "
                                  "leftovers=unscored")
    assert "chain=backward" in outputs["--chain backward"]
    assert "leftovers=owners" in outputs["--leftovers owners"]
    assert "no_move=pass" in outputs["--no-move pass"]
    assert "skip_origin=True" in outputs["--skip-origin"]


@pytest.mark.parametrize("argv, message", [
    (["solve", "ba-awa", "--players", "3"], "three players are out of scope"),
    (["solve", "chess"], "unknown game 'chess'"),
    (["solve", "bakuk", "--pits-per-row", "0", "--no-progress"], "at least 1"),
])
def test_errors_are_messages_with_status_2(capsys, argv, message):
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert message in err and "Traceback" not in err
    assert err.startswith("mancala-spec solve: error:")


@pytest.mark.parametrize("argv", [["solve", "bakuk", "--chain", "sideways"], ["frobnicate"]])
def test_bad_arguments_exit_2(capsys, argv):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    assert "error:" in capsys.readouterr().err


def test_no_command_prints_help(capsys):
    status, out, err = run(capsys)
    assert status == 2 and "solve" in err


def test_commands_are_registered():
    assert "solve" in COMMANDS


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_on_a_terminal():
    stream = Terminal()
    bar = ProgressBar(stream, width=10, every=0)
    bar("enumerating", 5, None)
    bar("enumerating", 9, 9)
    bar("solving", 3, 6)
    bar("solving", 6, 6)
    bar.close()
    text = stream.getvalue()
    assert "\rsolving      [#####-----]  50.0%  3/6" in text
    assert "\rsolving      [##########] 100.0%  6/6\n" in text
    assert "enumerating  [##########] 100.0%  9/9\n" in text
    assert text.endswith("\n")


def test_progress_bar_elsewhere_writes_a_line_a_phase():
    stream = io.StringIO()
    bar = ProgressBar(stream, every=0)
    for done in range(1, 4):
        bar("solving", done, 3)
    bar.close()
    assert stream.getvalue() == "solving      [" + "#" * 30 + "] 100.0%  3/3\n"


def test_the_full_solve_from_the_command_line():
    """``mancala-spec solve bakuk`` (as ``python -m mancala_spec.cli``): it runs to
    the end, shows its progress on stderr, and its opening value is that of its
    best first move."""
    done = subprocess.run([sys.executable, "-m", "mancala_spec.cli", "solve", "bakuk"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "solving" in done.stderr and "100.0%" in done.stderr
    out = done.stdout
    count = int(re.search(r"positions reachable from the start: ([\d,]+)", out)[1]
                .replace(",", ""))
    assert count > 1_000_000
    opening = int(re.search(r"value of the opening, South to move: ([+-]\d+)", out)[1])
    first = {name: int(value) for name, value in re.findall(r"^  ([abc])  ([+-]\d+)", out, re.M)}
    assert sorted(first) == ["a", "b", "c"]
    assert opening == max(first.values())


def test_the_flags_are_derived_from_the_option_declarations(capsys):
    """Every option the solver takes is a flag, with the values declared and
    nothing typed twice; the seat options of three-player Bakuk are not."""
    from mancala_spec.cli.solve import BA_AWA_ONLY, flag
    from mancala_spec.options import game_options, solver_options
    from mancala_spec.solve import SOLVED_OPTIONS

    assert tuple(o.name for o in solver_options("bakuk")) == SOLVED_OPTIONS
    with pytest.raises(SystemExit):
        main(["solve", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for option in game_options("bakuk"):
        shown = flag(option) in text
        if option.name in BA_AWA_ONLY:          # a flag of solve ba-awa
            assert shown and option.name not in SOLVED_OPTIONS
            continue
        assert shown == (option.name in SOLVED_OPTIONS), option.name
        if shown:
            assert option.rule in text
            if option.name == "no_move":        # shared with Ba-awa: both games' values
                assert "{end,pass,owners}" in text
            elif option.type is not bool:
                assert "{" + ",".join(map(str, option.choices)) + "}" in text


def test_solve_without_numpy_names_its_extra():
    code = ("import sys; sys.modules['numpy'] = None; from mancala_spec.cli import main; "
            "raise SystemExit(main(['solve', 'bakuk', '--no-progress']))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 2
    assert result.stderr == ("mancala-spec solve: error: solve needs numpy, which is not "
                             "installed: pip install 'mancala-spec[solve]'\n")
    assert result.stdout == ""
