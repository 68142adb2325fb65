"""The ``show``, ``play`` and ``replay`` subcommands: positions and games in the
terminal, each move explained by its events and their rules.
"""
from __future__ import annotations

import random
import sys

from ..engine.players import PLAYERS
from ..engine.position import Position
from ..engine.trace import Trace
from ..errors import IllegalMoveError, MancalaError, NotationError
from ..notation import parse_game
from ..terminal.escape import shown
from ..terminal.status import UsageError
from .arguments import (
    MAX_RECORD_BYTES,
    add_options,
    add_unreachable,
    game_from,
    position_from,
    read_line,
    read_text,
    size_text,
    stdin_open,
)
from .command_registry import command


def _show_arguments(parser):
    parser.add_argument("game", help="ba-awa or bakuk (or another name: anenam, nam-nam)")
    parser.add_argument("position", nargs="?", help="a position in notation (start if omitted)")
    add_options(parser)
    add_unreachable(parser)


@command("show", "draw a position in the terminal", _show_arguments)
def run_show(args) -> int:
    game = game_from(args.game, args)
    pos = game.start() if args.position is None else position_from(game, args.position, args)
    print(pos)
    print(f"\n{pos.to_text()}")
    if not pos.is_over:
        names = " ".join(game.board.name(p) for p in pos.legal_moves())
        print(f"{game.player_name(pos.to_move)} to move; legal moves: {names}")
    return 0


def board_from(pos, side: int) -> str:
    """*pos* drawn as *side* sees it: that player's row at the bottom, read from
    their left. Boards not owned row by row are drawn as usual (South's view)."""
    board = pos.game.board
    if side == 0 or pos.owners != board.row_owners or len(pos.captured) != 2:
        return str(pos)
    n = board.pits_per_row
    top, bottom = range(n - 1, -1, -1), range(n, 2 * n)

    def store(player: int) -> str:
        mark = "   to move" if player == pos.to_move and not pos.is_over else ""
        return f"   captured {pos.captured[player]}{mark}"

    def cells(pits, show) -> str:
        return "".join(f"{show(p):>4}" for p in pits)

    return "\n".join([f"       {cells(top, board.name)}",
                      f"South  {cells(top, lambda p: pos.pits[p])}{store(0)}",
                      f"North  {cells(bottom, lambda p: pos.pits[p])}{store(1)}",
                      f"       {cells(bottom, board.name)}"])


def explain(trace) -> list[str]:
    """The move's notable events, one line each with its rule ID: relays (with
    the lap count), captures, passes, why the move ended and, if it did, why the
    game ended. Events are told apart by their type, never by their wording."""
    from ..engine.trace import Capture, EndOfGame, EndOfLap, EndOfMove, Pass, Relay

    game = trace.before.game
    lines = []
    laps = sum(isinstance(event, EndOfLap) for event in trace.events)
    if laps > 1:
        lines.append(f"  relay sowing: {laps} laps")
    for event in trace.events:
        if isinstance(event, (Relay, Capture, EndOfMove, Pass, EndOfGame)):
            lines.append(f"  {event.describe(game.board.name, game.player_name)}"
                         f"  [{event.rule}]")
    return lines


def explain_end(trace) -> list[str]:
    """Why the game ended with *trace*'s move and how it scored, the counters
    left on the board included (told by event type and rule, not wording)."""
    from ..engine.trace import Capture, EndOfMove

    pos = trace.position
    game = pos.game
    lines = []
    if pos.outcome is not None:
        lines.append(f"The game is over: {pos.outcome.describe()} [{pos.outcome.rule}].")
    # captures after the sowing ended are the end's: the seeds left on the board
    sown = max((i for i, e in enumerate(trace.events) if isinstance(e, EndOfMove)), default=-1)
    for event in trace.events[sown + 1:]:
        if isinstance(event, Capture):
            lines.append(f"{game.player_name(event.player)} takes the {event.seeds} left in "
                         f"{game.board.name(event.pit)} [{event.rule}].")
    left = sum(pos.pits)
    if left:
        # the rule that scores them: the game's leftovers option switches it
        rule = "".join(f" [{o.rule}]" for o in game.OPTIONS if o.name == "leftovers")
        lines.append(f"{left} counter{'s' if left != 1 else ''} left on the board "
                     f"score{'s' if left == 1 else ''} for nobody{rule}.")
    scores = ", ".join(f"{game.player_name(p)} {seeds}" for p, seeds in enumerate(pos.captured))
    winner = pos.winner
    lines.append(f"Captured: {scores}: "
                 + ("a draw." if winner is None else f"{game.player_name(winner)} wins."))
    return lines


PLAY_HELP = """\
Type a pit name to sow it (your own row's letters; the legal ones are listed).
  undo   take back your last move (and the reply to it)
  help   this text
  quit   stop; the game so far is printed as a record"""


