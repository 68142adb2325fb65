"""Issue 42's new input families, one in each area, each a test of its own:

- the writer: targets reached through path tricks (a trailing slash or dot,
  links to a file, dangling or looping links, a path through a file, a FIFO or
  a socket of that name): a table is written where it should be, or a one-line
  OutputError and nothing touched, and no temporary entry is left;
- the reader: every field of an index given a value of each wrong JSON type: a
  TableError of one line, never another exception;
- the protocol: every field of a request given a value of each wrong JSON type,
  all in one stream: every line answered, in order, by the reference engine.
"""
from __future__ import annotations

import copy
import json
import os
import socket
import subprocess
import sys

import pytest
from helpers import package_env

import mancala_spec as ms
from mancala_spec.conformance.protocol import position_fields
from mancala_spec.errors import TableError
from mancala_spec.options import game_options
from mancala_spec.solve.ba_awa import solve
from mancala_spec.solved_ba_awa import INDEX, BaAwaValueTable, write_ba_awa_table
from mancala_spec.terminal.status import OutputError

START = ((1,) * 12, 0)
OPTIONS = {option.name: option for option in game_options("ba-awa")}
WRONG = [None, True, 1.5, "x", [], {}, -1, 2**64, [None], {"": None}]


@pytest.fixture(scope="module")
def solution():
    return solve(start=START)


# -- the writer: path tricks (10 forms) ------------------------------------------------

TRICKS = ["trailing slash", "trailing dot", "double slash", "link to a file",
          "dangling link", "looping link", "through a file", "fifo", "socket", "dot-dot"]


@pytest.mark.parametrize("trick", TRICKS)
def test_the_writer_takes_or_refuses_a_path_trick_cleanly(solution, tmp_path, trick):
    (tmp_path / "file").write_text("mine")
    target: str = str(tmp_path / "table")
    if trick == "trailing slash":
        target += "/"
    elif trick == "double slash":
        target = str(tmp_path) + "//table"
    elif trick == "trailing dot":
        target += "/."
    elif trick == "link to a file":
        os.symlink(tmp_path / "file", tmp_path / "table")
    elif trick == "dangling link":
        os.symlink(tmp_path / "nowhere" / "x", tmp_path / "table")
    elif trick == "looping link":
        os.symlink(tmp_path / "table", tmp_path / "table")
    elif trick == "through a file":
        target = str(tmp_path / "file" / "table")
    elif trick == "fifo":
        os.mkfifo(tmp_path / "table")
    elif trick == "socket":
        listener = socket.socket(socket.AF_UNIX)
        listener.bind(str(tmp_path / "table"))
        listener.close()
    elif trick == "dot-dot":
        target = str(tmp_path / "table" / "..")
    before = sorted(os.listdir(tmp_path))
    try:
        written = write_ba_awa_table(target, solution)
    except OutputError as error:
        assert len(str(error).splitlines()) == 1
        assert sorted(os.listdir(tmp_path)) == before
        assert (tmp_path / "file").read_text() == "mine"
        return
    assert len(BaAwaValueTable.from_folder(written)) == len(solution)
    assert (tmp_path / "file").read_text() == "mine"
    assert not [n for n in os.listdir(written.parent) if n.startswith(".mancala-spec-")]


# -- the reader: each field, each wrong type (24 fields x 10 values) -------------------

def _fields(index: dict) -> list[tuple[str, ...]]:
    paths = [(k,) for k in index if k != "levels"] + [("start", "pits"), ("start", "to_move"),
                                                       ("start", "pits", 0)]
    level = next(iter(index["levels"]))
    paths += [("levels",), ("levels", level), ("levels", level, "positions"),
              ("levels", level, "shards"), ("levels", level, "shards", 0),
              ("levels", level, "shards", 0, 0), ("levels", level, "shards", 0, 1),
              ("levels", level, "shards", 0, 2)]
    return paths


@pytest.fixture(scope="module")
def index(solution, tmp_path_factory):
    folder = write_ba_awa_table(tmp_path_factory.mktemp("families") / "t", solution)
    return json.loads((folder / INDEX).read_text())


def test_every_field_of_an_index_given_a_wrong_type_is_a_table_error(index):
    tried = 0
    for path in _fields(index):
        for value in WRONG:
            damaged = copy.deepcopy(index)
            where = damaged
            for key in path[:-1]:
                where = where[key]
            if where[path[-1]] == value and type(where[path[-1]]) is type(value):
                continue
            where[path[-1]] = value
            data = json.dumps(damaged).encode()
            try:
                BaAwaValueTable.from_index(data, lambda name: None)
            except TableError as error:
                assert len(str(error).splitlines()) == 1
            else:
                # a value the field may take (the version is any text, an option's
                # other value)
                assert path == ("version",) and isinstance(value, str) \
                    or len(path) == 1 and path[0] in OPTIONS \
                    and OPTIONS[path[0]].accepts(value) and value is not None, (path, value)
            tried += 1
    assert tried > 200


# -- the protocol: each request field, each wrong type (11 fields x 10 values) ----------

def test_every_field_of_a_request_given_a_wrong_type_is_answered():
    valid = {"id": "v", "game": "ba-awa", "ruleset": "mancala_spec", "options": {},
             "position": position_fields(ms.get_game("ba-awa").start()), "move": 0}
    lines = []
    for path in [("game",), ("ruleset",), ("options",), ("position",), ("move",), ("match",),
                 ("position", "pits"), ("position", "to_move"), ("position", "captured"),
                 ("position", "opener"), ("position", "history")]:
        for value in WRONG:
            request = copy.deepcopy(valid)
            request["id"] = f"{'.'.join(path)}={value!r}"
            where = request
            for key in path[:-1]:
                where = where[key]
            where[path[-1]] = value
            lines.append(json.dumps(request))
    lines.append(json.dumps(valid))
    done = subprocess.run([sys.executable, "-m", "mancala_spec.conformance.engine"],
                          input="\n".join(lines) + "\n", capture_output=True, text=True,
                          timeout=300, env=package_env())
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-2000:]
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(answers) == len(lines) == 111
    assert [a["id"] for a in answers] == [json.loads(line)["id"] for line in lines]
    assert "result" in answers[-1]
