"""Text forms: pit names, one-line positions, and whole-game records.

**Positions.** One line, fields separated by single spaces::

    4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 opener=S

1. the pits: South's a, b, c… then ``/`` then North's A, B, C… (both in
   sowing order, each from its owner's left);
2. the player to move: ``S`` or ``N``;
3. the captured seeds: South's ``-`` North's;
4. ``opener=S`` or ``opener=N``: who made the game's opening move. It is
   always written; when it is left out it means South (player 0), the
   conventional opener of both games (rules ``ba-awa-turns``, ``bakuk-turns``),
   a documented default rather than a guess;
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

Moves are pit names; a player with no legal move is passed over by the engine,
so passes are not written. A variation, another move tried in place of the one
before it, is written after that move in parentheses, with the moves that
follow it, and may hold variations of its own (``moves: a B (C b) c``: after
a, North's B is the game, C a variation, and b answers it): a record's
``moves`` are the game (the moves outside every parenthesis), its ``tree``
every line (:class:`GameRecord`). Moves may be numbered, either one by one
(``1. a 2. B 3. c``) or by rounds of turns (``1. a B 2. c``); a number that is
neither is an error. A record may stop anywhere: :attr:`GameRecord.finished`
says whether its moves reach the end of the game, and an optional last line
``result: unfinished`` (or ``draw``, ``South wins``…) states it, checked
against the moves when read (:func:`format_game` writes it with
``result=True``). A byte-order mark at the start is ignored.

A move may carry an annotation mark written right after it (``!`` good,
``?`` a mistake, ``!!``, ``??``, ``!?`` interesting, ``?!`` dubious) and a
comment in braces after it (``moves: a B? {C keeps the seeds} c!``), in a
variation as in the game; :attr:`GameRecord.notes` holds them. A comment is
one line, without braces, of at most 500 characters.

Every count is bounded: a seed count has at most as many digits as the game's
total of seeds, so reading stays cheap whatever the text.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .engine.games import get_game
from .engine.games.match import SETTINGS, Match
from .engine.position import Position, format_pits
from .engine.text import check_text, parse_position, tokens_with_columns
from .errors import (
    IllegalMoveError,
    InvalidPositionError,
    NotationError,
    OptionError,
    UnknownGameError,
    not_a,
    not_a_position,
    shown,
)

__all__ = ["GameRecord", "MoveTree", "format_game", "format_match", "format_moves", "format_pits",
           "format_position", "line_tree", "tree_of", "option_value", "parse_game", "parse_match",
           "parse_position", "result_of"]

#: Option values of more digits than this stay text (and are refused as values).
MAX_OPTION_DIGITS = 6
#: Variations nest at most this deep (reading stays bounded, the tree's recursion too).
MAX_DEPTH = 100

# -- game records --------------------------------------------------------------


#: A line of moves with its variations: each move of the line (a pit), with the
#: lines tried in its place, ``((pit, (MoveTree, ...)), ...)``. Nested only as deep
#: as the variations are (not as long as the game is).
MoveTree = tuple[tuple[int, tuple["MoveTree", ...]], ...]


def line_tree(moves: Sequence[int]) -> MoveTree:
    """The tree of a single line of moves (no variation)."""
    return tuple((pit, ()) for pit in moves)


def format_moves(tree: MoveTree, name: Any, notes: dict[tuple[int, ...], Any] | None = None,
                 path: tuple[int, ...] = ()) -> list[str]:
    """The tokens of *tree*'s moves, each pit written by ``name(pit)``, the
    variations in parentheses after the move they replace; with *notes* (``{moves
    from the start: (mark, comment)}``, :attr:`GameRecord.notes`) each move's."""
    out: list[str] = []
    for pit, variations in tree:
        mark, comment = (notes or {}).get(path + (pit,), ("", ""))
        out.append(name(pit) + mark + (f" {{{comment}}}" if comment else ""))
        for variation in variations:
            out.append("(" + " ".join(format_moves(variation, name, notes, path)) + ")")
        path += (pit,)
    return out


def tree_of(roots: Sequence[Any], children: Any, pit: Any) -> MoveTree:
    """The :data:`MoveTree` of a tree of nodes: *roots* the nodes of the first
    moves (the line's own first), ``children(node)`` a node's continuations
    likewise, ``pit(node)`` its move. Along a line by a loop, into the
    variations by recursion (as deep as they nest)."""
    out = []
    siblings = list(roots)
    while siblings:
        node = siblings[0]
        variations = tuple(tree_of([other], children, pit) for other in siblings[1:])
        out.append((pit(node), variations))
        siblings = list(children(node))
    return tuple(out)


