"""What every game's kernel shares: states, conversion to and from positions, results.

A state is a plain tuple ``(pits, to_move, captured, history, moves)``: the
fields of a :class:`~mancala_spec.engine.position.Position` that change during
play (``history`` holds the positions seen since the last capture, each a
``(pits, to_move)`` pair), and the legal moves, worked out once when the state
is made and empty once the game is over. Plain tuples, because making one costs
a fraction of making an object with named fields. The opener and the pit owners
never change during a game, so they belong to the :class:`FastGame`.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from operator import itemgetter
from typing import TYPE_CHECKING, Any, ClassVar

from ..engine.outcome import Outcome, Reason
from ..errors import IllegalMoveError, InvalidPositionError, UnknownGameError, shown
from ..options import check_kernel_options
from .tables import NextTable, Pits, sowing_next

if TYPE_CHECKING:
    from ..engine.games.base import Game
    from ..engine.position import Position

Key = tuple[Pits, int]
Counts = tuple[int, ...]    # one per player
History = tuple[Key, ...]
Moves = tuple[int, ...]
#: ``(pits, to_move, captured, history, moves)``, as the module docstring says
State = tuple[Pits, int, Counts, History, Moves]

PITS, TO_MOVE, CAPTURED, HISTORY, MOVES = range(5)   # the fields of a state, by index


class Ending(tuple):  # type: ignore[type-arg]
    """The moves field of a finished state: no legal moves (an empty tuple,
    so ``not moves`` and ``pit in moves`` read as before, and two finished
    states of the same position are equal whatever their endings), and why the game
    ended: *reason* and *rule*, the vocabulary of the reference engine's end of
    game (:data:`~mancala_spec.engine.trace.GAME_END_REASONS` and the rule that
    ends it, e.g. ``("eight-seeds", "ba-awa-eight")``). Each game's kernel
    makes its few endings once; :meth:`FastGame.outcome` reads them.

    >>> ending = Ending("repetition", "bakuk-repetition")
    >>> ending == (), bool(ending), ending.rule
    (True, False, 'bakuk-repetition')
    """

    reason: Reason
    rule: str

    def __new__(cls, reason: Reason, rule: str) -> Ending:
        self = super().__new__(cls)
        self.reason, self.rule = reason, rule
        return self

    def __reduce__(self) -> tuple[type[Ending], tuple[Reason, str]]:
        return (Ending, (self.reason, self.rule))

    def __repr__(self) -> str:
        return f"Ending({self.reason!r}, {self.rule!r})"


class FastGame:
    """Fast play of *game* (a :class:`~mancala_spec.engine.games.base.Game` with its options).

    ``FastGame(game)`` returns the subclass for the game's rules
    (:class:`~mancala_spec.fast.ba_awa.FastBaAwa` or
    :class:`~mancala_spec.fast.bakuk.FastBakuk`). *opener* and *owners* are
    those of the positions played (by default South opens and the pits are
    owned as at the start of a game: each player's row, or with three players
    equal blocks).
    """

    #: the kernel of each game, by the game's name (filled by the subclasses)
    kernels: ClassVar[dict[str, type[FastGame]]] = {}
    game_name: ClassVar[str] = ""
    #: a kernel that remembers the positions it meets across games (Ba-awa's)
    #: remembers those with more seeds than this on the board; -1: every one
    remember_above: int = -1

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.game_name:
            FastGame.kernels[cls.game_name] = cls

    def __new__(cls, game: Game, opener: int = 0,
                owners: Sequence[int] | None = None) -> FastGame:
        if cls is FastGame:
            cls = kernel_of(game)
        return super().__new__(cls)

    def __init__(self, game: Game, opener: int = 0,
                 owners: Sequence[int] | None = None) -> None:
        kernel_of(game)
        check_kernel_options(game.name, game.options)   # other readings: the reference only
        size = game.board.size
        self.game = game
        self.size = size
        self.players = players = game.players
        self.opener = checked_player(opener, players, "opener", field="opener")
        if owners is None:
            owners = game.board.default_owners
        self.owners: tuple[int, ...] = tuple(
            checked_player(owner, players, f"owners[{pit}]", field="owners")
            for pit, owner in enumerate(checked_sequence(owners, size, "owners", items="players")))
        #: the pits each player owns, in index order
        self.owned = tuple(tuple(p for p in range(size) if self.owners[p] == player)
                           for player in range(players))
        # ba-awa-turns, ba-awa-three-turns, bakuk-turns, bakuk-three-turns: who may
        # move after each player, the next first and the mover last
        self.turns = tuple(tuple(game.turn_order(mover, self.owners))
                           for mover in range(players))
        self.next_turn = tuple(turns[0] for turns in self.turns)
        self.nobody: Counts = (0,) * players
        #: ``sow_next[origin][pit]``: the pit after *pit* in a lap lifted from
        #: *origin* (``ba-awa-origin``, ``bakuk-origin``: skip_origin passes over it)
        self.sow_next: NextTable = sowing_next(size, bool(game.options["skip_origin"]))
        self._start: State | None = None

    def __repr__(self) -> str:
        return f"FastGame({self.game!r}, opener={self.opener}, owners={self.owners})"

    @classmethod
    def for_position(cls, pos: Position) -> tuple[FastGame, State]:
        """The fast game of *pos* (its game, opener and owners), and *pos* as a state."""
        from ..engine.games.base import Game  # noqa: PLC0415  (the game a position holds)

        game = getattr(pos, "game", None)
        if not isinstance(game, Game) or not all(hasattr(pos, name) for name in ("opener",
                                                                                 "owners")):
            raise InvalidPositionError(f"for_position takes a Position, not {shown(pos)}",
                                       field="game")
        fast = cls(game, opener=pos.opener, owners=pos.owners)
        return fast, fast.from_position(pos)

    # -- states and positions ---------------------------------------------------

    def state(self, pits: Iterable[int], to_move: int, captured: Iterable[int] | None = None,
              history: Iterable[tuple[Iterable[int], int]] = ()) -> State:
        """A state, its legal moves worked out. Only the shape, the types and
        the number of seeds are checked (:class:`~mancala_spec.errors.InvalidPositionError`
        naming the field): at most the game's seeds on the board and captured
        (the kernel's tables hold laps of at most that many; fewer, as in an
        endgame studied alone, are played), and in each position of *history*.
        Whether the rules can reach it (its captured counts too),
        :meth:`to_position` checks."""
        size, players, total = self.size, self.players, self.game.total_seeds
        board = checked_counts(pits, size, "pits", field="pits")
        counts = self.nobody if captured is None else checked_counts(
            captured, players, "captured", field="captured")
        to_move = checked_player(to_move, players, "to_move", field="to_move")
        if sum(board) + sum(counts) > total:
            field = "pits" if sum(board) > total else "captured"
            raise InvalidPositionError(
                f"{sum(board)} seeds on the board + {sum(counts)} captured is more than the "
                f"{total} seeds {self.game.name} is played with", field=field)
        seen = []
        for number, entry in enumerate(checked_sequence(history, None, "history", items="entries"),
                                       start=1):
            what = f"history entry {number}"
            entry = checked_sequence(entry, 2, what, items="items: (pits, player)", field="history")
            seen.append((checked_counts(entry[0], size, what, field="history"),
                         checked_player(entry[1], players, what, field="history")))
            if sum(seen[-1][0]) > total:
                raise InvalidPositionError(
                    f"{what} has {sum(seen[-1][0])} seeds on the board, more than the {total} "
                    f"seeds {self.game.name} is played with", field="history")
        return (board, to_move, counts, tuple(seen),
                self.derive_moves(board, to_move, tuple(seen)))

    def start(self) -> State:
        """The opening position: the game's seeds in every pit, nothing captured
        (``ba-awa-setup``, ``bakuk-setup``). The same state each time (states
        are immutable), made once until :meth:`forget`."""
        start = self._start
        if start is None:
            start = self._start = self.state((self.game.seeds_per_pit,) * self.size,
                                             self.opener)
        return start

    def from_position(self, pos: Position) -> State:
        """*pos* as a state; its game, opener and owners must be this fast game's."""
        if not all(hasattr(pos, name) for name in ("game", "pits", "captured", "history")):
            raise InvalidPositionError(f"from_position takes a Position, not {shown(pos)}",
                                       field="game")
        if pos.game != self.game or pos.opener != self.opener or pos.owners != self.owners:
            raise InvalidPositionError("this position's game, opener or owners differ from this "
                                       "fast game's: use FastGame.for_position(pos)",
                                       field="game")
        return self.state(pos.pits, pos.to_move, pos.captured, history=pos.history)

    def to_position(self, state: State, *, allow_unreachable: bool = False) -> Position:
        """The :class:`~mancala_spec.engine.position.Position` of *state*, checked as
        :meth:`Game.position <mancala_spec.engine.games.base.Game.position>`
        checks it (*allow_unreachable* as there: a state played on from a
        position built with it needs it too)."""
        pits, to_move, captured, history, _ = checked_state(state)
        return self.game.position(pits, to_move=to_move, captured=captured,
                                  opener=self.opener, owners=self.owners, history=history,
                                  allow_unreachable=allow_unreachable)

    # -- reading ----------------------------------------------------------------

    def is_over(self, state: State) -> bool:
        """Whether the game has ended (then there is no legal move, and only then)."""
        try:                          # (costs nothing unless it fails: called every move)
            return not state[MOVES]
        except (TypeError, IndexError, KeyError):
            return not checked_state(state)[MOVES]

    #: ``legal_moves(state)``: the pits the player to move may play, sorted;
    #: empty once the game is over. (The state's own field: a C-level getter,
    #: as playouts call it once a move.)
    legal_moves = staticmethod(itemgetter(MOVES))

    def outcome(self, state: State) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on: the reference
        engine's :class:`~mancala_spec.engine.outcome.Outcome` (reason, rule,
        winner), the same value as ``pos.outcome`` of the same position."""
        _, _, captured, _, moves = checked_state(state)
        if moves:
            return None
        assert isinstance(moves, Ending), "every game's kernel ends its states with an Ending"
        return Outcome(moves.reason, moves.rule, winner_of(captured))

    def winner(self, state: State) -> int | None:
        """The player with strictly the most captured seeds once the game is over,
        else ``None`` (``ba-awa-winner``, ``bakuk-winner``, ``bakuk-draw``)."""
        pits, to_move, captured, history, moves = checked_state(state)
        return None if moves else winner_of(captured)

    def forget(self) -> None:
        """Forget what was remembered of the positions met: the opening state
        here; the games' kernels remember sowings or legal moves too."""
        self._start = None

    # -- what each game supplies -------------------------------------------------

    def derive_moves(self, pits: Pits, to_move: int, history: History) -> Moves:
        """The legal moves of a position (empty if the game is over)."""
        raise NotImplementedError

    def play(self, state: State, pit: int) -> State:
        """The state after the player to move plays *pit* (an index). Raises
        :class:`~mancala_spec.errors.IllegalMoveError` as the traced engine does."""
        raise NotImplementedError

    #: each game's steps on many games at once, by the game's name: filled by
    #: the module that defines them (:mod:`mancala_spec.fast.ba_awa.many`, which
    #: the one-game kernel it builds on cannot import back)
    many_steps: ClassVar[dict[str, Callable[[Game], Any]]] = {}

    @classmethod
    def many(cls, game: Game) -> Any:
        """The game's steps on many games at once (numpy needed), for
        :func:`~mancala_spec.fast.batch.playouts`."""
        steps = FastGame.many_steps.get(game.name)
        if steps is None:
            raise UnknownGameError(f"no many-games steps for {shown(game)}",
                                   name=getattr(game, "name", game),
                                   known=tuple(FastGame.many_steps))
        return steps(game)

    def illegal(self, state: State, pit: object) -> IllegalMoveError:
        """The error the traced engine gives for this move (its message says why)."""
        if isinstance(pit, str):
            return IllegalMoveError(f"the fast path takes pit indices, not names like {shown(pit)}",
                                    pit=pit, reason="no-such-pit")
        if type(pit) is not int:      # 0.0, True, 0j equal a pit index, but are none
            return IllegalMoveError(f"the fast path takes pit indices (whole numbers), not "
                                    f"{shown(pit)}", pit=pit, reason="no-such-pit")
        try:
            # (any state the kernel plays: why a move is illegal, not how it got here)
            self.to_position(state, allow_unreachable=True).play(pit)
        except IllegalMoveError as error:
            return error
        return IllegalMoveError(f"{shown(pit)} is not a legal move here")  # pragma: no cover


