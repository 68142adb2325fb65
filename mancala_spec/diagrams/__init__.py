"""Sowing diagrams drawn from the engine's own traces.

Two steps, so that what is drawn can be checked without drawing it:

1. :func:`layout` turns a :class:`~mancala_spec.engine.trace.Trace` into a
   :class:`Diagram`: plain data (panels of pit boxes with seed counts, lift and
   drop markers numbered in order, arrows, capture marks naming the capturing
   player and the rule, and notes saying why each lap and the move ended). It
   is computed **only** by replaying the trace's events on ``trace.before``,
   and it checks every count an event states against the replay and the final
   board against ``trace.position``, so a diagram cannot disagree with the
   engine: a corrupted trace raises :class:`DiagramError`.
2. :func:`render` draws a diagram with matplotlib (a plain
   :class:`matplotlib.figure.Figure`, no pyplot state); :func:`save` writes it
   with stable metadata, so the same diagram gives the same bytes.

A move is shown lap by lap, one panel per lap, each panel showing the board at
the start of its lap (counts at the end of the lap follow an arrow in the
pit). North is on top, as players see the board; South's row runs left to
right and North's right to left, so sowing runs counter-clockwise.
:func:`render_laps` draws a long move compactly, one row per lap.

>>> import mancala_spec as ms
>>> trace = ms.get_game("bakuk").parse("3,2,1/1,4,2 S 11-12 opener=S").trace("b")
>>> diagram = layout(trace)
>>> [(d.order, d.name, d.count) for d in diagram.panels[0].drops]
[(1, 'c', 2), (2, 'A', 2)]
>>> [(c.name, c.seeds, c.player_letter, c.rule) for c in diagram.panels[0].captures]
[('A', 2, 'S', 'bakuk-capture'), ('B', 4, 'S', 'bakuk-chain'), ('C', 2, 'S', 'bakuk-chain')]
>>> diagram.final_pits == trace.position.pits
True
"""
from __future__ import annotations

import io
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..engine.board import PLAYER_NAMES, THREE_PLAYER_LETTERS, THREE_PLAYER_NAMES, PLAYER_LETTERS
from ..errors import MancalaError
from ..engine.trace import (GAME_END_REASONS, MOVE_END_REASONS, Capture, Drop, EndOfGame, EndOfLap,
                    EndOfMove, Pass, PickUp, Relay, Trace)

# -- colours (Okabe–Ito, safe for the common colour-vision deficiencies) ----------

OKABE_ITO = {
    "black": "#000000", "orange": "#E69F00", "sky blue": "#56B4E9",
    "bluish green": "#009E73", "yellow": "#F0E442", "blue": "#0072B2",
    "vermillion": "#D55E00", "reddish purple": "#CC79A7",
}
#: Each player's colour: South blue, North vermillion, a third player bluish green.
PLAYER_COLOURS = (OKABE_ITO["blue"], OKABE_ITO["vermillion"], OKABE_ITO["bluish green"])
#: Light tints of the player colours, for pit and store shading (owner).
PLAYER_TINTS = ("#D4E6F3", "#F8DECC", "#CCECE3")
#: Hatches, so that owners differ by pattern as well as colour.
PLAYER_HATCHES = ("", "///", "...")
#: Capture marks differ by outline style as well as colour and letter.
PLAYER_LINESTYLES = ("solid", (0, (3, 1.5)), (0, (1, 1)))
INK = "#1A1A1A"
GREY = "#5A5A5A"
LIFT_COLOUR = OKABE_ITO["yellow"]

# -- geometry, in panel units (one unit is INCH_PER_UNIT inches when drawn) -------

INCH_PER_UNIT = 0.6
PITCH = 1.2          # distance between pit centres
PIT_W, PIT_H = 1.0, 0.86
CHANNEL = 1.1        # gap between the rows, where capture marks sit
Y_SOUTH, Y_NORTH = 0.0, PIT_H + CHANNEL
NAME_GAP = 0.2       # pit edge to pit name
LANE_0 = PIT_H / 2 + 0.55   # row centre to the first lane of markers
LANE_STEP = 0.44     # between lanes (a lap that goes round twice uses two)
MARK_R = 0.17
STORE_W, STORE_GAP = 0.9, 0.3
TITLE_H = 0.62
NOTE_H = 0.36
LEGEND_H = 0.75     # one row of the key
MIN_PANEL_W = 9.6   # so that Bakuk's notes and titles have room

# font sizes in points
FONT = "DejaVu Sans"
SIZE_COUNT, SIZE_END, SIZE_NAME, SIZE_MARK = 15, 9.5, 10, 8.5
SIZE_TAG, SIZE_NOTE, SIZE_TITLE = 9, 9.5, 11.5


def _names(players: int) -> tuple[str, ...]:
    """Player names by index for a game of *players* players."""
    return PLAYER_NAMES if players == 2 else THREE_PLAYER_NAMES


def _letters(players: int) -> str:
    """Player letters by index for a game of *players* players."""
    return PLAYER_LETTERS if players == 2 else THREE_PLAYER_LETTERS


class DiagramError(MancalaError):
    """A trace whose events disagree with a replay of them on its own board."""


# -- the data a diagram draws -----------------------------------------------------


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

    @property
    def width(self) -> float:
        return self.box[1] - self.box[0]

    @property
    def height(self) -> float:
        return self.box[3] - self.box[2]

    def note_lines(self, width: float | None = None) -> list[str]:
        """The notes wrapped to the panel's width."""
        chars = max(30, int((width or self.width) * INCH_PER_UNIT * 72 / (SIZE_NOTE * 0.56)))
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

    @property
    def laps(self) -> int:
        return sum(1 for panel in self.panels if panel.lap is not None)

    @property
    def captures(self) -> tuple[CaptureMark, ...]:
        return tuple(mark for panel in self.panels for mark in panel.captures)


