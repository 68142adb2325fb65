"""Sowing diagrams (mancala_spec/diagrams.py) and the sowing-diagram directive.

Every number a diagram draws is tied to the engine: the tests replay each
trace here, independently of the diagram code, anchor that replay to the
counts the engine states in its events and to the engine's resulting
position, and then require the diagram's data — and the text of the rendered
figure — to equal it. Corrupted traces must be caught.

Pit indices: Ba-awa a–f = 0–5, A–F = 6–11; Bakuk a–c = 0–2, A–C = 3–5.
"""
from __future__ import annotations

import dataclasses
import html as html_module
import io
import random
import re
import textwrap

import matplotlib
import pytest

matplotlib.use("Agg")

import mancala_spec as ms  # noqa: E402
from mancala_spec import diagrams  # noqa: E402
from mancala_spec.diagrams import DiagramError, layout, render  # noqa: E402
from mancala_spec.engine.trace import Capture, Drop, EndOfLap, PickUp, Relay  # noqa: E402

# game, options, position, move — the gallery's examples and a few more
EXAMPLES = {
    "opening": ("ba-awa", {}, None, "a"),
    "owner-four": ("ba-awa", {}, "1,0,3,3,0,2/3,1,0,3,3,1 S 12-16 opener=S", "c"),
    "mover-four": ("ba-awa", {}, "1,0,2,0,2,0/1,3,2,2,1,2 S 16-16 opener=S", "c"),
    "several": ("ba-awa", {}, "1,2,2,0,3,2/0,2,10,2,10,2 N 8-4 opener=S", "E"),
    "eight": ("ba-awa", {}, "1,0,0,0,3,0/1,3,2,0,1,1 S 16-20 opener=N", "e"),
    "skip-origin": ("ba-awa", {"skip_origin": True},
                    "0,0,0,0,0,13/4,1,1,1,1,3 S 12-12 opener=S", "f"),
    "endless": ("ba-awa", {"endless": "stop"},
                "0,2,1,0,2,1/0,1,3,1,0,1 N 16-20 opener=S", "C"),
    "bakuk-forward": ("bakuk", {}, "3,2,1/1,4,3 S 10-12 opener=S", "b"),
    "bakuk-backward": ("bakuk", {"chain": "backward"}, "3,2,1/1,4,3 S 10-12 opener=S", "b"),
    "bakuk-ends": ("bakuk", {"leftovers": "owners"}, "3,2,0/1,4,2 S 12-12 opener=S", "b"),
}


def example(key: str):
    game, options, position, move = EXAMPLES[key]
    engine = ms.get_game(game, **options)
    return (engine.parse(position) if position else engine.start()).trace(move)


# -- an independent replay, anchored to the engine ------------------------------------


def boards_at_lap_starts(trace):
    """The board (pits) before each lap's lift, the final board and stores, from a
    replay that checks every count the engine states in its events."""
    pits = list(trace.before.pits)
    captured = list(trace.before.captured)
    starts, drops = [], []
    for event in trace.events:
        if isinstance(event, (PickUp, Relay)):
            starts.append(tuple(pits))
            assert pits[event.pit] == event.seeds, event
            pits[event.pit] = 0
        elif isinstance(event, Drop):
            pits[event.pit] += 1
            assert pits[event.pit] == event.count, event
            drops.append((event.pit, event.count))
        elif isinstance(event, Capture):
            assert pits[event.pit] == event.seeds, event
            captured[event.player] += event.seeds
            pits[event.pit] = 0
        elif isinstance(event, EndOfLap):
            assert pits[event.pit] == event.count, event
    assert tuple(pits) == trace.position.pits
    assert tuple(captured) == trace.position.captured
    return starts, drops, tuple(pits), tuple(captured)