def kernel_of(game: object) -> type[FastGame]:
    """The kernel class of *game*; raises
    :class:`~mancala_spec.errors.UnknownGameError` if *game* is not a game
    (an instance) that the kernel plays."""
    name = getattr(game, "name", None)
    kernel = FastGame.kernels.get(name) if isinstance(name, str) else None
    if kernel is None or isinstance(game, type) or not hasattr(game, "options"):
        raise UnknownGameError(f"the fast kernel plays a game of "
                               f"{', '.join(sorted(FastGame.kernels))} (from get_game), "
                               f"not {shown(game)}", name=game, known=sorted(FastGame.kernels))
    return kernel


def checked_sequence(values: Any, length: int | None, what: str, items: str,
                     field: str | None = None) -> Sequence[Any]:
    """*values*, if it is a sequence (not text) of *length* items (any length
    for ``None``); else :class:`~mancala_spec.errors.InvalidPositionError`
    naming *field* (by default *what*)."""
    field = field or what
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
        raise InvalidPositionError(f"{what} must be a sequence of {items}, not "
                                   f"{type(values).__name__}", field=field)
    if length is not None and len(values) != length:
        raise InvalidPositionError(f"{what} must have {length} {items}, not {len(values)}",
                                   field=field)
    return values


def checked_counts(values: Any, length: int, what: str, field: str) -> Pits:
    """*values* as a tuple of *length* seed counts (whole numbers, not
    negative), else :class:`~mancala_spec.errors.InvalidPositionError` naming *field*."""
    values = checked_sequence(values, length, what, items="seed counts", field=field)
    for index, value in enumerate(values):
        if type(value) is not int or value < 0:
            raise InvalidPositionError(f"{what}[{index}] must be a whole number of at least 0, "
                                       f"not {shown(value)}", field=field)
    return tuple(values)


