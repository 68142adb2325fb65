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

from collections.abc import Iterable, Sequence
from operator import itemgetter
from typing import TYPE_CHECKING, Any, ClassVar

from ..engine.outcome import Outcome, Reason
from ..errors import IllegalMoveError, InvalidPositionError
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

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.game_name:
            FastGame.kernels[cls.game_name] = cls

    def __new__(cls, game: Game, opener: int = 0,
                owners: Sequence[int] | None = None) -> FastGame:
        if cls is FastGame:
            kernel = FastGame.kernels.get(getattr(game, "name", None) or "")
            if kernel is None:
                raise TypeError(f"no fast path for {game!r}")
            cls = kernel
        return super().__new__(cls)

    def __init__(self, game: Game, opener: int = 0,
                 owners: Sequence[int] | None = None) -> None:
        check_kernel_options(game.name, game.options)   # other readings: the reference only
        size = game.board.size
        self.game = game
        self.size = size
        self.players = players = game.players
        self.opener = opener
        self.owners: tuple[int, ...] = tuple(game.board.default_owners if owners is None
                                             else owners)
        if (len(self.owners) != size or not set(self.owners) <= set(range(players))
                or opener not in range(players)):
            raise InvalidPositionError(f"opener and owners must be players 0 to {players - 1}, "
                                       f"and owners must list {size} of them")
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

    def __repr__(self) -> str:
        return f"FastGame({self.game!r}, opener={self.opener}, owners={self.owners})"

    @classmethod
    def for_position(cls, pos: Position) -> tuple[FastGame, State]:
        """The fast game of *pos* (its game, opener and owners), and *pos* as a state."""
        fast = cls(pos.game, opener=pos.opener, owners=pos.owners)
        return fast, fast.from_position(pos)

    # -- states and positions ---------------------------------------------------

    def state(self, pits: Iterable[int], to_move: int, captured: Iterable[int] | None = None,
              history: Iterable[tuple[Iterable[int], int]] = ()) -> State:
        """A state, its legal moves worked out (nothing else is checked: see
        :meth:`to_position` for that)."""
        board = tuple(pits)
        counts = self.nobody if captured is None else tuple(captured)
        seen = tuple((tuple(p), player) for p, player in history)
        return (board, to_move, counts, seen, self.derive_moves(board, to_move, seen))

    def start(self) -> State:
        """The opening position: the game's seeds in every pit, nothing captured
        (``ba-awa-setup``, ``bakuk-setup``)."""
        return self.state((self.game.seeds_per_pit,) * self.size, self.opener)

    def from_position(self, pos: Position) -> State:
        """*pos* as a state; its game, opener and owners must be this fast game's."""
        if pos.game != self.game or pos.opener != self.opener or pos.owners != self.owners:
            raise ValueError("this position's game, opener or owners differ from this fast "
                             "game's: use FastGame.for_position(pos)")
        return self.state(pos.pits, pos.to_move, pos.captured, pos.history)

    def to_position(self, state: State) -> Position:
        """The :class:`~mancala_spec.engine.position.Position` of *state*, checked as usual."""
        pits, to_move, captured, history, _ = state
        return self.game.position(pits, to_move=to_move, captured=captured,
                                  opener=self.opener, owners=self.owners, history=history)

    # -- reading ----------------------------------------------------------------

    def is_over(self, state: State) -> bool:
        """Whether the game has ended (then there is no legal move, and only then)."""
        return not state[MOVES]

    #: ``legal_moves(state)``: the pits the player to move may play, sorted;
    #: empty once the game is over. (The state's own field: a C-level getter,
    #: as playouts call it once a move.)
    legal_moves = staticmethod(itemgetter(MOVES))

    def outcome(self, state: State) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on: the reference
        engine's :class:`~mancala_spec.engine.outcome.Outcome` (reason, rule,
        winner), the same value as ``pos.outcome`` of the same position."""
        _, _, captured, _, moves = state
        if moves:
            return None
        assert isinstance(moves, Ending), "every game's kernel ends its states with an Ending"
        return Outcome(moves.reason, moves.rule, winner_of(captured))

    def winner(self, state: State) -> int | None:
        """The player with strictly the most captured seeds once the game is over,
        else ``None`` (``ba-awa-winner``, ``bakuk-winner``, ``bakuk-draw``)."""
        pits, to_move, captured, history, moves = state
        return None if moves else winner_of(captured)

    def forget(self) -> None:
        """Forget what was remembered of the positions met (nothing here; the
        games' kernels remember sowings or legal moves)."""

    # -- what each game supplies -------------------------------------------------

    def derive_moves(self, pits: Pits, to_move: int, history: History) -> Moves:
        """The legal moves of a position (empty if the game is over)."""
        raise NotImplementedError

    def play(self, state: State, pit: int) -> State:
        """The state after the player to move plays *pit* (an index). Raises
        :class:`~mancala_spec.errors.IllegalMoveError` as the traced engine does."""
        raise NotImplementedError

    @staticmethod
    def many(game: Game) -> Any:
        """The game's steps on many games at once (numpy needed), for
        :func:`~mancala_spec.fast.batch.playouts`."""
        raise TypeError(f"no many-games steps for {game!r}")

    def illegal(self, state: State, pit: object) -> IllegalMoveError:
        """The error the traced engine gives for this move (its message says why)."""
        if isinstance(pit, str):
            return IllegalMoveError(f"the fast path takes pit indices, not names like {pit!r}")
        try:
            self.to_position(state).play(pit)  # type: ignore[arg-type]
        except IllegalMoveError as error:
            return error
        return IllegalMoveError(f"{pit!r} is not a legal move here")  # pragma: no cover


def winner_of(captured: Counts) -> int | None:
    """The player with strictly the most seeds in *captured*, else ``None``."""
    best = max(captured)
    return captured.index(best) if captured.count(best) == 1 else None