def assert_diagram_matches(trace, diagram):
    """Everything the diagram draws equals the engine's trace."""
    starts, drops, final, final_captured = boards_at_lap_starts(trace)
    laps = [panel for panel in diagram.panels if panel.lap is not None]
    assert len(laps) == trace.laps == len(starts)
    assert [panel.lap for panel in laps] == list(range(1, trace.laps + 1))
    # the board drawn at each lap's start
    for panel, board in zip(laps, starts):
        assert tuple(box.count for box in panel.pits) == board
        assert [box.label for box in panel.pits] == [str(n) for n in board]
    # each panel ends where the next begins, the last where the engine ends
    for panel, following in zip(diagram.panels, diagram.panels[1:]):
        assert panel.end_pits == following.start_pits
        assert tuple(box.end_count for box in following.pits) == following.end_pits
    assert diagram.panels[-1].end_pits == final == diagram.final_pits == trace.position.pits
    assert diagram.final_captured == final_captured == trace.position.captured
    # the lifts, and the drops numbered in order with the counts they made
    lifts = [(e.pit, e.seeds) for e in trace.events if isinstance(e, (PickUp, Relay))]
    assert [(p.lift.pit, p.lift.seeds) for p in laps] == lifts
    assert [(d.pit, d.count) for p in laps for d in p.drops] == drops
    for panel in laps:
        assert [d.order for d in panel.drops] == list(range(1, len(panel.drops) + 1))
        assert [d.label for d in panel.drops] == [str(d.order) for d in panel.drops]
        assert [d.last for d in panel.drops] == [False] * (len(panel.drops) - 1) + [True]
    ends = [e.pit for e in trace.events if isinstance(e, EndOfLap)]
    assert [p.last_pit for p in laps] == ends
    # every capture event has its mark: pit, seeds, player and rule
    events = [(e.pit, e.seeds, e.player, e.rule) for e in trace.events if isinstance(e, Capture)]
    marks = [(m.pit, m.seeds, m.player, m.rule) for m in diagram.captures]
    assert marks == events
    assert [m.label for m in diagram.captures] == ["SN"[p] + f"+{s}" for _, s, p, _ in events]
    # every rule that captured is named in the notes of the panel holding the mark
    for panel in diagram.panels:
        for mark in panel.captures:
            assert any(f"[{mark.rule}]" in note for note in panel.notes)
    assert diagram.after == trace.position.to_text()
    assert diagram.caption.endswith("Result: " + trace.position.to_text())
    assert not diagram.mismatches


@pytest.mark.parametrize("key", sorted(EXAMPLES))
def test_layout_equals_the_engine(key):
    trace = example(key)
    assert_diagram_matches(trace, layout(trace))


def test_random_games_every_move_matches():
    """Every move of seeded random games, under every option of both games."""
    rng = random.Random(4)
    moves = 0
    for name, options in [("ba-awa", {}), ("ba-awa", {"skip_origin": True, "endless": "stop",
                                                      "no_move": "owners"}),
                          ("bakuk", {}), ("bakuk", {"chain": "backward", "skip_origin": True,
                                                    "no_move": "pass", "leftovers": "owners"})]:
        game = ms.get_game(name, **options)
        for _ in range(12):
            pos = game.start()
            while not pos.is_over:
                trace = pos.trace(rng.choice(pos.legal_moves()))
                assert_diagram_matches(trace, layout(trace))
                pos = trace.position
                moves += 1
    assert moves > 300


# -- the rules, as the examples draw them (each checked by hand against the rule) -----


def test_opening_move_draws_five_relay_laps():
    # a's 4 seeds: b c d e (5 each); e relays 5: f A B C D; D relays 5: E F a b c
    # (a 0→1, c 5→6); c relays 6: d e(0→1) f A B C; C relays 6: D E F a b c(0→1): empty pit.
    d = layout(example("opening"))
    assert [(p.lift.name, p.lift.seeds) for p in d.panels] == [
        ("a", 4), ("e", 5), ("D", 5), ("c", 6), ("C", 6)]
    assert [p.drops[-1].name for p in d.panels] == ["e", "D", "c", "C", "c"]
    assert "empty pit" in d.panels[-1].notes[-1] and "[ba-awa-sowing-end]" in d.panels[-1].notes[-1]


def test_owner_four_marks_each_owner():
    # c (3): d 3→4 is not the last seed: South (owner of d) takes 4; lap ends in f (3),
    # relay 3 from f: A 3→4, not last: North (owner of A) takes 4, though South moves.
    d = layout(example("owner-four"))
    assert [(m.name, m.seeds, m.player_letter, m.rule, m.after_drop) for m in d.captures] == [
        ("d", 4, "S", "ba-awa-owner-four", 1), ("A", 4, "N", "ba-awa-owner-four", 1)]
    assert [m.label for m in d.captures] == ["S+4", "N+4"]


