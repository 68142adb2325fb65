"""Ba-awa's exact values on the Play page, in a real browser (headless Chromium).

The session's site (the ``site`` fixture) is built without a table of Ba-awa's
values, as a first build is: the page says so when asked for them, and how to add
them. The same site with a small table added as the build adds one
(``dev.copy_ba_awa_values``: here into a copy of the site made of links, not a
second build) is then served: a table solved from a sixteen-seed start (two levels,
about 5 s). Opened at that start with the values on, the page shows the solver's
value of every move along a game, having fetched the index and only the shards it
needed; and the perfect player answers with a move of the best value.
"""
from __future__ import annotations

import functools
import os
import random
import re
import threading
from pathlib import Path
from urllib.parse import quote

import pytest
from helpers import QuietHandler, QuietServer, Watch, profile_page

import dev
import mancala_spec as ms

READY = "#mancala-play[data-ready=true]"
START = ((2, 2, 1, 0, 3, 1, 0, 1, 2, 1, 1, 2), 0)


def linked_copy(source: Path, target: Path) -> None:
    """*target* as *source*, each file a symbolic link to its own (cheap, whole)."""
    for folder, _folders, files in os.walk(source):
        here = target / Path(folder).relative_to(source)
        here.mkdir(exist_ok=True)
        for name in files:
            (here / name).symlink_to(Path(folder) / name)


@pytest.fixture(scope="module")
def with_table(site, tmp_path_factory):
    """The session's site with a small table of Ba-awa's values, served on
    127.0.0.1: (its address, the solution, the files of the table the page fetched,
    the files of the table)."""
    from mancala_spec.solve.ba_awa import solve
    from mancala_spec.solved_ba_awa import BaAwaValueTable, write_ba_awa_table

    assert site.result.returncode == 0, site.result.stderr[-3000:]
    solution = solve(start=START)
    scratch = tmp_path_factory.mktemp("values")
    table = write_ba_awa_table(scratch / "table", solution)
    html = scratch / "html"
    linked_copy(site.html, html)
    assert dev.copy_ba_awa_values(html, table) == len(BaAwaValueTable.from_folder(table).files())
    fetched: list[str] = []

    class Quiet(QuietHandler):
        def do_GET(self) -> None:
            if "/ba-awa-values/" in self.path:
                fetched.append(self.path.rsplit("/", 1)[1])
            super().do_GET()

    httpd = QuietServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(html)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield (f"http://127.0.0.1:{httpd.server_port}/", solution, fetched,
           len(BaAwaValueTable.from_folder(table).files()))
    httpd.shutdown()
    httpd.server_close()


#: every text the line under the board showed (the progress of the table's files)
LINES = """
window.__lines = [];
new MutationObserver(() => {
  const line = document.getElementById("play-values-line");
  const text = line ? line.textContent : "";
  if (text && window.__lines[window.__lines.length - 1] !== text) window.__lines.push(text);
}).observe(document, {subtree: true, childList: true, characterData: true});
"""


def shown_values(page) -> dict[str, int]:
    return dict(page.eval_on_selector_all(
        "#play-board [data-value]", "ps => ps.map(p => [p.dataset.pit, +p.dataset.value])"))


def test_without_a_table_the_page_says_how_to_add_one(profile, site_server):
    page = profile_page(profile, site_server)
    page.goto(site_server + "play.html?game=ba-awa&values=1")
    page.wait_for_selector(READY, timeout=60_000)
    page.wait_for_function("() => document.getElementById('play-values-line').textContent"
                           ".includes('not part of this build')")
    line = page.inner_text("#play-values-line")
    assert "--write-table DIR" in line and "dev.py site --ba-awa-values DIR" in line
    assert shown_values(page) == {}
    assert "not part of this build" in page.inner_text("body")    # the page's own text
    page.close()