@dataclass(frozen=True)
class GameRecord:
    """A game as played: the game with its options, the start, and the moves;
    with *tree*, also the variations tried (see :data:`MoveTree`; empty for a
    record of a single line, whose tree is its moves)."""

    game: Any
    start: Any
    moves: tuple[int, ...]
    tree: MoveTree = ()
    #: each annotated move's mark and comment, by its moves from the start
    notes: tuple[tuple[tuple[int, ...], str, str], ...] = ()

    def __post_init__(self) -> None:
        if not self.tree:
            object.__setattr__(self, "tree", line_tree(self.moves))

    @property
    def positions(self) -> tuple[Position, ...]:
        """Every position of the game, the start first, the last one reached last."""
        positions = [self.start]
        for pit in self.moves:
            positions.append(positions[-1].play(pit))
        return tuple(positions)

    @property
    def finished(self) -> bool:
        """Whether the moves reach the end of the game (a record may stop
        anywhere: an unfinished record is a game in progress, or a truncated one)."""
        return bool(self.positions[-1].is_over)

    @property
    def result(self) -> str:
        """``"unfinished"``, ``"draw"``, or who won (``"South wins"``), as a
        ``result:`` line writes it."""
        return result_of(self.positions[-1])

    def to_text(self, result: bool = False) -> str:
        """The record in text (see :func:`parse_game`), its variations in
        parentheses; with *result*, ending with a ``result:`` line."""
        text = format_game(self.start, self.moves, result=result)
        if self.tree == line_tree(self.moves) and not self.notes:
            return text
        notes = {path: (mark, comment) for path, mark, comment in self.notes}
        names = format_moves(self.tree, self.game.board.name, notes)
        return re.sub(r"(?m)^moves:.*$", lambda _: " ".join(["moves:", *names]), text, count=1)


