"""The sowing primitives that every game composes.

A :class:`Sowing` is the mutable working state of one move: a copy of the pits
and stores, the mover, and the list of events so far. Each primitive changes the
state by one step and records one event naming the rule that caused it. Games
(``mancala_spec.games``) decide *which* primitive to call *when*; the mechanics
live only here, so related games can be composed from the same pieces.

>>> from mancala_spec.board import Board
>>> s = Sowing(Board(3), pits=[1, 0, 0, 0, 0, 0], captured=[0, 0],
...            owners=(0, 0, 0, 1, 1, 1), mover=0)
>>> hand = s.pick_up(0, "bakuk-choose")
>>> s.drop(s.next_pit(0, origin=0), "bakuk-sow")
1
>>> [e.kind for e in s.events], s.pits
(['pick-up', 'drop'], [0, 1, 0, 0, 0, 0])
"""
from __future__ import annotations

from .board import Board
from .trace import Capture, Drop, EndOfGame, EndOfLap, EndOfMove, Event, Pass, PickUp, Relay


class Sowing:
    """Working state of one move. Not shared: each move gets its own copy."""

    __slots__ = ("board", "pits", "captured", "owners", "mover", "skip_origin", "events", "laps")

    def __init__(self, board: Board, pits, captured, owners, mover: int,
                 skip_origin: bool = False) -> None:
        self.board = board
        self.pits = list(pits)
        self.captured = list(captured)
        self.owners = owners
        self.mover = mover
        self.skip_origin = skip_origin
        self.events: list[Event] = []
        self.laps = 0

    def copy(self) -> Sowing:
        """An independent copy (the end-of-move rules extend a copy, never the cache)."""
        twin = Sowing(self.board, self.pits, self.captured, self.owners, self.mover,
                      self.skip_origin)
        twin.events = list(self.events)
        twin.laps = self.laps
        return twin

    def pick_up(self, pit: int, rule: str) -> int:
        """Lift every seed from *pit* to start the move; return how many."""
        seeds, self.pits[pit] = self.pits[pit], 0
        self.events.append(PickUp(rule, pit, seeds))
        self.laps = 1
        return seeds

    def relay(self, pit: int, rule: str) -> int:
        """Lift every seed from *pit* to sow a new lap; return how many."""
        seeds, self.pits[pit] = self.pits[pit], 0
        self.events.append(Relay(rule, pit, seeds))
        self.laps += 1
        return seeds

    def next_pit(self, pit: int, origin: int) -> int:
        """The pit after *pit* in sowing order, passing over *origin* (the pit
        this lap was lifted from) when the ``skip_origin`` option is on."""
        following = self.board.next(pit)
        if self.skip_origin and following == origin:
            following = self.board.next(following)
        return following

    def drop(self, pit: int, rule: str) -> int:
        """Drop one seed into *pit*; return the pit's new count."""
        self.pits[pit] += 1
        count = self.pits[pit]
        self.events.append(Drop(rule, pit, count))
        return count

    def capture(self, pit: int, player: int, rule: str) -> int:
        """Move every seed of *pit* to *player*'s store; return how many."""
        seeds, self.pits[pit] = self.pits[pit], 0
        self.captured[player] += seeds
        self.events.append(Capture(rule, pit, seeds, player))
        return seeds

    def end_lap(self, pit: int, rule: str) -> int:
        """Record where the lap's last seed landed; return that pit's count."""
        count = self.pits[pit]
        self.events.append(EndOfLap(rule, self.laps, pit, count))
        return count

    def end_move(self, reason: str, rule: str) -> None:
        """Record that the sowing is over, and why."""
        self.events.append(EndOfMove(rule, reason))

    def pass_turn(self, player: int, rule: str) -> None:
        """Record that *player* has no legal move and is passed over."""
        self.events.append(Pass(rule, player))

    def take_all(self, player_of, rule: str) -> None:
        """Capture every non-empty pit for ``player_of(pit)`` (end of game)."""
        for pit, seeds in enumerate(self.pits):
            if seeds:
                self.capture(pit, player_of(pit), rule)

    def end_game(self, reason: str, rule: str) -> None:
        """Record that the game is over, and why."""
        self.events.append(EndOfGame(rule, reason))

    @property
    def captured_any(self) -> bool:
        """Whether any seed left the board during this move."""
        return any(isinstance(event, Capture) for event in self.events)
