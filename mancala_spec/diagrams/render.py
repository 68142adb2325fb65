"""Drawing a :class:`~.model.Diagram` with matplotlib (imported only when called).

:func:`render` draws one diagram as a plain :class:`matplotlib.figure.Figure`
(no pyplot state), :func:`render_row` several side by side, :func:`draw_position`
a static board. Every function takes a *theme* (``"light"`` or ``"dark"``); the
sizes come from the diagram's own :class:`~.style.Metrics`.
"""
from __future__ import annotations

import textwrap
from collections.abc import Iterable, Sequence
from typing import Any

from ..engine.board import PLAYER_NAMES
from ..errors import OptionError, not_a, shown
from .canvas import add_patch, new_figure, rc, require_matplotlib, setup_axes, text_width
from .key import draw_legend, legend_rows
from .layout import layout_position
from .model import Diagram, Panel, PitBox, checked_diagram
from .style import FONT, PLAYER_HATCHES, PLAYER_LINESTYLES, Theme, metrics_named, theme_named


def plan(diagram: Diagram, panels=None, columns: int | None = None,
         legend: bool = True) -> dict[str, Any]:
    """Which panels go where, and the drawing's size in units."""
    m = diagram.metrics
    if panels is not None and (isinstance(panels, (str, bytes))
                               or not isinstance(panels, Iterable)):
        raise not_a("panels", panels, "panel numbers (1-based)")
    if columns is not None and (type(columns) is not int or not 1 <= columns <= 12):
        raise not_a("columns", columns, "a whole number of columns from 1 to 12")
    try:
        wanted = set(panels) if panels is not None else None
    except TypeError:                               # unhashable panel numbers
        raise not_a("panels", panels, "panel numbers (1-based)") from None
    chosen = [p for p in diagram.panels if wanted is None or p.number in wanted]
    if not chosen:
        raise OptionError(f"panels {shown(panels)} selects none of the diagram's "
                          f"{len(diagram.panels)} panels", option="panels", value=panels)
    width = max(p.width for p in chosen)
    if columns is None:
        columns = 2 if width < 10.5 and len(chosen) > 2 and m.inch_per_unit >= 0.6 else 1
    columns = max(1, min(columns, len(chosen)))
    rows = [chosen[i:i + columns] for i in range(0, len(chosen), columns)]
    heights = [max(p.height for p in row) for row in rows]
    total_w = width * columns
    size = m.size_title + 1
    title_lines = textwrap.wrap(diagram.title, max(20, int(
        (total_w - 0.4) * len(diagram.title) / text_width(diagram.title, size, m, True))))
    line_h = size * 1.3 / 72 / m.inch_per_unit
    label_lines = []
    if diagram.label:
        label_lines = textwrap.wrap(diagram.label, max(20, int(
            (total_w - 0.4) * len(diagram.label) / text_width(diagram.label, m.size_note, m))))
    label_h = m.size_note * 1.35 / 72 / m.inch_per_unit * len(label_lines)
    header = 0.25 + line_h * len(title_lines) + label_h
    keys = legend_rows(diagram, total_w) if legend else []
    total_h = sum(heights) + header + m.legend_h * len(keys)
    return {"rows": rows, "heights": heights, "width": width, "title": title_lines,
            "label": label_lines, "label_h": label_h, "header": header, "keys": keys,
            "w": total_w, "h": total_h}


def render(diagram: Diagram, figure=None, *, panels=None, columns: int | None = None,
           legend: bool = True, theme: str | Theme = "light"):
    """Draw *diagram*; return the :class:`matplotlib.figure.Figure`.

    *figure* is drawn into (and resized) if given — e.g. ``plt.figure()`` when
    the figure should be managed by pyplot, as in the gallery — else a new
    plain ``Figure`` is made. *panels* selects panels by number (1-based);
    *columns* defaults to one (two for three or more narrow panels, except
    with phone metrics); *theme* is ``"light"`` or ``"dark"``.
    """
    checked_diagram(diagram)
    matplotlib = require_matplotlib()
    colours = theme_named(theme)
    layout_plan = plan(diagram, panels, columns, legend)
    with matplotlib.rc_context(rc()):
        fig = new_figure(figure, layout_plan["w"], layout_plan["h"], diagram.metrics,
                         colours.background)
        _draw(fig, diagram, layout_plan, layout_plan["h"], colours)
        _describe(fig, _part(diagram, layout_plan) + (diagram.alt or diagram.caption), colours)
    # how to draw the same figure again, in another theme or (laid out anew) for a
    # phone: the site's gallery shows it so (mancala_spec.sphinx.gallery)
    remember_redraw(fig, diagram, lambda metrics, other: render(
        relaid(diagram, metrics), panels=panels, columns=None if metrics else columns,
        legend=legend, theme=other))
    return fig


