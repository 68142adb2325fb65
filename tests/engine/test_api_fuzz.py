"""Issue 21: the public API fuzzed with hostile values, one argument at a time
(None, floats, bools, complex, huge ints, negatives, strings, nested lists,
over-long inputs): every call returns or raises one of the package's typed
errors (a ValueError), never another exception, and in bounded time. The
conformance runner's settings are fuzzed in tests/engine/test_error_fields.py and
tests/kernel/test_kernel_entries.py (each run starts an engine)."""
from __future__ import annotations

import random

import pytest

import mancala_spec as ms
from mancala_spec import analysis as an
from mancala_spec import diagrams as D
from mancala_spec import errors, fast, sources
from mancala_spec import solve as S
from mancala_spec.catalogue import cite, load_catalogue, registry
from mancala_spec.diagrams.alt import alt_text
from mancala_spec.diagrams.style import words_for
from mancala_spec.fast import FastGame
from mancala_spec.fast.search import search, search_move
from mancala_spec.fast.tables import sowing_next
from mancala_spec.notation import (
    format_game,
    format_match,
    format_position,
    option_value,
    parse_game,
    parse_match,
    result_of,
)
from mancala_spec.rulesets import game_values, match_settings, ruleset, rulesets
from mancala_spec.solved import ValueTable

BIG = 10 ** 4400       # more digits than str() converts
HOSTILE = [None, 0.0, 1.5, float("nan"), float("inf"), True, False, 0j, 2 ** 100, BIG, -1, -2 ** 70,
           "", "x", "a", "A", "\x00", "\x1b[2J", "é" * 100_000, b"x", [], [0], [[0]], [[[[[[0]]]]]],
           {}, {"a": 1}, object(), range(12), (0,) * 1_000_000, [None] * 12, [1.0] * 12,
           (4,) * 12, (6,) * 6, [True] * 12, ("4",) * 12, frozenset([1]), type, ms,
           (99,) * 12, (99,) * 6]              # more seeds than the games hold (issue 35)
BA, BK = ms.get_game("ba-awa"), ms.get_game("bakuk")
B3 = ms.get_game("ba-awa", players=3)
FB, FK = FastGame(BA), FastGame(BK)
REC = format_game(BK.start(), ["a", "B"])
MATCH = ms.Match(BA)
FINISHED = MATCH                          # its first game played out: next_game can run
while not FINISHED.game_over:
    FINISHED = FINISHED.play(FINISHED.position.legal_moves()[0])