def test_mover_four_across_the_board():
    # c (2): d, e (2→3, last) → relay 3 from e: f, A, B (3→4, last): South, the mover, takes.
    d = layout(example("mover-four"))
    (mark,) = d.captures
    assert (mark.name, mark.player, mark.rule, mark.after_drop) == ("B", 0, "ba-awa-mover-four", 3)
    assert d.panels[-1].notes[-1].startswith("The move ends: the last seed made four")


def test_eight_seed_ending_has_an_after_the_move_panel():
    # e (3): f, A, B (3→4 last): South takes 4; 8 seeds remain; North opened: North takes 8.
    d = layout(example("eight"))
    assert [p.lap for p in d.panels] == [1, None]
    after = d.panels[-1]
    assert all(m.player == 1 and m.rule == "ba-awa-eight" and m.after_drop is None
               for m in after.captures)
    assert sum(m.seeds for m in after.captures) == 8
    assert after.title.startswith("After the move: game over")
    assert after.end_captured == (20, 28)


def test_bakuk_chain_links_follow_the_chain():
    # b (2): c 1→2, A 1→2 (last): capture A; forward: B (4) taken, C (3) stops;
    # backward: c (2) taken, b (0, just lifted) stops.
    forward, backward = layout(example("bakuk-forward")), layout(example("bakuk-backward"))
    assert [(m.name, m.seeds, m.rule) for m in forward.captures] == [
        ("A", 2, "bakuk-capture"), ("B", 4, "bakuk-chain")]
    assert [(m.name, m.seeds, m.rule) for m in backward.captures] == [
        ("A", 2, "bakuk-capture"), ("c", 2, "bakuk-chain")]
    for d in (forward, backward):
        (link,) = d.panels[0].links
        first, second = d.captures
        assert link.player == 0
        assert link.points[0] != link.points[-1]
        # the arrow runs from the first mark towards the second
        (x0, y0), (x1, y1) = link.points[0], link.points[-1]
        assert (x1 - x0) * (second.x - first.x) + (y1 - y0) * (second.y - first.y) > 0


def test_endless_relay_says_what_it_repeats():
    d = layout(example("endless"))
    assert d.laps == 60
    last = d.panels[-1]
    assert last.repeats_lap == 0   # the board and pit the move started from
    assert "[ba-awa-endless]" in " ".join(last.notes)
    assert d.final_pits == ms.get_game("ba-awa").parse(EXAMPLES["endless"][2]).pits


def test_skip_origin_hops_over_the_origin():
    # f (13) with skip_origin: A … F, a … e (11 drops), then f is passed over: A, B.
    d = layout(example("skip-origin"))
    drops = [m.name for m in d.panels[0].drops]
    assert drops[:13] == list("ABCDEFabcde") + ["A", "B"]
    assert "f" not in drops[:13]


# -- corrupting a trace must be caught ------------------------------------------------


def corrupt(trace, index, **changes):
    events = list(trace.events)
    events[index] = dataclasses.replace(events[index], **changes)
    return trace.replace(events=tuple(events))


def drop_event(trace, kind, index=0):
    return [i for i, e in enumerate(trace.events) if isinstance(e, kind)][index]


CORRUPTIONS = {
    "drop in another pit": lambda t: corrupt(t, drop_event(t, Drop, 2), pit=11),
    "drop count off by one": lambda t: corrupt(
        t, drop_event(t, Drop, 1), count=t.events[drop_event(t, Drop, 1)].count + 1),
    "capture for the other player": lambda t: corrupt(
        t, drop_event(t, Capture), player=1 - t.events[drop_event(t, Capture)].player),
    "capture from another pit": lambda t: corrupt(t, drop_event(t, Capture), pit=0),
    "capture left out": lambda t: t.replace(
        events=tuple(e for i, e in enumerate(t.events) if i != drop_event(t, Capture))),
    "relay of too many seeds": lambda t: corrupt(
        t, drop_event(t, Relay), seeds=t.events[drop_event(t, Relay)].seeds + 1),
    "wrong resulting position": lambda t: t.replace(
        position=example("opening").position),
}


