"""What the tests share besides fixtures (those are in conftest.py): building
positions, reading traces, random play, the games' option combinations, the naive
models of the sowing rules, the rule markers, and the browser's page helpers.
Test modules import it as ``helpers``.

Pit indices, for reading the hand-picked positions in the tests:

    Ba-awa  South a b c d e f = 0 1 2 3 4 5,  North A B C D E F = 6 7 8 9 10 11
    Bakuk   South a b c       = 0 1 2,        North A B C       = 3 4 5

Sowing runs 0, 1, 2, … counter-clockwise and wraps from the last pit to 0.
"""
from __future__ import annotations

import ast
import http.server
import random
import sys
from pathlib import Path

import pytest

import mancala_spec as ms
from mancala_spec.engine.checks import split_in_units
from mancala_spec.engine.trace import Capture, Drop, EndOfGame, EndOfLap, EndOfMove, Pass

SOUTH, NORTH = 0, 1
TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent

#: the values of ``MANCALA_SPEC_TEST_INSTALLED`` that turn the installed mode on, and off
INSTALLED_ON = ("1", "true", "yes", "on")
INSTALLED_OFF = ("", "0", "false", "no", "off")


def installed_mode(value: str | None = None) -> bool:
    """Whether the tests run against the installed package
    (``MANCALA_SPEC_TEST_INSTALLED``, any case: 1/true/yes/on, or 0/false/no/off or
    unset); ValueError for another value, so that a typo is not taken for either."""
    import os

    text = (os.environ.get("MANCALA_SPEC_TEST_INSTALLED", "") if value is None
            else value).strip().lower()
    if text not in INSTALLED_ON + INSTALLED_OFF:
        raise ValueError(f"MANCALA_SPEC_TEST_INSTALLED={value!r}: give 1/true/yes/on or "
                         "0/false/no/off")
    return text in INSTALLED_ON


def package_env(*first: str | Path, **more: str) -> dict[str, str]:
    """The environment of a process a test starts: the package it imports is the
    one under test: the checkout's (``PYTHONPATH`` the root), or, in the installed
    mode, the installed one (the root kept off the path). *first*: folders to put
    on ``PYTHONPATH`` before it; *more*: other variables."""
    import os

    env = {**os.environ, **more}
    paths = [str(p) for p in first]
    if installed_mode():
        env["PYTHONSAFEPATH"] = "1"
    else:
        paths.append(str(ROOT))
    if paths:
        env["PYTHONPATH"] = os.pathsep.join(paths)
    else:
        env.pop("PYTHONPATH", None)
    return env


# -- the browser (test_browser.py, test_phone.py, test_a11y.py) ------------------------


class Watch:
    """Console errors, page errors and requests that leave the site, of one page."""

    def __init__(self, page, base: str) -> None:
        self.problems: list[str] = []
        page.on("console", lambda m: m.type == "error" and self.problems.append(
            f"console: {m.text} ({m.location.get('url')})"))
        page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))
        # (a request cut short by leaving the page, such as a late favicon, is no fault)
        page.on("requestfailed", lambda r: r.failure == "net::ERR_ABORTED"
                or self.problems.append(f"failed: {r.url} ({r.failure})"))
        page.on("request", lambda r: r.url.startswith((base, "data:", "blob:"))
                or self.problems.append(f"outside the site: {r.url}"))
        page.on("response", lambda r: r.status >= 400 and self.problems.append(
            f"HTTP {r.status}: {r.url}"))


