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

from .errors import (IllegalMoveError, InvalidPositionError, NotationError, OptionError,
                     UnknownGameError)

# -- positions -----------------------------------------------------------------


def format_pits(pits, pits_per_row: int) -> str:
    """``"a,b,c/A,B,C"``: South's row, then North's, each in sowing order."""
    south = ",".join(map(str, pits[:pits_per_row]))
    north = ",".join(map(str, pits[pits_per_row:]))
    return f"{south}/{north}"


def format_position(pos) -> str:
    """The one-line text of *pos* (see the module docstring)."""
    game = pos.game
    n = game.board.pits_per_row
    letter = game.player_letter
    fields = [format_pits(pos.pits, n), letter(pos.to_move),
              "-".join(map(str, pos.captured)), f"opener={letter(pos.opener)}"]
    if pos.owners != game.board.default_owners:
        fields.append("owners=" + "".join(letter(owner) for owner in pos.owners))
    if pos.history:
        fields.append("seen=" + ";".join(f"{format_pits(pits, n)}:{letter(player)}"
                                         for pits, player in pos.history))
    return " ".join(fields)


def _tokens(text: str) -> list[tuple[int, str]]:
    """Whitespace-separated tokens with their 1-based starting columns."""
    return [(match.start() + 1, match.group()) for match in re.finditer(r"\S+", text)]


def _parse_pits(game, token: str, column: int, text: str) -> tuple[int, ...]:
    n = game.board.pits_per_row
    rows = token.split("/")
    if len(rows) != 2:
        raise NotationError(
            f"pits must be two rows separated by '/', like "
            f"{format_pits([game.seeds_per_pit] * 2 * n, n)!r}; found {token!r}", text, column)
    pits: list[int] = []
    offset = column
    for row_name, row in zip(("South", "North"), rows):
        cells = row.split(",")
        if len(cells) != n:
            raise NotationError(f"{row_name}'s row must have {n} pits, found {len(cells)} "
                                f"in {row!r}", text, offset)
        for cell in cells:
            if not cell.isdigit() or not cell.isascii():
                raise NotationError(f"expected a seed count, found {cell!r}", text, offset)
            pits.append(int(cell))
            offset += len(cell) + 1
    return tuple(pits)


def _parse_player(game, token: str, column: int, text: str, what: str) -> int:
    letters = game.board.player_letters
    if len(token) != 1 or token not in letters:
        choices = ", ".join(letters[:-1]) + " or " + letters[-1]
        raise NotationError(f"expected {what} ({choices}), found {token!r}",
                            text, column)
    return letters.index(token)


def parse_position(game, text: str):
    """The :class:`~mancala_spec.engine.position.Position` of *game* written as *text*.

    Malformed text raises :class:`~mancala_spec.errors.NotationError` naming
    the column; well-formed text of an impossible position raises
    :class:`~mancala_spec.errors.InvalidPositionError`.
    """
    if not isinstance(text, str):
        raise NotationError(f"a position is text, not {type(text).__name__}")
    tokens = _tokens(text)
    if len(tokens) < 3:
        raise NotationError("a position needs at least pits, the player to move and the "
                            "captured seeds, like '4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 opener=S'",
                            text, None)
    (c_pits, t_pits), (c_move, t_move), (c_capt, t_capt), *rest = tokens
    pits = _parse_pits(game, t_pits, c_pits, text)
    to_move = _parse_player(game, t_move, c_move, text, "the player to move")
    parts = t_capt.split("-")
    if len(parts) != game.players or not all(p.isdigit() and p.isascii() for p in parts):
        raise NotationError(f"expected captured seeds as {game.players} counts joined by '-', "
                            f"like '0-0'; found {t_capt!r}", text, c_capt)
    captured = tuple(int(p) for p in parts)
    fields: dict[str, tuple[int, str]] = {}
    for column, token in rest:
        key, sep, value = token.partition("=")
        if not sep or key not in {"opener", "owners", "seen"}:
            raise NotationError(f"expected opener=, owners= or seen=, found {token!r}",
                                text, column)
        if key in fields:
            raise NotationError(f"{key}= is given twice", text, column)
        fields[key] = (column + len(key) + 1, value)
    opener = 0
    if "opener" in fields:
        column, value = fields["opener"]
        opener = _parse_player(game, value, column, text, "the opener")
    owners = None
    if "owners" in fields:
        column, value = fields["owners"]
        if len(value) != game.board.size:
            raise NotationError(f"owners= needs one letter per pit ({game.board.size}), found "
                                f"{len(value)}", text, column)
        owners = tuple(_parse_player(game, ch, column + i, text, "an owner")
                       for i, ch in enumerate(value))
    history = []
    if "seen" in fields:
        column, value = fields["seen"]
        for entry in value.split(";"):
            board, sep, player = entry.partition(":")
            if not sep:
                raise NotationError(f"each seen= entry is pits:player, found {entry!r}",
                                    text, column)
            history.append((_parse_pits(game, board, column, text),
                            _parse_player(game, player, column + len(board) + 1, text,
                                          "the player to move")))
            column += len(entry) + 1
    return game.position(pits, to_move=to_move, captured=captured, opener=opener,
                         owners=owners, history=history)


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
    names = [game.board.name(start._pit_index(m)) for m in moves]
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
    from .engine.games import get_game

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
        for col, token in _tokens(raw):
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
            raise NotationError(str(error).split(": ", 1)[-1], text, inner, s_line) from None
        except InvalidPositionError as error:
            raise NotationError(f"impossible start position: {error}", text, s_col, s_line) from None
    m_line, m_col, raw = fields["moves"]
    moves: list[int] = []
    position = start
    for col, token in _tokens(raw):
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
