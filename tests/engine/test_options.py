"""Every option declared once (mancala_spec.options), and everything that
derives from the declarations: the games' keywords, the match settings, the
command line's -O parsing and its ``options`` listing."""
from __future__ import annotations

from enum import StrEnum

import pytest

import mancala_spec as ms
from mancala_spec.cli import main
from mancala_spec.engine.games import GAMES
from mancala_spec.options import (
    OPTIONS,
    Chain,
    Choose,
    Leftovers,
    NoMove,
    Opener,
    Option,
    game_options,
    match_settings,
    option,
    plain,
)

SHOWN = {True: "true", False: "false"}


def shown(value: object) -> str:
    return SHOWN.get(value, str(value)) if isinstance(value, bool) else str(value)


@pytest.mark.parametrize("declared", OPTIONS, ids=lambda o: f"{o.game}:{o.name}")
def test_every_value_reads_back_from_the_text_shown_for_it(declared: Option):
    for value in declared.choices:
        parsed = declared.parse(shown(value))
        assert parsed == value and type(parsed) is type(value)
    with pytest.raises(ms.OptionError, match=f"not a value of {declared.game}'s option"):
        declared.parse("no-such-value")


@pytest.mark.parametrize("declared", OPTIONS, ids=lambda o: f"{o.game}:{o.name}")
def test_every_value_is_accepted_where_it_applies_and_a_lookalike_is_not(declared: Option):
    for value in declared.choices:
        if declared.setting:
            match = ms.Match(ms.get_game(declared.game), **{declared.name: value})
            assert getattr(match, declared.name) == value
        else:
            game = ms.get_game(declared.game, **{declared.name: value})
            assert game.options[declared.name] == value
    lookalike = 1 if declared.type is bool else True        # 1 is not True, True is not 1
    with pytest.raises(ms.OptionError, match=f"{declared.name}.* must be one of"):
        if declared.setting:
            ms.Match(ms.get_game(declared.game), **{declared.name: lookalike})
        else:
            ms.get_game(declared.game, **{declared.name: lookalike})


def test_the_games_take_their_options_from_the_declarations():
    for name, cls in GAMES.items():
        assert cls.OPTIONS == game_options(name)
        assert dict(ms.get_game(name).options) == {o.name: o.default for o in game_options(name)}
    assert ms.engine.games.match.SETTINGS == tuple(s.name for s in match_settings("ba-awa"))


def test_an_unknown_option_names_the_known_ones():
    with pytest.raises(ms.OptionError, match="its options are: .*leftovers"):
        option("bakuk", "nonsense")


def test_the_command_line_lists_every_declaration(capsys):
    assert main(["options"]) == 0
    out = capsys.readouterr().out
    for declared in OPTIONS:
        assert declared.describe() in out
    assert main(["options", "--game", "anenam"]) == 0
    out = capsys.readouterr().out
    assert "chain=" not in out and "target=10|11|12" not in out and "target=12|10|11" in out


def test_the_command_line_parses_options_by_their_declared_type(capsys):
    assert main(["show", "ba-awa", "-O", "skip_origin=TRUE", "-O", "players=3"]) == 0
    assert "East 0" in capsys.readouterr().out       # three players: East is seated
    assert main(["show", "bakuk", "-O", "players=two"]) == 2
    assert "players='two' is not a value" in capsys.readouterr().err


def test_get_game_refuses_exactly_the_documented_combinations():
    """Every combination of option values is a game, except the documented
    clashes (helpers.REFUSED: Ba-awa's choose="row" with three players), which
    the tests over all combinations leave out; those raise OptionError saying why."""
    from helpers import REFUSED, every_option_combination, refused

    assert REFUSED == {"ba-awa": [{"choose": "row", "players": 3}], "bakuk": []}
    for name in GAMES:
        left_out = 0
        for options in every_option_combination(name):
            if refused(name, options):
                left_out += 1
                with pytest.raises(ms.OptionError, match="needs two players"):
                    ms.get_game(name, **options)
            else:
                assert dict(ms.get_game(name, **options).options) == options
        assert left_out == {"ba-awa": 16, "bakuk": 0}[name]   # 64 combinations, 48 games


# -- typed values and the fields of OptionError -----------------------------------------------