# -- layout -----------------------------------------------------------------------


class _Geometry:
    """Where each pit, store and marker of a board goes, in panel units."""

    def __init__(self, pits_per_row: int, stores: bool) -> None:
        n = self.n = pits_per_row
        self.stores = stores
        self.left = -PIT_W / 2 - (STORE_GAP + STORE_W if stores else 0)
        self.right = (n - 1) * PITCH + PIT_W / 2 + (STORE_GAP + STORE_W if stores else 0)

    def row(self, pit: int) -> int:
        return 0 if pit < self.n else 1

    def xy(self, pit: int) -> tuple[float, float]:
        n = self.n
        if pit < n:
            return pit * PITCH, Y_SOUTH
        return (2 * n - 1 - pit) * PITCH, Y_NORTH

    def lane(self, pit: int, slot: int) -> tuple[float, float]:
        """A marker's place: outside the pit's row, *slot* lanes out."""
        x, y = self.xy(pit)
        offset = LANE_0 + slot * LANE_STEP
        return x, (y - offset if self.row(pit) == 0 else y + offset)

    def tag_xy(self, pit: int, index: int, of: int) -> tuple[float, float]:
        """A capture mark's place, in the channel beside its pit."""
        x, y = self.xy(pit)
        shift = (index - (of - 1) / 2) * 0.62
        offset = PIT_H / 2 + 0.2
        return x + shift, (y + offset if self.row(pit) == 0 else y - offset)

    def store(self, player: int) -> tuple[float, float, float, float]:
        """x, y (centre), width, height. South's store is at South's right (the
        east end), North's at North's right (the west end)."""
        height = Y_NORTH - Y_SOUTH + PIT_H
        y = (Y_SOUTH + Y_NORTH) / 2
        if player == 0:
            return self.right - STORE_W / 2, y, STORE_W, height
        return self.left + STORE_W / 2, y, STORE_W, height

    def margin(self, lanes: int) -> float:
        """How far outside the board the wrap-round arrows reach."""
        return 0.55 + 0.22 * max(lanes - 1, 0)

    def arrow(self, a: tuple[int, int], b: tuple[int, int]) -> Arrow:
        """The arrow from the marker of (pit, slot) *a* to that of *b*."""
        (pa, sa), (pb, sb) = a, b
        (x0, y0), (x1, y1) = self.lane(pa, sa), self.lane(pb, sb)
        ra, rb = self.row(pa), self.row(pb)
        if ra != rb:   # round an end of the board, outside the stores
            east = ra == 0
            edge = self.right if east else self.left
            reach = 0.4 + 0.22 * max(sa, sb)
            sign = 1 if east else -1
            bulge = edge + sign * reach
            x0s, x1s = x0 + sign * MARK_R, x1 + sign * MARK_R
            cx0 = x0s + (bulge - x0s) / 0.75
            cx1 = x1s + (bulge - x1s) / 0.75
            return Arrow(((x0s, y0), (cx0, y0), (cx1, y1), (x1s, y1)), True)
        dx, dy = x1 - x0, y1 - y0
        length = (dx * dx + dy * dy) ** 0.5
        if abs(dx) > PITCH * 1.1:   # hops over a pit: bow outwards, clear of its markers
            out = -1 if ra == 0 else 1
            lift = out * (0.45 + 0.1 * abs(dx) / PITCH)
            start = (x0 + dx / length * MARK_R, y0)
            end = (x1 - dx / length * MARK_R, y1)
            return Arrow((start, (start[0] + dx / 4, y0 + lift), (end[0] - dx / 4, y1 + lift), end),
                         True)
        ux, uy = dx / length, dy / length
        return Arrow(((x0 + ux * MARK_R, y0 + uy * MARK_R), (x1 - ux * MARK_R, y1 - uy * MARK_R)),
                     False)


class _Replay:
    """The board and stores as the events change them, with every stated count checked."""

    def __init__(self, trace: Trace) -> None:
        self.pits = list(trace.before.pits)
        self.captured = list(trace.before.captured)
        self.mismatches: list[str] = []
        self.name = trace.before.game.board.name

    def expect(self, what: str, stated: int, replayed: int, number: int) -> None:
        if stated != replayed:
            self.mismatches.append(f"event {number}: {what} states {stated}, the replay has "
                                   f"{replayed}")

    def lift(self, event, number: int) -> None:
        self.expect(f"lifting {self.name(event.pit)}", event.seeds, self.pits[event.pit], number)
        self.pits[event.pit] = 0

    def drop(self, event: Drop, number: int) -> None:
        self.pits[event.pit] += 1
        self.expect(f"a drop in {self.name(event.pit)}", event.count, self.pits[event.pit], number)

    def capture(self, event: Capture, number: int) -> None:
        self.expect(f"a capture from {self.name(event.pit)}", event.seeds, self.pits[event.pit],
                    number)
        self.captured[event.player] += self.pits[event.pit]
        self.pits[event.pit] = 0


@dataclass
class _Sweep:
    """Captures after the sowing by one player under one rule, noted on one line."""

    player: int
    rule: str
    takes: list[tuple[str, int]]
    player_name: str

    def same(self, event: Capture) -> bool:
        return event.player == self.player and event.rule == self.rule

    def add(self, pit_name: str, seeds: int) -> None:
        self.takes.append((pit_name, seeds))

    def __str__(self) -> str:
        total = sum(seeds for _, seeds in self.takes)
        where = ", ".join(f"{seeds} from {pit_name}" for pit_name, seeds in self.takes)
        return (f"{self.player_name} takes {total} seed{'s' if total != 1 else ''}: "
                f"{where} [{self.rule}]")