@pytest.mark.parametrize("what", sorted(CORRUPTIONS))
def test_corrupted_trace_is_caught(what):
    trace = CORRUPTIONS[what](example("owner-four"))
    with pytest.raises(DiagramError):
        layout(trace)
    # drawn anyway, the diagram fails this module's checks against the engine
    diagram = layout(trace, check=False)
    assert diagram.mismatches
    with pytest.raises(AssertionError):
        assert_diagram_matches(trace, diagram)


def test_a_drop_outside_any_lap_is_refused():
    trace = example("bakuk-forward")
    events = (Drop("bakuk-sow", 0, 4),) + trace.events
    with pytest.raises(DiagramError, match="outside any lap"):
        layout(trace.replace(events=events))


# -- the rendered figure shows exactly the diagram's data ------------------------------


def drawn_texts(figure) -> dict[str, str]:
    from matplotlib.text import Text

    return {t.get_gid(): t.get_text() for t in figure.findobj(Text) if t.get_gid()}


@pytest.mark.parametrize("key", ["several", "eight", "bakuk-backward"])
def test_rendered_text_equals_the_engine(key):
    trace = example(key)
    d = layout(trace)
    starts, _, _, _ = boards_at_lap_starts(trace)
    texts = drawn_texts(render(d))
    for panel in d.panels:
        tag = f"p{panel.number}"
        board = starts[panel.lap - 1] if panel.lap else panel.start_pits
        for pit, count in enumerate(board):
            assert texts[f"{tag}:count:{pit}"] == str(count)
            end = panel.end_pits[pit]
            assert texts.get(f"{tag}:end:{pit}", "") == (f"→ {end}" if end != count else "")
        for drop in panel.drops:
            assert texts[f"{tag}:drop:{drop.order}"] == str(drop.order)
        if panel.lift:
            assert texts[f"{tag}:lift"] == str(panel.lift.seeds)
        for mark in panel.captures:
            assert texts[f"{tag}:capture:{mark.number}"] == f"{mark.player_letter}+{mark.seeds}"
        for player, _store in enumerate(panel.stores):
            assert texts[f"{tag}:store:{player}"] == str(panel.start_captured[player])
        notes = " ".join(v for k, v in sorted(texts.items()) if k.startswith(f"{tag}:note:"))
        assert re.sub(r"\s+", " ", notes) == re.sub(r"\s+", " ", " ".join(panel.notes))
    captures = [e for e in trace.events if isinstance(e, Capture)]
    assert sum(1 for k in texts if ":capture:" in k) == len(captures)


def test_render_laps_and_draw_position_show_the_counts():
    trace = example("endless")
    d = layout(trace)
    starts, _, _, _ = boards_at_lap_starts(trace)
    texts = drawn_texts(diagrams.render_laps(d))
    for panel, board in zip(d.panels, starts):
        assert [texts[f"p{panel.number}:count:{pit}"] for pit in range(12)] == list(map(str, board))
    pos = ms.get_game("bakuk").parse("3,0,0/0,4,3 N 14-12 opener=S")
    texts = drawn_texts(diagrams.draw_position(pos))
    assert [texts[f"p1:count:{pit}"] for pit in range(6)] == ["3", "0", "0", "0", "4", "3"]


def test_output_is_deterministic():
    d = layout(example("owner-four"))
    for fmt in ("png", "svg"):
        first = diagrams.save(render(d), io.BytesIO(), format=fmt)
        second = diagrams.save(render(layout(example("owner-four"))), io.BytesIO(), format=fmt)
        assert first == second and len(first) > 1000


