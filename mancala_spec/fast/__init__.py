"""Fast play: the same rules as the traced engine, on plain tuples, without events.

The traced engine (:meth:`Position.trace <mancala_spec.engine.position.Position.trace>`)
is the reference: every step of a move is an event naming its rule. This module
plays the *same* rules, with every option, for programs that play many moves
and need no account of them: random playouts, benchmarks, searches. A test
(``tests/test_fast.py``) plays many random games through both, under every
combination of options, and compares every position.

A state is a plain tuple ``(pits, to_move, captured, history, moves)``: the
fields of a :class:`~mancala_spec.engine.position.Position` that change during play
(``history`` holds the positions seen since the last capture, each a
``(pits, to_move)`` pair), and the legal moves, worked out once when the state
is made and empty once the game is over. Plain tuples, because making one costs
a fraction of making an object with named fields. The opener and the pit owners
never change during a game, so they belong to the :class:`FastGame`. Two or
three players, as the ``players`` option says.

>>> import mancala_spec as ms
>>> from mancala_spec.fast import FastGame
>>> fast = FastGame(ms.get_game("bakuk"))
>>> state = fast.play(fast.start(), 2)   # South sows c: A, B, C, a, b, and c again
>>> pits, to_move, captured, history, moves = state
>>> pits, to_move, moves
((7, 7, 1, 7, 7, 7), 1, (3, 4, 5))
>>> fast.to_position(state) == ms.get_game("bakuk").start().play("c")
True

Each step below is commented with the catalogue rule it implements; the traced
engine (``mancala_spec.engine.games``) declares the same rules with ``@implements``,
and the rules site cites them. Nothing here decides a rule differently; what
differs is bookkeeping: nothing is recorded, a Ba-awa sowing is worked out once
and reused (by the pass check after the previous move, the legality check and
the move itself), and a Bakuk lap is applied as a whole (see
:attr:`FastBakuk.lap`).
"""
from __future__ import annotations

from operator import add, itemgetter

from ..errors import IllegalMoveError, InvalidPositionError
from ..engine.games.ba_awa import EIGHT, FOUR, BaAwa
from ..engine.games.base import Game
from ..engine.games.bakuk import CAPTURING_COUNTS, Bakuk

Pits = tuple[int, ...]
Key = tuple[Pits, int]
Counts = tuple[int, ...]    # one per player
#: ``(pits, to_move, captured, history, moves)``, as the module docstring says
State = tuple

PITS, TO_MOVE, CAPTURED, HISTORY, MOVES = range(5)   # the fields of a state, by index