def layout(trace: Trace, *, stores: bool | None = None, check: bool = True,
           title: str | None = None, min_width: float = MIN_PANEL_W) -> Diagram:
    """The :class:`Diagram` of *trace*, computed by replaying its events on
    ``trace.before``.

    *stores* shows the end stores (default: for games that have them, i.e.
    Ba-awa, not Bakuk). With *check* (the default) any disagreement between an
    event and the replay, or between the replayed final board and
    ``trace.position``, raises :class:`DiagramError`; without it the
    disagreements are listed in the diagram's ``mismatches`` and the diagram
    shows the replay. *min_width* (panel units) leaves room for the notes;
    make it smaller to set narrow boards side by side.
    """
    before = trace.before
    game = before.game
    board = game.board
    name = board.name
    if stores is None:
        stores = game.name != "bakuk"
    stores = stores and game.players == 2
    geo = _Geometry(board.pits_per_row, stores)
    replay = _Replay(trace)
    mover = before.to_move

    panels: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    after_sowing = False
    capture_number = 0

    def open_panel(lap: int | None, title_text: str) -> dict[str, Any]:
        panel = {"lap": lap, "title": title_text, "start_pits": tuple(replay.pits),
                 "start_captured": tuple(replay.captured), "lift": None, "drops": [],
                 "captures": [], "notes": [], "slots": {}, "chain": [], "last_pit": None}
        panels.append(panel)
        return panel

    def place(panel, pit: int) -> int:
        slot = panel["slots"].get(pit, 0)
        panel["slots"][pit] = slot + 1
        panel["chain"].append((pit, slot))
        return slot

    events = trace.events
    for number, event in enumerate(events, start=1):
        if isinstance(event, (PickUp, Relay)):
            lap = len([p for p in panels if p["lap"] is not None]) + 1
            seeds_text = f"{event.seeds} seed{'s' if event.seeds != 1 else ''}"
            if isinstance(event, PickUp):
                heading = (f"Lap {lap}: {game.player_name(mover)} plays {name(event.pit)}, "
                           f"lifting {seeds_text}")
            else:
                heading = f"Lap {lap}: relay of {seeds_text} from {name(event.pit)}"
            current = open_panel(lap, heading)
            slot = place(current, event.pit)
            x, y = geo.lane(event.pit, slot)
            current["lift"] = Lift(event.kind, event.pit, name(event.pit), event.seeds,
                                   event.rule, x, y)
            replay.lift(event, number)
        elif isinstance(event, Drop):
            if current is None or after_sowing:
                raise DiagramError(f"event {number}: a drop outside any lap")
            replay.drop(event, number)
            slot = place(current, event.pit)
            x, y = geo.lane(event.pit, slot)
            current["drops"].append(DropMark(len(current["drops"]) + 1, event.pit,
                                             name(event.pit), replay.pits[event.pit],
                                             event.rule, x, y, slot, False))
        elif isinstance(event, Capture):
            if current is None or (after_sowing and current["lap"] is not None):
                current = open_panel(None, "After the move")
            capture_number += 1
            after_drop = current["drops"][-1].order if current["drops"] else None
            seeds = replay.pits[event.pit]
            current["captures"].append((capture_number, event, after_drop, seeds))
            replay.capture(event, number)
            group = current["notes"][-1] if current["notes"] else None
            if after_drop is None and isinstance(group, _Sweep) and group.same(event):
                group.add(name(event.pit), seeds)
            elif after_drop is None:
                current["notes"].append(_Sweep(event.player, event.rule, [(name(event.pit), seeds)],
                                                      game.player_name(event.player)))
            else:
                current["notes"].append(
                    f"{game.player_letter(event.player)}+{seeds}: {game.player_name(event.player)} takes "
                    f"{seeds} from {name(event.pit)} after drop {after_drop} [{event.rule}]")
        elif isinstance(event, EndOfLap):
            if current is None:
                raise DiagramError(f"event {number}: a lap ends before any seed was lifted")
            replay.expect(f"the end of lap {event.lap} in {name(event.pit)}", event.count,
                          replay.pits[event.pit], number)
            if event.lap != current["lap"]:
                replay.mismatches.append(f"event {number}: lap {event.lap} ends during the "
                                         f"diagram's lap {current['lap']}")
            if current["drops"]:
                last = current["drops"][-1]
                current["drops"][-1] = DropMark(last.order, last.pit, last.name, last.count,
                                                last.rule, last.x, last.y, last.slot, True)
            current["last_pit"] = event.pit
            following = events[number] if number < len(events) else None
            what = (f"its {event.count} seeds are sown again [{following.rule}]"
                    if isinstance(following, Relay) else "")
            current["notes"].append(f"The last seed lands in {name(event.pit)}, which now holds "
                                    f"{event.count}" + (f": {what}" if what else "."))
        elif isinstance(event, EndOfMove):
            after_sowing = True
            if current is None:
                raise DiagramError(f"event {number}: the move ends before it began")
            current["notes"].append(f"The move ends: {MOVE_END_REASONS.get(event.reason, event.reason)}"
                                    f" [{event.rule}].")
            current["end_reason"] = event.reason
        elif isinstance(event, Pass):
            target = current if current is not None else open_panel(None, "After the move")
            target["notes"].append(f"{game.player_name(event.player)} has no legal move and is "
                                   f"passed over [{event.rule}].")
        elif isinstance(event, EndOfGame):
            target = current if current is not None else open_panel(None, "After the move")
            if target["lap"] is None:
                target["title"] = ("After the move: game over, "
                                   + GAME_END_REASONS.get(event.reason, event.reason))
            target["notes"].append(f"Game over: {GAME_END_REASONS.get(event.reason, event.reason)}"
                                   f" [{event.rule}].")
        if current is not None:
            current["end_pits"] = tuple(replay.pits)
            current["end_captured"] = tuple(replay.captured)

    final_pits, final_captured = tuple(replay.pits), tuple(replay.captured)
    result = trace.position
    if final_pits != result.pits:
        replay.mismatches.append(f"the replay ends with pits {final_pits}, the engine's "
                                 f"position has {result.pits}")
    if final_captured != result.captured:
        replay.mismatches.append(f"the replay ends with captured {final_captured}, the engine's "
                                 f"position has {result.captured}")
    if check and replay.mismatches:
        raise DiagramError("the trace disagrees with its own board: "
                           + "; ".join(replay.mismatches))

    # a relay sowing stopped as endless: say which earlier lap it repeats
    ends = [(p["end_pits"], p["last_pit"]) for p in panels if p["lap"] is not None]
    built: list[Panel] = []
    for index, data in enumerate(panels):
        repeats = None
        if data["lap"] is not None and data.get("end_reason") == "endless-stopped":
            state = ends[data["lap"] - 1]
            earlier = [lap for lap, other in enumerate(ends[: data["lap"] - 1], start=1)
                       if other == state]
            if earlier:
                repeats = earlier[0]
            elif state == (before.pits, trace.pit):
                repeats = 0
            if repeats is not None:
                where = "the move's start" if repeats == 0 else f"the end of lap {repeats}"
                data["notes"].append(f"The board and last pit now repeat {where}, so the relay "
                                     "would never end.")
        built.append(_panel(data, index + 1, geo, board, before, stores, repeats, min_width))
    players = game.players
    after_text, before_text = result.to_text(), before.to_text()
    move = name(trace.pit)
    heading = title or (f"{game.title}: {game.player_name(mover)} plays {move}"
                        f" ({trace.laps} lap{'s' if trace.laps != 1 else ''}, "
                        f"{len(trace.captures)} capture{'s' if len(trace.captures) != 1 else ''})")
    caption = (f"{game.title}, {game.player_name(mover)} plays {move} from {before_text}. "
               f"Result: {after_text}")
    return Diagram(game.name, heading, caption, before_text, after_text, move, mover, players,
                   tuple(built), final_pits, final_captured, tuple(replay.mismatches), stores)


