"""The Play page's defects D1–D13 and D15 of issue 44, each as a reader meets it, in
headless Chromium on the session's built site (conftest's ``site``).

Each test failed on the page before its fix: the arrow keys left the page for the
theme's previous or next page (D1); focus fell to the page's body after a button of
the move list (D2); the perfect player was offered without values and then thought
for ever (D3); a ``ply=`` that is no number left "Loading the board…" (D4); a value
table whose fetch failed stayed failed, and was blamed (D5, D6 in
test_play_values.py); a screen reader heard "S outh" (D7) and one pit's description
for another (D8); the link and Back lost the variations, and a link's opponent was
changed without a word (D9, D10); on a phone the result was below the fold and the
move buttons far under the board (D11); the preview of the pit just played stayed
(D12); Delete counted the line's moves, not the variations it removed (D13).
"""
from __future__ import annotations

import random
import re
from urllib.parse import quote

import pytest
from helpers import Watch, profile_page

import mancala_spec as ms

READY = "#mancala-play[data-ready=true]"
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def page(profile, site_server):
    page = profile_page(profile, site_server)
    watch = Watch(page, site_server)
    yield page
    assert not watch.problems, watch.problems
    page.close()


def settled(page) -> None:
    page.wait_for_selector("#mancala-play:not([data-busy])", state="attached")


def open_play(page, base: str, query: str) -> None:
    page.goto(f"{base}play.html?{query}")
    page.wait_for_selector(READY, timeout=60_000)
    settled(page)


def shown_position(page) -> str:
    settled(page)
    return page.get_attribute("#play-board", "data-position")


def bakuk_game(seed: int, length: int | None = None):
    """A random Bakuk game from the opening (to its end, or *length* moves)."""
    game = ms.get_game("bakuk")
    rng = random.Random(seed)
    pos, names = game.start(), []
    while not pos.is_over and (length is None or len(names) < length):
        pit = rng.choice(pos.legal_moves())
        names.append(game.board.name(pit))
        pos = pos.play(pit)
    return game, names


def positions_of(game, names):
    out = [game.start()]
    for name in names:
        out.append(out[-1].play(name))
    return out


# -- D1: the arrows walk the game, never the site ----------------------------------------


def test_arrows_walk_the_game_and_never_leave_the_page(page, site_server):
    game, names = bakuk_game(3)
    positions = positions_of(game, names)
    assert positions[-1].is_over
    open_play(page, site_server, f"game=bakuk&moves={','.join(names[:4])}")
    # from a link on the page, from the page itself, from the sidebar
    for focus in ("#play-link", "body", ".sidebar-drawer a"):
        page.evaluate("s => { const e = document.querySelector(s); e.focus();"
                      " if (s === 'body') document.activeElement.blur(); }", focus)
        before = shown_position(page)
        page.keyboard.press("ArrowLeft")
        settled(page)
        assert page.url.split("?")[0].endswith("play.html"), (focus, page.url)
        assert shown_position(page) != before, focus
        page.keyboard.press("ArrowRight")
        settled(page)
        assert page.url.split("?")[0].endswith("play.html"), (focus, page.url)
        assert shown_position(page) == before, focus
    # after the game's end, focus on the result: still the game's
    open_play(page, site_server, f"game=bakuk&moves={','.join(names[:-1])}")
    page.click(f"#play-board [data-pit={names[-1]}]")
    settled(page)
    assert page.evaluate("document.activeElement.id") == "play-turn"
    page.keyboard.press("ArrowLeft")
    settled(page)
    assert page.url.split("?")[0].endswith("play.html"), page.url
    assert shown_position(page) == positions[-2].to_text()
    page.keyboard.press("ArrowRight")
    settled(page)
    assert page.url.split("?")[0].endswith("play.html"), page.url
    assert shown_position(page) == positions[-1].to_text()


# -- D2: focus stays on the button pressed -----------------------------------------------


def test_focus_stays_on_each_move_button(page, site_server):
    game, names = bakuk_game(5, 6)
    open_play(page, site_server, f"game=bakuk&moves={','.join(names)}")
    for button in ("#play-first", "#play-next", "#play-next", "#play-last", "#play-prev"):
        page.focus(button)
        page.keyboard.press("Enter")
        settled(page)
        assert page.evaluate("document.activeElement.id") == button[1:], button
    # a variation from move 2: promote it, then delete it, from the keyboard
    page.focus("#play-first")
    page.keyboard.press("Enter")
    settled(page)
    page.focus("#play-next")
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")
    settled(page)
    pos = positions_of(game, names[:2])[-1]
    other = next(game.board.name(p) for p in pos.legal_moves() if game.board.name(p) != names[2])
    page.click(f"#play-board [data-pit={other}]")
    settled(page)
    for button in ("#play-promote", "#play-delete"):
        page.focus(button)
        page.keyboard.press("Enter")
        settled(page)
        assert page.evaluate("document.activeElement.id") == button[1:], button