# (name, function, valid positional args, valid kwargs)
TARGETS = [
    ("get_game", ms.get_game, ["bakuk"], {}),
    ("get_game/opt", lambda **k: ms.get_game("ba-awa", **k), [], {"no_move": "pass"}),
    ("get_game/bk", lambda **k: ms.get_game("bakuk", **k), [], {"leftovers": "owners"}),
    ("get_game/players", lambda p: ms.get_game("bakuk", players=p), [2], {}),
    ("get_game/ruleset", lambda r: ms.get_game("bakuk", ruleset=r), ["koumma"], {}),
    ("position", BA.position, [(4,) * 12], {"to_move": 0, "captured": (0, 0), "opener": 0,
                                          "owners": BA.board.row_owners, "history": ()}),
    ("position/bk", BK.position, [(6,) * 6], {"to_move": 1, "captured": None, "opener": 1,
                                            "owners": None, "history": ()}),
    ("position/3", B3.position, [(4,) * 12], {"to_move": 2}),
    ("start", BA.start, [], {"opener": 1, "owners": None}),
    ("parse", BA.parse, ["4,4,4,4,4,4/4,4,4,4,4,4 S 0-0"], {"allow_unreachable": False}),
    ("position/allow", lambda a: BK.position((0, 0, 1, 5, 0, 0), captured=(15, 15),
                                             allow_unreachable=a), [True], {}),
    ("parse/bk", BK.parse, ["6,6,6/6,6,6 N 0-0"], {}),
    ("Position()", ms.Position, [BK, "6,6,6/6,6,6 S 0-0"], {}),
    ("pit_index", BA.pit_index, ["a"], {}),
    ("player_name", BA.player_name, [0], {}),
    ("player_letter", BK.player_letter, [1], {}),
    ("option", BA.option, ["no_move"], {}),
    ("play", BA.start().play, ["a"], {}),
    ("play/bk", BK.start().play, [0], {}),
    ("trace", BK.start().trace, ["b"], {}),
    ("play/over", BK.parse("0,0,0/2,0,0 S 20-14").play, [0], {}),
    ("parse_game", parse_game, [REC], {}),
    ("format_game", format_game, [BK.start(), ["a"]], {"result": False}),
    ("format_game/moves", lambda m: format_game(BA.start(), m), [["a"]], {}),
    ("parse_match", parse_match, [format_match(MATCH)], {}),
    ("format_match", format_match, [MATCH], {}),
    ("Match", ms.Match, [BA], {"target": 12, "opener": "alternate", "allocation": "extend",
                              "final_take": "counted"}),
    ("Match.play", MATCH.play, ["a"], {}),
    ("Match.next_game", lambda o: FINISHED.next_game(o), [None], {}),
    ("Match.starting_from", ms.Match.starting_from, [BA.start()], {"target": 10}),
    ("get_rule", ms.get_rule, ["bakuk-sow"], {}),
    ("rulesets", rulesets, ["bakuk"], {}),
    ("ruleset", ruleset, ["bakuk", "koumma"], {}),
    ("game_values", game_values, ["bakuk", "koumma"], {}),
    ("match_settings", match_settings, ["ba-awa", "mancalagames"], {}),
    ("check_reachable", BK.check_reachable, [BK.start()], {}),
    ("Rules", S.Rules, [2, 2], {"chain": "forward"}),
    ("solve", lambda st: S.solve(S.Rules(2, 2), start=st), [((2, 2, 2, 2), 0)], {}),
    ("solve/allow", lambda a: S.solve(S.Rules(2, 2), start=((2, 2, 2, 1), 0),
                                      allow_unreachable=a), [True], {}),
    ("solve/rules", lambda r: S.solve(r, start=((0, 1, 0, 1, 0, 2), 0)), [None], {}),
    ("FastGame", FastGame, [BK], {"opener": 0, "owners": None}),
    ("FastGame.state", FB.state, [(4,) * 12, 0], {"captured": None, "history": ()}),
    ("FastGame.play", FB.play, [FB.start(), 0], {}),
    ("FastGame.play/bk", FK.play, [FK.start(), 0], {}),
    ("FastGame.outcome", FK.outcome, [FK.start()], {}),
    ("FastGame.winner", FK.winner, [FK.start()], {}),
    ("FastGame.from_position", FK.from_position, [BK.start()], {}),
    ("FastGame.to_position", FK.to_position, [FK.start()], {}),
    ("FastGame.for_position", FastGame.for_position, [BK.start()], {}),
    ("fast.playouts", fast.playouts, [BK, 2], {"seed": 1, "opener": 0, "record": False,
                                              "start": None}),
    ("FastGame.state/bk", FK.state, [(6,) * 6, 0], {"captured": (0, 0), "history": ()}),
    # a game's steps, given another game's position or a pit off the board (issue 35)
    ("Game.sow_move", BK.sow_move, [BK.start(), 0], {}),
    ("Game.sow_move/ba", BA.sow_move, [BA.start(), 0], {}),
    ("Game.moves", BA.moves, [BA.start()], {}),
    ("Game.legal_moves", BK.legal_moves, [BK.start()], {}),
    ("Game.complete", lambda pos: BK.complete(pos, BK.sow_move(BK.start(), 0)), [BK.start()], {}),
    ("Game.complete/sowing", lambda sowing: BK.complete(BK.start(), sowing), [None], {}),
    ("Match/parts", lambda **k: ms.Match(BA, **k), [], {"played": (), "current": None,
                                                        "position": None}),
    ("solve/size", lambda p, s: S.solve(S.Rules(p, s), progress=None), [2, 2], {}),
    ("search", lambda **k: search(BK.start(), **k), [], {"nodes": 50, "seconds": 1.0,
                                                        "rng": None}),
    ("search_move", lambda r: search_move(BK.start(), r, nodes=50), [random.Random(1)], {}),
    ("BaAwaBatch", fast.BaAwaBatch, [BA], {"most": None}),
    ("BakukBatch", fast.BakukBatch, [3, 36], {}),
    ("BakukBatch.for_game", fast.BakukBatch.for_game, [BK], {}),
    ("fast.sow", fast.sow, [(4,) * 12, 0, 0, sowing_next(12, False), BA.board.row_owners],
     {"players": 2}),
]
RULE = ms.get_rule("bakuk-sow")
CITED = {"version": "0.2.0", "base": "https://example.org/rules"}
GREEK = "001_1132cff477fa5791.txt"
TABLE = ValueTable.from_rules(pits_per_row=2, seeds_per_pit=2)
SMALL = ms.get_game("bakuk")
TARGETS += [(name, getattr(cite, name), [RULE], CITED)
            for name in ("permalink", "citation_text", "citation_bibtex", "citation_csl",
                         "citation", "rule_data", "rule_json")]
