"""The key: the legend row under a diagram, and :func:`render_key`, the
"how to read a diagram" figure the rules pages show once near their first diagram.

Both draw the markers with the same sizes and colours as the diagrams, so the
key cannot drift from what it explains.
"""
from __future__ import annotations

from typing import Any

from .canvas import add_patch, new_figure, rc, require_matplotlib, setup_axes, text_width
from .model import Diagram
from .style import (
    FONT,
    PLAYER_HATCHES,
    PLAYER_LINESTYLES,
    Metrics,
    Theme,
    metrics_named,
    player_letters,
    player_names,
    theme_named,
    words_for,
)

Item = tuple[str, Any, str, float]   # kind, player, text, width in units


def legend_rows(diagram: Diagram, width: float) -> list[list[Item]]:
    """The key's items, (kind, player, text, width): the markers, then the capture
    marks, in one row if they fit, else the capture marks on a row of their own."""
    m = diagram.metrics

    def item(kind, player, label) -> Item:
        symbol = m.tag_w + 0.14 if kind == "capture" else 2 * m.mark_r + 0.11
        return (kind, player, label, symbol + text_width(label, m.size_note - 0.5, m) + 0.5)

    markers = [item("lift", None, f"{diagram.words.pieces} lifted"),
               item("drop", None, "drops in order"),
               item("last", None, f"last {diagram.words.piece}")]
    marks = [item("capture", player, f"captured by {player_names(diagram.players)[player]}")
             for player in range(diagram.players)]
    rows: list[list[Item]] = []
    for group in ([markers + marks] if sum(i[3] for i in markers + marks) + 0.25 <= width
                  else [markers, marks]):
        rows.append([])
        used = 0.25
        for entry in group:
            if rows[-1] and used + entry[3] > width:
                rows.append([])
                used = 0.25
            rows[-1].append(entry)
            used += entry[3]
    return rows


def draw_symbol(ax, kind: str, player: Any, x: float, y: float, m: Metrics, colours: Theme,
                players: int = 2, label: str = "") -> float:
    """Draw one marker of the key with its left edge at *x*; return its width."""
    from matplotlib.patches import Circle, FancyBboxPatch

    r = m.mark_r
    text = dict(family=FONT, ha="center", va="center")
    if kind == "lift":
        add_patch(ax, FancyBboxPatch((x, y - r), 2 * r, 2 * r,
                                     boxstyle="round,pad=0,rounding_size=0.04",
                                     facecolor=colours.lift, edgecolor=colours.lift_ink, lw=1.2))
        if label:
            ax.text(x + r, y, label, fontsize=m.size_mark, weight="bold",
                    color=colours.lift_ink, **text)
        return 2 * r + 0.11
    if kind in ("drop", "last"):
        last = kind == "last"
        add_patch(ax, Circle((x + r, y), r, edgecolor=colours.ink, lw=1.0,
                             facecolor=colours.ink if last else colours.background))
        if label:
            ax.text(x + r, y, label, fontsize=m.size_mark,
                    color=colours.background if last else colours.ink, **text)
        return 2 * r + 0.11
    add_patch(ax, FancyBboxPatch((x, y - m.tag_h / 2), m.tag_w, m.tag_h,
                                 boxstyle="round,pad=0,rounding_size=0.08",
                                 facecolor=colours.tints[player],
                                 edgecolor=colours.players[player], lw=1.8,
                                 linestyle=PLAYER_LINESTYLES[player]))
    ax.text(x + m.tag_w / 2, y, label or player_letters(players)[player], fontsize=m.size_tag,
            weight="bold", color=colours.ink, **text)
    return m.tag_w + 0.14


def draw_legend(ax, rows: list[list[Item]], width: float, diagram: Diagram,
                colours: Theme) -> None:
    """Draw the legend *rows* into *ax*, *width* units wide."""
    m = diagram.metrics
    setup_axes(ax, 0, width, 0, m.legend_h * len(rows))
    text = dict(family=FONT, color=colours.ink, va="center", ha="left",
                fontsize=m.size_note - 0.5)
    for number, row in enumerate(rows):
        y = m.legend_h * (len(rows) - number - 0.5)
        x = 0.25
        for kind, player, label, item_w in row:
            symbol = draw_symbol(ax, kind, player, x, y, m, colours, diagram.players)
            ax.text(x + symbol, y, label, gid=f"key-{kind}-{player}", **text)
            x += item_w


