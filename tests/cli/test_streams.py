"""Issue 21, streams: a failed or short write to standard output, a closed
standard output or input, a reader that goes away, an encoding that cannot
carry the text, and ``play`` at the end of its input each end in one line on
stderr and exit status 4 (output) or 2 (input) — never 0, never 70."""
from __future__ import annotations

import errno
import os
import resource
import subprocess
import sys

import pytest

from mancala_spec.cli import EXIT
from mancala_spec.terminal.output import Stdout, write_all

PY = sys.executable
CLOSED = "mancala-spec: error: cannot write standard output: it is closed\n"


def shell(script: str, **kwargs) -> subprocess.CompletedProcess:
    """Run *script* with sh, ``$PY`` naming this Python."""
    return subprocess.run(["sh", "-c", script], env={**os.environ, "PY": PY},
                          capture_output=True, text=True, timeout=120, **kwargs)


@pytest.mark.parametrize("argv", [
    "rules", "solve bakuk --pits-per-row 2 --seeds-per-pit 2 --no-progress",
    "conformance export", "diagram 6,6,6/6,6,6 a -o never.svg", "--help", "--version",
])
def test_a_closed_standard_output(argv, tmp_path):
    """``>&-``: nothing is computed or written; the line says why."""
    result = shell(f'exec "$PY" -m mancala_spec {argv} >&-', cwd=tmp_path)
    assert (result.returncode, result.stderr) == (EXIT["output error"], CLOSED)
    assert not (tmp_path / "never.svg").exists()


def test_a_reader_that_stops_after_one_byte():
    """``conformance export | head -c1``: the reader goes away with most of the
    suite unwritten; the command stops quietly, as ``git log | head`` does
    (issue 34), with its documented status."""
    proc = subprocess.Popen([PY, "-m", "mancala_spec", "conformance", "export"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first = os.read(proc.stdout.fileno(), 1)
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert first == b"{"
    assert proc.wait(timeout=60) == EXIT["reader gone"] == 141
    assert err == ""


def test_a_short_write_to_standard_output(tmp_path):
    """A file that can take only part of the output (its size limit reached, as a
    full disk would): the write is short, then fails; the status says so, and
    the part written is cut off again (issue 35): the file holds what it held
    before (here, appended to with ``>>``, its first line)."""
    limit = 50_000

    def small_files():
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    (tmp_path / "out.json").write_bytes(b"kept\n")
    with open(tmp_path / "out.json", "ab") as target:
        result = subprocess.run([PY, "-m", "mancala_spec", "conformance", "export"],
                                stdout=target, stderr=subprocess.PIPE, text=True, timeout=60,
                                preexec_fn=small_files)
    assert result.returncode == EXIT["output error"]
    assert result.stderr == ("mancala-spec conformance: error: cannot write standard output: "
                             "File too large\n")
    assert (tmp_path / "out.json").read_bytes() == b"kept\n"


def test_a_standard_output_that_cannot_carry_the_text():
    """A Latin-1 standard output and a rule with an em dash: not bad input, an
    output error, and nothing written."""
    result = subprocess.run([PY, "-m", "mancala_spec", "rules", "ba-awa-relay"],
                            capture_output=True, timeout=60,
                            env={**os.environ, "PYTHONIOENCODING": "latin-1"})
    assert result.returncode == EXIT["output error"]
    assert result.stdout == b""
    assert result.stderr.decode() == (
        "mancala-spec rules: error: cannot write standard output: its encoding, iso8859-1, "
        "cannot carry U+2014; set PYTHONIOENCODING=utf-8 or a UTF-8 locale\n")


@pytest.mark.parametrize("argv, line", [
    ("play ba-awa", "play reads its moves from standard input, which is closed"),
    ("replay -", "cannot read standard input: it is closed"),
])
def test_a_closed_standard_input(argv, line):
    result = shell(f'exec "$PY" -m mancala_spec {argv} <&-')
    assert result.returncode == EXIT["bad input"]
    assert result.stderr == f"mancala-spec {argv.split()[0]}: error: {line}\n"


def test_replay_step_with_standard_input_closed(tmp_path):
    (tmp_path / "g.txt").write_text("game: bakuk\nmoves: a A\n")
    result = shell('exec "$PY" -m mancala_spec replay --step g.txt <&-', cwd=tmp_path)
    assert result.returncode == EXIT["bad input"]
    assert result.stderr == ("mancala-spec replay: error: --step reads Enter from standard "
                             "input, which is closed\n")


def test_play_at_the_end_of_its_input():
    result = subprocess.run([PY, "-m", "mancala_spec", "play", "bakuk", "--opponent", "human"],
                            input="a\n", capture_output=True, text=True, timeout=60)
    assert result.returncode == EXIT["bad input"]
    assert result.stderr == ("mancala-spec play: error: standard input ended before the game "
                             "did: game abandoned (its record so far is on standard output)\n")
    assert result.stdout.endswith("game: bakuk\nmoves: a\n")


def test_play_reads_a_bounded_line():
    """``play bakuk < /dev/zero``: one line of at most 4,096 bytes, not all of memory."""
    with open("/dev/zero", "rb") as zero:
        result = subprocess.run([PY, "-m", "mancala_spec", "play", "bakuk"], stdin=zero,
                                capture_output=True, text=True, timeout=60)
    assert result.returncode == EXIT["bad input"]
    assert result.stderr == ("mancala-spec play: error: a line of standard input is longer "
                             "than 4,096 bytes, the limit for a line: game abandoned (its "
                             "record so far is on standard output)\n")


def test_write_all_finishes_a_write_taken_in_pieces(monkeypatch):
    read, write = os.pipe()
    real = os.write
    monkeypatch.setattr(os, "write", lambda fd, data: real(fd, bytes(data[:3])))
    write_all(write, b"0123456789")
    os.close(write)
    assert os.read(read, 100) == b"0123456789"
    os.close(read)


def test_write_all_refuses_a_write_that_makes_no_progress(monkeypatch):
    monkeypatch.setattr(os, "write", lambda fd, data: 0)
    with pytest.raises(OSError) as error:
        write_all(1, b"x")
    assert error.value.errno == errno.EIO


def test_nothing_is_written_before_the_command_succeeds(tmp_path):
    with open(tmp_path / "out", "w") as target:
        out = Stdout(target)
        out.write("half")
        assert (tmp_path / "out").read_text() == ""
        out.discard()
        out.write("whole\n")
        out.finish()
    assert (tmp_path / "out").read_text() == "whole\n"
