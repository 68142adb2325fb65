"""Shared helpers for the engine tests.

Pit indices, for reading the hand-picked positions in the tests:

    Ba-awa  South a b c d e f = 0 1 2 3 4 5,  North A B C D E F = 6 7 8 9 10 11
    Bakuk   South a b c       = 0 1 2,        North A B C       = 3 4 5

Sowing runs 0, 1, 2, … counter-clockwise and wraps from the last pit to 0.
"""
from __future__ import annotations

import ast
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

import mancala_spec as ms
from mancala_spec.engine.reach import default_captured
from mancala_spec.engine.trace import Capture, EndOfGame, EndOfLap, EndOfMove, Pass

SOUTH, NORTH = 0, 1
TESTS = Path(__file__).resolve().parent


SITE_DIR = "mancala_spec_site_dir"


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "rule(*ids): the catalogue rule IDs a test pins (see covers())")
    config.addinivalue_line(
        "markers", "slow: takes tens of seconds (deselect with -m 'not slow')")
    if (not hasattr(config, "workerinput") and config.pluginmanager.hasplugin("xdist")
            and config.getoption("numprocesses", None)):
        # a parallel run: the site is built once, in the background from the start,
        # into a folder every worker is told of (pytest_configure_node)
        config.stash[SITE_KEY] = Path(tempfile.mkdtemp(prefix="mancala-spec-site-"))


SITE_KEY = pytest.StashKey[Path]()


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node):
    shared = node.config.stash.get(SITE_KEY, None)
    if shared is not None:
        node.workerinput[SITE_DIR] = str(shared)


def pytest_sessionstart(session):
    """In the controller of a parallel run of the whole suite, start the one
    site build now, so that it runs beside the tests that do not need it."""
    config = session.config
    shared = config.stash.get(SITE_KEY, None)
    if shared is None:
        return
    paths = [arg for arg in config.args if not arg.startswith("-")]
    whole = not paths or {Path(p).resolve() for p in paths} >= {TESTS}
    if whole or any("test_site" in p or "test_browser" in p for p in paths):
        log = open(shared / "build.log", "w")
        config.stash[BUILD_KEY] = subprocess.Popen(
            [sys.executable, "-c", "import sys; from pathlib import Path; import test_site; "
             "test_site.record_build(Path(sys.argv[1]))", str(shared)],
            cwd=TESTS, stdout=log, stderr=subprocess.STDOUT)


BUILD_KEY = pytest.StashKey[subprocess.Popen]()


def pytest_unconfigure(config):
    build = config.stash.get(BUILD_KEY, None)
    if build is not None and build.poll() is None:
        build.kill()
        build.wait()
    shared = config.stash.get(SITE_KEY, None)
    if shared is not None:
        shutil.rmtree(shared, ignore_errors=True)


def pytest_collection_modifyitems(session, config, items):
    """Tests that read the built site run last, so that its build (in the
    background, or by the first of them) overlaps the other tests; of those, the
    ones in the browser (the long ones) first, so that the short ones fill the end."""
    def order(item) -> tuple[bool, bool]:
        names = getattr(item, "fixturenames", ())
        return "site" in names, not {"chromium", "profile"} & set(names)

    items.sort(key=order)


