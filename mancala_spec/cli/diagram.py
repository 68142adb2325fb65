"""The ``diagram`` subcommand: a sowing diagram of a move, written as PNG or SVG.
"""
from __future__ import annotations

import io
from pathlib import Path

from ..engine.games import GAMES, get_game
from ..terminal.escape import shown
from ..terminal.output import check_target, write_atomic
from ..terminal.status import MissingExtraError, UsageError
from .arguments import add_options, add_unreachable, game_from, position_from
from .command_registry import command


def _diagram_arguments(parser):
    parser.add_argument("position", help="a position in notation (the game is told by its size)")
    parser.add_argument("move", help="the pit to play, e.g. c")
    parser.add_argument("-o", "--output", required=True,
                        help="the file to write (.png or .svg); written whole or not at all")
    parser.add_argument("--game", help="ba-awa or bakuk (default: from the position's size)")
    add_options(parser)
    add_unreachable(parser)


@command("diagram", "write a sowing diagram of a move (PNG or SVG; needs matplotlib: "
                    "the diagram extra)", _diagram_arguments)
def run_diagram(args) -> int:
    suffix = Path(args.output).suffix.lower()
    if suffix not in (".png", ".svg"):
        raise UsageError(f"the output must end in .png or .svg, not {suffix or 'nothing'}")
    name = args.game
    if name is None:
        south_row = args.position.split("/")[0]
        by_row = {get_game(g).board.pits_per_row: g for g in GAMES}
        name = by_row.get(len(south_row.split(",")))
        if name is None:
            raise UsageError("cannot tell the game from the position: give --game")
    game = game_from(name, args)
    trace = position_from(game, args.position, args).trace(args.move)
    check_target(args.output)
    try:
        import matplotlib  # noqa: F401 - only to say clearly that it is missing

        from .. import diagrams

        figure = diagrams.render(diagrams.layout(trace))
        data = diagrams.save(figure, io.BytesIO(), format=suffix[1:])   # written below, whole
    except ImportError as error:
        raise MissingExtraError("diagram", error.name or "matplotlib", "diagram") from None
    write_atomic(args.output, data)
    print(f"wrote {shown(args.output)}: {trace.position.to_text()}")
    return 0