TARGETS += [
    ("rule_page", cite.rule_page, [RULE], {}),
    ("page_address", cite.page_address, [RULE], {}),
    ("anchor", cite.anchor, ["bakuk-sow"], {}),
    ("base_url", cite.base_url, [{"MANCALA_SPEC_BASE_URL": "https://example.org/"}], {}),
    ("source_metadata", cite.source_metadata, [GREEK], {}),
    ("source_text", sources.source_text, [GREEK], {}),
    ("source_lines", sources.source_lines, [GREEK], {}),
    ("Catalogue[]", load_catalogue().__getitem__, ["bakuk-sow"], {}),
    ("Catalogue.document", load_catalogue().document, [GREEK], {}),
    ("resolve", registry.resolve, ["bakuk-sow"], {}),
    ("old_ids", registry.old_ids, ["bakuk-sow"], {}),
    ("text_hash", registry.text_hash, [RULE], {}),
    ("parse_registry", registry.parse_registry, ['[[release]]\nversion = "0.1.0"\n'], {}),
    ("changelog_sections", registry.changelog_sections, ["## 0.1.0\nx\n"], {}),
    ("ValueTable.from_bytes", ValueTable.from_bytes, [TABLE.to_bytes()], {}),
    ("ValueTable.key", TABLE.key, [(2, 2, 2, 2), 0], {}),
    ("ValueTable.value", TABLE.value, [(2, 2, 2, 2), 0], {}),
    ("ValueTable.holds_for", TABLE.holds_for, [SMALL], {}),
]
# the small table holds no position of a real game: these refuse every call (REFUSED)
TARGETS += [("ValueTable.value_of", TABLE.value_of, [SMALL.start()], {}),
            ("ValueTable.move_values", TABLE.move_values, [SMALL.start()], {})]
