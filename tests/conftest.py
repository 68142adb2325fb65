"""The tests' fixtures and hooks: the site built once per run, the conformance
suite of the docs, the wheel, the browser. What the tests share besides fixtures
(positions, traces, random play, option combinations, the naive models, the
browser's page helpers) is in helpers.py, which test modules import."""
from __future__ import annotations

import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
#: the folder of test_site.py, which builds the site (pyproject.toml puts it on sys.path)
SITE_TESTS = TESTS / "site"


SITE_DIR = "mancala_spec_site_dir"


def default_signals() -> None:
    """The signal tests send SIGINT and SIGHUP to the commands they start, and a
    command keeps a signal its parent ignores (as ``nohup``, or a shell's
    background job for SIGINT, leave them): the suite's own processes, and so the
    commands they start, take the two signals as the system's default does."""
    for number, default in ((signal.SIGINT, signal.default_int_handler),
                            (signal.SIGHUP, signal.SIG_DFL)):
        if signal.getsignal(number) == signal.SIG_IGN:
            signal.signal(number, default)


def pytest_configure(config):
    default_signals()
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
    if whole or any("test_site" in p or "test_browser" in p
                    or SITE_TESTS in (Path(p).resolve(), *Path(p).resolve().parents)
                    for p in paths):
        log = open(shared / "build.log", "w")
        config.stash[BUILD_KEY] = subprocess.Popen(
            [sys.executable, "-c", BACKGROUND_BUILD, str(shared), str(TESTS)],
            cwd=SITE_TESTS, stdout=log, stderr=subprocess.STDOUT)


#: the background build's program: test_site (and helpers, beside this file) on its
#: path; if it cannot even import them, the error is written where the tests wait for the
#: build, so that they fail at once with it instead of waiting for a build that never comes
BACKGROUND_BUILD = """\
import json, sys
from pathlib import Path
shared = Path(sys.argv[1])
sys.path[:0] = [sys.argv[2], str(Path(sys.argv[2]) / "site")]
try:
    import test_site
except BaseException as error:
    for name in ("html.json", "build.json"):
        (shared / name).write_text(json.dumps({"error": f"{type(error).__name__}: {error}"}))
    raise
test_site.record_build(shared)
"""


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
    import threading

    assert site.result.returncode == 0, site.result.stderr[-3000:]

    from helpers import QuietHandler, QuietServer

    httpd = QuietServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(site.html)))
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
        pytest.fail(f"playwright is not installed ({error}); python3 dev.py test installs it, "
                    "or pip install -e . --group test (pip 25.1 or later)")
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
