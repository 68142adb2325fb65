"""How soon the Play page shows a board that takes a move, and how soon its engine is ready.

    python benchmarks/bench_play_load.py [--site build/html] [--runs N] [--query QUERY]

Serves the built site (``python dev.py site`` builds it) on a free localhost port,
opens ``play.html`` in headless Chromium (``/usr/bin/chromium``, as the browser
tests) and reports, for each run, in milliseconds from the start of navigation:

* ``board``: the first pit of the board that can be clicked (a pit button not
  disabled) is in the page;
* ``engine``: the engine (Pyodide, the wheel, play.py) is running and the page
  has drawn its state (``#mancala-play[data-ready=true]``);
* ``before board``: the bytes the page had fetched when the board appeared
  (the resources whose response ended before it, as the Resource Timing API
  sees them: the page's own and its workers', the engine's worker among them);
* ``python``: when Pyodide's Python had started in the engine's worker (its
  ``loadPyodide`` done), for where the time goes: before it, fetching and
  compiling Pyodide and restoring the build's snapshot of the engine (or, without
  one, starting Python); after it, the wheel (and without a snapshot play.py's
  imports), then the page's first game;
* ``from the snapshot``: how many runs restored the engine from the build's
  snapshot (``tools/play_snapshot.mjs``) rather than starting Python cold;
* ``longest task``: the longest the page's main thread was busy at a stretch
  between the board's appearance and the engine's (the Long Tasks API): a
  click on the board waits at most that long to be taken.

*cold* runs each open a new browser context (an empty cache), *warm* runs
reload the page in the context of the last cold run (the HTTP cache and V8's
code cache kept). The median and the best of the runs are printed. A
benchmark, not a test: the figures depend on the machine and its load.
"""
from __future__ import annotations

import argparse
import functools
import http.server
import statistics
import threading
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]

#: Installed before the page's own scripts: records when a clickable pit first
#: appears and when the engine is ready (performance.now(), from navigation start).
WATCH = """
window.__load = {board: null, engine: null, tasks: []};
new PerformanceObserver((list) => {
  for (const task of list.getEntries()) window.__load.tasks.push([task.startTime, task.duration]);
}).observe({type: "longtask", buffered: true});
new MutationObserver(() => {
  const now = performance.now();
  const pit = document.querySelector("#mancala-play button.pit:not([disabled])");
  if (window.__load.board === null && pit) window.__load.board = now;
  const root = document.getElementById("mancala-play");
  const ready = root && root.dataset.ready === "true";
  if (window.__load.engine === null && ready) window.__load.engine = now;
}).observe(document, {subtree: true, childList: true, attributes: true});
"""

RESULT = """() => {
  const board = window.__load.board;
  const bytes = performance.getEntriesByType("resource")
    .concat(performance.getEntriesByType("navigation"))
    .filter((e) => e.responseEnd <= board).reduce((sum, e) => sum + (e.encodedBodySize || 0), 0);
  const after = window.__load.tasks.filter(([start]) => start >= board)
    .map(([, length]) => length);
  return {board, engine: window.__load.engine, bytes, longest: Math.max(0, ...after)};
}"""


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


#: In a worker: its time origin and, for each resource it fetched, when the response
#: ended and its size (the page's Resource Timing does not list a worker's fetches).
WORKER_FETCHES = """() => [performance.timeOrigin, performance.getEntriesByType("resource")
  .map((e) => [e.responseEnd, e.encodedBodySize || 0])]"""

#: When the engine's Python was up, in its worker's time (engine.js keeps the worker's
#: timings of its start, worker.js).
PYTHON_UP = """() => window.mancalaEngine && window.mancalaEngine.timings
  ? window.mancalaEngine.timings.python : null"""


def measure(page, url: str) -> dict:
    page.goto(url)
    page.wait_for_function("() => window.__load.board !== null && window.__load.engine !== null",
                           timeout=120_000)
    result = page.evaluate(RESULT)
    # "snapshot" if the worker restored the build's snapshot of the engine, else "cold"
    result["boot"] = page.evaluate("() => window.mancalaEngine?.timings?.boot || 'cold'")
    origin = page.evaluate("performance.timeOrigin")
    for worker in page.workers:     # the worker's fetches that ended before the board
        start, fetches = worker.evaluate(WORKER_FETCHES)
        result["bytes"] += sum(size for end, size in fetches
                               if start - origin + end <= result["board"])
        python = page.evaluate(PYTHON_UP) if worker.url.endswith("/play/worker.js") else None
        if python is not None:
            result["python"] = start - origin + python
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, default=Path("build/html"))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--query", default="", help="the page's query, e.g. game=bakuk")
    args = parser.parse_args()
    if not (args.site / "play.html").is_file():
        parser.error(f"no play.html in {args.site}: build the site first (python dev.py site)")
    from playwright.sync_api import sync_playwright

    handler = functools.partial(Quiet, directory=str(args.site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{server.server_address[1]}/play.html"
    if args.query:
        url += "?" + args.query
    runs: dict[str, list[dict]] = {"cold": [], "warm": []}
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            for _ in range(args.runs):
                context = browser.new_context(viewport={"width": 1280, "height": 900})
                context.add_init_script(WATCH)
                page = context.new_page()
                runs["cold"].append(measure(page, url))
                runs["warm"].append(measure(page, url))
                context.close()
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    print(f"{url}  ({args.runs} runs each)")
    for kind, results in runs.items():
        board = [r["board"] for r in results]
        engine = [r["engine"] for r in results]
        mb = [r["bytes"] / 1e6 for r in results]
        longest = [r["longest"] for r in results]
        python = [r["python"] for r in results if "python" in r]
        print(f"{kind:5} board {statistics.median(board):7.0f} ms (best {min(board):6.0f})   "
              f"engine {statistics.median(engine):7.0f} ms (best {min(engine):6.0f})   "
              f"fetched before the board {statistics.median(mb):5.2f} MB   "
              f"longest task after it {statistics.median(longest):5.0f} ms"
              + (f"   python up {statistics.median(python):6.0f} ms" if python else "")
              + f"   from the snapshot {sum(r['boot'] == 'snapshot' for r in results)}"
              f"/{len(results)}")


if __name__ == "__main__":
    main()
