"""The games, and :func:`get_game` to get one by name."""
from __future__ import annotations

from typing import Any

from ...errors import UnknownGameError
from ...options import Option
from .ba_awa import BaAwa
from .bakuk import Bakuk
from .base import Game

GAMES: dict[str, type[Game]] = {cls.name: cls for cls in (BaAwa, Bakuk)}


def get_game(name: str, **options: Any) -> Game:
    """The game called *name* (``"ba-awa"``, ``"bakuk"``, or an alias such as
    ``"anenam"`` or ``"nam-nam"``), with *options* as keywords; with the
    keyword ``ruleset``, the option values of that named ruleset (see
    :mod:`mancala_spec.rulesets`), which the explicit *options* override.

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
        raise UnknownGameError(f"a game name is a string, not {name!r}", name=name,
                               known=tuple(GAMES))
    wanted = name.strip().lower().replace("_", "-").replace(" ", "-")
    for cls in GAMES.values():
        if wanted == cls.name or wanted in cls.aliases:
            if "ruleset" in options:
                from ...rulesets import with_ruleset  # noqa: PLC0415  (data over the engine)
                ruleset = options.pop("ruleset")
                options = with_ruleset(cls.name, ruleset, options)
            return cls(**options)
    known = "; ".join(f"{cls.name}" + (f" (also {', '.join(cls.aliases)})" if cls.aliases else "")
                      for cls in GAMES.values())
    raise UnknownGameError(f"unknown game {name!r}; known games: {known}", name=name,
                           known=tuple(GAMES))


__all__ = ["BaAwa", "Bakuk", "GAMES", "Game", "Option", "get_game"]