#: what :func:`profile_page` clears of the site's data (Chrome DevTools Protocol
#: Storage.clearDataForOrigin): everything the site can store, not the caches
SITE_DATA = "cookies,local_storage,indexeddb,websql,service_workers,cache_storage,file_systems"


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Serves a built site to the browser tests without logging each request."""

    def log_message(self, *args) -> None:
        pass


class QuietServer(http.server.ThreadingHTTPServer):
    """A site's server for the browser tests: a browser that closes a connection
    while a file is still being sent (a page closed mid-load) is no error of the
    site, so it prints nothing; any other error is printed as http.server does."""

    def handle_error(self, request, client_address) -> None:
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


def profile_page(profile, base: str, viewport: dict | None = None):
    """A new page of the worker's profile (``profile``), *viewport* wide (1280×900 by
    default), with nothing the site at *base* stored before."""
    page = profile.new_page()
    page.set_viewport_size(viewport or {"width": 1280, "height": 900})
    session = profile.new_cdp_session(page)
    session.send("Storage.clearDataForOrigin",
                 {"origin": base.rstrip("/"), "storageTypes": SITE_DATA})
    session.detach()
    return page


def covers(*rule_ids: str):
    """Mark a test as pinning the catalogue rules *rule_ids*.

    ``test_every_rule_is_tested`` reads these decorators (from the source of
    test_ba_awa.py and test_bakuk.py) to check that every catalogue rule has a test.
    """
    return pytest.mark.rule(*rule_ids)


def covered_rules(*filenames: str) -> dict[str, set[str]]:
    """Rule ID → names of the test functions decorated ``@covers(<rule ID>, …)``
    in the given test files (paths below tests/; read with :mod:`ast`, so nothing
    is executed)."""
    found: dict[str, set[str]] = {}
    for filename in filenames:
        tree = ast.parse((TESTS / filename).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef) or not node.name.startswith("test_"):
                continue
            for decorator in node.decorator_list:
                if (isinstance(decorator, ast.Call) and isinstance(decorator.func, ast.Name)
                        and decorator.func.id == "covers"):
                    for arg in decorator.args:
                        assert isinstance(arg, ast.Constant) and isinstance(arg.value, str), \
                            f"{filename}:{node.lineno}: covers() takes literal rule IDs"
                        found.setdefault(arg.value, set()).add(node.name)
    return found


def catalogue_ids(game: str | None = None) -> list[str]:
    return [rule.id for rule in ms.load_catalogue() if game is None or rule.game == game]


def strings(data) -> list[str]:
    """Every value of nested dicts and lists (read from YAML or JSON), as text."""
    if isinstance(data, dict):
        return [s for value in data.values() for s in strings(value)]
    if isinstance(data, list):
        return [s for value in data for s in strings(value)]
    return [str(data)]


# -- building positions ----------------------------------------------------------


def make(game, pits, to_move=SOUTH, captured=None, **fields):
    """``game.position(...)``; *captured* defaults to the missing seeds split so
    that play can reach the counts, as Game.position splits them
    (Game.default_captured: in the game's capture units, fours in Ba-awa and
    twos in Bakuk, as evenly as they go, South first). A board whose missing
    seeds are no whole number of units cannot be reached while seeds are on it:
    a test that needs one passes ``allow_unreachable=True`` (saying why) and
    gets the missing seeds split as evenly as possible, South first."""
    if captured is None:
        missing = game.total_seeds - sum(pits)
        captured = split_in_units(missing, game.capture_unit, game.players) or tuple(
            missing // game.players + (p < missing % game.players)
            for p in range(game.players))
    return game.position(list(pits), to_move=to_move, captured=captured, **fields)


# -- reading traces --------------------------------------------------------------


def captures(trace):
    """``(pit name, seeds, player, rule)`` for each capture, in order."""
    name = trace.before.game.board.name
    return [(name(e.pit), e.seeds, e.player, e.rule) for e in trace.events
            if isinstance(e, Capture)]


def laps(trace):
    """``(pit name, count)`` where each lap ended, in order."""
    name = trace.before.game.board.name
    return [(name(e.pit), e.count) for e in trace.events if isinstance(e, EndOfLap)]


def drops(trace):
    """The names of the pits the move dropped a seed in, in order."""
    name = trace.before.game.board.name
    return [name(e.pit) for e in trace.events if isinstance(e, Drop)]


def move_end(trace):
    """The move's EndOfMove event (exactly one per move)."""
    ends = [e for e in trace.events if isinstance(e, EndOfMove)]
    assert len(ends) == 1, ends
    return ends[0]


def game_end(trace):
    """The EndOfGame event, or None; there is at most one and it comes last."""
    ends = [e for e in trace.events if isinstance(e, EndOfGame)]
    assert len(ends) <= 1, ends
    if ends:
        assert trace.events[-1] is ends[0]
    return ends[0] if ends else None


def passes(trace):
    return [(e.player, e.rule) for e in trace.events if isinstance(e, Pass)]


def replay(trace):
    """Apply the trace's events to the position before the move; return the
    resulting (pits, captured). Checks each event against the running state."""
    from mancala_spec.engine.trace import PickUp, Relay

    pits = list(trace.before.pits)
    captured = list(trace.before.captured)
    for event in trace.events:
        if isinstance(event, (PickUp, Relay)):
            assert pits[event.pit] == event.seeds, event
            pits[event.pit] = 0
        elif isinstance(event, Drop):
            pits[event.pit] += 1
            assert pits[event.pit] == event.count, event
        elif isinstance(event, Capture):
            assert pits[event.pit] == event.seeds, event
            pits[event.pit] = 0
            captured[event.player] += event.seeds
        elif isinstance(event, EndOfLap):
            assert pits[event.pit] == event.count, event
    return tuple(pits), tuple(captured)


# -- random play -------------------------------------------------------------------

