"""Issue 14, through the real command line: every bad input, dead engine and
failed write ends in one line on stderr with a documented exit status, in
bounded time, with nothing half-written."""
from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mancala_spec import cli
from mancala_spec.cli import EXIT, EXIT_STATUSES, write_atomic
from mancala_spec.conformance import packaged_suite

PY = sys.executable
START = "6,6,6/6,6,6 S 0-0 opener=S"
STATUSES = {status.code for status in EXIT_STATUSES}
N = len(packaged_suite()["cases"])


def cli_run(*argv: str, stdin: str | bytes | None = None, timeout: float = 60,
            cwd: Path | None = None) -> subprocess.CompletedProcess:
    """Run ``python -m mancala_spec *argv``; check the promises every run keeps."""
    data = stdin.encode() if isinstance(stdin, str) else stdin
    result = subprocess.run([PY, "-m", "mancala_spec", *argv], input=data,
                            stdin=None if data is not None else subprocess.DEVNULL,
                            capture_output=True, timeout=timeout, cwd=cwd)
    result.err = result.stderr.decode("utf-8", "replace")
    result.out = result.stdout.decode("utf-8", "replace")
    assert "Traceback" not in result.err, result.err
    assert result.returncode in STATUSES, (result.returncode, result.err)
    if result.returncode not in (0, 1):      # one error line (progress lines aside)
        lines = [line for line in result.err.strip().splitlines()
                 if not line.startswith("conformance: ")]
        assert len(lines) == 1, result.err
    return result


def engine(code: str) -> str:
    """An engine command: Python running *code* (a loop over request lines)."""
    return f'"{PY}" -c "{code}"'


# -- the exit-status table ---------------------------------------------------------

def test_the_exit_statuses_are_listed_in_help():
    result = cli_run("--help")
    for status in EXIT_STATUSES:
        assert f"  {status.code:<4} {status.name}: " in result.out
    assert EXIT == {"ok": 0, "failures": 1, "bad input": 2, "engine failure": 3,
                    "output error": 4, "internal error": 70, "interrupted": 130,
                    "reader gone": 141}
    assert "exit status:" in cli_run("conformance", "run", "--help").out


def test_the_cli_page_shows_the_table_from_the_parser():
    page = (Path(__file__).resolve().parents[2] / "docs" / "cli.md").read_text("utf-8")
    assert "```{cli-reference}" in page and "exit status" in page.lower()


# -- writing files -----------------------------------------------------------------

@pytest.mark.parametrize("target, message", [
    ("missing/folder/d.png", "no folder"),
    ("folder.png", "folder.png: it is not a regular file"),
    (".", "must end in .png or .svg"),
])
def test_diagram_to_a_bad_path(tmp_path, target, message):
    (tmp_path / "folder.png").mkdir()
    result = cli_run("diagram", START, "a", "-o", target, cwd=tmp_path)
    assert result.returncode in (EXIT["output error"], EXIT["bad input"])
    assert message in result.err and result.err.startswith("mancala-spec diagram: error: ")


def test_diagram_to_a_symlink_to_dev_full_is_refused_at_once(tmp_path):
    (tmp_path / "full.png").symlink_to("/dev/full")
    result = cli_run("diagram", START, "a", "-o", "full.png", cwd=tmp_path, timeout=30)
    assert result.returncode == EXIT["output error"]
    assert "full.png: it is not a regular file" in result.err


def test_diagram_where_writing_is_not_allowed(tmp_path):
    if os.geteuid() == 0:
        target = "/proc/1/d.png"            # root may write anywhere but here
    else:
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        target = str(locked / "d.png")
    result = cli_run("diagram", START, "a", "-o", target)
    assert result.returncode == EXIT["output error"] and f"cannot write {target}" in result.err


