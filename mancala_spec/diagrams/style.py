"""How diagrams look: colours (a light and a dark theme), sizes and the words used.

Pure data, no matplotlib: the layout reads the sizes (where markers go, how notes
wrap), the renderer reads everything. Two sets of sizes: :data:`DESKTOP` for a
column about 740 CSS px wide, and :data:`PHONE`, whose text is larger relative
to the board, so that a diagram shown 350 CSS px wide on a phone still has text
of at least 10 px.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from ..engine.board import PLAYER_LETTERS, PLAYER_NAMES, THREE_PLAYER_LETTERS, THREE_PLAYER_NAMES
from ..errors import OptionError, not_a, shown

# -- colours (Okabe–Ito, safe for the common colour-vision deficiencies) ----------

OKABE_ITO = {
    "black": "#000000", "orange": "#E69F00", "sky blue": "#56B4E9",
    "bluish green": "#009E73", "yellow": "#F0E442", "blue": "#0072B2",
    "vermillion": "#D55E00", "reddish purple": "#CC79A7",
}
#: Each player's colour: South blue, North vermillion, a third player bluish green.
PLAYER_COLOURS = (OKABE_ITO["blue"], OKABE_ITO["vermillion"], OKABE_ITO["bluish green"])
#: Light tints of the player colours, for pit and store shading (owner).
PLAYER_TINTS = ("#D4E6F3", "#F8DECC", "#CCECE3")
#: Hatches, so that owners differ by pattern as well as colour.
PLAYER_HATCHES = ("", "///", "...")
#: Capture marks differ by outline style as well as colour and letter.
PLAYER_LINESTYLES = ("solid", (0, (3, 1.5)), (0, (1, 1)))
INK = "#1A1A1A"
GREY = "#5A5A5A"
LIFT_COLOUR = OKABE_ITO["yellow"]


@dataclass(frozen=True)
class Theme:
    """The colours of one theme: *background* of the figure, *ink* for text and
    outlines, player colours, tints and hatch colours by player index."""

    name: str
    background: str
    ink: str
    grey: str
    players: tuple[str, ...]
    tints: tuple[str, ...]
    hatches: tuple[str, ...]
    lift: str = LIFT_COLOUR
    lift_ink: str = INK          # the number on the yellow lift square


#: The site's light theme: white paper, the Okabe–Ito colours.
LIGHT = Theme("light", "#FFFFFF", INK, GREY, PLAYER_COLOURS, PLAYER_TINTS,
              ("#9DC3DE", "#EDB48F", "#8FD1BE"))
#: The dark theme, on furo's dark background: light ink, dark tints, and the
#: lighter Okabe–Ito colours (sky blue for South, orange for North) so that
#: outlines keep their contrast.
DARK = Theme("dark", "#131416", "#E8E8E8", "#A9A9A9",
             (OKABE_ITO["sky blue"], OKABE_ITO["orange"], OKABE_ITO["bluish green"]),
             ("#1D3A50", "#4B3310", "#103D32"), ("#3A6F94", "#8C6420", "#2E7A66"))
THEMES = {theme.name: theme for theme in (LIGHT, DARK)}


def theme_named(name: str | Theme) -> Theme:
    """The theme called *name* (``"light"`` or ``"dark"``), or *name* itself if a Theme."""
    if isinstance(name, Theme):
        return name
    try:
        return THEMES[name]
    except (KeyError, TypeError):                   # TypeError: an unhashable name
        raise OptionError(f"a diagram theme is 'light' or 'dark', not {shown(name)}",
                          option="theme", value=name, choices=tuple(THEMES)) from None


# -- sizes ------------------------------------------------------------------------


@dataclass(frozen=True)
class Metrics:
    """Geometry in panel units (one unit is *inch_per_unit* inches when drawn) and
    font sizes in points."""

    inch_per_unit: float = 0.6
    pitch: float = 1.2          # distance between pit centres
    pit_w: float = 1.0
    pit_h: float = 0.86
    channel: float = 1.1        # gap between the rows, where capture marks sit
    name_gap: float = 0.2       # pit edge to pit name
    lane_0: float = 0.98        # row centre to the first lane of markers
    lane_step: float = 0.44     # between lanes (a lap that goes round twice uses two)
    mark_r: float = 0.17
    store_w: float = 0.9
    store_gap: float = 0.3
    title_h: float = 0.62
    note_h: float = 0.36
    legend_h: float = 0.75      # one row of the key
    min_panel_w: float = 9.6    # so that Bakuk's notes and titles have room
    tag_w: float = 0.56
    tag_h: float = 0.34
    size_count: float = 15
    size_end: float = 9.5
    size_name: float = 10
    size_mark: float = 8.5
    size_tag: float = 9
    size_note: float = 9.5
    size_title: float = 11.5

    @property
    def y_north(self) -> float:
        """The centre line of North's row (South's is at 0)."""
        return self.pit_h + self.channel

    def note_chars(self, width: float) -> int:
        """How many characters of a note fit on a line *width* units long."""
        return max(24, int(width * self.inch_per_unit * 72 / (self.size_note * 0.56)))


#: For a column about 740 CSS px wide (the site on a desktop).
DESKTOP = Metrics()
#: For a phone: the same board drawn smaller (0.42 in a unit), larger markers and
#: tags, and text sizes chosen so that, shown 350 CSS px wide, no text is under 10 px.
PHONE = replace(DESKTOP, inch_per_unit=0.4, lane_0=1.1, lane_step=0.66, mark_r=0.28,
                channel=1.5, store_w=1.2, title_h=0.95, note_h=0.55, legend_h=1.0,
                min_panel_w=8.6, tag_w=0.98, tag_h=0.5, size_count=15, size_end=12,
                size_name=11, size_mark=10.5, size_tag=10.5, size_note=11, size_title=11.5)
METRICS = {"desktop": DESKTOP, "phone": PHONE}


def metrics_named(metrics: Metrics | str) -> Metrics:
    """The metrics called *metrics* (``"desktop"`` or ``"phone"``), or *metrics* itself."""
    if isinstance(metrics, Metrics):
        return metrics
    try:
        return METRICS[metrics]
    except (KeyError, TypeError):                   # TypeError: an unhashable name
        raise OptionError(f"diagram metrics are 'desktop' or 'phone', not {shown(metrics)}",
                          option="metrics", value=metrics, choices=tuple(METRICS)) from None

FONT = "DejaVu Sans"


# -- words ------------------------------------------------------------------------


@dataclass(frozen=True)
class Words:
    """What a game calls its pieces (Bakuk's pages say "counters", Ba-awa's "seeds")."""

    piece: str
    pieces: str

    def count(self, n: int) -> str:
        """``"1 seed"``, ``"3 seeds"``."""
        return f"{n} {self.piece if n == 1 else self.pieces}"


SEEDS = Words("seed", "seeds")
#: The game's own word, by game name; any other game says "seeds".
GAME_WORDS = {"bakuk": Words("counter", "counters")}


def words_for(game_name: str) -> Words:
    """The words the rules pages of *game_name* use for its pieces."""
    if not isinstance(game_name, str):
        raise not_a("game_name", game_name, "a game's name")
    return GAME_WORDS.get(game_name, SEEDS)


def player_names(players: int) -> tuple[str, ...]:
    """Player names by index for a game of *players* players."""
    return PLAYER_NAMES if players == 2 else THREE_PLAYER_NAMES


def player_letters(players: int) -> str:
    """Player letters by index for a game of *players* players."""
    return PLAYER_LETTERS if players == 2 else THREE_PLAYER_LETTERS