def _panel(data: dict[str, Any], number: int, geo: _Geometry, board, before, stores: bool,
           repeats: int | None, min_width: float = MIN_PANEL_W) -> Panel:
    name = board.name
    start, end = data["start_pits"], data["end_pits"]
    pits = tuple(PitBox(pit, name(pit), before.owners[pit], *geo.xy(pit), start[pit], end[pit])
                 for pit in range(board.size))
    store_boxes = ()
    if stores:
        store_boxes = tuple(StoreBox(player, *geo.store(player), data["start_captured"][player],
                                     data["end_captured"][player]) for player in (0, 1))
    chain = data["chain"]
    arrows = tuple(geo.arrow(a, b) for a, b in zip(chain, chain[1:]))
    per_pit: dict[int, int] = {}
    for _, event, _, _ in data["captures"]:
        per_pit[event.pit] = per_pit.get(event.pit, 0) + 1
    seen: dict[int, int] = {}
    marks = []
    for number_, event, after_drop, seeds in data["captures"]:
        index = seen.get(event.pit, 0)
        seen[event.pit] = index + 1
        x, y = geo.tag_xy(event.pit, index, per_pit[event.pit])
        marks.append(CaptureMark(number_, event.pit, name(event.pit), seeds, event.player,
                                 event.rule, after_drop, x, y,
                                 before.game.player_letter(event.player)))
    links = tuple(_link(a, b) for a, b in zip(marks, marks[1:])
                  if a.after_drop is not None and a.after_drop == b.after_drop)
    notes = [str(note) for note in data["notes"]]
    if not stores:
        captured = ", ".join(
            f"{before.game.player_name(p)} {a}" + (f" → {b}" if b != a else "")
            for p, (a, b) in enumerate(zip(data["start_captured"], data["end_captured"])))
        notes.append(f"Captured: {captured}.")
    lanes = max(data["slots"].values(), default=1)
    margin = geo.margin(lanes)
    x0, x1 = geo.left - margin - 0.15, geo.right + margin + 0.15
    if x1 - x0 < min_width:
        centre = (x0 + x1) / 2
        x0, x1 = centre - min_width / 2, centre + min_width / 2
    reach = LANE_0 + (lanes - 1) * LANE_STEP + MARK_R + 0.12
    if not chain:   # no markers: only the pit names outside the rows
        reach = PIT_H / 2 + NAME_GAP + 0.35
    board_low, board_high = Y_SOUTH - reach, Y_NORTH + reach
    provisional = Panel(number, data["lap"], data["title"], pits, store_boxes, data["lift"],
                        tuple(data["drops"]), arrows, tuple(marks), tuple(notes), start, end,
                        data["start_captured"], data["end_captured"], data["last_pit"], repeats,
                        (x0, x1, board_low, board_high + TITLE_H))
    lines = len(provisional.note_lines())
    title_h = TITLE_H if data["title"] else 0.1
    y0 = board_low - NOTE_H * lines - 0.15
    return Panel(number, data["lap"], data["title"], pits, store_boxes, data["lift"],
                 tuple(data["drops"]), arrows, tuple(marks), tuple(notes), start, end,
                 data["start_captured"], data["end_captured"], data["last_pit"], repeats,
                 (x0, x1, y0, board_high + title_h), links)


