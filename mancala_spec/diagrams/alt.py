r"""A diagram's text alternative, written from the move's events.

:func:`alt_text` says what the picture shows, in the order the engine did it:
which pit the mover played and how many seeds it held, each lap and where it
ended (and whether its seeds were relayed), each capture with its rule, how
the move ended and why, any pass or end of the game, and the resulting
position in notation. Nothing in it is typed for one diagram: it is the
trace's events, so it agrees with the picture drawn from the same trace.

>>> import mancala_spec as ms
>>> trace = ms.get_game("bakuk").parse("3,2,0/1,4,2 S 12-12 opener=S").trace("b")
>>> for sentence in alt_text(trace).split(". "):
...     print(sentence.replace(", ", ",\n  "))
Bakuk: South plays b,
  lifting 2 counters
One lap,
  ending in A (now 2)
Captures: South takes 2 from A (rule bakuk-capture),
  4 from B (rule bakuk-chain),
  2 from C (rule bakuk-chain)
The move ends: the hand is empty after a single lap (rule bakuk-sow)
Game over: the player to move has no counters left (rule bakuk-exhausted)
Resulting position: 3,0,1/0,0,0 N 20-12 opener=S.
"""
from __future__ import annotations

from ..engine import trace as ev
from ..errors import not_a
from .style import words_for


def alt_text(trace: ev.Trace) -> str:
    """The move of *trace* in words, from its events (see the module's docstring)."""
    if not isinstance(trace, ev.Trace):
        raise not_a("trace", trace, "the trace of a move (Position.trace gives one)")
    game = trace.before.game
    name, who = game.board.name, game.player_name
    words = words_for(game.name)
    events = trace.events
    mover = who(trace.before.to_move)
    lifted = next((e.seeds for e in events if isinstance(e, ev.PickUp)), 0)
    sentences = [f"{game.title}: {mover} plays {name(trace.pit)}, lifting {words.count(lifted)}."]
    laps = [e for e in events if isinstance(e, ev.EndOfLap)]
    relayed = {e.pit for e in events if isinstance(e, ev.Relay)}
    if len(laps) == 1:
        sentences.append(f"One lap, ending in {name(laps[0].pit)} (now {laps[0].count}).")
    elif laps:
        steps = []
        for index, lap in enumerate(laps):
            relay = index + 1 < len(laps) and lap.pit in relayed
            steps.append(f"lap {lap.lap} ends in {name(lap.pit)} (now {lap.count})"
                         + (", relayed" if relay else ""))
        sentences.append(f"{len(laps)} laps: " + "; ".join(steps) + ".")
    captures = [e for e in events if isinstance(e, ev.Capture)]
    if captures:
        parts, last = [], None
        for capture in captures:
            taker = who(capture.player)
            lead = f"{taker} takes " if taker != last else ""
            parts.append(f"{lead}{capture.seeds} from {name(capture.pit)} (rule {capture.rule})")
            last = taker
        sentences.append("Captures: " + ", ".join(parts) + ".")
    else:
        sentences.append("No capture.")
    for event in events:
        if isinstance(event, ev.EndOfMove):
            sentences.append(f"The move ends: {ev.MOVE_END_REASONS[event.reason]} "
                             f"(rule {event.rule}).")
        elif isinstance(event, ev.Pass):
            sentences.append(f"{who(event.player)} has no legal move and passes "
                             f"(rule {event.rule}).")
        elif isinstance(event, ev.EndOfGame):
            sentences.append(f"{event.describe().capitalize()} (rule {event.rule}).")
    sentences.append(f"Resulting position: {trace.position.to_text()}.")
    return " ".join(sentences)


__all__ = ["alt_text"]
