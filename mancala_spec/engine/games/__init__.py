"""The games, and :func:`get_game` to get one by name."""
from __future__ import annotations

from typing import Any

from ...errors import OptionError, UnknownGameError, shown
from ...options import Option
from .ba_awa import BaAwa
from .bakuk import Bakuk
from .base import Game

GAMES: dict[str, type[Game]] = {cls.name: cls for cls in (BaAwa, Bakuk)}


def get_game(name: str, **options: Any) -> Game:
    """The game called *name* (``"ba-awa"``, ``"bakuk"``, or an alias such as
    ``"anenam"`` or ``"nam-nam"``), with *options* as keywords; with the
    keyword ``ruleset``, the option values of that named ruleset (see
    ``mancala_spec.rulesets``), which the explicit *options* override.

    >>> get_game("nam-nam")
    get_game('ba-awa')
    >>> get_game("bakuk", chain="backward")
    get_game('bakuk', chain='backward')

    Raises :class:`~mancala_spec.errors.UnknownGameError` for an unknown name
    and :class:`~mancala_spec.errors.OptionError` for an unknown option or value,
    or for values that do not go together (Ba-awa's ``choose="row"`` needs two
    players: with three, East has no row of their own).
    """
    if not isinstance(name, str):
        raise UnknownGameError(f"a game name is a string, not {shown(name)}", name=name,
                               known=tuple(GAMES))
    wanted = name.strip().lower().replace("_", "-").replace(" ", "-")
    for cls in GAMES.values():
        if wanted == cls.name or wanted in cls.aliases:
            if "ruleset" in options:
                options = {**ruleset_options(cls, options.pop("ruleset")), **options}
            return cls(**options)
    known = "; ".join(f"{cls.name}" + (f" (also {', '.join(cls.aliases)})" if cls.aliases else "")
                      for cls in GAMES.values())
    raise UnknownGameError(f"unknown game {shown(name)}; known games: {known}", name=name,
                           known=tuple(GAMES))


def ruleset_options(cls: type[Game], name: object) -> dict[str, Any]:
    """The options of *cls* that play the named ruleset *name* (its match
    settings left out); raises :class:`~mancala_spec.errors.OptionError`
    naming the game's rulesets if it has none called *name*."""
    from ...catalogue.ruleset_records import load_rulesets  # noqa: PLC0415  (read once, when asked)

    known = [r for r in load_rulesets().values() if cls.name in r.games]
    for candidate in known:
        if candidate.name == name:
            declared = {option.name for option in cls.OPTIONS}
            return {k: v for k, v in candidate.values(cls.name).items() if k in declared}
    raise OptionError(f"unknown ruleset {shown(name)} for {cls.name}; its rulesets are: "
                      + ", ".join(r.name for r in known), game=cls.name, option="ruleset",
                      value=name, choices=[r.name for r in known])


__all__ = ["BaAwa", "Bakuk", "GAMES", "Game", "Option", "get_game"]