TAG_W, TAG_H = 0.56, 0.34


def _link(a: CaptureMark, b: CaptureMark) -> Arrow:
    """An arrow from capture mark *a* to *b* (a capture chain, in its order)."""
    dx, dy = b.x - a.x, b.y - a.y
    if abs(dy) < 1e-9:
        sign = 1 if dx > 0 else -1
        return Arrow(((a.x + sign * TAG_W / 2, a.y), (b.x - sign * TAG_W / 2, b.y)), False,
                     b.player)
    sign = 1 if dy > 0 else -1
    return Arrow(((a.x, a.y + sign * TAG_H / 2), (b.x, b.y - sign * TAG_H / 2)), False, b.player)


def layout_position(pos, *, stores: bool | None = None, title: str | None = None) -> Diagram:
    """A one-panel :class:`Diagram` of a position, with no move."""
    game = pos.game
    board = game.board
    if stores is None:
        stores = game.name != "bakuk"
    stores = stores and game.players == 2
    geo = _Geometry(board.pits_per_row, stores)
    text = pos.to_text()
    state = ("game over" if pos.is_over else f"{game.player_name(pos.to_move)} to move")
    heading = title or f"{game.title}: {state}"
    data = {"lap": None, "title": "", "start_pits": pos.pits,
            "end_pits": pos.pits, "start_captured": pos.captured, "end_captured": pos.captured,
            "lift": None, "drops": [], "captures": [], "notes": [], "slots": {}, "chain": [],
            "last_pit": None}
    panel = _panel(data, 1, geo, board, pos, stores, None)
    return Diagram(game.name, heading, f"{game.title}: {text}", text, text, None,
                   pos.to_move, game.players, (panel,), pos.pits, pos.captured, (), stores)


# -- rendering --------------------------------------------------------------------


def _rc() -> dict[str, Any]:
    return {"svg.hashsalt": "mancala-spec", "font.family": FONT, "path.simplify": False,
            "hatch.linewidth": 0.8}


def _text_width(text: str, size: float, bold: bool = False) -> float:
    """A line's width in panel units, measured on the font's outlines."""
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import TextPath

    font = FontProperties(family=FONT, weight="bold" if bold else "normal", size=size)
    points = TextPath((0, 0), text, prop=font).get_extents().width
    return points / 72 / INCH_PER_UNIT


def _plan(diagram: Diagram, panels, columns: int | None, legend: bool) -> dict[str, Any]:
    """Which panels go where, and the drawing's size in units."""
    chosen = [p for p in diagram.panels if panels is None or p.number in set(panels)]
    if not chosen:
        raise ValueError("no panel selected")
    width = max(p.width for p in chosen)
    if columns is None:
        columns = 2 if width < 10.5 and len(chosen) > 2 else 1
    columns = max(1, min(columns, len(chosen)))
    rows = [chosen[i:i + columns] for i in range(0, len(chosen), columns)]
    heights = [max(p.height for p in row) for row in rows]
    total_w = width * columns
    title_lines = textwrap.wrap(diagram.title, max(20, int(
        (total_w - 0.4) * len(diagram.title) / _text_width(diagram.title, SIZE_TITLE + 1, True))))
    header = 0.25 + 0.45 * len(title_lines)
    keys = _legend_rows(diagram, total_w) if legend else []
    total_h = sum(heights) + header + LEGEND_H * len(keys)
    return {"rows": rows, "heights": heights, "width": width, "title": title_lines,
            "header": header, "keys": keys, "w": total_w, "h": total_h}


def render(diagram: Diagram, figure=None, *, panels=None, columns: int | None = None,
           legend: bool = True):
    """Draw *diagram*; return the :class:`matplotlib.figure.Figure`.

    *figure* is drawn into (and resized) if given — e.g. ``plt.figure()`` when
    the figure should be managed by pyplot, as in the gallery — else a new
    plain ``Figure`` is made. *panels* selects panels by number (1-based);
    *columns* defaults to one (two for three or more narrow panels).
    """
    import matplotlib
    from matplotlib.figure import Figure

    plan = _plan(diagram, panels, columns, legend)
    with matplotlib.rc_context(_rc()):
        fig = figure if figure is not None else Figure()
        fig.set_size_inches(plan["w"] * INCH_PER_UNIT, plan["h"] * INCH_PER_UNIT)
        _draw(fig, diagram, plan, plan["h"])
    return fig


def render_row(diagrams, figure=None, *, panels=None, columns: int | None = None,
               legend: bool = True):
    """Draw several diagrams side by side (e.g. one position under two options),
    top-aligned, with one shared key below; options as for :func:`render`."""
    import matplotlib
    from matplotlib.figure import Figure

    plans = [_plan(d, panels, columns, False) for d in diagrams]
    total_w = sum(plan["w"] for plan in plans)
    body_h = max(plan["h"] for plan in plans)
    keys = _legend_rows(max(diagrams, key=lambda d: d.players), total_w) if legend else []
    legend_h = LEGEND_H * len(keys)
    with matplotlib.rc_context(_rc()):
        fig = figure if figure is not None else Figure()
        fig.set_size_inches(total_w * INCH_PER_UNIT, (body_h + legend_h) * INCH_PER_UNIT)
        fig.set_facecolor("white")
        grid = fig.add_gridspec(2 if keys else 1, len(plans),
                                width_ratios=[plan["w"] for plan in plans],
                                height_ratios=[body_h, legend_h] if keys else [body_h],
                                left=0, right=1, bottom=0, top=1, wspace=0, hspace=0)
        for column, (diagram, plan) in enumerate(zip(diagrams, plans)):
            _draw(fig.add_subfigure(grid[0, column]), diagram, plan, body_h)
        if keys:
            _draw_legend(fig.add_axes((0, 0, 1, legend_h / (body_h + legend_h))), keys, total_w,
                         max(d.players for d in diagrams))
    return fig


