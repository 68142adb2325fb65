"""Sowing diagrams drawn from the engine's own traces.

Two steps, so that what is drawn can be checked without drawing it:

1. :func:`layout` (module ``layout``) turns a :class:`~mancala_spec.engine.trace.Trace`
   into a :class:`Diagram` (module ``model``): plain data (panels of pit boxes with
   seed counts, lift and drop markers numbered in order, arrows, capture marks
   naming the capturing player and the rule, and notes saying why each lap and
   the move ended). It is computed **only** by replaying the trace's events on
   ``trace.before``, and it checks every count an event states against the
   replay and the final board against ``trace.position``, so a diagram cannot
   disagree with the engine: a corrupted trace raises :class:`DiagramError`.
2. :func:`render` (module ``render``) draws a diagram with matplotlib (a plain
   :class:`matplotlib.figure.Figure`, no pyplot state), in a light or a dark
   theme; :func:`save` writes it with stable metadata, so the same diagram
   gives the same bytes. :func:`render_laps` draws a long move compactly, one
   row per lap; :func:`render_key` draws "how to read a diagram".

Sizes and colours live in module ``style``: ``DESKTOP`` and ``PHONE``
:class:`Metrics`, ``LIGHT`` and ``DARK`` :class:`Theme`. Importing this package
does not import matplotlib; drawing without it raises :class:`DiagramError`
saying how to install it.

>>> import mancala_spec as ms
>>> trace = ms.get_game("bakuk").parse("3,2,0/1,4,2 S 12-12 opener=S").trace("b")
>>> diagram = layout(trace)
>>> [(d.order, d.name, d.count) for d in diagram.panels[0].drops]
[(1, 'c', 1), (2, 'A', 2)]
>>> [(c.name, c.seeds, c.player_letter, c.rule) for c in diagram.panels[0].captures]
[('A', 2, 'S', 'bakuk-capture'), ('B', 4, 'S', 'bakuk-chain'), ('C', 2, 'S', 'bakuk-chain')]
>>> diagram.final_pits == trace.position.pits
True
"""
from __future__ import annotations

from .canvas import save
from .key import key_lines, render_key
from .laps import render_laps
from .layout import layout, layout_position, option_changes
from .model import (
    Arrow,
    CaptureMark,
    Diagram,
    DiagramError,
    DropMark,
    Lift,
    Panel,
    PitBox,
    StoreBox,
)
from .render import draw_position, render, render_row
from .run import parse_options, trace_move
from .style import (
                    DARK,
                    DESKTOP,
                    GREY,
                    INK,
                    LIFT_COLOUR,
                    LIGHT,
                    OKABE_ITO,
                    PHONE,
                    PLAYER_COLOURS,
                    PLAYER_HATCHES,
                    PLAYER_LINESTYLES,
                    PLAYER_TINTS,
                    Metrics,
                    Theme,
                    Words,
                    words_for,
)

__all__ = [
    "Arrow", "CaptureMark", "DARK", "DESKTOP", "Diagram", "DiagramError", "DropMark", "GREY",
    "INK", "LIFT_COLOUR", "LIGHT", "Lift", "Metrics", "OKABE_ITO", "PHONE", "PLAYER_COLOURS",
    "PLAYER_HATCHES", "PLAYER_LINESTYLES", "PLAYER_TINTS", "Panel", "PitBox", "StoreBox",
    "Theme", "Words", "draw_position", "layout", "layout_position", "option_changes",
    "key_lines", "parse_options", "render", "render_key", "render_laps", "render_row", "save",
    "trace_move", "words_for",
]