def test_patches_added_without_data_limits_draw_the_same_pictures(monkeypatch):
    """canvas.add_patch skips Axes.add_patch's update of the data limits: every
    kind of picture (a move with captures and a legend, the laps table, the key, a
    position) is the same, byte for byte, as with Axes.add_patch, in both themes."""
    import importlib

    modules = [importlib.import_module(f"mancala_spec.diagrams.{name}")
               for name in ("canvas", "key", "laps", "render")]

    def pictures() -> list[bytes]:
        d = layout(example("several"))
        pos = ms.get_game("bakuk").parse("3,0,0/0,4,3 N 14-12 opener=S")
        figures = [render(d, theme=theme) for theme in ("light", "dark")]
        figures += [diagrams.render_laps(d), diagrams.render_key("ba-awa"),
                    diagrams.draw_position(pos)]
        return [diagrams.save(figure, io.BytesIO(), format="png", dpi=72) for figure in figures]

    ours = pictures()
    for module in modules:
        monkeypatch.setattr(module, "add_patch", lambda ax, patch: ax.add_patch(patch))
    assert pictures() == ours


def test_legible_and_colour_blind_safe():
    from matplotlib.text import Text

    figure = render(layout(example("several")))
    sizes = [t.get_fontsize() for t in figure.findobj(Text) if t.get_text()]
    assert min(sizes) >= 8
    assert set(diagrams.PLAYER_COLOURS) <= set(diagrams.OKABE_ITO.values())
    # players differ by more than colour: hatch (owners) and outline style (captures)
    assert len(set(diagrams.PLAYER_HATCHES)) == len(diagrams.PLAYER_HATCHES)
    assert len(set(map(str, diagrams.PLAYER_LINESTYLES))) == len(diagrams.PLAYER_LINESTYLES)
    # the figure is as wide as the site shows it, so point sizes are honest
    assert 5.5 <= figure.get_size_inches()[0] <= 7.5


def test_render_row_and_panel_selection():
    d = layout(example("endless"))
    figure = render(d, panels=[1, 60])
    texts = drawn_texts(figure)
    assert "p1:lift" in texts and "p60:lift" in texts and "p2:lift" not in texts
    with pytest.raises(ValueError):
        render(d, panels=[99])
    row = diagrams.render_row([layout(example("bakuk-forward")),
                               layout(example("bakuk-backward"))])
    assert len(row.subfigs) == 2


def test_parse_options_and_trace_move():
    assert diagrams.parse_options("") == {}
    assert diagrams.parse_options("skip_origin=false, chain=backward") == {
        "skip_origin": False, "chain": "backward"}
    with pytest.raises(ValueError):
        diagrams.parse_options("skip_origin")
    trace = diagrams.trace_move("bakuk", "b", "3,2,1/1,4,3 S 10-12 opener=S", "chain=backward")
    assert trace.position.to_text() == "3,0,0/0,4,3 N 14-12 opener=S"
    with pytest.raises(ms.IllegalMoveError):
        diagrams.trace_move("bakuk", "A")


# -- the Sphinx directive ----------------------------------------------------------------

PAGE = textwrap.dedent("""\
    # Diagrams

    ```{doctest} ba-awa-owner-four-1
    >>> import mancala_spec as ms
    >>> pos = ms.get_game("ba-awa").parse("1,0,3,3,0,2/3,1,0,3,3,1 S 12-16 opener=S")
    ```

    ```{sowing-diagram}
    :game: ba-awa
    :position: 1,0,3,3,0,2/3,1,0,3,3,1 S 12-16 opener=S
    :move: c
    :example: ba-awa-owner-four-1
    :name: fig-owner-four
    An **owner's** four during sowing.
    ```

    See {ref}`the owner's four <fig-owner-four>`.

    ```{sowing-diagram}
    :game: bakuk
    :options: chain=backward
    :position: 3,2,1/1,4,3 S 10-12 opener=S
    :move: b
    :caption: The backward variant.
    ```
    """)


def build(src, out, page=PAGE):
    from sphinx.application import Sphinx
    from sphinx.util.docutils import docutils_namespace

    src.mkdir(exist_ok=True)
    conf = 'extensions = ["myst_parser", "sphinx.ext.doctest", "mancala_spec.sphinx.diagrams"]\n'
    for name, text in [("conf.py", conf),
                       ("index.md", page)]:
        if not (src / name).exists() or (src / name).read_text() != text:
            (src / name).write_text(text)
    status, warnings = io.StringIO(), io.StringIO()
    with docutils_namespace():   # several builds in one process must not share registrations
        app = Sphinx(str(src), str(src), str(out), str(out / ".doctrees"), "html", status=status,
                     warning=warnings, freshenv=False, warningiserror=True, keep_going=True)
        app.build()
    return app, status.getvalue(), warnings.getvalue()