class FastGame:
    """Fast play of *game* (a :class:`~mancala_spec.engine.games.base.Game` with its options).

    ``FastGame(game)`` returns the subclass for the game's rules
    (:class:`FastBaAwa` or :class:`FastBakuk`). *opener* and *owners* are those
    of the positions played (by default South opens and the pits are owned as
    at the start of a game: each player's row, or with three players equal
    blocks).
    """

    def __new__(cls, game: Game, opener: int = 0, owners=None):
        if cls is FastGame:
            if isinstance(game, BaAwa):
                cls = FastBaAwa
            elif isinstance(game, Bakuk):
                cls = FastBakuk
            else:
                raise TypeError(f"no fast path for {game!r}")
        return super().__new__(cls)

    def __init__(self, game: Game, opener: int = 0, owners=None) -> None:
        size = game.board.size
        self.game = game
        self.size = size
        self.players = players = game.players
        self.opener = opener
        self.owners = tuple(game.board.default_owners if owners is None else owners)
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
        self.nobody = (0,) * players
        # The pit after each pit in sowing order, one table per origin (the pit
        # the lap was lifted from), which a lap passes over with skip_origin=True:
        # the traced engine's own table (SowingOrder.next).
        self.sow_next = game.sowing_order.next

    def __repr__(self) -> str:
        return f"FastGame({self.game!r}, opener={self.opener}, owners={self.owners})"

    @classmethod
    def for_position(cls, pos) -> tuple[FastGame, State]:
        """The fast game of *pos* (its game, opener and owners), and *pos* as a state."""
        fast = cls(pos.game, opener=pos.opener, owners=pos.owners)
        return fast, fast.from_position(pos)

    # -- states and positions ---------------------------------------------------

    def state(self, pits, to_move: int, captured=None, history=()) -> State:
        """A state, its legal moves worked out (nothing else is checked: see
        :meth:`to_position` for that)."""
        pits = tuple(pits)
        captured = self.nobody if captured is None else tuple(captured)
        history = tuple((tuple(p), player) for p, player in history)
        return (pits, to_move, captured, history, self.derive_moves(pits, to_move, history))

    def start(self) -> State:
        """The opening position: the game's seeds in every pit, nothing captured
        (``ba-awa-setup``, ``bakuk-setup``)."""
        return self.state((self.game.seeds_per_pit,) * self.size, self.opener)

    def from_position(self, pos) -> State:
        """*pos* as a state; its game, opener and owners must be this fast game's."""
        if pos.game != self.game or pos.opener != self.opener or pos.owners != self.owners:
            raise ValueError("this position's game, opener or owners differ from this fast "
                             "game's: use FastGame.for_position(pos)")
        return self.state(pos.pits, pos.to_move, pos.captured, pos.history)

    def to_position(self, state: State):
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

    def winner(self, state: State) -> int | None:
        """The player with strictly the most captured seeds once the game is over,
        else ``None`` (``ba-awa-winner``, ``bakuk-winner``, ``bakuk-draw``)."""
        if state[MOVES]:
            return None
        captured = state[CAPTURED]
        best = max(captured)
        return captured.index(best) if captured.count(best) == 1 else None

    # -- what each game supplies -------------------------------------------------

    def derive_moves(self, pits: Pits, to_move: int, history) -> tuple[int, ...]:
        """The legal moves of a position (empty if the game is over)."""
        raise NotImplementedError

    def play(self, state: State, pit: int) -> State:
        """The state after the player to move plays *pit* (an index). Raises
        :class:`~mancala_spec.errors.IllegalMoveError` as the traced engine does."""
        raise NotImplementedError

    def _illegal(self, state: State, pit) -> IllegalMoveError:
        """The error the traced engine gives for this move (its message says why)."""
        if isinstance(pit, str):
            return IllegalMoveError(f"the fast path takes pit indices, not names like {pit!r}")
        try:
            self.to_position(state).play(pit)
        except IllegalMoveError as error:
            return error
        return IllegalMoveError(f"{pit!r} is not a legal move here")  # pragma: no cover


# -- Ba-awa ---------------------------------------------------------------------

Sown = tuple[Pits, Counts, bool]   # the pits after, seeds won by each player, any capture?


