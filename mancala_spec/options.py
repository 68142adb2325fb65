"""Every option of the engine, declared once.

An option switches a rule that the sources leave open (an editorial
completion), selects another form a source describes (three players, a match
target), or a variant kept for comparison. Each is declared here once: its name,
its values and what each means, its default, and the catalogue rule it switches.
Everything else is derived from these declarations: the games' accepted
keywords (:func:`mancala_spec.get_game`), the settings of a Ba-awa
:class:`~mancala_spec.engine.games.match.Match`, the command line's ``-O NAME=VALUE``
parsing and help, the solver's parameters, the conformance protocol's option
list, and the options table on the rules site.

This module is plain data: it imports nothing of the engine or the catalogue.

>>> from mancala_spec.options import game_options, option
>>> print(*[o.name for o in game_options("bakuk")])
skip_origin first_counter sixes chain decided no_move leftovers repetition players turn_order
>>> chain = option("bakuk", "chain")
>>> chain.default, chain.rule
(<Chain.FORWARD: 'forward'>, 'bakuk-chain')
>>> chain.choices
(<Chain.FORWARD: 'forward'>, <Chain.BACKWARD: 'backward'>)
>>> chain.parse("backward"), option("ba-awa", "skip_origin").parse("TRUE")
(<Chain.BACKWARD: 'backward'>, True)

A word-valued option takes the members of its ``StrEnum``
(:class:`Chain`, :class:`Endless`…), which are also strings, so the keyword
API keeps taking the words: ``get_game("bakuk", chain="backward")`` is
``get_game("bakuk", chain=Chain.BACKWARD)``. A misspelt word is refused
(:class:`~mancala_spec.errors.OptionError`), and the engine compares with the
members (``options["chain"] is Chain.FORWARD``), so a misspelt member is an
error too, never a silent other branch.

>>> chain.check("backward") is Chain.BACKWARD
True
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

from .errors import OptionError, shown


class Choose(StrEnum):
    """Ba-awa ``choose``: which pits a player chooses from (``ba-awa-choose``)."""

    OWNED = "owned"
    ROW = "row"


class Endless(StrEnum):
    """Ba-awa ``endless``: what a relay sowing that never ends is (``ba-awa-endless``)."""

    ILLEGAL = "illegal"
    STOP = "stop"
    CAP_75 = "cap-75"           # as MancalaGames plays


class NoMove(StrEnum):
    """``no_move`` of both games: what happens when the player to move has no
    legal move (``ba-awa-no-move``; in Bakuk, no counters: ``bakuk-exhausted``).
    Each game takes the values its declaration lists: Ba-awa pass, owners and
    empty-row; Bakuk end and pass (``pass`` means the same in both)."""

    PASS = "pass"
    OWNERS = "owners"           # Ba-awa
    EMPTY_ROW = "empty-row"     # Ba-awa, as EveryBoard plays
    END = "end"                 # Bakuk


class Repetition(StrEnum):
    """``repetition`` of both games: whether a recurring position ends the game
    (``ba-awa-repetition``, ``bakuk-repetition``)."""

    END = "end"
    PLAY_ON = "play-on"         # as MancalaGames plays (and EveryBoard's Ba-awa)


class FirstCounter(StrEnum):
    """Bakuk ``first_counter``: where the first counter of a move goes (``bakuk-sow``)."""

    NEXT = "next"
    ORIGIN = "origin"           # Koumma, as the Bakuk text describes it


class TurnOrder(StrEnum):
    """``turn_order`` of three-player games (``ba-awa-three-turns``, ``bakuk-three-turns``)."""

    SOWING = "sowing"
    REVERSE = "reverse"


class Chain(StrEnum):
    """Bakuk ``chain``: which way the capture chain runs (``bakuk-chain``)."""

    FORWARD = "forward"
    BACKWARD = "backward"


class Leftovers(StrEnum):
    """Bakuk ``leftovers``: who scores the counters left at the end (``bakuk-leftovers``)."""

    UNSCORED = "unscored"
    OWNERS = "owners"


class Opener(StrEnum):
    """Match setting ``opener``: who opens each later game (``ba-awa-match-opener``)."""

    ALTERNATE = "alternate"
    WINNER = "winner"
    LOSER = "loser"


class FinalTake(StrEnum):
    """Match setting ``final_take``: whether the seeds taken as a game ends count as captured
    for the next game's pits (``ba-awa-match-setup``)."""

    COUNTED = "counted"
    UNCOUNTED = "uncounted"