def _format_option(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def format_position(pos: Position) -> str:
    """The one-line text of *pos* (:meth:`Position.to_text
    <mancala_spec.engine.position.Position.to_text>`), the notation
    :func:`parse_position` reads."""
    if not isinstance(pos, Position):
        raise not_a_position("pos", pos)
    return pos.to_text()


def result_of(pos: Position) -> str:
    """What a ``result:`` line says of the game that reached *pos*."""
    if not isinstance(pos, Position):
        raise not_a_position("pos", pos)
    if not pos.is_over:
        return "unfinished"
    return "draw" if pos.winner is None else f"{pos.game.player_name(pos.winner)} wins"


def format_game(start: Position, moves: Sequence[int | str], result: bool = False) -> str:
    """The text record of the game that plays *moves* (indices or names) from *start*.

    Every move is played first: an illegal one raises
    :class:`~mancala_spec.errors.IllegalMoveError` (saying which move and why)
    and nothing is written. With *result*, the record ends with a ``result:``
    line (``unfinished``, ``draw``, ``South wins``…).
    """
    from .engine.position import Position as Built

    if type(result) is not bool:
        raise OptionError(f"result must be True or False, not {shown(result)}", option="result",
                          value=result, choices=(False, True))
    if not isinstance(start, Built):
        raise InvalidPositionError(f"the start of a record is a Position, not "
                                   f"{type(start).__name__}", field="start")
    if isinstance(moves, (str, bytes)) or not isinstance(moves, Sequence):
        raise IllegalMoveError(f"the moves of a record are a sequence of pit indices or "
                               f"names, not {type(moves).__name__}", pit=moves,
                               reason="no-such-pit")
    game = start.game
    position = start
    for number, move in enumerate(moves, start=1):
        try:
            position = position.play(move)
        except IllegalMoveError as error:
            raise IllegalMoveError(f"move {number} ({shown(move)}) is illegal: {error}",
                                   pit=error.pit, reason=error.reason) from None
    lines = [f"game: {game.name}"]
    changed = {k: v for k, v in game.options.items() if v != game.option(k).default}
    if changed:
        lines.append("options: " + " ".join(f"{k}={_format_option(v)}" for k, v in changed.items()))
    if start != game.start():
        lines.append(f"start: {start.to_text()}")
    names = [game.board.name(game.pit_index(m)) for m in moves]
    lines.append(" ".join(["moves:"] + names))
    if result:
        lines.append(f"result: {result_of(position)}")
    return "\n".join(lines) + "\n"


def option_value(raw: str) -> Any:
    """An option value from text: ``true``/``false`` → bool, digits → int,
    anything else stays text (``"stop"``)."""
    if not isinstance(raw, str):
        raise not_a("raw", raw, "an option value as text")
    if raw.isdigit() and raw.isascii() and len(raw) <= MAX_OPTION_DIGITS:
        return int(raw)
    return {"true": True, "false": False}.get(raw.lower(), raw)


def parse_game(text: str) -> GameRecord:
    """Read a game record; every move is checked by playing it.

    Raises :class:`~mancala_spec.errors.NotationError` with the line and
    column of the first problem (unknown key, bad option, bad position, a
    move that is not a pit name, a wrong move number, an illegal move, or a
    ``result:`` the moves do not reach). A byte-order mark at the start is
    ignored; NUL bytes or bytes that were not UTF-8 are refused.
    """
    if not isinstance(text, str):
        raise NotationError(f"a game record is text, not {type(text).__name__}")
    check_text(text, "a game record")
    text = text.removeprefix("\ufeff")
    fields: dict[str, tuple[int, int, str]] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        raw_key, sep, value = line.partition(":")
        key = raw_key.strip()
        if not sep or key not in {"game", "options", "start", "moves", "result"}:
            raise NotationError("expected 'game:', 'options:', 'start:', 'moves:' or 'result:'",
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
                raise NotationError(f"options are key=value, found {shown(token)}", text,
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
            raise NotationError(f"impossible start position: {error}", text, s_col,
                                s_line) from None
    m_line, m_col, raw = fields["moves"]
    # a node of the tree being read: [pit, position, ply, children, its moves from the start]
    root: list[Any] = [None, start, 0, [], ()]
    node, before = root, None         # the node reached, and the one before its move
    open_at: list[tuple[list[Any], Any, int]] = []     # each open "(": where it returns, column
    numbered = None     # the column of a move number not yet followed by its move
    notes: dict[tuple[int, ...], list[str]] = {}     # each annotated move's mark, comment
    for match in re.finditer(r"\{[^{}]*\}?|\(|\)|[^\s(){}]+", raw):
        token, where = match.group(), m_col + match.start()
        if token[0] == "{":
            if before is None or numbered is not None or token[-1] != "}" or len(token) > 502:
                raise NotationError("a comment {…} follows a move, is closed, and holds at most "
                                    "500 characters", text, where, m_line)
            notes.setdefault(node[4], ["", ""])[1] = token[1:-1].strip()
            continue
        mark = re.search(r"(!!|\?\?|!\?|\?!|!|\?)$", token) if token not in "()" else None
        if mark and len(token) > len(mark.group()):
            token = token[:-len(mark.group())]
        if token in "()" and numbered is not None:
            raise NotationError("a move number is not followed by its move", text, numbered,
                                m_line)
        if token == "(":
            if before is None:
                raise NotationError("a variation '(' must follow the move it replaces", text,
                                    where, m_line)
            if len(open_at) >= MAX_DEPTH:
                raise NotationError(f"variations nest more than {MAX_DEPTH} deep", text,
                                    where, m_line)
            open_at.append((node, before, where))
            node, before = before, None
            continue
        if token == ")":
            if not open_at:
                raise NotationError("')' closes no variation", text, where, m_line)
            if before is None:
                raise NotationError("an empty variation '()'", text, where, m_line)
            node, before, _ = open_at.pop()
            continue
        ply = node[2] + 1
        if re.fullmatch(r"\d+\.", token):      # an optional move number
            if numbered is not None:
                raise NotationError(f"move number {token} follows another number", text,
                                    where, m_line)
            expected = _move_numbers(ply, game.players)
            if len(token) > 7 or int(token[:-1]) not in expected:
                raise NotationError(
                    f"wrong move number {token}: the next move is move {ply}"
                    + (f" (turn {expected[1]})" if len(expected) > 1 else ""),
                    text, where, m_line)
            numbered = where
            continue
        numbered = None
        try:
            pit = game.board.pit(token)
        except NotationError:
            raise NotationError(f"expected a pit name, found {shown(token)}", text, where,
                                m_line) from None
        child = next((c for c in node[3] if c[0] == pit), None)
        if child is None:
            try:
                position = node[1].play(pit)
            except IllegalMoveError as error:
                raise NotationError(f"move {ply} ({token}) is illegal: {error}",
                                    text, where, m_line) from None
            child = [pit, position, ply, [], node[4] + (pit,)]
            node[3].append(child)
        if mark:
            notes.setdefault(child[4], ["", ""])[0] = mark.group()
        node, before = child, node
    if numbered is not None:
        raise NotationError("a move number ends the record: its move is missing", text,
                            numbered, m_line)
    if open_at:
        raise NotationError("a variation '(' is not closed", text, open_at[-1][2], m_line)
    moves: list[int] = []
    node = root
    while node[3]:
        node = node[3][0]
        moves.append(node[0])
    position = node[1]

    record = GameRecord(game, start, tuple(moves),
                        tree_of(root[3], lambda node: node[3], lambda node: node[0]),
                        tuple((path, mark, comment) for path, (mark, comment) in notes.items()))
    if "result" in fields:
        r_line, r_col, claimed = fields["result"]
        reached = result_of(position)
        if claimed != reached:
            raise NotationError(f"the record says {shown(claimed)} but its moves end with "
                                f"{shown(reached)}", text, r_col, r_line)
    return record


def _move_numbers(move: int, players: int) -> tuple[int, ...]:
    """The numbers that may stand before the *move*-th move: *move* itself
    (moves numbered one by one), and, when it opens a round of turns, the
    round's number (turns numbered, as in ``1. a B 2. c``)."""
    if (move - 1) % players == 0 and move > 1:
        return (move, (move - 1) // players + 1)
    return (move,)

# -- match records -----------------------------------------------------------------------


def format_match(match: Match) -> str:
    """The match record: the game and its options, the match settings, then
    one line per game with its owners, opener and moves (read back by
    :func:`parse_match`)."""
    if not isinstance(match, Match):
        raise InvalidPositionError(f"format_match takes a Match, not {shown(match)}",
                                   field="game")
    game = match.game
    header = format_game(game.start(), ()).splitlines()[:-1]  # game: and options: lines
    lines = header + [f"{setting}: {getattr(match, setting)}" for setting in SETTINGS]
    letter = game.player_letter
    for number, played in enumerate(match.games, start=1):
        owners = "".join(letter(o) for o in played.start.owners)
        moves = ",".join(game.board.name(p) for p in played.moves)
        lines.append(f"game {number}: owners={owners} opener={letter(played.start.opener)} "
                     f"moves={moves}")
    return "\n".join(lines) + "\n"


def parse_match(text: str) -> Match:
    """Read a match record written by :func:`format_match`, replaying every game.

    Raises :class:`~mancala_spec.errors.NotationError` with the line of the
    first problem: a bad setting, an allocation that does not match the pits
    earned, an opener the policy would not choose, or an illegal move.
    """
    if not isinstance(text, str):
        raise NotationError(f"a match record is text, not {type(text).__name__}")
    check_text(text, "a match record")
    header, games = [], []
    for number, line in enumerate(text.splitlines(), start=1):
        if re.match(r"game \d+:", line):
            games.append((number, line))
        elif line.strip():
            header.append((number, line))
    settings = {}
    game_lines = []
    for _number, line in header:
        key, sep, value = line.partition(":")
        if key in SETTINGS:
            settings[key] = value.strip()
        else:
            game_lines.append(line)
    try:
        record = parse_game("\n".join(game_lines + ["moves:"]))
        written = settings.get("target", "12")
        if not (written.isdigit() and written.isascii() and len(written) <= MAX_OPTION_DIGITS):
            raise NotationError(f"target: expected a number of pits, found {written[:20]!r}")
        target = int(written)
        match = Match(record.game, target=target, opener=settings.get("opener", "alternate"),
                      allocation=settings.get("allocation", "extend"),
                      final_take=settings.get("final_take", "counted"))
    except ValueError as error:
        raise NotationError(f"bad match settings: {error}", text, None, 1) from None
    game = match.game
    for index, (number, line) in enumerate(games):
        fields = dict(re.findall(r"(\w+)=(\S*)", line))
        letters = game.board.player_letters
        try:
            for key in ("owners", "opener"):
                wrong = [ch for ch in fields[key] if ch not in letters]
                if wrong or not fields[key] or (key == "opener" and len(fields[key]) != 1):
                    allowed = ", ".join(letters[:-1]) + " or " + letters[-1]
                    raise NotationError(f"{key}={fields[key][:20]!r}: expected "
                                        f"{'one letter per pit' if key == 'owners' else 'one'}"
                                        f" of {allowed}")
            owners = [letters.index(ch) for ch in fields["owners"]]
            opener = letters.index(fields["opener"])
            if index:
                match = match.next_game(owners=owners)
            elif owners != list(match.position.owners):
                raise InvalidPositionError(
                    "the first game starts with each player on their own pits")
            if match.position.opener != opener:
                raise InvalidPositionError(
                    f"the opener policy {shown(match.opener)} gives the opening move to "
                    f"{game.player_name(match.position.opener)}")
            for name in filter(None, fields.get("moves", "").split(",")):
                match = match.play(name)
        except (KeyError, ValueError) as error:
            message = f"missing {error}" if isinstance(error, KeyError) else str(error)
            raise NotationError(f"game {index + 1}: {message}", text, None, number) from None
    return match