class FastBaAwa(FastGame):
    """Ba-awa (the rules: :class:`mancala_spec.engine.games.ba_awa.BaAwa`)."""

    def __init__(self, game: Game, opener: int = 0, owners=None) -> None:
        super().__init__(game, opener, owners)
        self.endless_illegal = game.options["endless"] == "illegal"
        self.owners_take = game.options["no_move"] == "owners"
        # The legal moves, with their sowings, of the last (pits, player) asked
        # about: a move asks for the next player's (the pass check), and playing
        # one of them asks again, so each sowing is worked out once.
        self._memo_key: Key = ((), -1)
        self._memo: dict[int, Sown] = {}

    def derive_moves(self, pits: Pits, to_move: int, history) -> tuple[int, ...]:
        if not any(pits):          # every way a Ba-awa game ends clears the board
            return ()
        return tuple(self.sowings(pits, to_move))

    def sowings(self, pits: Pits, player: int) -> dict[int, Sown]:
        """*player*'s legal moves on *pits*, each with its sowing, in pit order.
        (Remembered for the last *pits* and *player* asked about; do not change it.)"""
        memo_pits, memo_player = self._memo_key
        if player != memo_player or (pits is not memo_pits and pits != memo_pits):
            # ba-awa-choose: any pit of the player that holds seeds ...
            # ba-awa-endless: ... unless (endless="illegal") its sowing never ends
            memo = {}
            for pit in self.owned[player]:
                if pits[pit]:
                    sown = self.sow(pits, pit, player)
                    if sown is not None:
                        memo[pit] = sown
            self._memo, self._memo_key = memo, (pits, player)
        return self._memo

    def sow(self, pits: Pits, pit: int, mover: int) -> Sown | None:
        """Sow *pit* lap after lap; ``None`` if the sowing never ends and
        ``endless="illegal"``."""
        board = list(pits)
        owners = self.owners
        won = list(self.nobody)
        took = False
        # ba-awa-endless: each board and pit a lap starts from; a lap that would
        # start again from one of them repeats forever.
        seen = {(pits, pit)}
        origin = pit
        seeds = board[pit]                 # ba-awa-sow: lift every seed of the pit
        board[pit] = 0
        while True:
            step = self.sow_next[origin]   # ba-awa-origin: skip_origin passes over it
            p = origin
            for _ in range(seeds - 1):     # ba-awa-sow: one seed into each following pit
                p = step[p]
                count = board[p] + 1
                if count == FOUR:          # ba-awa-owner-four: not the last seed: the
                    board[p] = 0           # pit's owner takes the four at once
                    won[owners[p]] += FOUR
                    took = True
                else:
                    board[p] = count
            p = step[p]                    # the lap's last seed
            count = board[p] + 1
            board[p] = count
            if count == FOUR:              # ba-awa-mover-four: the mover takes them; the move ends
                board[p] = 0
                won[mover] += FOUR
                return tuple(board), tuple(won), True
            if count == 1:                 # ba-awa-sowing-end: an empty pit ends the move
                return tuple(board), tuple(won), took
            lap = (tuple(board), p)
            if lap in seen:                # ba-awa-endless: illegal, or (stop) it ends here
                if self.endless_illegal:
                    return None
                return lap[0], tuple(won), took
            seen.add(lap)
            origin = p                     # ba-awa-relay: lift them all, last seed too,
            seeds = count                  # and sow a new lap from the next pit
            board[p] = 0

    def play(self, state: State, pit: int) -> State:
        pits, mover, captured, history, moves = state
        if pit not in moves:
            raise self._illegal(state, pit)
        after, won, took = self.sowings(pits, mover)[pit]
        if took:
            captured = tuple(map(add, captured, won))
        # ba-awa-repetition: the positions seen since the last capture
        history = () if took else history + ((pits, mover),)
        turns = self.turns[mover]
        # ba-awa-eight, ba-awa-eight-timing: after a complete move, eight seeds or
        # fewer on the board go to the opener, and the game is over.
        if sum(after) <= EIGHT:
            return self._finish(after, turns[0], captured, None)
        # ba-awa-turns, ba-awa-three-turns: the next player moves, if they can ...
        for to_move in turns:
            following = self.sowings(after, to_move)
            if following:
                break
            # ba-awa-no-move: ... if not, (no_move="owners") the game ends and owners
            # take their pits' seeds, or (no_move="pass") the player is passed over,
            if self.owners_take:
                return self._finish(after, turns[0], captured, self.owners)
        else:   # ... and if nobody can move the opener takes what remains.
            return self._finish(after, turns[0], captured, None)
        # ba-awa-repetition: a whole position seen before: the opener takes what remains
        if (after, to_move) in history:
            return self._finish(after, turns[0], captured, None)
        return (after, to_move, captured, history, tuple(following))

    def _finish(self, pits: Pits, to_move: int, captured, owners) -> State:
        """The game is over: each pit's seeds go to its owner in *owners*, or
        (``None``) to the opener."""
        taken = list(captured)
        if owners is None:
            taken[self.opener] += sum(pits)
        else:
            for p, seeds in enumerate(pits):
                taken[owners[p]] += seeds
        return ((0,) * self.size, to_move, tuple(taken), (), ())


# -- Bakuk ----------------------------------------------------------------------

