"""What the subcommands share: the ``-O NAME=VALUE`` game options, game names,
and reading input files within a size limit (the limits are named in the errors).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..engine.games import get_game
from ..errors import MancalaError
from . import UsageError


def add_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--option", "-O", action="append", default=[], metavar="NAME=VALUE",
                        help="an engine option, e.g. skip_origin=true (repeatable); "
                             "`mancala-spec options` lists them all")
    parser.add_argument("--ruleset", metavar="NAME", default=None,
                        help="play a named ruleset (its options under any -O); "
                             "`mancala-spec rulesets` lists them")


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
    """Print to stdout (a closed pipe is handled by :func:`mancala_spec.cli.main`)."""
    sys.stdout.write(text)
