"""The reference engine (``python -m mancala_spec.conformance.engine``) answers
every line: a line that is JSON but no request gets an error answer and the
engine goes on to the next (R4-3 of issue 42: it died with a traceback on
``[]``, ``1``, ``null``, ``true``, ``NaN`` and 100,000-deep arrays, and the next,
valid request was never answered)."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest
from helpers import package_env

import mancala_spec as ms
from mancala_spec.conformance.protocol import position_fields

VALID = json.dumps({"id": "valid", "game": "ba-awa", "options": {},
                    "position": position_fields(ms.get_game("ba-awa").start()), "move": 0})

NOT_REQUESTS = ["[]", "1", "null", "true", "false", "NaN", "-Infinity", '"a string"', "1e400",
                "[" * 100_000 + "]" * 100_000, '{"a":' * 100_000 + "1" + "}" * 100_000,
                "{}", '{"id": "x"}', '{"id": "x", "game": 1}', '{"id": "x", "game": []}',
                '{"id": "x", "game": "ba-awa", "options": []}',
                '{"id": "x", "game": "ba-awa", "options": {}, "position": 1}',
                '{"id": "x", "game": "ba-awa", "options": {}, "position": {}}',
                '{"id": NaN, "game": "ba-awa"}', "{", "\x00", "\udcff"]   # (a byte 0xff)


def engine(lines: list[str]) -> list[dict]:
    done = subprocess.run([sys.executable, "-m", "mancala_spec.conformance.engine"],
                          input="".join(line + "\n" for line in lines).encode(
                              "utf-8", "surrogateescape"),
                          capture_output=True, timeout=120, env=package_env())
    done.stdout, done.stderr = done.stdout.decode(), done.stderr.decode()
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-2000:]
    return [json.loads(line) for line in done.stdout.splitlines()]


@pytest.mark.parametrize("line", NOT_REQUESTS, ids=lambda line: repr(line[:20]))
def test_a_line_that_is_no_request_is_answered_and_the_next_is_too(line):
    answers = engine([line, VALID])
    assert len(answers) == 2
    assert answers[0]["unsupported"].startswith("bad request") or "unsupported" in answers[0]
    assert answers[1]["id"] == "valid" and "result" in answers[1]


def test_every_line_of_a_stream_of_them_is_answered_in_order():
    answers = engine([*NOT_REQUESTS, VALID])
    assert len(answers) == len(NOT_REQUESTS) + 1
    assert all("unsupported" in a for a in answers[:-1]) and answers[-1]["id"] == "valid"
