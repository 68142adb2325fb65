"""How soon the Play page shows Ba-awa's exact values once they are asked for.

    python benchmarks/bench_play_values.py [--site build/html] [--runs N] [--moves a,B,c]

Needs a site built with a table of Ba-awa's values (``mancala-spec solve ba-awa
--write-table DIR``, then ``python3 dev.py site --ba-awa-values DIR``). Serves it
on a free localhost port, opens ``play.html?game=ba-awa`` (with ``--moves``, the
position after those moves) in headless Chromium (``/usr/bin/chromium``, as the
browser tests), waits for the engine to be ready, then ticks "Show each move's
exact value" and reports, in milliseconds from the tick:

* ``first value``: the board shows a value on a pit (``[data-value]``);
* ``files``, ``bytes``: the files of the table the page fetched for it (the index,
  then the shards the position and its moves need) and their size on the wire.

*cold* runs each open a new browser context (an empty cache); *warm* runs reload
the page in the context of the last cold run (the table's files in the HTTP
cache). The median and the best are printed. A benchmark, not a test: the figures
depend on the machine and its load.
"""
from __future__ import annotations

import argparse
import functools
import http.server
import statistics
import threading
import time
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
READY = "#mancala-play[data-ready=true]"
FIRST_VALUE = "#play-board [data-value]"


def serve(site: Path, fetched: list[tuple[str, int]]) -> http.server.ThreadingHTTPServer:
    class Counting(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args) -> None:
            pass

        def do_GET(self) -> None:
            if "/ba-awa-values/" in self.path:
                name = self.path.rsplit("/", 1)[1]
                path = site / "_static" / "play" / "ba-awa-values" / name
                fetched.append((name, path.stat().st_size if path.is_file() else 0))
            super().do_GET()

    httpd = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Counting, directory=str(site)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd


def measure(page, url: str, fetched: list) -> dict:
    fetched.clear()
    page.goto(url)
    page.wait_for_selector(READY, timeout=120_000)
    started = time.perf_counter()
    page.check("#play-values")
    page.wait_for_selector(FIRST_VALUE, timeout=120_000)
    took = (time.perf_counter() - started) * 1000
    return {"first value": took, "files": len(fetched), "bytes": sum(n for _, n in fetched),
            "line": page.inner_text("#play-values-line")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, default=Path("build/html"))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--moves", default="", help="the position after these moves")
    args = parser.parse_args()
    if not (args.site / "_static" / "play" / "ba-awa-values" / "index.json").is_file():
        raise SystemExit(f"{args.site} has no table of Ba-awa's values: build it with "
                         "python3 dev.py site --ba-awa-values DIR")
    from playwright.sync_api import sync_playwright

    fetched: list[tuple[str, int]] = []
    httpd = serve(args.site, fetched)
    url = f"http://127.0.0.1:{httpd.server_port}/play.html?game=ba-awa"
    if args.moves:
        url += f"&moves={args.moves}"
    results: dict[str, list[dict]] = {"cold": [], "warm": []}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for _ in range(args.runs):
            context = browser.new_context()
            page = context.new_page()
            results["cold"].append(measure(page, url, fetched))
            results["warm"].append(measure(page, url, fetched))
            context.close()
        browser.close()
    httpd.shutdown()
    print(f"{url}  (runs: {args.runs})")
    for kind, runs in results.items():
        times = [r["first value"] for r in runs]
        print(f"{kind}: first value median {statistics.median(times):,.0f} ms, best "
              f"{min(times):,.0f} ms; files fetched {runs[-1]['files']}, "
              f"{runs[-1]['bytes'] / 1024:,.0f} KiB (from the server, not the cache)")
    print(results["cold"][-1]["line"])


if __name__ == "__main__":
    main()
