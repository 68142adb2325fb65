"""What the OpenSpiel and PettingZoo adapters share, with the standard library only.

**Parameters.** Every option of a game (:func:`mancala_spec.options.game_options`:
its name, its values as plain ``bool``, ``int`` or ``str``, its default) is a
parameter, and three more belong to the adapters:

* ``ruleset``: a named ruleset (``mancala_spec.rulesets(game)``), ``mancala_spec`` by default;
* ``returns``: ``margin`` (what a player captured minus what the others captured on
  average: with two players, their margin over the opponent) or ``win-loss`` (1 for
  the winner, the others sharing -1; 0 each in a draw);
* ``max_moves``: the moves after which the adapters stop a game (OpenSpiel needs a
  bound on a game's length; neither game's rules has one). A game stopped there
  is scored by what each player had captured, the seeds on the board to nobody.

>>> spec = parameter_spec("bakuk")
>>> spec["chain"], spec["sixes"], spec["players"], spec["ruleset"], spec["returns"]
('forward', False, 2, 'mancala_spec', 'margin')
>>> adapted("bakuk", {"chain": "backward"}).game
get_game('bakuk', chain='backward')
>>> adapted("bakuk", {"ruleset": "koumma"}).parameters()["first_counter"]
'origin'

A ruleset gives the values of the options it names; an option given explicitly
wins. OpenSpiel passes every parameter, its default filled in, so there an option
at this reference's default takes the ruleset's value (``filled=True``): to play a
ruleset with one of its values set back to the default, name the options without
the ruleset.

>>> adapted("bakuk", {**spec, "ruleset": "koumma"}, filled=True).game
get_game('bakuk', first_counter='origin', sixes=True)
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..engine.games import GAMES, Game, get_game
from ..engine.position import Position
from ..errors import OptionError, UnknownGameError, shown
from ..options import game_options, plain
from ..rulesets import DEFAULT

#: the values of the parameter ``returns``, the default first
RETURNS = ("margin", "win-loss")
#: the default of the parameter ``max_moves``
DEFAULT_MAX_MOVES = 1000
#: the adapters' own parameters and their defaults
ADAPTER_PARAMETERS: dict[str, bool | int | str] = {
    "ruleset": DEFAULT, "returns": RETURNS[0], "max_moves": DEFAULT_MAX_MOVES}


def game_name(name: object) -> str:
    """The game's own name (``"ba-awa"``, ``"bakuk"``) for *name* or one of its aliases."""
    if isinstance(name, str) and name in GAMES:
        return name
    given: Any = name                # get_game says what is wrong with it
    return get_game(given).name


def parameter_spec(name: str) -> dict[str, bool | int | str]:
    """Every parameter of game *name* and its default: the game's options as
    declared, then :data:`ADAPTER_PARAMETERS`."""
    game = game_name(name)
    return {**{o.name: plain(o.default) for o in game_options(game)}, **ADAPTER_PARAMETERS}


@dataclass(frozen=True)
class Adapted:
    """A game as an adapter plays it: the engine's game, the ruleset named, how
    returns are counted, and the move bound."""

    game: Game
    ruleset: str
    returns: str
    max_moves: int

    def parameters(self) -> dict[str, bool | int | str]:
        """Every parameter with the value played (a ruleset's values filled in)."""
        return {**{name: plain(value) for name, value in self.game.options.items()},
                "ruleset": self.ruleset, "returns": self.returns, "max_moves": self.max_moves}

    @property
    def players(self) -> int:
        return self.game.players

    @property
    def pits(self) -> int:
        return 2 * self.game.board.pits_per_row

    def utility_range(self) -> tuple[float, float]:
        """The least and greatest return a player can have."""
        others = self.players - 1
        if self.returns == "margin":
            return -self.game.total_seeds / others, float(self.game.total_seeds)
        return -1 / others, 1.0

    def returns_of(self, pos: Position) -> list[float]:
        """Each player's return for the game that ended (or was stopped) at *pos*."""
        captured = pos.captured
        others = self.players - 1
        if self.returns == "margin":
            total = sum(captured)
            return [seeds - (total - seeds) / others for seeds in captured]
        winner = pos.winner if pos.is_over else leader(captured)
        if winner is None:
            return [0.0] * self.players
        return [1.0 if player == winner else -1 / others for player in range(self.players)]


