"""Positions read from text: one line, fields separated by single spaces.

The format is described in :mod:`mancala_spec.notation`, which also reads and
writes whole-game records; this module is the part the engine needs itself
(``Game.parse``, so ``Position(game, text)``), so the engine does not import the
notation module above it. A position writes itself
(:meth:`Position.to_text <mancala_spec.engine.position.Position.to_text>`).
"""
from __future__ import annotations

import re

from ..errors import NotationError, shown
from .position import Position, Rules, format_pits


def tokens_with_columns(text: str) -> list[tuple[int, str]]:
    """Whitespace-separated tokens with their 1-based starting columns."""
    return [(match.start() + 1, match.group()) for match in re.finditer(r"\S+", text)]


def check_text(text: str, what: str) -> None:
    """Refuse text that is not text: NUL bytes, or characters that stand for
    bytes that were not valid UTF-8 (lone surrogates, as
    ``errors="surrogateescape"`` makes them)."""
    if "\x00" in text:
        raise NotationError(f"{what} must be text, but this holds NUL bytes (binary data?)",
                            text, text.index("\x00") + 1)
    for index, char in enumerate(text):
        if "\ud800" <= char <= "\udfff":
            raise NotationError(f"{what} must be UTF-8 text, but this holds bytes that are not",
                                text, index + 1)


def _parse_pits(game: Rules, token: str, column: int, text: str) -> tuple[int, ...]:
    n = game.board.pits_per_row
    rows = token.split("/")
    if len(rows) != 2:
        raise NotationError(
            f"pits must be two rows separated by '/', like "
            f"{format_pits([game.seeds_per_pit] * 2 * n, n)!r}; found {shown(token)}", text,
            column)
    pits: list[int] = []
    offset = column
    for row_name, row in zip(("South", "North"), rows):
        cells = row.split(",")
        if len(cells) != n:
            raise NotationError(f"{row_name}'s row must have {n} pits, found {len(cells)} "
                                f"in {shown(row)}", text, offset)
        for cell in cells:
            pits.append(_parse_count(game, cell, offset, text, what="a seed count"))
            offset += len(cell) + 1
    return tuple(pits)


def _parse_count(game: Rules, token: str, column: int, text: str, *, what: str) -> int:
    """A count of seeds: digits, and (so that reading stays cheap whatever the
    text) no more of them than the game's total of seeds has."""
    if not token.isdigit() or not token.isascii():
        raise NotationError(f"expected {what}, found {shown(token)}", text, column)
    total = game.total_seeds
    if len(token.lstrip("0")) > len(str(total)):
        raise NotationError(f"{what} is at most {total} ({game.name} is played with {total} "
                            f"seeds), found a {len(token)}-digit number", text, column)
    return int(token.lstrip("0") or "0")     # leading zeros do not count towards int's limit


def _parse_player(game: Rules, token: str, column: int, text: str, *, what: str) -> int:
    letters = game.board.player_letters
    if len(token) != 1 or token not in letters:
        choices = ", ".join(letters[:-1]) + " or " + letters[-1]
        raise NotationError(f"expected {what} ({choices}), found {shown(token)}",
                            text, column)
    return letters.index(token)


def parse_position(game: Rules, text: str, *, allow_unreachable: bool = False) -> Position:
    """The :class:`~mancala_spec.engine.position.Position` of *game* written as *text*.

    Malformed text raises :class:`~mancala_spec.errors.NotationError` naming
    the column; well-formed text of an impossible position raises
    :class:`~mancala_spec.errors.InvalidPositionError` (captured counts play
    cannot reach too, unless *allow_unreachable*).
    """
    if not isinstance(text, str):
        raise NotationError(f"a position is text, not {type(text).__name__}")
    check_text(text, "a position")
    text = text.removeprefix("\ufeff")
    tokens = tokens_with_columns(text)
    if len(tokens) < 3:
        needs = ("a position needs at least pits, the player to move and the captured "
                 f"seeds, like {game.start().to_text()!r}")
        raise NotationError(needs if tokens else f"the position text is empty: {needs}",
                            text, None)
    (c_pits, t_pits), (c_move, t_move), (c_capt, t_capt), *rest = tokens
    pits = _parse_pits(game, t_pits, c_pits, text)
    to_move = _parse_player(game, t_move, c_move, text, what="the player to move")
    parts = t_capt.split("-")
    if len(parts) != game.players or not all(p.isdigit() and p.isascii() for p in parts):
        raise NotationError(f"expected captured seeds as {game.players} counts joined by '-', "
                            f"like '0-0'; found {shown(t_capt)}", text, c_capt)
    captured = tuple(_parse_count(game, p, c_capt, text, what="a captured count") for p in parts)
    fields: dict[str, tuple[int, str]] = {}
    for column, token in rest:
        key, sep, value = token.partition("=")
        if not sep or key not in {"opener", "owners", "seen"}:
            raise NotationError(f"expected opener=, owners= or seen=, found {shown(token)}",
                                text, column)
        if key in fields:
            raise NotationError(f"{key}= is given twice", text, column)
        fields[key] = (column + len(key) + 1, value)
    opener = 0
    if "opener" in fields:
        column, value = fields["opener"]
        opener = _parse_player(game, value, column, text, what="the opener")
    owners = None
    if "owners" in fields:
        column, value = fields["owners"]
        if len(value) != game.board.size:
            raise NotationError(f"owners= needs one letter per pit ({game.board.size}), found "
                                f"{len(value)}", text, column)
        owners = tuple(_parse_player(game, ch, column + i, text, what="an owner")
                       for i, ch in enumerate(value))
    history = []
    if "seen" in fields:
        column, value = fields["seen"]
        for entry in value.split(";"):
            board, sep, player = entry.partition(":")
            if not sep:
                raise NotationError(f"each seen= entry is pits:player, found {shown(entry)}",
                                    text, column)
            history.append((_parse_pits(game, board, column, text),
                            _parse_player(game, player, column + len(board) + 1, text,
                                          what="the player to move")))
            column += len(entry) + 1
    return game.position(pits, to_move=to_move, captured=captured, opener=opener,
                         owners=owners, history=history,
                         allow_unreachable=allow_unreachable)


