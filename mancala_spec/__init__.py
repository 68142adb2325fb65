"""mancala_spec: a citable, executable rules reference for Ba-awa and Bakuk.

>>> import mancala_spec as ms
>>> game = ms.get_game("ba-awa")
>>> pos = game.start()
>>> pos.legal_moves()
[0, 1, 2, 3, 4, 5]
>>> after = pos.play("a")
>>> sum(after.pits) + sum(after.captured)
48
"""
try:                        # first: a command takes its signals
    from .terminal import signals as _signals  # noqa: F401, I001
except KeyboardInterrupt:   # Ctrl-C while that module was read: a command still says one line
    from .terminal.signals import interrupted_at_start
    interrupted_at_start()  # (a program that imports the package gets the interrupt back)
    raise
from .catalogue import get_rule, load_catalogue
from .engine.games import Game, get_game
from .engine.games.match import Match
from .engine.outcome import Outcome
from .engine.position import Position
from .engine.trace import Trace
from .errors import (
    IllegalMoveError,
    InvalidPositionError,
    MancalaError,
    NotationError,
    OptionError,
    UnknownGameError,
)
from .notation import GameRecord, format_game, format_match, parse_game, parse_match
from .rulesets import rulesets
from .version import __version__

__all__ = [
    "Game", "GameRecord", "Match", "parse_match", "IllegalMoveError", "InvalidPositionError",
    "MancalaError", "NotationError", "OptionError", "Outcome", "Position", "Trace",
    "UnknownGameError", "__version__", "format_game", "format_match", "get_game", "get_rule",
    "load_catalogue", "parse_game", "rulesets",
]
