"""What the subcommands share: the ``-O NAME=VALUE`` game options, game names,
and reading input files within a size limit (the limits are named in the errors).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..engine.games import get_game
from ..errors import MancalaError
from ..terminal.status import UsageError


def add_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--option", "-O", action="append", default=[], metavar="NAME=VALUE",
                        help="an engine option, e.g. skip_origin=true (repeatable); "
                             "`mancala-spec options` lists them all")
    parser.add_argument("--ruleset", metavar="NAME", default=None,
                        help="play a named ruleset (its options under any -O); "
                             "`mancala-spec rulesets` lists them")


def add_unreachable(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--allow-unreachable", action="store_true",
                        help="take a position whose captured counts play cannot reach "
                             "(a study position; the rules play it as any other)")


def position_from(game, text: str, args: argparse.Namespace):
    """The position *text* of *game*; one play cannot reach only with
    ``--allow-unreachable`` (the error says so when the flag would take it)."""
    from ..errors import InvalidPositionError

    try:
        return game.parse(text, allow_unreachable=args.allow_unreachable)
    except InvalidPositionError as error:
        if args.allow_unreachable:
            raise
        try:
            game.parse(text, allow_unreachable=True)
        except MancalaError:
            raise error from None
        raise InvalidPositionError(f"{error} (--allow-unreachable takes such a position)",
                                   field=error.field) from None


def game_from(name: str, args: argparse.Namespace):
    """The game *name* (or an alias) with the ``-O NAME=VALUE`` options, each
    parsed by its declaration in :mod:`mancala_spec.options`."""
    from ..options import parse_options

    game = get_game(name)
    ruleset = getattr(args, "ruleset", None)
    if ruleset is not None:
        return get_game(game.name, ruleset=ruleset, **parse_options(game.name, args.option))
    return get_game(game.name, **parse_options(game.name, args.option)) if args.option \
        else game


def game_name(text: str) -> str:
    """An argparse type: a game's name or alias, as the game's own name."""
    try:
        return get_game(text).name
    except MancalaError as error:
        raise argparse.ArgumentTypeError(str(error)) from None



#: The largest game record ``replay`` reads (bytes).
MAX_RECORD_BYTES = 1 << 20
#: The largest suite file ``conformance run --suite`` reads (bytes).
MAX_SUITE_BYTES = 64 << 20


def size_text(limit: int) -> str:
    return f"{limit >> 20} MiB" if limit >= 1 << 20 else f"{limit:,} bytes"


def read_text(source: str | Path, limit: int, what: str) -> str:
    """The text of file *source* (``-``: standard input), at most *limit* bytes of
    UTF-8 (a byte-order mark is dropped). Raises :class:`UsageError` naming the
    file and what is wrong: missing, a folder, too large, binary, not UTF-8."""
    name = "standard input" if str(source) == "-" else str(source)
    if str(source) == "-" and sys.stdin is None:
        raise UsageError("cannot read standard input: it is closed")
    try:
        if str(source) == "-":
            stream = getattr(sys.stdin, "buffer", None)
            data = stream.read(limit + 1) if stream is not None else \
                sys.stdin.read(limit + 1).encode("utf-8", "surrogateescape")
        else:
            path = Path(source)
            if path.is_dir():
                raise UsageError(f"cannot read {name}: it is a folder, not a {what}")
            with path.open("rb") as handle:
                data = handle.read(limit + 1)
    except OSError as error:
        raise UsageError(f"cannot read {name}: {error.strerror or error}") from None
    if len(data) > limit:
        raise UsageError(f"{name} is larger than {size_text(limit)}, the limit for a {what}")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    nul = data.find(b"\x00")
    if nul >= 0:
        raise UsageError(f"{name} is not a {what}: it holds binary data "
                         f"(a NUL byte at byte {nul + 1})")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise UsageError(f"{name} is not UTF-8 text (byte {error.start + 1} is not valid): "
                         f"a {what} is UTF-8 text") from None


def write_out(text: str) -> None:
    """Print to stdout (written whole, and checked, by :func:`mancala_spec.cli.main`)."""
    sys.stdout.write(text)


#: The longest line ``play`` and ``replay --step`` read from standard input (bytes).
MAX_LINE_BYTES = 4096


def stdin_open() -> bool:
    return sys.stdin is not None


def read_line(prompt: str = "", limit: int = MAX_LINE_BYTES) -> str | None:
    """One line of standard input, without its line end, after writing *prompt*;
    ``None`` at the end of input. Reads at most *limit* bytes: a longer line, a
    closed standard input or text that is not UTF-8 raise :class:`UsageError`."""
    if sys.stdin is None:
        raise UsageError("cannot read standard input: it is closed")
    if prompt:
        sys.stdout.write(prompt)
        sys.stdout.flush()
    stream = getattr(sys.stdin, "buffer", None)
    try:
        if stream is not None:
            data = stream.readline(limit + 1)
        else:
            data = sys.stdin.readline(limit + 1).encode("utf-8", "surrogateescape")
    except ValueError:                           # read from a closed file
        raise UsageError("cannot read standard input: it is closed") from None
    except OSError as error:
        raise UsageError(f"cannot read standard input: {error.strerror or error}") from None
    if not data:
        return None
    if len(data) > limit:
        raise UsageError(f"a line of standard input is longer than {size_text(limit)}, "
                         "the limit for a line")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise UsageError("standard input is not UTF-8 text") from None
    return text.rstrip("\r\n")