class FastBakuk(FastGame):
    """Bakuk (the rules: :class:`mancala_spec.engine.games.bakuk.Bakuk`)."""

    def __init__(self, game: Game, opener: int = 0, owners=None) -> None:
        super().__init__(game, opener, owners)
        size = self.size
        most = game.total_seeds
        #: ``lap[pit][seeds]``: what lifting *seeds* from *pit* and sowing them one
        #: by one adds to each pit (-seeds at *pit*, plus any that come round to
        #: it), and the pit the last one falls in. A Bakuk lap captures nothing on
        #: the way, so it can be applied whole.
        self.lap: tuple[tuple[tuple[Pits, int], ...], ...]
        laps = []
        for pit in range(size):
            step = self.sow_next[pit]           # bakuk-origin: skip_origin passes over it
            pit_laps = []
            for seeds in range(most + 1):
                change = [0] * size
                change[pit] -= seeds            # bakuk-choose: lift every counter of the hole
                last = pit
                for _ in range(seeds):          # bakuk-sow: one into each following hole
                    last = step[last]
                    change[last] += 1
                pit_laps.append((tuple(change), last))
            laps.append(tuple(pit_laps))
        self.lap = tuple(laps)
        forward = game.options["chain"] == "forward"
        # bakuk-chain: the next hole of a capture chain: with the sowing, or (variant) against it
        self.chain_next = tuple((p + 1) % size if forward else (p - 1) % size
                                for p in range(size))
        self.passing = game.options["no_move"] == "pass"
        self.owners_score = game.options["leftovers"] == "owners"
        # The legal moves for each content of a player's holes, remembered as met.
        self._row = tuple(itemgetter(*owned) if owned else (lambda pits: ())
                          for owned in self.owned)
        self._moves_for_row: tuple[dict, ...] = tuple({} for _ in self.owned)
        # what play() reads at every move, fetched in one go
        self._tables = (self.lap, self.next_turn, self._row, self._moves_for_row)

    def own_moves(self, pits: Pits, player: int) -> tuple[int, ...]:
        """bakuk-choose: the holes of *player* that hold counters."""
        row = self._row[player](pits)
        moves = self._moves_for_row[player].get(row)
        if moves is None:
            moves = self._moves_for_row[player][row] = tuple(
                [p for p in self.owned[player] if pits[p]])
        return moves

    def derive_moves(self, pits: Pits, to_move: int, history) -> tuple[int, ...]:
        # bakuk-repetition: the game is over once a position recurs since the last capture
        if (pits, to_move) in history:
            return ()
        # bakuk-choose: any hole of the player to move that holds counters
        # (bakuk-end, bakuk-exhausted: with none, the game is over)
        return self.own_moves(pits, to_move)

    def play(self, state: State, pit: int) -> State:
        pits, mover, captured, history, moves = state
        if pit not in moves:
            raise self._illegal(state, pit)
        # bakuk-choose, bakuk-sow, bakuk-origin: lift the hole's counters and sow
        # them one by one, a single lap (applied whole: see lap)
        lap, next_turn, rows, moves_for_row = self._tables
        change, last = lap[pit][pits[pit]]
        won = pits[last] + change[last]
        if won in CAPTURING_COUNTS:   # bakuk-capture: the last makes 2 or 4: the mover's
            board = list(map(add, pits, change))
            board[last] = 0
            chain = self.chain_next   # bakuk-chain: then each next hole holding 2 or 4
            p = chain[last]
            while board[p] in CAPTURING_COUNTS:
                won += board[p]
                board[p] = 0
                p = chain[p]
            after = tuple(board)
            if self.players == 2:     # (the common case, spelt out because it is faster)
                captured = ((captured[0] + won, captured[1]) if mover == 0
                            else (captured[0], captured[1] + won))
            else:
                captured = (*captured[:mover], captured[mover] + won, *captured[mover + 1:])
            history = ()              # bakuk-repetition: positions since the last capture
        else:
            after = tuple(map(add, pits, change))
            history = history + ((pits, mover),)
        to_move = next_turn[mover]   # bakuk-turns, bakuk-three-turns
        following = moves_for_row[to_move].get(rows[to_move](after))
        if following is None:
            following = self.own_moves(after, to_move)
        if not following:
            # bakuk-exhausted: the player to move has no counters: the game is over,
            # or (no_move="pass") they pass to the next player who has counters
            if self.passing:
                for able in self.turns[mover][1:]:
                    following = self.own_moves(after, able)
                    if following:
                        to_move = able
                        break
            if not following:
                return self._end(after, to_move, captured, history)
        if history and (after, to_move) in history:   # bakuk-repetition: game over
            return self._end(after, to_move, captured, history)
        return (after, to_move, captured, history, following)

    def _end(self, pits: Pits, to_move: int, captured, history) -> State:
        # bakuk-leftovers: counters left score for nobody, or (leftovers="owners")
        # for their hole's owner.
        if not self.owners_score:
            return (pits, to_move, captured, history, ())
        taken = list(captured)
        for p, seeds in enumerate(pits):
            taken[self.owners[p]] += seeds
        return ((0,) * self.size, to_move, tuple(taken), (), ())


__all__ = ["FastBaAwa", "FastBakuk", "FastGame", "State"]
