"""The sowing primitives that every game composes.

A :class:`Sowing` is the working state of one move: a copy of the pits and
stores, the mover, and the events so far. Each primitive changes the state by
one step and records that step's event, naming the rule that caused it. Games
(``mancala_spec.engine.games``) decide *which* primitive to call *when*, and
*where* the next seed goes (:meth:`Game.next_pit
<mancala_spec.engine.games.base.Game.next_pit>`); the primitives only carry
the step out.

>>> import mancala_spec as ms
>>> s = Sowing(ms.get_game("bakuk").start())
>>> s.pick_up(0, "bakuk-choose")
6
>>> s.drop(s.next_pit(0, origin=0), "bakuk-sow")
7
>>> [e.kind for e in s.events], s.pits
(['pick-up', 'drop'], [0, 7, 6, 6, 6, 6])
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..errors import InvalidPositionError
from .position import Position, Rules
from .trace import Capture, Drop, EndOfGame, EndOfLap, EndOfMove, Event, Pass, PickUp, Relay


class Sowing:
    """Working state of one move (each move has its own)."""

    def __init__(self, pos: Position, *, checking: bool = False) -> None:
        """The working state of a move from *pos*, before anything is lifted;
        with *checking*, of no move: the end-of-move rules run on a position
        built by hand, which must stand as it is (see :class:`WouldChange`)."""
        #: the game being played (it says where each seed goes: :meth:`next_pit`)
        self.game: Rules = pos.game
        #: the seeds in each pit
        self.pits: list[int] = list(pos.pits)
        #: the seeds each player has captured so far
        self.captured: list[int] = list(pos.captured)
        #: each pit's owner
        self.owners: tuple[int, ...] = pos.owners
        #: the player making the move
        self.mover: int = pos.to_move
        #: the events so far, each as a plain tuple ``(event class, rule, *fields)``:
        #: they become :class:`~mancala_spec.engine.trace.Event` values only when
        #: read (:attr:`events`), since a Ba-awa position sows every pit to know
        #: which moves are legal, and building events nobody reads would make the
        #: engine slower than the slowest program we compare it with
        self.records: list[tuple[Any, ...]] = []
        #: the laps sown so far
        self.laps = 0
        #: whether any seed has left the board
        self.took = False
        #: whether the sowing was found never to end (``ba-awa-endless``): it is
        #: then left unfinished, and its move is not a legal one
        self.endless = False
        #: why the sowing ended (the ``reason`` of :meth:`end_move`), once it has
        self.end_reason: str | None = None
        #: whether this is no move but a check of a position built by hand
        self.checking = checking

    @property
    def events(self) -> list[Event]:
        """The events so far, in the order they happened."""
        return [kind(*fields) for kind, *fields in self.records]

    def pick_up(self, pit: int, rule: str) -> int:
        """Lift every seed from *pit* to start the move; return how many."""
        seeds, self.pits[pit] = self.pits[pit], 0
        self.records.append((PickUp, rule, pit, seeds))
        self.laps = 1
        return seeds

    def relay(self, pit: int, rule: str) -> int:
        """Lift every seed from *pit* to sow a new lap; return how many."""
        seeds, self.pits[pit] = self.pits[pit], 0
        self.records.append((Relay, rule, pit, seeds))
        self.laps += 1
        return seeds

    def next_pit(self, pit: int, origin: int) -> int:
        """The pit after *pit* in a lap lifted from *origin*: as the game says
        (:meth:`Game.next_pit <mancala_spec.engine.games.base.Game.next_pit>`)."""
        return self.game.next_pit(pit, origin)

    def drop(self, pit: int, rule: str) -> int:
        """Drop one seed into *pit*; return the pit's new count."""
        count = self.pits[pit] = self.pits[pit] + 1
        self.records.append((Drop, rule, pit, count))
        return count

    def capture(self, pit: int, player: int, rule: str) -> int:
        """Move every seed of *pit* to *player*'s store; return how many."""
        if self.checking:
            raise WouldChange("take", rule)
        seeds, self.pits[pit] = self.pits[pit], 0
        self.captured[player] += seeds
        self.took = True
        self.records.append((Capture, rule, pit, seeds, player))
        return seeds

    def take(self, pit: int, seeds: int, player: int, rule: str) -> None:
        """Move *seeds* of the seeds in *pit* to *player*'s store (a share of
        the pit, as when the seeds left are shared out at the end)."""
        if self.checking:
            raise WouldChange("take", rule)
        self.pits[pit] -= seeds
        self.captured[player] += seeds
        self.took = True
        self.records.append((Capture, rule, pit, seeds, player))

    def end_lap(self, pit: int, rule: str) -> int:
        """Record where the lap's last seed landed; return that pit's count."""
        count = self.pits[pit]
        self.records.append((EndOfLap, rule, self.laps, pit, count))
        return count

    def end_move(self, reason: str, rule: str) -> None:
        """Record that the sowing is over, and why."""
        self.end_reason = reason
        self.records.append((EndOfMove, rule, reason))

    def pass_turn(self, player: int, rule: str) -> None:
        """Record that *player* has no legal move and is passed over."""
        if self.checking:
            raise WouldChange("pass", rule)
        self.records.append((Pass, rule, player))

    def take_all(self, player_of: Callable[[int], int], rule: str) -> None:
        """Capture every non-empty pit for ``player_of(pit)`` (end of game)."""
        for pit, seeds in enumerate(self.pits):
            if seeds:
                self.capture(pit, player_of(pit), rule)

    def end_game(self, reason: str, rule: str) -> None:
        """Record that the game is over, and why."""
        self.records.append((EndOfGame, rule, reason))


class WouldChange(InvalidPositionError):
    """Raised by a :class:`Sowing` made with ``checking=True`` at the first
    change the end-of-move rules would make to a position built by hand: a
    take (*change* ``"take"``) or a turn passed (``"pass"``), by the rule *rule*.
    Such a position cannot stand between moves; the game says why, in its own
    words (:meth:`Game.check_standing
    <mancala_spec.engine.games.base.Game.check_standing>`)."""

    def __init__(self, change: str, rule: str) -> None:
        super().__init__(f"the {change} of rule {rule} would change this position")
        self.change = change
        self.rule = rule
