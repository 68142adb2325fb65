"""Sphinx extension: the ``sowing-diagram`` directive draws a move at build time.

Add ``"mancala_spec.sphinx.diagrams"`` to ``extensions``, then in a MyST page::

    ```{sowing-diagram}
    :game: ba-awa
    :position: 1,0,3,3,0,2/3,1,0,3,3,1 S 12-16 opener=S
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
default, not for Bakuk, which has none); ``:example:`` names the worked example
the diagram draws (a ``{doctest}`` block of the same rule, whose code must hold
the diagram's position, else the build warns): the diagram and its caption then
start "Diagram of example <id> (rule <rule>)", linked to the example, and say
when an option selects a variant or an editorial alternative. The caption comes
from the directive's body or ``:caption:``.

Each diagram is drawn four times: for a desktop column and for a phone (larger
text relative to the board), each in a light and a dark theme; the page shows
the one that fits (``docs/_static/diagrams.css`` switches by width, furo's
``only-light``/``only-dark`` by theme). The first diagram of a page is preceded
by the key "How to read a diagram", drawn by the same code. The engine runs when the page
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
import os
import re
import struct
from pathlib import Path
from typing import Any

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

from .. import __version__
from .. import diagrams as _diagrams
from ..catalogue import load_catalogue
from ..engine.games import get_game
from ..errors import MancalaError
from . import cache
from .play_links import play_link

FOLDER = "sowing-diagrams"
logger = logging.getLogger(__name__)
#: (metrics, theme, CSS classes) of the four pictures of every diagram
VARIANTS = (("desktop", "light", ["diagram-wide", "only-light"]),
            ("desktop", "dark", ["diagram-wide", "only-dark"]),
            ("phone", "light", ["diagram-narrow", "only-light"]),
            ("phone", "dark", ["diagram-narrow", "only-dark"]))
KEY_DONE = "mancala_diagram_key"     # temp_data flag: the page already has its key


def history_counted(text: str) -> str:
    """*text* with each position's ``seen=`` history (the positions before it,
    which the repetition rule reads: up to dozens of boards) counted instead of
    written out, for a caption or an image's alt text read aloud.

    >>> history_counted("Bakuk: 0,0,0/1,0,1 N 16-18 opener=S seen=1,0,0/1,0,0:S;0,1,0/1,0,0:N")
    'Bakuk: 0,0,0/1,0,1 N 16-18 opener=S, after 2 earlier positions'
    >>> history_counted("0,0,0/1,0,1 N 16-18 opener=S seen=1,0,0/1,0,0:S")
    '0,0,0/1,0,1 N 16-18 opener=S, after 1 earlier position'
    """
    return re.sub(r" seen=(\S+)", lambda m: ", after " + earlier(m.group(1).count(";") + 1),
                  text)


def earlier(count: int) -> str:
    """``"1 earlier position"``, ``"21 earlier positions"``."""
    return f"{count} earlier position{'' if count == 1 else 's'}"


def _engine_files() -> list[str]:
    """The source files a diagram depends on (engine and drawing code)."""
    package = Path(__file__).resolve().parent.parent
    files = [package / "notation.py", package / "options.py"]   # options: the games' defaults
    files += sorted(path for folder in ("engine", "diagrams")
                    for path in (package / folder).rglob("*.py"))
    files.append(Path(__file__))          # this directive: how diagrams are labelled and shown
    return [os.fspath(path) for path in files]


@functools.cache
def _code_version() -> str:
    """A digest of the package version (without its commit: the code is hashed),
    matplotlib's, and the engine and drawing code."""
    import matplotlib

    from ..version import BASE

    digest = hashlib.sha256(f"{BASE} {matplotlib.__version__}".encode())
    for path in _engine_files():
        digest.update(Path(path).read_bytes())
    return digest.hexdigest()


def _panels(text: str) -> list[int]:
    try:
        return [int(item) for item in text.replace(",", " ").split()]
    except ValueError:
        raise ValueError(f"panels are lap numbers separated by spaces, not {text!r}") from None