def _play_arguments(parser):
    parser.add_argument("game", help="ba-awa or bakuk (or another name: anenam, nam-nam)")
    parser.add_argument("--opponent", choices=["human", *sorted(PLAYERS)], default="random",
                        help="who plays against you (default: random)")
    parser.add_argument("--as", dest="seat", choices=["south", "north"], default="south",
                        help="your side (South opens); the board is drawn from it")
    parser.add_argument("--seed", type=int, default=None, help="seed for the computer player")
    add_options(parser)


@command("play", "play a game in the terminal; moves by pit name (a–f, A–F); "
                 "help, undo, quit", _play_arguments, live=lambda args: True)
def run_play(args) -> int:
    from ..notation import format_game

    game = game_from(args.game, args)
    if not stdin_open():
        raise UsageError("play reads its moves from standard input, which is closed")
    rng = random.Random(args.seed)
    you = 0 if args.seat == "south" else 1
    start = game.start()
    pos = start
    played: list[tuple[Position, Trace]] = []        # (position before, trace), in order
    against = "another human" if args.opponent == "human" else f"the {args.opponent} player"
    print(f"{game.title}: you play {game.player_name(you)} against {against}; "
          f"{game.player_name(start.to_move)} opens. Type help for commands.")

    def record() -> str:
        return format_game(start, [trace.pit for _, trace in played])

    while not pos.is_over:
        print(f"\n{board_from(pos, you)}\n")
        if args.opponent == "human" or pos.to_move == you:
            names = " ".join(game.board.name(p) for p in pos.legal_moves())
            who = "you" if args.opponent != "human" else game.player_name(pos.to_move)
            try:
                line = read_line(f"{game.player_name(pos.to_move)} ({who}) to move ({names}): ")
            except UsageError as error:
                print("\n" + record(), end="")
                raise UsageError(f"{error}: game abandoned (its record so far is on "
                                 "standard output)") from None
            if line is None:
                print("\n" + record(), end="")
                raise UsageError("standard input ended before the game did: game abandoned "
                                 "(its record so far is on standard output)")
            text = line
            command_ = text.strip().lower()
            if command_ in ("", "?", "h", "help"):
                print(PLAY_HELP)
                continue
            if command_ in ("q", "quit", "exit"):
                print("game stopped. The record so far:")
                print(record(), end="")
                return 0
            if command_ in ("u", "undo"):
                mine = [i for i, (before, _) in enumerate(played)
                        if args.opponent == "human" or before.to_move == you]
                if not mine:
                    print("nothing to undo")
                    continue
                pos = played[mine[-1]][0]
                del played[mine[-1]:]
                print(f"undone: back to {game.player_name(pos.to_move)}'s move")
                continue
            try:
                trace = pos.trace(text.strip())
            except (IllegalMoveError, NotationError) as error:
                print(shown(f"illegal: {error}"))
                continue
        else:
            pit = PLAYERS[args.opponent](pos, rng)
            trace = pos.trace(pit)
        who = args.opponent if args.opponent != "human" and pos.to_move != you else "you"
        if args.opponent == "human":
            who = "human"
        print(f"{game.player_name(pos.to_move)} ({who}) plays {game.board.name(trace.pit)}")
        print("\n".join(explain(trace)))
        played.append((pos, trace))
        pos = trace.position
    print(f"\n{board_from(pos, you)}\n")
    print("\n".join(explain_end(played[-1][1])))
    print(record(), end="")
    return 0


def _replay_arguments(parser):
    parser.add_argument("file", help="a game record (see the notation page); - for stdin")
    parser.add_argument("--step", action="store_true",
                        help="wait for Enter after each move (not with - for stdin)")


@command("replay", f"step through a game record (at most {size_text(MAX_RECORD_BYTES)})",
         _replay_arguments, live=lambda args: bool(args.step))
def run_replay(args) -> int:
    if args.step and args.file == "-":
        raise UsageError("--step reads Enter from standard input, so the record must be "
                         "a file, not -")
    if args.step and not stdin_open():
        raise UsageError("--step reads Enter from standard input, which is closed")
    text = read_text(args.file, MAX_RECORD_BYTES, "game record")
    try:
        record = parse_game(text)
    except MancalaError as error:
        raise UsageError(f"{args.file}: {error}") from None
    board = record.game.board
    print(record.start)
    for number, (pit, (before, after)) in enumerate(
            zip(record.moves, zip(record.positions, record.positions[1:])), start=1):
        if args.step:
            if read_line() is None:
                print(f"replay stopped before move {number}: no more input", file=sys.stderr)
                return 0
        print(f"\n{number}. {record.game.player_name(before.to_move)} plays {board.name(pit)}")
        print(after)
    return 0
