"""The Play page as an analysis board (issue 44), in headless Chromium on the session's
built site: playing either side with the board turned, the keyboard's shortcut list,
the best line from a position and the graph of a game's value from the solver's values
(checked against the site's own table, read here by :class:`mancala_spec.solved.ValueTable`),
and neither offered where there are no values."""
from __future__ import annotations

import random

import pytest
from helpers import Watch, profile_page

import mancala_spec as ms
from mancala_spec.solved import ValueTable

READY = "#mancala-play[data-ready=true]"


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


def record_moves(page) -> list[int]:
    settled(page)
    return list(ms.parse_game(page.input_value("#play-record")).moves)


def test_playing_north_against_a_built_in_player_with_the_board_turned(page, site_server):
    open_play(page, site_server, "game=bakuk&as=north&opponent=greedy")
    page.wait_for_function("() => document.getElementById('play-record').value"
                           ".includes('moves: ') && !document.getElementById('mancala-play')"
                           ".dataset.busy")
    game = ms.get_game("bakuk")
    assert len(record_moves(page)) == 1           # South (the greedy player) opened
    # the board turned: North's row at the bottom, A at its left; South's row on top
    where = "e => { const r = e.getBoundingClientRect(); return [r.x, r.y]; }"
    box = {p: page.eval_on_selector(f"#play-board [data-pit={p}]", where)
           for p in ("a", "c", "A", "C")}
    assert box["A"][1] > box["a"][1] and box["A"][0] < box["C"][0] and box["c"][0] < box["a"][0]
    assert page.is_checked("#play-flip")
    rng = random.Random(4)
    for _ in range(3):
        pos = ms.parse_game(page.input_value("#play-record")).positions[-1]
        if pos.is_over:
            break
        assert pos.to_move == 1
        enabled = page.eval_on_selector_all("#play-board button.pit:not([disabled])",
                                            "ps => ps.map(p => p.dataset.pit)")
        assert enabled == [game.board.name(p) for p in pos.legal_moves()]
        page.click(f"#play-board [data-pit={game.board.name(rng.choice(pos.legal_moves()))}]")
        settled(page)
    assert "as=north" in page.url and "flip" not in page.url
    page.uncheck("#play-flip")
    settled(page)
    assert "flip=0" in page.url
    box = page.eval_on_selector_all("#play-board [data-pit=A], #play-board [data-pit=a]",
                                    "es => es.map(e => e.getBoundingClientRect().y)")
    assert box[0] < box[1]                        # (a is first in the page: South below)
    # the link restores both, and the built-in player plays South
    record = page.input_value("#play-record")
    page.reload()
    page.wait_for_selector(READY, timeout=60_000)
    settled(page)
    assert page.input_value("#play-as") == "north" and not page.is_checked("#play-flip")
    assert page.input_value("#play-record") == record
    status = page.inner_text("#play-status")
    assert page.get_attribute("#play-status", "data-kind") != "error", status


def test_the_shortcut_list_opens_on_question_mark(page, site_server):
    open_play(page, site_server, "game=bakuk&moves=a,B")
    page.focus("#play-link")
    page.keyboard.press("?")
    assert page.is_visible("#play-keys")
    keys = page.inner_text("#play-keys")
    assert "\u2190 \u2192" in keys and "Home End" in keys and "?" in keys
    page.keyboard.press("Escape")
    assert not page.is_visible("#play-keys")


def site_table(site) -> ValueTable:
    return ValueTable.from_bytes((site.html / "_static/play/bakuk-values.bin").read_bytes())


def test_the_best_line_is_of_best_moves_by_the_solvers_values(page, site, site_server):
    table = site_table(site)
    game = ms.get_game("bakuk")
    rng = random.Random(9)
    pos, names = game.start(), []
    for _ in range(5):
        pit = rng.choice(pos.legal_moves())
        names.append(game.board.name(pit))
        pos = pos.play(pit)
    open_play(page, site_server, f"game=bakuk&moves={','.join(names)}")
    page.click("#play-best")
    page.wait_for_selector(".play-best-moves li")
    text = page.inner_text("#play-best-line")
    value = table.value_of(pos)
    assert f"can force {'+' if value > 0 else ''}{value}".replace("-", "\u2212") in text, text
    line = page.eval_on_selector_all(".play-best-moves li",
                                     "ls => ls.map(l => l.textContent.trim().split(' ').pop())")
    assert line
    for name in line:
        values = table.move_values(pos)
        pit = game.board.pit(name)
        assert values[pit] == max(values.values()), (name, values)
        pos = pos.play(pit)
    assert pos.is_over or len(line) == 60
    # played on the board (from the game's end, it goes on with the game)
    page.click("#play-best-play")
    settled(page)
    assert ms.parse_game(page.input_value("#play-record")).moves == tuple(
        game.board.pit(n) for n in names + line)
    assert page.get_attribute("#play-board", "data-position") == pos.to_text()


