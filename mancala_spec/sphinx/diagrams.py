"""Sphinx extension: the ``sowing-diagram`` directive draws a move at build time.

Add ``"mancala_spec.sphinx.diagrams"`` to ``extensions``, then in a MyST page::

    ```{sowing-diagram}
    :game: ba-awa
    :position: 1,0,3,3,0,2/3,1,0,2,2,1 S 15-15 opener=S
    :move: c
    :options: skip_origin=false
    :caption: An owner's four during sowing.
    :name: fig-owner-four
    ```

``:game:`` and ``:move:`` (a pit name) are required for a move; without
``:move:`` the directive draws the position alone. ``:position:`` is our
one-line notation (the game's start if omitted); ``:options:`` lists engine
options as ``name=value`` (``true``/``false`` for booleans); ``:panels:`` picks
laps by number (``1 2``); ``:columns:`` sets the panel columns; ``:stores:``
(``true``/``false``) shows or hides the end stores (shown for Ba-awa by
default, not for Bakuk, which has none); the caption
comes from the directive's body or ``:caption:``. The engine runs when the page
is read, the figure is written as PNG under the build's doctree folder (not the
source tree) and copied into ``_images`` like any image; the caption always
ends with the resulting position in notation, so the text and the picture
come from the same engine run. An invalid position, option or move is a build
error that names the problem.

Pages are re-read when the engine or the diagram code changes (their files are
noted as dependencies). A figure's file name is a digest of everything it
depends on (inputs, engine and drawing code, matplotlib's version), so an
existing file is never drawn again and incremental builds stay fast.
"""
from __future__ import annotations

import functools
import hashlib
import inspect
import os
from pathlib import Path
from typing import Any

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.util.docutils import SphinxDirective

from .. import __version__
from .. import diagrams as _diagrams
from ..errors import MancalaError
from ..engine.games import get_game

FOLDER = "sowing-diagrams"


def _engine_files() -> list[str]:
    """The source files a diagram depends on (engine and drawing code)."""
    package = Path(inspect.getsourcefile(_diagrams)).parent.parent
    files = [package / "notation.py"]
    files += sorted(path for folder in ("engine", "diagrams")
                    for path in (package / folder).rglob("*.py"))
    return [os.fspath(path) for path in files]


@functools.cache
def _code_version() -> str:
    """A digest of the package version, matplotlib's, and the engine and drawing code."""
    import matplotlib

    digest = hashlib.sha256(f"{__version__} {matplotlib.__version__}".encode())
    for path in _engine_files():
        digest.update(Path(path).read_bytes())
    return digest.hexdigest()


def _panels(text: str) -> list[int]:
    try:
        return [int(item) for item in text.replace(",", " ").split()]
    except ValueError:
        raise ValueError(f"panels are lap numbers separated by spaces, not {text!r}") from None


class SowingDiagram(SphinxDirective):
    """Run the engine on a position and a move, and embed the move's diagram."""

    has_content = True
    required_arguments = 0
    optional_arguments = 0
    option_spec = {
        "game": directives.unchanged_required,
        "position": directives.unchanged,
        "move": directives.unchanged,
        "options": directives.unchanged,
        "caption": directives.unchanged,
        "name": directives.unchanged,
        "panels": directives.unchanged,
        "columns": directives.positive_int,
        "stores": lambda text: directives.choice(text, ("true", "false")),
        "width": directives.length_or_percentage_or_unitless,
        "class": directives.class_option,
    }

    def run(self) -> list[nodes.Node]:
        game_name = self.options.get("game", "").strip()
        if not game_name:
            raise self.error("sowing-diagram: the :game: option is required")
        position = " ".join(self.options.get("position", "").split())
        move = self.options.get("move", "").strip()
        option_text = self.options.get("options", "").strip()
        try:
            options = _diagrams.parse_options(option_text)
            panels = _panels(self.options["panels"]) if "panels" in self.options else None
            columns = self.options.get("columns")
            stores = {"true": True, "false": False}.get(self.options.get("stores", ""))
            if move:
                trace = _diagrams.trace_move(game_name, move, position or None, options)
                diagram = _diagrams.layout(trace, stores=stores)
                result = trace.position.to_text()
            else:
                game = get_game(game_name, **options)
                pos = game.parse(position) if position else game.start()
                diagram = _diagrams.layout_position(pos, stores=stores)
                result = pos.to_text()
            if panels and not set(panels) <= {panel.number for panel in diagram.panels}:
                raise ValueError(f"panels {panels}: the move has {len(diagram.panels)}")
        except (MancalaError, ValueError) as error:
            raise self.error(f"sowing-diagram: {error}") from None

        # the file name fixes everything the picture depends on, so an existing
        # file is the right picture and is not drawn again
        dpi = self.config.sowing_diagram_dpi
        key = "\n".join([_code_version(), game_name, repr(sorted(options.items())), position,
                         move, repr(panels), repr(columns), repr(stores), str(dpi)])
        digest = hashlib.sha256(key.encode()).hexdigest()[:16]
        stem = "-".join(part for part in (diagram.game, diagram.move or "board") if part)
        target = Path(self.env.doctreedir) / FOLDER / f"{stem}-{digest}.png"
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            if move:
                figure = _diagrams.render(diagram, panels=panels, columns=columns)
            else:
                figure = _diagrams.render(diagram, legend=False)
            _diagrams.save(figure, target, dpi=dpi)
        for path in _engine_files():
            self.env.note_dependency(path)

        # "/" makes the path relative to the source folder, wherever the page is
        uri = "/" + Path(os.path.relpath(target, self.env.srcdir)).as_posix()
        image = nodes.image(uri=uri, alt=diagram.caption)
        if "width" in self.options:
            image["width"] = self.options["width"]
        figure_node = nodes.figure("", image, classes=["sowing-diagram"]
                                   + self.options.get("class", []))
        caption = nodes.caption()
        if self.content:
            text = " ".join(line.strip() for line in self.content if line.strip())
        else:
            text = self.options.get("caption", "").strip()
        messages: list[nodes.system_message] = []
        if text:
            inline, messages = self.parse_inline(text, lineno=self.lineno)
            caption.extend(inline)
            caption += nodes.Text(" ")
        caption += nodes.Text("Resulting position: " if move else "Position: ")
        caption += nodes.literal(result, result)
        figure_node += caption
        self.set_source_info(figure_node)
        self.add_name(figure_node)
        return [figure_node, *messages]


def setup(app) -> dict[str, Any]:
    app.add_config_value("sowing_diagram_dpi", 150, "env", types=frozenset({int}))
    app.add_directive("sowing-diagram", SowingDiagram)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
