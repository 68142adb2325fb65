"""The sowing primitives that every game composes.

A :class:`Sowing` is the mutable working state of one move: a copy of the pits
and stores, the mover, and the record of events so far. Each primitive changes
the state by one step (a lap counts as one step, made of its drops) and records
the events of that step, each naming the rule that caused it.
Games (``mancala_spec.engine.games``) decide *which* primitive to call *when*; the
mechanics live only here, so related games can be composed from the same pieces.

>>> import mancala_spec as ms
>>> s = Sowing(ms.get_game("bakuk").start())
>>> s.pick_up(0, "bakuk-choose")
6
>>> s.drop(s.next_pit(0, origin=0), "bakuk-sow")
7
>>> [e.kind for e in s.events], s.pits
(['pick-up', 'drop'], [0, 7, 6, 6, 6, 6])

Events are recorded as plain tuples (:data:`~mancala_spec.engine.trace.Record`) and
become :class:`~mancala_spec.engine.trace.Event` values when read, through
:attr:`Sowing.events` or :attr:`Trace.events <mancala_spec.engine.trace.Trace.events>`.
"""
from __future__ import annotations

from functools import lru_cache
from operator import add
from typing import TYPE_CHECKING

from .trace import (Capture, Drop, EndOfGame, EndOfLap, EndOfMove, Event, Pass, PickUp, Record,
                    Relay, build_events, register_record)

if TYPE_CHECKING:  # pragma: no cover
    from .position import Position


class SowingOrder:
    """The order seeds are sown in on one board: counter-clockwise from pit to
    pit, passing over the pit a lap was lifted from if *skip_origin* is true.
    Get one with :func:`sowing_order`.

    >>> order = sowing_order(6, skip_origin=True)
    >>> order.next[2][1], order.next[2][3], order.lap(2, 7)
    (3, 4, ((1, 1, 0, 2, 2, 1), 4))
    """

    def __init__(self, size: int, skip_origin: bool) -> None:
        def following(pit: int, origin: int) -> int:
            after = (pit + 1) % size
            if skip_origin and after == origin:
                after = (after + 1) % size
            return after
        #: ``next[origin][pit]``: the pit after *pit* in a lap lifted from *origin*
        self.next = tuple(tuple(following(pit, origin) for pit in range(size))
                          for origin in range(size))
        #: ``laps[origin][seeds]``: the laps worked out so far by :meth:`lap`
        self.laps: tuple[list[tuple[tuple[int, ...], int]], ...] = tuple([] for _ in range(size))

    def lap(self, origin: int, seeds: int) -> tuple[tuple[int, ...], int]:
        """A lap of *seeds* seeds lifted from *origin*, as a whole: how many
        seeds each pit gains, and the pit the last one falls in."""
        known, following = self.laps[origin], self.next[origin]
        while len(known) <= seeds:     # work out the laps of 0, 1, 2 … seeds in turn
            if known:
                gains, pit = known[-1]
                pit = following[pit]
                gains = gains[:pit] + (gains[pit] + 1,) + gains[pit + 1:]
            else:
                gains, pit = (0,) * len(self.next), origin
            known.append((gains, pit))
        return known[seeds]

    def drops(self, rule: str, origin: int, seeds: int, before) -> list[Drop]:
        """The :class:`~mancala_spec.engine.trace.Drop` events of a lap of *seeds*
        seeds lifted from *origin* on the board *before*, one by one."""
        pits, pit, following, events = list(before), origin, self.next[origin], []
        for _ in range(seeds):
            pit = following[pit]
            pits[pit] += 1
            events.append(Drop(rule, pit, pits[pit]))
        return events


@lru_cache(maxsize=None)
def sowing_order(size: int, skip_origin: bool) -> SowingOrder:
    """The :class:`SowingOrder` of a board of *size* pits (one per board and option)."""
    return SowingOrder(size, skip_origin)

#: A record standing for a whole lap's drops: ``(WHOLE_LAP, order, rule, origin,
#: seeds, board before)``; read as the lap's Drop events (:meth:`SowingOrder.drops`).
WHOLE_LAP = register_record(lambda order, *lap: order.drops(*lap))


