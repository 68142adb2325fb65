"""The gallery's image scraper: every figure in four pictures, as the rule diagrams are.

sphinx-gallery runs each gallery script and asks its ``image_scrapers`` for the
figures a code block made. This scraper (``sphinx_gallery_conf["image_scrapers"] =
("mancala_spec.sphinx.gallery.scraper",)``) saves each open pyplot figure as the
script drew it (the light, desktop picture: the one sphinx-gallery makes its
thumbnail from), then, when the figure says how to draw itself again
(``figure.mancala_redraw(metrics, theme)``, set by :func:`mancala_spec.diagrams.render`
and its siblings), the same figure in the dark theme, and for a phone in both themes
(unless the script drew it for a phone already). Each picture is written by
:func:`mancala_spec.diagrams.save`: a whole number of CSS px, with the size of its
smallest text in its metadata. The reST it returns shows the picture that fits:
``only-light``/``only-dark`` (furo) by theme, ``diagram-wide``/``diagram-narrow``
(``docs/_static/diagrams.css``) by width, each with its size and the figure's text
alternative. A figure that cannot draw itself again is shown as drawn, in both themes.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ..diagrams import save

#: pictures at twice 96 dpi: sharp on a phone's screen, and a whole number of CSS px
#: whenever the pixels are even
DPI = 192
#: (metrics, theme, CSS classes); metrics None: as the script drew it
VARIANTS = ((None, "light", ["only-light"]), (None, "dark", ["only-dark"]),
            ("phone", "light", ["only-light"]), ("phone", "dark", ["only-dark"]))


def _alt(figure) -> str:
    """The figure's text alternative: its undrawn suptitle (mancala_spec.diagrams),
    else its axes' titles."""
    title = figure.get_suptitle() if hasattr(figure, "get_suptitle") else ""
    if not title:
        title = "; ".join(t for ax in figure.axes for t in (ax.get_title("left"), ax.get_title())
                          if t)
    return " ".join(title.split())


def _image_rst(path: Path, source_dir: Path, alt: str, classes: list[str]) -> str:
    from .diagrams import png_size

    width, height = png_size(path)
    uri = "/" + Path(os.path.relpath(path, source_dir)).as_posix()
    return (f".. image:: {uri}\n"
            f"   :alt: {alt}\n"
            f"   :width: {round(width * 96 / DPI)}\n"
            f"   :height: {round(height * 96 / DPI)}\n"
            f"   :class: {' '.join(classes)}\n")


def scraper(block: Any, block_vars: dict[str, Any], gallery_conf: dict[str, Any]) -> str:
    """The reST of the figures the code block left open, each in its variants."""
    import matplotlib.pyplot as plt

    out = []
    numbers = plt.get_fignums()
    single = "sphx-glr-single-img" if len(numbers) == 1 else "sphx-glr-multi-img"
    for number in numbers:
        figure = plt.figure(number)
        first = Path(next(block_vars["image_path_iterator"]))
        redraw = getattr(figure, "mancala_redraw", None)
        phone = redraw is not None and not getattr(figure, "mancala_phone", False)
        alt = _alt(figure) or f"Figure {number} of {first.stem}"
        pictures: list[str] = []
        for metrics, theme, classes in VARIANTS:
            if metrics == "phone" and not phone:
                continue
            suffix = "".join(f"_{part}" for part in (metrics, theme if theme == "dark" else None)
                             if part)
            path = first.with_name(f"{first.stem}{suffix}{first.suffix}")
            if (metrics, theme) == (None, "light"):
                drawn = figure
            elif redraw is not None:
                drawn = redraw(metrics, theme)
            else:               # nothing to redraw: the same picture in both themes
                drawn, classes = None, []
            if drawn is None:
                pictures[0] = pictures[0].replace(" only-light\n", "\n")
                continue
            save(drawn, path, dpi=DPI, whole_css_pixels=True)
            width = ["diagram-wide"] if phone and metrics is None else (
                ["diagram-narrow"] if metrics == "phone" else [])
            pictures.append(_image_rst(path, Path(gallery_conf["src_dir"]), alt,
                                       [single, "no-scaled-link", *width, *classes]))
        out.append("\n".join(pictures))
    plt.close("all")
    return "\n\n" + "\n\n".join(out) + "\n\n" if out else ""