@pytest.fixture(scope="session")
def site(tmp_path_factory, request):
    """The rules site, built once per run in a fresh clone (test_site.build_site):
    in a parallel run, once for every worker (the build the controller started,
    or the one the first worker to need it makes)."""
    import fcntl

    from test_site import build_site, record_build, shared_build

    workerinput = getattr(request.config, "workerinput", {})
    if SITE_DIR not in workerinput:
        return build_site(tmp_path_factory)
    shared = Path(workerinput[SITE_DIR])
    with open(shared / "build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (shared / "html.json").exists() and not (shared / "build.log").exists():
            record_build(shared)          # no build was started in the background
    return shared_build(shared)


@pytest.fixture(scope="session")
def docs_suite(tmp_path_factory) -> dict:
    """The conformance suite of the checkout's docs/ (``build_suite(extract_examples(
    docs))``, seconds of engine work), made once per run: the first worker of a
    parallel run to need it makes it (a lock in the run's shared temporary folder),
    kept in the site's cache (``$MANCALA_SPEC_CACHE``, :mod:`mancala_spec.sphinx.cache`)
    under the name the site build gives it, so that a build or a later run with the
    same package and pages takes it from there. As JSON, as the site and the
    downloaded file have it. test_conformance.py, test_examples.py and test_site.py
    read the same one (none changes it)."""
    import fcntl
    import json

    from mancala_spec.conformance import build_suite, extract_examples
    from mancala_spec.sphinx import cache
    from mancala_spec.sphinx.cache import suite_key

    docs = TESTS.parent / "docs"
    root = tmp_path_factory.getbasetemp()      # a worker's: <run's folder>/popen-gw<n>
    shared = (root.parent if root.name.startswith("popen-gw") else root) / "docs-suite"
    shared.mkdir(exist_ok=True)
    with open(shared / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        made = shared / "suite.json"
        if not made.exists():
            suite = cache.value(suite_key(docs), lambda: build_suite(extract_examples(docs)))
            partial = shared / "suite.json.part"
            partial.write_text(json.dumps(suite), encoding="utf-8")
            partial.replace(made)
        return json.loads(made.read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def wheel(tmp_path_factory) -> Path:
    """The project's wheel, built as a user builds it (``pip wheel <checkout>
    --no-deps``, the backend pyproject.toml names, in build isolation), once per
    run: test_wheel.py and test_licences.py read the same file. In a parallel run
    the first worker to need it builds it for the others (a lock in the run's
    shared temporary folder)."""
    import fcntl

    root = tmp_path_factory.getbasetemp()      # a worker's: <run's folder>/popen-gw<n>
    folder = (root.parent if root.name.startswith("popen-gw") else root) / "wheel"
    folder.mkdir(exist_ok=True)
    with open(folder / "build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        built = sorted((folder / "dist").glob("mancala_spec-*.whl"))
        if not built:
            result = subprocess.run([sys.executable, "-m", "pip", "wheel", str(TESTS.parent),
                                     "--no-deps", "-q", "-w", str(folder / "dist")],
                                    capture_output=True, text=True, timeout=600)
            assert result.returncode == 0, result.stderr[-3000:]
            built = sorted((folder / "dist").glob("mancala_spec-*.whl"))
    assert len(built) == 1, built
    return built[0]


# -- the built site in a browser (test_a11y.py, test_permalinks.py) ----------------

#: Debian's Chromium, launched headless with these flags (Playwright's own browser
#: download is never used).
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]


@pytest.fixture(scope="session")
def site_server(site):
    """The session's built site served by http.server on 127.0.0.1; its base URL."""
    import functools
    import http.server
    import threading

    assert site.result.returncode == 0, site.result.stderr[-3000:]

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args) -> None:
            pass

    httpd = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Quiet, directory=str(site.html)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_port}/"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="session")
def playwright_driver():
    """Playwright's driver, one per worker (its sync API allows one per thread): the
    session's Chromium (``chromium``) and its persistent profile (``profile``) both
    run under it. Without Playwright or Chromium the tests that need a browser FAIL
    (they never skip)."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as error:
        pytest.fail(f"playwright is not installed ({error}); pip install -e .[test]")
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install -y chromium (see .ci/run)")
    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture(scope="session")
def chromium(playwright_driver):
    """One headless Chromium for the session's page tests; each test opens its own
    context (a fresh, private profile: nothing kept from another test)."""
    browser = playwright_driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    yield browser
    browser.close()


@pytest.fixture(scope="session")
def profile(playwright_driver, tmp_path_factory):
    """One Chromium profile on disk per worker, for the pages that start the engine in
    the browser (Pyodide: the Play page, a rule page's Try it). A private context keeps
    no code cache, so each of them ran Pyodide's start on V8's quick first-tier code
    (Liftoff), optimised again as it warms up: about 4.5 CPU-s a load. With a disk
    cache, Chromium keeps V8's optimised WebAssembly, and every load after the
    worker's first takes about 2.5 CPU-s. Open pages with :func:`profile_page`, which clears
    what the site stored (its local storage, cookies, databases), so that a page
    starts as a new reader's would, with only the caches warm."""
    context = playwright_driver.chromium.launch_persistent_context(
        str(tmp_path_factory.mktemp("chromium-profile")), executable_path=CHROMIUM,
        args=CHROMIUM_ARGS, headless=True, viewport={"width": 1280, "height": 900})
    yield context
    context.close()


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
    in the given test files (read with :mod:`ast`, so nothing is executed)."""
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


# -- building positions ----------------------------------------------------------


def make(game, pits, to_move=SOUTH, captured=None, **fields):
    """``game.position(...)``; *captured* defaults to the missing seeds split so
    that play can reach the counts, as Game.position splits them
    (reach.default_captured: in the game's capture units, fours in Ba-awa and
    twos in Bakuk, as evenly as they go, South first). A board whose missing
    seeds are no whole number of units cannot be reached while seeds are on it:
    a test that needs one passes ``allow_unreachable=True`` (saying why) and
    gets the missing seeds split as evenly as possible, South first."""
    if captured is None:
        missing = game.total_seeds - sum(pits)
        captured = default_captured(game, missing) or tuple(
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
    from mancala_spec.engine.trace import Drop, PickUp, Relay

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
