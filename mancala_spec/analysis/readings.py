"""Readings compared: where each difference of a ruleset changes play.

For each option value that plays another reading (a difference of a named
ruleset, :mod:`mancala_spec.rulesets`), two questions, answered by the
reference engine (the fast kernel does not play these values):

* :func:`smallest_change`: the smallest position, by the search described
  there, at which the value changes a move's result (its legality, the
  position it leads to, or the end of the game);
* :func:`winner_changes`: in how many of *n* random games the value changes
  the winner, each game played twice (defaults, and defaults plus the value)
  with the same random stream, so the two plays agree until the rules make
  them differ.

>>> ex = smallest_change("bakuk", "chain", "backward")
>>> ex.position.to_text(), ex.game.board.name(ex.move)
('0,0,1/1,2,0 S 16-16 opener=S', 'c')
>>> changed, games, unfinished = winner_changes("bakuk", {"chain": "backward"}, 20, seed=1)
>>> 0 < changed <= games == 20, unfinished
(True, 0)
"""
from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from ..engine.games import Game, get_game
from ..engine.position import Position
from ..errors import MancalaError
from ..fast import FastGame
from ..fast.base import CAPTURED, MOVES, PITS, TO_MOVE
from .endless import cached_exhaustive, compositions

#: Ba-awa's search: at most this many seeds on the board, South to move, and one
#: row holding at most one seed (a player's row nearly empty, where the endings of
#: other readings differ); Bakuk's: every board of at most this many counters
MAX_SEEDS = {"ba-awa": 12, "bakuk": 8}
#: the boards a search looks at, at most, before it gives up
BUDGET = 4000
#: moves after which a compared random game counts as unfinished
MAX_MOVES = 2000
#: Ba-awa's fewest seeds on the board with the game going on, in play: with
#: eight or fewer the opener takes them (ba-awa-eight), and captures take
#: fours, so play leaves the board a multiple of four
BA_AWA_LOW = 12
#: Ba-awa's fewest seeds on the board where ``decided`` can change a move: a
#: capture takes four seeds or more, and from twelve it leaves eight or
#: fewer, so the last eight end the game under both readings first
DECIDED_LOW = 16
#: Ba-awa's search for a recurrence: random boards of each size tried, and the
#: walks' length (non-capturing moves) and the recurrences gathered at most
WALKS, WALK_MOVES, CYCLES = 3000, 60, 12


@dataclass(frozen=True)
class ChangeSearch:
    """How :func:`smallest_change` searches a game: from *low* seeds (*low_decided*
    for ``decided``) to :data:`MAX_SEEDS`, with *light_row* only boards with a row
    of at most one seed; recurrences by *walks*, else in random games."""

    low: int = 1
    low_decided: int = 1
    light_row: bool = False
    walks: bool = False


#: Each game's search (Ba-awa's random games end before any position recurs)
SEARCH = {"ba-awa": ChangeSearch(BA_AWA_LOW, DECIDED_LOW, light_row=True, walks=True),
          "bakuk": ChangeSearch()}


@dataclass(frozen=True)
class Change:
    """A position of *game* (at its defaults) where *move* has another result
    under *variant* (the defaults and one other value)."""

    game: Game
    variant: Game
    position: Position
    move: int
    how: str

    def result(self, game: Game) -> str:
        """What the move does under *game*, in a few words."""
        return describe(_rebuilt(game, self.position), self.move)


def _rebuilt(game: Game, pos: Position) -> Position:
    return game.position(pos.pits, to_move=pos.to_move, captured=pos.captured,
                         opener=pos.opener, history=pos.history)


def outcome(pos: Position, pit: int) -> tuple[Any, ...]:
    """What playing *pit* from *pos* gives: ``("illegal",)``, or the next
    position (pits, captured, player to move unless over, over, winner)."""
    if pit not in pos.legal_moves():
        return ("illegal",)
    after = pos.play(pit)
    return (after.pits, after.captured, None if after.is_over else after.to_move,
            after.is_over, after.winner)


