"""Running the engine for a diagram: options from text, and the trace of a move.

Used by the ``sowing-diagram`` directive and the command line.
"""
from __future__ import annotations

from typing import Any

from ..engine.trace import Trace
from ..errors import OptionError, not_a, shown


def parse_options(text: str) -> dict[str, Any]:
    """Engine options from text like ``"skip_origin=true endless=stop"``.

    >>> parse_options("skip_origin=true endless=stop")
    {'skip_origin': True, 'endless': 'stop'}
    """
    from ..notation import option_value

    if not isinstance(text, str):
        raise not_a("options", text, "text such as 'skip_origin=true endless=stop'")
    options: dict[str, Any] = {}
    for item in text.replace(",", " ").split():
        key, sep, value = item.partition("=")
        if not sep or not key or not value:
            raise OptionError(f"an option is written name=value, not {shown(item)}",
                              option=key or None, value=item)
        options[key] = option_value(value)
    return options


def trace_move(game: str, move: str | int, position: str | None = None,
               options: str | dict[str, Any] | None = None) -> Trace:
    """Run the engine: the trace of *move* from *position* (notation text;
    the start position if omitted) in *game* with *options*."""
    from ..engine.games import get_game

    if isinstance(options, str):
        options = parse_options(options)
    engine = get_game(game, **(options or {}))
    pos = engine.parse(position) if position else engine.start()
    if isinstance(move, str) and move.strip().isdigit():
        move = int(move)
    return pos.trace(move.strip() if isinstance(move, str) else move)
