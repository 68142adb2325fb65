"""Sentences built from catalogue fields read as sentences (issue 30, item 5).

Every composition is rendered for every record it is made from: a claim as the
``{claim}`` role writes it, a program's account of its rules, the provenance
sentences (credits, licence, addresses, the footer's note, CITATION.cff's notes), the
PDF's paragraph on each source document, and the line the Sources page writes above
each document. None may hold a capital letter in the middle of a sentence (but in a
name) or a literal field name, and each ends as a sentence does. A page uses
``{claim}`` only where a sentence starts (issue 30 found "in Ba-awa, Every other rule
... in this order. (editorial: ...); in Bakuk, The game ends" on the match page).
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from source_sentences import derived, split_sentences

from mancala_spec.catalogue import load_catalogue
from mancala_spec.catalogue.ruleset_records import programs
from mancala_spec.sources import SOURCES

ROOT = Path(__file__).resolve().parents[2]

#: Words that keep their capital inside a sentence: the names the sources use (derived,
#: tests/source_sentences.py), and ours: the games, the seats, languages, programs.
OURS = {"Ba-awa", "Bakuk", "Koumma", "Oware", "Catalan", "German", "Greek", "English",
        "South", "North", "East", "MancalaGames", "EveryBoard", "Valdez", "Mancala",
        "World", "Source", "Creative", "Commons", "Attribution-ShareAlike", "GameProps",
        "SHA-256", "CC", "BY-SA", "PDF", "I", "Sources", "Play", "Mancala World"}
FIELD_NAMES = re.compile(r"\[\[|\]\]|``|\b(version_of|made_by|why|other|alternatives|"
                         r"licence_why|address_why|follows|basis)\s*=")


def proper(word: str) -> bool:
    """A word that keeps its capital: a name, or a word of a source document as the
    document writes it (a German noun quoted in parentheses)."""
    from mancala_spec.sources import source_text

    found = derived()
    names = found["runs"] | found["words"]
    words = {w for f in SOURCES for w in re.findall(r"[\w-]+", source_text(f))}
    return (word in OURS or word in names or word in words
            or any(word in n.split() for n in names)
            or bool(re.search(r"[\d_/.]", word)) or word.isupper())


def misread(text: str) -> list[str]:
    """What keeps *text* from reading as sentences: a capital mid-sentence, a field
    name, no full stop at the end."""
    problems = []
    if FIELD_NAMES.search(text):
        problems.append(f"a field name: {text!r}")
    for sentence in split_sentences(text):
        body = re.sub(r"[\"“'‘].*?[\"”'’]", " ", sentence)     # quoted words keep theirs
        for match in re.finditer(r"(?<=[a-z,;)] )([A-Z][\w-]*)", body[1:]):
            if not proper(match.group(1).rstrip(".,;:")):
                problems.append(f"a capital mid-sentence ({match.group(1)}): {sentence!r}")
        if not sentence.rstrip().endswith((".", ".)", "?", "!")):
            problems.append(f"no full stop: {sentence!r}")
    return problems


def test_the_check_finds_a_glued_claim():
    glued = ('in Ba-awa, Every other rule is the two-player rule. (editorial: x); in Bakuk, '
             'The game ends.')
    assert any("Every" in p for p in misread(glued))
    assert misread("It ends.") == [] and misread("Set version_of = 'x'.")


def claim_compositions() -> list[str]:
    from mancala_spec.sphinx.prose import claim_sentence

    out = []
    for rule in load_catalogue():
        for number in range(1, len(rule.claims) + 1):
            body, basis, end = claim_sentence(rule.id, number)
            out.append(f"{body} ({basis}: {rule.id}){end}")
    return out


def program_compositions() -> list[str]:
    out = []
    for program in programs().values():
        out.append(program.evidence)
        for game, title in (("ba-awa", "Ba-awa"), ("bakuk", "Bakuk")):
            out.append(program.implements(game, title))
    return out


def provenance_compositions() -> list[str]:
    from mancala_spec.catalogue.provenance import (
        address_sentence,
        credit,
        footer,
        footer_note,
        licence_sentence,
        record,
        reference_note,
    )

    out = [licence_sentence(), footer() + ".", footer_note() + "."]
    for article in dict(record().addresses):
        out += [address_sentence(article), reference_note(article)]
    out += [credit(file) + "." for file in SOURCES]
    return out


def pdf_source_paragraphs(tmp_path, monkeypatch) -> list[str]:
    from fpdf import FPDF

    from mancala_spec.catalogue.pdf import build_pdf

    texts: list[str] = []
    multi_cell = FPDF.multi_cell

    def record(self, *args, **kwargs):
        texts.append(str(kwargs.get("text", args[2] if len(args) > 2 else "")))
        return multi_cell(self, *args, **kwargs)

    monkeypatch.setattr(FPDF, "multi_cell", record)
    build_pdf(tmp_path / "rules.pdf", version="0.2.0", compress=False, base="")
    return [t for t in texts if any(f"({file}): a version of" in t for file in SOURCES)]


def test_every_composition_from_catalogue_fields_reads_as_sentences(tmp_path, monkeypatch):
    from mancala_spec.sphinx.rule_sources import SourceDocumentDirective  # noqa: F401

    paragraphs = pdf_source_paragraphs(tmp_path, monkeypatch)
    assert len(paragraphs) == len(SOURCES)
    compositions = (claim_compositions() + program_compositions()
                    + provenance_compositions() + paragraphs)
    assert len(compositions) > sum(len(rule.claims) for rule in load_catalogue())
    problems = [p for text in compositions for p in misread(text)]
    assert not problems, "\n".join(problems)


CLAIM_ROLE = re.compile(r"\{claim\}`[^`]+`")


@pytest.mark.parametrize("page", sorted(p.name for p in (ROOT / "docs").glob("*.md")))
def test_a_page_puts_a_claim_only_where_a_sentence_starts(page):
    text = (ROOT / "docs" / page).read_text("utf-8")
    for match in CLAIM_ROLE.finditer(text):
        paragraph = max(text.rfind("\n\n", 0, match.start()), 0)
        before = text[paragraph:match.start()].strip()
        before = re.sub(r"\{claim\}`[^`]+`$", ".", before)      # after another claim
        starts = (before in ("", "-", "*") or before.endswith((".", "!", "?"))
                  or re.search(r"\n\s*[-*]$", before) is not None)
        assert starts, f"{page}: {{claim}} mid-sentence: {text[match.start() - 60:match.end()]!r}"