class Allocation(StrEnum):
    """Match setting ``allocation``: which pits a player receives (``ba-awa-match-allocation``)."""

    EXTEND = "extend"
    CONSECUTIVE = "consecutive"


#: The number of players (``players``): two, or three.
Players = Literal[2, 3]
#: The pits a player must control to win a match (``target``).
Target = Literal[10, 11, 12]
#: The types an option's values may have: a yes-or-no, a number, or a member
#: of one of the enumerations above (a ``StrEnum``, so also a string).
Value = bool | int | StrEnum


@dataclass(frozen=True)
class Choice:
    """One value of an option, and what it means. ``program`` names the other
    program (a key of the catalogue's programs, e.g. ``"mancalagames"``) that plays
    the value, for a value offered only to reproduce what that program does (a
    secondary source of the program, not of the game)."""

    value: Value
    meaning: str
    program: str = ""


@dataclass(frozen=True)
class Option:
    """One option of one game: its values (each with its meaning), its
    default, the catalogue rule it switches, and a line of help.

    A *setting* is an option of a Ba-awa match (a keyword of
    :class:`~mancala_spec.engine.games.match.Match`), not of a single game.
    """

    game: str
    name: str
    values: tuple[Choice, ...]
    default: Value
    rule: str
    help: str
    setting: bool = False

    def __post_init__(self) -> None:
        if not self.accepts(self.default):
            raise OptionError(f"the default of {self.name} is not one of its values",
                              game=self.game, option=self.name, value=self.default,
                              choices=self.choices)

    @property
    def choices(self) -> tuple[Value, ...]:
        """The values the option accepts, in the order declared."""
        return tuple(choice.value for choice in self.values)

    @property
    def type(self) -> type:
        """The type of the option's values (``bool``, ``int`` or ``str``)."""
        return type(self.default)

    def value_of(self, value: object) -> Value | None:
        """The option's value that *value* is, or ``None``: one of its values
        of the same type (so ``1`` is not ``True``), or for a word-valued
        option the word itself (``"backward"`` is ``Chain.BACKWARD``)."""
        for choice in self.choices:
            if isinstance(choice, StrEnum):
                if type(value) in (str, type(choice)) and value == choice:
                    return choice
            elif type(value) is type(choice) and value == choice:
                return choice
        return None

    def accepts(self, value: object) -> bool:
        """Whether *value* is one of the option's values (see :meth:`value_of`)."""
        return self.value_of(value) is not None

    def check(self, value: object) -> Value:
        """The option's value that *value* is (a word becomes its enumeration's
        member); else raise :class:`~mancala_spec.errors.OptionError` naming
        the values it takes, with its fields filled."""
        checked = self.value_of(value)
        if checked is None:
            what = f"match {self.name}" if self.setting else f"option {self.name} of {self.game}"
            allowed = ", ".join(repr(plain(choice)) for choice in self.choices)
            raise OptionError(f"{what} must be one of {allowed}, not {shown(value)}",
                              game=self.game, option=self.name, value=value, choices=self.choices)
        return checked

    def parse(self, text: str) -> Value:
        """The value written as *text* (as on the command line or in a game
        record header): ``true``/``false`` for a yes-or-no option (any case),
        digits for a number, the value itself otherwise."""
        for choice in self.choices:
            written = str(choice).lower() if isinstance(choice, bool) else str(choice)
            if text == written or (isinstance(choice, bool) and text.lower() == written):
                return choice
        allowed = ", ".join(str(c).lower() if isinstance(c, bool) else str(c)
                            for c in self.choices)
        raise OptionError(f"{self.name}={shown(text)} is not a value of {self.game}'s option "
                          f"{self.name}: it takes {allowed}", game=self.game, option=self.name,
                          value=text, choices=self.choices)

    def describe(self) -> str:
        """One line: ``name=default|other…  help``, the default first."""
        shown = [str(c).lower() if isinstance(c, bool) else str(c) for c in self.choices]
        default = shown[self.choices.index(self.default)]
        others = [text for text in shown if text != default]
        return f"{self.name}={'|'.join([default, *others])}  {self.help} ({self.rule})"


