"""A long move as a table: one row per lap (e.g. an endless relay of 60 laps)."""
from __future__ import annotations

from .canvas import add_patch, new_figure, rc, require_matplotlib, setup_axes, text_width
from .model import Diagram, checked_diagram
from .style import FONT, Theme, theme_named


def render_laps(diagram: Diagram, figure=None, *, theme: str | Theme = "light"):
    """A compact table of a long move: one row per lap, one column per pit in
    sowing order, each cell the pit's count at the lap's start. The lifted pit
    is outlined, the pit where the lap's last seed landed is underlined, and
    captures are named (player letter and seeds) beside their row."""
    checked_diagram(diagram)
    matplotlib = require_matplotlib()
    from matplotlib.patches import Rectangle

    colours = theme_named(theme)
    m = diagram.metrics
    laps = [p for p in diagram.panels if p.lap is not None]
    size = len(laps[0].pits)
    cell_w, cell_h = 0.7, 0.5
    names = [box.name for box in laps[0].pits]
    left, right = 1.3, 3.6
    total_w = left + cell_w * size + right
    # the title in as many lines as the table's width needs (a phone's is narrow)
    title: list[str] = []
    for word in diagram.title.split(" "):
        line = f"{title[-1]} {word}" if title else word
        if title and text_width(line, m.size_title, m, bold=True) > total_w - 0.4:
            title.append(word)
        else:
            title[-1:] = [line]
    line_h = m.size_title * 1.3 / 72 / m.inch_per_unit
    top = 1.3 + line_h * (len(title) - 1)
    total_h = top + cell_h * len(laps) + 0.3
    with matplotlib.rc_context(rc()):
        fig = new_figure(figure, total_w, total_h, m, colours.background)
        ax = fig.add_axes((0, 0, 1, 1))
        setup_axes(ax, 0, total_w, total_h, 0)   # y grows downwards: lap 1 on top
        text = dict(family=FONT, color=colours.ink, ha="center", va="center")
        ax.text(0.2, 0.4 + line_h * (len(title) - 1) / 2, "\n".join(title),
                fontsize=m.size_title, weight="bold", ha="left", va="center", family=FONT,
                color=colours.ink, gid="title", linespacing=1.3)
        for column, pit_name in enumerate(names):
            owner = laps[0].pits[column].owner
            ax.text(left + cell_w * (column + 0.5), top - 0.3, pit_name, fontsize=m.size_name,
                    style="italic", **{**text, "color": colours.players[owner]})
        ax.text(0.2, top - 0.3, "lap", fontsize=m.size_name, ha="left", va="center",
                family=FONT, color=colours.grey)
        for row, panel in enumerate(laps):
            y = top + cell_h * row
            ax.text(0.2, y + cell_h / 2, str(panel.lap), fontsize=m.size_end, ha="left",
                    va="center", family=FONT, color=colours.grey)
            for column, box in enumerate(panel.pits):
                x = left + cell_w * column
                lifted = panel.lift is not None and panel.lift.pit == box.pit
                add_patch(ax, Rectangle((x, y), cell_w, cell_h,
                                        facecolor=colours.tints[box.owner],
                                        edgecolor=colours.ink if lifted else colours.background,
                                        lw=2.2 if lifted else 0.8, zorder=3 if lifted else 1))
                ax.text(x + cell_w / 2, y + cell_h / 2, box.label, fontsize=m.size_end,
                        weight="bold" if lifted else "normal", zorder=4,
                        gid=f"p{panel.number}:count:{box.pit}", **text)
                if panel.last_pit == box.pit:
                    ax.plot([x + 0.2, x + cell_w - 0.2], [y + cell_h / 2 + 0.17] * 2,
                            color=colours.ink, lw=1.6, zorder=4, solid_capstyle="butt")
            notes = [mark.label for mark in panel.captures]
            if panel.repeats_lap is not None:
                notes.append("repeats " + ("start" if panel.repeats_lap == 0
                                           else f"end of lap {panel.repeats_lap}"))
            ax.text(left + cell_w * size + 0.2, y + cell_h / 2, "  ".join(notes),
                    fontsize=m.size_end - 0.5, ha="left", va="center", family=FONT,
                    color=colours.ink)
    fig.suptitle("Every lap of the move, one row each. " + (diagram.alt or diagram.caption),
                 visible=False, color=colours.ink, family=FONT)
    from .render import relaid, remember_redraw

    remember_redraw(fig, diagram, lambda metrics, other: render_laps(relaid(diagram, metrics),
                                                                  theme=other))
    return fig
