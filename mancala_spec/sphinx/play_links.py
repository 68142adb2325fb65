""""Open in Play" links: a position (and a move) of the rules pages, opened on the Play page.

The Play page (``docs/play.md``, ``docs/_static/play/play.js``) reads its game
from its address: ``play.html?game=G&start=POSITION&moves=M1,M2&NAME=VALUE``.
:func:`play_href` writes such an address and :func:`play_link` a link to it
for the HTML builder (other builders leave it out); the diagrams
(:mod:`mancala_spec.sphinx.diagrams`) put one under each diagram.

>>> play_href("bakuk", "3,3,1/1,3,3 S 10-12 opener=S", "b", {"chain": "backward"})
'play.html?game=bakuk&start=3,3,1/1,3,3%20S%2010-12%20opener=S&moves=b&chain=backward'
"""
from __future__ import annotations

from html import escape
from typing import Any
from urllib.parse import quote

from docutils import nodes


def _text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def play_href(game: str, position: str = "", move: str = "",
              options: dict[str, Any] | None = None, prefix: str = "") -> str:
    """The Play page's address for *game* from *position* (its start if empty),
    *move* played (if any), with *options*; *prefix* leads to the site's root."""
    params = [("game", game)]
    if position:
        params.append(("start", position))
    if move:
        params.append(("moves", move))
    params += [(name, _text(value)) for name, value in (options or {}).items()]
    return f"{prefix}play.html?" + "&".join(f"{k}={quote(v, safe=',/=')}" for k, v in params)


def play_link(docname: str, game: str, position: str = "", move: str = "",
              options: dict[str, Any] | None = None) -> nodes.raw:
    """A link "Open in Play" from the page *docname* (HTML only)."""
    href = play_href(game, position, move, options, prefix="../" * docname.count("/"))
    html = (f'<p class="open-in-play-line"><a class="open-in-play" href="{escape(href)}">'
            'Open in Play</a></p>')
    return nodes.raw("", html, format="html")


__all__ = ["play_href", "play_link"]
