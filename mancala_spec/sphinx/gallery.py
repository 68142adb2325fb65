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

As a Sphinx extension (``conf.py`` lists it), it gives the gallery index's
thumbnails their dark twins (:class:`DarkThumbnails`): sphinx-gallery makes each
thumbnail from the light picture only.
"""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.transforms import SphinxTransform

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


#: a thumbnail's address in a gallery's index (sphinx-gallery's naming)
THUMBNAIL = re.compile(r"^(?P<dir>.*)/images/thumb/sphx_glr_(?P<stem>.+)_thumb\.png$")
#: the script's choice of the figure its thumbnail shows (sphinx-gallery's comment)
THUMBNAIL_NUMBER = re.compile(r"^# *sphinx_gallery_thumbnail_number *= *(-?\d+)", re.M)


def dark_thumbnail(thumbnail: Path) -> Path | None:
    """The dark twin of a gallery *thumbnail*, made (as sphinx-gallery makes the
    thumbnail, from the same figure) from the dark picture this scraper drew, or None
    when there is none (a script without figures, or one that cannot be redrawn)."""
    from PIL import Image
    from sphinx_gallery.utils import scale_image  # type: ignore[import-untyped]

    match = THUMBNAIL.match(thumbnail.as_posix())
    if match is None:
        return None
    gallery, stem = Path(match["dir"]), match["stem"]
    script = gallery / f"{stem}.py"
    chosen = THUMBNAIL_NUMBER.search(script.read_text(encoding="utf-8")) if script.is_file() \
        else None
    number = int(chosen.group(1)) if chosen else 1
    pictures = sorted((gallery / "images").glob(f"sphx_glr_{stem}_[0-9][0-9][0-9]_dark.png"))
    index = number - 1 if number > 0 else number       # 1-based, or from the end
    if not -len(pictures) <= index < len(pictures):
        return None
    picture = pictures[index]
    dark = thumbnail.with_name(f"{thumbnail.stem}_dark.png")
    if not dark.exists() or dark.stat().st_mtime < picture.stat().st_mtime:
        with Image.open(thumbnail) as light:
            size = light.size
        scale_image(picture, dark, *size)
    return dark


class DarkThumbnails(SphinxTransform):
    """Each gallery thumbnail (``.. image:: …/images/thumb/sphx_glr_*_thumb.png``) is
    followed by its dark twin: the light one shown as ``only-light``, the dark one as
    ``only-dark`` (furo shows the one of the reader's scheme, or the one chosen)."""

    default_priority = 400

    def apply(self, **kwargs: Any) -> None:
        source = Path(self.app.srcdir)
        for image in list(self.document.findall(nodes.image)):
            uri = image["uri"]
            path = source / uri.lstrip("/") if uri.startswith("/") else \
                Path(self.env.doc2path(self.env.docname)).parent / uri
            if THUMBNAIL.match(path.as_posix()) is None or not path.is_file():
                continue
            dark = dark_thumbnail(path)
            if dark is None:
                continue
            twin = image.deepcopy()
            twin["uri"] = uri[: -len(path.name)] + dark.name
            if "candidates" in twin:
                del twin["candidates"]
            image["classes"].append("only-light")
            twin["classes"].append("only-dark")
            image.parent.insert(image.parent.index(image) + 1, twin)


def setup(app: Any) -> dict[str, Any]:
    app.add_transform(DarkThumbnails)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