def _draw(fig, diagram: Diagram, plan: dict[str, Any], frame_h: float) -> None:
    """Draw a planned diagram into *fig* (a figure or subfigure *frame_h* units
    tall, which may be more than the plan needs: the drawing is top-aligned)."""
    total_w = plan["w"]
    fig.set_facecolor("white")
    header = plan["header"]
    fig.text(0.2 / total_w, 1 - (header - 0.05) / 2 / frame_h, "\n".join(plan["title"]),
             ha="left", va="center", fontsize=SIZE_TITLE + 1, weight="bold", color=INK,
             family=FONT, gid="title", linespacing=1.25)
    top = frame_h - header
    width = plan["width"]
    for row, row_h in zip(plan["rows"], plan["heights"]):
        for column, panel in enumerate(row):
            rect = (column * width / total_w, (top - row_h) / frame_h,
                    width / total_w, row_h / frame_h)
            _draw_panel(fig.add_axes(rect), panel, width, row_h)
        top -= row_h
    if plan["keys"]:
        height = LEGEND_H * len(plan["keys"])
        _draw_legend(fig.add_axes((0, (top - height) / frame_h, 1, height / frame_h)),
                     plan["keys"], total_w, diagram.players)


def _setup_axes(ax, x0: float, x1: float, y0: float, y1: float) -> None:
    ax.set_xlim(x0, x1)
    ax.set_ylim(y0, y1)
    ax.set_axis_off()


def _draw_panel(ax, panel: Panel, width: float, height: float) -> None:
    from matplotlib.patches import Circle, FancyArrowPatch, FancyBboxPatch
    from matplotlib.path import Path as MplPath

    x0, _, _, y1 = panel.box
    _setup_axes(ax, x0, x0 + width, y1 - height, y1)
    tag = f"p{panel.number}"
    text = dict(family=FONT, color=INK, ha="center", va="center")
    if panel.title:
        ax.text(x0 + 0.2, y1 - TITLE_H / 2, panel.title, fontsize=SIZE_TITLE, weight="bold",
                ha="left", va="center", family=FONT, color=INK, gid=f"{tag}:title")
    for box in panel.stores:
        patch = FancyBboxPatch((box.x - box.width / 2, box.y - box.height / 2), box.width,
                               box.height, boxstyle="round,pad=0,rounding_size=0.3",
                               facecolor=PLAYER_TINTS[box.player], edgecolor=GREY, lw=1.0,
                               hatch=PLAYER_HATCHES[box.player],
                               hatchcolor=_hatch_colour(box.player))
        ax.add_patch(patch)
        ax.text(box.x, box.y + box.height / 2 - 0.28, f"{PLAYER_NAMES[box.player]}\nstore",
                fontsize=SIZE_END - 1.5, linespacing=1.0, **text)
        ax.text(box.x, box.y + 0.05, box.label, fontsize=SIZE_COUNT, weight="bold",
                gid=f"{tag}:store:{box.player}", **text)
        if box.end_label:
            ax.text(box.x, box.y - 0.45, box.end_label, fontsize=SIZE_END,
                    gid=f"{tag}:store-end:{box.player}", **text)
    for box in panel.pits:
        patch = FancyBboxPatch((box.x - PIT_W / 2, box.y - PIT_H / 2), PIT_W, PIT_H,
                               boxstyle="round,pad=0,rounding_size=0.2",
                               facecolor=PLAYER_TINTS[box.owner], edgecolor=GREY, lw=1.0,
                               hatch=PLAYER_HATCHES[box.owner], hatchcolor=_hatch_colour(box.owner))
        ax.add_patch(patch)
        lift = 0.1 if box.end_label else 0.0
        ax.text(box.x, box.y + lift, box.label, fontsize=SIZE_COUNT, weight="bold",
                gid=f"{tag}:count:{box.pit}", **text)
        if box.end_label:
            ax.text(box.x, box.y - 0.25, box.end_label, fontsize=SIZE_END,
                    gid=f"{tag}:end:{box.pit}", **text)
        nx, ny = _name_xy(box)
        ax.text(nx, ny, box.name, fontsize=SIZE_NAME, style="italic",
                gid=f"{tag}:name:{box.pit}", **{**text, "color": GREY})
    for arrow in panel.arrows:
        if arrow.curved:
            path = MplPath(arrow.points, [MplPath.MOVETO] + [MplPath.CURVE4] * 3)
        else:
            path = MplPath(arrow.points, [MplPath.MOVETO, MplPath.LINETO])
        ax.add_patch(FancyArrowPatch(path=path, arrowstyle="-|>,head_length=4,head_width=2.2",
                                     color=GREY, lw=0.9, shrinkA=0, shrinkB=0, zorder=2))
    if panel.lift is not None:
        lift = panel.lift
        ax.add_patch(FancyBboxPatch((lift.x - MARK_R, lift.y - MARK_R), 2 * MARK_R, 2 * MARK_R,
                                    boxstyle="round,pad=0,rounding_size=0.04",
                                    facecolor=LIFT_COLOUR, edgecolor=INK, lw=1.2, zorder=3))
        ax.text(lift.x, lift.y, lift.label, fontsize=SIZE_MARK, weight="bold", zorder=4,
                gid=f"{tag}:lift", **text)
    for drop in panel.drops:
        ax.add_patch(Circle((drop.x, drop.y), MARK_R, facecolor=INK if drop.last else "white",
                            edgecolor=INK, lw=1.0, zorder=3))
        ax.text(drop.x, drop.y, drop.label, fontsize=SIZE_MARK, zorder=4,
                gid=f"{tag}:drop:{drop.order}",
                **{**text, "color": "white" if drop.last else INK})
    for link in panel.links:
        path = MplPath(link.points, [MplPath.MOVETO, MplPath.LINETO])
        ax.add_patch(FancyArrowPatch(path=path, arrowstyle="-|>,head_length=4,head_width=2.4",
                                     color=PLAYER_COLOURS[link.player], lw=1.6, shrinkA=0,
                                     shrinkB=0, zorder=2))
    for mark in panel.captures:
        w, h = TAG_W, TAG_H
        ax.add_patch(FancyBboxPatch((mark.x - w / 2, mark.y - h / 2), w, h,
                                    boxstyle="round,pad=0,rounding_size=0.08",
                                    facecolor=PLAYER_TINTS[mark.player],
                                    edgecolor=PLAYER_COLOURS[mark.player], lw=1.8,
                                    linestyle=PLAYER_LINESTYLES[mark.player], zorder=3))
        ax.text(mark.x, mark.y, mark.label, fontsize=SIZE_TAG, weight="bold", zorder=4,
                gid=f"{tag}:capture:{mark.number}", **text)
    low = panel.box[2]
    lines = panel.note_lines(width)
    board_low = low + NOTE_H * len(lines) + 0.15
    for index, line in enumerate(lines):
        ax.text(x0 + 0.2, board_low - NOTE_H * (index + 0.5) - 0.05, line, fontsize=SIZE_NOTE,
                ha="left", va="center", family=FONT, color=INK, gid=f"{tag}:note:{index}")


