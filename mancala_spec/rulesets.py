"""Named rulesets: play a game as another program reads it, or as Koumma.

A ruleset is a named set of option values, each with its basis in the
catalogue (``mancala_spec/catalogue/rulesets.toml``): ``mancala_spec`` (this
reference's defaults), ``mancalagames`` (Ba-awa and Bakuk as MancalaGames plays
them), ``everyboard`` (Ba-awa as EveryBoard plays it) and ``koumma`` (Bakuk
with the two differences the Bakuk text states for Koumma). Another program is
a secondary source of what that program does, never of what the game is.

>>> import mancala_spec as ms
>>> [(r.name, r.title) for r in ms.rulesets("bakuk")]  # doctest: +NORMALIZE_WHITESPACE
[('mancala_spec', 'This reference'), ('mancalagames', 'As MancalaGames plays them'),
 ('koumma', 'Koumma, as the Bakuk text describes it')]
>>> ms.get_game("bakuk", ruleset="koumma")
get_game('bakuk', first_counter='origin', sixes=True)
>>> ms.get_game("bakuk", ruleset="mancalagames", chain="forward")   # explicit options win
get_game('bakuk', decided=True, repetition='play-on')
>>> match_settings("ba-awa", "mancalagames")
{'target': 10}
"""
from __future__ import annotations

from .catalogue.ruleset_records import Difference, Program, Ruleset, load_rulesets
from .engine.games import GAMES, get_game, ruleset_options
from .errors import UnknownGameError
from .options import Value
from .options import match_settings as declared_settings

#: The ruleset every game has: this reference's defaults.
DEFAULT = "mancala_spec"


def _game(name: str) -> str:
    if isinstance(name, str) and name in GAMES:
        return name
    return get_game(name).name


def rulesets(game: str) -> tuple[Ruleset, ...]:
    """The named rulesets of *game* (a name or alias), this reference's first,
    each with its ``name``, ``title``, ``basis`` and ``differences``.

    Raises :class:`~mancala_spec.errors.UnknownGameError` for an unknown game."""
    name = _game(game)
    return tuple(r for r in load_rulesets().values() if name in r.games)


def ruleset(game: str, name: str) -> Ruleset:
    """The ruleset *name* of *game*; raises
    :class:`~mancala_spec.errors.OptionError` naming the known ones."""
    game_name = _game(game)
    ruleset_options(GAMES[game_name], name)        # raises for an unknown ruleset
    return next(r for r in rulesets(game_name) if r.name == name)


def game_values(game: str, name: str) -> dict[str, Value]:
    """The game options (keywords of ``get_game``) that play ruleset *name*."""
    game_name = _game(game)
    return ruleset_options(GAMES[game_name], name)


def match_settings(game: str, name: str) -> dict[str, Value]:
    """The match settings (keywords of :class:`~mancala_spec.engine.games.match.Match`)
    that play ruleset *name*."""
    game_name = _game(game)
    values = ruleset(game_name, name).values(game_name)
    declared = {o.name for o in declared_settings(game_name)}
    return {k: v for k, v in values.items() if k in declared}


def names(game: str) -> tuple[str, ...]:
    """The names of *game*'s rulesets."""
    try:
        return tuple(r.name for r in rulesets(game))
    except UnknownGameError:
        return ()


__all__ = ["DEFAULT", "Difference", "Program", "Ruleset", "game_values", "match_settings",
           "names", "ruleset", "rulesets"]