def plain(value: Value) -> bool | int | str:
    """*value* as a plain ``bool``, ``int`` or ``str`` (for messages and data)."""
    return value.value if isinstance(value, StrEnum) else value


def _option(game: str, name: str, rule: str, help: str, default: Value,
            *values: tuple[Value, str] | tuple[Value, str, str], setting: bool = False) -> Option:
    return Option(game, name, tuple(Choice(*value) for value in values), default, rule, help,
                  setting)


_PLAYERS = ((2, "two players, each owning their own row"),)

#: Every option of every game and every match setting, in the order shown.
OPTIONS: tuple[Option, ...] = (
    # -- Ba-awa ---------------------------------------------------------------------
    _option("ba-awa", "choose", "ba-awa-choose",
            "which pits a player chooses from: the pits they own, or their row", Choose.OWNED,
            (Choose.OWNED, "a player chooses among the pits they own, which in match play may "
                           "differ from their row"),
            (Choose.ROW, "a player chooses among the pits of their own row, whoever owns them "
                         "now (the Catalan 'of their side' read literally; two players only)")),
    _option("ba-awa", "skip_origin", "ba-awa-origin",
            "whether a lap of 12+ seeds passes over the pit it was lifted from", False,
            (False, "a lap sows into the pit it started from like any other"),
            (True, "a lap of 12 or more seeds passes over the pit it was lifted from")),
    _option("ba-awa", "endless", "ba-awa-endless",
            "what a relay sowing that never ends is", Endless.ILLEGAL,
            (Endless.ILLEGAL, "a move whose relay sowing never ends is not a legal move"),
            (Endless.STOP, "such a sowing stops at the first repeated lap state, the seeds "
                           "staying put"),
            (Endless.CAP_75, "a sowing not over after 75 laps stops there and the game ends, "
                             "the seeds left shared equally (as MancalaGames plays)",
             "mancalagames")),
    _option("ba-awa", "no_move", "ba-awa-no-move",
            "what happens when the player to move has no legal move", NoMove.PASS,
            (NoMove.PASS, "they are passed over; if nobody can move, the opener takes what "
                          "remains"),
            (NoMove.OWNERS, "the game ends and each owner takes the seeds in their own pits"),
            (NoMove.EMPTY_ROW, "the game ends as soon as a move leaves a player's row empty, "
                               "and the other player takes what remains (as EveryBoard plays)",
             "everyboard")),
    _option("ba-awa", "repetition", "ba-awa-repetition",
            "whether a recurring position ends the game", Repetition.END,
            (Repetition.END, "the first recurrence of a position ends the game; the opener "
                             "takes the rest"),
            (Repetition.PLAY_ON, "no rule ends a game whose positions recur (as MancalaGames "
                                 "and EveryBoard play)", "mancalagames")),
    _option("ba-awa", "decided", "ba-awa-winner",
            "whether the game ends as soon as a player has captured more than half the seeds",
            False,
            (False, "the game goes on until the board is cleared"),
            (True, "the game ends as soon as a player has captured more than half the seeds, "
                   "or each has half (as EveryBoard plays)", "everyboard")),
    _option("ba-awa", "players", "ba-awa-three-players", "how many play", 2, *_PLAYERS,
            (3, "three players, each starting with four pits (which four: "
                "ba-awa-three-turns)")),
    _option("ba-awa", "turn_order", "ba-awa-three-turns",
            "with three players, which way turns pass", TurnOrder.SOWING,
            (TurnOrder.SOWING, "turns pass in the sowing direction: South, East, North"),
            (TurnOrder.REVERSE, "turns pass against the sowing direction: South, North, East")),
    _option("ba-awa", "target", "ba-awa-match-aim",
            "the pits a player must control to win the match", 12,
            (10, "ten pits, as it is usually played"),
            (11, "eleven pits, as it is usually played"), (12, "all twelve pits"), setting=True),
    _option("ba-awa", "opener", "ba-awa-match-opener",
            "who opens each later game of the match", Opener.ALTERNATE,
            (Opener.ALTERNATE, "the opening move passes to the next player who still controls "
                               "pits"),
            (Opener.WINNER, "the player who captured the most seeds opens (on a tie, it "
                            "alternates)"),
            (Opener.LOSER, "the player who captured the fewest seeds opens (on a tie, it "
                           "alternates)"),
            setting=True),
    _option("ba-awa", "allocation", "ba-awa-match-allocation",
            "which pits a player receives for the next game", Allocation.EXTEND,
            (Allocation.EXTEND, "with two players, the stronger keeps their row and extends "
                                "counter-clockwise into the other's; with three, consecutive "
                                "blocks"),
            (Allocation.CONSECUTIVE, "consecutive blocks in sowing order from pit a, also with "
                                     "two"),
            setting=True),
    _option("ba-awa", "final_take", "ba-awa-match-setup",
            "whether the seeds taken as a game ends count as captured for the next game",
            FinalTake.COUNTED,
            (FinalTake.COUNTED, "the opener's final take (and any other take that ends a "
                                "game) counts as captured, so it wins pits"),
            (FinalTake.UNCOUNTED, "only seeds captured as fours count: the sources say the "
                                  "opener takes (agafa, nimmt) the last eight, not that they "
                                  "are captured"),
            setting=True),
    # -- Bakuk ----------------------------------------------------------------------
    _option("bakuk", "skip_origin", "bakuk-origin",
            "whether a lap of 6+ counters passes over the hole it was lifted from", False,
            (False, "a lap sows into the hole it started from like any other"),
            (True, "a lap of six or more counters passes over the hole it was lifted from")),
    _option("bakuk", "first_counter", "bakuk-sow",
            "where the first counter of a move goes", FirstCounter.NEXT,
            (FirstCounter.NEXT, "into the hole after the one emptied, as the source says of "
                                "Bakuk"),
            (FirstCounter.ORIGIN, "back into the emptied hole, as the source says of Koumma")),
    _option("bakuk", "sixes", "bakuk-capture",
            "whether a last counter making six captures too", False,
            (False, "only twos and fours are captured, as the source says of Bakuk"),
            (True, "sixes are captured too (our reading of what the source says of "
                   "Koumma: that clusters of six can also be captured)")),
    _option("bakuk", "chain", "bakuk-chain",
            "which way the capture chain runs from the last hole", Chain.FORWARD,
            (Chain.FORWARD, "with the sowing, as the source says"),
            (Chain.BACKWARD, "against the sowing, as MancalaGames plays it by default "
                             "(a variant for comparison)", "mancalagames")),
    _option("bakuk", "decided", "bakuk-end",
            "whether the game ends as soon as its winner is decided", False,
            (False, "the game goes on until the moves are exhausted"),
            (True, "the game ends as soon as a player has captured more than half the counters, "
                   "each has half, or a single counter is left (as MancalaGames plays)",
             "mancalagames")),
    _option("bakuk", "no_move", "bakuk-exhausted",
            "what happens when the player to move has no counters", NoMove.END,
            (NoMove.END, "the game ends"),
            (NoMove.PASS, "they pass; the game ends when nobody can move")),
    _option("bakuk", "leftovers", "bakuk-leftovers",
            "who scores the counters left on the board at the end", Leftovers.UNSCORED,
            (Leftovers.UNSCORED, "nobody"), (Leftovers.OWNERS, "the owner of their hole")),
    _option("bakuk", "repetition", "bakuk-repetition",
            "whether a recurring position ends the game", Repetition.END,
            (Repetition.END, "the first recurrence since the last capture ends the game"),
            (Repetition.PLAY_ON, "no rule ends a game whose positions recur (as MancalaGames "
                                 "plays)", "mancalagames")),
    _option("bakuk", "players", "bakuk-three-players", "how many play", 2, *_PLAYERS,
            (3, "three players, each commanding a pair of adjacent holes (which pair: "
                "bakuk-three-turns)")),
    _option("bakuk", "turn_order", "bakuk-three-turns",
            "with three players, which way turns pass", TurnOrder.SOWING,
            (TurnOrder.SOWING, "turns pass in the sowing direction: South, East, North"),
            (TurnOrder.REVERSE, "turns pass against the sowing direction: South, North, East")),
)

