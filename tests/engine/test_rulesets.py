"""Named rulesets: listing, playing, overriding, Koumma, and their limits."""
from __future__ import annotations

import json

import pytest

import mancala_spec as ms
from mancala_spec.catalogue import get_rule
from mancala_spec.catalogue.ruleset_records import load_rulesets, programs
from mancala_spec.cli import main
from mancala_spec.options import NOT_IN_KERNEL, option


def test_each_game_lists_its_rulesets_with_title_and_basis():
    assert [r.name for r in ms.rulesets("ba-awa")] == ["mancala_spec", "mancalagames",
                                                       "everyboard"]
    assert [r.name for r in ms.rulesets("nam-nam")] == [r.name for r in ms.rulesets("ba-awa")]
    assert [r.name for r in ms.rulesets("bakuk")] == ["mancala_spec", "mancalagames", "koumma"]
    for game in ("ba-awa", "bakuk"):
        for r in ms.rulesets(game):
            assert r.title and r.basis
    with pytest.raises(ms.UnknownGameError):
        ms.rulesets("oware")


def test_a_ruleset_plays_its_values_and_explicit_options_override_them():
    assert ms.get_game("bakuk", ruleset="mancala_spec") == ms.get_game("bakuk")
    mg = ms.get_game("bakuk", ruleset="mancalagames")
    assert (mg.options["chain"], mg.options["decided"], mg.options["repetition"]) == \
        ("backward", True, "play-on")
    assert ms.get_game("bakuk", ruleset="mancalagames", chain="forward").options["chain"] \
        == "forward"
    eb = ms.get_game("anenam", ruleset="everyboard")
    assert eb.options["no_move"] == "empty-row" and eb.options["decided"] is True
    assert eval(repr(ms.get_game("bakuk", ruleset="koumma")), {"get_game": ms.get_game}) \
        == ms.get_game("bakuk", first_counter="origin", sixes=True)


@pytest.mark.parametrize("game, name", [("bakuk", "everyboard"), ("ba-awa", "koumma"),
                                        ("bakuk", "nope"), ("bakuk", 3)])
def test_an_unknown_ruleset_is_a_typed_error_naming_the_known_ones(game, name):
    with pytest.raises(ms.OptionError) as caught:
        ms.get_game(game, ruleset=name)
    if isinstance(name, str):
        assert "mancala_spec" in str(caught.value) and caught.value.option == "ruleset"


def test_match_settings_of_a_ruleset():
    from mancala_spec.rulesets import match_settings
    assert match_settings("ba-awa", "mancalagames") == {"target": 10}
    assert match_settings("ba-awa", "everyboard") == {}


def test_every_difference_names_a_rule_and_an_offered_value_or_why_it_is_not_played():
    for r in load_rulesets().values():
        for d in r.differences:
            rule = get_rule(d.rule)
            assert rule.game == d.game
            if d.option:
                declared = option(d.game, d.option)
                assert declared.accepts(d.value) and d.value != declared.default
                program = next(c.program for c in declared.values if c.value == d.value)
                assert program in ("", *programs()), (r.name, d.option)
            else:
                assert d.unplayed
            if d.basis == "program":
                assert r.program is not None and d.where
    played = {(d.game, d.option, d.value) for r in load_rulesets().values()
              for d in r.differences if d.option}
    assert NOT_IN_KERNEL <= played      # each value the kernel lacks plays some ruleset
    koumma = load_rulesets()["koumma"]
    assert koumma.differences[0].citations[0].line == 24
    assert {d.basis for d in koumma.differences} == {"source", "reading"}


def test_koumma_drops_its_first_counter_back_into_the_emptied_hole():
    koumma = ms.get_game("bakuk", ruleset="koumma")
    trace = koumma.start().trace("a")
    drops = [e.pit for e in trace.events if e.kind == "drop"]
    assert drops == [0, 1, 2, 3, 4, 5]
    assert list(trace.position.pits) == [1, 7, 7, 7, 7, 7]
    bakuk = ms.get_game("bakuk").start().trace("a")
    assert [e.pit for e in bakuk.events if e.kind == "drop"] == [1, 2, 3, 4, 5, 0]


def test_koumma_captures_sixes_by_the_last_counter_and_in_the_chain():
    koumma = ms.get_game("bakuk", ruleset="koumma")
    # South sows b (2 counters): back into b, then c (5 -> 6): six, captured; the chain
    # goes on forward to A (6): captured too, then B (1): stops
    pos = koumma.position([0, 2, 5, 6, 1, 4], to_move=0, captured=[10, 8])
    after = pos.play("b")
    assert list(after.captured) == [22, 8] and list(after.pits) == [0, 1, 0, 0, 1, 4]
    plain = ms.get_game("bakuk").position([0, 2, 5, 6, 1, 4], to_move=0, captured=[10, 8])
    assert list(plain.play("b").captured) == [10, 8]


@pytest.mark.parametrize("game, name, value", sorted(NOT_IN_KERNEL, key=repr))
def test_the_fast_kernel_refuses_the_other_readings_with_a_typed_error(game, name, value):
    from mancala_spec.fast import FastGame
    with pytest.raises(ms.OptionError, match="reference engine"):
        FastGame(ms.get_game(game, **{name: value}))


def test_the_command_line_lists_the_rulesets(capsys):
    assert main(["rulesets", "--game", "bakuk"]) == 0
    out = capsys.readouterr().out
    assert "koumma" in out and "chain=backward" in out and "2b1c596c1288" in out
    assert main(["rulesets", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [r["name"] for r in data["ba-awa"]] == ["mancala_spec", "mancalagames", "everyboard"]
    assert data["ba-awa"][1]["match_settings"] == {"target": 10}


def test_the_command_line_plays_a_ruleset_and_refuses_an_unknown_one(capsys, monkeypatch):
    import io
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["play", "bakuk", "--ruleset", "nope"]) == 2
    assert "unknown ruleset 'nope'" in capsys.readouterr().err


def _variants():
    """Each ruleset of each game, and each value the kernel lacks on its own."""
    for r in load_rulesets().values():
        for game in r.games:
            yield game, {"ruleset": r.name}
    for game, name, value in sorted(NOT_IN_KERNEL, key=repr):
        yield game, {name: value}


@pytest.mark.parametrize("game, options", list(_variants()), ids=repr)
def test_random_games_under_every_ruleset_keep_the_seeds_and_state_their_events(game, options):
    import random

    from mancala_spec.catalogue import load_catalogue
    declared = {(rule.id, e) for rule in load_catalogue() for c in rule.claims for e in c.events}
    declared |= {(d.rule, e) for r in load_rulesets().values() for d in r.differences
                 for e in d.events}
    played = ms.get_game(game, **options)
    rng = random.Random(19)
    for _ in range(12):
        pos = played.start(opener=rng.randrange(2))
        for _ in range(600):
            if pos.is_over:
                break
            trace = pos.trace(rng.choice(pos.legal_moves()))
            for event in trace.events:
                reason = getattr(event, "reason", None)
                assert (event.rule, event.kind + (f":{reason}" if reason else "")) in declared
            pos = trace.position
            assert sum(pos.pits) + sum(pos.captured) == played.total_seeds
            assert ms.Position(played, pos.to_text()) == pos     # a valid, settled position
