"""What a check of a table found: :class:`Report`, its :class:`Problem`
positions, and :func:`describe`, a problem in one line (its position in the
project's notation, as ``--start`` reads it, and its moves)."""
from __future__ import annotations

from dataclasses import dataclass, field

#: the inconsistencies described in full (all are counted)
KEPT = 100
ROW = 6


@dataclass
class Problem:
    """A position where the table is not what the rules give: *kind* is
    ``"value"`` (not the best of its moves), ``"missing"`` (the position, or
    where a move leads, is not in the table), ``"extra"`` (no move from the
    start reaches it) or ``"bound"`` (a value beyond the seeds on the board).
    Values are for the player to move."""

    kind: str
    seeds: int
    number: int
    pits: tuple[int, ...]
    to_move: int
    value: int | None = None             # the table's
    best: int | None = None              # the best of its moves
    moves: dict[str, int | str] = field(default_factory=dict)
    passing: bool = False                # a pass step (no legal move)
    missing: str = ""                    # kind "missing": the position not in the table
    game: str = "ba-awa"

    def position(self) -> str:
        """The position in the project's notation (the captured counts those
        that make up the game's seeds, split as the engine's default splits
        them), as ``--start`` and ``show`` read it; a pass step (which the
        engine refuses as a position) in the same form."""
        if not self.pits:
            return f"position number {self.number:,}"
        from ..engine.games import get_game

        game = get_game(self.game)
        row = len(self.pits) // 2
        captured = game.default_captured(game.total_seeds - sum(self.pits))
        return (f"{','.join(map(str, self.pits[:row]))}/{','.join(map(str, self.pits[row:]))} "
                f"{'SN'[self.to_move]} {captured[0]}-{captured[1]} opener=S")

    def as_json(self) -> dict[str, object]:
        return {"kind": self.kind, "position": self.position(), "seeds": self.seeds,
                "pits": list(self.pits), "to_move": self.to_move, "value": self.value,
                "best": self.best, "moves": self.moves, "pass_step": self.passing,
                **({"missing": self.missing} if self.missing else {})}


def describe(problem: Problem) -> str:
    """*problem* in one line."""
    moves = ", ".join(f"{name} {v:+d}" if isinstance(v, int) else f"{name} {v}"
                      for name, v in problem.moves.items())
    where = problem.position() + (" (a pass step)" if problem.passing else "")
    if problem.kind == "value":
        return (f"{where}: the table's value {problem.value:+d}, the best of its moves "
                f"{problem.best:+d} ({moves})")
    if problem.kind == "missing":
        lacking = problem.missing or "this position"
        return f"{where}: {lacking} is not in the table ({moves or 'no moves'})"
    if problem.kind == "extra":
        return f"{where}: in the table (value {problem.value}) but not reachable from its start"
    return f"{where}: the table's value {problem.value:+d} is beyond the seeds on the board"


@dataclass
class Report:
    """What a check found: the table's positions, those whose moves were
    recomputed (``checked``; Ba-awa: with the pass steps among them, positions
    whose player to move has no legal move, which the engine passes inside
    the move before), the inconsistencies (the first :data:`KEPT` described,
    in the order found: most seeds first) and the seconds it took."""

    folder: str
    game: str
    positions: int = 0
    checked: int = 0
    pass_steps: int = 0
    inconsistencies: int = 0
    problems: list[Problem] = field(default_factory=list)
    seconds: float = 0.0
    levels: dict[int, int] = field(default_factory=dict)
    #: Ba-awa: per level, the pass steps among its positions
    level_pass_steps: dict[int, int] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.inconsistencies == 0

    def add(self, problem: Problem) -> None:
        self.inconsistencies += 1
        if len(self.problems) < KEPT:
            self.problems.append(problem)

    def lines(self) -> list[str]:
        """The report as ``solve verify`` prints it."""
        game = {"ba-awa": "Ba-awa", "bakuk": "Bakuk"}[self.game]
        out = [f"{game} table {self.folder}",
               f"positions checked: {self.checked:,} of {self.positions:,} in the table"
               + (f" ({self.checked - self.pass_steps:,} positions the engine accepts and "
                  f"{self.pass_steps:,} pass steps)" if self.game == "ba-awa" else ""),
               f"inconsistencies: {self.inconsistencies:,}"]
        out += [f"  {describe(p)}" for p in self.problems]
        if self.inconsistencies > len(self.problems):
            out.append(f"  ... and {self.inconsistencies - len(self.problems):,} more")
        out.append(f"checked in {self.seconds:.1f} s")
        return out

    def as_json(self) -> dict[str, object]:
        return {"table": self.folder, "game": self.game, "positions": self.positions,
                "checked": self.checked, "pass_steps": self.pass_steps,
                "inconsistencies": self.inconsistencies,
                "levels": {str(s): c for s, c in self.levels.items()},
                "level_pass_steps": {str(s): c for s, c in self.level_pass_steps.items()},
                "problems": [p.as_json() for p in self.problems],
                "seconds": round(self.seconds, 2)}
