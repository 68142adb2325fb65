"""Layout: a trace (or a position) becomes a :class:`~.model.Diagram`.

The diagram is computed **only** by replaying the trace's events on
``trace.before``; every count an event states is checked against the replay,
and the final board against ``trace.position``, so a diagram cannot disagree
with the engine. Pure Python: nothing here draws.

North is on top, as players see the board; South's row runs left to right and
North's right to left, so sowing runs counter-clockwise.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..engine.games import Game
from ..engine.position import Position
from ..engine.trace import (
    GAME_END_REASONS,
    MOVE_END_REASONS,
    Capture,
    Drop,
    EndOfGame,
    EndOfLap,
    EndOfMove,
    Pass,
    PickUp,
    Relay,
    Trace,
)
from ..errors import not_a, not_a_position
from .alt import alt_text
from .model import (
    Arrow,
    CaptureMark,
    Diagram,
    DiagramError,
    DropMark,
    Lift,
    Panel,
    PitBox,
    StoreBox,
)
from .style import DESKTOP, Metrics, Words, metrics_named, words_for


class _Geometry:
    """Where each pit, store and marker of a board goes, in panel units."""

    def __init__(self, pits_per_row: int, stores: bool, metrics: Metrics) -> None:
        n = self.n = pits_per_row
        m = self.m = metrics
        self.stores = stores
        store = m.store_gap + m.store_w if stores else 0
        self.left = -m.pit_w / 2 - store
        self.right = (n - 1) * m.pitch + m.pit_w / 2 + store

    @classmethod
    def of(cls, game: Any, stores: bool | None, metrics: Metrics) -> _Geometry:
        """The geometry of *game*'s board, with its end stores if *stores*
        (by default, if its board has them: Ba-awa's, not Bakuk's); never with
        three players."""
        if stores is None:
            stores = game.board.stores
        return cls(game.board.pits_per_row, stores and game.players == 2, metrics)

    def row(self, pit: int) -> int:
        return 0 if pit < self.n else 1

    def xy(self, pit: int) -> tuple[float, float]:
        n = self.n
        if pit < n:
            return pit * self.m.pitch, 0.0
        return (2 * n - 1 - pit) * self.m.pitch, self.m.y_north

    def lane(self, pit: int, slot: int) -> tuple[float, float]:
        """A marker's place: outside the pit's row, *slot* lanes out."""
        x, y = self.xy(pit)
        offset = self.m.lane_0 + slot * self.m.lane_step
        return x, (y - offset if self.row(pit) == 0 else y + offset)

    def tag_xy(self, pit: int, index: int, of: int) -> tuple[float, float]:
        """A capture mark's place, in the channel beside its pit."""
        x, y = self.xy(pit)
        shift = (index - (of - 1) / 2) * (self.m.tag_w + 0.06)
        offset = self.m.pit_h / 2 + max(0.2, self.m.tag_h / 2 + 0.06)
        return x + shift, (y + offset if self.row(pit) == 0 else y - offset)

    def store(self, player: int) -> tuple[float, float, float, float]:
        """x, y (centre), width, height. South's store is at South's right (the
        east end), North's at North's right (the west end)."""
        m = self.m
        height = m.y_north + m.pit_h
        y = m.y_north / 2
        if player == 0:
            return self.right - m.store_w / 2, y, m.store_w, height
        return self.left + m.store_w / 2, y, m.store_w, height

    def margin(self, lanes: int) -> float:
        """How far outside the board the wrap-round arrows reach."""
        return 0.55 + self.m.mark_r - 0.17 + 0.22 * max(lanes - 1, 0)

    def arrow(self, a: tuple[int, int], b: tuple[int, int]) -> Arrow:
        """The arrow from the marker of (pit, slot) *a* to that of *b*."""
        (pa, sa), (pb, sb) = a, b
        (x0, y0), (x1, y1) = self.lane(pa, sa), self.lane(pb, sb)
        ra, rb = self.row(pa), self.row(pb)
        if ra != rb:   # round an end of the board, outside the stores
            east = ra == 0
            edge = self.right if east else self.left
            reach = 0.4 + self.m.mark_r - 0.17 + 0.22 * max(sa, sb)
            sign = 1 if east else -1
            bulge = edge + sign * reach
            x0s, x1s = x0 + sign * self.m.mark_r, x1 + sign * self.m.mark_r
            cx0 = x0s + (bulge - x0s) / 0.75
            cx1 = x1s + (bulge - x1s) / 0.75
            return Arrow(((x0s, y0), (cx0, y0), (cx1, y1), (x1s, y1)), True)
        dx, dy = x1 - x0, y1 - y0
        length = (dx * dx + dy * dy) ** 0.5
        r = self.m.mark_r
        if abs(dx) > self.m.pitch * 1.1:   # hops over a pit: bow outwards, clear of its markers
            out = -1 if ra == 0 else 1
            lift = out * (0.45 + 0.1 * abs(dx) / self.m.pitch)
            start = (x0 + dx / length * r, y0)
            end = (x1 - dx / length * r, y1)
            return Arrow((start, (start[0] + dx / 4, y0 + lift), (end[0] - dx / 4, y1 + lift), end),
                         True)
        ux, uy = dx / length, dy / length
        return Arrow(((x0 + ux * r, y0 + uy * r), (x1 - ux * r, y1 - uy * r)), False)


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
    words: Words

    def same(self, event: Capture) -> bool:
        return event.player == self.player and event.rule == self.rule

    def add(self, pit_name: str, seeds: int) -> None:
        self.takes.append((pit_name, seeds))

    def __str__(self) -> str:
        total = sum(seeds for _, seeds in self.takes)
        where = ", ".join(f"{seeds} from {pit_name}" for pit_name, seeds in self.takes)
        return f"{self.player_name} takes {self.words.count(total)}: {where} [{self.rule}]"


