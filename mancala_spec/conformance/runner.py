"""Run the conformance suite against an engine that speaks the protocol.

The runner never waits forever and never trusts the engine:

- each answer has a time limit; an engine that misses it is killed (with its
  whole process group) and started again for the next case;
- an answer is one line of at most
  :data:`~mancala_spec.conformance.process.MAX_ANSWER_BYTES`; a longer one (an
  engine flooding its output) is cut off and reported;
- an answer that is not UTF-8, not JSON, or not of the protocol's shape is an
  engine failure of that case, never a crash of the runner;
- after ``max_failures`` consecutive engine failures (timeouts, crashes, bad
  answers) the run stops early and says why;
- the engine is killed with its process group when the run ends, however it
  ends (Ctrl-C and SIGTERM included).

Two threads read the engine's output (:mod:`.process`); no ``select`` on pipes.
"""
from __future__ import annotations

import json
import math
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TextIO

from ..errors import RunnerError, shown
from .process import AnswerError, EngineProcess, printable, short
from .suite_check import (
    DEFAULT_RULESET,
    case_problem,
    check_suite,
    is_ints,
)

PASS, FAIL, SKIP, HUNG, CRASH, BAD, INVALID = (
    "pass", "fail", "skipped", "hung", "crashed", "bad-answer", "invalid-case")
#: Statuses that mean the engine misbehaved (they count towards stopping early).
ENGINE_FAILURES = (HUNG, CRASH, BAD)


@dataclass
class Outcome:
    """What happened to one case."""

    case: str
    rule: str
    status: str
    diff: list[str] = field(default_factory=list)
    #: the request sent for the case (``None`` for a case not valid enough to send)
    request: dict[str, Any] | None = None
    #: the request in words: game, ruleset, options not at their defaults, position, move
    asked: str = ""


