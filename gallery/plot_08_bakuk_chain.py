"""
Bakuk's capture and its chain, forward and backward
===================================================

In Bakuk, if the last counter of a sowing makes its hole hold exactly two or
four, on either side, the mover captures them (rule ``bakuk-capture``), and
then each following hole **in the sowing direction** that holds two or four,
until the first that does not (``bakuk-chain``). South plays *b*: the last
counter makes two in *A*; going on counter-clockwise, *B* holds four (taken)
and *C* three (the chain stops).

The source contrasts this with Oware, whose secondary captures run
*backwards*, against the sowing (``bakuk-chain``), and MancalaGames, a mancala
program, plays Bakuk's chain backwards by default (a secondary source of what
that program does, not of the game). The engine offers the backward chain as
the variant ``chain="backward"``: on the right, the
same position under it. From *A* the chain now looks at *c*, which the sowing
had just raised to two (taken), then *b*, emptied by the move (the chain
stops). The forward chain of :rule-ref:`bakuk-chain` earns South six counters, the backward
variant four.
"""
import matplotlib.pyplot as plt

import mancala_spec as ms
from mancala_spec.diagrams import layout, render_row

text = "3,2,1/1,4,3 S 10-12 opener=S"
diagrams = []
for chain, what in (("forward", "the source"), ("backward", "a variant")):
    trace = ms.get_game("bakuk", chain=chain).parse(text).trace("b")
    print(f"chain={chain}:", ", ".join(e.describe(trace.before.game.board.name)
                                       for e in trace.captures))
    print("  resulting position:", trace.position.to_text())
    # narrow panels, so that the two boards fit side by side at a legible size
    diagrams.append(layout(trace, title=f"chain={chain!r} ({what})", min_width=6.6))

render_row(diagrams, plt.figure())
plt.show()