class Drawing:
    """One diagram as a ``sowing-diagram``'s options ask for it: the engine's run of
    the move (or the position), its label, and the file names of its four pictures,
    a digest of everything they depend on (so an existing file is the right picture
    and is not drawn again)."""

    def __init__(self, options: Any, dpi: int) -> None:
        """*options*: the directive's (raises MancalaError or ValueError when the
        engine refuses them)."""
        self.game_name = game_name = options.get("game", "").strip()
        self.position = position = " ".join(options.get("position", "").split())
        self.move = move = options.get("move", "").strip()
        self.example = options.get("example", "").strip()
        self.dpi = dpi
        self.options = _diagrams.parse_options(options.get("options", "").strip())
        self.panels = _panels(options["panels"]) if "panels" in options else None
        self.columns = options.get("columns")
        self.stores = {"true": True, "false": False}.get(options.get("stores", ""))
        if move:
            self.trace = _diagrams.trace_move(game_name, move, position or None, self.options)
            self.game = self.trace.before.game
            self.result = self.trace.position.to_text()
        else:
            self.game = get_game(game_name, **self.options)
            self.pos = self.game.parse(position) if position else self.game.start()
            self.result = self.pos.to_text()
        self.label = diagram_label(self.game, self.example)
        self.diagram = diagram = self.layout("desktop")
        if self.panels and not set(self.panels) <= {panel.number for panel in diagram.panels}:
            raise ValueError(f"panels {self.panels}: the move has {len(diagram.panels)}")
        key = "\n".join([_code_version(), game_name, repr(sorted(self.options.items())),
                         position, move, repr(self.panels), repr(self.columns),
                         repr(self.stores), str(dpi), self.label])
        digest = hashlib.sha256(key.encode()).hexdigest()[:16]
        stem = "-".join(part for part in (diagram.game, diagram.move or "board") if part)
        #: the pictures' names begin with it: a digest of all they show
        self.name = f"{stem}-{digest}"

    def layout(self, metrics: str):
        if self.move:
            return _diagrams.layout(self.trace, stores=self.stores, metrics=metrics,
                                    label=self.label)
        return _diagrams.layout_position(self.pos, stores=self.stores, metrics=metrics,
                                         label=self.label)

    def file_name(self, metrics: str, theme: str) -> str:
        return f"{self.name}-{metrics}-{theme}.png"

    def draw(self, metrics: str, theme: str, target: Path) -> None:
        """Draw the picture for *metrics* and *theme* into the PNG file *target*."""
        drawn = self.layout(metrics)
        if self.move:
            figure = _diagrams.render(drawn, panels=self.panels,
                                      columns=self.columns if metrics == "desktop" else 1,
                                      theme=theme)
        else:
            figure = _diagrams.render(drawn, legend=False, theme=theme)
        _diagrams.save(figure, target, format="png", dpi=self.dpi, whole_css_pixels=True)

    def put(self, folder: Path) -> None:
        """The four pictures in *folder* (the doctree's): each one taken from the
        cache, or drawn there and kept."""
        for metrics, theme, _ in VARIANTS:
            target = folder / self.file_name(metrics, theme)
            if not target.exists():
                cache.file(target, functools.partial(self.draw, metrics, theme))


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
        "example": directives.unchanged,
    }

    def run(self) -> list[nodes.Node]:
        game_name = self.options.get("game", "").strip()
        if not game_name:
            raise self.error("sowing-diagram: the :game: option is required")
        for path in _engine_files():   # first, so that a page that fails is read again
            self.env.note_dependency(path)
        dpi = self.config.sowing_diagram_dpi
        try:
            drawing = Drawing(self.options, dpi)
        except (MancalaError, ValueError) as error:
            raise self.error(f"sowing-diagram: {error}") from None
        position, move, example = drawing.position, drawing.move, drawing.example
        diagram, label, result = drawing.diagram, drawing.label, drawing.result
        folder = Path(self.env.doctreedir) / FOLDER
        drawing.put(folder)
        images = [self.image(folder / drawing.file_name(metrics, theme),
                             history_counted(diagram.alt or diagram.caption), classes, dpi)
                  for metrics, theme, classes in VARIANTS]

        figure_node = nodes.figure("", *images, classes=["sowing-diagram"]
                                   + self.options.get("class", []))
        caption = nodes.caption()
        if label:
            caption += self.label_node(label, example)
            caption += nodes.Text(" ")
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
        head, seen, history = result.partition(" seen=")
        caption += nodes.literal(head, head)
        if seen:        # the history (seen=, which repetition reads) counted, not written out
            caption += nodes.Text(", after " + earlier(history.count(";") + 1))
        figure_node += caption
        figure_node["mancala_example"] = example
        figure_node["mancala_position"] = position.split(" seen=")[0]
        self.set_source_info(figure_node)
        self.add_name(figure_node)
        out: list[nodes.Node] = []
        if not self.env.temp_data.get(KEY_DONE):
            self.env.temp_data[KEY_DONE] = True
            out.append(self.key(game_name, dpi))
        link = play_link(self.env.docname, game_name, position, move, drawing.options)
        return [*out, figure_node, link, *messages]

    def image(self, target: Path, alt: str, classes: list[str], dpi: int) -> nodes.image:
        """An image node for the PNG *target*, as wide as the figure's true size
        (96 CSS px to the inch) unless ``:width:`` says otherwise; CSS shrinks it
        to the column."""
        # "/" makes the path relative to the source folder, wherever the page is
        uri = "/" + Path(os.path.relpath(target, self.env.srcdir)).as_posix()
        image = nodes.image(uri=uri, alt=alt, classes=[*classes, "no-scaled-link"],
                            loading="lazy")
        width, height = png_size(target)
        # width and height as attributes (unitless CSS px), so the browser reserves
        # the picture's box before it loads and nothing moves under an anchor;
        # "no-scaled-link": no link around it (one tab stop per diagram, its caption's)
        if "width" in self.options:
            image["width"] = self.options["width"]
        else:
            image["width"], image["height"] = (str(round(n * 96 / dpi)) for n in (width, height))
        return image

    def label_node(self, label: str, example: str) -> nodes.Node:
        """The caption's first words, linked to the example they name."""
        if not example:
            return nodes.inline(label + ".", label + ".", classes=["diagram-label"])
        link = nodes.reference("", "", internal=True, refid=f"example-{example}",
                               classes=["diagram-label"], reftitle=f"Example {example}")
        link += nodes.Text(label + ".")
        return link

    @staticmethod
    def draw_key(game_name: str, theme: str, dpi: int, target: Path) -> None:
        _diagrams.save(_diagrams.render_key(game_name, theme=theme), target, dpi=dpi,
                       whole_css_pixels=True)

    def key(self, game_name: str, dpi: int) -> nodes.Node:
        """The key "How to read a diagram", in both themes (drawn once per build)."""
        box = nodes.container(classes=["diagram-key"])
        alt = "How to read a diagram: " + "; ".join(
            meaning.rstrip(".") for *_, meaning in _diagrams.key_lines(game_name)) + "."
        digest = hashlib.sha256(f"{_code_version()} {game_name} {dpi}".encode()).hexdigest()[:16]
        for theme in ("light", "dark"):
            target = Path(self.env.doctreedir) / FOLDER / f"key-{game_name}-{digest}-{theme}.png"
            if not target.exists():
                cache.file(target, functools.partial(self.draw_key, game_name, theme, dpi))
            uri = "/" + Path(os.path.relpath(target, self.env.srcdir)).as_posix()
            width, height = png_size(target)
            box += nodes.image(uri=uri, alt=alt, classes=[f"only-{theme}", "no-scaled-link"],
                               loading="lazy", width=str(round(width * 96 / dpi)),
                               height=str(round(height * 96 / dpi)))
        return box


