"""Every option declared once (mancala_spec.options), and everything that
derives from the declarations: the games' keywords, the match settings, the
command line's -O parsing and its ``options`` listing."""
from __future__ import annotations

import pytest

import mancala_spec as ms
from mancala_spec.cli import main
from mancala_spec.engine.games import GAMES
from mancala_spec.options import OPTIONS, Option, game_options, match_settings, option

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
    assert ms.engine.match.SETTINGS == tuple(s.name for s in match_settings("ba-awa"))


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
    clashes (conftest.REFUSED: Ba-awa's choose="row" with three players), which
    the tests over all combinations leave out; those raise OptionError saying why."""
    from conftest import REFUSED, every_option_combination, refused

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
