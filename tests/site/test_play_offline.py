"""D15 of issue 44: after one visit the Play page reloads and plays with no network.

The site is served by a server of this test's own (the session's built site, conftest's
``site``); the page is visited once, until its service worker says it has kept what it
needs (play.js marks the page data-offline="ready"); then the server is shut down, so
that nothing can be fetched, and the page is reloaded: its board, its engine and a move
come from what the service worker kept. Before the service worker, the reload failed
(the browser's "This site can't be reached").
"""
from __future__ import annotations

import functools
import threading

from helpers import QuietHandler, QuietServer, profile_page

import mancala_spec as ms

READY = "#mancala-play[data-ready=true]"


def test_after_one_visit_the_page_reloads_and_plays_offline(profile, site):
    assert site.result.returncode == 0, site.result.stderr[-3000:]
    httpd = QuietServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(site.html)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{httpd.server_port}/"
    page = profile_page(profile, base)
    try:
        page.goto(base + "play.html?game=bakuk")
        page.wait_for_selector(READY, timeout=60_000)
        page.wait_for_selector("#mancala-play[data-offline=ready]", state="attached",
                               timeout=60_000)
    finally:
        httpd.shutdown()
        httpd.server_close()
    page.reload()
    page.wait_for_selector(READY, timeout=60_000)
    assert "furo" in page.evaluate("[...document.styleSheets].map(s => s.href).join(' ')")
    page.click("#play-board [data-pit=a]")
    after = ms.get_game("bakuk").start().play("a").to_text()
    page.wait_for_function("p => document.getElementById('play-board').dataset.position === p",
                           arg=after, timeout=30_000)
    assert "error" != page.get_attribute("#play-status", "data-kind")
    page.close()