def test_values_shown_are_the_solvers_and_the_perfect_player_takes_the_best(profile,
                                                                             with_table):
    base, solution, fetched, files = with_table
    game = ms.get_game("ba-awa")
    pos = game.position(list(START[0]), to_move=0, opener=0, captured=(16, 16))
    page = profile_page(profile, base)
    watch = Watch(page, base)
    page.add_init_script(LINES)
    page.goto(f"{base}play.html?game=ba-awa&start={quote(pos.to_text())}&values=1")
    page.wait_for_selector(READY, timeout=60_000)
    rng = random.Random(5)
    compared = 0
    while not pos.is_over and compared < 6:
        page.wait_for_function(
            "p => document.getElementById('play-board').dataset.position === p "
            "&& !document.getElementById('mancala-play').dataset.busy", arg=pos.to_text())
        expected = solution.move_values(pos.pits, pos.to_move)
        assert shown_values(page) == {game.board.name(p): v for p, v in expected.items()}
        value = solution.value(pos.pits, pos.to_move)
        assert f"worth {'+' if value > 0 else ''}{value}." in page.inner_text("#play-values-line")
        compared += 1
        pit = game.board.name(rng.choice(pos.legal_moves()))
        page.click(f"#play-board [data-pit={pit}]")
        pos = pos.play(pit)
    assert compared >= 3          # a game from sixteen seeds is short: it ended
    # the line under the board said what was loading: the index, then the parts
    lines = page.evaluate("window.__lines")
    assert "Loading Ba-awa's exact values: their index…" in lines, lines
    assert any(re.fullmatch(r"Loading Ba-awa's exact values: \d+ of \d+ parts? for this "
                            r"position…", line) for line in lines), lines
    # the index, and only some of the shards: those the positions shown needed
    assert fetched[0] == "index.json" and len(fetched) == len(set(fetched))
    assert 1 < len(fetched) < files
    # the perfect player answers with a move of the best value
    start = game.position(list(START[0]), to_move=0, opener=0, captured=(16, 16))
    page.goto(f"{base}play.html?game=ba-awa&start={quote(start.to_text())}&opponent=perfect")
    page.wait_for_selector(READY, timeout=60_000)
    page.click("#play-board [data-pit=a]")
    page.wait_for_function("() => window.mancalaLastComputerMove && "
                           "!document.getElementById('mancala-play').dataset.busy",
                           timeout=30_000)
    reply = page.evaluate("window.mancalaLastComputerMove")
    after = start.play("a")
    values = solution.move_values(after.pits, after.to_move)
    assert reply["player"] == "perfect"
    assert values[game.board.pit(reply["pit"])] == max(values.values()) == reply["value"]
    assert not watch.problems, watch.problems
    page.close()


def test_a_failed_fetch_is_said_to_be_the_networks_and_tried_again(profile, site_server):
    """D5: Bakuk's table fetched while the network fails: the page says the network
    failed (not that the table is damaged), and Try again fetches it."""
    page = profile_page(profile, site_server)
    failing = {"on": True}
    page.route("**/bakuk-values.bin",
               lambda route: route.abort() if failing["on"] else route.continue_())
    page.goto(site_server + "play.html?game=bakuk&values=1")
    page.wait_for_selector(READY, timeout=60_000)
    page.wait_for_selector("#play-values-retry", timeout=30_000)
    line = page.inner_text("#play-values-line")
    assert "network failed" in line and "could not be loaded" not in line, line
    failing["on"] = False
    page.click("#play-values-retry")
    page.wait_for_selector("#play-board [data-value]", timeout=30_000)
    assert "network" not in page.inner_text("#play-values-line")
    page.close()


def test_a_part_the_site_lacks_is_no_checksum_mismatch_and_the_network_is_named(profile,
                                                                              with_table):
    """D5/D6: a shard answering 404 is said to be missing from the site's table (not
    "damaged" or a CRC mismatch); an index whose fetch failed, the network's failure
    (not "not JSON"), and asked for again."""
    base, _solution, _fetched, _files = with_table
    game = ms.get_game("ba-awa")
    pos = game.position(list(START[0]), to_move=0, opener=0, captured=(16, 16))
    link = f"{base}play.html?game=ba-awa&start={quote(pos.to_text())}&values=1"
    page = profile_page(profile, base)
    page.route(re.compile(r".*/ba-awa-values/(?!index\.json).*"),
               lambda route: route.fulfill(status=404, body="Not found"))
    page.goto(link)
    page.wait_for_selector(READY, timeout=60_000)
    page.wait_for_function("() => document.getElementById('play-values-line').textContent"
                           ".includes('lacks')", timeout=30_000)
    line = page.inner_text("#play-values-line")
    assert "404" in line and "CRC" not in line and "damaged" not in line, line
    page.close()
    page = profile_page(profile, base)
    failing = {"on": True}
    page.route("**/ba-awa-values/index.json",
               lambda route: route.abort() if failing["on"] else route.continue_())
    page.goto(link)
    page.wait_for_selector(READY, timeout=60_000)
    page.wait_for_selector("#play-values-retry", timeout=30_000)
    line = page.inner_text("#play-values-line")
    assert "network failed" in line and "JSON" not in line, line
    failing["on"] = False
    page.click("#play-values-retry")
    page.wait_for_selector("#play-board [data-value]", timeout=30_000)
    page.close()
