"""``mancala-spec solve ba-awa``: the result (text and JSON) is the solver's,
bad input is one line and exit status 2, and Ctrl-C stops it with 130 and
nothing written. The full solve is a benchmark (benchmarks/bench_solve_ba_awa.py);
here the solves start from twelve seeds (a few seconds)."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest
from helpers import package_env

from mancala_spec.cli import main
from mancala_spec.solve.ba_awa import solve

TWELVE = "1,1,1,1,1,1/1,1,1,1,1,1 S 20-16"


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_json_is_the_solvers_result(capsys):
    status, out, err = run(capsys, "solve", "ba-awa", "--start", TWELVE, "--no-progress",
                           "--json", "--no-move", "owners")
    assert status == 0 and err == ""
    result = json.loads(out)
    solution = solve(start=((1,) * 12, 0))
    assert result["options"]["no_move"] == "owners" and result["options"]["decided"] is False
    assert result["levels"] == {"12": len(solution)}
    assert result["start"] == {"pits": [1] * 12, "to_move": 0}
    # no_move=owners and pass give the same values here? Not assumed: compared with its own
    owners = solve(__import__("mancala_spec.solve.ba_awa", fromlist=["x"]).BaAwaRules(
        no_move="owners"), start=((1,) * 12, 0))
    assert result["value"] == owners.value((1,) * 12, 0)
    assert result["moves"] == {"abcdef"[p]: v for p, v in owners.move_values((1,) * 12, 0)
                               .items()}
    assert result["peak_bytes"] > 0 and result["seconds"] > 0


@pytest.mark.parametrize("argv, message", [
    (["--players", "3"], "three players are out of scope"),
    (["--target", "10"], "a match cannot be solved"),
    (["--decided", "--write-table", "x"], "captured counts do not end"),
    (["--decided", "--start", "1,1,1,1,1,1/1,1,1,1,1,1 S 28-8"], "the game is over"),
    (["--chain", "backward"], "an option of Bakuk"),
    (["--pits-per-row", "2"], "for Bakuk"),
    (["--memory", "0.0001"], "needs about"),     # (--memory's values: test_cli_solve_memory.py)
    (["--start", "1,1,1,1,1,1/1,1,1,1,1,2 S 20-15"], "multiples of four"),
])
def test_what_cannot_be_solved_is_one_line_and_status_2(capsys, argv, message):
    started = time.perf_counter()
    status, out, err = run(capsys, "solve", "ba-awa", "--no-progress", *argv)
    assert status == 2 and out == ""
    assert err.startswith("mancala-spec solve: error:") and err.count("\n") == 1
    assert message in err and "Traceback" not in err
    assert time.perf_counter() - started < 2          # refused before any solving


@pytest.mark.parametrize("argv", [["--choose", "row"], ["--endless", "illegal"]])
def test_ba_awa_flags_are_refused_for_bakuk(capsys, argv):
    status, out, err = run(capsys, "solve", "bakuk", "--no-progress", *argv)
    assert status == 2 and "an option of Ba-awa" in err


def test_ctrl_c_mid_solve_exits_130_and_writes_nothing():
    """Ctrl-C reaches every process of the terminal's group (the command line
    sows in one process: see mancala_spec.solve.ba_awa_spool.enumerate_to)."""
    code = ("import sys; from mancala_spec.cli import main; "
            "sys.exit(main(['solve', 'ba-awa', '--start', '2,2,1,0,3,1/0,1,2,1,1,2 S 16-16', "
            "'--json']))")
    process = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True,
                               env=package_env())
    time.sleep(4)                                     # imported, and sowing
    assert process.poll() is None, "the solve ended before it could be interrupted"
    os.killpg(process.pid, signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130
    assert out == "" and err.rstrip().endswith("\nmancala-spec: interrupted")
    assert "Traceback" not in err
    time.sleep(0.5)
    left = subprocess.run(["pgrep", "-g", str(process.pid)], capture_output=True, text=True)
    assert left.stdout == "", "a worker outlived the solve"


def test_write_table_writes_the_values_the_page_reads(capsys, tmp_path):
    from mancala_spec.solved_ba_awa import BaAwaValueTable

    folder = tmp_path / "table"
    status, out, err = run(capsys, "solve", "ba-awa", "--start", TWELVE, "--no-progress",
                           "--json", "--write-table", str(folder))
    assert status == 0 and err == ""
    table = json.loads(out)["table"]
    files = sorted(folder.iterdir())
    checked = table.pop("verified")                   # checked by the second path first
    assert table == {"folder": str(folder), "files": len(files),
                     "bytes": sum(f.stat().st_size for f in files)}
    read = BaAwaValueTable.from_folder(folder)
    nodes = json.loads(out)["positions"] + json.loads(out)["pass_steps"]
    assert len(read) == nodes == checked["checked"] and checked["inconsistencies"] == 0
    assert read.value([1] * 12, 0) == json.loads(out)["value"]
    # a folder that holds something else is not replaced: one line, status 4 (R4-6)
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("mine")
    status, out, err = run(capsys, "solve", "ba-awa", "--start", TWELVE, "--no-progress",
                           "--write-table", str(tmp_path / "mine"))
    assert status == 4 and out == "" and err.count("\n") == 1 and "not replaced" in err
    assert (tmp_path / "mine" / "notes.txt").read_text() == "mine"


@pytest.mark.parametrize("argv, options", [
    (["--repetition", "play-on"], {"repetition": "play-on"}),
    (["--endless", "cap-75"], {"endless": "cap-75"}),
    (["--no-move", "empty-row"], {"no_move": "empty-row"}),
    (["--endless", "cap-75", "--no-move", "owners", "--repetition", "play-on"],
     {"endless": "cap-75", "no_move": "owners", "repetition": "play-on"})])
def test_other_programs_rules_are_solved(capsys, argv, options):
    """The options of other programs that the solver takes (MancalaGames' round
    the last): the command's value is the solver's under those options."""
    from mancala_spec.solve.ba_awa import BaAwaRules
    status, out, err = run(capsys, "solve", "ba-awa", "--start", TWELVE, "--no-progress",
                           "--json", *argv)
    assert status == 0 and err == ""
    result = json.loads(out)
    assert {k: result["options"][k] for k in options} == options
    solution = solve(BaAwaRules(**options), start=((1,) * 12, 0))
    assert result["value"] == solution.value((1,) * 12, 0)
    assert result["positions"] == len(solution)


@pytest.mark.parametrize("argv", [["--decided"],
                                  ["--decided", "--repetition", "play-on", "--no-move",
                                   "empty-row"]])
def test_decided_is_solved_from_the_starts_captured_counts(capsys, argv):
    """decided=true (and EveryBoard's ruleset): the command solves from the
    captured counts of --start (South one capture from more than half), and
    its values are the solver's at those counts."""
    import mancala_spec as ms
    from mancala_spec.solve.ba_awa import BaAwaRules
    start = "3,0,1,3,1,2/0,1,3,2,2,2 S 20-8"
    status, out, err = run(capsys, "solve", "ba-awa", "--start", start, "--no-progress",
                           "--json", *argv)
    assert status == 0 and err == ""
    result = json.loads(out)
    options = {"decided": True, **({"repetition": "play-on", "no_move": "empty-row"}
                                   if len(argv) > 1 else {})}
    pos = ms.get_game("ba-awa", **options).parse(start, allow_unreachable=True)
    solution = solve(BaAwaRules(**options), start=(pos.pits, 0), captured=(20, 8))
    assert result["options"]["decided"] is True
    assert result["value"] == solution.value(pos.pits, 0, captured=(20, 8))
    assert result["moves"] == {"abcdef"[p]: v for p, v in
                               solution.move_values(pos.pits, 0, captured=(20, 8)).items()}
    assert result["positions"] == len(solution)
