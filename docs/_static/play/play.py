"""The Play page's bridge to the engine: runs inside Pyodide (and in CPython for tests).

Everything the page shows is computed here by the real ``mancala_spec`` engine:
the games and their options (from the engine's option declarations), the legal
moves, each move's events with their rule IDs, the score, why the game ended,
and the game record in the project's notation. The JavaScript only draws what
these functions return (as JSON) and sends back clicks.
"""
from __future__ import annotations

import contextlib
import io
import json
import random

import mancala_spec as ms
from mancala_spec.engine.games import GAMES
from mancala_spec.engine.players import PLAYERS
from mancala_spec.engine.trace import Capture, Drop, PickUp, Relay
from mancala_spec.notation import option_value


def _json(value) -> str:
    return json.dumps(value)


def games() -> str:
    """Every game with its options, as the engine declares them."""
    out = []
    for cls in GAMES.values() if isinstance(GAMES, dict) else GAMES:
        out.append({
            "name": cls.name, "title": cls.title,
            "options": [{"name": o.name, "default": o.default, "choices": list(o.choices),
                         "meanings": [getattr(c, "meaning", "") for c in getattr(o, "values", ())],
                         "rule": o.rule, "doc": o.help} for o in cls.OPTIONS],
        })
    return _json(out)


def _pit_index(game, pit) -> int:
    """The index of *pit* (an index or a name) on *game*'s board."""
    return pit if isinstance(pit, int) else game.board.pit(pit)


def make_game(name: str, options_json: str = "{}"):
    options = {k: option_value(v) if isinstance(v, str) else v
               for k, v in json.loads(options_json).items()}
    return ms.get_game(name, **options)


def describe_event(event, board) -> dict:
    return {"kind": event.kind, "rule": event.rule,
            "text": event.describe(board.name, lambda p: board.player_names[p]),
            "pit": getattr(event, "pit", None)}


def steps(game, pos, pit: int) -> list[dict]:
    """The move *pit* from *pos* step by step: each event of the engine's trace,
    with the board (pits and captured seeds) just after it."""
    trace = pos.trace(pit)
    board = game.board
    pits = list(pos.pits)
    captured = list(pos.captured)
    out = []
    for event in trace.events:
        if isinstance(event, (PickUp, Relay)):
            pits[event.pit] = 0
        elif isinstance(event, Drop):
            pits[event.pit] = event.count
        elif isinstance(event, Capture):
            pits[event.pit] -= event.seeds
            captured[event.player] += event.seeds
        step = describe_event(event, board)
        step.update(pits=list(pits), captured=list(captured))
        out.append(step)
    if out:   # the last step shows the position the move reaches, exactly
        out[-1].update(pits=list(trace.position.pits), captured=list(trace.position.captured))
    return out


class Session:
    """One game on the Play page: the start, the moves played, undo, record."""

    def __init__(self) -> None:
        self.rng = random.Random()
        self.new("ba-awa", "{}")

    def new(self, name: str, options_json: str) -> str:
        self.game = make_game(name, options_json)
        self.positions = [self.game.start()]
        self.moves: list[int] = []
        self.last: list[dict] = []
        return self.state()

    @property
    def pos(self):
        return self.positions[-1]

    def play(self, pit_name: str) -> str:
        pit = self.game.board.pit(pit_name)
        before = self.pos
        self.last = steps(self.game, before, pit)
        self.positions.append(before.play(pit))
        self.moves.append(pit)
        return self.state()

    def computer(self, kind: str) -> str:
        """The pit name the built-in player *kind* (random, greedy) would play."""
        return self.game.board.name(PLAYERS[kind](self.pos, self.rng))

    def undo(self, count: int = 1) -> str:
        for _ in range(min(count, len(self.moves))):
            self.positions.pop()
            self.moves.pop()
        self.last = (steps(self.game, self.positions[-2], self.moves[-1])
                     if self.moves else [])
        return self.state()

    def record(self) -> str:
        return ms.format_game(self.positions[0], self.moves)

    def load(self, text: str) -> str:
        """Replay a game record; raises NotationError (one line) if it is not valid."""
        record = ms.parse_game(text)
        self.game = record.game
        self.positions = list(record.positions)
        self.moves = list(record.moves)
        self.last = (steps(self.game, self.positions[-2], self.moves[-1])
                     if self.moves else [])
        return self.state()

    def preview(self, pit_name: str) -> str:
        """The steps of playing *pit_name* now, without playing it."""
        return _json(steps(self.game, self.pos, self.game.board.pit(pit_name)))

    def state(self) -> str:
        game, pos = self.game, self.pos
        board = game.board
        outcome = pos.outcome
        return _json({
            "game": game.name, "title": game.title,
            "options": {k: v for k, v in game.options.items()},
            "position": pos.to_text(),
            "pits_per_row": board.pits_per_row,
            "names": [board.name(p) for p in range(board.size)],
            "players": list(board.player_names),
            "pits": list(pos.pits), "owners": list(pos.owners),
            "captured": list(pos.captured), "to_move": pos.to_move,
            "legal": [board.name(p) for p in pos.legal_moves()],
            "over": pos.is_over, "winner": pos.winner,
            "moves": [board.name(p) for p in self.moves],
            "previous": self.positions[-2].to_text() if self.moves else None,
            "last": self.last,
            "end": None if outcome is None else {**outcome.as_dict(),
                                                 "text": f"game over: {outcome.describe()}"},
            "record": self.record(),
        })