#: The option values the fast kernel (``mancala_spec.fast``) does not play: the
#: values added to play other programs' rules and Koumma as the Bakuk text describes
#: it (001_1132cff477fa5791.txt line 24; see ``mancala_spec.rulesets``). The
#: reference engine plays them all.
NOT_IN_KERNEL: frozenset[tuple[str, str, Value]] = frozenset({
    ("ba-awa", "endless", Endless.CAP_75), ("ba-awa", "no_move", NoMove.EMPTY_ROW),
    ("ba-awa", "repetition", Repetition.PLAY_ON), ("ba-awa", "decided", True),
    ("bakuk", "first_counter", FirstCounter.ORIGIN), ("bakuk", "sixes", True),
    ("bakuk", "decided", True), ("bakuk", "repetition", Repetition.PLAY_ON),
})


def check_kernel_options(game: str, values: Mapping[str, Value]) -> None:
    """Raise :class:`~mancala_spec.errors.OptionError` if the fast kernel does
    not play one of the option *values* of *game* (:data:`NOT_IN_KERNEL`)."""
    for name, value in values.items():
        if (game, name, value) in NOT_IN_KERNEL and type(value) is type(option(game, name).default):
            raise OptionError(
                f"the fast kernel does not play {name}={shown(value)} of {game} (another "
                "program's rules, or Koumma's): play it with the reference engine "
                "(mancala_spec.get_game)", game=game, option=name, value=value)