def _name_xy(box: PitBox) -> tuple[float, float]:
    offset = PIT_H / 2 + NAME_GAP
    return box.x, (box.y - offset if box.y == Y_SOUTH else box.y + offset)


def _hatch_colour(player: int) -> str:
    return {0: "#9DC3DE", 1: "#EDB48F", 2: "#8FD1BE"}[player]


def _legend_rows(diagram: Diagram, width: float) -> list[list[tuple[str, Any, str, float]]]:
    """The key's items, (kind, player, text, width): the markers, then the capture
    marks, in one row if they fit, else the capture marks on a row of their own."""
    def item(kind, player, label):
        symbol = 0.7 if kind == "capture" else 0.45
        return (kind, player, label, symbol + _text_width(label, SIZE_NOTE - 0.5) + 0.5)

    markers = [item("lift", None, "seeds lifted"), item("drop", None, "drops in order"),
               item("last", None, "last seed")]
    marks = [item("capture", player, f"captured by {_names(diagram.players)[player]}")
             for player in range(diagram.players)]
    rows: list[list[tuple[str, Any, str, float]]] = []
    for group in ([markers + marks] if sum(i[3] for i in markers + marks) + 0.25 <= width
                  else [markers, marks]):
        rows.append([])
        used = 0.25
        for entry in group:
            if rows[-1] and used + entry[3] > width:
                rows.append([])
                used = 0.25
            rows[-1].append(entry)
            used += entry[3]
    return rows


def _draw_legend(ax, rows, width: float, players: int = 2) -> None:
    from matplotlib.patches import Circle, FancyBboxPatch

    _setup_axes(ax, 0, width, 0, LEGEND_H * len(rows))
    text = dict(family=FONT, color=INK, va="center", ha="left", fontsize=SIZE_NOTE - 0.5)
    for number, row in enumerate(rows):
        y = LEGEND_H * (len(rows) - number - 0.5)
        x = 0.25
        for kind, player, label, item_w in row:
            if kind == "lift":
                ax.add_patch(FancyBboxPatch((x, y - MARK_R), 2 * MARK_R, 2 * MARK_R,
                                            boxstyle="round,pad=0,rounding_size=0.04",
                                            facecolor=LIFT_COLOUR, edgecolor=INK, lw=1.2))
                symbol = 0.45
            elif kind in ("drop", "last"):
                ax.add_patch(Circle((x + MARK_R, y), MARK_R, edgecolor=INK, lw=1.0,
                                    facecolor=INK if kind == "last" else "white"))
                symbol = 0.45
            else:
                ax.add_patch(FancyBboxPatch((x, y - 0.17), 0.56, 0.34,
                                            boxstyle="round,pad=0,rounding_size=0.08",
                                            facecolor=PLAYER_TINTS[player],
                                            edgecolor=PLAYER_COLOURS[player], lw=1.8,
                                            linestyle=PLAYER_LINESTYLES[player]))
                ax.text(x + 0.28, y, _letters(players)[player], fontsize=SIZE_TAG, weight="bold",
                        family=FONT, color=INK, ha="center", va="center")
                symbol = 0.7
            ax.text(x + symbol, y, label, **text)
            x += item_w