def doctest_sources(code: str) -> list[str]:
    """The source of each ``>>>`` example (with its ``...`` lines) in doctest text."""
    sources: list[list[str]] = []
    current = None
    for line in code.splitlines():
        if line.startswith(">>>"):
            current = [line[4:]]
            sources.append(current)
        elif current is not None and line.startswith("..."):
            current.append(line[4:])
        else:
            current = None
    return ["\n".join(lines) + "\n" for lines in sources]


def call(method, *args) -> str:
    """Call *method*; a bad input comes back as ``{"error": one line}``."""
    try:
        return method(*args)
    except (ms.MancalaError, KeyError) as error:
        return _json({"error": str(error).splitlines()[0] if str(error) else repr(error)})


def example_move(code: str) -> str:
    """Run a rule example's doctest source and return the first move it plays or
    traces, as ``{game, options, position, pit}`` (``null`` if it plays none)."""
    from mancala_spec.engine.position import Position

    seen: list[tuple] = []
    original = {"trace": Position.trace, "play": Position.play}

    class Found(Exception):
        """Stops the example at its first move: that move is all we need."""

    def spy(method):
        def wrapper(self, pit):
            seen.append((self, _pit_index(self.game, pit)))
            original[method](self, pit)      # an illegal move raises here, and is skipped
            raise Found
        return wrapper

    Position.trace, Position.play = spy("trace"), spy("play")
    try:
        namespace: dict = {}
        for source in doctest_sources(code):
            try:
                with contextlib.redirect_stdout(io.StringIO()):   # the example's prints
                    exec(compile(source, "<example>", "exec"), namespace)
            except Found:
                break
            except Exception:      # an example that shows an error: keep going
                seen.clear()
    finally:
        Position.trace, Position.play = original["trace"], original["play"]
    if not seen:
        return _json(None)
    pos, pit = seen[0]
    game = pos.game
    changed = {k: v for k, v in game.options.items() if v != game.option(k).default}
    return _json({"game": game.name, "options": changed, "position": pos.to_text(),
                  "pit": game.board.name(pit)})


def example_steps(name: str, options_json: str, position: str, pit_name: str) -> str:
    """The steps of an example's move under the given options (``{error}`` if the
    move is not legal there)."""
    try:
        game = make_game(name, options_json)
        pos = game.parse(position)
        pit = game.board.pit(pit_name)
        if pit not in pos.legal_moves():
            pos.play(pit)          # raises IllegalMoveError, which says why
        return _json({"steps": steps(game, pos, pit), "before": list(pos.pits),
                      "captured": list(pos.captured), "owners": list(pos.owners),
                      "names": [game.board.name(p) for p in range(game.board.size)],
                      "pits_per_row": game.board.pits_per_row,
                      "players": list(game.board.player_names)})
    except ms.MancalaError as error:
        return _json({"error": str(error)})


session = Session()