class Sowing:
    """Working state of one move (each move has its own)."""

    __slots__ = ("pits", "captured", "owners", "mover", "records", "laps", "took", "order")

    def __init__(self, pos: Position) -> None:
        """The working state of a move from *pos*, before anything is lifted."""
        #: the seeds in each pit
        self.pits = list(pos.pits)
        #: the seeds each player has captured so far (a tuple, replaced at each capture)
        self.captured = pos.captured
        #: each pit's owner
        self.owners = pos.owners
        #: the player making the move
        self.mover = pos.to_move
        #: the events so far, as :data:`~mancala_spec.engine.trace.Record` tuples
        self.records: list[Record] = []
        #: the laps sown so far
        self.laps = 0
        #: whether any seed has left the board
        self.took = False
        #: the :class:`SowingOrder` of the game (its board and ``skip_origin``)
        self.order: SowingOrder = pos.game.sowing_order

    @property
    def events(self) -> list[Event]:
        """The events so far (built afresh from :attr:`records` at each read)."""
        return list(build_events(self.records))

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
        """The pit after *pit* in sowing order, passing over *origin* (the pit
        this lap was lifted from) when the ``skip_origin`` option is on."""
        return self.order.next[origin][pit]

    def drop(self, pit: int, rule: str) -> int:
        """Drop one seed into *pit*; return the pit's new count."""
        count = self.pits[pit] = self.pits[pit] + 1
        self.records.append((Drop, rule, pit, count))
        return count

    def sow_lap(self, origin: int, seeds: int, rule: str, owner_takes: int | None = None,
                owner_rule: str = "") -> tuple[int, int]:
        """Sow *seeds* seeds lifted from *origin*: drop them one by one into the
        following pits (as :meth:`next_pit` and :meth:`drop` do), then record
        the end of the lap (:meth:`end_lap`). Return the pit the last seed fell
        in and that pit's count.

        With *owner_takes*, a drop other than the last that brings its pit to
        exactly that many seeds gives them to the pit's owner at once (a
        :meth:`capture` under *owner_rule*), and the lap goes on. Without it
        nothing can happen on the way, so the lap is applied whole
        (:meth:`SowingOrder.lap`) and recorded as one :data:`WHOLE_LAP` record,
        read as the same Drop events."""
        order, records = self.order, self.records
        if owner_takes is None:
            try:
                gains, pit = order.laps[origin][seeds]
            except IndexError:
                gains, pit = order.lap(origin, seeds)
            before = self.pits    # kept as it is (a new list replaces it), for the record
            pits = self.pits = list(map(add, before, gains))
            records.append((WHOLE_LAP, order, rule, origin, seeds, before))
            count = pits[pit]
        else:
            pits, record, following = self.pits, records.append, order.next[origin]
            pit = origin
            for left in range(seeds - 1, -1, -1):
                pit = following[pit]
                count = pits[pit] = pits[pit] + 1
                record((Drop, rule, pit, count))
                if count == owner_takes and left:
                    self.capture(pit, self.owners[pit], owner_rule)
            count = pits[pit]
        records.append((EndOfLap, rule, self.laps, pit, count))
        return pit, count

    def capture(self, pit: int, player: int, rule: str) -> int:
        """Move every seed of *pit* to *player*'s store; return how many."""
        seeds, self.pits[pit] = self.pits[pit], 0
        captured = self.captured
        self.captured = (*captured[:player], captured[player] + seeds, *captured[player + 1:])
        self.took = True
        self.records.append((Capture, rule, pit, seeds, player))
        return seeds

    def end_lap(self, pit: int, rule: str) -> int:
        """Record where the lap's last seed landed; return that pit's count."""
        count = self.pits[pit]
        self.records.append((EndOfLap, rule, self.laps, pit, count))
        return count

    def end_move(self, reason: str, rule: str) -> None:
        """Record that the sowing is over, and why."""
        self.records.append((EndOfMove, rule, reason))

    def pass_turn(self, player: int, rule: str) -> None:
        """Record that *player* has no legal move and is passed over."""
        self.records.append((Pass, rule, player))

    def take_all(self, player_of, rule: str) -> None:
        """Capture every non-empty pit for ``player_of(pit)`` (end of game)."""
        for pit, seeds in enumerate(self.pits):
            if seeds:
                self.capture(pit, player_of(pit), rule)

    def end_game(self, reason: str, rule: str) -> None:
        """Record that the game is over, and why."""
        self.records.append((EndOfGame, rule, reason))
