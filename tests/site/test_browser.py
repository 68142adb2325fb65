"""The built site in a real browser: Debian's headless Chromium driven by Playwright.

The site is the one the session builds (the ``site`` fixture, see test_site.py),
served by http.server on 127.0.0.1. The Play page runs the engine with Pyodide;
these tests check it against the CPython engine: every move played by clicking a
pit must give the position text CPython gives, over random games of both games
with options switched; the step-through must show the engine's events in order;
the pages opened here may log no console error nor fetch anything from outside the
site (helpers' ``Watch``; test_a11y.py watches every page of the site so); the
Play page must work 390 px wide. Screenshots of key pages (1280 and 390 px, light and
dark) are saved under build/screenshots/ for a person to look at.

A browser that cannot start FAILS these tests: ``.ci/run`` installs Debian's
chromium when /usr/bin/chromium is missing (Playwright's own browser download is
never used).
"""
from __future__ import annotations

import os
import random
import re
import tempfile
from pathlib import Path

import pytest
from helpers import Watch, profile_page

import mancala_spec as ms

ROOT = Path(__file__).resolve().parents[2]
# outside the tree (tests write nothing inside it): $MANCALA_SPEC_SCREENSHOTS, else the
# system's temporary folder
SCREENSHOTS = Path(os.environ.get("MANCALA_SPEC_SCREENSHOTS")
                   or Path(tempfile.gettempdir()) / "mancala-spec-screenshots")
READY = "#mancala-play[data-ready=true]"
# Games played by clicking: (game, options); each is played to its end (or a move cap)
GAMES = [
    ("ba-awa", {}),
    ("ba-awa", {"skip_origin": True, "endless": "stop", "no_move": "owners"}),
    ("ba-awa", {"players": 3}),
    ("ba-awa", {"players": 3, "turn_order": "reverse"}),
    ("bakuk", {}),
    ("bakuk", {"chain": "backward", "leftovers": "owners", "no_move": "pass"}),
    ("bakuk", {"skip_origin": True}),
    ("bakuk", {"players": 3}),
]
GAMES_PER_SETTING = 2
MOVE_CAP = 60          # moves clicked per game at most (Bakuk games can run ~100)


# -- fixtures ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def server(site_server):
    """The session's built site served on 127.0.0.1 (conftest's ``site_server``)."""
    return site_server


@pytest.fixture(scope="module")
def browser(chromium):
    """The session's one Chromium (conftest's ``chromium``): Playwright's sync API runs
    one browser driver per process, shared with test_a11y.py and test_permalinks.py."""
    return chromium


@pytest.fixture(scope="module")
def play_page(profile, server):
    """The Play page, loaded once (in the worker's profile, conftest's ``profile``)."""
    page = profile_page(profile, server)
    watch = Watch(page, server)
    page.goto(server + "play.html")
    page.wait_for_selector(READY, timeout=60_000)
    yield page
    assert not watch.problems, watch.problems
    page.close()


@pytest.fixture
def play(play_page):
    """The Play page (``play_page``), in front; tests start new games on it. Behind a
    Play page of the profile opened later, each click waited about 2 s in Playwright's
    check that the element is "visible, enabled and stable" (its log says so), and a
    test of 12 moves took 58 s, not 2.3. In front it does not wait. (A page behind still
    draws 60 frames a second and runs its timers: what slows the check is not known.)"""
    play_page.bring_to_front()
    return play_page


def test_a_profile_page_starts_without_what_the_site_stored(profile, server):
    """The Play tests share one profile per worker for its code cache (conftest's
    ``profile``); what one page stored is gone for the next (``profile_page``)."""
    page = profile_page(profile, server)
    page.goto(server + "index.html")
    page.evaluate("() => { localStorage.setItem('theme', 'dark'); document.cookie = 'seen=1'; }")
    assert page.evaluate("() => [localStorage.length, document.cookie]") == [1, "seen=1"]
    page.close()
    page = profile_page(profile, server)
    page.goto(server + "index.html")
    assert page.evaluate("() => [localStorage.length, document.cookie]") == [0, ""]
    assert page.evaluate("document.body.dataset.theme") != "dark"
    page.close()


def settled(page) -> None:
    """Wait until the Play page has done what it was asked (each engine call is a message
    to its worker and back) and no built-in player is about to move: play.js marks the
    page data-busy meanwhile."""
    page.wait_for_selector("#mancala-play:not([data-busy])", state="attached")


def position(page) -> str:
    settled(page)
    return page.get_attribute("#play-board", "data-position")


def new_game(page, game: str, options: dict, opponent: str = "person") -> None:
    page.select_option("#play-opponent", opponent)
    page.select_option("#play-game", game)
    page.select_option("#play-ruleset", "mancala_spec")
    if options:
        page.eval_on_selector("#mancala-play .play-options-box", "box => { box.open = true; }")
    for name, value in options.items():
        page.select_option(f"select[data-option={name}]", value=_json(value))
    page.click("#play-new")
    settled(page)


def _json(value) -> str:
    import json
    return json.dumps(value)


def click(page, pit: str, before: str) -> str:
    """Click pit *pit*, wait for the board to leave *before*; return the new position."""
    page.click(f"#play-board [data-pit={pit}]")
    page.wait_for_function(
        "b => document.getElementById('play-board').dataset.position !== b", arg=before)
    return position(page)


def enabled_pits(page) -> list[str]:
    settled(page)
    return page.eval_on_selector_all("#play-board button[data-pit]:not([disabled])",
                                     "pits => pits.map(p => p.dataset.pit)")


# -- the Play page agrees with the CPython engine ----------------------------------


#: The clicked games in this many shares (GAMES[share::CLICK_SHARES], each share's
#: moves drawn by its own seeded generator), so that the workers of a parallel run
#: click them side by side: together the longest test of the suite.
CLICK_SHARES = 4

#: After a click: wait (up to 30 s) for the board to leave the position *before*; then
#: its position and its playable pits, read together in one call into the page (the
#: page draws both at once, drawBoard in play.js).
AFTER_CLICK = """async (before) => {
  const deadline = performance.now() + 30000;
  for (;;) {
    const board = document.getElementById("play-board");
    if (board && board.dataset.position !== before) {
      return {position: board.dataset.position,
              enabled: [...board.querySelectorAll("button[data-pit]:not([disabled])")]
                .map(p => p.dataset.pit)};
    }
    if (performance.now() > deadline) return null;
    await new Promise(done => requestAnimationFrame(() => done()));
  }
}"""