def describe(pos: Position, pit: int) -> str:
    """The result of playing *pit* from *pos*, in words."""
    name = pos.game.board.name(pit)
    if pit not in pos.legal_moves():
        return f"{name} is not a legal move"
    after = pos.play(pit)
    if after.is_over:
        winner = after.winner
        end = "a draw" if winner is None else f"{pos.game.player_name(winner)} wins"
        return f"{name} ends the game at {after.to_text()}: {end}"
    return f"{name} leads to {after.to_text()}"


def _boards(game: Game, seeds: int) -> Iterator[tuple[int, ...]]:
    size = game.board.size
    if not SEARCH[game.name].light_row:
        yield from compositions(seeds, size)
        return
    half = size // 2
    for light in (0, 1):                   # one row holds at most one seed
        for row in compositions(seeds - light, half):
            for other in compositions(light, half):
                yield row + other
                if light or seeds:
                    yield other + row


def reachable_split(game: Game, rest: int) -> tuple[int, ...] | None:
    """*rest* captured seeds split as play can have captured them: in the
    game's capture units, as evenly as they go, South first
    (:meth:`~mancala_spec.engine.games.base.Game.default_captured`); ``None`` if *rest*
    is no whole number of units, so that no game leaves that many seeds on
    the board (searches skip those boards)."""
    if rest % game.capture_unit:
        return None
    return game.default_captured(rest)