@dataclass
class Report:
    """The outcomes of a run, with a summary and an exit code."""

    outcomes: list[Outcome]
    seconds: float
    total: int = 0
    stopped: str | None = None
    min_supported: int | None = None

    def count(self, status: str) -> int:
        return sum(1 for o in self.outcomes if o.status == status)

    @property
    def supported(self) -> int:
        return len(self.outcomes) - self.count(SKIP) - self.count(INVALID)

    @property
    def ok(self) -> bool:
        """True when every case ran and passed or was skipped, and enough were supported."""
        return self.problem() is None

    def problem(self) -> str | None:
        """Why the run does not count as a pass, or ``None``."""
        if self.stopped:
            return self.stopped
        if not self.outcomes:
            return "no case ran"
        bad = [s for s in (FAIL, INVALID, *ENGINE_FAILURES) if self.count(s)]
        if bad:
            return ", ".join(f"{self.count(s)} {s}" for s in bad)
        wanted = len(self.outcomes) if self.min_supported is None else self.min_supported
        if self.supported < wanted:
            return (f"only {self.supported} of {len(self.outcomes)} cases supported; "
                    f"--min-supported is {wanted}")
        if self.supported == 0:
            return "no case was supported"
        return None

    @property
    def exit_code(self) -> int:
        """0 passed, 1 failures, 3 the engine could not be run (see the CLI's table)."""
        if self.stopped or not self.outcomes:
            return 3
        return 0 if self.problem() is None else 1

    def verdict(self) -> str:
        """The run's verdict in one line: ``conforming: ...`` or ``not conforming: ...``."""
        problem = self.problem()
        if problem:
            return f"not conforming: {problem}"
        supported = self.supported
        if supported == len(self.outcomes):
            return f"conforming: all {supported} cases pass"
        return (f"conforming: the {supported} supported cases of {len(self.outcomes)} pass "
                f"(the engine answered 'unsupported' to {self.count(SKIP)})")

    def counts(self) -> str:
        """How many cases ran and how each ended, and the time taken."""
        parts = [f"{self.count(s)} {s}"
                 for s in (PASS, FAIL, SKIP, HUNG, CRASH, BAD, INVALID) if self.count(s)]
        ran = f"{len(self.outcomes)} of {self.total}" if self.total != len(self.outcomes) \
            else f"{len(self.outcomes)}"
        return f"{ran} cases: " + (", ".join(parts) or "none") + f" ({self.seconds:.2f} s)"

    def summary(self) -> str:
        """The verdict, then the counts (two lines)."""
        return f"{self.verdict()}\n{self.counts()}"

    def skip_reasons(self) -> list[tuple[str, int]]:
        """The engine's reasons for the skipped cases, each with how many cases
        it gave it for, most first (then in the order first given)."""
        reasons: dict[str, int] = {}
        for outcome in self.outcomes:
            if outcome.status == SKIP:
                reason = outcome.diff[0] if outcome.diff else "(no reason given)"
                reasons[reason] = reasons.get(reason, 0) + 1
        return sorted(reasons.items(), key=lambda item: -item[1])

    def lines(self, verbose: bool = False) -> list[str]:
        """The report: the verdict and the counts first; then every case that
        did not pass, with the request sent and what differs; then the skipped
        cases grouped by the engine's reason, with counts. *verbose* lists every
        case one by one instead, the passing and the skipped too."""
        out = [self.verdict(), self.counts()]
        listed = [o for o in self.outcomes if verbose or o.status not in (PASS, SKIP)]
        if listed:
            out.append("")
        for outcome in listed:
            out.append(f"{outcome.status.upper():12} {printable(outcome.case)}  "
                       f"[{printable(outcome.rule)}]")
            if outcome.request is not None and outcome.status not in (PASS, SKIP):
                if outcome.asked:
                    out.append(f"{'':13}asked: {printable(outcome.asked)}")
                out.append(f"{'':13}sent: {short_request(outcome.request)}")
            out.extend(f"{'':13}{printable(line)}" for line in outcome.diff)
        reasons = self.skip_reasons()
        if reasons and not verbose:
            out.append("")
            out.append(f"skipped {self.count(SKIP)}, by the engine's reason "
                       "(--verbose lists each case):")
            width = len(str(reasons[0][1]))
            for reason, count in reasons[:MOST_REASONS]:
                out.append(f"  {count:{width}}  {printable(reason)}")
            if len(reasons) > MOST_REASONS:
                rest = sum(count for _, count in reasons[MOST_REASONS:])
                out.append(f"  {rest:{width}}  for {len(reasons) - MOST_REASONS} other reasons")
        return out


#: the most distinct reasons for skipping the report lists one by one
MOST_REASONS = 10
#: the longest request a report shows whole (characters); a longer one is cut
REQUEST_SHOWN = 2000


def short_request(request: dict[str, Any]) -> str:
    """The request as the one JSON line sent (without its ``id``), made
    :func:`printable`: with the position, the options and the move, it can be
    sent to the engine again by hand."""
    shown_request = {k: v for k, v in request.items() if k != "id"}
    text = json.dumps(shown_request, ensure_ascii=False, separators=(",", ":"))
    if len(text) > REQUEST_SHOWN:
        return printable(text[:REQUEST_SHOWN]) + f"… ({len(text):,} characters)"
    return printable(text)


def answer_problem(got: Any) -> str | None:
    """Why *got* is not an answer of the protocol's shape, or ``None``."""
    if not isinstance(got, dict):
        return f"the answer is not a JSON object: {short(got)}"
    if "unsupported" in got:
        return None if isinstance(got["unsupported"], str) else '"unsupported" is not a string'
    if not is_ints(got.get("legal_moves")):
        return '"legal_moves" is missing or not a list of integers'
    for key in ("result", "match"):
        if got.get(key) is not None and not isinstance(got[key], dict):
            return f'"{key}" is not an object'
    if got.get("events") is not None and not (
            isinstance(got["events"], list) and all(isinstance(e, dict) for e in got["events"])):
        return '"events" is not a list of objects'
    if "error" in got and not isinstance(got["error"], str):
        return '"error" is not a string'
    return None