def test_directive_builds_figures_with_the_resulting_position(tmp_path):
    src, out = tmp_path / "src", tmp_path / "out"
    app, _, warnings = build(src, out)
    assert app.statuscode == 0 and not warnings
    html = (out / "index.html").read_text()
    figures = re.findall(r"<figure.*?</figure>", html, re.S)
    assert len(figures) == 2
    owner = example("owner-four").position.to_text()
    backward = example("bakuk-backward").position.to_text()
    captions = []
    for figure, result, words in [(figures[0], owner, "four during sowing"),
                                  (figures[1], backward, "backward variant")]:
        # four pictures: desktop and phone, light and dark, each shown by its CSS classes
        images = re.findall(r'<img[^>]*class="([^"]+)"[^>]*src="([^"]+)"', figure)
        assert sorted(cls.replace(" no-scaled-link", "") for cls, _ in images) == [
            "diagram-narrow only-dark", "diagram-narrow only-light",
            "diagram-wide only-dark", "diagram-wide only-light"]
        # each picture says its size (nothing moves when it loads), is no link
        # (the caption's is the diagram's one tab stop), and its alt text is the
        # move's events in words
        for tag in re.findall(r"<img[^>]*>", figure):
            assert re.search(r'\swidth="\d+"', tag) and re.search(r'\sheight="\d+"', tag), tag
            alt = html_module.unescape(re.search(r'alt="([^"]*)"', tag).group(1))
            assert " plays " in alt and "The move ends: " in alt and "(rule " in alt, alt
        assert "image-reference" not in figure
        for _, src_attr in images:
            assert src_attr.startswith("_images/") and (out / src_attr).stat().st_size > 1000
        caption = re.sub(r"<[^>]+>", "", re.search(r"<figcaption>.*?</figcaption>", figure,
                                                   re.S).group())
        assert words in caption
        assert caption.strip().rstrip("¶").strip().endswith("Resulting position: " + result)
        captions.append(caption.strip())
    # each diagram says what it draws: the example and rule, or the variant
    assert captions[0].startswith("Diagram of example ba-awa-owner-four-1 (rule ba-awa-owner-four)")
    assert 'href="#example-ba-awa-owner-four-1"' in figures[0]
    assert captions[1].startswith("variant chain=backward.")
    # the key "How to read a diagram" comes once, before the first diagram
    assert html.count('class="diagram-key') == 1
    assert html.index('class="diagram-key') < html.index("<figure")
    assert 'id="fig-owner-four"' in figures[0] and 'href="#fig-owner-four"' in html
    assert not list(src.rglob("*.png")), "figures must not be written into the source folder"
    # an unchanged page is not read again, and its figure is not rewritten
    png = next((out / ".doctrees" / "sowing-diagrams").glob("ba-awa-c-*-phone-dark.png"))
    mtime = png.stat().st_mtime_ns
    _, status, _ = build(src, out)
    assert "0 added, 0 changed, 0 removed" in status
    assert png.stat().st_mtime_ns == mtime


def test_the_pictures_are_kept_in_the_cache_and_taken_from_it(tmp_path, monkeypatch):
    """A build keeps each picture it draws in the cache (mancala_spec.sphinx.cache)
    under the very name the page uses, byte for byte; a build into a fresh folder
    takes it from there instead of drawing it again."""
    from mancala_spec.sphinx import cache

    monkeypatch.setenv("MANCALA_SPEC_CACHE", str(tmp_path / "cache"))
    src, out = tmp_path / "src", tmp_path / "out"
    app, _, warnings = build(src, out)
    assert app.statuscode == 0 and not warnings
    drawn = sorted((out / ".doctrees" / "sowing-diagrams").glob("*.png"))
    kept = tmp_path / "cache" / cache.FOLDER
    assert len(drawn) >= 8                    # two diagrams, four pictures each
    for picture in drawn:
        assert picture.read_bytes() == (kept / picture.name).read_bytes()
    assert not list(kept.glob(".*"))          # no half-written files left
    other = drawn[1].read_bytes()             # a picture, but not this one's
    assert other != drawn[0].read_bytes()
    (kept / drawn[0].name).write_bytes(other)
    build(src, tmp_path / "again")
    taken = tmp_path / "again" / ".doctrees" / "sowing-diagrams" / drawn[0].name
    assert taken.read_bytes() == other


