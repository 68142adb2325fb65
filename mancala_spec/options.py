"""Every option of the engine, declared once.

An option switches a rule that the sources leave open (an editorial
completion), selects another form a source describes (three players, a match
target), or a variant kept for comparison. Each is declared here once: its name,
its values and what each means, its default, and the catalogue rule it switches.
Everything else is derived from these declarations: the games' accepted
keywords (:func:`mancala_spec.get_game`), the settings of a Ba-awa
:class:`~mancala_spec.engine.match.Match`, the command line's ``-O NAME=VALUE``
parsing and help, the solver's parameters, the conformance protocol's option
list, and the options table on the rules site.

This module is plain data: it imports nothing of the engine or the catalogue.

>>> from mancala_spec.options import game_options, option
>>> print(*[o.name for o in game_options("bakuk")])
skip_origin first_counter sixes chain decided no_move leftovers repetition players turn_order
>>> chain = option("bakuk", "chain")
>>> chain.default, chain.choices, chain.rule
('forward', ('forward', 'backward'), 'bakuk-chain')
>>> chain.parse("backward"), option("ba-awa", "skip_origin").parse("TRUE")
('backward', True)
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .errors import OptionError

#: The types an option's values may have.
Value = bool | int | str


@dataclass(frozen=True)
class Choice:
    """One value of an option, and what it means. ``program`` names the other
    program (a key of the catalogue's programs, e.g. ``"mancalagames"``) whose
    reading the value plays, for a value offered only to reproduce it."""

    value: Value
    meaning: str
    program: str = ""


@dataclass(frozen=True)
class Option:
    """One option of one game: its values (each with its meaning), its
    default, the catalogue rule it switches, and a line of help.

    A *setting* is an option of a Ba-awa match (a keyword of
    :class:`~mancala_spec.engine.match.Match`), not of a single game.
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
            raise ValueError(f"the default of {self.name} is not one of its values")

    @property
    def choices(self) -> tuple[Value, ...]:
        """The values the option accepts, in the order declared."""
        return tuple(choice.value for choice in self.values)

    @property
    def type(self) -> type:
        """The type of the option's values (``bool``, ``int`` or ``str``)."""
        return type(self.default)

    @property
    def doc(self) -> str:
        """The option's line of help (the same as ``help``)."""
        return self.help

    def accepts(self, value: object) -> bool:
        """Whether *value* is one of the option's values, of the same type
        (so ``1`` is not ``True``)."""
        return any(value == choice and type(value) is type(choice) for choice in self.choices)

    def check(self, value: object) -> Value:
        """*value*, if the option accepts it; else raise
        :class:`~mancala_spec.errors.OptionError` naming the values it does."""
        if not self.accepts(value):
            what = f"match {self.name}" if self.setting else f"option {self.name} of {self.game}"
            raise OptionError(
                f"{what} must be one of {', '.join(map(repr, self.choices))}, not {value!r}")
        return value  # type: ignore[return-value]

    def parse(self, text: str) -> Value:
        """The value written as *text* (as on the command line or in a game
        record header): ``true``/``false`` for a yes-or-no option (any case),
        digits for a number, the value itself otherwise."""
        for choice in self.choices:
            written = str(choice).lower() if isinstance(choice, bool) else str(choice)
            if text == written or (isinstance(choice, bool) and text.lower() == written):
                return choice
        shown = ", ".join(str(c).lower() if isinstance(c, bool) else str(c) for c in self.choices)
        raise OptionError(f"{self.name}={text!r} is not a value of {self.game}'s option "
                          f"{self.name}: it takes {shown}")

    def describe(self) -> str:
        """One line: ``name=default|other…  help``, the default first."""
        shown = [str(c).lower() if isinstance(c, bool) else str(c) for c in self.choices]
        default = shown[self.choices.index(self.default)]
        others = [text for text in shown if text != default]
        return f"{self.name}={'|'.join([default, *others])}  {self.help} ({self.rule})"


def _option(game: str, name: str, rule: str, help: str, default: Value,
            *values: tuple[Value, str] | tuple[Value, str, str], setting: bool = False) -> Option:
    return Option(game, name, tuple(Choice(*value) for value in values), default, rule, help,
                  setting)


_PLAYERS = ((2, "two players, each owning their own row"),)

#: Every option of every game and every match setting, in the order shown.
OPTIONS: tuple[Option, ...] = (
    # -- Ba-awa ---------------------------------------------------------------------
    _option("ba-awa", "choose", "ba-awa-choose",
            "which pits a player chooses from: the pits they own, or their row", "owned",
            ("owned", "a player chooses among the pits they own, which in match play may "
                      "differ from their row"),
            ("row", "a player chooses among the pits of their own row, whoever owns them now "
                    "(the Catalan 'of their side' read literally; two players only)")),
    _option("ba-awa", "skip_origin", "ba-awa-origin",
            "whether a lap of 12+ seeds passes over the pit it was lifted from", False,
            (False, "a lap sows into the pit it started from like any other"),
            (True, "a lap of 12 or more seeds passes over the pit it was lifted from")),
    _option("ba-awa", "endless", "ba-awa-endless",
            "what a relay sowing that never ends is", "illegal",
            ("illegal", "a move whose relay sowing never ends is not a legal move"),
            ("stop", "such a sowing stops at the first repeated lap state, the seeds staying put"),
            ("cap-75", "a sowing not over after 75 laps stops there and the game ends, the seeds "
                       "left shared equally (MancalaGames' reading)", "mancalagames")),
    _option("ba-awa", "no_move", "ba-awa-no-move",
            "what happens when the player to move has no legal move", "pass",
            ("pass", "they are passed over; if nobody can move, the opener takes what remains"),
            ("owners", "the game ends and each owner takes the seeds in their own pits"),
            ("empty-row", "the game ends as soon as a move leaves a player's row empty, and the "
                          "other player takes what remains (EveryBoard's reading)", "everyboard")),
    _option("ba-awa", "repetition", "ba-awa-repetition",
            "whether a recurring position ends the game", "end",
            ("end", "the first recurrence of a position ends the game; the opener takes the rest"),
            ("play-on", "no rule ends a game whose positions recur (the reading of MancalaGames "
                        "and of EveryBoard)", "mancalagames")),
    _option("ba-awa", "decided", "ba-awa-winner",
            "whether the game ends as soon as a player has captured more than half the seeds",
            False,
            (False, "the game goes on until the board is cleared"),
            (True, "the game ends as soon as a player has captured more than half the seeds, "
                   "or each has half (EveryBoard's reading)", "everyboard")),
    _option("ba-awa", "players", "ba-awa-three-players", "how many play", 2, *_PLAYERS,
            (3, "three players, each starting with four pits (which four: "
                "ba-awa-three-turns)")),
    _option("ba-awa", "turn_order", "ba-awa-three-turns",
            "with three players, which way turns pass", "sowing",
            ("sowing", "turns pass in the sowing direction: South, East, North"),
            ("reverse", "turns pass against the sowing direction: South, North, East")),
    _option("ba-awa", "target", "ba-awa-match-aim",
            "the pits a player must control to win the match", 12,
            (10, "ten pits, as it is usually played"),
            (11, "eleven pits, as it is usually played"), (12, "all twelve pits"), setting=True),
    _option("ba-awa", "opener", "ba-awa-match-opener",
            "who opens each later game of the match", "alternate",
            ("alternate", "the opening move passes to the next player who still controls pits"),
            ("winner", "the player who captured the most seeds opens (on a tie, it alternates)"),
            ("loser", "the player who captured the fewest seeds opens (on a tie, it alternates)"),
            setting=True),
    _option("ba-awa", "allocation", "ba-awa-match-allocation",
            "which pits a player receives for the next game", "extend",
            ("extend", "with two players, the stronger keeps their row and extends "
                       "counter-clockwise into the other's; with three, consecutive blocks"),
            ("consecutive", "consecutive blocks in sowing order from pit a, also with two"),
            setting=True),
    # -- Bakuk ----------------------------------------------------------------------
    _option("bakuk", "skip_origin", "bakuk-origin",
            "whether a lap of 6+ counters passes over the hole it was lifted from", False,
            (False, "a lap sows into the hole it started from like any other"),
            (True, "a lap of six or more counters passes over the hole it was lifted from")),
    _option("bakuk", "first_counter", "bakuk-sow",
            "where the first counter of a move goes", "next",
            ("next", "into the hole after the one emptied, as the source says of Bakuk"),
            ("origin", "back into the emptied hole, as the source says of Koumma")),
    _option("bakuk", "sixes", "bakuk-capture",
            "whether a last counter making six captures too", False,
            (False, "only twos and fours are captured, as the source says of Bakuk"),
            (True, "sixes are captured too, as the source says of Koumma")),
    _option("bakuk", "chain", "bakuk-chain",
            "which way the capture chain runs from the last hole", "forward",
            ("forward", "with the sowing, as the source says"),
            ("backward", "against the sowing, as MancalaGames plays it by default "
                         "(a variant for comparison)", "mancalagames")),
    _option("bakuk", "decided", "bakuk-end",
            "whether the game ends as soon as its winner is decided", False,
            (False, "the game goes on until the moves are exhausted"),
            (True, "the game ends as soon as a player has captured more than half the counters, "
                   "each has half, or a single counter is left (MancalaGames' reading)",
             "mancalagames")),
    _option("bakuk", "no_move", "bakuk-exhausted",
            "what happens when the player to move has no counters", "end",
            ("end", "the game ends"),
            ("pass", "they pass; the game ends when nobody can move")),
    _option("bakuk", "leftovers", "bakuk-leftovers",
            "who scores the counters left on the board at the end", "unscored",
            ("unscored", "nobody"), ("owners", "the owner of their hole")),
    _option("bakuk", "repetition", "bakuk-repetition",
            "whether a recurring position ends the game", "end",
            ("end", "the first recurrence since the last capture ends the game"),
            ("play-on", "no rule ends a game whose positions recur (MancalaGames' reading)",
             "mancalagames")),
    _option("bakuk", "players", "bakuk-three-players", "how many play", 2, *_PLAYERS,
            (3, "three players, each commanding a pair of adjacent holes (which pair: "
                "bakuk-three-turns)")),
    _option("bakuk", "turn_order", "bakuk-three-turns",
            "with three players, which way turns pass", "sowing",
            ("sowing", "turns pass in the sowing direction: South, East, North"),
            ("reverse", "turns pass against the sowing direction: South, North, East")),
)

#: The option values the fast kernel (``mancala_spec.fast``) does not play: the
#: values added to play other programs' readings and Koumma (see
#: ``mancala_spec.rulesets``). The reference engine plays them all.
NOT_IN_KERNEL: frozenset[tuple[str, str, Value]] = frozenset({
    ("ba-awa", "endless", "cap-75"), ("ba-awa", "no_move", "empty-row"),
    ("ba-awa", "repetition", "play-on"), ("ba-awa", "decided", True),
    ("bakuk", "first_counter", "origin"), ("bakuk", "sixes", True),
    ("bakuk", "decided", True), ("bakuk", "repetition", "play-on"),
})


def check_kernel_options(game: str, values: Mapping[str, Value]) -> None:
    """Raise :class:`~mancala_spec.errors.OptionError` if the fast kernel does
    not play one of the option *values* of *game* (:data:`NOT_IN_KERNEL`)."""
    for name, value in values.items():
        if (game, name, value) in NOT_IN_KERNEL and type(value) is type(option(game, name).default):
            raise OptionError(
                f"the fast kernel does not play {name}={value!r} of {game} (a reading of "
                "another program, or Koumma's): play it with the reference engine "
                "(mancala_spec.get_game)", game=game, option=name, value=value)


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
    raise OptionError(f"unknown option {name!r} for {game}; its options are: {known}")


def parse_options(game: str, items: list[str] | tuple[str, ...]) -> dict[str, Value]:
    """Options written ``NAME=VALUE`` (as after ``-O`` on the command line),
    each parsed by its declaration; raises
    :class:`~mancala_spec.errors.OptionError` for a malformed item, an
    unknown name, a value the option does not take, or a name given twice."""
    values: dict[str, Value] = {}
    for item in items:
        name, sep, text = item.partition("=")
        if not sep or not name:
            raise OptionError(f"an option is written NAME=VALUE, not {item!r}")
        declared = option(game, name.strip())
        if declared.name in values:
            raise OptionError(f"option {declared.name} is given twice")
        values[declared.name] = declared.parse(text.strip())
    return values


__all__ = ["Choice", "GAMES", "NOT_IN_KERNEL", "OPTIONS", "Option", "Value",
           "check_kernel_options", "game_options", "match_settings", "option", "parse_options"]