def compare(expected: dict[str, Any], got: dict[str, Any], rules: bool = False) -> list[str]:
    """Readable differences between the expected answer and the engine's
    (*got* must have passed :func:`answer_problem`)."""
    diff: list[str] = []

    def check(path: str, want: Any, have: Any) -> None:
        if want != have or type(want) is not type(have):
            diff.append(f"{path}: expected {short(want)}, got {short(have)}")

    check("legal_moves", expected["legal_moves"], got.get("legal_moves"))
    if expected.get("error"):
        check("error", expected["error"], got.get("error"))
        return diff
    if got.get("error"):
        diff.append(f"the engine refused the move as {short(repr(got['error']), raw=True)}")
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
    if got.get("events") is not None:
        want_events = [_strip(e, rules) for e in expected["events"]]
        have_events = [_strip(e, rules) for e in got["events"]]
        for index, (want, have) in enumerate(zip(want_events, have_events)):
            if want != have:
                diff.append(f"events[{index}]: expected {short(want)}, got {short(have)}")
                break
        else:
            if len(want_events) != len(have_events):
                diff.append(f"events: expected {len(want_events)}, got {len(have_events)}")
    return diff


def _strip(event: dict[str, Any], rules: bool) -> dict[str, Any]:
    return event if rules else {k: v for k, v in event.items() if k != "rule"}


def request_of(case: dict[str, Any]) -> dict[str, Any]:
    """The protocol request for a (valid) suite case."""
    request = {"id": case["id"], "game": case["game"],
               "ruleset": case.get("ruleset", DEFAULT_RULESET), "options": case["options"],
               "position": case["position"]["fields"],
               "move": case["move"]["pit"] if case.get("move") else None}
    if case.get("match") is not None:
        request["match"] = case["match"]
    return request


def describe_request(case: dict[str, Any]) -> str:
    """A (valid) case's request in words: ``bakuk (ruleset mancala_spec),
    options skip_origin=true, position 3,3,0/0,3,3 N 12-12 opener=S, move e
    (pit 4)``. Only the options not at the game's defaults are named (all of
    them for a game or ruleset this package does not know)."""
    from ..engine.games import get_game
    from ..errors import MancalaError

    options = case["options"]
    try:
        defaults = dict(get_game(case["game"], ruleset=case.get("ruleset", DEFAULT_RULESET))
                        .options)
    except (MancalaError, TypeError, KeyError):
        defaults = {}
    changed = [f"{key}={json.dumps(value, ensure_ascii=False)}" for key, value in options.items()
               if key not in defaults or defaults[key] != value]
    parts = [f"{case['game']} (ruleset {case.get('ruleset', DEFAULT_RULESET)})",
             "options " + " ".join(changed) if changed else "default options"]
    text = case["position"].get("text")
    if isinstance(text, str):
        parts.append(f"position {text}")
    move = case.get("move")
    if move is None:
        parts.append("no move (the position only)")
    else:
        name = move.get("name")
        parts.append(f"move {name} (pit {move['pit']})" if isinstance(name, str)
                     else f"move pit {move['pit']}")
    return short(", ".join(parts), raw=True)


class Progress:
    """Cases done of the total and failures so far, on *stream*: redrawn in
    place on a terminal, else a plain line every tenth of the run, whenever a
    case does not pass, and at least every *every* seconds."""

    def __init__(self, total: int, stream: TextIO | None = None, every: float = 5.0) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.total = total
        self.live = bool(getattr(self.stream, "isatty", lambda: False)())
        self.step = max(1, math.ceil(total / 10))
        self.every = every
        self.shown = False
        self.failures = 0
        self.last = time.monotonic()

    def __call__(self, done: int, failures: int, case: str) -> None:
        line = f"conformance: {done}/{self.total} cases, {failures} not passed"
        now = time.monotonic()
        if self.live:
            self.stream.write(f"\r{line}  {case[:30]:30}")
            self.shown = True
        elif (done % self.step == 0 or done == self.total or failures > self.failures
              or now - self.last >= self.every):
            self.stream.write(line + (f" (last: {case})" if failures > self.failures else "")
                              + "\n")
            self.last = now
        self.failures = failures
        self.stream.flush()

    def close(self) -> None:
        if self.live and self.shown:
            self.stream.write("\n")
            self.stream.flush()