def test_conformance_export_to_a_bad_path(tmp_path):
    result = cli_run("conformance", "export", "-o", str(tmp_path / "no" / "suite.json"))
    assert result.returncode == EXIT["output error"] and "no folder" in result.err


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    target = tmp_path / "suite.json"
    target.write_text("old")
    real_fsync = os.fsync

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(cli.OutputError, match="No space left on device"):
        write_atomic(target, b"new" * 1000)
    monkeypatch.setattr(os, "fsync", real_fsync)
    assert target.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["suite.json"]
    write_atomic(target, b"new")
    assert target.read_text() == "new"


def test_missing_matplotlib_is_one_line():
    code = ("import sys; sys.modules['matplotlib'] = None; from mancala_spec.cli import main; "
            f"raise SystemExit(main(['diagram', '{START}', 'a', '-o', 'x.png']))")
    result = subprocess.run([PY, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.returncode == EXIT["bad input"]
    assert result.stderr == ("mancala-spec diagram: error: diagram needs matplotlib, which is "
                             "not installed: pip install 'mancala-spec[diagram]'\n")


def test_a_closed_pipe_ends_quietly():
    """``mancala-spec rules | head -0``: the reader is gone before the first write;
    nothing is said, the status is the documented one."""
    proc = subprocess.Popen([PY, "-m", "mancala_spec", "rules"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == EXIT["reader gone"] == 141
    assert err == ""


# -- reading input -----------------------------------------------------------------

def test_replay_reads_at_most_a_mebibyte():
    result = cli_run("replay", "/dev/zero", timeout=30)
    assert result.returncode == EXIT["bad input"]
    assert "/dev/zero is larger than 1 MiB, the limit for a game record" in result.err


def test_replay_step_with_stdin_closed(tmp_path):
    (tmp_path / "g.txt").write_text("game: bakuk\nmoves: a A\n")
    result = cli_run("replay", "--step", "g.txt", cwd=tmp_path)
    assert result.returncode == EXIT["ok"]
    assert result.err == "replay stopped before move 1: no more input\n"


def test_replay_step_needs_a_file():
    result = cli_run("replay", "--step", "-", stdin="game: bakuk\nmoves: a\n")
    assert result.returncode == EXIT["bad input"] and "must be a file" in result.err


@pytest.mark.parametrize("data, status, message", [
    (b"\xef\xbb\xbfgame: bakuk\nmoves: a A\n", 0, ""),
    (b"game: bakuk\x00\x01\x02", 2, "g.txt is not a game record: it holds binary data "
                                    "(a NUL byte at byte 12)"),
    (b"game: bakuk\nmoves: \xff\n", 2, "g.txt is not UTF-8 text (byte 20 is not valid)"),
])
def test_records_with_a_bom_or_binary_content(tmp_path, data, status, message):
    (tmp_path / "g.txt").write_bytes(data)
    result = cli_run("replay", "g.txt", cwd=tmp_path)
    assert result.returncode == status and message in result.err


def test_replay_names_the_record_in_its_error(tmp_path):
    (tmp_path / "g.txt").write_text("game: chess\nmoves: a\n")
    result = cli_run("replay", "g.txt", cwd=tmp_path)
    assert result.returncode == 2 and result.err.startswith("mancala-spec replay: error: g.txt: ")


def test_a_folder_is_not_a_record(tmp_path):
    result = cli_run("replay", str(tmp_path))
    assert result.returncode == 2 and "it is a folder" in result.err


@pytest.mark.parametrize("argv", [
    ["show", "bakuk", "9" * 5000 + ",6,6/6,6,6 S 0-0 opener=S"],
    ["show", "bakuk", ""],
    ["show", "bakuk", "\x01\x02"],
    ["play", "bakuk", "--seed", "9" * 5000],
])
def test_odd_positions_and_numbers_are_one_line(argv):
    result = cli_run(*argv, stdin="")
    assert result.returncode == EXIT["bad input"]


def test_game_names_accept_the_sources_other_names():
    ba_awa = cli_run("rules", "--game", "ba-awa").out
    assert cli_run("rules", "--game", "anenam").out == ba_awa
    assert cli_run("rules", "--game", "Nam-Nam").out == ba_awa
    result = cli_run("rules", "--game", "chess")
    assert result.returncode == 2 and "unknown game 'chess'" in result.err


def test_solve_refuses_a_board_too_big_before_starting():
    result = cli_run("solve", "bakuk", "--seeds-per-pit", "15", timeout=30)
    assert result.returncode == EXIT["bad input"]
    assert "1,854,096,608 positions; solve handles at most 25,000,000" in result.err


# -- the conformance runner against bad engines -----------------------------------------

@pytest.mark.parametrize("command, status, message", [
    ("no-such-engine-command", 3, "cannot start the engine: no command 'no-such-engine-command'"),
    ("./plain.txt", 3, "'./plain.txt' is not executable"),
    ("", 2, "the engine command is empty"),
    ('"unbalanced', 2, "cannot read the engine command"),
])
def test_an_engine_that_cannot_start(tmp_path, command, status, message):
    (tmp_path / "plain.txt").write_text("not a program")
    result = cli_run("conformance", "run", "--engine", command, cwd=tmp_path)
    assert result.returncode == status and message in result.err


@pytest.mark.parametrize("value", ["inf", "nan", "-1", "0", "1e400", "ten"])
def test_timeouts_must_be_finite_and_positive(value):
    result = cli_run("conformance", "run", "--engine", "x", "--timeout", value)
    assert result.returncode == 2 and "argument --timeout" in result.err


def test_a_hanging_engine_stops_the_run_early_and_says_why():
    began = time.monotonic()
    result = cli_run("conformance", "run", "--engine", "sleep 1000", "--timeout", "0.5",
                     "--max-failures", "3", timeout=60)
    assert result.returncode == EXIT["engine failure"]
    assert f"3 of {N} cases: 3 hung" in result.out
    assert result.err.strip().splitlines()[-1] == (
        "mancala-spec conformance: error: stopped after 3 consecutive engine failures "
        "(last: no answer within 0.5 s)")
    assert time.monotonic() - began < 30


@pytest.mark.parametrize("code, message", [
    ("import sys\nfor l in sys.stdin: print('garbage', flush=True)", "the answer is not JSON"),
    ("import sys\nfor l in sys.stdin: print('[1, 2]', flush=True)",
     "the answer is not a JSON object"),
    ("import sys\nfor l in sys.stdin: print('{\\\"legal_moves\\\": \\\"x\\\"}', flush=True)",
     '"legal_moves" is missing or not a list of integers'),
    ("import sys\nfor l in sys.stdin: sys.stdout.buffer.write(b'\\xff\\xfe\\n'); "
     "sys.stdout.flush()", "the answer is not UTF-8 (byte 0)"),
    ("import sys\nsys.stdout.write('x' * 10_000_000)", "answer longer than 1,048,576 bytes"),
])
def test_bad_answers_are_engine_failures_of_their_case(tmp_path, code, message):
    small = dict(packaged_suite())
    small["cases"] = small["cases"][:8]
    (tmp_path / "s.json").write_text(json.dumps(small))
    result = cli_run("conformance", "run", "--engine", engine(code), "--max-failures", "0",
                     "--suite", "s.json", "--no-progress", timeout=120, cwd=tmp_path)
    assert result.returncode == EXIT["failures"]
    assert "8 cases: 8 bad-answer" in result.out
    assert message in result.out
    assert len(result.stdout) < 200_000        # a 10 MB answer does not make a huge report


def test_an_engine_that_floods_its_output():
    result = cli_run("conformance", "run", "--engine", "yes", timeout=60)
    assert result.returncode == EXIT["engine failure"]
    assert "stopped after 5 consecutive engine failures" in result.err


def test_an_engine_unsupported_everywhere_does_not_pass():
    code = ("import sys, json\nfor l in sys.stdin: print(json.dumps({'id': json.loads(l)['id'],"
            " 'unsupported': 'nothing'}), flush=True)")
    result = cli_run("conformance", "run", "--engine", engine(code))
    assert result.returncode == EXIT["failures"]
    assert f"not conforming: only 0 of {N} cases supported; --min-supported is {N}" in result.out
    result = cli_run("conformance", "run", "--engine", engine(code), "--min-supported", "0")
    assert result.returncode == EXIT["failures"] and "no case was supported" in result.out


def test_docs_without_rule_pages_is_an_error(tmp_path):
    (tmp_path / "index.md").write_text("# Nothing here\n")
    result = cli_run("conformance", "run", "--engine", "x", "--docs", str(tmp_path))
    assert result.returncode == 2 and "no worked examples inside rule blocks" in result.err
    result = cli_run("conformance", "export", "--docs", str(tmp_path / "nope"))
    assert result.returncode == 2 and "no such folder" in result.err


@pytest.mark.parametrize("text, message", [
    ("{", "s.json is not JSON: Expecting property name enclosed in double quotes: line 1 "
          "column 2 (char 1)"),
    ("[]", "s.json is not a suite: the suite is an array, not a JSON object"),
    ('{"protocol": "mancala-spec-conformance/1"}', 's.json is not a suite: $: lacks "format"'),
    ('{"protocol": "other/9", "cases": []}',
     's.json is not a suite: this runner speaks mancala-spec-conformance/1, the suite is for '
     '"other/9"'),
])
def test_malformed_suite_files(tmp_path, text, message):
    (tmp_path / "s.json").write_text(text)
    result = cli_run("conformance", "run", "--engine", "x", "--suite", "s.json", cwd=tmp_path)
    assert result.returncode == 2
    assert result.err == f"mancala-spec conformance: error: {message}\n"


@pytest.mark.parametrize("spoil, where", [
    (lambda s: s["cases"].__setitem__(0, {"id": "broken"}), '$.cases[0]: lacks "rule"'),
    (lambda s: s["cases"][2]["expected"]["events"].__setitem__(0, 7),
     "$.cases[2].expected.events[0]: must be an object, not an integer"),
    (lambda s: s["cases"][2]["expected"].__setitem__("match", [1, 2]),
     "$.cases[2].expected.match: must be an object, not an array"),
    (lambda s: s["cases"][3].__setitem__("id", s["cases"][1]["id"]),
     f'$.cases[3].id: "{packaged_suite()["cases"][1]["id"]}" is the ID of an earlier case'),
    (lambda s: s["cases"].clear(), "the suite has no cases"),
])
def test_a_suite_is_checked_against_its_schema_before_it_runs(tmp_path, spoil, where):
    """Nothing runs, no engine starts: one line naming the place, exit 2."""
    suite = packaged_suite()
    suite["cases"] = suite["cases"][:5]
    spoil(suite)
    (tmp_path / "s.json").write_text(json.dumps(suite))
    started = tmp_path / "started"
    result = cli_run("conformance", "run", "--engine", f"touch {started}", "--suite", "s.json",
                     cwd=tmp_path)
    assert result.returncode == EXIT["bad input"]
    assert result.err == f"mancala-spec conformance: error: s.json is not a suite: {where}\n"
    assert not started.exists()


def test_the_schema_check_agrees_with_a_full_validator():
    """The runner's own reading of the schema (it needs no jsonschema) finds a
    fault exactly where jsonschema finds one."""
    import copy

    import jsonschema

    from mancala_spec.conformance import schema
    from mancala_spec.conformance.suite_check import schema_problem

    validator = jsonschema.Draft202012Validator(schema())
    suite = packaged_suite()
    assert schema_problem(suite, schema()) is None and validator.is_valid(suite)
    spoils = [("expected", "match", [1]), ("expected", "legal_moves", "x"),
              ("position", "fields", {}), ("move", "pit", -1), ("game", None, "chess"),
              ("expected", "winner", 3), ("options", None, []), ("expected", "error", "no")]
    for index, (key, sub, value) in enumerate(spoils):
        bad = copy.deepcopy(suite)
        case = bad["cases"][index * 7 + 1]
        if sub is None:
            case[key] = value
        elif isinstance(case.get(key), dict):
            case[key][sub] = value
        else:
            case[key] = {sub: value, "name": "a"}
        assert schema_problem(bad, schema()) is not None, (key, sub)
        assert not validator.is_valid(bad), (key, sub)


def test_engine_text_is_shown_escaped(tmp_path):
    """An engine that answers with terminal control sequences (set the title,
    clear the screen) and writes them on stderr: the report shows them escaped."""
    code = ("import sys\nsys.stderr.write('\\x1b]0;pwned\\x07\\x1b[2J\\n'); sys.stderr.flush()"
            "\nfor l in sys.stdin: print('\\x1b[2J\\u202egarbage', flush=True)")
    (tmp_path / "e.py").write_text(code)
    small = dict(packaged_suite())
    small["cases"] = small["cases"][:2]
    (tmp_path / "s.json").write_text(json.dumps(small))
    result = cli_run("conformance", "run", "--engine", f'"{PY}" e.py', "--suite", "s.json",
                     "--max-failures", "0", "--no-progress", cwd=tmp_path)
    assert result.returncode == EXIT["failures"]
    assert "\x1b" not in result.out + result.err and "\u202e" not in result.out
    assert "\\x1b[2J\\u202egarbage" in result.out


def test_a_fifo_among_the_pages_is_refused(tmp_path):
    """``--docs`` with a FIFO named page.md: refused at once, not waited on."""
    os.mkfifo(tmp_path / "page.md")
    result = cli_run("conformance", "export", "--docs", str(tmp_path), timeout=30)
    assert result.returncode == EXIT["bad input"]
    assert result.err == (f"mancala-spec conformance: error: --docs {tmp_path}: "
                          f"{tmp_path / 'page.md'} is not a regular file\n")


def test_a_page_too_large_is_refused(tmp_path):
    (tmp_path / "page.md").write_bytes(b"x" * ((4 << 20) + 1))
    result = cli_run("conformance", "export", "--docs", str(tmp_path), timeout=30)
    assert result.returncode == EXIT["bad input"]
    assert "is larger than 4 MiB, the limit for a page" in result.err


def test_sigterm_kills_the_engine_with_its_whole_process_group(tmp_path):
    pids = tmp_path / "pids"
    hanging = f"sh -c 'echo $$ > {pids}; sleep 1000 & echo $! >> {pids}; wait'"
    proc = subprocess.Popen([PY, "-m", "mancala_spec", "conformance", "run", "--engine", hanging,
                             "--timeout", "300"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60          # the runner may start slowly on a busy machine
    while time.monotonic() < deadline:
        if pids.exists() and len(pids.read_text().split()) == 2:
            break
        time.sleep(0.05)
    children = [int(pid) for pid in pids.read_text().split()]
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=30) == EXIT["interrupted"]
    assert proc.stderr.read().decode().strip() == "mancala-spec: interrupted"
    def alive(pid):           # not gone, nor a zombie waiting for a parent to reap it
        try:
            return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] != "Z"
        except OSError:
            return False

    deadline = time.monotonic() + 10          # SIGKILL is sure; dying takes a moment
    while any(map(alive, children)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(map(alive, children))


def test_progress_lines_are_plain_when_not_on_a_terminal():
    import io

    from mancala_spec.conformance.runner import Progress

    stream = io.StringIO()
    progress = Progress(40, stream)
    for done in range(1, 41):
        progress(done, 1 if done >= 7 else 0, f"case-{done}")
    progress.close()
    lines = stream.getvalue().splitlines()
    assert "conformance: 4/40 cases, 0 not passed" in lines
    assert "conformance: 7/40 cases, 1 not passed (last: case-7)" in lines
    assert lines[-1] == "conformance: 40/40 cases, 1 not passed"
    assert "\r" not in stream.getvalue()


def test_a_full_disk_on_standard_output():
    with open("/dev/full", "w") as full:
        result = subprocess.run([PY, "-m", "mancala_spec", "conformance", "export"],
                                stdout=full, stderr=subprocess.PIPE, text=True, timeout=60)
    assert result.returncode == EXIT["output error"]
    assert result.stderr == ("mancala-spec conformance: error: cannot write standard output: "
                             "No space left on device\n")
