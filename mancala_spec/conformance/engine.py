"""Our engine behind the conformance protocol, and deliberately wrong mutants,
each run as a command::

    python -m mancala_spec.conformance.engine               # the reference engine
    python -m mancala_spec.conformance.engine --mutant NAME # a wrong engine

The mutants exist to prove the suite catches rule mistakes: each one breaks one
rule, and the tests check that at least two cases fail for it.
"""
from __future__ import annotations

import argparse
import sys

from ..engine.games import get_game
from ..engine.games.ba_awa import BaAwa
from ..engine.games.bakuk import Bakuk
from ..engine.sowing import Sowing
from ..engine.trace import EndOfLap
from .protocol import serve


class OwnerFourToMover(BaAwa):
    """Gives a four made during sowing to the mover instead of the pit's owner."""

    def sow_lap(self, s, origin, seeds, rule):
        pit = origin
        for left in range(seeds - 1, -1, -1):
            pit = s.next_pit(pit, origin)
            if s.drop(pit, rule) == 4 and left:
                s.capture(pit, s.mover, "ba-awa-owner-four")
        return pit, s.end_lap(pit, rule)


class NoRelay(BaAwa):
    """Ends every move after its first lap (no relay sowing)."""

    def sow_move(self, pos, pit):
        """One lap, and the move ends."""
        s = Sowing(pos)
        seeds = s.pick_up(pit, "ba-awa-sow")
        last, count = self.sow_lap(s, pit, seeds, "ba-awa-sow")
        if count == 4:
            s.capture(last, s.mover, "ba-awa-mover-four")
        s.end_move("empty-pit", "ba-awa-sowing-end")
        return s


class EightToMover(BaAwa):
    """Gives the last eight seeds to the player who made the last move."""

    def last_eight(self, s, pos):
        if pos.seeds_on_board > 8:
            return None
        s.take_all(lambda pit: s.mover, "ba-awa-eight")
        return "eight-seeds", "ba-awa-eight"


class NoEndlessCheck(BaAwa):
    """Never detects endless sowing: on an endless move it hangs, as a naive engine does."""

    def sow_move(self, pos, pit):
        """Relay laps until one ends, however long that takes."""
        s = Sowing(pos)
        seeds = s.pick_up(pit, "ba-awa-sow")
        while True:
            last, count = self.sow_lap(s, pit, seeds, "ba-awa-sow")
            if count == 4:
                s.capture(last, s.mover, "ba-awa-mover-four")
                s.end_move("four", "ba-awa-mover-four")
                return s
            if count == 1:
                s.end_move("empty-pit", "ba-awa-sowing-end")
                return s
            pit, seeds = last, s.relay(last, "ba-awa-relay")


class BackwardChain(Bakuk):
    """Chains Bakuk captures against the sowing direction."""

    def capture_chain(self, s, last):
        pit = self.board.previous(last)
        while s.pits[pit] in (2, 4):
            s.capture(pit, s.mover, "bakuk-chain")
            pit = self.board.previous(pit)


class CapturesSixes(Bakuk):
    """Also captures a last hole of six. The Bakuk text says only that in Koumma
    clusters of six can also be captured (001_1132cff477fa5791.txt line 24); a last
    hole of six captured is our reading of it (the ``sixes`` variant of
    ``bakuk-capture``)."""

    def sow_move(self, pos, pit):
        """Bakuk's sowing, then a last hole of six captured too."""
        s = super().sow_move(pos, pit)
        last = next(e.pit for e in reversed(s.events) if isinstance(e, EndOfLap))
        if s.pits[last] == 6:
            s.capture(last, s.mover, "bakuk-capture")
        return s


class NoOriginSkip(Bakuk):
    """Ignores ``skip_origin``: a long lap drops into the hole it was lifted from."""

    def next_pit(self, pit, origin):
        return (pit + 1) % self.board.size


MUTANTS = {
    "owner-four-to-mover": OwnerFourToMover,
    "no-relay": NoRelay,
    "eight-to-mover": EightToMover,
    "no-endless-check": NoEndlessCheck,
    "backward-chain": BackwardChain,
    "captures-sixes": CapturesSixes,
    "no-origin-skip": NoOriginSkip,
}


def mutant_factory(name: str):
    """A ``get_game`` replacement that builds the mutant for its game."""
    cls = MUTANTS[name]

    def get(game_name: str, **options):
        game = get_game(game_name, **options)
        return cls(**options) if isinstance(game, cls.__mro__[1]) else game

    return get


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mutant", choices=sorted(MUTANTS),
                        help="serve a deliberately wrong engine")
    args = parser.parse_args(argv)
    serve(get=mutant_factory(args.mutant) if args.mutant else get_game)


if __name__ == "__main__":
    main(sys.argv[1:])