def key_lines(game: str) -> list[tuple[str, Any, str, str]]:
    """The key's lines: (kind, player, symbol text, meaning), in the game's words."""
    words = words_for(game)
    hole = "hole" if game == "bakuk" else "pit"
    return [
        ("pit", 0, "4\n→ 5", f"a {hole}: its count at the lap's start → at the lap's end"),
        ("owners", None, "", f"shading: South's {hole}s plain, North's hatched"),
        ("lift", None, "3", f"{words.pieces} lifted from the {hole} played (or relayed)"),
        ("drops", None, "", f"each {words.piece} dropped, numbered in order along the arrows"),
        ("last", None, "4", f"the lap's last {words.piece}"),
        ("capture", 0, "S+2", f"{words.pieces} captured by South (solid outline)"),
        ("capture", 1, "N+4", f"{words.pieces} captured by North (dashed outline)"),
        ("note", None, "", "North's row is on top, as the players see the board; sowing runs "
                           "counter-clockwise. Notes under each lap name the rule of every "
                           "capture, relay and ending."),
    ]


def render_key(game: str = "ba-awa", figure=None, *, theme: str | Theme = "light",
               metrics: Metrics | str = "phone"):
    """A compact "how to read a diagram" figure for *game*: each box, marker and
    colour of a sowing diagram beside what it means, drawn by the same code. With
    the default phone metrics it is 8.6 units (about 330 CSS px) wide, so that it
    is shown at its true size, text included, on a phone as on a desktop."""
    matplotlib = require_matplotlib()
    from matplotlib.patches import FancyArrowPatch

    m = metrics_named(metrics)
    colours = theme_named(theme)
    symbol_w = 1.75
    width = m.min_panel_w
    room = width - symbol_w - 0.6
    line_h = m.size_note * 1.3 / 72 / m.inch_per_unit
    rows = []
    for kind, player, label, meaning in key_lines(game):
        wrapped = _wrap(meaning, width - 0.6 if kind == "note" else room, m)
        symbol_h = m.pit_h if kind == "pit" else 2 * m.mark_r
        rows.append((kind, player, label, wrapped,
                     max(symbol_h, line_h * len(wrapped)) + 0.3))
    head = m.title_h
    height = head + sum(row[-1] for row in rows) + 0.15
    with matplotlib.rc_context(rc()):
        fig = new_figure(figure, width, height, m, colours.background)
        ax = fig.add_axes((0, 0, 1, 1))
        setup_axes(ax, 0, width, 0, height)
        ax.text(0.2, height - head / 2, "How to read a diagram", fontsize=m.size_title,
                weight="bold", family=FONT, color=colours.ink, ha="left", va="center",
                gid="key-title")
        top = height - head
        for index, (kind, player, label, wrapped, row_h) in enumerate(rows):
            y = top - row_h / 2
            top -= row_h
            x = 0.2
            if kind == "pit":
                _sample_box(ax, x, y, 0, m, colours, label)
            elif kind == "owners":
                _sample_box(ax, x, y, 0, m, colours, "", 0.6)
                _sample_box(ax, x + 0.75, y, 1, m, colours, "", 0.6)
            elif kind == "drops":
                r = m.mark_r
                x1 = x + 2 * r + 0.45
                draw_symbol(ax, "drop", None, x, y, m, colours, label="1")
                draw_symbol(ax, "drop", None, x1, y, m, colours, label="2")
                add_patch(ax, FancyArrowPatch((x + 2 * r, y), (x1, y),
                                              arrowstyle="-|>,head_length=4,head_width=2.2",
                                              color=colours.grey, lw=0.9, shrinkA=0, shrinkB=0))
            elif kind != "note":
                draw_symbol(ax, kind, player, x, y, m, colours, label=label)
            ax.text(0.2 if kind == "note" else symbol_w + 0.15, y, "\n".join(wrapped),
                    fontsize=m.size_note, family=FONT,
                    color=colours.ink, ha="left", va="center", linespacing=1.2,
                    gid=f"key-line-{index}")
    return fig


def _sample_box(ax, x: float, y: float, owner: int, m: Metrics, colours: Theme, label: str,
                scale: float = 1.0) -> None:
    """A pit as the diagrams draw it: owner's tint and hatch, count, count at the end."""
    from matplotlib.patches import FancyBboxPatch

    w, h = m.pit_w * scale, m.pit_h * scale
    add_patch(ax, FancyBboxPatch((x, y - h / 2), w, h, boxstyle="round,pad=0,rounding_size=0.15",
                                 facecolor=colours.tints[owner], edgecolor=colours.grey, lw=1.0,
                                 hatch=PLAYER_HATCHES[owner], hatchcolor=colours.hatches[owner]))
    if label:
        count, end = label.split("\n")
        ax.text(x + w / 2, y + 0.12 * h, count, fontsize=m.size_count, weight="bold",
                family=FONT, color=colours.ink, ha="center", va="center")
        ax.text(x + w / 2, y - 0.29 * h, end, fontsize=m.size_end, family=FONT,
                color=colours.ink, ha="center", va="center")


def _wrap(text: str, room: float, m: Metrics) -> list[str]:
    """*text* in lines no wider than *room* units, measured on the font."""
    lines: list[str] = []
    for word in text.split():
        if lines and text_width(f"{lines[-1]} {word}", m.size_note, m) <= room:
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    return lines
