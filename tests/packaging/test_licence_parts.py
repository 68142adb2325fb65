"""Licences per part, and REUSE.toml exact per file (issue 43, item 4).

The quotes are the source documents' own text, under the licence the catalogue
records for them (CC BY-SA, version unknown, our assumption); our translations
and rule claims are CC BY-SA 4.0; the code is MIT. So a file that quotes a source
document carries ``LicenseRef-MancalaWorld-CC-BY-SA`` in REUSE.toml, and Mancala
World is named as a copyright holder exactly of the files that quote or adapt
the documents. (REUSE.toml named Mancala World on every page of the site; the
Sources and Cite pages and LICENSES.md put the quotes under CC BY-SA 4.0;
catalogue.toml's header stated CC BY-SA as fact.)
"""
from __future__ import annotations

import re
import subprocess
import tomllib
from pathlib import Path

from mancala_spec.catalogue.provenance import licence_parts, record

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted((ROOT / "mancala_spec" / "sources").glob("*.txt"))
LICENCE_REF = "LicenseRef-MancalaWorld-CC-BY-SA"
#: what a source document names rather than says: the book's title and its last line
NAMED = ("Board and Table Games from Many Civilizations",)
QUOTE = 32          # characters of a source line that make a quote
#: directives and roles that put the rules, their claims or the documents on a page
ADAPTS = re.compile(r"^`{3,}\{(?:rule|rule-summary|claims-table|rule-index|source-document|"
                    r"readings-compared)\}|\{rule-badge\}`", re.M)


def _flat(text: str) -> str:
    return " ".join(text.split())


def _fragments() -> set[str]:
    out = set()
    for path in SOURCES:
        for line in path.read_text("utf-8").splitlines():
            line = _flat(line)
            if line.startswith("Source:"):
                continue
            for name in NAMED:
                line = line.replace(name, "\0")
            out |= {line[i:i + QUOTE] for i in range(len(line) - QUOTE + 1)
                    if "\0" not in line[i:i + QUOTE]}
    return out


def quotes(text: str, fragments: set[str]) -> bool:
    """Whether *text* holds a quote of a source document (QUOTE characters of one
    of its lines, the book title it names and its "Source:" line left out)."""
    flat = _flat(text)
    return any(flat[i:i + QUOTE] in fragments for i in range(len(flat) - QUOTE + 1))


def _pattern(glob: str) -> re.Pattern[str]:
    out = ""
    i = 0
    while i < len(glob):
        if glob.startswith("**", i):
            out, i = out + ".*", i + 2
        elif glob[i] == "*":
            out, i = out + "[^/]*", i + 1
        else:
            out, i = out + re.escape(glob[i]), i + 1
    return re.compile(out + r"\Z")


def annotation(path: str) -> tuple[list[str], str]:
    """(copyright holders, licence expression) REUSE.toml gives *path* (the last
    matching entry wins, as they are all "override" but the first)."""
    data = tomllib.loads((ROOT / "REUSE.toml").read_text("utf-8"))
    found: tuple[list[str], str] = ([], "")
    for entry in data["annotations"]:
        globs = entry["path"] if isinstance(entry["path"], list) else [entry["path"]]
        if any(_pattern(g).match(path) for g in globs):
            holders = entry["SPDX-FileCopyrightText"]
            found = (holders if isinstance(holders, list) else [holders],
                     entry["SPDX-License-Identifier"])
    return found


def _files() -> list[str]:
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                            timeout=60)
    if listed.returncode == 0:
        return listed.stdout.split()
    return [p.relative_to(ROOT).as_posix() for p in ROOT.rglob("*")           # an sdist
            if p.is_file() and not any(part.startswith(".") for part in p.parts)]


def test_the_reading_of_reuse_toml():
    assert _pattern("docs/**.md").match("docs/api/games.md")
    assert not _pattern("mancala_spec/sources/*.txt").match("mancala_spec/sources/a/b.txt")
    assert annotation("mancala_spec/engine/board.py") == (["2026 The mancala_spec authors"], "MIT")
    assert LICENCE_REF in annotation("mancala_spec/sources/" + SOURCES[0].name)[1]


def test_a_file_that_quotes_the_sources_carries_their_licence_and_only_then():
    fragments = _fragments()
    assert quotes(SOURCES[0].read_text("utf-8"), fragments)
    wrong = []
    for name in _files():
        path = ROOT / name
        if name.startswith(("mancala_spec/sources/", "LICENSES/")) or not path.is_file() \
                or path.suffix in (".png", ".svg", ".ico", ".whl"):
            continue
        try:
            text = path.read_text("utf-8")
        except UnicodeDecodeError:
            continue
        if quotes(text, fragments) != (LICENCE_REF in annotation(name)[1]):
            wrong.append(f"{name}: quotes {quotes(text, fragments)}, licence "
                         f"{annotation(name)[1]!r}")
    assert not wrong, "\n".join(wrong)


def test_mancala_world_is_named_on_exactly_the_pages_that_adapt_or_quote():
    fragments = _fragments()
    wrong = []
    for path in sorted((ROOT / "docs").rglob("*.md")):
        name = path.relative_to(ROOT).as_posix()
        text = path.read_text("utf-8")
        adapts = bool(ADAPTS.search(text)) or quotes(text, fragments)
        named = any("Mancala World" in holder for holder in annotation(name)[0])
        if adapts != named:
            wrong.append(f"{name}: adapts {adapts}, Mancala World named {named}")
    assert not wrong, "\n".join(wrong)


def test_the_licence_of_each_part_is_said_in_one_sentence():
    sentence = licence_parts()
    assert f"{record().licence}, version unknown" in sentence
    assert _flat(sentence) in _flat((ROOT / "LICENSES.md").read_text("utf-8"))
    for page in ("sources.md", "cite.md"):
        assert "{{ licence_parts }}" in (ROOT / "docs" / page).read_text("utf-8")
    lumped = re.compile(r"quotes, translations and rule claims[^.]*CC BY-SA 4\.0", re.I)
    for name in ("LICENSES.md", "README.md", "CITATION.cff", "docs/sources.md", "docs/cite.md",
                 "mancala_spec/catalogue/provenance.py", "pyproject.toml"):
        assert not lumped.search(_flat((ROOT / name).read_text("utf-8"))), name


def test_the_catalogue_states_the_sources_licence_as_an_assumption():
    head = (ROOT / "mancala_spec" / "catalogue" / "catalogue.toml").read_text("utf-8")[:2000]
    for line in re.findall(r"^#.*CC BY-SA.*$", head, re.M):
        assert "assum" in line or "version unknown" in line, line