def relaid(diagram: Diagram, metrics: str | None) -> Diagram:
    """*diagram* laid out again with *metrics* (itself if None, or if it cannot be)."""
    if metrics is None or diagram.relayout is None:
        return diagram
    return diagram.relayout(metrics)


def remember_redraw(fig, diagram: Diagram, redraw) -> None:
    """Keep on *fig* how to draw it again, ``redraw(metrics, theme)`` (metrics None:
    the same), and whether it is drawn for a phone already."""
    fig.mancala_redraw = redraw
    fig.mancala_phone = diagram.metrics == metrics_named("phone")


def render_row(diagrams, figure=None, *, panels=None, columns: int | None = None,
               legend: bool = True, theme: str | Theme = "light", stack: bool = False):
    """Draw several diagrams side by side (e.g. one position under two options),
    top-aligned, with one shared key below; options as for :func:`render`. With
    *stack* they are drawn one under the other instead (for a phone)."""
    if isinstance(diagrams, (str, bytes)) or not isinstance(diagrams, Sequence) \
            or not diagrams:
        raise not_a("diagrams", diagrams, "a list of diagrams (layout gives each)")
    for diagram in diagrams:
        checked_diagram(diagram)
    matplotlib = require_matplotlib()
    colours = theme_named(theme)
    plans = [plan(d, panels, columns, False) for d in diagrams]
    if stack:
        total_w = max(p["w"] for p in plans)
        body_h = sum(p["h"] for p in plans)
    else:
        total_w = sum(p["w"] for p in plans)
        body_h = max(p["h"] for p in plans)
    widest = max(diagrams, key=lambda d: d.players)
    m = widest.metrics
    keys = legend_rows(widest, total_w) if legend else []
    legend_h = m.legend_h * len(keys)
    with matplotlib.rc_context(rc()):
        fig = new_figure(figure, total_w, body_h + legend_h, m, colours.background)
        if stack:
            heights = [p["h"] for p in plans] + ([legend_h] if keys else [])
            grid = fig.add_gridspec(len(heights), 1, height_ratios=heights,
                                    left=0, right=1, bottom=0, top=1, wspace=0, hspace=0)
            cells = [(grid[row, 0], p["h"]) for row, p in enumerate(plans)]
        else:
            grid = fig.add_gridspec(2 if keys else 1, len(plans),
                                    width_ratios=[p["w"] for p in plans],
                                    height_ratios=[body_h, legend_h] if keys else [body_h],
                                    left=0, right=1, bottom=0, top=1, wspace=0, hspace=0)
            cells = [(grid[0, column], body_h) for column in range(len(plans))]
        for diagram, diagram_plan, (cell, frame_h) in zip(diagrams, plans, cells):
            _draw(fig.add_subfigure(cell), diagram, diagram_plan, frame_h, colours)
        if keys:
            draw_legend(fig.add_axes((0, 0, 1, legend_h / (body_h + legend_h))), keys, total_w,
                        widest, colours)
    # the text alternative: each diagram's, after the title that tells them apart
    # (not "left"/"right": a phone's picture stacks them)
    _describe(fig, " ".join(f"{d.title}: {d.alt or d.caption}" for d in diagrams), colours)
    remember_redraw(fig, widest, lambda metrics, other: render_row(
        [relaid(d, metrics) for d in diagrams], panels=panels,
        columns=None if metrics else columns, legend=legend, theme=other,
        stack=stack or metrics == "phone"))
    return fig


def _part(diagram: Diagram, layout_plan: dict[str, Any]) -> str:
    """What a drawing of some of *diagram*'s panels shows, before the whole move's
    description ("" when it shows them all)."""
    shown = [panel for row in layout_plan["rows"] for panel in row]
    if len(shown) == len(diagram.panels):
        return ""
    return (f"Drawn: {'; '.join(panel.title for panel in shown)} "
            f"(of {len(diagram.panels)} panels). The whole move: ")


def _describe(fig, text: str, colours: Theme) -> None:
    """Give *fig* its text alternative as an undrawn suptitle (sphinx-gallery takes
    an image's alt text from the figure's titles)."""
    fig.suptitle(text, visible=False, color=colours.ink, family=FONT)