# Longest games seen in 20,000 random games with default options: Ba-awa 35 moves,
# Bakuk 106. Both games are finite (see test_properties.py); this cap only bounds
# random play in tests, and a game reaching it fails the test that played it.
MOVE_CAP = 1000


def random_game(start, rng: random.Random, cap: int = MOVE_CAP):
    """Play random legal moves from *start* until the game ends; return the
    list of traces. Fails if the game is still going after *cap* moves."""
    traces = []
    pos = start
    while not pos.is_over:
        assert len(traces) < cap, f"game not over after {cap} moves: {pos!r}"
        trace = pos.trace(rng.choice(pos.legal_moves()))
        traces.append(trace)
        pos = trace.position
    return traces


#: The combinations of option values that ``get_game`` refuses, as documented, each
#: given by the values that clash: Ba-awa's ``choose="row"`` needs two players (with
#: three, East has no row of their own; rule ba-awa-choose). test_options checks that
#: ``get_game`` refuses exactly these.
REFUSED: dict[str, list[dict[str, object]]] = {
    "ba-awa": [{"choose": "row", "players": 3}],
    "bakuk": [],
}


def refused(name: str, options: dict) -> bool:
    """Whether *options* (every option of game *name*) is a refused combination."""
    return any(all(options[key] == value for key, value in clash.items())
               for clash in REFUSED[name])


def every_option_combination(name: str):
    """Every combination of the game's option values, as keyword dicts, the
    refused ones (:data:`REFUSED`) included."""
    import itertools

    from mancala_spec.options import NOT_IN_KERNEL

    # the values that play other programs' readings and Koumma (NOT_IN_KERNEL) are left
    # out: the kernel does not play them; tests/test_rulesets*.py test them one by one
    options = ms.get_game(name).OPTIONS
    choices = [[v for v in option.choices if (name, option.name, v) not in NOT_IN_KERNEL
                or type(v) is not type(option.default)] for option in options]
    for values in itertools.product(*choices):
        yield {option.name: value for option, value in zip(options, values)}


def option_combinations(name: str):
    """Every combination of the game's option values that ``get_game`` accepts,
    as keyword dicts: the documented refused ones (:data:`REFUSED`) are left out."""
    for options in every_option_combination(name):
        if not refused(name, options):
            yield options


# -- naive models, written from the catalogue statements (no engine code) ----------
#
# They share nothing with the engine, so agreement between the two is evidence
# that both follow the rule statements. They sow one move and stop at the end of
# the sowing: no end-of-move or end-of-game rules.


def naive_ba_awa_sowing(pits, owners, mover, pit, skip_origin=False, max_laps=10_000):
    """Sow Ba-awa pit *pit* lap after lap (ba-awa-sow, -relay, -owner-four,
    -mover-four, -sowing-end, -origin). Returns ``(pits, gained, ending, states)``:
    *gained* per player, *ending* ``"four"``, ``"empty-pit"`` or ``None`` when
    *max_laps* laps did not end the sowing, and *states* the (board, pit) from
    which each lap started, plus, if capped, the one the next lap would start from."""
    pits = list(pits)
    size = len(pits)
    gained = [0, 0]
    states = []
    while True:
        states.append((tuple(pits), pit))
        if len(states) > max_laps:
            return tuple(pits), tuple(gained), None, states
        hand, pits[pit] = pits[pit], 0
        here = pit
        while hand:
            here = (here + 1) % size
            if skip_origin and here == pit:
                here = (here + 1) % size
            pits[here] += 1
            hand -= 1
            if pits[here] == 4 and hand:            # not the lap's last seed: owner takes
                gained[owners[here]] += 4
                pits[here] = 0
        if pits[here] == 4:                          # the last seed made four: mover takes
            gained[mover] += 4
            pits[here] = 0
            return tuple(pits), tuple(gained), "four", states
        if pits[here] == 1:                          # landed in an empty pit
            return tuple(pits), tuple(gained), "empty-pit", states
        pit = here                                   # relay: lift it all, last seed too


def naive_bakuk_sowing(pits, mover, pit, skip_origin=False, chain="forward"):
    """Sow Bakuk hole *pit*: one lap, then the capture and its chain (bakuk-sow,
    -origin, -capture, -chain). Returns ``(pits, gained, captured holes in order)``."""
    pits = list(pits)
    size = len(pits)
    gained = [0, 0]
    taken = []
    hand, pits[pit] = pits[pit], 0
    here = pit
    while hand:
        here = (here + 1) % size
        if skip_origin and here == pit:
            here = (here + 1) % size
        pits[here] += 1
        hand -= 1
    step = 1 if chain == "forward" else -1
    while pits[here] in (2, 4):
        gained[mover] += pits[here]
        pits[here] = 0
        taken.append(here)
        here = (here + step) % size
    return tuple(pits), tuple(gained), taken