def kernel_options(game: str) -> tuple[Option, ...]:
    """The options of *game* that the fast kernel (and so the solver) plays:
    those with a value besides the default that is not only another
    program's rules or Koumma's (bakuk-sow, bakuk-capture; :data:`NOT_IN_KERNEL`)."""
    return tuple(o for o in game_options(game)
                 if any((game, o.name, value) not in NOT_IN_KERNEL
                        for value in o.choices if value != o.default))


#: The options of the three-player form: the solver does not solve it.
SEATS = ("players", "turn_order")


def solver_options(game: str = "bakuk") -> tuple[Option, ...]:
    """The options the solver (``mancala_spec.solve``) takes: those the fast kernel
    plays (:func:`kernel_options`) but the three-player form's (:data:`SEATS`). Every
    other option is at its default in the rules it solves, since the kernel plays no
    other value of it; the values the Play page shows hold for those rules only
    (``mancala_spec.solved``)."""
    return tuple(o for o in kernel_options(game) if o.name not in SEATS)


#: The games that have options, in the order shown.
GAMES: tuple[str, ...] = tuple(dict.fromkeys(o.game for o in OPTIONS))


def game_options(game: str) -> tuple[Option, ...]:
    """The options of a single game of *game* (keywords of ``get_game``)."""
    return tuple(o for o in OPTIONS if o.game == game and not o.setting)


def match_settings(game: str = "ba-awa") -> tuple[Option, ...]:
    """The settings of a match of *game* (keywords of ``Match``)."""
    return tuple(o for o in OPTIONS if o.game == game and o.setting)


def option(game: str, name: str) -> Option:
    """The option or match setting *name* of *game*; raises
    :class:`~mancala_spec.errors.OptionError` naming the known ones."""
    for candidate in OPTIONS:
        if candidate.game == game and candidate.name == name:
            return candidate
    known = ", ".join(o.name for o in OPTIONS if o.game == game)
    raise OptionError(f"unknown option {shown(name)} for {game}; its options are: {known}",
                      game=game, option=name)


def parse_options(game: str, items: list[str] | tuple[str, ...]) -> dict[str, Value]:
    """Options written ``NAME=VALUE`` (as after ``-O`` on the command line),
    each parsed by its declaration; raises
    :class:`~mancala_spec.errors.OptionError` for a malformed item, an
    unknown name, a value the option does not take, or a name given twice."""
    values: dict[str, Value] = {}
    for item in items:
        name, sep, text = item.partition("=")
        if not sep or not name:
            raise OptionError(f"an option is written NAME=VALUE, not {shown(item)}", game=game,
                              value=item)
        declared = option(game, name.strip())
        if declared.name in values:
            raise OptionError(f"option {declared.name} is given twice", game=game,
                              option=declared.name, value=text.strip())
        values[declared.name] = declared.parse(text.strip())
    return values


__all__ = ["Allocation", "Chain", "Choice", "Choose", "Endless", "FinalTake",
           "FirstCounter", "GAMES", "Leftovers", "NOT_IN_KERNEL", "NoMove", "OPTIONS", "Opener",
           "Option", "Players", "Repetition", "Target", "TurnOrder", "Value",
           "SEATS", "check_kernel_options", "game_options", "kernel_options", "match_settings",
           "option", "parse_options", "plain", "solver_options"]
