"""Run the conformance suite against an engine that speaks the protocol.

The runner never waits forever: each answer has a time limit, a hung engine is
killed and restarted for the next case, and a crashed one is reported with the
end of what it wrote on standard error.
"""
from __future__ import annotations

import json
import queue
import shlex
import subprocess
import threading
import time
from dataclasses import dataclass, field
from typing import Any

PASS, FAIL, SKIP, HUNG, CRASH = "pass", "fail", "skipped", "hung", "crashed"


@dataclass
class Outcome:
    """What happened to one case."""

    case: str
    rule: str
    status: str
    diff: list[str] = field(default_factory=list)


@dataclass
class Report:
    """The outcomes of a run, with a summary and an exit code."""

    outcomes: list[Outcome]
    seconds: float

    def count(self, status: str) -> int:
        return sum(1 for o in self.outcomes if o.status == status)

    @property
    def ok(self) -> bool:
        """True when no case failed, hung or crashed (skipped cases are allowed)."""
        return all(o.status in (PASS, SKIP) for o in self.outcomes)

    @property
    def exit_code(self) -> int:
        return 0 if self.ok else 1

    def summary(self) -> str:
        parts = [f"{self.count(s)} {s}" for s in (PASS, FAIL, SKIP, HUNG, CRASH) if self.count(s)]
        return (f"{len(self.outcomes)} cases: " + ", ".join(parts)
                + f" ({self.seconds:.2f} s)")

    def lines(self, verbose: bool = False) -> list[str]:
        out = []
        for outcome in self.outcomes:
            if outcome.status != PASS or verbose:
                out.append(f"{outcome.status.upper():7} {outcome.case}  [{outcome.rule}]")
                out.extend(f"        {line}" for line in outcome.diff)
        out.append(self.summary())
        return out


class EngineProcess:
    """An engine subprocess answering one JSON line per request."""

    def __init__(self, command: str | list[str]) -> None:
        self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        self.proc: subprocess.Popen | None = None
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.errors: list[str] = []

    def start(self) -> None:
        self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, bufsize=1)
        self.lines = queue.Queue()
        self.errors = []
        threading.Thread(target=self._read, args=(self.proc.stdout, self.lines), daemon=True).start()
        threading.Thread(target=self._drain, args=(self.proc.stderr, self.errors), daemon=True).start()

    @staticmethod
    def _read(stream, lines: queue.Queue) -> None:
        for line in stream:
            lines.put(line)
        lines.put(None)

    @staticmethod
    def _drain(stream, errors: list[str]) -> None:
        for line in stream:
            errors.append(line.rstrip("\n"))
            del errors[:-20]

    def ask(self, request: dict[str, Any], timeout: float) -> dict[str, Any]:
        """Send *request*; return the answer. Raises TimeoutError or EOFError."""
        if self.proc is None or self.proc.poll() is not None:
            self.start()
        try:
            self.proc.stdin.write(json.dumps(request) + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise EOFError("the engine closed its input") from None
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            self.stop()
            raise TimeoutError(f"no answer within {timeout:g} s") from None
        if line is None:
            self.stop()
            raise EOFError("the engine exited")
        return json.loads(line)

    def stop(self) -> None:
        if self.proc is not None:
            if self.proc.poll() is None:
                self.proc.kill()
            self.proc.wait()
            for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
                try:
                    stream.close()
                except OSError:
                    pass
            self.proc = None


def compare(expected: dict[str, Any], got: dict[str, Any], rules: bool = False) -> list[str]:
    """Readable differences between the expected answer and the engine's."""
    diff: list[str] = []

    def check(path: str, want: Any, have: Any) -> None:
        if want != have:
            diff.append(f"{path}: expected {json.dumps(want)}, got {json.dumps(have)}")

    check("legal_moves", expected["legal_moves"], got.get("legal_moves"))
    if expected.get("error"):
        check("error", expected["error"], got.get("error"))
        return diff
    if got.get("error"):
        diff.append(f"the engine refused the move as {got['error']!r}")
        return diff
    if expected.get("result") is None:
        check("is_over", expected["is_over"], got.get("is_over"))
        check("winner", expected["winner"], got.get("winner"))
        return diff
    result = got.get("result") or {}
    for key, want in expected["result"].items():
        if key != "text":
            check(f"result.{key}", want, result.get(key))
    if "match" in expected:
        have_match = got.get("match") or {}
        for key, want in expected["match"].items():
            check(f"match.{key}", want, have_match.get(key))
    if "events" in got and got["events"] is not None:
        want_events = [_strip(e, rules) for e in expected["events"]]
        have_events = [_strip(e, rules) for e in got["events"]]
        for index, (want, have) in enumerate(zip(want_events, have_events)):
            if want != have:
                diff.append(f"events[{index}]: expected {json.dumps(want)}, got {json.dumps(have)}")
                break
        else:
            if len(want_events) != len(have_events):
                diff.append(f"events: expected {len(want_events)}, got {len(have_events)}")
    return diff


def _strip(event: dict[str, Any], rules: bool) -> dict[str, Any]:
    return event if rules else {k: v for k, v in event.items() if k != "rule"}


def run(command: str | list[str], suite: dict[str, Any], timeout: float = 10.0,
        rules: bool = False) -> Report:
    """Run every case of *suite* (an exported suite document) against *command*."""
    from .protocol import PROTOCOL

    if suite.get("protocol") != PROTOCOL:
        raise ValueError(f"this runner speaks {PROTOCOL}, the suite is for {suite.get('protocol')!r}")
    engine = EngineProcess(command)
    outcomes: list[Outcome] = []
    began = time.perf_counter()
    try:
        for case in suite["cases"]:
            request = {"id": case["id"], "game": case["game"], "options": case["options"],
                       "position": case["position"]["fields"],
                       "move": case["move"]["pit"] if case["move"] else None}
            if case.get("match") is not None:
                request["match"] = case["match"]
            try:
                got = engine.ask(request, timeout)
            except TimeoutError as error:
                outcomes.append(Outcome(case["id"], case["rule"], HUNG, [str(error)]))
                continue
            except (EOFError, json.JSONDecodeError) as error:
                detail = [str(error)] + engine.errors[-5:]
                engine.stop()
                outcomes.append(Outcome(case["id"], case["rule"], CRASH, detail))
                continue
            if "unsupported" in got:
                outcomes.append(Outcome(case["id"], case["rule"], SKIP, [got["unsupported"]]))
                continue
            diff = compare(case["expected"], got, rules)
            if got.get("id") != case["id"]:
                diff.insert(0, f"id: expected {case['id']!r}, got {got.get('id')!r}")
            outcomes.append(Outcome(case["id"], case["rule"], FAIL if diff else PASS, diff))
    finally:
        engine.stop()
    return Report(outcomes, time.perf_counter() - began)