def test_a_bad_value_raises_an_option_error_with_every_field_filled():
    with pytest.raises(ms.OptionError) as error:
        ms.get_game("bakuk", chain="sideways")
    assert (error.value.game, error.value.option, error.value.value) == ("bakuk", "chain",
                                                                          "sideways")
    assert error.value.choices == (Chain.FORWARD, Chain.BACKWARD) == ("forward", "backward")
    with pytest.raises(ms.OptionError) as error:
        ms.get_game("bakuk", chian="forward")
    assert (error.value.game, error.value.option, error.value.value) == ("bakuk", "chian",
                                                                          "forward")
    with pytest.raises(ms.OptionError) as error:
        option("bakuk", "leftovers").parse("owner")
    assert (error.value.game, error.value.option, error.value.value) == ("bakuk", "leftovers",
                                                                          "owner")
    assert error.value.choices == (Leftovers.UNSCORED, Leftovers.OWNERS)
    with pytest.raises(ms.OptionError) as error:
        ms.Match(ms.get_game("ba-awa"), opener="first")
    assert (error.value.game, error.value.option, error.value.value) == ("ba-awa", "opener",
                                                                          "first")
    assert error.value.choices == tuple(Opener)
    with pytest.raises(ms.OptionError) as error:
        ms.get_game("ba-awa", choose="row", players=3)
    assert (error.value.game, error.value.option, error.value.value) == ("ba-awa", "choose",
                                                                          Choose.ROW)


def test_a_value_of_another_option_is_not_taken_for_one_of_this_option():
    # Bakuk's no_move takes "pass", Ba-awa's too, but not each other's members' other words
    with pytest.raises(ms.OptionError):
        ms.get_game("ba-awa", no_move=NoMove.END)        # Bakuk's value of the same option
    with pytest.raises(ms.OptionError):
        ms.get_game("bakuk", leftovers=NoMove.OWNERS)       # the same word, another option


@pytest.mark.parametrize("declared", [o for o in OPTIONS if isinstance(o.default, StrEnum)],
                         ids=lambda o: f"{o.game}:{o.name}")
def test_words_and_members_give_the_same_game(declared: Option):
    for value in declared.choices:
        by_word = plain(value)
        assert type(by_word) is str
        if declared.setting:
            kept = getattr(ms.Match(ms.get_game(declared.game), **{declared.name: by_word}),
                           declared.name)
        else:
            by_member = ms.get_game(declared.game, **{declared.name: value})
            assert ms.get_game(declared.game, **{declared.name: by_word}) == by_member
            kept = by_member.options[declared.name]
        assert kept is value                            # the member, not the word
        assert declared.check(by_word) is value


def test_the_keyword_api_keeps_its_words():
    game = ms.get_game("bakuk", chain="backward")
    assert repr(game) == "get_game('bakuk', chain='backward')"
    assert game.options["chain"] is Chain.BACKWARD and game.options["chain"] == "backward"
    assert game == ms.get_game("bakuk", chain=Chain.BACKWARD)


def test_an_option_both_games_have_has_one_type():
    """The same option (the same name in both games) takes values of the same
    type: Ba-awa's and Bakuk's no_move are both NoMove, each game listing the
    members it takes."""
    names = {o.name for o in game_options("ba-awa")} & {o.name for o in game_options("bakuk")}
    assert {"no_move", "repetition", "skip_origin"} <= names
    for name in sorted(names):
        assert option("ba-awa", name).type is option("bakuk", name).type, name


def test_option_values_and_games_are_compared_as_values_not_words():
    """The kernel, the solver, the CLI, the analysis and the conformance suite
    compare option values with their enum members (a misspelt member is an
    error, a misspelt word a silent other branch) and ask the game or the
    option declarations what a game has, never its name."""
    import re
    from pathlib import Path

    import mancala_spec
    root = Path(mancala_spec.__file__).parent
    words = "|".join(sorted({str(c) for o in OPTIONS for c in o.choices
                             if isinstance(c, StrEnum)}))
    pattern = re.compile(rf'(options\[[^]]+\]|\.({"|".join(o.name for o in OPTIONS)})) *'
                         rf'[!=]= *"|[!=]= *"({words})" *$|game(\.|_)name *[!=]= *"')
    places = [root / folder for folder in ("fast", "solve", "cli", "analysis", "conformance")]
    found = [f"{path.relative_to(root)}:{number}: {line.strip()}"
             for path in sorted(p for place in places for p in place.rglob("*.py"))
             for number, line in enumerate(path.read_text().splitlines(), start=1)
             if pattern.search(line)]
    assert found == []
