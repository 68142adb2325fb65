"""Sphinx extension: what the theme and docutils emit, made readable by everyone.

- :class:`LightCode` and :class:`DarkCode`, the code highlighting styles of the
  site (``pygments_style`` / ``pygments_dark_style`` in conf.py): every token
  has a contrast of at least 4.5:1 (WCAG AA) against the code background and
  against the background of an emphasised line (tests/site/test_a11y.py checks it).
- Each page's HTML is mended where docutils emits roles that do not fit
  together: a bibliography's ``role="list"`` holds entries with the deprecated
  ``role="doc-biblioentry"`` (axe: aria-required-children), which become list
  items; viewcode's module index nests ``<ul>`` directly in ``<ul>`` (axe: list),
  which becomes a list item holding the nested list; an image without its size
  (sphinx-gallery's, the analysis figures) gets its PNG's width and height;
  a gallery card's visible title is hidden from screen readers, which hear it
  once, as the name of the card's link.

The sidebar's caption headings get their level in the template override
``docs/_templates/sidebar/navigation.html``.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from a11y_pygments.a11y_high_contrast_dark.style import (  # type: ignore[import-untyped]
    Theme as _HighContrastDark,
)
from a11y_pygments.a11y_high_contrast_light.style import (  # type: ignore[import-untyped]
    Theme as _HighContrastLight,
)

from .. import __version__


class LightCode(_HighContrastLight):
    """Quansight's a11y high-contrast light style (every token at least 6:1)."""

    name = "mancala-light"


class DarkCode(_HighContrastDark):
    """Quansight's a11y high-contrast dark style, with an emphasised line's
    background dark enough that every token keeps 4.5:1 on it too."""

    name = "mancala-dark"
    highlight_color = "#45401f"


def mend_roles(html: str) -> str:
    """*html* with the bibliography's entries as list items."""
    return html.replace('role="doc-biblioentry"', 'role="listitem"')


def nest_lists(html: str) -> str:
    """viewcode's index writes ``<li>a</li><ul>…</ul>`` for a module's submodules:
    keep the ``<li>`` open around the nested list, ``<li>a<ul>…</ul></li>``."""
    out: list[str] = []
    reopened: list[bool] = []          # per open <ul>: whether it sits in a reopened <li>
    pos = 0
    for match in re.finditer(r"</li>\s*<ul>|<ul>|</ul>", html):
        out.append(html[pos:match.start()])
        pos = match.end()
        tag = match.group()
        if tag == "</ul>":
            out.append("</ul></li>" if reopened and reopened.pop() else "</ul>")
        else:
            nested = tag.startswith("</li>")
            out.append("\n<ul>" if nested else "<ul>")
            reopened.append(nested)
    out.append(html[pos:])
    return "".join(out)


def title_once(html: str) -> str:
    """sphinx-gallery's index card names its example twice: as the text of the
    link over the card (visually hidden) and in a visible title below the
    picture. A screen reader read both; the visible one is now hidden from it."""
    return html.replace('<div class="sphx-glr-thumbnail-title">',
                        '<div class="sphx-glr-thumbnail-title" aria-hidden="true">')


_IMG = re.compile(r"<img\s[^>]*>")


def size_images(html: str, sizes: dict[str, tuple[int, int]]) -> str:
    """*html* with ``width`` and ``height`` on every ``<img>`` of the site's
    ``_images`` that has neither (sphinx-gallery's, the analysis figures): the
    browser then reserves the picture's box before it loads, and nothing moves
    under an anchor. *sizes*: the image's file name → its size in CSS px."""
    def sized(match: re.Match[str]) -> str:
        tag = match.group()
        if re.search(r"\s(width|height)=", tag) or re.search(r"style=\"[^\"]*width", tag):
            return tag
        src = re.search(r'src="(?:[^"]*/)?_images/([^"/]+)"', tag)
        if not src or src.group(1) not in sizes:
            return tag
        width, height = sizes[src.group(1)]
        return tag.replace("<img ", f'<img width="{width}" height="{height}" ', 1)
    return _IMG.sub(sized, html)


def _image_sizes(app: Any) -> dict[str, tuple[int, int]]:
    """The site's ``_images`` file names → (width, height) of their source PNG."""
    from .diagrams import png_size

    cached = getattr(app, "_mancala_image_sizes", None)
    if cached is None:
        cached = {}
        for source, (_, name) in app.env.images.items():
            path = Path(app.srcdir) / source
            if name.endswith(".png") and path.is_file():
                try:
                    cached[name] = png_size(path)
                except (OSError, ValueError):
                    continue
        # sphinx-gallery writes its images as raw HTML: they are in its folders
        for path in Path(app.srcdir).glob("**/images/sphx_glr_*.png"):
            cached.setdefault(path.name, png_size(path))
        app._mancala_image_sizes = cached
    return cached


def on_page_context(app: Any, pagename: str, templatename: str, context: dict[str, Any],
                    doctree: Any) -> None:
    body = context.get("body")
    if isinstance(body, str):
        body = size_images(title_once(mend_roles(body)), _image_sizes(app))
        if pagename == "_modules/index":
            body = nest_lists(body)
        context["body"] = body


def setup(app: Any) -> dict[str, Any]:
    app.connect("html-page-context", on_page_context, priority=900)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