def _splits(game: Game, pits: list[int], past_half: bool) -> Iterator[tuple[int, ...]]:
    """The captured seeds to try with *pits*, only splits play can reach
    (:func:`reachable_split`): as evenly as the capture units go; with
    *past_half*, also each split at which a capturing move of South's takes
    South just past half the seeds (to the first multiple of the unit above
    half)."""
    rest = game.total_seeds - sum(pits)
    even = reachable_split(game, rest)
    if even is None:
        return
    yield even
    if not past_half:
        return
    try:
        pos = game.position(pits, to_move=0, captured=even)
    except MancalaError:
        return
    unit = game.capture_unit
    past = (game.total_seeds // 2 // unit + 1) * unit
    for pit in pos.legal_moves():
        gain = pos.play(pit).captured[0] - even[0]
        south = past - gain
        if gain > 0 and 0 <= south <= rest and (south, rest - south) != even:
            yield (south, rest - south)


@cache
def smallest_change(game_name: str, option: str, value: Any) -> Change | None:
    """The first position, in this order of search, where playing a move has
    another result under *option* = *value* than under the defaults: fewest
    seeds on the board first (Ba-awa: more than eight, the rest end the game),
    then the boards in a fixed order (Ba-awa: one row holding at most one seed),
    South to move, the captured seeds split as evenly as play can have captured
    them (:func:`reachable_split`: only positions play can reach are searched;
    for ``decided``, whose result depends on the split, also the split that
    takes South just past half), pits in index order. Ba-awa's ``decided``
    starts at :data:`DECIDED_LOW` seeds (below it no move can change). A
    recurrence (``repetition``): in Bakuk the one
    with the fewest seeds met in 300 seeded random games played without the
    rule; in Ba-awa, whose random games end by their last eight before any
    position recurs, :func:`_smallest_walk_cycle`. Ba-awa's endless sowing is the
    smallest endless board play can reach that the analysis finds (every board
    of up to twelve seeds; the nine-seed ones are boards play cannot leave).
    ``None`` if the search finds none within :data:`BUDGET` boards."""
    base = get_game(game_name)
    variant = get_game(game_name, **{option: value})
    search = SEARCH[game_name]
    if option == "repetition":
        if search.walks:
            return _smallest_walk_cycle(base, variant)
        return _smallest_cycle(base, variant, 300)
    if option == "endless":                 # (Ba-awa's: a sowing that never ends)
        return _smallest_endless(base, variant)
    low = search.low_decided if option == "decided" else search.low
    boards = 0
    for seeds in range(low, max(low, MAX_SEEDS[game_name]) + 1):
        for pits in _boards(base, seeds):
            boards += 1
            if boards > BUDGET:
                return None
            for captured in _splits(base, list(pits), option == "decided"):
                found = _compare(base, variant, list(pits), captured)
                if found:
                    return found
    return None


def _compare(base: Game, variant: Game, pits: list[int], captured: tuple[int, ...],
             history: tuple[Any, ...] = ()) -> Change | None:
    try:
        ours = base.position(pits, to_move=0, captured=captured, history=history)
        theirs = variant.position(pits, to_move=0, captured=captured, history=history)
    except MancalaError:
        return None
    if ours.is_over or theirs.is_over:
        return None
    for pit in base.choice_pits(ours, 0):
        if pits[pit] and outcome(ours, pit) != outcome(theirs, pit):
            return Change(base, variant, ours, pit, "")
    return None


def _smallest_endless(base: Game, variant: Game) -> Change | None:
    for seeds in range(1, MAX_SEEDS["ba-awa"] + 1):
        split = reachable_split(base, base.total_seeds - seeds)
        board = cached_exhaustive(seeds, False).example if split else None
        if board is not None and split is not None:
            return _compare(base, variant, list(board), split)
    return None


def _smallest_cycle(base: Game, variant: Game, games: int = 300) -> Change | None:
    """The recurrence with the fewest seeds on the board among the first ones met
    in *games* random games played without the repetition rule (seeded), each
    game stopped at its first recurrence since its last capture."""
    best: Change | None = None
    for k in range(games):
        rng = random.Random(f"cycle {base.name} {k}")
        pos = variant.start()
        seen: list[tuple[tuple[int, ...], int]] = []
        for _ in range(MAX_MOVES):
            if pos.is_over:
                break
            moves = pos.legal_moves()
            pit = moves[int(rng.random() * len(moves))]
            after = pos.play(pit)
            took = after.captured != pos.captured
            seen = [] if took else seen + [pos.key]
            if not took and after.key in seen:
                history = tuple(seen[:-1])
                found = _compare_at(base, variant, pos, pit, history)
                if found and (best is None or sum(found.position.pits)
                              < sum(best.position.pits)):
                    best = found
                break
            pos = after
    return best


def _smallest_walk_cycle(base: Game, variant: Game) -> Change | None:
    """Ba-awa's smallest recurrence: with the fewest seeds on the board first
    (from :data:`BA_AWA_LOW`), random boards (seeded, South to move, the
    captured seeds split as play can have them, :func:`reachable_split`) each
    walked by random non-capturing moves without the repetition rule until a
    position recurs; of the first
    :data:`CYCLES` recurrences of the smallest size that has any, the shortest
    cycle (the first found among equals). The position returned is the one
    before the move that brings the earlier position back, its history the
    positions of the cycle so far (as if the walk began just after a
    capture): this reference's rule ends the game there, ``play-on`` goes on."""
    fast = FastGame(base)
    size = base.board.size
    for seeds in range(BA_AWA_LOW, MAX_SEEDS["ba-awa"] + 1):
        split = reachable_split(base, base.total_seeds - seeds)
        if split is None:
            continue
        rng = random.Random(f"walk {base.name} {seeds}")
        found: list[Change] = []
        for _ in range(WALKS):
            pits = [0] * size
            for _ in range(seeds):
                pits[int(rng.random() * size)] += 1
            try:
                pos = variant.position(pits, to_move=0, captured=split)
            except MancalaError:
                continue
            change = _walk(base, variant, fast, pos, rng)
            if change is not None:
                found.append(change)
                if len(found) == CYCLES:
                    break
        if found:
            return min(found, key=lambda c: len(c.position.history))
    return None


def _walk(base: Game, variant: Game, fast: FastGame, pos: Position,
          rng: random.Random) -> Change | None:
    """One walk from *pos* (of *variant*, which has no repetition rule), in the
    fast kernel of *base* (*fast*). The two games differ only in that rule: a move
    to a position not seen in the walk, that does not end the game by repetition,
    has the same result in both. A move that brings a position back is played by
    the reference engine in *variant*."""
    # a state's fields by index (fast.base): typed as Any, as they are read here
    state: Any = fast.state(pos.pits, pos.to_move, pos.captured, pos.history)
    seen: list[tuple[tuple[int, ...], int]] = []
    for _ in range(WALK_MOVES):
        if not state[MOVES]:
            return None
        key = (state[PITS], state[TO_MOVE])
        here: Position | None = None       # this position in the reference engine
        tried: dict[int, tuple[Any, Any, Any]] = {}   # pit -> (captured, key, state)
        for pit in state[MOVES]:
            after: Any = fast.play(state, pit)
            after_key = (after[PITS], after[TO_MOVE])
            if after_key in seen or after_key == key or (
                    not after[MOVES] and after[MOVES].reason == "repetition"):
                if here is None:
                    here = variant.position(state[PITS], to_move=state[TO_MOVE],
                                            captured=state[CAPTURED], opener=pos.opener,
                                            history=tuple(seen))
                reference = here.play(pit)
                after = fast.state(reference.pits, reference.to_move, reference.captured,
                                   reference.history)
                if reference.is_over:
                    after = after[:MOVES] + ((),)
                after_key = reference.key
            tried[pit] = (after[CAPTURED], after_key, after)
        quiet = [pit for pit, (captured, _, _) in tried.items() if captured == state[CAPTURED]]
        if not quiet:
            return None
        pit = quiet[int(rng.random() * len(quiet))]
        _, after_key, after = tried[pit]
        if after_key in seen or after_key == key:
            cycle = tuple(seen[seen.index(after_key):]) if after_key in seen else ()
            assert here is not None             # the move was tried in the reference engine
            return _compare_at(base, variant, here, pit, cycle)
        seen.append(key)
        state = after
    return None


def _compare_at(base: Game, variant: Game, pos: Position, pit: int,
                history: tuple[tuple[tuple[int, ...], int], ...]) -> Change | None:
    try:
        ours = base.position(pos.pits, to_move=pos.to_move, captured=pos.captured,
                             opener=pos.opener, history=history)
        theirs = variant.position(pos.pits, to_move=pos.to_move, captured=pos.captured,
                                  opener=pos.opener, history=history)
    except MancalaError:
        return None
    if not ours.is_over and outcome(ours, pit) != outcome(theirs, pit):
        return Change(base, variant, ours, pit, "")
    return None


@dataclass(frozen=True)
class MatchChange:
    """A position of a match's first game where *move* ends the game and the
    match goes another way under *settings* than under the default settings."""

    position: Position
    move: int
    settings: tuple[tuple[str, Any], ...]

    def result(self, settings: Mapping[str, Any]) -> str:
        """What the move does to the match under *settings*, in a few words."""
        from ..engine.games.match import Match

        match = Match.starting_from(self.position, **dict(settings)).play(self.move)
        earned = ", ".join(f"{self.position.game.player_name(p)} {n}"
                           for p, n in enumerate(match.earned()))
        if match.is_over:
            return (f"the game ends and {self.position.game.player_name(match.winner or 0)} "
                    f"wins the match (pits won: {earned})")
        return f"the game ends and the match goes on (pits won: {earned})"


def _match_outcome(pos: Position, pit: int, settings: Mapping[str, Any]) -> tuple[Any, ...]:
    from ..engine.games.match import Match

    match = Match.starting_from(pos, **dict(settings)).play(pit)
    return (match.is_over, match.winner)


@cache
def smallest_match_change(setting: str, value: Any) -> MatchChange | None:
    """Ba-awa's match setting *setting* = *value*: the first position of a
    match's first game, in the order of :func:`smallest_change` (fewest seeds
    first, from :data:`BA_AWA_LOW`; the boards in a fixed order, South to
    move), the captured seeds tried from South's most to South's fewest, in
    fours (only splits play can reach), where
    a move that ends the game ends the match under one setting and not under
    the other (or with another winner). ``None`` within :data:`BUDGET` boards."""
    base = get_game("ba-awa")
    settings = {setting: value}
    boards = 0
    unit = base.capture_unit
    for seeds in range(BA_AWA_LOW, MAX_SEEDS["ba-awa"] + 1):
        rest = base.total_seeds - seeds
        if rest % unit:
            continue                      # no game leaves this many seeds on the board
        for pits in _boards(base, seeds):
            boards += 1
            if boards > BUDGET:
                return None
            for south in range(rest, -1, -unit):
                try:
                    pos = base.position(list(pits), to_move=0, captured=(south, rest - south))
                except MancalaError:
                    continue
                if pos.is_over:
                    continue
                for pit in pos.legal_moves():
                    if not pos.play(pit).is_over:
                        continue
                    if _match_outcome(pos, pit, {}) != _match_outcome(pos, pit, settings):
                        return MatchChange(pos, pit, tuple(settings.items()))
    return None


#: games after which a compared random match counts as unfinished
MAX_GAMES = 60


def match_winner_changes(settings: Mapping[str, Any], matches: int,
                         seed: int = 2026) -> tuple[int, int, int]:
    """``(changed, matches, unfinished)``: of *matches* random Ba-awa matches,
    how many another winner under the match *settings* than under the default
    settings, each numbered match drawing its moves from
    ``random.Random(f"match {seed} {k}")`` in both plays (as
    :func:`winner_changes` does for games); a play unfinished after
    :data:`MAX_GAMES` games, or a game after :data:`MAX_MOVES` moves, counts
    as having no winner."""
    from ..engine.games.ba_awa import BaAwa
    from ..engine.games.match import Match

    game = get_game("ba-awa")
    assert isinstance(game, BaAwa)
    changed = unfinished = 0
    for k in range(matches):
        results = []
        for chosen in ({}, dict(settings)):
            rng = random.Random(f"match {seed} {k}")
            match = Match(game, **chosen)
            winner: Any = "unfinished"
            for _ in range(MAX_GAMES):
                for _ in range(MAX_MOVES):
                    if match.game_over:
                        break
                    moves = match.position.legal_moves()
                    match = match.play(moves[int(rng.random() * len(moves))])
                if not match.game_over:
                    break
                if match.is_over:
                    winner = match.winner
                    break
                match = match.next_game()
            unfinished += winner == "unfinished"
            results.append(winner)
        changed += results[0] != results[1]
    return changed, matches, unfinished


def winner_changes(game_name: str, options: Mapping[str, Any], games: int,
                   seed: int = 2026) -> tuple[int, int, int]:
    """``(changed, games, unfinished)``: of *games* random games of *game_name*,
    South opening, how many end with another winner under *options* than under
    the defaults, each numbered game drawing its moves from
    ``random.Random(f"{game_name} {seed} {k}")`` in both plays (the index of
    the move among the legal moves), and how many plays did not end within
    :data:`MAX_MOVES` moves (counted as changed only if the other play's winner
    differs from no result)."""
    base = get_game(game_name)
    variant = get_game(game_name, **dict(options))
    changed = unfinished = 0
    for k in range(games):
        results = []
        for game in (base, variant):
            rng = random.Random(f"{game_name} {seed} {k}")
            pos = game.start()
            for _ in range(MAX_MOVES):
                if pos.is_over:
                    break
                moves = pos.legal_moves()
                pos = pos.play(moves[int(rng.random() * len(moves))])
            if not pos.is_over:
                unfinished += 1
            results.append(pos.winner if pos.is_over else "unfinished")
        changed += results[0] != results[1]
    return changed, games, unfinished


__all__ = ["Change", "MAX_GAMES", "MAX_MOVES", "MAX_SEEDS", "MatchChange", "describe",
           "match_winner_changes", "outcome", "smallest_change", "smallest_match_change",
           "winner_changes"]
