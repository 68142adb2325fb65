"""The key: the legend row under a diagram, and :func:`render_key`, the
"how to read a diagram" figure the rules pages show once near their first diagram.

Both draw the markers with the same sizes and colours as the diagrams, so the
key cannot drift from what it explains.
"""
from __future__ import annotations

from typing import Any

from .canvas import new_figure, require_matplotlib, rc, setup_axes, text_width
from .model import Diagram
from .style import (FONT, PLAYER_HATCHES, PLAYER_LINESTYLES, Metrics, Theme, metrics_named,
                    player_letters, player_names, theme_named, words_for)

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
        ax.add_patch(FancyBboxPatch((x, y - r), 2 * r, 2 * r,
                                    boxstyle="round,pad=0,rounding_size=0.04",
                                    facecolor=colours.lift, edgecolor=colours.lift_ink, lw=1.2))
        if label:
            ax.text(x + r, y, label, fontsize=m.size_mark, weight="bold",
                    color=colours.lift_ink, **text)
        return 2 * r + 0.11
    if kind in ("drop", "last"):
        last = kind == "last"
        ax.add_patch(Circle((x + r, y), r, edgecolor=colours.ink, lw=1.0,
                            facecolor=colours.ink if last else colours.background))
        if label:
            ax.text(x + r, y, label, fontsize=m.size_mark,
                    color=colours.background if last else colours.ink, **text)
        return 2 * r + 0.11
    ax.add_patch(FancyBboxPatch((x, y - m.tag_h / 2), m.tag_w, m.tag_h,
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
    ]


def render_key(game: str = "ba-awa", figure=None, *, theme: str | Theme = "light",
               metrics: Metrics | str = "phone"):
    """A compact "how to read a diagram" figure for *game*: each box, marker and
    colour of a sowing diagram beside what it means, drawn by the same code."""
    matplotlib = require_matplotlib()
    from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

    m = metrics_named(metrics)
    colours = theme_named(theme)
    lines = key_lines(game)
    step = max(m.legend_h, m.pit_h * 0.75 + 0.2)
    head = m.title_h
    symbol_w = 2.0
    width = max(m.min_panel_w, symbol_w + 0.3 + max(
        text_width(meaning, m.size_note, m) for *_, meaning in lines) + 0.3)
    height = head + step * len(lines) + 0.2
    with matplotlib.rc_context(rc()):
        fig = new_figure(figure, width, height, m, colours.background)
        ax = fig.add_axes((0, 0, 1, 1))
        setup_axes(ax, 0, width, 0, height)
        ax.text(0.2, height - head / 2, "How to read a diagram", fontsize=m.size_title,
                weight="bold", family=FONT, color=colours.ink, ha="left", va="center",
                gid="key-title")
        for index, (kind, player, label, meaning) in enumerate(lines):
            y = height - head - step * (index + 0.5)
            x = 0.3
            if kind in ("pit", "owners"):
                boxes = [(0, label)] if kind == "pit" else [(0, ""), (1, "")]
                for offset, (owner, box_text) in enumerate(boxes):
                    w, h = m.pit_w * 0.75 if kind == "owners" else m.pit_w, m.pit_h * 0.75
                    left = x + offset * (w + 0.2)
                    ax.add_patch(FancyBboxPatch((left, y - h / 2), w, h,
                                                boxstyle="round,pad=0,rounding_size=0.15",
                                                facecolor=colours.tints[owner],
                                                edgecolor=colours.grey, lw=1.0,
                                                hatch=PLAYER_HATCHES[owner],
                                                hatchcolor=colours.hatches[owner]))
                    if box_text:
                        ax.text(left + w / 2, y, box_text, fontsize=m.size_end, family=FONT,
                                color=colours.ink, ha="center", va="center", linespacing=1.0)
            elif kind == "drops":
                r = m.mark_r
                x1 = x + 2 * r + 0.5
                draw_symbol(ax, "drop", None, x, y, m, colours, label="1")
                draw_symbol(ax, "drop", None, x1, y, m, colours, label="2")
                ax.add_patch(FancyArrowPatch((x + 2 * r, y), (x1, y),
                                             arrowstyle="-|>,head_length=4,head_width=2.2",
                                             color=colours.grey, lw=0.9, shrinkA=0, shrinkB=0))
            else:
                draw_symbol(ax, kind, player, x, y, m, colours, label=label)
            ax.text(symbol_w + 0.3, y, meaning, fontsize=m.size_note, family=FONT,
                    color=colours.ink, ha="left", va="center", gid=f"key-line-{index}")
    return fig
