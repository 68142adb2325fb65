"""The registry of subcommands and the argument parser built from it.

Each subcommand is a function decorated with :func:`command`, which names it,
gives its one-line help and its arguments; add one by writing another such
function in a module of this package and listing the module in
:data:`COMMAND_MODULES` (imported when the parser is built). A subcommand
returns its exit status.
"""
from __future__ import annotations

import argparse
import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NoReturn

from .. import __version__
from ..terminal.escape import shown
from ..terminal.status import EXIT, exit_status_text

PROG = "mancala-spec"

Run = Callable[[argparse.Namespace], int]


def _never(args: argparse.Namespace) -> bool:
    return False


@dataclass(frozen=True)
class Command:
    """A subcommand. *live* says, from its arguments, whether it talks with its
    user (its output is then written as it goes, not once it has succeeded)."""

    name: str
    help: str
    arguments: Callable[[argparse.ArgumentParser], None]
    run: Run
    live: Callable[[argparse.Namespace], bool] = _never


COMMANDS: dict[str, Command] = {}

#: Modules of this package whose import registers the subcommands, in the order listed.
COMMAND_MODULES = ("rule_commands", "play", "diagram", "conformance", "solve", "ruleset_list")


def command(name: str, help: str, arguments: Callable[[argparse.ArgumentParser], None],
            live: Callable[[argparse.Namespace], bool] = _never) -> Callable[[Run], Run]:
    """Register the decorated ``run(args) -> exit status`` as subcommand *name*."""
    def register(run: Run) -> Run:
        COMMANDS[name] = Command(name, help, arguments, run=run, live=live)
        return run
    return register


def load_commands() -> None:
    for name in COMMAND_MODULES:
        importlib.import_module(f"{__package__}.{name}")


class Parser(argparse.ArgumentParser):
    """argparse with the exit-status table under every help text."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("epilog", exit_status_text())
        kwargs.setdefault("formatter_class", argparse.RawDescriptionHelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        """One line on stderr and exit status 2 (argparse prints the usage too); the
        arguments it names are shown escaped (:func:`~.escape.shown`)."""
        from ..terminal import signals

        signals.said(EXIT["bad input"])
        self.exit(EXIT["bad input"], shown(f"{self.prog}: error: {message} (see --help)") + "\n")


def build_parser() -> argparse.ArgumentParser:
    load_commands()
    parser = Parser(
        prog=PROG, description="A citable, executable rules reference for Ba-awa and Bakuk.")
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for cmd in COMMANDS.values():
        sub = subparsers.add_parser(cmd.name, help=cmd.help, description=cmd.help)
        cmd.arguments(sub)
        sub.set_defaults(run=cmd.run, live=cmd.live)
    return parser