#: the longest timeout :func:`run` takes (as the command line's ``--timeout``): an hour
MOST_SECONDS = 3600


def run(command: str | list[str], suite: dict[str, Any], timeout: float = 10.0,
        rules: bool = False, max_failures: int = 5, min_supported: int | None = None,
        progress: Callable[[int, int, str], None] | None = None,
        traffic: list[tuple[dict[str, Any], str]] | None = None) -> Report:
    """Run every case of *suite* (an exported suite document) against *command*.

    *max_failures* consecutive engine failures stop the run (0: never stop);
    *min_supported* is how many cases must be supported (default: all).
    *traffic*, if given, receives every (request, answer line) exchanged.
    Raises :class:`~mancala_spec.errors.SuiteError` for a suite that is not
    one, :class:`~mancala_spec.errors.RunnerError` for a bad setting and
    :class:`EngineStartError` if the engine cannot be started at all."""
    check_suite(suite)
    if not (type(timeout) in (int, float) and 0 < timeout <= MOST_SECONDS):
        raise RunnerError(f"the timeout must be more than 0 and at most {MOST_SECONDS} seconds, "
                          f"not {shown(timeout)}", "timeout", timeout)
    if not (type(max_failures) is int and max_failures >= 0):
        raise RunnerError(f"max_failures must be a count, 0 or more, not {shown(max_failures)}",
                          "max_failures", max_failures)
    if min_supported is not None and not (type(min_supported) is int and min_supported >= 0):
        raise RunnerError(f"min_supported must be a count, 0 or more, or None, not "
                          f"{shown(min_supported)}", "min_supported", min_supported)
    engine = EngineProcess(command)
    cases = suite["cases"]
    outcomes: list[Outcome] = []
    report = Report(outcomes, 0.0, total=len(cases), min_supported=min_supported)
    began = time.perf_counter()
    streak = 0
    try:
        for case in cases:
            outcome = _run_case(engine, case, timeout, rules, traffic)
            outcomes.append(outcome)
            streak = streak + 1 if outcome.status in ENGINE_FAILURES else 0
            if progress is not None:
                progress(len(outcomes), sum(o.status not in (PASS, SKIP) for o in outcomes),
                         outcome.case)
            if max_failures and streak >= max_failures:
                report.stopped = (f"stopped after {streak} consecutive engine failures "
                                  f"(last: {outcome.diff[0] if outcome.diff else outcome.status})")
                break
    finally:
        engine.close()
        report.seconds = time.perf_counter() - began
    return report


def _run_case(engine: EngineProcess, case: Any, timeout: float, rules: bool,
              traffic: list[tuple[dict[str, Any], str]] | None) -> Outcome:
    problem = case_problem(case)
    case_id = str(case.get("id")) if isinstance(case, dict) else "?"
    rule = str(case.get("rule")) if isinstance(case, dict) else "?"
    if problem:
        return Outcome(case_id, rule, INVALID, [problem])
    request = request_of(case)
    asked = describe_request(case)
    try:
        got, text = engine.ask(request, timeout)
    except TimeoutError as error:
        return Outcome(case_id, rule, HUNG, [str(error)], request, asked)
    except EOFError as error:
        return Outcome(case_id, rule, CRASH, [str(error)] + engine.errors(), request, asked)
    except AnswerError as error:
        return Outcome(case_id, rule, BAD, [str(error)], request, asked)
    if traffic is not None:
        traffic.append((request, text))
    shape = answer_problem(got)
    if shape:
        return Outcome(case_id, rule, BAD, [shape], request, asked)
    if "unsupported" in got:
        return Outcome(case_id, rule, SKIP, [short(got["unsupported"], raw=True)], request, asked)
    diff = compare(case["expected"], got, rules)
    if got.get("id") != case["id"]:
        diff.insert(0, f"id: expected {case['id']!r}, got {short(got.get('id'))}")
    return Outcome(case_id, rule, FAIL if diff else PASS, diff, request, asked)
