"""Every sentence that names what only the sources can attest carries a claim reference
or is a quotation shown as one (issue 30, item 3): in every built page, README.md,
CITATION.cff, LICENSES.md and the licence note of the sources, the PDF's text and the
output of ``mancala-spec rules``. The names are derived from the source documents
(tests/source_sentences.py says how); these tests hold that derivation, show that the
check fails on the kinds of sentence issue 30 found, and run it on everything shown.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from source_sentences import (
    GREEK_IN_ENGLISH,
    check_tree,
    derived,
    field_blocks,
    flagged,
    fold,
    html_sentences,
    licence_flagged,
    names,
    plain_ref,
    program_flagged,
    split_sentences,
)

from mancala_spec import cli
from mancala_spec.catalogue import load_catalogue
from mancala_spec.sources import SOURCES, source_text

ROOT = Path(__file__).resolve().parents[2]

# -- the names come from the sources ---------------------------------------------------

def test_the_names_are_derived_from_the_sources_and_the_greek_ones_all_mapped():
    found = derived()
    assert found["greek"] == set(GREEK_IN_ENGLISH), "review GREEK_IN_ENGLISH"
    assert found["years"] == {"1957", "1969", "2009"}
    texts = fold(" ".join(source_text(f) for f in SOURCES))
    for name in names():
        assert name in texts or name in {fold(v) for v in GREEK_IN_ENGLISH.values()}, name
    for expected in ("Bell", "Afoakwa", "Bautista", "Anuar", "Koumma", "Oware", "Jbala",
                     "Twi", "Akan", "Ghana", "Mancala World", "Jerin", "Obridjie",
                     "Board and Table Games from Many Civilizations", "Morocco"):
        assert fold(expected) in names(), expected
    assert not {"Ba-awa", "Bakuk", "Board", "Many", "World", "Spieler"} & set(names())


# -- the check fails on what issue 30 found, and passes what cites ---------------------

@pytest.mark.parametrize("sentence", [
    # the Bakuk-page variant, as it was: what the text says, with no reference
    "Koumma, as the Bakuk text describes it (the koumma ruleset): a hole brought to six "
    "is captured too, by the last counter and in the chain, like twos and fours.",
    # the Ba-awa page, as it was: the documents' history in our own voice
    "It entered Western game literature through R. C. Bell.",
    "The source documents are versions of the Mancala World articles, published under "
    "CC BY-SA.",
    "Oware skips the pit it started from.",
    "The files were copied byte for byte from the Mancala World articles.",
    "The Greek text is a translation of the original article.",
    "Víktor Bautista i Roca recorded it in 2009.",
])
def test_the_check_flags_a_sentence_that_names_the_sources_without_a_reference(sentence):
    assert flagged([(sentence, plain_ref(sentence))]) == [sentence]


@pytest.mark.parametrize("sentence", [
    "Koumma captures sixes too (001_1132cff477fa5791.txt line 24).",
    "The chain runs forward (bakuk-chain).",
    "The board has twelve pits.",
    "A rule ID, once published, never disappears.",
    'The last line reads "Source: Mancala World – Bakuk".',
])
def test_the_check_passes_a_sentence_with_a_reference_a_quotation_or_no_name(sentence):
    assert flagged([(sentence, plain_ref(sentence))]) == []


def test_in_a_page_a_link_to_a_rule_or_line_is_a_reference_and_a_quote_a_quotation():
    page = ('<html><body><article role="main">'
            '<p>Bell wrote it (<a href="sources.html#src-000_772c55c4feba1a9c-L4">line 4'
            '</a>). Oware is older.</p>'
            '<blockquote><p>Robert Charles Bell</p></blockquote>'
            '<p class="rule-note">Koumma differs.</p>'
            '<div class="rule-claim"><p>Koumma differs, the source says.</p></div>'
            '</article><footer><p>Source: Mancala World.</p></footer></body></html>')
    assert flagged(html_sentences(page)) == ["Oware is older.", "Koumma differs.",
                                             "Source: Mancala World."]


@pytest.mark.parametrize("sentence", [
    # the Sources page's context line, as it was: a reference (the line) does not back a
    # licence the line does not name
    "Attribution: the document is a version of the Mancala World article 'Ba-awa' "
    "(CC BY-SA), which this line names.",
    "which version of CC BY-SA applies (the file names no licence)",
    "CC BY-SA licences from version 2.0 on allow an adaptation to be licensed under a "
    "later version.",
    "The articles are at https://mancala.fandom.com/wiki/Bakuk.",
    "The documents were published under Creative Commons Attribution-ShareAlike.",
    # the sources package's docstring and REUSE.toml's comment, as they were
    "The three source documents, byte for byte as published, as package data.",
    "the source documents, byte for byte as Mancala World publishes them",
])
def test_the_check_flags_a_licence_or_address_stated_as_fact(sentence):
    assert licence_flagged([sentence]) == [sentence]


@pytest.mark.parametrize("sentence", [
    "They name no licence (CC BY-SA is our assumption, Sources says why).",
    "Our quotes and translations are CC BY-SA 4.0; the code is MIT.",
    "See LICENSES/LicenseRef-MancalaWorld-CC-BY-SA.txt.",
    "SPDX: MIT AND CC-BY-SA-4.0.",
])
def test_the_check_passes_the_licence_said_as_assumed_and_our_own(sentence):
    assert licence_flagged([sentence]) == []


@pytest.mark.parametrize("sentence", [
    # the catalogue's alternatives and the options, as they were
    "MancalaGames' reading (see the readings compared): the game ends as soon as its "
    "winner is decided.",
    "a sowing stopped at its 75th lap ends the game (EveryBoard's reading)",
    "Other programs' readings, as options, come first.",
    "play goes on (the reading of MancalaGames and of EveryBoard, which have no such rule)",
])
def test_the_check_flags_a_programs_rules_called_its_reading(sentence):
    assert program_flagged([sentence]) == [sentence]


def test_a_catalogue_tables_name_in_prose_is_flagged_and_in_code_is_not():
    from source_sentences import TABLE_NAME

    page = ('<html><body><article role="main"><p>Each source has [[document]] records.</p>'
            '<p>The <code>[[document]]</code> table.</p></article></body></html>')
    shown = [s for s, _ in html_sentences(page) if TABLE_NAME.search(s)]
    assert shown == ["Each source has [[document]] records."]


def test_sixes_among_bakuks_captures_are_koummas():
    from source_sentences import sixes_flagged

    bad = ["Bakuk captures only twos, fours and sixes (rules bakuk-capture, bakuk-chain)",
           "A position's counts must be twos, fours and sixes."]
    fine = ["Bakuk only twos and fours (and sixes under Koumma's sixes=True).",
            "Sixes are captured too, as the source says of Koumma."]
    assert sixes_flagged(bad + fine) == bad


def test_the_check_passes_a_program_said_to_play_or_implement_the_game():
    fine = ["As MancalaGames plays it (see the readings compared): the game ends.",
            "MancalaGames implements Ba-awa after Valdez (2023).",
            "Our reading of the line, and the other reading."]
    assert program_flagged(fine) == []


# -- everything shown ------------------------------------------------------------------

def test_no_page_readme_citation_or_licence_names_the_sources_without_a_reference(site):
    assert site.result.returncode == 0, site.result.stderr[-3000:]
    found = check_tree(ROOT, site.html)
    assert not found, "\n".join(f"{name}: {s}" for name, bad in found.items() for s in bad)


def test_the_pdf_text_names_the_sources_only_with_a_reference(tmp_path, monkeypatch):
    from fpdf import FPDF

    from mancala_spec.catalogue.pdf import build_pdf

    blocks: list[str] = []
    cell, multi_cell = FPDF.cell, FPDF.multi_cell

    def record_cell(self, *args, **kwargs):
        text = kwargs.get("text", args[2] if len(args) > 2 else "")
        blocks.append(str(text))
        return cell(self, *args, **kwargs)

    def record_multi_cell(self, *args, **kwargs):
        text = kwargs.get("text", args[2] if len(args) > 2 else "")
        blocks.append(str(text))
        return multi_cell(self, *args, **kwargs)

    monkeypatch.setattr(FPDF, "cell", record_cell)
    monkeypatch.setattr(FPDF, "multi_cell", record_multi_cell)
    build_pdf(tmp_path / "rules.pdf", version="0.2.0", compress=False, base="")
    assert len(blocks) > 300 and any("Koumma" in b for b in blocks)
    items = list(field_blocks(blocks))
    texts = [s for s, _ in items]
    bad = flagged(items) + licence_flagged(texts) + program_flagged(texts)
    assert not bad, "\n".join(bad)


def test_the_rules_command_names_the_sources_only_with_a_reference(capsys):
    blocks: list[str] = []
    for argv in (["rules"], *(["rules", rule.id] for rule in load_catalogue())):
        assert cli.main(argv) == 0
        out = capsys.readouterr().out
        blocks += [b for b in re.split(r"\n\s*\n|\n(?=  [\[“=—]|\w+: )", out) if b.strip()]
    assert sum("Koumma" in b for b in blocks) >= 3
    items = list(field_blocks(blocks))
    texts = [s for s, _ in items]
    bad = flagged(items) + licence_flagged(texts) + program_flagged(texts)
    assert not bad, "\n".join(bad)


def test_sentences_split_as_read():
    assert split_sentences("One. Two (a.b). \"Three.\"") == ["One.", "Two (a.b).",
                                                              "\"Three.\""]