def test_other_builders_get_one_picture_per_diagram(tmp_path):
    """CSS picks among the four pictures in HTML; a text or LaTeX build keeps one."""
    from sphinx.application import Sphinx
    from sphinx.util.docutils import docutils_namespace

    src, out = tmp_path / "src", tmp_path / "out"
    build(src, out)
    with docutils_namespace():
        app = Sphinx(str(src), str(src), str(out / "pseudoxml"), str(out / ".doctrees"),
                     "pseudoxml", status=io.StringIO(), warning=io.StringIO())
        app.build()
    tree = (out / "pseudoxml" / "index.pseudoxml").read_text()
    classes = [c.replace(" no-scaled-link", "")
               for c in re.findall(r'<image [^>]*classes="([^"]+)"', tree)]
    assert classes == ["only-light", "diagram-wide only-light", "diagram-wide only-light"]


def test_directive_reports_bad_input(tmp_path):
    page = textwrap.dedent("""\
        # Bad

        ```{sowing-diagram}
        :game: bakuk
        :move: A
        ```

        ```{sowing-diagram}
        :game: bakuk
        :options: chain=sideways
        :move: a
        ```

        ```{sowing-diagram}
        :game: ba-awa
        :move: a
        :panels: 1 9
        ```
        """)
    app, _, warnings = build(tmp_path / "src", tmp_path / "out", page)
    assert app.statuscode != 0
    assert "sowing-diagram: pit A belongs to North, but South is to move" in warnings
    assert "sowing-diagram: option chain of bakuk must be one of" in warnings
    assert "sowing-diagram: panels [1, 9]: the move has 5" in warnings


def test_directive_refuses_a_label_naming_the_wrong_example(tmp_path):
    """A diagram whose :example: does not hold the position it draws fails the build."""
    page = PAGE.replace(":position: 1,0,3,3,0,2/3,1,0,3,3,1 S 12-16 opener=S\n:move: c\n",
                        ":position: 2,2,2,2,3,1/3,0,2,2,2,3 S 12-12 opener=S\n:move: e\n")
    assert page != PAGE
    app, _, warnings = build(tmp_path / "src", tmp_path / "out", page)
    assert app.statuscode != 0
    assert ("example ba-awa-owner-four-1 does not contain the position "
            "'2,2,2,2,3,1/3,0,2,2,2,3 S 12-12 opener=S'") in warnings


# -- phones, dark mode, the game's words, the key ----------------------------------------

#: furo's article column at a 390 px wide viewport, measured in headless Chromium
PHONE_COLUMN_PX = 358


def shown_text_px(figure, column_px: float) -> float:
    """The smallest text of *figure* in CSS px, when the PNG (DPI dots per inch) is
    shown as the site shows it: at its true size (96 CSS px to the inch), shrunk
    to the column if wider."""
    from matplotlib.text import Text

    true_px = figure.get_size_inches()[0] * 96
    smallest = min(t.get_fontsize() for t in figure.findobj(Text) if t.get_text().strip())
    return smallest / 72 * 96 * min(1.0, column_px / true_px)


