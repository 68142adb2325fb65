"""The Play page's Python side (docs/_static/play/play.py), run in CPython.

The browser tests (test_browser.py) run the same file in Pyodide; these check,
quickly and without a browser, that it follows the engine: the options it lists
are the engine's declarations, a session plays, undoes, records and replays as
the engine does, the steps of a move are the trace's events ending in the
position the move reaches, and "Try it" finds a move in the rule examples.
"""
from __future__ import annotations

import importlib.util
import json
import random
import re
from pathlib import Path

import pytest

import mancala_spec as ms
from mancala_spec.engine.games import GAMES

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("play_bridge", ROOT / "docs/_static/play/play.py")
play = importlib.util.module_from_spec(spec)
spec.loader.exec_module(play)


def test_games_list_the_engines_option_declarations():
    listed = {g["name"]: g for g in json.loads(play.games())}
    assert set(listed) == set(GAMES)
    for name, cls in GAMES.items():
        options = listed[name]["options"]
        assert [o["name"] for o in options] == [o.name for o in cls.OPTIONS]
        for entry, option in zip(options, cls.OPTIONS):
            assert entry["choices"] == list(option.choices)
            assert entry["default"] == option.default and entry["rule"] == option.rule


@pytest.mark.parametrize("name, options", [("ba-awa", {}), ("ba-awa", {"players": 3}),
                                           ("bakuk", {"chain": "backward"})])
def test_a_session_plays_undoes_and_replays_as_the_engine(name, options):
    session = play.Session()
    rng = random.Random(3)
    game = ms.get_game(name, **options)
    state = json.loads(session.new(name, json.dumps(options)))
    pos, moves = game.start(), []
    while not pos.is_over and len(moves) < 40:
        assert state["position"] == pos.to_text()
        assert state["legal"] == [game.board.name(p) for p in pos.legal_moves()]
        pit = rng.choice(pos.legal_moves())
        state = json.loads(session.play(game.board.name(pit)))
        steps = state["last"]
        trace = pos.trace(pit)
        assert [(s["kind"], s["rule"]) for s in steps] == [(e.kind, e.rule) for e in trace.events]
        assert steps[-1]["pits"] == list(trace.position.pits)
        pos, moves = trace.position, moves + [pit]
    assert state["record"] == ms.format_game(game.start(), moves)
    undone = json.loads(session.undo(1))
    assert undone["position"] == ms.parse_game(state["record"]).positions[-2].to_text()
    replayed = json.loads(session.load(state["record"]))
    assert replayed["position"] == pos.to_text()
    assert "error" in json.loads(play.call(session.load, "game: bakuk\nmoves: a a\n"))


def rule_examples():
    """Every example's doctest, as the page shows it: the worked examples' (made
    from their data) and the other ``{doctest}`` blocks."""
    from mancala_spec.conformance.worked_examples import extract_examples

    for example in extract_examples(ROOT / "docs"):
        yield example.id, example.doctest()
    for page in sorted((ROOT / "docs").glob("*.md")):
        text = page.read_text(encoding="utf-8")
        for match in re.finditer(r"```\{doctest\} (\S+)\n(.*?)```", text, re.S):
            yield match.group(1), match.group(2)


def test_try_it_finds_the_move_of_most_rule_examples():
    found = 0
    examples = list(rule_examples())
    for ident, code in examples:
        move = json.loads(play.example_move(code))
        if move is None:
            continue
        found += 1
        game = ms.get_game(move["game"], **move["options"])
        pos = game.parse(move["position"])
        data = json.loads(play.example_steps(move["game"], json.dumps(move["options"]),
                                             move["position"], move["pit"]))
        trace = pos.trace(move["pit"])
        player = game.board.player_names.__getitem__
        assert [s["text"] for s in data["steps"]] == [
            e.describe(game.board.name, player) for e in trace.events], ident
    assert len(examples) > 50 and found > len(examples) / 2, (found, len(examples))


# -- what dev.py puts into the site for the page ---------------------------------------


