"""Issue 35: every output whole or absent, one escaping for every text shown,
argument parsing bounded; issue 34: a closed pipe ends a command quietly.

Each test runs the real command (``python -m ...``) or the real function."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import package_env

from mancala_spec import cli
from mancala_spec.cli import EXIT, write_atomic
from mancala_spec.terminal.escape import shown

ROOT = Path(__file__).resolve().parents[2]
PY = sys.executable
ENV = package_env()
ANALYSIS = [PY, "-m", "mancala_spec.analysis", "--quick", "--processes", "1", "--max-seeds", "1",
            "--games", "1", "--greedy-games", "1"]


def run(argv, **kwargs) -> subprocess.CompletedProcess:
    kwargs.setdefault("stdout", subprocess.PIPE)
    kwargs.setdefault("stderr", subprocess.PIPE)
    kwargs.setdefault("stdin", subprocess.DEVNULL)
    return subprocess.run(argv, env=ENV, timeout=120, **kwargs)


def mancala(*argv: str | bytes, **kwargs) -> subprocess.CompletedProcess:
    return run([PY, "-m", "mancala_spec", *argv], **kwargs)


# -- the analysis command writes as the CLI does -------------------------------------

def test_the_analysis_on_a_full_disk_is_one_line_and_status_4():
    with open("/dev/full", "wb") as full:
        result = run(ANALYSIS, stdout=full)
    assert (result.returncode, result.stderr.decode()) == (
        4, "python -m mancala_spec.analysis: error: cannot write standard output: "
           "No space left on device\n")


def test_the_analysis_with_standard_output_closed_is_one_line_and_status_4():
    result = subprocess.run(f'exec "$PY" {" ".join(ANALYSIS[1:])} >&-', shell=True,
                            env={**ENV, "PY": PY}, capture_output=True, text=True, timeout=120)
    assert (result.returncode, result.stderr) == (
        4, "python -m mancala_spec.analysis: error: cannot write standard output: "
           "it is closed\n")


@pytest.mark.parametrize("argv", [ANALYSIS, [PY, "-m", "mancala_spec", "conformance", "export"]])
def test_a_closed_pipe_ends_quietly_with_status_141(argv):
    """``... | head -1`` (issue 34): the reader takes one line and goes; the
    command stops quietly, as ``git log | head`` does, with status 141."""
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV)
    first = proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read()
    assert first
    assert (proc.wait(timeout=120), err) == (EXIT["reader gone"], b"")


def test_help_and_the_page_say_what_a_closed_pipe_does():
    help_text = mancala("--help").stdout.decode()
    assert "141  reader gone: " in help_text
    assert "git log | head" in help_text
    page = (ROOT / "docs" / "cli.md").read_text("utf-8")
    assert "exit status 141" in page


# -- atomic writes -----------------------------------------------------------------

def test_a_replaced_file_keeps_its_mode(tmp_path):
    target = tmp_path / "secret.json"
    target.write_text("old")
    target.chmod(0o600)
    write_atomic(target, b"new")
    assert (target.read_bytes(), target.stat().st_mode & 0o777) == (b"new", 0o600)


def test_a_hard_linked_file_is_refused_not_unlinked(tmp_path):
    target = tmp_path / "suite.json"
    target.write_text("old")
    os.link(target, tmp_path / "other.json")
    result = mancala("conformance", "export", "-o", "suite.json", cwd=tmp_path)
    assert result.returncode == EXIT["output error"]
    assert result.stderr.decode() == (
        "mancala-spec conformance: error: cannot write suite.json: it has 2 hard links, and "
        "writing it whole (a new file renamed over it) would break them; write another file "
        "and copy it over this one\n")
    assert target.stat().st_nlink == 2 and target.read_text() == "old"


@pytest.mark.parametrize("length", [251, 255])
def test_the_longest_names_the_file_system_takes_are_written(tmp_path, length):
    name = "a" * (length - 5) + ".json"
    result = mancala("conformance", "export", "-o", name, cwd=tmp_path)
    assert (result.returncode, result.stderr.decode()) == (0, f"wrote {name}\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]
    assert json.loads((tmp_path / name).read_text())["cases"]


def test_a_write_stopped_by_an_interrupt_leaves_no_temporary_file(tmp_path, monkeypatch):
    target = tmp_path / "out.json"
    target.write_text("old")

    def interrupted(fd):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_atomic(target, b"new")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.json"]
    assert target.read_text() == "old"


def test_a_name_that_is_not_utf8_is_written_and_shown_escaped(tmp_path):
    result = mancala("conformance", "export", "-o", b"\xff\x1b.json", cwd=tmp_path)
    assert (result.returncode, result.stderr) == (0, b"wrote \\xff\\x1b.json\n")
    assert os.listdir(os.fsencode(tmp_path)) == [b"\xff\x1b.json"]


def test_a_diagram_named_in_bytes_that_are_not_utf8(tmp_path):
    """Its "wrote" line is on standard output: it exited 4 (an encoding error)."""
    name = b"\xff\x1b[31m\xe2\x80\xae.svg"
    result = mancala("diagram", "6,6,6/6,6,6 S 0-0 opener=S", "a", "-o", name, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(b"wrote \\xff\\x1b[31m\\u202e.svg: ")
    assert os.listdir(os.fsencode(tmp_path)) == [name]


# -- one escaping for every text shown ------------------------------------------------

HOSTILE = ["\x1b[31mred", "bel\x07", "over\rwrite", "c1\x9b", "rlo\u202egnp.exe",
           "iso\u2066x", "line\u2028sep", "zero\u200bwidth", "two\nlines", "del\x7f"]


def test_shown_escapes_what_a_terminal_would_obey():
    assert shown("\x1b[31m\x07\r\n\t\x9b\u202a\u202e\u2066\u2069\u2028\u2029\u200b\ufeff") == (
        "\\x1b[31m\\x07\\r\\n\\t\\x9b\\u202a\\u202e\\u2066\\u2069\\u2028\\u2029\\u200b\\ufeff")
    assert shown("\udcff.json") == "\\xff.json"                # a byte that is not UTF-8
    assert shown("Ba-awa — “relay” ñ 象 \\x") == "Ba-awa — “relay” ñ 象 \\x"
    assert shown(shown("a\x1bb")) == shown("a\x1bb")


def _commands(name: str, folder: Path) -> list[list[str]]:
    """Every command that prints a file name it was given, with *name*."""
    return [
        ["replay", name],
        ["conformance", "run", "--engine", "true", "--suite", name],
        ["conformance", "export", "--docs", name],
        ["conformance", "export", "-o", f"{name}/suite.json"],
        ["conformance", "export", "-o", name],
        ["diagram", "6,6,6/6,6,6 S 0-0 opener=S", "a", "-o", f"{name}/d.svg"],
        ["rules", name],
        ["show", "bakuk", "-O", f"{name}=1"],
    ]


@pytest.mark.parametrize("name", HOSTILE, ids=repr)
def test_hostile_names_are_shown_escaped_in_every_message(name, tmp_path, capsys,
                                                          monkeypatch):
    monkeypatch.chdir(tmp_path)
    for argv in _commands(name, tmp_path):
        cli.main(argv)
        captured = capsys.readouterr()
        for stream in (captured.out, captured.err):
            lines = stream.splitlines()
            assert all(line.isprintable() for line in lines), (argv, stream)
        assert len(captured.err.splitlines()) == 1, (argv, captured.err)
        assert shown(name) in captured.err, (argv, captured.err)


def test_rule_ids_read_from_docs_pages_are_shown_escaped(tmp_path):
    (tmp_path / "page.md").write_text("````{rule} evil\x1b]0;owned\x07\u202e\n"
                                      "```{doctest}\n>>> 1\n1\n```\n````\n", "utf-8")
    result = mancala("conformance", "export", "--docs", str(tmp_path))
    err = result.stderr.decode()
    assert result.returncode == EXIT["bad input"]
    assert len(err.splitlines()) == 1 and err[:-1].isprintable(), err
    assert "evil\\x1b]0;owned\\x07\\u202e" in err


def test_engine_text_is_shown_escaped(tmp_path):
    engine = tmp_path / "engine.sh"
    engine.write_text("#!/bin/sh\nprintf '\\033]0;title\\007\\n' >&2\n"
                      "while read line; do printf '\\033[2J\\342\\200\\256x\\r\\n'; done\n")
    engine.chmod(0o755)
    result = mancala("conformance", "run", "--engine", str(engine), "--max-failures", "1",
                     "--no-progress")
    out, err = result.stdout.decode(), result.stderr.decode()
    assert out and all(line.isprintable() for line in (out + err).splitlines()), (out, err)
    assert "\\x1b[2J\\u202ex\\r" in out
    # the verdict leads, on a line of its own (the report's own line breaks are kept)
    assert out.startswith("not conforming: ") and "\\nnot conforming" not in out


# -- arguments and standard input ------------------------------------------------------

def test_thirty_thousand_arguments_are_refused_before_parsing():
    """``-O chain=forward`` 30,000 times took argparse 24.7 s before it said
    "given twice": more than 1,000 arguments are refused first."""
    result = mancala("show", "bakuk", *["-O", "chain=forward"] * 15_000)
    assert (result.returncode, result.stderr.decode()) == (
        2, "mancala-spec: error: 30,002 arguments: at most 1,000 are taken\n")
    result = run([*ANALYSIS, *["--seed", "1"] * 600])
    assert (result.returncode, result.stderr.decode()) == (
        2, "python -m mancala_spec.analysis: error: 1,209 arguments: at most 1,000 are taken\n")


def test_standard_input_that_is_a_folder_is_refused_by_python_as_documented():
    """Python refuses to start with a folder as standard input, before it runs
    any line of the package (so the command cannot say its own line); the page
    says so, and this is what it says happens."""
    folder = os.open("/", os.O_RDONLY)
    try:
        result = mancala("rules", stdin=folder)
    finally:
        os.close(folder)
    assert result.returncode == 1
    assert result.stderr.decode().startswith(
        "Fatal Python error: init_sys_streams: <stdin> is a directory, cannot continue\n")
    page = " ".join((ROOT / "docs" / "cli.md").read_text("utf-8").split())
    assert ("A folder as standard input (``< /``) is refused by Python itself before the "
            "command's first line runs") in page
