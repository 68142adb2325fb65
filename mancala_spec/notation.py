"""Text forms: pit names, one-line positions, and whole-game records.

**Positions.** One line, fields separated by single spaces::

    4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 opener=S

1. the pits: South's a, b, c… then ``/`` then North's A, B, C… (both in
   sowing order, each from its owner's left);
2. the player to move: ``S`` or ``N``;
3. the captured seeds: South's ``-`` North's;
4. ``opener=S`` or ``opener=N``: who made the game's opening move;
5. optionally ``owners=`` one letter per pit in index order, when pits are
   not owned row by row;
6. optionally ``seen=`` the positions seen since the last capture, oldest
   first, each ``pits:player``, separated by ``;`` (the repetition rules use it).

>>> from mancala_spec import get_game
>>> game = get_game("bakuk")
>>> pos = game.parse("0,7,7/7,7,0 N 4-4 opener=S")
>>> pos.to_move, pos.captured
(1, (4, 4))
>>> game.parse(pos.to_text()) == pos
True

**Game records.** ``key: value`` lines, ``game`` and ``moves`` required::

    game: bakuk
    options: chain=backward
    start: 6,6,6/6,6,6 S 0-0 opener=S
    moves: a B c

Moves are pit names; a player with no legal move is passed over by the
engine, so passes are not written.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .engine.games import get_game
from .engine.text import tokens_with_columns, format_pits, format_position, parse_position
from .errors import (IllegalMoveError, InvalidPositionError, NotationError, OptionError,
                     UnknownGameError)

# -- game records --------------------------------------------------------------


@dataclass(frozen=True)
class GameRecord:
    """A game as played: the game with its options, the start, and the moves."""

    game: Any
    start: Any
    moves: tuple[int, ...]

    @property
    def positions(self) -> tuple:
        """Every position of the game, the start first, the last one reached last."""
        positions = [self.start]
        for pit in self.moves:
            positions.append(positions[-1].play(pit))
        return tuple(positions)

    def to_text(self) -> str:
        """The record in text (see :func:`parse_game`)."""
        return format_game(self.start, self.moves)


def _format_option(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def format_game(start, moves) -> str:
    """The text record of the game that plays *moves* (indices or names) from *start*."""
    game = start.game
    lines = [f"game: {game.name}"]
    changed = {k: v for k, v in game.options.items() if v != game.option(k).default}
    if changed:
        lines.append("options: " + " ".join(f"{k}={_format_option(v)}" for k, v in changed.items()))
    if start != game.start():
        lines.append(f"start: {start.to_text()}")
    names = [game.board.name(game.pit_index(m)) for m in moves]
    lines.append(" ".join(["moves:"] + names))
    return "\n".join(lines) + "\n"


def option_value(raw: str) -> Any:
    """An option value from text: ``true``/``false`` → bool, digits → int,
    anything else stays text (``"stop"``)."""
    if raw.isdigit() and raw.isascii():
        return int(raw)
    return {"true": True, "false": False}.get(raw.lower(), raw)


def parse_game(text: str) -> GameRecord:
    """Read a game record; every move is checked by playing it.

    Raises :class:`~mancala_spec.errors.NotationError` with the line and
    column of the first problem (unknown key, bad option, bad position, a
    move that is not a pit name, or an illegal move).
    """
    fields: dict[str, tuple[int, int, str]] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        raw_key, sep, value = line.partition(":")
        key = raw_key.strip()
        if not sep or key not in {"game", "options", "start", "moves"}:
            raise NotationError("expected 'game:', 'options:', 'start:' or 'moves:'",
                                text, 1, number)
        if key in fields:
            raise NotationError(f"'{key}:' is given twice", text, 1, number)
        # the 1-based column where the value starts, after "key:" and any spaces
        column = len(raw_key) + 2 + (len(value) - len(value.lstrip()))
        fields[key] = (number, column, value.strip())
    for required in ("game", "moves"):
        if required not in fields:
            raise NotationError(f"a game record needs a '{required}:' line", text)
    number, column, name = fields["game"]
    options: dict[str, Any] = {}
    if "options" in fields:
        o_line, o_col, raw = fields["options"]
        for col, token in tokens_with_columns(raw):
            key, sep, value = token.partition("=")
            if not sep:
                raise NotationError(f"options are key=value, found {token!r}", text,
                                    o_col + col - 1, o_line)
            options[key] = option_value(value)
    try:
        game = get_game(name)
    except UnknownGameError as error:
        raise NotationError(str(error), text, column, number) from None
    try:
        game = get_game(name, **options)
    except OptionError as error:
        raise NotationError(str(error), text, None, fields["options"][0]) from None
    start = game.start()
    if "start" in fields:
        s_line, s_col, raw = fields["start"]
        try:
            start = game.parse(raw)
        except NotationError as error:
            inner = (s_col + error.column - 1) if error.column else None
            raise NotationError(error.message, text, inner, s_line) from None
        except InvalidPositionError as error:
            raise NotationError(f"impossible start position: {error}", text, s_col, s_line) from None
    m_line, m_col, raw = fields["moves"]
    moves: list[int] = []
    position = start
    for col, token in tokens_with_columns(raw):
        if re.fullmatch(r"\d+\.", token):
            continue  # optional move numbers
        where = m_col + col - 1
        try:
            pit = game.board.pit(token)
        except NotationError:
            raise NotationError(f"expected a pit name, found {token!r}", text, where,
                                m_line) from None
        try:
            position = position.play(pit)
        except IllegalMoveError as error:
            raise NotationError(f"move {len(moves) + 1} ({token}) is illegal: {error}",
                                text, where, m_line) from None
        moves.append(pit)
    return GameRecord(game, start, tuple(moves))
