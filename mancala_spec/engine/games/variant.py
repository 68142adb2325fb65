"""What a game is besides its rules: which game, with which option values.

:class:`Variant` is the base of :class:`~mancala_spec.engine.games.base.Game`.
It holds no rule. It checks the option values a game is asked for, and makes a
game a value: equal to, hashed and pickled like another game of the same name
and options, and shown as the call that makes it. It also carries the entry
points users call on a game that are not rules, each handing over to the module
that does the work: building a checked position (:mod:`mancala_spec.engine.checks`),
reading one from text (:mod:`mancala_spec.engine.text`), and naming pits and
players (:class:`~mancala_spec.engine.board.Board`).
"""
from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, cast

from ...errors import OptionError, shown
from ...options import Option, plain
from ..board import Board
from ..checks import checked_position
from ..text import parse_position

if TYPE_CHECKING:  # pragma: no cover
    from ..position import Position
    from .base import Game


class Variant:
    """A game with its option values, as a value: equal to, hashed and pickled
    like another game of the same name and options, and shown as the
    :func:`~mancala_spec.get_game` call that makes it. It holds no rule; its
    entry points (:meth:`position`, :meth:`parse`, the names) hand over to the
    modules that do the work."""

    name: ClassVar[str]
    title: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    #: the game's options, as declared in :mod:`mancala_spec.options`
    OPTIONS: ClassVar[tuple[Option, ...]] = ()
    #: the game's board (:meth:`Game.make_board
    #: <mancala_spec.engine.games.base.Game.make_board>` makes it)
    board: Board

    def __init__(self, **options: Any) -> None:
        """Each option's value checked on its own (a word becomes its enum
        member); the options not given take their defaults."""
        known = {option.name: option for option in self.OPTIONS}
        values: dict[str, Any] = {name: option.default for name, option in known.items()}
        for name, value in options.items():
            if name not in known:
                raise OptionError(
                    f"unknown option {shown(name)} for {self.name}; its options are: "
                    + ", ".join(sorted(known)), game=self.name, option=name, value=value)
            values[name] = known[name].check(value)
        self.options = MappingProxyType(values)
        #: The number of players (the ``players`` option): 2, or 3.
        self.players: int = values["players"]

    @classmethod
    def option(cls, name: str) -> Option:
        """The :class:`Option` called *name*."""
        for option in cls.OPTIONS:
            if option.name == name:
                return option
        raise OptionError(f"unknown option {shown(name)} for {cls.name}", game=cls.name,
                          option=name, choices=tuple(option.name for option in cls.OPTIONS))

    # -- a game as a value ---------------------------------------------------------

    def __repr__(self) -> str:
        changed = [f", {k}={plain(v)!r}" for k, v in self.options.items()
                   if v != self.option(k).default]
        return f"get_game({self.name!r}{''.join(changed)})"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Variant) and type(other) is type(self)
                and dict(other.options) == dict(self.options))

    def __hash__(self) -> int:
        return hash((self.name, tuple(sorted(self.options.items()))))

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuild, (type(self), {k: plain(v) for k, v in self.options.items()}))

    # -- entry points that hand over ---------------------------------------------

    def position(self, pits: Sequence[int], to_move: int = 0,
                 captured: Sequence[int] | None = None, opener: int = 0,
                 owners: Sequence[int] | None = None,
                 history: Sequence[tuple[Sequence[int], int]] = (), *,
                 allow_unreachable: bool = False) -> Position:
        """Any position of this game that play can reach, finished or not.

        *captured* defaults to whatever the board is missing from the game's
        total, split in capture units as evenly as they go, South first
        (:func:`~mancala_spec.engine.reach.default_captured`: Ba-awa's 36
        missing seeds are 20 and 16); *owners* defaults to
        each player owning their own row; *history* lists the (pits, player to
        move) pairs seen since the last capture, oldest first.

        Raises :class:`~mancala_spec.errors.InvalidPositionError` saying what is
        wrong (see :mod:`mancala_spec.engine.checks`). That includes captured
        counts no game can reach (``field="captured"``: Ba-awa captures only
        fours, Bakuk only even numbers, until the take that ends the game;
        :func:`~mancala_spec.engine.reach.reachable_captures`).
        *allow_unreachable* accepts them, as long as the seeds are conserved:
        for studies and tests that build a board outside play on purpose.
        """
        return checked_position(_game(self), pits, to_move, captured, opener, owners, history,
                                allow_unreachable=allow_unreachable)

    def parse(self, text: str, *, allow_unreachable: bool = False) -> Position:
        """The position written as *text* in our one-line notation, checked as
        :meth:`position` checks it (*allow_unreachable* as there)."""
        return parse_position(_game(self), text, allow_unreachable=allow_unreachable)

    def pit_index(self, pit: int | str) -> int:
        """The index of the pit *pit* names, as a move (:meth:`Board.pit_index
        <mancala_spec.engine.board.Board.pit_index>`)."""
        return self.board.pit_index(pit)

    def player_letter(self, player: int) -> str:
        """The player's letter in notation (:meth:`Board.player_letter
        <mancala_spec.engine.board.Board.player_letter>`)."""
        return self.board.player_letter(player)

    def player_name(self, player: int) -> str:
        """The player's name (:meth:`Board.player_name
        <mancala_spec.engine.board.Board.player_name>`)."""
        return self.board.player_name(player)


def _game(variant: Variant) -> Game:
    """*variant* as the :class:`~mancala_spec.engine.games.base.Game` it is
    (every variant is one: ``Game`` is the only subclass)."""
    return cast("Game", variant)


def _rebuild(cls: type[Variant], options: dict[str, Any]) -> Variant:
    return cls(**options)