def clicked_games(share: int) -> list[tuple[str, dict, list[str]]]:
    """The games share *share* clicks: (game, options, pits), each played by the CPython
    engine from the start with random legal moves to its end or MOVE_CAP moves."""
    rng = random.Random(13 + share)
    games = []
    for name, options in GAMES[share::CLICK_SHARES]:
        game = ms.get_game(name, **options)
        for _ in range(GAMES_PER_SETTING):
            pos, pits = game.start(), []
            while not pos.is_over and len(pits) < MOVE_CAP:
                pits.append(rng.choice([game.board.name(p) for p in pos.legal_moves()]))
                pos = pos.play(pits[-1])
            games.append((name, options, pits))
    return games


def test_the_clicked_games_cover_every_setting_and_over_300_moves():
    shares = [clicked_games(share) for share in range(CLICK_SHARES)]
    settings = [(name, options) for share in shares for name, options, _ in share]
    assert len(settings) == len(GAMES) * GAMES_PER_SETTING
    assert all(settings.count(setting) == GAMES_PER_SETTING for setting in GAMES)
    assert sum(len(pits) for share in shares for _, _, pits in share) > 300


@pytest.mark.parametrize("share", range(CLICK_SHARES),
                         ids=lambda n: f"share{n + 1}of{CLICK_SHARES}")
def test_clicked_moves_agree_with_the_engine(play, share):
    """Every move of the share's games clicked on the board: before each click the
    playable pits are the engine's legal moves; after it the board shows the
    engine's position; at the end the page's record is the engine's record."""
    games = moves = 0
    for name, options, pits in clicked_games(share):
        game = ms.get_game(name, **options)
        new_game(play, name, options)
        pos = game.start()
        assert position(play) == pos.to_text()
        enabled = enabled_pits(play)
        played = []
        for pit in pits:
            names = [game.board.name(p) for p in pos.legal_moves()]
            assert sorted(enabled) == sorted(names), pos.to_text()
            after = pos.play(pit)
            play.click(f"#play-board [data-pit={pit}]")
            shown = play.evaluate(AFTER_CLICK, pos.to_text())
            assert shown is not None, f"the board still shows {pos.to_text()} after {pit}"
            assert shown["position"] == after.to_text(), (name, options, played)
            enabled = shown["enabled"]
            played.append(pit)
            pos = after
        games += 1
        moves += len(played)
        if pos.is_over:
            assert enabled == []
            assert play.get_attribute(".play-turn", "data-over") == "true"
            assert "Game over" in play.inner_text(".play-turn")
        # the record shown is the engine's record of the game
        assert play.input_value("#play-record") == ms.format_game(game.start(), played)
    print(f"\n{games} games, {moves} clicked moves agree with the CPython engine")
    assert games == len(GAMES[share::CLICK_SHARES]) * GAMES_PER_SETTING and moves > 0


def test_undo_and_replaying_a_record(play):
    game = ms.get_game("bakuk", chain="backward")
    new_game(play, "bakuk", {"chain": "backward"})
    positions = [game.start()]
    for pit in "aBc":
        click(play, pit, positions[-1].to_text())
        positions.append(positions[-1].play(pit))
    assert position(play) == positions[-1].to_text()
    play.click("#play-undo")
    assert position(play) == positions[-2].to_text()
    play.click("#play-redo")                     # the move taken back is kept: redo
    assert position(play) == positions[-1].to_text()
    play.click("#play-undo")
    assert position(play) == positions[-2].to_text()
    # a record from the CPython engine replays to the same position
    rng = random.Random(5)
    start = ms.get_game("ba-awa").start()
    pos, moves = start, []
    for _ in range(9):
        if pos.is_over:
            break
        moves.append(rng.choice(pos.legal_moves()))
        pos = pos.play(moves[-1])
    play.fill("#play-replay", ms.format_game(start, moves))
    play.click("#play-load")
    assert position(play) == pos.to_text()
    assert play.input_value("#play-game") == "ba-awa"
    # a bad record gets a one-line error and changes nothing
    play.fill("#play-replay", "game: bakuk\nmoves: a a\n")
    play.click("#play-load")
    settled(play)
    status = play.inner_text("#play-status")
    assert "cannot be replayed" in status and "illegal" in status and "\n" not in status
    assert position(play) == pos.to_text()


def test_options_that_do_not_go_together_get_a_one_line_error(play):
    """Ba-awa's choose="row" needs two players: asked for three, the page says
    why in one line and the game on the board stays as it was."""
    new_game(play, "ba-awa", {"choose": "owned", "players": 2})
    before = position(play)
    # no move played yet, so each option chosen starts a new game at once
    play.select_option("select[data-option=choose]", _json("row"))
    play.select_option("select[data-option=players]", _json(3))
    settled(play)
    status = play.inner_text("#play-status")
    assert "needs two players" in status and "\n" not in status
    assert position(play) == before
    # the refused choice is not left selected: the game goes on with its own options
    assert play.input_value("select[data-option=players]") == "2"
    new_game(play, "ba-awa", {"choose": "owned", "players": 2})
    assert play.inner_text("#play-status") == "" and position(play) == before


def test_against_a_built_in_player(play):
    new_game(play, "bakuk", {}, opponent="greedy")
    start = ms.get_game("bakuk").start()
    click(play, "b", start.to_text())
    # the greedy player answers as North; then it is South's turn again
    play.wait_for_function(
        "() => document.querySelector('.play-turn').textContent.startsWith('South')")
    record = ms.parse_game(play.input_value("#play-record"))
    assert len(record.moves) == 2 and record.positions[-1].to_text() == position(play)
    assert record.positions[1].to_move == 1


# -- stepping through a move --------------------------------------------------------


def stepped_events(page, box: str) -> list[tuple[str, str]]:
    """Press step ▶ to the end; (text, rule) of each step as the caption shows it."""
    page.wait_for_selector(f"{box} .stepper-events li", state="attached")   # drawn once asked
    seen = []
    total = page.eval_on_selector_all(f"{box} .stepper-events li", "items => items.length")
    for _ in range(total):
        page.click(f"{box} .stepper-next")
        text = page.inner_text(f"{box} .stepper-event")
        rule = page.inner_text(f"{box} .stepper-event a.rule-link")
        number, _, rest = text.partition(". ")
        assert int(number) == len(seen) + 1
        seen.append((rest[: -len(rule)].strip(), rule))
    assert page.is_disabled(f"{box} .stepper-next")
    return seen


def engine_events(pos, pit) -> list[tuple[str, str]]:
    board = pos.game.board
    return [(e.describe(board.name, lambda p: board.player_names[p]), e.rule)
            for e in pos.trace(pit).events]