def render_laps(diagram: Diagram, figure=None):
    """A compact table of a long move: one row per lap, one column per pit in
    sowing order, each cell the pit's count at the lap's start. The lifted pit
    is outlined, the pit where the lap's last seed landed is underlined, and
    captures are named (player letter and seeds) beside their row."""
    import matplotlib
    from matplotlib.figure import Figure
    from matplotlib.patches import Rectangle

    laps = [p for p in diagram.panels if p.lap is not None]
    size = len(laps[0].pits)
    cell_w, cell_h = 0.7, 0.5
    names = [box.name for box in laps[0].pits]
    left, right = 1.3, 3.6
    top = 1.3
    total_w = left + cell_w * size + right
    total_h = top + cell_h * len(laps) + 0.3
    with matplotlib.rc_context(_rc()):
        fig = figure if figure is not None else Figure()
        fig.set_size_inches(total_w * INCH_PER_UNIT, total_h * INCH_PER_UNIT)
        fig.set_facecolor("white")
        ax = fig.add_axes((0, 0, 1, 1))
        _setup_axes(ax, 0, total_w, total_h, 0)   # y grows downwards: lap 1 on top
        text = dict(family=FONT, color=INK, ha="center", va="center")
        ax.text(0.2, 0.4, diagram.title, fontsize=SIZE_TITLE, weight="bold", ha="left",
                va="center", family=FONT, color=INK, gid="title")
        for column, pit_name in enumerate(names):
            owner = laps[0].pits[column].owner
            ax.text(left + cell_w * (column + 0.5), top - 0.3, pit_name, fontsize=SIZE_NAME,
                    style="italic", **{**text, "color": PLAYER_COLOURS[owner]})
        ax.text(0.2, top - 0.3, "lap", fontsize=SIZE_NAME, ha="left", va="center",
                family=FONT, color=GREY)
        for row, panel in enumerate(laps):
            y = top + cell_h * row
            ax.text(0.2, y + cell_h / 2, str(panel.lap), fontsize=SIZE_END, ha="left",
                    va="center", family=FONT, color=GREY)
            for column, box in enumerate(panel.pits):
                x = left + cell_w * column
                lifted = panel.lift is not None and panel.lift.pit == box.pit
                ax.add_patch(Rectangle((x, y), cell_w, cell_h, facecolor=PLAYER_TINTS[box.owner],
                                       edgecolor=INK if lifted else "white",
                                       lw=2.2 if lifted else 0.8, zorder=3 if lifted else 1))
                ax.text(x + cell_w / 2, y + cell_h / 2, box.label, fontsize=SIZE_END,
                        weight="bold" if lifted else "normal", zorder=4,
                        gid=f"p{panel.number}:count:{box.pit}", **text)
                if panel.last_pit == box.pit:
                    ax.plot([x + 0.2, x + cell_w - 0.2], [y + cell_h / 2 + 0.17] * 2,
                            color=INK, lw=1.6, zorder=4, solid_capstyle="butt")
            notes = [mark.label for mark in panel.captures]
            if panel.repeats_lap is not None:
                notes.append("repeats " + ("start" if panel.repeats_lap == 0
                                           else f"end of lap {panel.repeats_lap}"))
            ax.text(left + cell_w * size + 0.2, y + cell_h / 2, "  ".join(notes),
                    fontsize=SIZE_END - 0.5, ha="left", va="center", family=FONT, color=INK)
    return fig


def draw_position(pos, figure=None, *, stores: bool | None = None, title: str | None = None):
    """A static board of *pos*: counts, names, owner shading and stores."""
    return render(layout_position(pos, stores=stores, title=title), figure, legend=False)


# -- output -----------------------------------------------------------------------


def save(figure, target, *, format: str | None = None, dpi: int = 150) -> bytes:
    """Write *figure* to *target* (a path or binary file) with stable metadata,
    so the same diagram always gives the same bytes; return the bytes."""
    import matplotlib

    if format is None:
        format = Path(target).suffix.lstrip(".") if isinstance(target, (str, Path)) else "png"
    metadata = {"png": {"Software": None}, "svg": {"Date": None, "Creator": None},
                "pdf": {"CreationDate": None, "ModDate": None, "Producer": None,
                        "Creator": None}}.get(format, {})
    buffer = io.BytesIO()
    with matplotlib.rc_context(_rc()):
        figure.savefig(buffer, format=format, dpi=dpi, metadata=metadata, facecolor="white")
    data = buffer.getvalue()
    if isinstance(target, (str, Path)):
        path = Path(target)
        if not path.exists() or path.read_bytes() != data:   # keep mtimes of unchanged files
            path.write_bytes(data)
    else:
        target.write(data)
    return data


def parse_options(text: str) -> dict[str, Any]:
    """Engine options from text like ``"skip_origin=true endless=stop"``.

    >>> parse_options("skip_origin=true endless=stop")
    {'skip_origin': True, 'endless': 'stop'}
    """
    from ..notation import option_value

    options: dict[str, Any] = {}
    for item in text.replace(",", " ").split():
        key, sep, value = item.partition("=")
        if not sep or not key or not value:
            raise ValueError(f"an option is written name=value, not {item!r}")
        options[key] = option_value(value)
    return options


def trace_move(game: str, move: str | int, position: str | None = None,
               options: str | dict[str, Any] | None = None) -> Trace:
    """Run the engine: the trace of *move* from *position* (notation text;
    the start position if omitted) in *game* with *options*."""
    from ..engine.games import get_game

    if isinstance(options, str):
        options = parse_options(options)
    engine = get_game(game, **(options or {}))
    pos = engine.parse(position) if position else engine.start()
    if isinstance(move, str) and move.strip().isdigit():
        move = int(move)
    return pos.trace(move.strip() if isinstance(move, str) else move)


__all__ = [
    "Arrow", "CaptureMark", "Diagram", "DiagramError", "DropMark", "Lift", "Panel",
    "PitBox", "StoreBox", "draw_position", "layout", "layout_position", "parse_options",
    "render", "render_laps", "render_row", "save", "trace_move",
]
