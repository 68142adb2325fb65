"""What every drawing module shares: matplotlib, imported only when a drawing is
asked for (with a typed error if it is missing), the rc settings that make output
deterministic, text measurement, plain axes, and :func:`save`.
"""
from __future__ import annotations

import functools
import importlib
import io
import math
from pathlib import Path
from types import ModuleType
from typing import Any

from .model import DiagramError
from .style import FONT, Metrics

MISSING = "matplotlib is not installed: pip install 'mancala-spec[diagram]'"


def require_matplotlib() -> ModuleType:
    """The ``matplotlib`` module, or :class:`DiagramError` saying how to install it."""
    try:
        return importlib.import_module("matplotlib")
    except ImportError:
        raise DiagramError(MISSING) from None


def rc() -> dict[str, Any]:
    """rc settings for every drawing: fixed font, and an SVG hash salt so that the
    same drawing always gives the same bytes."""
    return {"svg.hashsalt": "mancala-spec", "font.family": FONT, "path.simplify": False,
            "hatch.linewidth": 0.8}


def new_figure(figure, width: float, height: float, metrics: Metrics, background: str):
    """*figure* (or a new plain :class:`~matplotlib.figure.Figure`) sized *width* by
    *height* panel units, with *background*."""
    require_matplotlib()
    from matplotlib.figure import Figure

    fig = figure if figure is not None else Figure()
    fig.set_size_inches(width * metrics.inch_per_unit, height * metrics.inch_per_unit)
    fig.set_facecolor(background)
    return fig


def text_width(text: str, size: float, metrics: Metrics, bold: bool = False) -> float:
    """A line's width in panel units, measured on the font's outlines."""
    return points_wide(text, size, bold) / 72 / metrics.inch_per_unit


@functools.lru_cache(maxsize=4096)
def points_wide(text: str, size: float, bold: bool = False) -> float:
    """A line's width in points, measured on the font's outlines (cached)."""
    require_matplotlib()
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import TextPath

    font = FontProperties(family=FONT, weight="bold" if bold else "normal", size=size)
    return TextPath((0, 0), text, prop=font).get_extents().width


def setup_axes(ax, x0: float, x1: float, y0: float, y1: float) -> None:
    """Axes showing exactly x0..x1, y0..y1, with nothing but what is drawn."""
    ax.set_xlim(x0, x1)
    ax.set_ylim(y0, y1)
    ax.set_axis_off()


def add_patch(ax, patch):
    """Put *patch* on *ax*, whose limits :func:`setup_axes` fixes; return it. As
    ``ax.add_patch`` does, but without its update of the axes' data limits, which
    nothing here reads (no drawing autoscales): that update, a walk along each
    patch's Bézier segments, took about 5 of the 83 CPU-s of a cold site build.
    The pictures are the same, byte for byte (tests/site/test_diagrams.py)."""
    return ax.add_artist(patch)


#: the PNG text chunk that says the size, in points, of the smallest text drawn (at
#: 96 CSS px to the inch a point is 4/3 CSS px: tests/site/test_phone.py measures
#: how large that text is shown on a phone)
TEXT_KEY = "Smallest text (pt)"


def smallest_text(figure) -> float:
    """The font size in points of the smallest non-blank text drawn on *figure*: its
    texts, titles, labels, tick labels and legends (0 if it has none)."""
    matplotlib = require_matplotlib()
    from matplotlib.axis import Axis
    from matplotlib.text import Text

    if any(ax.axison for ax in figure.axes):  # tick labels get their text when drawn
        with matplotlib.rc_context(rc()):     # (a diagram has none; the draw was ~12 %
            figure.draw_without_rendering()   # of each picture's save)
    sizes: list[float] = []

    def walk(artist) -> None:
        for child in artist.get_children():
            if not child.get_visible() or (isinstance(child, Axis) and not child.axes.axison):
                continue
            if isinstance(child, Text) and child.get_text().strip():
                sizes.append(float(child.get_fontsize()))
            walk(child)

    walk(figure)
    return min(sizes, default=0.0)


def _whole_css_pixels(figure, dpi: int) -> None:
    """Size *figure* so that, at *dpi*, it is a whole number of CSS px (96 to the inch)
    each way: a page then gives the picture its exact size as integer width and height
    attributes, and nothing moves once it loads (a rounded attribute leaves the box
    a fraction of a pixel off its picture, and on a long page the fractions add up
    under a permalink). The figure changes by less than a pixel of *dpi* each way."""
    step = dpi // math.gcd(96, dpi)       # pixels at dpi that make whole CSS px
    # a hundredth of a pixel more: the renderer truncates the size in pixels
    inches = [(max(step, round(size * dpi / step) * step) + 0.01) / dpi
              for size in figure.get_size_inches()]
    figure.set_size_inches(*inches)


def save(figure, target, *, format: str | None = None, dpi: int = 150,
         whole_css_pixels: bool = False) -> bytes:
    """Write *figure* to *target* (a path or binary file) with stable metadata,
    so the same diagram always gives the same bytes; return the bytes. The
    figure's own background (white, or the dark theme's) is kept. With
    *whole_css_pixels* the figure is first sized to a whole number of CSS px
    (a *dpi* of 144 changes it by at most 1.5 pixels)."""
    matplotlib = require_matplotlib()
    if format is None:
        format = Path(target).suffix.lstrip(".") if isinstance(target, (str, Path)) else "png"
    metadata = {"png": {"Software": None, TEXT_KEY: f"{smallest_text(figure):g}"},
                "svg": {"Date": None, "Creator": None},
                "pdf": {"CreationDate": None, "ModDate": None, "Producer": None,
                        "Creator": None}}.get(format, {})
    if whole_css_pixels:
        _whole_css_pixels(figure, dpi)
    buffer = io.BytesIO()
    with matplotlib.rc_context(rc()):
        figure.savefig(buffer, format=format, dpi=dpi, metadata=metadata,
                       facecolor=figure.get_facecolor())
    data = buffer.getvalue()
    if isinstance(target, (str, Path)):
        path = Path(target)
        if not path.exists() or path.read_bytes() != data:   # keep mtimes of unchanged files
            path.write_bytes(data)
    else:
        target.write(data)
    return data