def test_the_graph_of_the_games_value_marks_each_move_that_lost_value(page, site, site_server):
    table = site_table(site)
    game = ms.get_game("bakuk")
    rng = random.Random(12)
    pos, names, losses = game.start(), [], set()
    margins = []
    while not pos.is_over and len(names) < 30:
        value, values = table.value_of(pos), table.move_values(pos)
        margins.append(pos.captured[0] - pos.captured[1] + (value if pos.to_move == 0 else -value))
        pit = rng.choice(pos.legal_moves())
        if values[pit] < value:
            losses.add(len(names) + 1)
        names.append(game.board.name(pit))
        pos = pos.play(pit)
    assert losses
    open_play(page, site_server, f"game=bakuk&moves={','.join(names)}")
    page.click("#play-review-button")
    page.wait_for_selector("#play-review svg")
    marked = page.eval_on_selector_all("#play-review circle.play-review-loss",
                                       "cs => cs.map(c => +c.dataset.ply)")
    assert set(marked) == losses
    listed = page.eval_on_selector_all(".play-review-move", "bs => bs.map(b => +b.dataset.ply)")
    assert listed == sorted(losses)
    caption = page.inner_text("#play-review-caption")
    start = margins[0]
    assert f"{'+' if start > 0 else ''}{start}".replace("-", "\u2212") + " at the start" in caption
    # a lost move of the list shows its position
    page.click(f".play-review-move[data-ply='{min(losses)}']")
    settled(page)
    assert page.get_attribute("#play-movelist .play-move-current", "data-ply") == str(min(losses))


def test_where_there_are_no_values_no_analysis_is_offered_and_the_page_says_why(page,
                                                                                site_server):
    open_play(page, site_server, "game=ba-awa")
    assert not page.is_visible("#play-best") and not page.is_visible("#play-review-button")
    assert "not part of this build" in page.inner_text("#play-analysis-why")
    open_play(page, site_server, "game=bakuk&chain=backward")
    assert not page.is_visible("#play-best")
    assert "No exact values for these rules" in page.inner_text("#play-analysis-why")


def test_marks_and_comments_are_kept_in_the_record_the_link_and_a_pasted_record(page,
                                                                                  site_server):
    open_play(page, site_server, "game=bakuk&moves=a,B,c")
    page.click("#play-movelist [data-ply='2']")
    settled(page)
    page.select_option("#play-note-mark", "?")
    page.fill("#play-note-comment", "C keeps the seeds")
    page.click("#play-note-save")
    settled(page)
    record = page.input_value("#play-record")
    assert record == "game: bakuk\nmoves: a B? {C keeps the seeds} c\n"
    assert page.evaluate("document.activeElement.id") == "play-note-save"
    listed = page.inner_text("#play-movelist")
    assert "B?" in listed and "C keeps the seeds" in listed
    assert ms.parse_game(record).notes == (((0, 4), "?", "C keeps the seeds"),)
    link = page.eval_on_selector("#play-link", "a => a.href")
    open_play(page, site_server, "game=ba-awa")
    page.goto(link)
    page.wait_for_selector(READY, timeout=60_000)
    assert page.input_value("#play-record") == record
    # copied and pasted: the record replays with its notes
    open_play(page, site_server, "game=ba-awa")
    page.fill("#play-replay", record.replace("c\n", "c!! {the end of the opening}\n"))
    page.click("#play-load")
    settled(page)
    assert page.input_value("#play-record") == (
        "game: bakuk\nmoves: a B? {C keeps the seeds} c!! {the end of the opening}\n")