@pytest.mark.parametrize("key", sorted(set(EXAMPLES) - {"endless"}))   # 60 laps: slow
def test_phone_pictures_have_text_of_at_least_ten_css_px(key):
    """The phone variant, shown in the 358 px column of a 390 px phone, has no text
    under 10 CSS px (the desktop one had 6.4 px there); nor has the desktop variant
    in furo's 736 px column at 1280 px."""
    trace = example(key)
    phone = render(layout(trace, metrics="phone"), columns=1)
    assert shown_text_px(phone, PHONE_COLUMN_PX) >= 10
    desktop = render(layout(trace))
    assert shown_text_px(desktop, 736) >= 10
    assert shown_text_px(desktop, PHONE_COLUMN_PX) < 10    # why phones need their own picture


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio of two colours."""
    from matplotlib.colors import to_rgb

    def luminance(colour):
        channels = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
                    for c in to_rgb(colour)]
        return 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2]

    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_dark_theme_is_dark_and_legible():
    """The dark picture has furo's dark background (not a white box), and every text
    colour it uses stands out from the background and from every tint it sits on."""
    from matplotlib.colors import to_hex
    from matplotlib.text import Text
    from PIL import Image

    figure = render(layout(example("several")), theme="dark")
    data = diagrams.save(figure, io.BytesIO())
    image = Image.open(io.BytesIO(data)).convert("RGB")
    assert image.getpixel((2, 2)) == (0x13, 0x14, 0x16)
    import numpy

    assert numpy.asarray(image).mean() < 80      # mostly dark, not a white box
    dark = diagrams.DARK
    colours = {to_hex(t.get_color()).upper() for t in figure.findobj(Text) if t.get_text()}
    assert colours <= {dark.ink.upper(), dark.grey.upper(), dark.background.upper(),
                       dark.lift_ink.upper()}
    assert contrast(dark.ink, dark.background) >= 7
    assert contrast(dark.grey, dark.background) >= 4.5
    for tint in dark.tints:
        assert contrast(dark.ink, tint) >= 4.5
    for colour in dark.players:       # capture outlines and chain arrows
        assert contrast(colour, dark.background) >= 3
    light = render(layout(example("several")), theme="light")
    assert Image.open(io.BytesIO(diagrams.save(light, io.BytesIO()))).convert("RGB") \
        .getpixel((2, 2)) == (255, 255, 255)


def test_bakuk_diagrams_say_counters():
    """Bakuk's pages say "counters": so do its diagrams, key included; Ba-awa's say seeds."""
    from matplotlib.text import Text

    for key in ("bakuk-forward", "bakuk-backward", "bakuk-ends"):
        d = layout(example(key))
        words = " ".join([*(t.get_text() for t in render(d).findobj(Text)),
                          *(t.get_text() for t in diagrams.render_key("bakuk").findobj(Text))])
        assert "counter" in words and "seed" not in words
    relay = " ".join(t.get_text() for t in render(layout(example("opening"))).findobj(Text))
    assert "seeds" in relay and "counter" not in relay


def test_a_variant_says_so_in_its_title():
    backward = layout(example("bakuk-backward"))
    assert backward.title.endswith(", chain=backward")
    assert not layout(example("bakuk-forward")).title.endswith("chain=forward")


def test_the_key_explains_every_marker_it_draws():
    from matplotlib.text import Text

    for game in ("ba-awa", "bakuk"):
        figure = diagrams.render_key(game)
        texts = drawn_texts(figure)
        assert texts["key-title"] == "How to read a diagram"
        lines = [" ".join(texts[k].split()) for k in sorted(texts) if k.startswith("key-line-")]
        assert len(lines) == len(diagrams.key_lines(game))
        assert any("captured by North" in line for line in lines)
        # it is drawn at its true size on a phone: text >= 10 CSS px
        assert shown_text_px(figure, PHONE_COLUMN_PX) >= 10
        assert figure.get_size_inches()[0] * 96 <= PHONE_COLUMN_PX
        assert all(t.get_text() for t in figure.findobj(Text) if t.get_gid())


def test_the_package_imports_without_matplotlib():
    """Without matplotlib the diagram data still works, and drawing says how to get it."""
    import subprocess
    import sys

    code = textwrap.dedent("""\
        import sys
        sys.modules["matplotlib"] = None          # as if it were not installed
        import mancala_spec as ms
        from mancala_spec import diagrams
        trace = ms.get_game("bakuk").parse("3,2,1/1,4,3 S 10-12 opener=S").trace("b")
        d = diagrams.layout(trace, metrics="phone")
        print(len(d.captures), d.words.pieces)
        try:
            diagrams.render(d)
        except diagrams.DiagramError as error:
            print("error:", error)
        """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "2 counters", "error: matplotlib is not installed: pip install 'mancala-spec[diagram]'"]
    plain = subprocess.run([sys.executable, "-c", "import sys, mancala_spec.diagrams; "
                            "print('matplotlib' in sys.modules)"], capture_output=True,
                           text=True, timeout=60)
    assert plain.stdout.strip() == "False", plain.stderr