def test_the_pinned_integrity_check_rejects_other_bytes():
    import base64
    import hashlib

    import dev

    data = b"pyodide"
    pin = "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()
    assert dev.integrity_ok(data, pin)
    assert not dev.integrity_ok(data + b" ", pin)
    assert dev.PYODIDE_INTEGRITY.startswith("sha512-")


def test_without_node_there_is_no_engine_snapshot_and_the_build_is_told_why(tmp_path,
                                                                           monkeypatch):
    """The engine's snapshot (tools/play_snapshot.mjs) needs Node.js: without it
    write_play_snapshot makes none, leaves none of an earlier build behind, and says
    why (the build warns; the page starts its engine cold)."""
    import dev

    monkeypatch.setenv("MANCALA_SPEC_CACHE", str(tmp_path / "cache"))   # none kept
    monkeypatch.setattr(dev.shutil, "which", lambda name: None)
    play = tmp_path / "play"
    play.mkdir()
    (play / "engine-0123.snapshot.gz").write_bytes(b"an earlier build's")
    wheel = play / "mancala_spec-0-py3-none-any.whl"
    wheel.write_bytes(b"a wheel")
    assert dev.write_play_snapshot(play, wheel) == (None, "Node.js (node) is not installed")
    assert sorted(p.name for p in play.iterdir()) == [wheel.name]


