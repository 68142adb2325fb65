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

from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any, ClassVar

from .board import player_name

#: Gives a pit's or a player's name from its index.
Namer = Callable[[int], str]


@dataclass(frozen=True)
class Event:
    """Base class of all trace events."""

    kind: ClassVar[str] = "event"
    rule: str

    def as_dict(self) -> dict[str, object]:
        """The event as plain data: ``{"event": kind, ...fields}``."""
        return {"event": self.kind, **asdict(self)}

    def describe(self, name: Namer = str, player: Namer | None = None) -> str:
        """One line of English; *name* maps a pit index to its name and
        *player* a player index to theirs (default: South, North)."""
        raise NotImplementedError


@dataclass(frozen=True)
class PickUp(Event):
    """The mover lifts all the seeds of the chosen pit."""

    kind: ClassVar[str] = "pick-up"
    pit: int
    seeds: int

    def describe(self, name: Namer = str, player: Namer | None = None) -> str:
        return f"pick up {self.seeds} from {name(self.pit)}"


@dataclass(frozen=True)
class Drop(Event):
    """One seed is dropped; ``count`` is the pit's content after the drop."""

    kind: ClassVar[str] = "drop"
    pit: int
    count: int

    def describe(self, name: Namer = str, player: Namer | None = None) -> str:
        return f"drop in {name(self.pit)} → {self.count}"


@dataclass(frozen=True)
class Capture(Event):
    """``seeds`` seeds leave ``pit`` for ``player``'s store."""

    kind: ClassVar[str] = "capture"
    pit: int
    seeds: int
    player: int

    def describe(self, name: Namer = str, player: Namer | None = None) -> str:
        return f"{(player or player_name)(self.player)} captures {self.seeds} from {name(self.pit)}"


@dataclass(frozen=True)
class EndOfLap(Event):
    """A lap's last seed landed in ``pit``, which then held ``count`` seeds."""

    kind: ClassVar[str] = "end-of-lap"
    lap: int
    pit: int
    count: int

    def describe(self, name: Namer = str, player: Namer | None = None) -> str:
        return f"lap {self.lap} ends in {name(self.pit)} ({self.count})"


@dataclass(frozen=True)
class Relay(Event):
    """The seeds of ``pit`` (with the last seed sown) are lifted for a new lap."""

    kind: ClassVar[str] = "relay"
    pit: int
    seeds: int

    def describe(self, name: Namer = str, player: Namer | None = None) -> str:
        return f"relay {self.seeds} from {name(self.pit)}"


@dataclass(frozen=True)
class EndOfMove(Event):
    """The sowing is over. ``reason`` is one of :data:`MOVE_END_REASONS`."""

    kind: ClassVar[str] = "end-of-move"
    reason: str

    def describe(self, name: Namer = str, player: Namer | None = None) -> str:
        return f"move ends: {MOVE_END_REASONS[self.reason]}"


@dataclass(frozen=True)
class Pass(Event):
    """``player`` has no legal move; the turn passes over them."""

    kind: ClassVar[str] = "pass"
    player: int

    def describe(self, name: Namer = str, player: Namer | None = None) -> str:
        return f"{(player or player_name)(self.player)} has no legal move and passes"


@dataclass(frozen=True)
class EndOfGame(Event):
    """The game is over. ``reason`` is one of :data:`GAME_END_REASONS`."""

    kind: ClassVar[str] = "end-of-game"
    reason: str

    def describe(self, name: Namer = str, player: Namer | None = None) -> str:
        return f"game over: {GAME_END_REASONS[self.reason]}"


MOVE_END_REASONS = {
    "empty-pit": "the last seed landed in an empty pit",
    "four": "the last seed made four, taken by the mover",
    "endless-stopped": "the relay sowing repeated a lap state and was stopped",
    "single-lap": "the hand is empty after a single lap",
    "lap-cap": "the sowing reached 75 laps and was stopped",
}

GAME_END_REASONS = {
    "eight-seeds": "eight seeds or fewer remain",
    "no-moves": "no player to move has a legal move",
    "repetition": "a whole position recurred",
    "exhausted": "the player to move has no counters left",
    "decided": "the winner is decided",
    "empty-row": "a player's row is empty",
    "lap-cap": "a sowing was stopped after 75 laps",
}

EVENT_TYPES: dict[str, type[Event]] = {
    cls.kind: cls for cls in (PickUp, Drop, Capture, EndOfLap, Relay, EndOfMove, Pass, EndOfGame)
}


class Trace:
    """One move: the position before, the pit played, its events and the result.

    ``Trace(before, pit, events, position)``. A trace is a value: its fields
    are read-only, and two traces are equal when all four are.
    """

    __slots__ = ("_before", "_pit", "_position", "_events", "_records")

    _before: Any
    _pit: int
    _position: Any
    _events: tuple[Event, ...] | None
    _records: Sequence[tuple[Any, ...]]

    def __init__(self, before: Any, pit: int, events: Iterable[Event], position: Any) -> None:
        self._set(before, pit, tuple(events), (), position)

    @classmethod
    def of_sowing(cls, before: Any, pit: int, sowing: Any, position: Any) -> Trace:
        """The trace of a move whose events are *sowing*'s records (see
        :attr:`Sowing.records <mancala_spec.engine.sowing.Sowing.records>`),
        made :class:`Event` values when first read."""
        self = object.__new__(cls)
        self._set(before, pit, None, sowing.records, position)
        return self

    def _set(self, before: Any, pit: int, events: tuple[Event, ...] | None,
             records: Sequence[tuple[Any, ...]], position: Any) -> None:
        set_field = object.__setattr__    # the only way in: Trace.__setattr__ refuses
        set_field(self, "_before", before)
        set_field(self, "_pit", pit)
        set_field(self, "_events", events)
        set_field(self, "_records", records)
        set_field(self, "_position", position)

    @property
    def before(self) -> Any:
        """The position the move was played from."""
        return self._before

    @property
    def pit(self) -> int:
        """The pit played (an index)."""
        return self._pit

    @property
    def position(self) -> Any:
        """The position the move leads to."""
        return self._position

    @property
    def events(self) -> tuple[Event, ...]:
        """The move's events, in the order they happened."""
        if self._events is None:
            events = tuple(kind(*fields) for kind, *fields in self._records)
            object.__setattr__(self, "_events", events)
            object.__setattr__(self, "_records", ())
            return events
        return self._events

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Trace is read-only: cannot set {name}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"Trace is read-only: cannot delete {name}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (Trace, (self.before, self.pit, self.events, self.position))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Trace):
            return NotImplemented
        return ((self.before, self.pit, self.events, self.position)
                == (other.before, other.pit, other.events, other.position))

    def __hash__(self) -> int:
        return hash((self.before, self.pit, self.events, self.position))

    def __repr__(self) -> str:
        return (f"Trace(before={self.before!r}, pit={self.pit!r}, events={self.events!r}, "
                f"position={self.position!r})")

    def replace(self, **changes: Any) -> Trace:
        """A copy with the fields named in *changes* (``before``, ``pit``,
        ``events``, ``position``) replaced."""
        fields_ = {"before": self.before, "pit": self.pit, "events": self.events,
                   "position": self.position}
        unknown = set(changes) - set(fields_)
        if unknown:
            raise TypeError(f"Trace has no field {sorted(unknown)[0]!r}")
        fields_.update(changes)
        return Trace(**fields_)

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

