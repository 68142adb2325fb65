"""A figure said on more than one page comes from one place (issue 30, item 4).

Each quantity below has one value, computed or quoted where it is measured (the
analysis run's sizes, the table the analysis page quotes, the solver's limit), and the
patterns in which pages state it. Every statement of it on every built page, in the
README, in the rules catalogue (its notes reach the rules pages, the PDF and
``mancala-spec rules``) and in CITATION.cff must give that value: a page that states
another figure for the same quantity fails. (Issue 30 found the editorial page, the
PDF and ``mancala-spec rules`` saying 4 of 1,000,000 random games end by repetition,
the analysis page 4 of 4,000,000.)
"""
from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
         "eight": 8, "nine": 9, "ten": 10, "a": 1}


def number(text: str) -> float:
    """A figure as written: "4,000,000", "four million", "25 million", "10.5"."""
    text = text.strip().lower()
    scale = 1
    for word, factor in (("million", 10**6), ("thousand", 10**3)):
        if text.endswith(word):
            text, scale = text[: -len(word)].strip(), factor
    value = WORDS[text] if text in WORDS else float(text.replace(",", ""))
    return value * scale


def _quoted_repetitions() -> int:
    """The games ending by repetition in the table the analysis page quotes."""
    page = (ROOT / "docs" / "analysis.md").read_text("utf-8")
    table = page.split("% quoted: endings", 1)[1]
    return int(re.search(r"\| `repetition` \| (\d[\d,]*):", table).group(1).replace(",", ""))


def _ending_games() -> int:
    from mancala_spec.analysis.cli import FULL

    return FULL["ending_games"]


def _max_solve() -> int:
    from mancala_spec.cli.solve import MAX_SOLVE_POSITIONS

    return MAX_SOLVE_POSITIONS


def _opening_value() -> int:
    from mancala_spec.solve.ba_awa_quoted import quoted_run

    value: int = quoted_run()["value"]
    return value


def _opener_seeds() -> int:
    return (48 + _opening_value()) // 2


#: quantity: (its one value, the patterns that state it, each with a group "v").
QUANTITIES: dict[str, tuple[Callable[[], float], list[str]]] = {
    "random games whose ending the analysis counts": (_ending_games, [
        r"(?P<v>[\d,]+|\w+ million) random games with the default options ended",
        r"(?:\w+|\d+) (?:of|in) (?P<v>[\d,]+|\w+ million) random games end",
        r"only \w+ games in (?P<v>\w+ million) ended",
        r"four times as many \((?P<v>[\d,]+)\)",
        r"\| random \| (?P<v>[\d,]+) \| `repetition`",
    ]),
    "of those, the games that end by repetition": (_quoted_repetitions, [
        r"(?P<v>\w+|\d+) (?:of|in) (?:[\d,]+|\w+ million) random games end",
        r"only (?P<v>\w+) games in \w+ million ended",
        r"The (?P<v>\w+) games that ended by repetition",
    ]),
    "the margin Ba-awa's opener wins by under perfect play": (_opening_value, [
        r"the opener wins by (?P<v>\d+) seeds",
    ]),
    "the seeds Ba-awa's opener ends with under perfect play": (_opener_seeds, [
        r"the opener wins by \d+ seeds, (?P<v>\d+) to \d+",
        r"South ends with (?P<v>\d+) seeds",
        r"ends (?P<v>\d+) seeds to \d+ for the opener",
    ]),
    "the most positions solve sets out to solve": (_max_solve, [
        r"more than (?P<v>[\d.,]+ million|[\d,]{6,}) positions",
    ]),
}


def stated(text: str) -> dict[str, list[float]]:
    """Every figure *text* states for each quantity."""
    flat = " ".join(text.split())
    return {name: [number(m.group("v")) for p in patterns for m in re.finditer(p, flat)]
            for name, (_, patterns) in QUANTITIES.items()}


def disagreements(texts: dict[str, str]) -> list[str]:
    out = []
    for name, (value, _) in QUANTITIES.items():
        for where, text in texts.items():
            for figure in stated(text)[name]:
                if figure != value():
                    out.append(f"{where}: {name} is {value():,} but the text says {figure:,g}")
    return out


@pytest.mark.parametrize("text", [
    "Such cycles are rare but real: 4 of 1,000,000 random games end this way.",
    "which is why only four games in four million ended this way",
    "``solve`` refuses boards of more than 20 million positions before starting.",
    "With perfect play from the opening, the opener wins by 6 seeds, 27 to 21.",
])
def test_a_figure_that_differs_from_its_one_value_fails(text):
    wrong = text.replace("four games in four million", "five games in four million")
    assert disagreements({"text": wrong})


def test_the_patterns_read_the_figures_as_the_pages_write_them():
    assert stated("only four games in four million ended this way")[
        "of those, the games that end by repetition"] == [4]
    assert number("4,000,000") == number("four million") == 4_000_000
    assert number("25 million") == _max_solve()


def _texts_outside_the_site() -> dict[str, str]:
    from mancala_spec.catalogue import load_catalogue

    texts = {"README.md": (ROOT / "README.md").read_text("utf-8"),
             "CITATION.cff": (ROOT / "CITATION.cff").read_text("utf-8")}
    for rule in load_catalogue():
        texts[f"catalogue {rule.id}"] = " ".join(
            [rule.note, rule.gap, rule.default, rule.rationale]
            + [c.text for c in rule.claims])
    return texts


def test_every_page_states_each_figure_as_its_one_value(site):
    from html.parser import HTMLParser

    class Text(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.parts: list[str] = []

        def handle_data(self, data: str) -> None:
            self.parts.append(data)

    texts = _texts_outside_the_site()
    for page in sorted(site.html.rglob("*.html")):
        reader = Text()
        reader.feed(page.read_text("utf-8"))
        texts[page.relative_to(site.html).as_posix()] = " ".join(reader.parts)
    found = {name: sum(len(stated(t)[name]) for t in texts.values()) for name in QUANTITIES}
    assert all(count >= 1 for count in found.values()), found      # no pattern gone stale
    assert not disagreements(texts), "\n".join(disagreements(texts))