def draw_position(pos, figure=None, *, stores: bool | None = None, title: str | None = None,
                  theme: str | Theme = "light", metrics="desktop"):
    """A static board of *pos*: counts, names, owner shading and stores."""
    return render(layout_position(pos, stores=stores, title=title, metrics=metrics), figure,
                  legend=False, theme=theme)


def _draw(fig, diagram: Diagram, layout_plan: dict[str, Any], frame_h: float,
          colours: Theme) -> None:
    """Draw a planned diagram into *fig* (a figure or subfigure *frame_h* units
    tall, which may be more than the plan needs: the drawing is top-aligned)."""
    m = diagram.metrics
    total_w = layout_plan["w"]
    fig.set_facecolor(colours.background)
    header = layout_plan["header"]
    label_h = layout_plan["label_h"]
    if layout_plan["label"]:
        fig.text(0.2 / total_w, 1 - (0.12 + label_h / 2) / frame_h,
                 "\n".join(layout_plan["label"]), ha="left", va="center", fontsize=m.size_note,
                 color=colours.grey, family=FONT, gid="label", linespacing=1.2)
    title_h = header - label_h
    fig.text(0.2 / total_w, 1 - (label_h + (title_h - 0.05) / 2) / frame_h,
             "\n".join(layout_plan["title"]), ha="left", va="center", fontsize=m.size_title + 1,
             weight="bold", color=colours.ink, family=FONT, gid="title", linespacing=1.25)
    top = frame_h - header
    width = layout_plan["width"]
    for row, row_h in zip(layout_plan["rows"], layout_plan["heights"]):
        for column, panel in enumerate(row):
            rect = (column * width / total_w, (top - row_h) / frame_h,
                    width / total_w, row_h / frame_h)
            _draw_panel(fig.add_axes(rect), panel, width, row_h, colours)
        top -= row_h
    if layout_plan["keys"]:
        height = m.legend_h * len(layout_plan["keys"])
        draw_legend(fig.add_axes((0, (top - height) / frame_h, 1, height / frame_h)),
                    layout_plan["keys"], total_w, diagram, colours)


def _draw_boxes(ax, panel: Panel, tag: str, colours: Theme) -> None:
    """The stores and pits, with their counts and names."""
    from matplotlib.patches import FancyBboxPatch

    m = panel.metrics
    text = dict(family=FONT, color=colours.ink, ha="center", va="center")
    for store in panel.stores:
        corner = (store.x - store.width / 2, store.y - store.height / 2)
        add_patch(ax, FancyBboxPatch(corner, store.width, store.height,
                                     boxstyle="round,pad=0,rounding_size=0.3",
                                     facecolor=colours.tints[store.player], edgecolor=colours.grey,
                                     lw=1.0, hatch=PLAYER_HATCHES[store.player],
                                     hatchcolor=colours.hatches[store.player]))
        ax.text(store.x, store.y + store.height / 2 - 0.28 * m.pit_h / 0.86,
                f"{PLAYER_NAMES[store.player]}\nstore", fontsize=m.size_end - 1.5,
                linespacing=1.0, **text)
        ax.text(store.x, store.y + 0.05, store.label, fontsize=m.size_count, weight="bold",
                gid=f"{tag}:store:{store.player}", **text)
        if store.end_label:
            ax.text(store.x, store.y - 0.45 * m.pit_h / 0.86, store.end_label, fontsize=m.size_end,
                    gid=f"{tag}:store-end:{store.player}", **text)
    for box in panel.pits:
        add_patch(ax, FancyBboxPatch((box.x - m.pit_w / 2, box.y - m.pit_h / 2), m.pit_w,
                                     m.pit_h, boxstyle="round,pad=0,rounding_size=0.2",
                                     facecolor=colours.tints[box.owner], edgecolor=colours.grey,
                                     lw=1.0, hatch=PLAYER_HATCHES[box.owner],
                                     hatchcolor=colours.hatches[box.owner]))
        lift = 0.12 * m.pit_h if box.end_label else 0.0
        ax.text(box.x, box.y + lift, box.label, fontsize=m.size_count, weight="bold",
                gid=f"{tag}:count:{box.pit}", **text)
        if box.end_label:
            ax.text(box.x, box.y - 0.29 * m.pit_h, box.end_label, fontsize=m.size_end,
                    gid=f"{tag}:end:{box.pit}", **text)
        nx, ny = _name_xy(box, panel)
        ax.text(nx, ny, box.name, fontsize=m.size_name, style="italic",
                gid=f"{tag}:name:{box.pit}", **{**text, "color": colours.grey})