def test_the_image_of_the_position_shows_its_seeds(page, site_server, tmp_path):
    from xml.etree import ElementTree

    game = ms.get_game("ba-awa")
    pos = game.start().play("c").play("A")
    open_play(page, site_server, "game=ba-awa&moves=c,A&as=north")
    with page.expect_download() as download:
        page.click("#play-image")
    path = tmp_path / "image.svg"
    download.value.save_as(path)
    assert download.value.suggested_filename == "ba-awa-move-2.svg"
    tree = ElementTree.parse(path)
    ns = "{http://www.w3.org/2000/svg}"
    seeds = {g.get("data-pit"): int(g.get("data-seeds")) for g in tree.iter(f"{ns}g")
             if g.get("data-pit")}
    assert seeds == {game.board.name(p): pos.pits[p] for p in range(game.board.size)}
    shown = {g.get("data-pit"): int(g.find(f"{ns}text").text) for g in tree.iter(f"{ns}g")
             if g.get("data-pit")}
    assert shown == seeds
    stores = {g.get("data-store"): int(g.find(f"{ns}text").text) for g in tree.iter(f"{ns}g")
              if g.get("data-store")}
    assert stores == {"0": pos.captured[0], "1": pos.captured[1]}
    # turned (as North): North's row below South's
    ys = {g.get("data-pit"): float(g.find(f"{ns}circle").get("cy")) for g in tree.iter(f"{ns}g")
          if g.get("data-pit")}
    assert ys["A"] > ys["a"]


def test_the_analysis_the_notes_and_the_turned_board_pass_axe_in_both_schemes(page,
                                                                              site_server):
    """What this issue added to the page, shown (a turned board, a best line, the graph
    of a game's value, a note, the list of keys), checked as test_browser.py checks the
    page: 0 critical and 0 serious in the light scheme and the dark."""
    from test_a11y import SCHEME_RULES
    from test_browser import AXE, AXE_RUN

    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: run npm ci")
    game, names = ms.get_game("bakuk"), []
    pos = game.start()
    rng = random.Random(2)
    while not pos.is_over and len(names) < 20:
        pit = rng.choice(pos.legal_moves())
        names.append(game.board.name(pit))
        pos = pos.play(pit)
    open_play(page, site_server, f"game=bakuk&as=north&moves={','.join(names)}&ply=3")
    page.click("#play-best")
    page.wait_for_selector(".play-best-moves li")
    page.click("#play-review-button")
    page.wait_for_selector("#play-review svg")
    page.select_option("#play-note-mark", "!?")
    page.fill("#play-note-comment", "a move to look at")
    page.click("#play-note-save")
    settled(page)
    # a variation (the best line, played from move 3, is one unless it is the game's)
    page.click("#play-best")
    page.wait_for_selector(".play-best-moves li")
    page.click("#play-best-play")
    settled(page)
    page.click("#play-movelist [data-ply='1']")
    settled(page)
    if page.query_selector(".play-variations-toggle"):
        page.click(".play-variations-toggle")
        settled(page)
    found = []
    for keys in (False, True):
        if keys:
            page.keyboard.press("?")
        page.add_script_tag(path=str(AXE))
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            only = SCHEME_RULES if scheme == "dark" else None
            found += [(scheme, keys, v) for v in page.evaluate(AXE_RUN, only)
                      if v[1] in ("critical", "serious")]
        page.emulate_media(color_scheme="light")
    assert found == [], found


def test_variations_collapse_and_show_again_by_mouse_and_by_key(page, site_server):
    open_play(page, site_server, "game=bakuk&moves=a,B,c,A")
    page.click("#play-movelist [data-ply='1']")
    settled(page)
    page.click("#play-board [data-pit=C]")          # a variation of one move at move 2
    settled(page)
    page.click("#play-movelist [data-ply='4']")     # back on the game's line
    settled(page)
    assert page.eval_on_selector_all("#play-movelist .play-move", "bs => bs.length") == 5
    page.click(".play-variations-toggle")
    settled(page)
    assert page.eval_on_selector_all("#play-movelist .play-move", "bs => bs.length") == 4
    assert page.inner_text(".play-variations-toggle").startswith("+ 1 variation, 1 move")
    assert page.get_attribute(".play-variations-toggle", "aria-expanded") == "false"
    page.click(".play-variations-toggle")
    settled(page)
    assert page.eval_on_selector_all("#play-movelist .play-move", "bs => bs.length") == 5
    # by key: on the move the variation replaces (move 2, B), - collapses and + shows
    page.click("#play-movelist .play-move[data-ply='2']")
    settled(page)
    page.focus("#play-movelist .play-move-current")
    page.keyboard.press("-")
    assert page.eval_on_selector_all("#play-movelist .play-move", "bs => bs.length") == 4
    assert page.evaluate("document.activeElement.dataset.ply") == "2"
    page.keyboard.press("+")
    assert page.eval_on_selector_all("#play-movelist .play-move", "bs => bs.length") == 5