def test_step_through_shows_the_engines_events_in_order(play):
    game = ms.get_game("ba-awa")
    new_game(play, "ba-awa", {})
    pos = game.start()
    click(play, "c", pos.to_text())
    play.click(".play-step-through")
    expected = engine_events(pos, "c")
    assert len(expected) > 20          # five laps of relay sowing
    assert stepped_events(play, "#play-stepper") == expected
    # the board at the last step is the position the move reaches
    seeds = play.eval_on_selector_all("#play-stepper .mancala-board .pit",
                                      "pits => pits.map(p => [p.dataset.pit, +p.dataset.seeds])")
    after = pos.play("c")
    assert dict(seeds) == {game.board.name(i): n for i, n in enumerate(after.pits)}
    # each rule ID links to the rule's anchor on its page
    href = play.get_attribute("#play-stepper .stepper-event a.rule-link", "href")
    assert href.endswith(f"ba-awa.html#rule-{expected[-1][1]}")


def test_try_it_on_a_rule_example_switches_options_live(profile, server):
    page = profile_page(profile, server)
    watch = Watch(page, server)
    page.goto(server + "ba-awa.html")
    caption = "#example-ba-awa-relay-1"
    page.click(f"{caption} .tryit-button")
    panel = f"{caption} + * + .tryit-panel"
    page.wait_for_selector(f"{panel}[data-ready=true]", timeout=60_000)
    pos = ms.get_game("ba-awa").parse("2,2,2,2,1,2/0,2,2,2,2,1 S 12-16 opener=S")
    assert stepped_events(page, panel) == engine_events(pos, "c")
    # every example that plays a legal move (by its data, as the engine reads it) has
    # its step-through; one that plays none (legal moves, a refused move, an outcome)
    # has no button with nothing to do, only its position to open in Play
    from mancala_spec.conformance.example_check import case_position
    from mancala_spec.conformance.worked_examples import extract_examples

    examples = extract_examples(ROOT / "docs")
    assert sum(not any(p.case.move is not None and "error" not in p.expect for p in e.plays)
               for e in examples) >= 6
    for name in sorted({e.page for e in examples}):
        page.goto(server + name.replace(".md", ".html"))
        for example in (e for e in examples if e.page == name):
            caption = f"#example-{example.id}"
            moves = [p for p in example.plays if p.case.move is not None
                     and "error" not in p.expect]
            link = page.get_attribute(f"{caption} a.open-in-play", "href")
            query = query_of(link)
            case = (moves or example.plays)[0].case
            assert query.get("start") == case_position(case).to_text(), example.id
            if moves:
                assert page.is_visible(f"{caption} .tryit-button"), example.id
                assert query["moves"] == str(moves[0].case.move), example.id
            else:
                assert page.locator(f"{caption} .tryit-button").count() == 0, example.id
                assert "moves" not in query, example.id
                assert page.inner_text(f"{caption} a.open-in-play") \
                    == "Open this position in Play", example.id
    # a lap of twelve seeds: the editorial option skip_origin changes it, live
    page.goto(server + "editorial.html")
    origin = "#example-ba-awa-origin-1"
    page.click(f"{origin} .tryit-button")
    panel = f"{origin} + * + .tryit-panel"
    page.wait_for_selector(f"{panel}[data-ready=true]", timeout=60_000)
    move = page.inner_text(f"{panel} .tryit-move code:last-child")
    start = page.inner_text(f"{panel} .tryit-move code:first-child")
    for value in (True, False):
        page.click(f"{panel} summary")
        page.select_option(f"{panel} select[data-option=skip_origin]", _json(value))
        page.wait_for_selector(f"{panel}[data-ready=true]")     # the engine's new answer drawn
        pos = ms.get_game("ba-awa", skip_origin=value).parse(start)
        assert stepped_events(page, panel) == engine_events(pos, move), value
        page.click(f"{panel} summary")
    assert not watch.problems, watch.problems
    page.close()


# -- every page, phones, screenshots ------------------------------------------------


def test_the_page_opened_from_disk_says_to_serve_it(browser, site):
    page = browser.new_page()
    page.goto((site.html / "play.html").as_uri())
    status = page.inner_text("#play-status")
    assert "file://" in status and "python -m http.server" in status
    page.close()


KEY_PAGES = ["index.html", "play.html", "ba-awa.html", "sources.html", "analysis.html",
             "auto_examples/plot_07_endless_relay.html", "auto_examples/index.html"]