def png_size(path: Path) -> tuple[int, int]:
    """The (width, height) in pixels of the PNG file *path*, from its header."""
    with open(path, "rb") as png:
        header = png.read(24)
    if header[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path} is not a PNG file")
    width, height = struct.unpack(">II", header[16:24])
    return width, height


def check_examples(app, doctree: nodes.document) -> None:
    """Each diagram that names an example must sit in the same rule block as that
    example, and draw a position the example's code contains (``doctree-read``)."""
    for figure in doctree.findall(nodes.figure):
        example = figure.get("mancala_example")
        if not example:
            continue
        block = figure.parent
        while block is not None and not any(
                node.get("testnodetype") == "doctest"
                and node.get("groups", [""])[0] == example
                for node in block.findall(nodes.literal_block)):
            block = block.parent
        if block is None:
            logger.warning("sowing-diagram: no example %s before the diagram on this page",
                           example, location=figure)
            continue
        code = next(node.astext() for node in block.findall(nodes.literal_block)
                    if node.get("groups", [""])[0] == example)
        if figure["mancala_position"] and figure["mancala_position"] not in code:
            logger.warning("sowing-diagram: example %s does not contain the position %r the "
                           "diagram draws", example, figure["mancala_position"],
                           location=figure)


def keep_one_picture(app, doctree: nodes.document, docname: str) -> None:
    """Outside HTML (LaTeX, ePub...) CSS cannot choose: keep the desktop, light
    picture of each diagram and key (``doctree-resolved``)."""
    if app.builder.format == "html":
        return
    for image in list(doctree.findall(nodes.image)):
        if {"only-dark", "diagram-narrow"} & set(image["classes"]):
            image.parent.remove(image)


def diagram_label(game, example: str) -> str:
    """"Diagram of example <id> (rule <rule-id>)", and which variant or editorial
    alternative the game's options select, as the catalogue names them."""
    parts = []
    if example:
        rule = example.rsplit("-", 1)[0] if example.rsplit("-", 1)[-1].isdigit() else ""
        text = f"Diagram of example {example}"
        parts.append(text + (f" (rule {rule})" if rule in load_catalogue() else ""))
    changed = _diagrams.option_changes(game)
    if changed:
        kinds = []
        for item in changed.split():
            option, _, value = item.partition("=")
            kinds.append(f"{_offer_kind(game, option, value)} {item}")
        parts.append(", ".join(kinds))
    return "; ".join(parts)


def _offer_kind(game, option: str, value: str) -> str:
    """"variant", "form" or "option": how the catalogue offers *option* = *value*."""
    for rule in load_catalogue().for_game(game.name):
        for kind, offers in (("variant", rule.variants), ("form", rule.forms),
                             ("editorial option", rule.alternatives)):
            if any(a.option == option and _value_text(a.value) == value
                   for a in offers):
                return kind
    return "option"


def _value_text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def setup(app) -> dict[str, Any]:
    app.add_config_value("sowing_diagram_dpi", 144, "env", types=frozenset({int}))
    app.add_directive("sowing-diagram", SowingDiagram)
    app.connect("doctree-read", check_examples)
    app.connect("doctree-resolved", keep_one_picture)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
