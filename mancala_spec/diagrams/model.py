"""The data a diagram draws: boxes, markers, arrows and notes, in panel units.

Plain frozen dataclasses, no drawing code: :mod:`.layout` makes them from a
trace, :mod:`.render` draws them, and tests read them.
"""
from __future__ import annotations

import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..errors import MancalaError, not_a
from .style import DESKTOP, SEEDS, Metrics, Words


class DiagramError(MancalaError):
    """A diagram that cannot be made: a trace whose events disagree with a replay
    of them on its own board, or rendering asked for without matplotlib."""


class _Counts:
    """Labels of a box drawn with *count* at a panel's start and *end_count* at its end."""

    count: int
    end_count: int

    @property
    def label(self) -> str:
        return str(self.count)

    @property
    def end_label(self) -> str:
        """``"→ n"`` when the box holds a different count at the panel's end, else ``""``."""
        return f"→ {self.end_count}" if self.end_count != self.count else ""


@dataclass(frozen=True)
class PitBox(_Counts):
    """A pit as drawn in one panel: *count* at the panel's start, *end_count* at its end."""

    pit: int
    name: str
    owner: int
    x: float
    y: float
    count: int
    end_count: int


@dataclass(frozen=True)
class StoreBox(_Counts):
    """A player's end store (the captured seeds; never sown into)."""

    player: int
    x: float
    y: float
    width: float
    height: float
    count: int
    end_count: int


@dataclass(frozen=True)
class Lift:
    """Where a lap's seeds were picked up: the move's pit, or a relay pit."""

    kind: str          # "pick-up" or "relay"
    pit: int
    name: str
    seeds: int
    rule: str
    x: float
    y: float

    @property
    def label(self) -> str:
        return str(self.seeds)


@dataclass(frozen=True)
class DropMark:
    """One seed dropped: *order* within the lap, *count* the pit held after it."""

    order: int
    pit: int
    name: str
    count: int
    rule: str
    x: float
    y: float
    slot: int
    last: bool

    @property
    def label(self) -> str:
        return str(self.order)


@dataclass(frozen=True)
class Arrow:
    """The path from one marker to the next: a line, or a cubic Bézier curve
    (``points`` then holds start, two control points, end)."""

    points: tuple[tuple[float, float], ...]
    curved: bool
    player: int | None = None   # a capture chain's arrow, in the capturing player's colour


@dataclass(frozen=True)
class CaptureMark:
    """Seeds taken from *pit* by *player* because of *rule*; *after_drop* is the
    number of the drop just before it in this panel (``None`` after the sowing)."""

    number: int        # 1-based, over the whole move
    pit: int
    name: str
    seeds: int
    player: int
    rule: str
    after_drop: int | None
    x: float
    y: float
    player_letter: str

    @property
    def label(self) -> str:
        return f"{self.player_letter}+{self.seeds}"


@dataclass(frozen=True)
class Panel:
    """One lap of a move (or, as the last panel, what happened after the sowing)."""

    number: int
    lap: int | None
    title: str
    pits: tuple[PitBox, ...]
    stores: tuple[StoreBox, ...]
    lift: Lift | None
    drops: tuple[DropMark, ...]
    arrows: tuple[Arrow, ...]
    captures: tuple[CaptureMark, ...]
    notes: tuple[str, ...]
    start_pits: tuple[int, ...]
    end_pits: tuple[int, ...]
    start_captured: tuple[int, ...]
    end_captured: tuple[int, ...]
    last_pit: int | None = None
    repeats_lap: int | None = None
    box: tuple[float, float, float, float] = (0.0, 1.0, 0.0, 1.0)   # x0, x1, y0, y1
    links: tuple[Arrow, ...] = ()   # capture chains: from each capture mark to the next
    metrics: Metrics = DESKTOP

    @property
    def width(self) -> float:
        return self.box[1] - self.box[0]

    @property
    def height(self) -> float:
        return self.box[3] - self.box[2]

    def note_lines(self, width: float | None = None) -> list[str]:
        """The notes wrapped to the panel's width (or *width* units)."""
        chars = self.metrics.note_chars(width or self.width)
        lines: list[str] = []
        for note in self.notes:
            lines.extend(textwrap.wrap(note, chars, subsequent_indent="    ",
                                       break_on_hyphens=False) or [""])
        return lines


@dataclass(frozen=True)
class Diagram:
    """Everything :func:`render` draws, as data."""

    game: str
    title: str
    caption: str
    before: str
    after: str
    move: str | None
    mover: int
    players: int
    panels: tuple[Panel, ...]
    final_pits: tuple[int, ...]
    final_captured: tuple[int, ...]
    mismatches: tuple[str, ...] = ()
    show_stores: bool = True
    metrics: Metrics = DESKTOP
    words: Words = SEEDS
    label: str = ""      # what the diagram is of, e.g. "Diagram of example bakuk-chain-2"
    alt: str = ""        # the move in words, from its events (alt.alt_text): the text alternative
    #: the same move (or position) laid out again with other metrics ("phone"): how
    #: the rules site's gallery draws each figure for a phone as well
    relayout: Callable[[Metrics | str], Diagram] | None = field(default=None, compare=False,
                                                                 repr=False)

    @property
    def laps(self) -> int:
        return sum(1 for panel in self.panels if panel.lap is not None)

    @property
    def captures(self) -> tuple[CaptureMark, ...]:
        return tuple(mark for panel in self.panels for mark in panel.captures)


def checked_diagram(diagram: Any) -> Diagram:
    """*diagram*, if it is one; else :class:`~mancala_spec.errors.OptionError`."""
    if not isinstance(diagram, Diagram):
        raise not_a("diagram", diagram, "a diagram (layout or layout_position gives one)")
    return diagram