def test_key_pages_fit_a_phone_and_are_screenshotted(profile, server):
    """No horizontal scrolling at 390 px; screenshots at 1280 and 390 px, light and dark."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    wide = []
    page = profile_page(profile, server)
    for name in KEY_PAGES:
        page.set_viewport_size({"width": 1280, "height": 900})
        page.goto(server + name)
        if name == "play.html":
            page.wait_for_selector(READY, timeout=60_000)
        for width in (1280, 390):
            page.set_viewport_size({"width": width, "height": 900})
            for scheme in ("light", "dark"):
                page.emulate_media(color_scheme=scheme)
                overflow = page.evaluate("document.documentElement.scrollWidth")
                if overflow > width:
                    wide.append(f"{name} is {overflow} px wide at {width} px ({scheme})")
                stem = name[:-5].replace("/", "-")
                page.screenshot(path=str(SCREENSHOTS / f"{stem}-{width}-{scheme}.png"),
                                full_page=name == "play.html")
    page.close()
    assert not wide, wide


def test_the_play_page_works_390_px_wide(browser, server):
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                                  is_mobile=True, device_scale_factor=2)
    page = context.new_page()
    page.goto(server + "play.html")
    page.wait_for_selector(READY, timeout=60_000)
    for name, options in (("ba-awa", {}), ("bakuk", {"players": 3})):
        new_game(page, name, options)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        boxes = page.eval_on_selector_all(
            "#play-board [data-pit]", "ps => ps.map(p => p.getBoundingClientRect().toJSON())")
        assert len(boxes) == ms.get_game(name).board.size
        for box in boxes:     # every pit is a finger's size and on screen
            assert box["width"] >= 40 and box["height"] >= 40, box
            assert box["left"] >= 0 and box["right"] <= 390, box
        pos = ms.get_game(name, **options).start()
        page.tap("#play-board [data-pit=a]")
        page.wait_for_function("b => document.getElementById('play-board').dataset.position !== b",
                               arg=pos.to_text())
        assert position(page) == pos.play("a").to_text()
    context.close()


# -- the analysis board (issue 20) and the board by keyboard (issue 17) ----------------


def wait_position(page, text: str) -> None:
    page.wait_for_function(
        "t => { const b = document.getElementById('play-board');"
        " return b && b.dataset.position === t; }",
        arg=text)


def query_of(url: str) -> dict[str, str]:
    from urllib.parse import parse_qsl, urlsplit
    return dict(parse_qsl(urlsplit(url).query))


@pytest.fixture(scope="module")
def linked_page(profile, server):
    """A second Play page (in the worker's profile)."""
    page = profile_page(profile, server)
    watch = Watch(page, server)
    yield page
    assert not watch.problems, watch.problems
    page.close()


@pytest.fixture
def linked(linked_page):
    """The second Play page (``linked_page``), in front (as ``play``), for the tests
    that open the page at an address."""
    linked_page.bring_to_front()
    return linked_page


def test_a_link_with_moves_restores_the_game_and_the_address_follows_it(linked, server):
    game = ms.get_game("ba-awa", skip_origin=True, endless="stop")
    rng = random.Random(21)
    pos, names = game.start(), []
    for _ in range(7):
        pit = rng.choice(pos.legal_moves())
        names.append(game.board.name(pit))
        pos = pos.play(pit)
    linked.goto(server + "play.html?game=ba-awa&skip_origin=true&endless=stop&moves="
                + ",".join(names))
    linked.wait_for_selector(READY, timeout=60_000)
    assert position(linked) == pos.to_text()
    plies = linked.eval_on_selector_all("#play-movelist [data-ply]",
                                        "b => b.map(x => x.dataset.ply)")
    assert plies == [str(i) for i in range(1, 8)]
    assert linked.input_value("select[data-option=skip_origin]") == "true"
    # a move played: the address says so, and a reload shows the same game
    pit = game.board.name(pos.legal_moves()[0])
    after = click(linked, pit, pos.to_text())
    assert after == pos.play(pit).to_text()
    assert query_of(linked.url)["moves"] == ",".join(names + [pit])
    linked.reload()
    linked.wait_for_selector(READY, timeout=60_000)
    assert position(linked) == after
    # a start position, a move shown that is not the last, the values: all in the link
    start = ms.get_game("bakuk").parse("3,3,1/1,3,3 S 10-12 opener=S")
    linked.goto(server + "play.html?game=bakuk&start=" + start.to_text().replace(" ", "%20")
                + "&moves=b,A&ply=1")
    linked.wait_for_selector(READY, timeout=60_000)
    assert position(linked) == start.play("b").to_text()
    assert query_of(linked.url)["ply"] == "1"
    # a link that cannot be shown says why in one line, and the page still plays
    linked.goto(server + "play.html?game=bakuk&moves=a,a")
    linked.wait_for_selector(READY, timeout=60_000)
    status = linked.inner_text("#play-status")
    assert "cannot be shown" in status and "move 2" in status and "\n" not in status
    assert position(linked) == ms.get_game("bakuk").start().to_text()


def test_a_ruleset_chosen_by_keyboard_plays_as_the_engine_and_stays_in_the_link(linked, server):
    page = linked
    page.goto(server + "play.html?game=bakuk")
    page.wait_for_selector(READY, timeout=60_000)
    select = page.get_by_role("combobox", name="Ruleset")     # its label names it
    assert select.get_attribute("id") == "play-ruleset"
    titles = [r.title for r in ms.rulesets("bakuk")]
    assert page.eval_on_selector_all("#play-ruleset option",
                                     "os => os.map(o => o.textContent)") == titles
    # by keyboard: focus the selector and step to the next ruleset (MancalaGames')
    select.focus()
    page.keyboard.press("ArrowDown")
    page.wait_for_function("() => document.querySelector('#play-ruleset').value === 'mancalagames'")
    game = ms.get_game("bakuk", ruleset="mancalagames")
    page.wait_for_function(
        "() => new URLSearchParams(location.search).get('ruleset') === 'mancalagames'")
    for name, value in game.options.items():     # the ruleset set every option
        assert page.input_value(f"select[data-option={name}]") == _json(value), name
    info = page.inner_text("#play-ruleset-info")
    assert "As MancalaGames plays them" in info and "secondary source" in info
    assert "2b1c596c1288" in info and "GPL-3.0" in info
    assert select.get_attribute("aria-describedby") == "play-ruleset-about"
    # the strong player searches with the kernel, which plays none of these readings
    assert page.get_attribute("#play-opponent option[value=strong]", "disabled") is not None
    # a move clicked under the ruleset: its result is the Python engine's under it,
    # and there it differs from this reference's (the backward chain takes more)
    start = "0,0,1/1,2,0 S 16-16 opener=S"
    page.goto(server + "play.html?game=bakuk&ruleset=mancalagames&start="
              + start.replace(" ", "%20"))
    page.wait_for_selector(READY, timeout=60_000)
    assert page.input_value("#play-ruleset") == "mancalagames"
    ours, theirs = ms.get_game("bakuk").parse(start).play("c"), game.parse(start).play("c")
    assert ours.to_text() != theirs.to_text()
    assert click(page, "c", start) == theirs.to_text()
    assert query_of(page.url)["ruleset"] == "mancalagames" and query_of(page.url)["moves"] == "c"
    # Koumma: its quote and reading shown; an option changed afterwards overrides it,
    # and the link says both (the ruleset, then the change)
    page.goto(server + "play.html?game=bakuk")
    page.wait_for_selector(READY, timeout=60_000)
    page.select_option("#play-ruleset", "koumma")
    page.wait_for_function("() => new URLSearchParams(location.search).get('ruleset') === 'koumma'")
    page.click(".play-ruleset-differences > summary")
    info = page.inner_text("#play-ruleset-info")
    assert "Koumma" in info and "A reading:" in info and "line 24" in info and "CC BY-SA" in info
    assert page.get_attribute(".play-ruleset-differences [lang=el]", "lang") == "el"
    page.select_option("select[data-option=chain]", _json("backward"))
    page.wait_for_function("() => new URLSearchParams(location.search).get('chain') === 'backward'")
    assert query_of(page.url) == {"game": "bakuk", "ruleset": "koumma", "chain": "backward"}
    assert ("Changed here on top of this ruleset: chain = backward"
            in page.inner_text("#play-ruleset-info"))
    koumma = ms.get_game("bakuk", ruleset="koumma", chain="backward")
    pos = koumma.start()
    rng = random.Random(8)
    for _ in range(6):
        pit = koumma.board.name(rng.choice(pos.legal_moves()))
        after = pos.play(pit)
        assert click(page, pit, pos.to_text()) == after.to_text()
        pos = after
    page.reload()
    page.wait_for_selector(READY, timeout=60_000)
    assert position(page) == pos.to_text() and page.input_value("#play-ruleset") == "koumma"
    assert page.input_value("select[data-option=chain]") == _json("backward")
    # another game: its own rulesets, this reference's chosen
    page.select_option("#play-game", "ba-awa")
    page.click("#play-pending-new")
    assert page.input_value("#play-ruleset") == "mancala_spec"
    assert page.eval_on_selector_all("#play-ruleset option", "os => os.map(o => o.value)") == [
        r.name for r in ms.rulesets("ba-awa")]


def test_walking_the_move_list_shows_each_position(play):
    game = ms.get_game("bakuk", chain="backward")
    new_game(play, "bakuk", {"chain": "backward"})
    rng = random.Random(17)
    positions = [game.start()]
    for _ in range(12):
        pit = game.board.name(rng.choice(positions[-1].legal_moves()))
        click(play, pit, positions[-1].to_text())
        positions.append(positions[-1].play(pit))
    board = game.board
    for ply in [5, 1, 12, 7]:     # clicking a move shows the position after it, and its events
        play.click(f"#play-movelist [data-ply='{ply}']")
        wait_position(play, positions[ply].to_text())
        pit = ms.parse_game(play.input_value("#play-record")).moves[ply - 1]
        events = play.eval_on_selector_all(".play-last-events li",
                                           "items => items.map(i => i.dataset.rule)")
        assert events == [e.rule for e in positions[ply - 1].trace(pit).events]
        classes = play.get_attribute(f"#play-board [data-pit={board.name(pit)}]", "class")
        assert "pit-last" in classes.split()
    # the keys walk through: from move 7, left, right, Home, End
    play.focus("#play-movelist [data-ply='7']")
    walk = [("ArrowLeft", 6), ("ArrowLeft", 5), ("ArrowRight", 6), ("Home", 0), ("End", 12)]
    for key, ply in walk:
        play.keyboard.press(key)
        wait_position(play, positions[ply].to_text())
    # every move's events are listed once
    play.click("#play-movelist [data-ply='3']")
    wait_position(play, positions[3].to_text())
    assert play.eval_on_selector_all(".play-last-events", "lists => lists.length") == 1
    # the step-through of a move shown that is not the last one
    play.click(".play-step-through")
    expected = engine_events(positions[2], ms.parse_game(play.input_value("#play-record")).moves[2])
    assert stepped_events(play, "#play-stepper") == expected
    # a move other than the game's, played from move 3, starts a variation beside it
    record = ms.parse_game(play.input_value("#play-record"))
    pit = board.name(next(p for p in positions[3].legal_moves() if p != record.moves[3]))
    click(play, pit, positions[3].to_text())
    assert position(play) == positions[3].play(pit).to_text()
    assert len(play.query_selector_all("#play-movelist [data-ply]")) == 13
    assert play.inner_text(".play-variation .play-move").endswith(pit)
    assert "starts a variation" in play.inner_text(".play-moves-box")
    assert ms.parse_game(play.input_value("#play-record")).moves == record.moves


def test_bakuk_values_shown_equal_the_solvers_and_the_perfect_player_takes_the_best(play):
    from mancala_spec.solve import solve

    solution = solve()
    game = ms.get_game("bakuk")
    new_game(play, "bakuk", {})
    play.check("#play-values")
    play.wait_for_selector("#play-board [data-value]", timeout=30_000)
    rng = random.Random(23)
    pos, compared = game.start(), 0
    while not pos.is_over and compared < 40:
        shown = dict(play.eval_on_selector_all(
            "#play-board [data-value]", "ps => ps.map(p => [p.dataset.pit, +p.dataset.value])"))
        legal = [game.board.name(p) for p in pos.legal_moves()]
        assert sorted(shown) == sorted(legal), pos.to_text()
        if not any(pos.play(p).is_over for p in pos.legal_moves()):
            expected = solution.move_values(pos.pits, pos.to_move)
            assert shown == {game.board.name(p): v for p, v in expected.items()}, pos.to_text()
            compared += 1
        pit = rng.choice(legal)
        before = pos.to_text()
        pos = pos.play(pit)
        click(play, pit, before)
        play.wait_for_function("() => document.querySelectorAll('#play-board [data-value]').length"
                               " || document.querySelector('.play-turn').dataset.over === 'true'")
    assert compared >= 25
    assert "values=1" in play.url
    # the perfect player answers with a move of the best value
    new_game(play, "bakuk", {}, opponent="perfect")
    start = game.start()
    click(play, "a", start.to_text())
    play.wait_for_function("() => window.mancalaLastComputerMove && "
                           "document.querySelector('.play-turn').textContent.startsWith('South')")
    after = start.play("a")
    reply = play.evaluate("window.mancalaLastComputerMove")
    values = solution.move_values(after.pits, after.to_move)
    assert reply["player"] == "perfect"
    assert values[game.board.pit(reply["pit"])] == max(values.values()) == reply["value"]
    # Koumma (first_counter and sixes not the solved rules'): no value, the reason said,
    # and no perfect player (the full check of every ruleset and option value is
    # test_play_bridge's test_values_are_shown_only_for_the_solved_rules_and_are_the_solvers)
    new_game(play, "bakuk", {})
    play.select_option("#play-ruleset", "koumma")
    play.wait_for_function("() => document.getElementById('play-values-line').textContent"
                           ".includes('first_counter = origin (solved: next), sixes = true')")
    koumma = ms.get_game("bakuk", ruleset="koumma")
    pos = koumma.start()
    for pit in ("a", "A", "b"):
        assert play.query_selector_all("#play-board [data-value]") == []
        before, pos = pos.to_text(), pos.play(pit)
        click(play, pit, before)
    assert play.query_selector_all("#play-board [data-value]") == []
    assert "Exact values for" not in play.inner_text("#mancala-play")
    assert play.eval_on_selector("#play-opponent option[value=perfect]", "o => o.disabled")
    play.uncheck("#play-values")
    new_game(play, "bakuk", {})          # this reference's rules again, for the next tests


def test_the_strong_player_moves_within_its_budget(play):
    """The budget mechanism is tested with a counting clock in test_search.py; here
    the page's player reports what its search cost, within the budget it was given."""
    new_game(play, "ba-awa", {}, opponent="strong")
    start = ms.get_game("ba-awa").start()
    play.evaluate("window.mancalaLastComputerMove = null")
    click(play, "a", start.to_text())
    play.wait_for_function("() => window.mancalaLastComputerMove")
    reply = play.evaluate("window.mancalaLastComputerMove")
    assert reply["player"] == "strong" and reply["budget_seconds"] <= 1.0
    assert 0 < reply["nodes"] <= reply["budget_nodes"] and reply["depth"] >= 1
    print(f"\nthe strong player's first reply: {reply['nodes']} positions, depth "
          f"{reply['depth']}, {reply['seconds']:.2f} s in Pyodide")
    record = ms.parse_game(play.input_value("#play-record"))
    assert record.moves[1] in start.play("a").legal_moves()
    new_game(play, "ba-awa", {}, opponent="person")


def pits_apart(pit: int, other: int, size: int) -> int:
    """How many pits apart two pits are, the shorter way round the board."""
    return min(abs(pit - other), size - abs(pit - other))


def test_a_whole_game_by_keyboard_alone_with_every_move_announced(linked, server):
    page = linked
    page.goto(server + "play.html?game=ba-awa&opponent=greedy")
    page.wait_for_selector(READY, timeout=60_000)
    assert page.get_attribute("#play-announce", "aria-live") == "polite"
    game = ms.get_game("ba-awa")
    rng = random.Random(29)
    # the page's first tab stop skips to the content; from there the board is a few Tabs on
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent.trim()") == "Skip to content"
    page.keyboard.press("Enter")
    tabs = 0
    on_board = "!!(document.activeElement && document.activeElement.closest('#play-board'))"
    while not page.evaluate(on_board):
        page.keyboard.press("Tab")
        tabs += 1
        assert tabs < 13, "the board is more than 13 Tabs away"   # (12: the side you play)
    label = page.evaluate("document.activeElement.textContent")
    assert label == "pit a, South, 4 seeds", label
    # the focus ring is not the last move's ring: another colour and another shape
    ring = page.evaluate("(() => { const s = getComputedStyle(document.activeElement);"
                         " return [s.outlineStyle, s.outlineColor]; })()")
    assert ring[0] == "dashed", ring
    moves = 0
    while True:
        record = ms.parse_game(page.input_value("#play-record"))
        pos = record.positions[-1]
        assert position(page) == pos.to_text()
        if pos.is_over:
            break
        target = game.board.name(rng.choice(pos.legal_moves()))
        for _ in range(8):
            if page.evaluate("document.activeElement.dataset.pit") == target:
                break
            page.keyboard.press("ArrowRight")
        assert page.evaluate("document.activeElement.dataset.pit") == target
        page.keyboard.press("Enter")
        moves += 1
        settled(page)            # the move, and the computer's reply, drawn
        page.wait_for_function(
            "() => { const t = document.querySelector('.play-turn');"
            " return t.dataset.over === 'true'"
            " || t.textContent.startsWith('South to move. Choose'); }")
        after = ms.parse_game(page.input_value("#play-record"))
        if after.positions[-1].is_over:
            break
        # focus stays on the board, at the playable pit nearest the one just played
        focused = page.evaluate("document.activeElement.dataset.pit")
        index, size = game.board.pit(target), game.board.size
        nearest = min(pits_apart(p, index, size) for p in after.positions[-1].legal_moves())
        assert pits_apart(game.board.pit(focused), index, size) == nearest, (target, focused)
        # both moves are announced, in turn: the player's own, then the computer's
        announced = page.inner_text("#play-announce")
        if not after.positions[-1].is_over:
            last = game.board.name(after.moves[-1])
            assert f"South played {target}" in announced, announced
            assert announced.index(f"South played {target}") < announced.index(
                f"North played {last}"), announced
            assert f"North played {last}" in announced and "South to move" in announced, announced
            trace = after.positions[-2].trace(after.moves[-1])
            assert f"{trace.laps} lap" in announced
            for capture in trace.captures:       # each capture with its rule
                assert f"({capture.rule})" in announced, announced
    assert moves > 3
    # the end: announced, focus on the result, the board labelled with it, no preview left
    turn = page.inner_text(".play-turn")
    assert "Game over" in turn and "Why:" in turn and "[" not in turn and "http" not in turn
    assert page.get_attribute(".play-turn a", "target") == "_blank"
    assert "Game over" in page.inner_text("#play-announce")
    assert page.evaluate("document.activeElement.id") == "play-turn"
    label = page.get_attribute("#play-board", "aria-label")
    assert "Game over" in label and "to move" not in label, label
    assert page.inner_text("#play-preview") == ""
    # each capture in the move list says who took it ("N +4"), unlike the value badges
    record = ms.parse_game(page.input_value("#play-record"))
    texts = page.eval_on_selector_all("#play-movelist .play-move", "bs => bs.map(b => b.innerText)")
    for text, pos, pit in zip(texts, record.positions, record.moves):
        takes = re.findall(r"([SN]) \+(\d+)", text)
        expected = {}
        for capture in pos.trace(pit).captures:
            who = game.board.player_names[capture.player][0]
            expected[who] = expected.get(who, 0) + capture.seeds
        got = {}
        for who, seeds in takes:
            got[who] = got.get(who, 0) + int(seeds)
        assert got == expected, text


def test_the_move_list_is_one_tab_stop_and_variations_by_keyboard(linked, server):
    """The analysis board by keyboard and as a screen reader hears it: the move list
    is one Tab stop walked with the arrow keys, a move other than the next one starts
    a variation (listed, announced, in the record), promote and delete, and a
    record with variations pasted in comes back with them."""
    page = linked
    game = ms.get_game("bakuk")
    rng = random.Random(31)
    positions, names = [game.start()], []
    for _ in range(10):
        pit = rng.choice(positions[-1].legal_moves())
        names.append(game.board.name(pit))
        positions.append(positions[-1].play(pit))
    page.goto(server + "play.html?game=bakuk&moves=" + ",".join(names))
    page.wait_for_selector(READY, timeout=60_000)
    wait_position(page, positions[10].to_text())
    # one Tab stop: only the move shown is in the Tab order
    assert page.eval_on_selector_all("#play-movelist button",
                                     "bs => bs.filter(b => b.tabIndex === 0).length") == 1
    page.focus("#play-movelist .play-move-current")
    for key, ply in (("ArrowLeft", 9), ("ArrowLeft", 8), ("Home", 0), ("End", 10),
                     ("ArrowUp", 9), ("ArrowDown", 10), ("ArrowLeft", 9)):
        page.keyboard.press(key)
        wait_position(page, positions[ply].to_text())
        assert page.evaluate("document.activeElement.closest('#play-movelist') !== null"), key
    for _ in range(3):
        page.keyboard.press("ArrowLeft")
    wait_position(page, positions[6].to_text())
    assert "Move 6 of 10" in page.inner_text("#play-announce")
    # Shift+Tab leaves the list at once (the next stops are the move buttons above it)
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("document.activeElement.closest('#play-movelist') === null")
    # a move other than the game's seventh: a variation, kept beside it
    other = next(p for p in positions[6].legal_moves() if game.board.name(p) != names[6])
    other_name = game.board.name(other)
    page.focus(f"#play-board [data-pit={other_name}]")
    page.keyboard.press("Enter")
    wait_position(page, positions[6].play(other).to_text())
    assert f"South played {other_name}" in page.inner_text("#play-announce") or \
        f"North played {other_name}" in page.inner_text("#play-announce")
    variation = page.inner_text("#play-movelist .play-variation")
    assert variation.strip().endswith(other_name), variation
    record = page.input_value("#play-record")
    assert f"{names[6]} ({other_name})" in record, record
    assert ms.parse_game(record).moves == tuple(game.board.pit(n) for n in names)
    # in the list, ↑ from the variation's move is the game's seventh move, ↓ back
    page.focus("#play-movelist .play-move-current")
    page.keyboard.press("ArrowUp")
    wait_position(page, positions[7].to_text())
    page.keyboard.press("ArrowDown")
    wait_position(page, positions[6].play(other).to_text())
    # promote: the variation is the game; delete: it goes, and the game is as before
    page.click("#play-promote")
    page.wait_for_function("n => document.getElementById('play-record').value"
                           ".includes(' ' + n + ' (')", arg=other_name)
    assert ms.parse_game(page.input_value("#play-record")).moves[6] == other
    page.click("#play-delete")
    wait_position(page, positions[6].to_text())
    assert "(" not in page.input_value("#play-record")
    assert "Deleted 1 move" in page.inner_text("#play-announce")
    # a record with a variation pasted in comes back with it
    page.fill("#play-replay", record)
    page.click("#play-load")
    page.wait_for_selector("#play-movelist .play-variation")
    assert page.input_value("#play-record") == record
    wait_position(page, positions[10].to_text())


def hold_the_engine(page) -> list:
    """Hold back the engine's WebAssembly (asked for by its worker) until the test lets
    it go: the routes held, filled in once the worker asks."""
    held: list = []
    page.route("**/pyodide.asm.wasm", lambda route: held.append(route))
    return held


def wait_held(page, held: list) -> None:
    """Wait (up to 60 s) until the engine's worker has asked for what is held back."""
    for _ in range(1200):
        if held:
            return
        page.wait_for_timeout(50)
    pytest.fail("the engine's worker never asked for Pyodide's WebAssembly")


def test_a_move_made_while_the_engine_loads_is_played_once_it_is_ready(profile, server):
    """The board is drawn before the engine (from the build's preload): a pit clicked
    while the engine still loads (its WebAssembly held back here) is played once it is."""
    page = profile_page(profile, server)
    watch = Watch(page, server)
    held = hold_the_engine(page)
    page.goto(server + "play.html?game=bakuk")
    page.wait_for_selector("#play-board button.pit:not([disabled])", timeout=30_000)
    wait_held(page, held)
    assert page.get_attribute("#mancala-play", "data-ready") is None
    assert page.is_disabled("#play-new")            # the controls wait for the engine
    page.click("#play-board [data-pit=b]")
    assert "played as soon as the engine is ready" in page.inner_text("#play-status")
    held[0].continue_()
    page.wait_for_selector(READY, timeout=120_000)    # a cold engine: nothing cached
    page.wait_for_function("() => document.getElementById('play-record').value"
                           ".includes('moves: b')")
    assert position(page) == ms.get_game("bakuk").start().play("b").to_text()
    page.close()
    assert not watch.problems, watch.problems


def test_the_engine_starts_in_its_worker_and_a_move_made_meanwhile_gets_its_reply(
        profile, server):
    """The engine (Pyodide, the wheel, play.py) starts in a Web Worker of its own, so
    the page's thread never waits for it: everything the engine needs is fetched by the
    worker, nothing of it by the page. A pit chosen by keyboard while the engine still
    loads is played once it is ready, as the engine plays it, and the built-in player
    then answers it: the game goes on from the move made before the engine was there."""
    page = profile_page(profile, server)
    watch = Watch(page, server)
    held = hold_the_engine(page)
    page.goto(server + "play.html?game=ba-awa&opponent=greedy")
    page.wait_for_selector("#play-board button.pit:not([disabled])", timeout=30_000)
    wait_held(page, held)
    assert page.get_attribute("#mancala-play", "data-ready") is None
    # by keyboard: the board's Tab stop, two pits on, Enter
    page.focus("#play-board button.pit[tabindex='0']")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    pit = page.evaluate("document.activeElement.dataset.pit")
    page.keyboard.press("Enter")
    assert "played as soon as the engine is ready" in page.inner_text("#play-status")
    assert position(page) == ms.get_game("ba-awa").start().to_text()   # not yet played
    held[0].continue_()
    page.wait_for_selector(READY, timeout=120_000)
    page.wait_for_function("() => document.getElementById('play-record').value"
                           ".split('moves: ')[1]?.trim().split(' ').length === 2", timeout=60_000)
    record = ms.parse_game(page.input_value("#play-record"))
    start = ms.get_game("ba-awa").start()
    assert record.moves[0] == start.game.board.pit(pit)
    assert record.positions[1].to_text() == start.play(pit).to_text()
    assert record.positions[1].to_move == 1 and record.positions[2].to_move == 0
    assert record.moves[1] in record.positions[1].legal_moves()
    assert position(page) == record.positions[2].to_text()
    # the engine's files were fetched by its worker, not by the page; only Pyodide's
    # WebAssembly is the page's, compiled there (off its thread) and sent to the worker.
    # Python was restored from the build's snapshot (play.py ran in it, at build time)
    assert page.evaluate("window.mancalaEngine.timings.boot") == "snapshot"
    engine_files = ("python_stdlib.zip", "pyodide.mjs", "pyodide.asm.mjs", ".whl",
                    ".snapshot.gz")
    fetched = "() => performance.getEntriesByType('resource').map((e) => e.name)"
    workers = [w for w in page.workers if w.url.endswith("/_static/play/worker.js")]
    assert len(workers) == 1, [w.url for w in page.workers]
    by_worker = workers[0].evaluate(fetched)
    by_page = page.evaluate(fetched)
    for name in engine_files:
        assert any(url.endswith(name) for url in by_worker), (name, by_worker)
        assert not any(url.endswith(name) for url in by_page), (name, by_page)
    assert [url for url in by_page + by_worker if url.endswith(".wasm")] == [
        server + "_static/pyodide/pyodide.asm.wasm"]
    page.close()
    assert not watch.problems, watch.problems


@pytest.mark.parametrize("altered", ["snapshot", "wheel"])
def test_an_engine_snapshot_that_does_not_restore_falls_back_to_the_cold_start(
        profile, server, site, altered):
    """The worker restores Python from the build's snapshot (tools/play_snapshot.mjs);
    one that is not a snapshot of this Pyodide (here a gzipped page of zeros: Pyodide
    refuses it after instantiating its WebAssembly), or one made with another wheel
    than the one fetched (a browser may keep an older one under the same name; here
    the wheel with bytes after its end, still a zip), costs a warning in the console
    and the cold start (play.py fetched and run), not the engine: it plays, and the
    built-in player answers with moves of its own."""
    import gzip

    page = profile_page(profile, server)
    watch = Watch(page, server)
    warnings: list[str] = []
    page.on("console", lambda m: m.type == "warning" and warnings.append(m.text))
    if altered == "snapshot":
        page.route("**/*.snapshot.gz", lambda route: route.fulfill(
            status=200, body=gzip.compress(bytes(65536)), content_type="application/gzip"))
        why = "magic number"
    else:
        wheel = next((site.html / "_static" / "play").glob("mancala_spec-*.whl")).read_bytes()
        page.route("**/mancala_spec-*.whl", lambda route: route.fulfill(
            status=200, body=wheel + bytes(16), content_type="application/octet-stream"))
        why = "another wheel"
    page.goto(server + "play.html?game=bakuk&opponent=random")
    page.wait_for_selector(READY, timeout=120_000)
    assert page.evaluate("window.mancalaEngine.timings.boot") == "cold"
    assert any("the engine starts without its snapshot" in w and why in w
               for w in warnings), warnings
    page.click("#play-board [data-pit=b]")
    page.wait_for_function("() => document.getElementById('play-record').value"
                           ".split('moves: ')[1]?.trim().split(' ').length === 2", timeout=60_000)
    record = ms.parse_game(page.input_value("#play-record"))
    assert record.moves[0] == record.positions[0].game.board.pit("b")
    fetched = "() => performance.getEntriesByType('resource').map((e) => e.name)"
    workers = [w for w in page.workers if w.url.endswith("/_static/play/worker.js")]
    assert any(url.endswith("/play.py") for url in workers[0].evaluate(fetched))
    page.close()
    assert not watch.problems, watch.problems


def test_options_ask_before_a_game_is_lost_and_refused_ones_are_not_kept(play):
    new_game(play, "ba-awa", {})
    start = ms.get_game("ba-awa").start()
    after = click(play, "b", start.to_text())
    play.select_option("select[data-option=skip_origin]", "true")
    assert play.is_visible(".play-pending") and position(play) == after
    assert enabled_pits(play) == []          # nothing is played while the question stands
    play.click("#play-pending-keep")
    assert play.input_value("select[data-option=skip_origin]") == "false"
    assert position(play) == after and enabled_pits(play)
    play.select_option("select[data-option=players]", "3")
    play.select_option("select[data-option=choose]", '"row"')
    play.click("#play-pending-new")
    settled(play)
    assert "needs two players" in play.inner_text("#play-status")
    assert play.input_value("select[data-option=choose]") == '"owned"'   # not left selected
    assert position(play) == after


def test_open_in_play_from_a_diagram_and_from_an_example(linked, server):
    page = linked
    page.goto(server + "ba-awa.html")
    figures = page.eval_on_selector_all("figure.sowing-diagram + .open-in-play-line a.open-in-play",
                                        "as => as.map(a => a.href)")
    assert len(figures) >= 5
    href = figures[0]
    query = query_of(href)
    options = {k: ms.notation.option_value(v) for k, v in query.items()
               if k not in ("game", "start", "moves")}
    game = ms.get_game(query["game"], **options)
    pos = game.parse(query["start"]) if "start" in query else game.start()
    expected = pos.play(query["moves"]).to_text()
    page.goto(href)
    page.wait_for_selector(READY, timeout=60_000)
    assert position(page) == expected
    # an example's control opens its move: a link made from the example's data
    page.goto(server + "ba-awa.html")
    page.click("#example-ba-awa-relay-1 .open-in-play")
    page.wait_for_url(re.compile(r"/play\.html\?"), timeout=60_000, wait_until="commit")
    page.wait_for_selector(READY, timeout=60_000)
    pos = ms.get_game("ba-awa").parse("2,2,2,2,1,2/0,2,2,2,2,1 S 12-16 opener=S")
    assert position(page) == pos.play("c").to_text()


AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
# WCAG 2.1 A and AA and best practice, and the check that a control's name holds its visible
# text, over the whole page: its content, the theme's header, sidebars and footer, and whatever
# the Play page adds to them once a game is on; given a list of rules, those alone (in the
# dark scheme: what a scheme can change, test_a11y.SCHEME_RULES)
AXE_RUN = """async (only) => (await axe.run(document, only
  ? {runOnly: {type: 'rule', values: only}} : {
  runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']},
  rules: {'label-content-name-mismatch': {enabled: true}}})).violations
  .map(v => [v.id, v.impact, v.nodes.length, v.nodes[0].target.join(' ')])"""


def test_the_play_page_passes_axe_in_both_schemes(linked, server):
    """Each state of the page checked in the light scheme, then again with the system's
    scheme switched to dark (furo's "auto" follows it; nothing on the Play page reads
    the scheme, so it is the page a dark-scheme reader has, without a second load), with
    the rules whose outcome a scheme can change, as test_a11y.py checks every page."""
    from test_a11y import SCHEME_RULES

    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: run npm ci")
    page = linked
    found: dict[str, list] = {"light": [], "dark": []}

    def check() -> None:
        page.add_script_tag(path=str(AXE))
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            assert page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches") \
                == (scheme == "dark")
            only = SCHEME_RULES if scheme == "dark" else None
            found[scheme] += [v for v in page.evaluate(AXE_RUN, only)
                              if v[1] in ("critical", "serious")]
        page.emulate_media(color_scheme="light")

    page.goto(server + "play.html?game=bakuk&moves=a,B,c&values=1")
    page.wait_for_selector(READY, timeout=60_000)
    page.wait_for_selector("#play-board [data-value]", timeout=30_000)
    page.click("#play-movelist [data-ply='2']")
    settled(page)
    page.click(".play-step-through")
    settled(page)
    check()
    # three players, a game over, an option change waiting for its answer
    page.goto(server + "play.html?game=bakuk&players=3&moves=a,c,C,a")
    page.wait_for_selector(READY, timeout=60_000)
    page.select_option("select[data-option=chain]", _json("backward"))
    settled(page)
    check()
    # a ruleset with its differences open, and an option changed on top of it
    page.goto(server + "play.html?game=bakuk&ruleset=koumma&chain=backward&moves=a")
    page.wait_for_selector(READY, timeout=60_000)
    page.click(".play-ruleset-differences > summary")
    check()
    page.goto(server + "play.html?game=ba-awa&moves=b,F,a,C,a,D,f,D,f,A,b,C,c,F,f,A,e")
    page.wait_for_selector(READY, timeout=60_000)
    assert page.get_attribute(".play-turn", "data-over") == "true"
    check()
    assert found == {"light": [], "dark": []}, found