# -- D3: no perfect player without values ------------------------------------------------


def test_the_perfect_player_is_not_offered_without_values_and_never_thinks_for_ever(
        page, site_server):
    open_play(page, site_server, "game=ba-awa")
    option = "#play-opponent option[value=perfect]"
    assert page.eval_on_selector(option, "o => o.disabled")
    why = page.get_attribute("#play-opponent", "aria-describedby")
    assert why and "not part of this build" in page.inner_text(f"#{why}")
    # a link that asks for it: said, another player plays instead, and it moves
    open_play(page, site_server, "game=ba-awa&opponent=perfect")
    assert page.input_value("#play-opponent") != "perfect"
    assert "perfect player" in page.inner_text("#play-status")
    page.click("#play-board [data-pit=a]")
    settled(page)
    page.wait_for_function("() => !document.getElementById('play-turn').textContent"
                           ".includes('thinking')", timeout=15_000)
    assert len(ms.parse_game(page.input_value("#play-record")).moves) == 2


def test_the_perfect_player_whose_table_cannot_be_fetched_gives_way_and_says_why(
        profile, site_server):
    # (a page of its own: the failed fetch is meant, not a fault of the site)
    page = profile_page(profile, site_server)
    page.route("**/bakuk-values.bin", lambda route: route.abort())
    open_play(page, site_server, "game=bakuk&opponent=perfect")
    page.click("#play-board [data-pit=a]")
    page.wait_for_function("() => !document.getElementById('mancala-play').dataset.busy"
                           " && !document.getElementById('play-turn').textContent"
                           ".includes('thinking')", timeout=15_000)
    status = page.inner_text("#play-status")
    assert "network" in status and "plays instead" in status, status
    assert len(ms.parse_game(page.input_value("#play-record")).moves) == 2
    page.close()


# -- D4: a bad ply in the link -----------------------------------------------------------


@pytest.mark.parametrize("ply", ["x", "1.5", "-2", "99"])
def test_a_bad_ply_in_the_link_says_so_in_one_line_and_shows_the_board(page, site_server,
                                                                        ply):
    game, names = bakuk_game(7, 4)
    open_play(page, site_server, f"game=bakuk&moves={','.join(names)}&ply={quote(ply)}")
    status = page.inner_text("#play-status")
    assert "ply" in status and "\n" not in status.strip(), status
    assert shown_position(page) == positions_of(game, names)[-1].to_text()


# -- D7, D8: what a screen reader hears --------------------------------------------------

#: the texts a screen reader meets in an element, one by one (what aria-hidden hides
#: left out): NVDA or VoiCeOver read each inline piece apart
SPOKEN = """e => { const out = []; const walk = (n) => {
  if (n.nodeType === 3) { if (n.textContent.trim()) out.push(n.textContent.trim()); return; }
  if (n.nodeType !== 1 || n.getAttribute('aria-hidden') === 'true') return;
  n.childNodes.forEach(walk); }; walk(e); return out.join(' '); }"""


def test_a_move_is_heard_as_one_word_per_word(page, site_server):
    open_play(page, site_server, "game=bakuk&moves=a,B")
    spoken = page.eval_on_selector_all("#play-movelist .play-move", f"bs => bs.map({SPOKEN})")
    assert [re.sub(r"\s+", " ", s).replace(" ,", ",") for s in spoken] == [
        "move 1, South a", "move 2, North B"], spoken


def test_each_pit_is_described_by_its_own_sowing(page, site_server):
    open_play(page, site_server, "game=ba-awa&moves=a")
    page.hover("#play-board [data-pit=A]")
    pits = page.eval_on_selector_all("#play-board button.pit:not([disabled])",
                                     "ps => ps.map(p => p.dataset.pit)")
    assert len(pits) > 1
    for pit in pits:
        ids = page.get_attribute(f"#play-board [data-pit={pit}]", "aria-describedby")
        text = " ".join(page.inner_text(f"#{i}") if page.query_selector(f"#{i}") else ""
                        for i in (ids or "").split())
        if not text:
            text = " ".join(page.evaluate("i => document.getElementById(i).textContent", i)
                            for i in (ids or "").split())
        assert text.startswith(f"Sowing {pit}:"), (pit, text)