# the diagrams, notation and analysis entries documented beside the engine's
TRACE = BK.start().trace("a")
DIAGRAM = D.layout(TRACE)
TARGETS += [
    ("layout", lambda t: D.layout(t), [TRACE], {}),
    ("layout_position", lambda p: D.layout_position(p), [BK.start()], {}),
    ("render", lambda d: D.render(d), [DIAGRAM], {}),
    ("render/options", lambda **k: D.render(DIAGRAM, **k), [], {"panels": [1], "columns": 1,
                                                                "theme": "dark"}),
    ("render_laps", lambda d: D.render_laps(d), [DIAGRAM], {}),
    ("render_row", lambda ds: D.render_row(ds), [[DIAGRAM, DIAGRAM]], {}),
    ("draw_position", lambda p: D.draw_position(p), [BK.start()], {}),
    ("alt_text", alt_text, [TRACE], {}),
    ("option_changes", D.option_changes, [BK], {}),
    ("parse_options", D.parse_options, ["chain=backward"], {}),
    ("key_lines", D.key_lines, ["bakuk"], {}),
    ("words_for", words_for, ["bakuk"], {}),
    ("format_position", format_position, [BK.start()], {}),
    ("option_value", option_value, ["true"], {}),
    ("result_of", result_of, [BK.start()], {}),
    ("exhaustive", lambda n: an.exhaustive(n), [3], {}),
    ("exhaustive/options", lambda **k: an.exhaustive(3, **k), [], {"skip_origin": True,
                                                                   "processes": 1}),
    ("exhaustive_seed_counts", an.exhaustive_seed_counts, [12], {}),
    ("wilson", an.wilson, [3, 10], {}),
]
# the analysis page's tables, from small runs of the studies they show
ENDINGS = an.count_endings("default", "random", games=20)
RECURRENCE = an.recurrence_search(games=1, budget=20)
TARGETS += [
    ("exhaustive_table", lambda counts, **k: an.exhaustive_table(counts, **k), [[3, 4]],
     {"skip_options": (False, True), "processes": 1}),
    ("board_text", an.board_text, [(2, 0, 1, 0, 1, 0, 1, 0, 1, 0, 2, 1)], {}),
    ("label", an.label, ["skip_origin"], {}),
    ("markdown", an.markdown, [(["a", "b"], [["1", "2"]])], {}),
    ("endings_table", an.endings_table, [ENDINGS], {}),
    ("repetition_table", an.repetition_table, [ENDINGS], {}),
    ("recurrence_table", an.recurrence_table, [RECURRENCE], {}),
]
SOL = S.solve(S.Rules(2, 2))
TARGETS += [("Solution.value", SOL.value, [(2, 2, 2, 2), 0], {}),
            ("Solution.index", SOL.index, [(2, 2, 2, 2), 0], {}),
            ("Solution.move_values", SOL.move_values, [(2, 2, 2, 2), 0], {})]


def calls(target):
    name, function, args, kwargs = target
    slots = [("a", i) for i in range(len(args))] + [("k", k) for k in kwargs]
    for kind, slot in slots:
        for value in HOSTILE:
            a, k = list(args), dict(kwargs)
            if kind == "a":
                a[slot] = value
            else:
                k[slot] = value
            yield a, k


#: the targets whose own arguments are refused, by design: what is checked is that
#: a hostile value does not get past that refusal untyped
REFUSED = {"play/over", "ValueTable.value_of", "ValueTable.move_values", "Game.complete/sowing"}


@pytest.mark.parametrize("target", TARGETS, ids=[t[0] for t in TARGETS])
def test_each_target_takes_its_own_arguments(target):
    """The fuzz below can fail only if each target accepts its own arguments:
    a target that refuses them refuses every variation with the same error."""
    name, function, args, kwargs = target
    if name in REFUSED:
        with pytest.raises(errors.MancalaError):
            function(*args, **kwargs)
    else:
        function(*args, **kwargs)


@pytest.mark.parametrize("target", TARGETS, ids=[t[0] for t in TARGETS])
def test_hostile_values_give_typed_errors(target):
    name, function, args, kwargs = target
    escaped = []
    for a, k in calls(target):
        try:
            function(*a, **k)
        except errors.MancalaError:
            pass
        except Exception as error:      # noqa: BLE001 - what escapes is the finding
            escaped.append((type(error).__name__, errors.shown(str(error)), errors.shown(a),
                            errors.shown(k)))
    assert not escaped, escaped[:5]