def layout(trace: Trace, *, stores: bool | None = None, check: bool = True,
           title: str | None = None, min_width: float | None = None,
           metrics: Metrics | str = DESKTOP, label: str = "") -> Diagram:
    """The :class:`Diagram` of *trace*, computed by replaying its events on
    ``trace.before``.

    *stores* shows the end stores (default: for games that have them, i.e.
    Ba-awa, not Bakuk). With *check* (the default) any disagreement between an
    event and the replay, or between the replayed final board and
    ``trace.position``, raises :class:`DiagramError`; without it the
    disagreements are listed in the diagram's ``mismatches`` and the diagram
    shows the replay. *min_width* (panel units) leaves room for the notes;
    make it smaller to set narrow boards side by side. *metrics* (a
    :class:`~.style.Metrics`, or ``"desktop"``/``"phone"``) sets the sizes;
    *label* says what the diagram is of (drawn above its title).
    """
    if not isinstance(trace, Trace):
        raise not_a("trace", trace, "the trace of a move (Position.trace gives one)")
    metrics = metrics_named(metrics)
    min_width = metrics.min_panel_w if min_width is None else min_width
    before = trace.before
    game = before.game
    board = game.board
    name = board.name
    geo = _Geometry.of(game, stores, metrics)
    stores = geo.stores
    words = words_for(game.name)
    replay = _Replay(trace)
    mover = before.to_move

    panels: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    after_sowing = False
    capture_number = 0

    def open_panel(lap: int | None, title_text: str) -> dict[str, Any]:
        panel: dict[str, Any] = {
            "lap": lap, "title": title_text, "start_pits": tuple(replay.pits),
            "start_captured": tuple(replay.captured), "lift": None, "drops": [],
            "captures": [], "notes": [], "slots": {}, "chain": [], "last_pit": None}
        panels.append(panel)
        return panel

    def place(panel: dict[str, Any], pit: int) -> int:
        slot: int = panel["slots"].get(pit, 0)
        panel["slots"][pit] = slot + 1
        panel["chain"].append((pit, slot))
        return slot

    events = trace.events
    for number, event in enumerate(events, start=1):
        if isinstance(event, (PickUp, Relay)):
            lap = len([p for p in panels if p["lap"] is not None]) + 1
            seeds_text = words.count(event.seeds)
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
                                               game.player_name(event.player), words))
            else:
                current["notes"].append(
                    f"{game.player_letter(event.player)}+{seeds}: "
                    f"{game.player_name(event.player)} takes "
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
            what = (f"its {words.count(event.count)} are sown again [{following.rule}]"
                    if isinstance(following, Relay) else "")
            current["notes"].append(f"The last {words.piece} lands in {name(event.pit)}, "
                                    f"which now holds {event.count}"
                                    + (f": {what}" if what else "."))
        elif isinstance(event, EndOfMove):
            after_sowing = True
            if current is None:
                raise DiagramError(f"event {number}: the move ends before it began")
            reason = MOVE_END_REASONS.get(event.reason, event.reason)
            current["notes"].append(f"The move ends: {reason}"
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
    heading = title or _heading(game, mover, name(trace.pit), trace)
    players = game.players
    after_text, before_text = result.to_text(), before.to_text()
    move = name(trace.pit)
    caption = (f"{game.title}, {game.player_name(mover)} plays {move} from {before_text}. "
               f"Result: {after_text}")
    return Diagram(game.name, heading, caption, before_text, after_text, move, mover, players,
                   tuple(built), final_pits, final_captured, tuple(replay.mismatches), stores,
                   metrics, words, label, alt=alt_text(trace),
                   # laid out again for other metrics, at their own width (a min_width
                   # set boards side by side, which a phone's column does not)
                   relayout=lambda other: layout(trace, stores=stores, check=check, title=title,
                                                 metrics=other, label=label))


def _panel(data: dict[str, Any], number: int, geo: _Geometry, board, before, stores: bool,
           repeats: int | None, min_width: float) -> Panel:
    name = board.name
    m = geo.m
    start, end = data["start_pits"], data["end_pits"]
    pits = tuple(PitBox(pit, name(pit), before.owners[pit], *geo.xy(pit), start[pit], end[pit])
                 for pit in range(board.size))
    store_boxes: tuple[StoreBox, ...] = ()
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
    links = tuple(_link(a, b, m) for a, b in zip(marks, marks[1:])
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
    reach = m.lane_0 + (lanes - 1) * m.lane_step + m.mark_r + 0.12
    if not chain:   # no markers: only the pit names outside the rows
        reach = m.pit_h / 2 + m.name_gap + 0.35
    board_low, board_high = -reach, m.y_north + reach
    provisional = Panel(number, data["lap"], data["title"], pits, store_boxes, data["lift"],
                        tuple(data["drops"]), arrows, tuple(marks), tuple(notes), start, end,
                        data["start_captured"], data["end_captured"], data["last_pit"], repeats,
                        (x0, x1, board_low, board_high + m.title_h), metrics=m)
    lines = len(provisional.note_lines())
    title_h = m.title_h if data["title"] else 0.1
    y0 = board_low - m.note_h * lines - 0.15
    return Panel(number, data["lap"], data["title"], pits, store_boxes, data["lift"],
                 tuple(data["drops"]), arrows, tuple(marks), tuple(notes), start, end,
                 data["start_captured"], data["end_captured"], data["last_pit"], repeats,
                 (x0, x1, y0, board_high + title_h), links, m)


def _link(a: CaptureMark, b: CaptureMark, m: Metrics) -> Arrow:
    """An arrow from capture mark *a* to *b* (a capture chain, in its order)."""
    dx, dy = b.x - a.x, b.y - a.y
    if abs(dy) < 1e-9:
        sign = 1 if dx > 0 else -1
        return Arrow(((a.x + sign * m.tag_w / 2, a.y), (b.x - sign * m.tag_w / 2, b.y)), False,
                     b.player)
    sign = 1 if dy > 0 else -1
    return Arrow(((a.x, a.y + sign * m.tag_h / 2), (b.x, b.y - sign * m.tag_h / 2)), False,
                 b.player)


def layout_position(pos, *, stores: bool | None = None, title: str | None = None,
                    metrics: Metrics | str = DESKTOP, label: str = "") -> Diagram:
    """A one-panel :class:`Diagram` of a position, with no move."""
    if not isinstance(pos, Position):
        raise not_a_position("pos", pos)
    metrics = metrics_named(metrics)
    game = pos.game
    board = game.board
    geo = _Geometry.of(game, stores, metrics)
    stores = geo.stores
    text = pos.to_text()
    state = ("game over" if pos.is_over else f"{game.player_name(pos.to_move)} to move")
    heading = title or f"{game.title}: {state}"
    data: dict[str, Any] = {"lap": None, "title": "", "start_pits": pos.pits,
            "end_pits": pos.pits, "start_captured": pos.captured, "end_captured": pos.captured,
            "lift": None, "drops": [], "captures": [], "notes": [], "slots": {}, "chain": [],
            "last_pit": None}
    panel = _panel(data, 1, geo, board, pos, stores, None, metrics.min_panel_w)
    return Diagram(game.name, heading, f"{game.title}: {text}", text, text, None,
                   pos.to_move, game.players, (panel,), pos.pits, pos.captured, (), stores,
                   metrics, words_for(game.name), label,
                   relayout=lambda other: layout_position(pos, stores=stores, title=title,
                                                          metrics=other, label=label))


def _heading(game, mover: int, move: str, trace: Trace) -> str:
    """The title: who plays what, laps and captures, and any option that differs
    from the game's default (so a variant's diagram says it is one)."""
    laps, captures = trace.laps, len(trace.captures)
    text = (f"{game.title}: {game.player_name(mover)} plays {move}"
            f" ({laps} lap{'s' if laps != 1 else ''}, "
            f"{captures} capture{'s' if captures != 1 else ''})")
    changed = option_changes(game)
    return text + (f", {changed}" if changed else "")


def option_changes(game) -> str:
    """The options of *game* that differ from its defaults, as ``name=value`` text
    (``players=3`` aside, which the board already shows)."""
    if not isinstance(game, Game):
        raise not_a("game", game, "a game (get_game gives one)")
    return " ".join(f"{key}={_option_text(value)}" for key, value in game.options.items()
                    if key != "players" and game.option(key).default != value)


def _option_text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)
