"""Every figure the reader meets traces to a record, a constant, a quoted table,
a date or the build (issue 43, item 1; the rules are in figure_records.py).

Run with ``-s`` to see the list of what each figure traced to (the report of
issue 43 quotes it). The records are read now: when the quoted runs are run again
and their JSON changes, a page that still types the old figure fails, and a page
that reads the record (a substitution in conf.py, a directive) passes.
"""
from __future__ import annotations

import argparse
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from figure_records import Tracer, figures, untraced

ROOT = Path(__file__).resolve().parents[2]
MARKDOWN = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").rglob("*.md"))]
SCRIPTS = sorted((ROOT / "docs" / "_static" / "play").glob("*.js"))
STRING = re.compile(r"\"((?:[^\"\\\n]|\\.)*)\"|'((?:[^'\\\n]|\\.)*)'|`((?:[^`\\]|\\.)*)`")


@pytest.fixture(scope="module")
def tracer() -> Tracer:
    return Tracer.now()


def _report(good: list[str], title: str) -> None:
    print(f"\n-- {title}: {len(good)} figures traced")
    print("\n".join(good))


def markdown_texts() -> dict[str, tuple[str, str]]:
    texts = {}
    for path in MARKDOWN:
        text = path.read_text("utf-8")
        texts[path.relative_to(ROOT).as_posix()] = (text, text)
    for path in SCRIPTS:      # what the Play page says to its reader: its strings
        strings = "\n\n".join(next(g for g in m.groups() if g is not None)
                              for m in STRING.finditer(path.read_text("utf-8")))
        texts[path.relative_to(ROOT).as_posix()] = (strings, "")
    return texts


def help_texts() -> dict[str, tuple[str, str]]:
    from mancala_spec.cli.command_registry import build_parser

    parser = build_parser()
    texts = {"mancala-spec --help": (parser.format_help(), "")}
    for action in parser._actions:       # noqa: SLF001 - argparse keeps subparsers there
        if isinstance(action, argparse._SubParsersAction):   # noqa: SLF001
            for name, sub in action.choices.items():
                texts[f"mancala-spec {name} --help"] = (sub.format_help(), "")
    return texts


@pytest.mark.parametrize("text", [
    "mancala-spec solve ba-awa    # perfect play: the full solve (404 CPU-s, 7.1 GiB)",
    "the estimate allows 72 bytes a position kept (it allowed 50: the full run peaked at "
    "7.2 GiB).",
    "ready in about 1.3 s cold (was 3 to 4.5 s, `benchmarks/bench_play_load.py`).",
    "The board is drawn before the engine (about 20 MB) has loaded.",
    "The engine is loading (about 14 MB, once); the board already takes your move.",
    "the quoted run: 4 December, 274 s of wall-clock time on two cores, 7.1 GiB of memory",
])
def test_a_figure_with_no_record_and_no_date_is_untraced(tracer, text):
    bad, _ = untraced({"text": (text, text)}, tracer)
    assert bad, text


def test_a_figure_is_traced_to_the_record_as_it_is_now(tracer):
    from mancala_spec.solve.ba_awa_quoted import quoted_run

    run = quoted_run()
    said = (f"{run['wall_seconds']:,.0f} s of wall-clock time, "
            f"{run['cpu_seconds']:,.0f} s of CPU time, peak memory "
            f"{run['peak_bytes'] / 2**30:.1f} GiB")
    bad, good = untraced({"text": (said, said)}, tracer)
    assert not bad and len(good) == 3 and all("record: ba_awa_run.json" in g for g in good)
    wrong = said.replace(f"{run['cpu_seconds']:,.0f} s", f"{run['cpu_seconds'] + 40:,.0f} s")
    assert untraced({"text": (wrong, wrong)}, tracer)[0]
    assert [f.text for f in figures("at least 10x faster, 61 % of games, 25 million "
                                    "positions, 0.87 s, 1 MiB, 1990s, 3x3")] == [
        "10x", "61 %", "25 million positions", "0.87 s", "1 MiB"]


def test_every_figure_in_the_markdown_and_the_play_page_is_traced(tracer):
    bad, good = untraced(markdown_texts(), tracer)
    _report(good, "README, changelogs, docs/*.md, the Play page's strings")
    assert not bad, "untraced figures:\n" + "\n".join(bad)


def test_every_figure_in_the_commands_help_is_traced(tracer):
    bad, good = untraced(help_texts(), tracer)
    _report(good, "mancala-spec's help")
    assert not bad, "untraced figures:\n" + "\n".join(bad)


def test_the_solve_limit_is_said_of_bakuk_only():
    """`solve` refuses a Bakuk board over MAX_SOLVE_POSITIONS; Ba-awa's solve is
    bounded by its memory estimate (it solves the quoted run's positions, more)."""
    from mancala_spec.cli.solve import MAX_SOLVE_POSITIONS
    from mancala_spec.solve.ba_awa_quoted import quoted_run

    assert quoted_run()["positions"] > MAX_SOLVE_POSITIONS
    page = " ".join((ROOT / "docs" / "cli.md").read_text("utf-8").split())
    assert "``solve bakuk`` refuses boards of more than {{ solve_max_positions }} positions" \
        in page
    assert "solve`` refuses boards" not in page


VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag, attrs):
        classes = (dict(attrs).get("class") or "").split()
        if self.skip:
            self.skip += tag not in VOID
        elif tag in ("script", "style") or any(    # Python code, and doctests' output
                c.lower() in ("highlight-python", "highlight-pycon", "highlight-default")
                for c in classes):
            self.skip = 1
        elif tag in ("p", "li", "tr", "pre", "div", "h1", "h2", "h3", "br", "dd",
                     "dt", "figcaption", "caption"):
            self.parts.append("\n\n")

    def handle_endtag(self, tag):
        if self.skip:
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip:
            self.parts.append(data)


def _typed() -> list[str]:
    """The repository's text files a figure may be typed in."""
    paths = [*MARKDOWN, ROOT / "conf.py",
             *sorted((ROOT / "mancala_spec").rglob("*.py")),
             *sorted((ROOT / "mancala_spec").rglob("*.toml")),
             *sorted((ROOT / "gallery").glob("*.py")), ROOT / "gallery" / "GALLERY_HEADER.rst"]
    return [p.read_text("utf-8") for p in paths if p.is_file()]


def test_every_figure_on_every_built_page_is_traced(site, tracer):
    texts = {}
    for page in sorted(site.html.rglob("*.html")):
        name = page.relative_to(site.html).as_posix()
        if name.startswith(("_modules/", "_sources/")) or name in ("genindex.html",
                                                                  "py-modindex.html"):
            continue              # the code itself, and indexes of names
        reader = _Text()
        reader.feed(page.read_text("utf-8"))
        source = ROOT / "docs" / Path(name).with_suffix(".md")
        markdown = source.read_text("utf-8") if source.is_file() else ""
        texts[name] = ("".join(reader.parts), markdown)
    bad, good = untraced(texts, tracer, typed=_typed())
    _report(good, "the built site")
    assert not bad, "untraced figures:\n" + "\n".join(bad)
