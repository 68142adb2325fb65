"""Board geometry: pits, rows, owners, names and the sowing order.

Pits are numbered in sowing (counter-clockwise) order. With *n* pits per row,
South (player 0) owns pits 0…n−1, left to right as South sees them; North
(player 1) owns n…2n−1, which run right to left as South sees them. Each pit is
named from its owner's left: South's a, b, c…, North's A, B, C…, so A is pit n.

>>> board = Board(pits_per_row=3)
>>> [board.name(pit) for pit in range(board.size)]
['a', 'b', 'c', 'A', 'B', 'C']
>>> board.pit("B"), board.next(5)
(4, 0)
"""
from __future__ import annotations

import operator
from collections.abc import Sequence
from dataclasses import dataclass, field
from string import ascii_lowercase

from ..catalogue import implements
from ..errors import IllegalMoveError, InvalidPositionError, NotationError, shown

PLAYER_NAMES = ("South", "North")
PLAYER_LETTERS = "SN"
#: With three players, turns and pits follow the sowing direction: South, then
#: East (who holds both rows' right-hand ends as South sees them), then North.
THREE_PLAYER_NAMES = ("South", "East", "North")
THREE_PLAYER_LETTERS = "SEN"


@dataclass(frozen=True)
class Board:
    """The geometry of a two-row board with *pits_per_row* pits in each row."""

    pits_per_row: int
    players: int = 2
    #: Whether the board has end stores to hold the captured seeds (drawn at
    #: its ends; they are not pits and are never sown).
    stores: bool = field(default=False, repr=False)
    #: The number of playing pits (stores are not pits: they are never sown).
    size: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "size", 2 * self.pits_per_row)

    def next(self, pit: int) -> int:
        """The pit after *pit* in sowing (counter-clockwise) order."""
        return (pit + 1) % self.size

    def previous(self, pit: int) -> int:
        """The pit before *pit* in sowing order (one step clockwise)."""
        return (pit - 1) % self.size

    def row_owner(self, pit: int) -> int:
        """The player whose row holds *pit*: 0 (South) or 1 (North)."""
        return pit // self.pits_per_row

    @property
    @implements("ba-awa-board", "bakuk-board")
    def row_owners(self) -> tuple[int, ...]:
        """Each pit's owner when every player owns their own row: South a…,
        North A… (the two-player game's ownership in both games)."""
        return tuple(self.row_owner(pit) for pit in range(self.size))

    @property
    @implements("ba-awa-three-players", "ba-awa-three-turns", "bakuk-three-players",
                "bakuk-three-turns")
    def three_player_owners(self) -> tuple[int, ...]:
        """Each pit's owner at the start of a three-player game: an equal block
        each (Ba-awa: four pits; Bakuk: a pair of holes), consecutive in sowing
        order from a, South first, then East, then North (Ba-awa: a–d, e–B,
        C–F; Bakuk: a–b, c–A, B–C)."""
        block = self.size // 3
        return tuple(pit // block for pit in range(self.size))

    @property
    def player_names(self) -> tuple[str, ...]:
        """The players' names, player 0 first."""
        return PLAYER_NAMES if self.players == 2 else THREE_PLAYER_NAMES

    @property
    def player_letters(self) -> str:
        """The players' one-letter names used in notation, player 0 first."""
        return PLAYER_LETTERS if self.players == 2 else THREE_PLAYER_LETTERS

    def consecutive_owners(self, counts: Sequence[int]) -> tuple[int, ...]:
        """Owners giving player 0 the first ``counts[0]`` pits in sowing order from
        pit 0, player 1 the next ``counts[1]``, and so on."""
        return tuple(player for player, count in enumerate(counts) for _ in range(count))

    @property
    def default_owners(self) -> tuple[int, ...]:
        """Who owns which pit at the start of a standalone game: with two
        players :attr:`row_owners`, with three :attr:`three_player_owners`."""
        return self.row_owners if self.players == 2 else self.three_player_owners

    def name(self, pit: int) -> str:
        """The pit's name: a, b, c… for South's row, A, B, C… for North's."""
        letter = ascii_lowercase[pit % self.pits_per_row]
        return letter if self.row_owner(pit) == 0 else letter.upper()

    def pit(self, name: str) -> int:
        """The index of the pit called *name* (raises :class:`NotationError`)."""
        letters = ascii_lowercase[: self.pits_per_row]
        if len(name) == 1 and name.lower() in letters:
            index = letters.index(name.lower())
            return index if name.islower() else self.pits_per_row + index
        raise NotationError(
            f"no pit named {shown(name)}: pits are {letters[0]}–{letters[-1]} (South) "
            f"and {letters[0].upper()}–{letters[-1].upper()} (North)", name, 1)


    def pit_index(self, pit: int | str) -> int:
        """The index of the pit *pit* names, as a move: an index, or a name
        such as ``"c"``. Raises :class:`~mancala_spec.errors.IllegalMoveError`
        for anything that is not a pit of this board."""
        if isinstance(pit, str):
            try:
                return self.pit(pit)
            except NotationError as error:
                raise IllegalMoveError(error.message, pit=pit, reason="no-such-pit") from None
        if isinstance(pit, bool) or not isinstance(pit, int):
            raise IllegalMoveError(f"a move is a pit index or name, not {shown(pit)}",
                                   pit=pit, reason="no-such-pit")
        if not 0 <= pit < self.size:
            raise IllegalMoveError(f"no pit {shown(pit)}: pits are numbered 0 to {self.size - 1}",
                                   pit=pit, reason="no-such-pit")
        return pit

    def player_name(self, player: int) -> str:
        """'South' or 'North' ('South', 'East' or 'North' with three players)."""
        return self.player_names[self.player(player)]

    def player_letter(self, player: int) -> str:
        """The player's letter in notation: 'S' or 'N' ('S', 'E' or 'N' with three players)."""
        return self.player_letters[self.player(player)]

    def player(self, player: object) -> int:
        """*player*, if it is a player index of this board (0 to ``players - 1``);
        else :class:`~mancala_spec.errors.InvalidPositionError` (``field="player"``)."""
        try:
            index = -1 if isinstance(player, bool) else operator.index(player)  # type: ignore
        except TypeError:
            index = -1
        if not 0 <= index < self.players:
            raise InvalidPositionError(f"a player is a player index from 0 to "
                                       f"{self.players - 1}, not {shown(player)}", field="player")
        return index


def player_name(player: int, players: int = 2) -> str:
    """'South' for player 0, 'North' for player 1 (with three players: South,
    East, North)."""
    return (PLAYER_NAMES if players == 2 else THREE_PLAYER_NAMES)[player]
