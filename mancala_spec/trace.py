"""The event model of a move, shared by docs, diagrams, tests and conformance data.

A move is a tuple of events in the order they happen. Every event names the
catalogue rule that caused it (``rule``). Nothing describes a move by hand:
diagrams, examples and exported data are all rendered from these events.

==============  ==========================================================
event           meaning
==============  ==========================================================
``PickUp``      the mover lifts all *seeds* from *pit* (a move's first lap)
``Drop``        one seed is dropped into *pit*, which then holds *count*
``Capture``     *seeds* leave *pit* for *player*'s store
``EndOfLap``    a lap's last seed landed in *pit*, which then held *count*
``Relay``       the *seeds* of *pit* are lifted to sow a new lap
``EndOfMove``   the sowing is over; *reason* says why
``Pass``        *player* has no legal move and the turn passes over them
``EndOfGame``   the game is over; *reason* says why
==============  ==========================================================
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import ClassVar


@dataclass(frozen=True)
class Event:
    """Base class of all trace events."""

    kind: ClassVar[str] = "event"
    rule: str

    def as_dict(self) -> dict[str, object]:
        """The event as plain data: ``{"event": kind, ...fields}``."""
        return {"event": self.kind, **asdict(self)}

    def describe(self, name=str, player=None) -> str:
        """One line of English; *name* maps a pit index to its name and
        *player* a player index to theirs (default: South, North)."""
        raise NotImplementedError


@dataclass(frozen=True)
class PickUp(Event):
    """The mover lifts all the seeds of the chosen pit."""

    kind: ClassVar[str] = "pick-up"
    pit: int
    seeds: int

    def describe(self, name=str, player=None) -> str:
        return f"pick up {self.seeds} from {name(self.pit)}"


@dataclass(frozen=True)
class Drop(Event):
    """One seed is dropped; ``count`` is the pit's content after the drop."""

    kind: ClassVar[str] = "drop"
    pit: int
    count: int

    def describe(self, name=str, player=None) -> str:
        return f"drop in {name(self.pit)} → {self.count}"


@dataclass(frozen=True)
class Capture(Event):
    """``seeds`` seeds leave ``pit`` for ``player``'s store."""

    kind: ClassVar[str] = "capture"
    pit: int
    seeds: int
    player: int

    def describe(self, name=str, player=None) -> str:
        from .board import player_name
        return f"{(player or player_name)(self.player)} captures {self.seeds} from {name(self.pit)}"


@dataclass(frozen=True)
class EndOfLap(Event):
    """A lap's last seed landed in ``pit``, which then held ``count`` seeds."""

    kind: ClassVar[str] = "end-of-lap"
    lap: int
    pit: int
    count: int

    def describe(self, name=str, player=None) -> str:
        return f"lap {self.lap} ends in {name(self.pit)} ({self.count})"


@dataclass(frozen=True)
class Relay(Event):
    """The seeds of ``pit`` (with the last seed sown) are lifted for a new lap."""

    kind: ClassVar[str] = "relay"
    pit: int
    seeds: int

    def describe(self, name=str, player=None) -> str:
        return f"relay {self.seeds} from {name(self.pit)}"


@dataclass(frozen=True)
class EndOfMove(Event):
    """The sowing is over. ``reason`` is one of :data:`MOVE_END_REASONS`."""

    kind: ClassVar[str] = "end-of-move"
    reason: str

    def describe(self, name=str, player=None) -> str:
        return f"move ends: {MOVE_END_REASONS[self.reason]}"


@dataclass(frozen=True)
class Pass(Event):
    """``player`` has no legal move; the turn passes over them."""

    kind: ClassVar[str] = "pass"
    player: int

    def describe(self, name=str, player=None) -> str:
        from .board import player_name
        return f"{(player or player_name)(self.player)} has no legal move and passes"


@dataclass(frozen=True)
class EndOfGame(Event):
    """The game is over. ``reason`` is one of :data:`GAME_END_REASONS`."""

    kind: ClassVar[str] = "end-of-game"
    reason: str

    def describe(self, name=str, player=None) -> str:
        return f"game over: {GAME_END_REASONS[self.reason]}"


MOVE_END_REASONS = {
    "empty-pit": "the last seed landed in an empty pit",
    "four": "the last seed made four, taken by the mover",
    "endless-stopped": "the relay sowing repeated a lap state and was stopped",
    "single-lap": "the hand is empty after a single lap",
}

GAME_END_REASONS = {
    "eight-seeds": "eight seeds or fewer remain",
    "no-moves": "no player to move has a legal move",
    "repetition": "a whole position recurred",
    "exhausted": "the player to move has no counters left",
}

EVENT_TYPES: dict[str, type[Event]] = {
    cls.kind: cls for cls in (PickUp, Drop, Capture, EndOfLap, Relay, EndOfMove, Pass, EndOfGame)
}


def event_from_dict(data: dict[str, object]) -> Event:
    """Rebuild an event from :meth:`Event.as_dict` output."""
    data = dict(data)
    cls = EVENT_TYPES[str(data.pop("event"))]
    names = {f.name for f in fields(cls)}
    return cls(**{k: v for k, v in data.items() if k in names})


@dataclass(frozen=True)
class Trace:
    """One move: the position before, the pit played, its events and the result."""

    before: "Position"  # noqa: F821  (mancala_spec.position.Position)
    pit: int
    events: tuple[Event, ...]
    position: "Position"  # noqa: F821

    @property
    def laps(self) -> int:
        """How many laps the sowing took (1 for a move without relay)."""
        return sum(1 for event in self.events if isinstance(event, EndOfLap))

    @property
    def captures(self) -> tuple[Capture, ...]:
        """The capture events, in order."""
        return tuple(event for event in self.events if isinstance(event, Capture))

    def describe(self) -> str:
        """The move as numbered English lines, with pit names."""
        game = self.before.game
        return "\n".join(f"{event.describe(game.board.name, game.player_name)}  [{event.rule}]"
                         for event in self.events)