def leader(captured: Sequence[int]) -> int | None:
    """The player who captured the most, or ``None`` if that most is shared."""
    most = max(captured)
    return captured.index(most) if list(captured).count(most) == 1 else None


def adapted(name: str, params: Mapping[str, object], *, filled: bool = False) -> Adapted:
    """The game *name* with *params* (parameters of :func:`parameter_spec`);
    :class:`~mancala_spec.errors.OptionError` for an unknown parameter or value.
    With *filled*, every parameter is given, its default filled in (as OpenSpiel
    gives them): an option at its default then takes the ruleset's value."""
    game = game_name(name)
    spec = parameter_spec(game)
    for key in params:
        if key not in spec:
            raise OptionError(f"unknown parameter {shown(key)} of {game}; its parameters "
                              f"are: {', '.join(spec)}", game=game, option=str(key))
    ruleset = params.get("ruleset", DEFAULT)
    returns = params.get("returns", RETURNS[0])
    if returns not in RETURNS:
        raise OptionError(f"returns must be one of {', '.join(RETURNS)}, not {shown(returns)}",
                          game=game, option="returns", value=returns, choices=RETURNS)
    max_moves = params.get("max_moves", DEFAULT_MAX_MOVES)
    if type(max_moves) is not int or max_moves < 1:
        raise OptionError(f"max_moves must be a whole number of at least 1, not "
                          f"{shown(max_moves)}", game=game, option="max_moves", value=max_moves)
    options = {}
    for declared in game_options(game):
        if declared.name in params:
            value = declared.check(params[declared.name])
            if not filled or value != declared.default:
                options[declared.name] = value
    try:
        played = get_game(game, ruleset=ruleset, **options)
    except UnknownGameError as error:       # not reached: the name was checked
        raise OptionError(str(error), game=game) from None
    return Adapted(played, str(ruleset), str(returns), max_moves)


# -- what a player sees -------------------------------------------------------------


def feature_shapes(adapt: Adapted) -> dict[str, tuple[int, ...]]:
    """The parts of an observation, in order, and their shapes: the seeds in each
    pit (pits in sowing order, ``a`` first), each pit's owner (one row a player),
    the seeds each player captured, the player to move (none once the game is
    over) and the observing player."""
    k, pits = adapt.players, adapt.pits
    return {"pits": (pits,), "owners": (k, pits), "captured": (k,), "to_move": (k,),
            "observer": (k,)}


def features(adapt: Adapted, pos: Position, observer: int) -> list[float]:
    """The observation of *pos* by player *observer*, flat, as :func:`feature_shapes`
    orders it (the game has perfect information: every player sees the whole board)."""
    k, pits = adapt.players, adapt.pits
    owners = [0.0] * (k * pits)
    for pit, owner in enumerate(pos.owners):
        owners[owner * pits + pit] = 1.0
    to_move = [0.0] * k
    if not pos.is_over:
        to_move[pos.to_move] = 1.0
    seen = [0.0] * k
    seen[observer] = 1.0
    return [*map(float, pos.pits), *owners, *map(float, pos.captured), *to_move, *seen]


def moves_text(adapt: Adapted, moves: Sequence[int]) -> str:
    """The moves played from the start, by pit name, as a game record writes them
    (:func:`mancala_spec.notation.format_game`'s ``moves:`` line)."""
    name = adapt.game.board.name
    return " ".join(["moves:", *(name(pit) for pit in moves)])


__all__ = ["ADAPTER_PARAMETERS", "Adapted", "DEFAULT_MAX_MOVES", "RETURNS", "adapted",
           "feature_shapes", "features", "game_name", "leader", "moves_text", "parameter_spec"]