# -- D9, D10: the link keeps the variations and the opponent -----------------------------


def test_the_link_and_back_keep_the_variations(page, site_server):
    game, names = bakuk_game(11, 5)
    open_play(page, site_server, f"game=bakuk&moves={','.join(names)}")
    pos = positions_of(game, names[:2])[-1]
    other = next(game.board.name(p) for p in pos.legal_moves() if game.board.name(p) != names[2])
    page.click("#play-movelist [data-ply='2']")
    settled(page)
    page.click(f"#play-board [data-pit={other}]")
    settled(page)
    record = page.input_value("#play-record")
    assert "(" in record
    link = page.eval_on_selector("#play-link", "a => a.href")
    shown = shown_position(page)
    page.goto("about:blank")
    page.goto(link)
    page.wait_for_selector(READY, timeout=60_000)
    assert page.input_value("#play-record") == record
    assert shown_position(page) == shown
    page.goto(site_server + "index.html")
    page.go_back()
    page.wait_for_selector(READY, timeout=60_000)
    assert page.input_value("#play-record") == record
    assert shown_position(page) == shown


def test_a_links_opponent_is_restored_or_the_change_said(page, site_server):
    open_play(page, site_server, "game=bakuk&opponent=strong&moves=a")
    assert page.input_value("#play-opponent") == "strong"
    open_play(page, site_server, "game=ba-awa&ruleset=everyboard&opponent=strong")
    assert page.input_value("#play-opponent") == "greedy"
    status = page.inner_text("#play-status")
    assert "strong player" in status and "greedy" in status, status


# -- D11, D12: a phone's layout; the preview after a move --------------------------------


def test_on_a_phone_the_result_is_in_sight_and_the_move_buttons_by_the_board(profile,
                                                                             site_server):
    page = profile_page(profile, site_server, PHONE)
    game, names = bakuk_game(3)
    open_play(page, site_server, f"game=bakuk&moves={','.join(names[:-1])}")
    board = page.eval_on_selector("#play-board", "b => b.getBoundingClientRect().bottom")
    nav = page.eval_on_selector("#play-prev", "b => b.getBoundingClientRect().top")
    assert 0 <= nav - board <= 120, (board, nav)
    page.click(f"#play-board [data-pit={names[-1]}]")
    settled(page)
    page.wait_for_timeout(300)       # a smooth scroll, if any
    box = page.eval_on_selector("#play-turn", "t => { const r = t.getBoundingClientRect();"
                                " return [r.top, r.bottom, innerHeight]; }")
    assert page.get_attribute("#play-turn", "data-over") == "true"
    assert 0 <= box[0] and box[1] <= box[2], box
    page.close()


def test_the_preview_of_the_pit_just_played_is_cleared(page, site_server):
    open_play(page, site_server, "game=ba-awa&opponent=greedy")
    page.hover("#play-board [data-pit=c]")
    page.wait_for_function("() => document.getElementById('play-preview').textContent"
                           ".startsWith('Sowing c')")
    played = page.inner_text("#play-preview")
    page.click("#play-board [data-pit=c]")
    after = ms.get_game("ba-awa").start().play("c").to_text()
    page.wait_for_function("p => document.getElementById('play-board').dataset.position === p",
                           arg=after)
    assert page.inner_text("#play-preview") == ""       # North to move: no pit to sow
    settled(page)
    # South's turn again: the pit under the mouse says what it would do now, if anything
    assert page.inner_text("#play-preview") != played


# -- D13: Delete counts what it removed --------------------------------------------------


def test_delete_announces_the_number_of_moves_it_removed(page, site_server):
    game, names = bakuk_game(13, 6)
    open_play(page, site_server, f"game=bakuk&moves={','.join(names)}")
    pos = positions_of(game, names[:3])[-1]
    other = next(game.board.name(p) for p in pos.legal_moves() if game.board.name(p) != names[3])
    page.click("#play-movelist [data-ply='3']")
    settled(page)
    page.click(f"#play-board [data-pit={other}]")      # a variation of one move at move 4
    settled(page)
    page.click("#play-movelist [data-ply='2']")
    settled(page)
    before = page.eval_on_selector_all("#play-movelist .play-move", "bs => bs.length")
    page.click("#play-delete")
    settled(page)
    after = page.eval_on_selector_all("#play-movelist .play-move", "bs => bs.length")
    assert before - after == 6
    assert f"Deleted {before - after} moves" in page.inner_text("#play-announce")