def test_the_wheel_holds_the_engine_and_it_imports_with_the_standard_library_only(tmp_path):
    import subprocess
    import sys

    import dev

    wheel = dev.build_wheel(tmp_path)
    # -S: no site-packages at all, so numpy or anything else installed cannot be found
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import mancala_spec as ms; "
            "from mancala_spec.engine.players import PLAYERS; "
            "p = ms.get_game('bakuk').start().play('a'); "
            "print(ms.format_game(ms.get_game('bakuk').start(), ['a']).strip()); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] not in sys.stdlib_module_names "
            "and m.split('.')[0] not in ('mancala_spec', '__main__')))")
    result = subprocess.run([sys.executable, "-I", "-S", "-c", code, str(wheel)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["game: bakuk", "moves: a", "[]"]


# -- the analysis board: walking the moves, links, values, players ----------------------


def test_walking_the_moves_and_playing_from_an_earlier_position_starts_a_variation():
    session = play.Session()
    game = ms.get_game("bakuk")
    json.loads(session.new("bakuk", "{}"))
    rng = random.Random(8)
    positions = [game.start()]
    for _ in range(8):
        pit = rng.choice(positions[-1].legal_moves())
        session.play(game.board.name(pit))
        positions.append(positions[-1].play(pit))
    game_moves = ms.parse_game(session.record()).moves
    for ply in (0, 3, 8, 5):
        state = json.loads(session.goto(ply))
        assert state["position"] == positions[ply].to_text() and state["ply"] == ply
        assert len(state["moves"]) == 8
        assert state["link"].get("ply") == (None if ply == 8 else str(ply))
        if ply:
            trace = positions[ply - 1].trace(game.board.pit(state["moves"][ply - 1]))
            player = game.board.player_names.__getitem__
            assert [s["text"] for s in state["last"]] == [
                e.describe(game.board.name, player) for e in trace.events]
            assert state["shown"]["laps"] == trace.laps
    # at ply 5, the move the game played goes on along it (a redo); another move
    # starts a variation: the game's eight moves stay, the line shown is the variation
    again = json.loads(session.play(game.board.name(game_moves[5])))
    assert again["ply"] == 6 and len(again["moves"]) == 8 and not again["variation"]
    session.goto(5)
    pit = next(p for p in positions[5].legal_moves() if p != game_moves[5])
    state = json.loads(session.play(game.board.name(pit)))
    assert state["ply"] == 6 and len(state["moves"]) == 6 and state["variation"]
    assert state["position"] == positions[5].play(pit).to_text()
    listed = state["tree"]          # the game's moves; the variation beside its sixth
    assert [m["pit"] for m in listed] == [game.board.name(p) for p in game_moves]
    assert [[m["pit"] for m in line] for line in listed[5]["variations"]] == [
        [game.board.name(pit)]]
    assert listed[5]["variations"][0][0]["id"] == state["node"] == state["line"][-1]
    # the record keeps the game and the variation, and reads back the same tree
    record = ms.parse_game(state["record"])
    assert record.moves == game_moves
    assert "(" + game.board.name(pit) + ")" in state["record"]
    assert record.positions[-1].to_text() == positions[8].to_text()
    back = play.Session()
    loaded = json.loads(back.load(state["record"]))
    assert loaded["record"] == state["record"] and loaded["ply"] == 8
    assert back.tree() == record.tree == session.tree()
    # undo goes back, the moves kept; the next move redoes
    undone = json.loads(session.undo(2))
    assert undone["ply"] == 4 and len(undone["moves"]) == 6
    assert json.loads(session.goto(6))["position"] == state["position"]
    # promote: the variation becomes the game; delete: it goes, the game is as before
    promoted = json.loads(session.promote())
    assert ms.parse_game(promoted["record"]).moves == (*game_moves[:5], pit)
    assert not promoted["variation"]
    deleted = json.loads(session.delete())
    assert deleted["ply"] == 5 and ms.parse_game(deleted["record"]).moves == game_moves
    assert "(" not in deleted["record"]
    assert "error" in json.loads(play.call(session.goto_node, 999))


def test_a_link_restores_the_game_and_bad_links_get_one_line():
    session = play.Session()
    game = ms.get_game("ba-awa", skip_origin=True)
    start = game.parse("2,2,2,2,1,2/0,2,2,2,2,1 S 12-16 opener=S")
    after = start.play("c")
    query = {"game": "ba-awa", "skip_origin": "true", "start": start.to_text(),
             "moves": "c," + game.board.name(after.legal_moves()[0])}
    state = json.loads(session.load_link(json.dumps(query)))
    assert state["position"] == after.play(after.legal_moves()[0]).to_text()
    assert state["options"]["skip_origin"] is True
    assert state["link"] == query          # the link the page writes is the one read
    shown = json.loads(session.load_link(json.dumps({**query, "ply": "1"})))
    assert shown["position"] == after.to_text()
    for bad in ({"game": "bakuk", "moves": "a,a"}, {"game": "chess"},
                {"game": "bakuk", "chain": "up"}, {"game": "bakuk", "start": "1,2/3"},
                {"game": "bakuk", "moves": "z"}):
        answer = json.loads(play.call(session.load_link, json.dumps(bad)))
        assert "error" in answer and "\n" not in answer["error"], bad


def test_the_built_in_players_answer_with_a_legal_move():
    session = play.Session()
    for name in ("ba-awa", "bakuk"):
        state = json.loads(session.new(name, "{}"))
        for kind in ("random", "greedy", "strong"):
            answer = json.loads(session.computer(kind))
            assert answer["pit"] in state["legal"], kind
        strong = json.loads(session.computer("strong"))
        assert strong["nodes"] <= strong["budget_nodes"] and strong["budget_seconds"] <= 1.0
    assert "error" in json.loads(play.call(session.computer, "nobody"))


def test_values_are_said_to_be_unavailable_where_the_solver_has_none(tmp_path, monkeypatch):
    from mancala_spec.solved import ValueTable, write_table

    session = play.Session()
    # Ba-awa's table: its index is asked for first; a site without it (404: written
    # empty) says that the values are not part of this build and how to add them
    monkeypatch.setattr(play, "BA_AWA_FOLDER", str(tmp_path / "ba-awa-values"))
    monkeypatch.setattr(play, "_ba_awa", [])
    session.new("ba-awa", "{}")
    assert json.loads(session.values()) == {"need": ["index.json"]}
    assert json.loads(session.computer("perfect")) == {"need": ["index.json"]}
    (tmp_path / "ba-awa-values" / "index.json").write_bytes(b"")
    assert json.loads(session.values()) == {"unavailable": play.NOT_BUILT}
    assert "--ba-awa-values DIR" in play.NOT_BUILT
    assert json.loads(play.call(session.computer, "perfect")) == {
        "error": play.NOT_BUILT.splitlines()[0]}
    (tmp_path / "ba-awa-values" / "index.json").write_bytes(b"!")   # a failed fetch
    assert "could not be loaded" in json.loads(session.values())["unavailable"]
    monkeypatch.setattr(play, "VALUES_FILE", str(tmp_path / "missing.bin"))
    monkeypatch.setattr(play, "_table", [])
    session.new("bakuk", "{}")
    assert "could not be loaded" in json.loads(session.values())["unavailable"]
    # a page served in the table's place (a 404 page, say) is no table either
    (tmp_path / "not-a-table.bin").write_bytes(b"<!doctype html>\n<title>Not found</title>")
    monkeypatch.setattr(play, "VALUES_FILE", str(tmp_path / "not-a-table.bin"))
    assert "could not be loaded" in json.loads(session.values())["unavailable"]
    # a small board's table stands for the real one: its rules are not the game's
    small = ValueTable.from_rules(pits_per_row=2, seeds_per_pit=2)
    monkeypatch.setattr(play, "VALUES_FILE", str(write_table(tmp_path / "small.bin", small)))
    assert "pits_per_row = 3 (solved: 2)" in json.loads(session.values())["unavailable"]
    assert "error" in json.loads(play.call(session.computer, "perfect"))


def page_choices():
    """Every ruleset the page offers for each game (play.games(), what its menus
    are drawn from), alone and with every value of every option set on top of it."""
    for listed in json.loads(play.games()):
        for ruleset in listed["rulesets"]:
            yield listed["name"], ruleset["name"], {}
            for option in listed["options"]:
                current = ruleset["values"].get(option["name"], option["default"])
                for choice in option["choices"]:
                    if choice != current:
                        yield listed["name"], ruleset["name"], {option["name"]: choice}


@pytest.fixture(scope="module")
def bakuk_solved(tmp_path_factory):
    """Bakuk solved (about 1.5 s) and its table, as the site build writes it."""
    from mancala_spec.solve import solve
    from mancala_spec.solved import ValueTable, write_table

    solution = solve()
    path = write_table(tmp_path_factory.mktemp("values") / "bakuk-values.bin",
                       ValueTable.from_solution(solution))
    return solution, path


def test_values_are_shown_only_for_the_solved_rules_and_are_the_solvers(bakuk_solved,
                                                                          monkeypatch):
    """Every ruleset the page offers and every option value on top of it: each
    value the page shows (and the perfect player's move) is the solver's for the
    game's rules, found by solving those rules (Rules.from_game refuses rules the
    solver does not solve), and the position's value is the best move's (the
    engine's own moves, whatever the solver's rules); where none is shown, the
    page says why, and the perfect player is refused. Prints what it tried."""
    from mancala_spec.solve import Rules

    solution, path = bakuk_solved
    monkeypatch.setattr(play, "VALUES_FILE", str(path))
    monkeypatch.setattr(play, "_table", [])
    tried, shown = [], 0
    for name, ruleset, options in page_choices():
        if name != "bakuk":        # Ba-awa's: test_ba_awa_values_are_shown_only_for_the_solved...
            continue
        session = play.Session()
        answer = json.loads(play.call(session.new, name, json.dumps(options), "", ruleset))
        label = f"{name} ruleset={ruleset}" + "".join(f" {k}={v}" for k, v in options.items())
        if "error" in answer:                # options that do not go together
            tried.append(f"{label}: refused ({answer['error']})")
            continue
        game = session.game
        rng = random.Random(len(tried))
        counts = {"values": 0, "none": 0}
        why = answer["unsolved"]
        for _ply in range(16):
            pos = session.pos
            values = json.loads(session.values())
            if "values" in values and not pos.is_over:
                counts["values"] += 1
                assert why is None, label
                rules = Rules.from_game(game)     # raises for rules not solved
                assert rules == solution.rules, label
                expected = solution.move_values(pos.pits, pos.to_move)
                assert values["values"] == {game.board.name(p): v
                                            for p, v in expected.items()}, label
                assert values["value"] == solution.value(pos.pits, pos.to_move)
                assert values["value"] == max(values["values"].values()), label
                perfect = json.loads(session.computer("perfect"))
                assert perfect["value"] == values["value"], label
            elif "values" not in values:
                counts["none"] += 1
                assert values["unavailable"] and values["unavailable"] == why, label
                assert "error" in json.loads(play.call(session.computer, "perfect")), label
            if pos.is_over:
                break
            session.play(game.board.name(rng.choice(pos.legal_moves())))
        shown += counts["values"] > 0
        tried.append(f"{label}: " + (f"values shown at {counts['values']} positions"
                                     if counts["values"] else f"none shown ({why})"))
    print("\n".join(["Every ruleset and option value the Play page offers:", *tried]))
    # the defaults and the options set to the value they already had show values
    assert shown >= 1 and any(t.startswith("bakuk ruleset=mancala_spec: values shown")
                              for t in tried)
    assert any(t.startswith("bakuk ruleset=koumma: none shown") for t in tried)


def test_games_list_each_games_rulesets_with_their_basis():
    listed = {g["name"]: g for g in json.loads(play.games())}
    for name in GAMES:
        rulesets = listed[name]["rulesets"]
        assert [r["name"] for r in rulesets] == [r.name for r in ms.rulesets(name)]
        assert rulesets[0]["name"] == "mancala_spec" and rulesets[0]["values"] == {}
        for entry, ruleset in zip(rulesets, ms.rulesets(name)):
            assert entry["title"] == ruleset.title and entry["basis"] == ruleset.basis
            assert entry["values"] == {k: v for k, v in ms.get_game(name, ruleset=ruleset.name)
                                       .options.items() if v != ms.get_game(name).options[k]}
            for diff in entry["differences"]:   # every difference has its basis
                assert diff["where"] or diff["quotes"], diff
                if diff["basis"] == "program":
                    assert all(ruleset.program.commit in w["href"] for w in diff["where"])
                if diff["basis"] == "reading":
                    assert diff["why"] and diff["other"]
    koumma = next(r for r in listed["bakuk"]["rulesets"] if r["name"] == "koumma")
    assert {d["basis"] for d in koumma["differences"]} == {"source", "reading"}
    assert koumma["program"] is None


@pytest.mark.parametrize("name, ruleset", [("bakuk", "mancalagames"), ("bakuk", "koumma"),
                                           ("ba-awa", "everyboard"), ("ba-awa", "mancalagames")])
def test_a_session_under_a_ruleset_plays_as_get_game_with_that_ruleset(name, ruleset):
    session = play.Session()
    game = ms.get_game(name, ruleset=ruleset)
    state = json.loads(session.new(name, "{}", "", ruleset))
    assert state["ruleset"] == ruleset and state["overrides"] == {}
    assert state["options"] == dict(game.options) and not state["kernel"]
    assert state["link"] == {"game": name, "ruleset": ruleset}
    rng, pos = random.Random(5), game.start()
    while not pos.is_over and len(state["moves"]) < 30:
        pit = rng.choice(pos.legal_moves())
        state = json.loads(session.play(game.board.name(pit)))
        pos = pos.play(pit)
        assert state["position"] == pos.to_text()
    # the link restores the game and its ruleset; a record names only options,
    # and the ruleset they play exactly is found again
    again = json.loads(play.Session().load_link(json.dumps(state["link"])))
    assert (again["position"], again["ruleset"]) == (state["position"], ruleset)
    replayed = json.loads(play.Session().load(state["record"]))
    assert (replayed["position"], replayed["ruleset"]) == (state["position"], ruleset)


def test_explicit_options_override_the_ruleset_in_the_session_and_its_link():
    session = play.Session()
    state = json.loads(session.new("bakuk", json.dumps({"chain": "forward"}), "", "mancalagames"))
    expected = ms.get_game("bakuk", ruleset="mancalagames", chain="forward")
    assert state["options"] == dict(expected.options)
    assert state["overrides"] == {"chain": "forward"}
    assert state["link"] == {"game": "bakuk", "ruleset": "mancalagames", "chain": "forward"}
    again = json.loads(play.Session().load_link(json.dumps(state["link"])))
    assert again["options"] == state["options"] and again["ruleset"] == "mancalagames"
    # a ruleset the game has not is a one-line error naming the game's rulesets
    bad = json.loads(play.call(play.Session().load_link,
                               json.dumps({"game": "ba-awa", "ruleset": "koumma"})))
    assert "koumma" in bad["error"] and "everyboard" in bad["error"]


#: a sixteen-seed start of Ba-awa (two levels): the small table the tests solve
BA_AWA_START = ((2, 2, 1, 0, 3, 1, 0, 1, 2, 1, 1, 2), 0)


@pytest.fixture(scope="module")
def ba_awa_solved(tmp_path_factory):
    """Ba-awa solved from a sixteen-seed start (about 5 s) and its table, as
    ``mancala-spec solve ba-awa --write-table`` writes it; the start as text."""
    from mancala_spec.solve.ba_awa import solve
    from mancala_spec.solved_ba_awa import write_ba_awa_table

    solution = solve(start=BA_AWA_START)
    folder = write_ba_awa_table(tmp_path_factory.mktemp("values") / "ba-awa-values", solution)
    start = ms.get_game("ba-awa").position(list(BA_AWA_START[0]), to_move=0, opener=0,
                                           captured=(16, 16)).to_text()
    return solution, folder, start


def ba_awa_values(session):
    """``session.values()`` as the page's worker gets it: the files named fetched
    (here: there already), and the question asked again."""
    for _ in range(3):
        answer = json.loads(session.values())
        if "need" not in answer:
            return answer
    raise AssertionError(f"still needs {answer['need']}")


def test_ba_awa_values_are_shown_only_for_the_solved_rules_and_are_the_solvers(
        ba_awa_solved, monkeypatch):
    """Every ruleset the page offers for Ba-awa and every option value on top of it,
    each game from the start the table was solved from: each value the page shows
    (and the perfect player's move) is the solver's, for rules the solver takes
    (BaAwaRules refuses others) and equal to the table's; where none is shown, the
    page says why (the state's reason), and the perfect player is refused. Prints
    what it tried."""
    from mancala_spec.solve.ba_awa import BaAwaRules

    solution, folder, start = ba_awa_solved
    monkeypatch.setattr(play, "BA_AWA_FOLDER", str(folder))
    monkeypatch.setattr(play, "_ba_awa", [])
    tried = []
    for name, ruleset, options in page_choices():
        if name != "ba-awa":
            continue
        session = play.Session()
        label = f"{name} ruleset={ruleset}" + "".join(f" {k}={v}" for k, v in options.items())
        answer = json.loads(play.call(session.new, name, json.dumps(options), start, ruleset))
        if "error" in answer:        # a two-player start under three players: the opening
            answer = json.loads(play.call(session.new, name, json.dumps(options), "", ruleset))
        if "error" in answer:
            tried.append(f"{label}: refused ({answer['error']})")
            continue
        game = session.game
        rng = random.Random(len(tried))
        counts = {"values": 0, "none": 0}
        why = answer["unsolved"]
        for _ply in range(12):
            pos = session.pos
            values = ba_awa_values(session)
            if "values" in values and not pos.is_over:
                counts["values"] += 1
                assert why is None and values["source"] == "table", label
                assert BaAwaRules(**{k: v for k, v in game.options.items()
                                     if k != "turn_order"}) == solution.rules, label
                expected = solution.move_values(pos.pits, pos.to_move)
                assert values["values"] == {game.board.name(p): v
                                            for p, v in expected.items()}, label
                assert values["value"] == solution.value(pos.pits, pos.to_move), label
                perfect = json.loads(session.computer("perfect"))
                assert values["values"][perfect["pit"]] == perfect["value"] \
                    == max(values["values"].values()), label
            elif "values" not in values:
                counts["none"] += 1
                assert values["unavailable"] and values["unavailable"] == why, label
                assert "error" in json.loads(play.call(session.computer, "perfect")), label
            if pos.is_over:
                break
            session.play(game.board.name(rng.choice(pos.legal_moves())))
        tried.append(f"{label}: " + (f"values shown at {counts['values']} positions"
                                     if counts["values"] else f"none shown ({why})"))
    print("\n".join(["Every Ba-awa ruleset and option value the Play page offers:", *tried]))
    assert any(t.startswith("ba-awa ruleset=mancala_spec: values shown") for t in tried)
    assert any(t.startswith("ba-awa ruleset=mancala_spec skip_origin=True: none shown")
               for t in tried)
    assert any(t.startswith("ba-awa ruleset=everyboard: none shown") for t in tried)
    assert sum(": values shown" in t for t in tried) == 1


def test_a_ba_awa_position_the_table_lacks_is_searched_or_said_unknown(ba_awa_solved,
                                                                       monkeypatch):
    solution, folder, _ = ba_awa_solved
    monkeypatch.setattr(play, "BA_AWA_FOLDER", str(folder))
    monkeypatch.setattr(play, "_ba_awa", [])
    session = play.Session()
    # a board no game from the table's start reaches, near the end: searched to the end
    near = "0,2,1,3,3,1/0,1,1,0,0,0 S 16-20 opener=S"
    session.new("ba-awa", "{}", near)
    assert play.ba_awa_table().value(list(session.pos.pits), 0) is None
    values = ba_awa_values(session)
    assert values == {"values": dict.fromkeys("bcdef", 12), "value": 12, "source": "search"}
    # a game North opened is the table's with the rows turned
    pits = BA_AWA_START[0]
    turned = ms.get_game("ba-awa").position(list(pits[6:] + pits[:6]), to_move=1, opener=1,
                                            captured=(16, 16))
    session.new("ba-awa", "{}", turned.to_text())
    values = ba_awa_values(session)
    expected = solution.move_values(*BA_AWA_START)
    assert values == {"values": {"ABCDEF"[p]: v for p, v in expected.items()},
                      "value": solution.value(*BA_AWA_START), "source": "table"}
    # the opening is not in this small table, and too far from the end to search
    session.new("ba-awa", "{}")
    assert "No exact value is known" in ba_awa_values(session)["unavailable"]


def test_the_build_ships_a_table_only_whole(ba_awa_solved, tmp_path, monkeypatch):
    """What conf.py does with MANCALA_SPEC_BA_AWA_VALUES (dev.py site --ba-awa-values):
    the table's files into the Play page's, once its index and every file it names
    are there; a folder that is no table, or a table missing a file, is one line."""
    import dev
    from mancala_spec.errors import TableError
    from mancala_spec.solved_ba_awa import BaAwaValueTable

    _, folder, _ = ba_awa_solved
    monkeypatch.setenv(dev.BA_AWA_VALUES, str(folder))
    assert dev.ba_awa_values() == folder.resolve()
    monkeypatch.setenv(dev.BA_AWA_VALUES, "")
    assert dev.ba_awa_values() is None
    site = tmp_path / "html"
    assert dev.copy_ba_awa_values(site, folder) == len(BaAwaValueTable.from_folder(folder).files())
    shipped = site / "_static" / dev.BA_AWA_VALUES_DIR
    assert len(BaAwaValueTable.from_folder(shipped)) == len(BaAwaValueTable.from_folder(folder))
    partial = tmp_path / "partial"
    partial.mkdir()
    for name in BaAwaValueTable.from_folder(folder).files()[:-1]:
        (partial / name).write_bytes((folder / name).read_bytes())
    with pytest.raises(TableError, match="lacks its file") as error:
        dev.copy_ba_awa_values(tmp_path / "other", partial)
    assert len(str(error.value).splitlines()) == 1
    with pytest.raises(TableError, match="no index.json"):
        dev.copy_ba_awa_values(tmp_path / "other", tmp_path)


def test_a_link_keeps_the_variations_the_notes_and_the_position_shown():
    """The link (issue 44): the game with its variations and notes (moves=, as a record
    writes them, commas for spaces), the move of a variation shown (at=); read back, the
    same tree, notes and position. A ply= that is no move of the game is a note, not a
    failure; a moves= that cannot be read is one line."""
    session = play.Session()
    session.new("bakuk", "{}")
    for name in "a B c A".split():
        session.play(name)
    session.goto(2)
    session.annotate("?", "C keeps the seeds")
    session.goto(1)
    session.play("C")
    state = json.loads(session.annotate("!!", ""))
    assert state["link"]["moves"] == "a,B?,{C keeps the seeds},(C!!),c,A"
    assert state["link"]["at"] == "a,C" and "ply" not in state["link"]
    again = json.loads(play.Session().load_link(json.dumps(state["link"])))
    assert again["record"] == state["record"] and again["position"] == state["position"]
    assert again["link"] == state["link"]
    assert ms.parse_game(state["record"]).notes == (((0, 4), "?", "C keeps the seeds"),
                                                    ((0, 5), "!!", ""))
    # the page's own parameters (your side, the board turned) are no game options
    seated = json.loads(play.Session().load_link(json.dumps(
        {**state["link"], "as": "north", "flip": "0", "opponent": "greedy", "values": "1"})))
    assert seated["record"] == state["record"]
    for ply in ("x", "1.5", "-1", "9"):
        shown = json.loads(play.Session().load_link(json.dumps(
            {"game": "bakuk", "moves": "a,B", "ply": ply})))
        assert f"ply={ply}" in shown["note"] and shown["ply"] == 2
    for bad in ("a,(B", "a,B)", "(a", "a,{x", "a,q"):
        answer = json.loads(play.call(play.Session().load_link,
                                      json.dumps({"game": "bakuk", "moves": bad})))
        assert "\n" not in answer["error"], answer
    assert "error" in json.loads(play.call(session.annotate, "x", ""))
    assert "error" in json.loads(play.call(session.annotate, "!", "{"))


def test_the_best_line_and_the_review_follow_the_solvers_values(tmp_path, monkeypatch):
    from mancala_spec.solved import ValueTable, write_table

    monkeypatch.setattr(play, "VALUES_FILE", str(write_table(tmp_path / "bakuk.bin")))
    monkeypatch.setattr(play, "_table", [])
    table = ValueTable.from_bytes((tmp_path / "bakuk.bin").read_bytes())
    game = ms.get_game("bakuk")
    session = play.Session()
    session.new("bakuk", "{}")
    rng = random.Random(6)
    pos, losses = game.start(), []
    for _ in range(12):
        pit = rng.choice(pos.legal_moves())
        values = table.move_values(pos)
        if values[pit] < table.value_of(pos):
            losses.append(table.value_of(pos) - values[pit])
        session.play(game.board.name(pit))
        pos = pos.play(pit)
    review = json.loads(session.review())
    assert [loss["loss"] for loss in review["losses"]] == losses
    margins = [p["margin"] for p in review["points"]]
    # a margin changes by a move's loss, for its player, and by nothing else
    for before, after, point in zip(margins, margins[1:], review["points"][1:]):
        lost = next((loss for loss in review["losses"] if loss["ply"] == point["ply"]), None)
        change = 0 if lost is None else lost["loss"] * (1 if lost["player"] == "North" else -1)
        assert after - before == change
    line = json.loads(session.best_line())
    for move in line["moves"]:
        values = table.move_values(pos)
        assert values[game.board.pit(move["pit"])] == max(values.values())
        pos = pos.play(move["pit"])
    assert line["complete"] == pos.is_over
    session.new("bakuk", json.dumps({"chain": "backward"}))
    assert "No exact values" in json.loads(session.best_line())["unavailable"]


def test_ba_awa_values_reached_with_a_history_say_where_it_may_change_them(ba_awa_solved,
                                                                           monkeypatch):
    """Along random games from the table's start, the page's values carry the
    note on the history exactly where the table says the value may not hold
    with the positions since the last capture (BaAwaValueTable.value_holds)."""
    _, folder, start = ba_awa_solved
    monkeypatch.setattr(play, "BA_AWA_FOLDER", str(folder))
    monkeypatch.setattr(play, "_ba_awa", [])
    rng = random.Random(5)
    noted = plain = 0
    for _ in range(6):
        session = play.Session()
        session.new("ba-awa", "{}", start)
        while not session.pos.is_over:
            values = ba_awa_values(session)
            holds = play.ba_awa_table().value_holds(session.pos)
            assert ("history" in values) == (not holds)
            if "history" in values:
                assert values["history"] == play.HISTORY_NOTE
            noted += not holds
            plain += holds
            session.play(ms.get_game("ba-awa").board.name(rng.choice(session.pos.legal_moves())))
    assert noted and plain