def _draw_markers(ax, panel: Panel, tag: str, colours: Theme) -> None:
    """The path of the sowing: arrows, the lift, the numbered drops."""
    from matplotlib.patches import Circle, FancyArrowPatch, FancyBboxPatch
    from matplotlib.path import Path as MplPath

    m = panel.metrics
    r = m.mark_r
    text = dict(family=FONT, color=colours.ink, ha="center", va="center")
    for arrow in panel.arrows:
        if arrow.curved:
            path = MplPath(arrow.points, [MplPath.MOVETO] + [MplPath.CURVE4] * 3)
        else:
            path = MplPath(arrow.points, [MplPath.MOVETO, MplPath.LINETO])
        add_patch(ax, FancyArrowPatch(path=path, arrowstyle="-|>,head_length=4,head_width=2.2",
                                      color=colours.grey, lw=0.9, shrinkA=0, shrinkB=0, zorder=2))
    if panel.lift is not None:
        lift = panel.lift
        add_patch(ax, FancyBboxPatch((lift.x - r, lift.y - r), 2 * r, 2 * r,
                                     boxstyle="round,pad=0,rounding_size=0.04",
                                     facecolor=colours.lift, edgecolor=colours.lift_ink, lw=1.2,
                                     zorder=3))
        ax.text(lift.x, lift.y, lift.label, fontsize=m.size_mark, weight="bold", zorder=4,
                gid=f"{tag}:lift", **{**text, "color": colours.lift_ink})
    for drop in panel.drops:
        add_patch(ax, Circle((drop.x, drop.y), r,
                             facecolor=colours.ink if drop.last else colours.background,
                             edgecolor=colours.ink, lw=1.0, zorder=3))
        ax.text(drop.x, drop.y, drop.label, fontsize=m.size_mark, zorder=4,
                gid=f"{tag}:drop:{drop.order}",
                **{**text, "color": colours.background if drop.last else colours.ink})


def _draw_captures(ax, panel: Panel, tag: str, colours: Theme) -> None:
    """The capture marks, and the arrows of a capture chain."""
    from matplotlib.patches import FancyArrowPatch, FancyBboxPatch
    from matplotlib.path import Path as MplPath

    m = panel.metrics
    for link in panel.links:
        if link.player is None:
            continue
        path = MplPath(link.points, [MplPath.MOVETO, MplPath.LINETO])
        add_patch(ax, FancyArrowPatch(path=path, arrowstyle="-|>,head_length=4,head_width=2.4",
                                      color=colours.players[link.player], lw=1.6, shrinkA=0,
                                      shrinkB=0, zorder=2))
    for mark in panel.captures:
        w, h = m.tag_w, m.tag_h
        add_patch(ax, FancyBboxPatch((mark.x - w / 2, mark.y - h / 2), w, h,
                                     boxstyle="round,pad=0,rounding_size=0.08",
                                     facecolor=colours.tints[mark.player],
                                     edgecolor=colours.players[mark.player], lw=1.8,
                                     linestyle=PLAYER_LINESTYLES[mark.player], zorder=3))
        ax.text(mark.x, mark.y, mark.label, fontsize=m.size_tag, weight="bold", zorder=4,
                gid=f"{tag}:capture:{mark.number}", family=FONT, color=colours.ink,
                ha="center", va="center")


def _draw_panel(ax, panel: Panel, width: float, height: float, colours: Theme) -> None:
    m = panel.metrics
    x0, _, _, y1 = panel.box
    setup_axes(ax, x0, x0 + width, y1 - height, y1)
    tag = f"p{panel.number}"
    if panel.title:
        ax.text(x0 + 0.2, y1 - m.title_h / 2, panel.title, fontsize=m.size_title, weight="bold",
                ha="left", va="center", family=FONT, color=colours.ink, gid=f"{tag}:title")
    _draw_boxes(ax, panel, tag, colours)
    _draw_markers(ax, panel, tag, colours)
    _draw_captures(ax, panel, tag, colours)
    lines = panel.note_lines(width)
    board_low = panel.box[2] + m.note_h * len(lines) + 0.15
    for index, line in enumerate(lines):
        ax.text(x0 + 0.2, board_low - m.note_h * (index + 0.5) - 0.05, line,
                fontsize=m.size_note, ha="left", va="center", family=FONT, color=colours.ink,
                gid=f"{tag}:note:{index}")


def _name_xy(box: PitBox, panel: Panel) -> tuple[float, float]:
    m = panel.metrics
    offset = m.pit_h / 2 + m.name_gap
    return box.x, (box.y - offset if box.y == 0 else box.y + offset)