def checked_player(value: Any, players: int, what: str, field: str) -> int:
    """*value*, if it is a player index (``0`` to ``players - 1``), else
    :class:`~mancala_spec.errors.InvalidPositionError` naming *field*."""
    if type(value) is not int or not 0 <= value < players:
        raise InvalidPositionError(f"{what} must be a player index from 0 to {players - 1}, "
                                   f"not {shown(value)}", field=field)
    return value


def checked_state(state: Any) -> State:
    """*state*, if it has a state's shape (a 5-tuple whose moves are a tuple);
    else :class:`~mancala_spec.errors.InvalidPositionError` (``field="state"``).
    A state is made by a fast game (:meth:`FastGame.start`, :meth:`FastGame.state`,
    :meth:`FastGame.play`); its contents are not checked again."""
    if type(state) is not tuple or len(state) != 5 or not isinstance(state[MOVES], tuple):
        raise InvalidPositionError(f"a state is the 5-tuple (pits, to_move, captured, history, "
                                   f"moves) a fast game makes, not {shown(state)}",
                                   field="state")
    return state


#: the most pits :func:`~mancala_spec.fast.ba_awa.sow` takes (its sowing order
#: is a table of size × size)
MOST_PITS = 120


def sow_arguments(pits: Any, pit: Any, mover: Any, step: Any, owners: Any, players: Any,
                  most_seeds: int) -> tuple[Pits, int, int]:
    """:func:`~mancala_spec.fast.ba_awa.sow`'s arguments, checked (an
    :class:`~mancala_spec.errors.InvalidPositionError` naming the one at fault)."""
    if type(players) is not int or not 1 <= players <= 12:
        raise InvalidPositionError(f"players must be a whole number from 1 to 12, not "
                                   f"{shown(players)}", field="players")
    length = len(pits) if isinstance(pits, Sequence) and 0 < len(pits) <= MOST_PITS else 0
    pits = checked_counts(pits, length, "pits", field="pits")
    size = len(pits)
    if (not isinstance(step, tuple) or len(step) != size
            or step not in (sowing_next(size, False), sowing_next(size, True))):
        raise InvalidPositionError(f"step must be the sowing order of {size} pits "
                                   "(mancala_spec.fast.tables.sowing_next)", field="step")
    owners = checked_sequence(owners, size, "owners", items="players")
    for index, owner in enumerate(owners):
        checked_player(owner, players, f"owners[{index}]", field="owners")
    seeds = sum(pits)
    if seeds > most_seeds * size:       # its lap tables would be too large
        raise InvalidPositionError(f"{seeds} seeds on {size} pits: the kernel's sowing "
                                   f"takes at most {most_seeds} a pit on average",
                                   field="pits")
    return (pits, checked_player(pit, size, "pit", field="pit"),
            checked_player(mover, players, "mover", field="mover"))


def winner_of(captured: Counts) -> int | None:
    """The player with strictly the most seeds in *captured*, else ``None``."""
    best = max(captured)
    return captured.index(best) if captured.count(best) == 1 else None
