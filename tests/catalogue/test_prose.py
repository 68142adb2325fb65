"""The prose is checked like the catalogue (issue 18): a sentence on the site, in the
README, CITATION.cff, LICENSES/README.md, a gallery script or the PDF's front text
that says what the sources say must come from the catalogue ({claim}, {context},
the rule directives) or cite it (a rule, a source line, a bibliography entry).

What counts as "a statement about the sources" is recognised by words, not meaning:
a sentence naming the sources (source, sources, the documents, the texts, the
Catalan/German/Greek version, the article) together with a verb of saying (say,
state, describe, name, define, call, speak, contrast, distinguish, record, …),
or naming a person, people or work the sources name (Bell, Bautista i
Roca, Afoakwa, Anuar, the Twi, the Jbala, the Akan, the Rif). Such a sentence
passes if it holds a citation: a rule ID (as a role, in backticks or plain), a
source line or a source file, a ``{cite}``, ``{claim}`` or ``{context}``, the Sources
page or the catalogue's provenance record (what we assume, said to be ours), or the
``[[work]]`` or ``[[context]]`` records. tests/catalogue/test_source_sentences.py checks the
built pages, the PDF and the rules command with names derived from the sources. It
catches the kinds of statement issue 18 found; it cannot catch a claim about the
sources worded without those words, and it accepts any sentence that cites
something, cited rightly or not.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
import yaml

from mancala_spec.catalogue import load_catalogue
from mancala_spec.catalogue.cite import RELEASE_DATE, bibliography_bibtex, source_metadata
from mancala_spec.sources import SOURCES, source_text

ROOT = Path(__file__).resolve().parents[2]

SOURCES_WORDS = (r"\b(sources?|source documents?|the documents?|the texts?|the articles?"
                 r"|the file|the files|the Catalan|the German|the Greek|Catalan version"
                 r"|German version|Greek version)\b")
SAYING = (r"\b(say|says|said|state|states|stated|describe|describes|described|name|names"
          r"|named|define|defines|defined|call|calls|called|speak|speaks|contrast"
          r"|contrasts|distinguish|distinguishes|record|records|recorded"
          r"|mention|mentions|assign|assigns|tell|tells)\b")
NAMED = (r"\b(Bell|Bautista|Afoakwa|Anuar|Twi|Jbala|Akan|Rif|Jerin|Obridjie"
         r"|shepherds|herders)\b")


def _rule_ids() -> str:
    return "|".join(sorted((re.escape(r.id) for r in load_catalogue()), key=len, reverse=True))


def cites(sentence: str) -> bool:
    """Whether *sentence* cites the catalogue: a rule, a source line, a work."""
    markers = (r"\{(rule-ref|rule-badge|claim|context|source-line|cite:[pt]|rule)\}`"
               r"|:(rule-ref|rule-badge|claim|context|source-line|cite:[pt]):`"
               r"|\b\d{3}_[0-9a-f]{16}\.txt\b|\[\[(work|context)\]\]|\[provenance\]"
               r"|\bsources\.md\b|\bSources page\b|\bour assumption\b|assumed by us")
    return bool(re.search(markers, sentence) or re.search(rf"(?<![\w-])({_rule_ids()})(?![\w-])",
                                                          sentence))


def about_the_sources(sentence: str) -> bool:
    flat = " ".join(sentence.split())
    return bool((re.search(SOURCES_WORDS, flat, re.I) and re.search(SAYING, flat, re.I))
                or re.search(NAMED, flat))


def sentences(text: str) -> list[str]:
    """*text* split into sentences (a paragraph's lines joined first)."""
    out = []
    for paragraph in re.split(r"\n\s*\n|\n(?=\s*[-*] )", text):
        flat = " ".join(paragraph.split())
        out += [s for s in re.split(r"(?<=[.!?])\s+(?=[A-Z*(\"“{])", flat) if s]
    return out


def markdown_prose(text: str) -> str:
    """The prose of a MyST page: no code or example blocks, no directive options,
    no tables of glossary words (a test in test_site checks those against the
    sources), no headings; the bodies of {rule} and {glossary} blocks are kept."""
    keep, stack = [], []
    for line in text.splitlines():
        fence = re.match(r"^\s*(`{3,}|:{3,})\s*(\{([\w:-]+)\}|\w*)?", line)
        if fence:
            marks = fence.group(1)
            if stack and stack[-1][0] == marks and not fence.group(2):
                stack.pop()
                continue
            if fence.group(2) is not None or not stack or stack[-1][0] != marks:
                stack.append((marks, fence.group(3) or fence.group(2) or ""))
                continue
        if stack and stack[-1][1] not in ("rule", "glossary", "rule-summary"):
            continue
        if re.match(r"^\s*(:\w[\w-]*:|#|\|| {4}|  - (Catalan|German|Greek|English))", line):
            keep.append("")
            continue
        keep.append(line)
    return "\n".join(keep)


def _docstrings(path: Path) -> str:
    tree = ast.parse(path.read_text("utf-8"))
    text = ast.get_docstring(tree) or ""
    comments = [line[2:] for line in path.read_text("utf-8").splitlines()
                if line.startswith("# ") and not line.startswith("# sphinx_gallery")]
    return text + "\n\n" + "\n".join(comments)


def _cff_prose() -> str:
    data = yaml.safe_load((ROOT / "CITATION.cff").read_text("utf-8"))
    parts = [data["message"], data["abstract"]]
    parts += [ref.get("notes", "") for ref in data.get("references", ())]
    return "\n\n".join(parts)


def _pdf_prose() -> str:
    source = (ROOT / "mancala_spec" / "catalogue" / "pdf.py").read_text("utf-8")
    strings = [node.value for node in ast.walk(ast.parse(source))
               if isinstance(node, ast.Constant) and isinstance(node.value, str)]
    return "\n\n".join(" ".join(s.split()) for s in strings if len(s.split()) > 5)


#: The licence notes (LICENSES/README.md, or LICENSES.md at the root), whichever exist.
LICENCE_NOTES = [p for p in (ROOT / "LICENSES" / "README.md", ROOT / "LICENSES.md") if p.exists()]


def prose_files() -> dict[str, str]:
    files = {str(p.relative_to(ROOT)): markdown_prose(p.read_text("utf-8"))
             for p in sorted((ROOT / "docs").glob("*.md"))}
    files["README.md"] = markdown_prose((ROOT / "README.md").read_text("utf-8"))
    for notes in LICENCE_NOTES:
        files[str(notes.relative_to(ROOT))] = markdown_prose(notes.read_text("utf-8"))
    files["CITATION.cff"] = _cff_prose()
    files["mancala_spec/catalogue/pdf.py"] = _pdf_prose()
    for script in sorted((ROOT / "gallery").glob("*.py")):
        files[str(script.relative_to(ROOT))] = _docstrings(script)
    files["gallery/GALLERY_HEADER.rst"] = (ROOT / "gallery" / "GALLERY_HEADER.rst").read_text(
        "utf-8")
    return files


def defines_the_bases(sentence: str) -> bool:
    """A sentence that says what the three bases mean (source, reading, editorial)
    speaks of the sources in general, not of what they say: it is not checked."""
    return bool(re.search(r"\bsource\b", sentence) and re.search(r"\breading\b", sentence)
                and re.search(r"\beditorial\b", sentence))


def uncited(text: str) -> list[str]:
    return [s for s in sentences(text)
            if about_the_sources(s) and not cites(s) and not defines_the_bases(s)]


def test_every_statement_about_the_sources_comes_from_the_catalogue_or_cites_it():
    found = {name: uncited(text) for name, text in prose_files().items()}
    found = {name: bad for name, bad in found.items() if bad}
    assert not found, "\n".join(f"{name}: {s}" for name, bad in found.items() for s in bad)


@pytest.mark.parametrize("sentence", [
    "The sources say each player's store is at their right hand.",
    "Ba-awa is a two-row mancala game of the Twi.",
    "The works those articles name as first descriptions are Bell [1969] for Ba-awa.",
    "The Greek text names Víktor Bautista i Roca as the article's author.",
    "Other descriptions of related games chain backwards, and the source describes that.",
])
def test_the_check_fails_on_an_uncited_statement_about_the_sources(sentence):
    assert uncited(sentence) == [sentence]


@pytest.mark.parametrize("sentence", [
    "The sources say the stores are optional ({rule-ref}`ba-awa-stores`).",
    "It entered Western game literature through {cite:t}`bell1969`.",
    "The Greek version says he recorded them ({source-line}`l5 <001_1132cff477fa5791.txt:5>`).",
    "In the three-player game, {claim}`ba-awa-three-turns:3`",
    "The source says so (rule ``bakuk-chain``).",
    "The board has twelve pits.",
])
def test_the_check_passes_a_cited_statement_and_leaves_other_prose_alone(sentence):
    assert uncited(sentence) == []


# -- the statements issue 18 listed: none of the old wordings is left --------------------

BEFORE = [
    "Bakuk, by Víktor Bautista i Roca",
    "the latter by Víktor Bautista i Roca",
    "four consecutive pits",
    "name as first descriptions",
    "original language",
    "Original language",
    "Other descriptions of related games chain",
    "store is at their right hand",
    "the player in front of whose row it lies.",
    "for a player's store",
    "exact source\nsentence it comes from",
    "every\nother rule is the same as in the two-player game",
    "never changes what the sources define",
    "The sources define a move",
    "a two-row mancala game of the Twi",
    "Oxford University Press",
    "which this version of the engine does not implement yet",
    "the site's published address",
    "mancala-spec.readthedocs.io",
    "(Catalan)\"",
]


def test_none_of_the_statements_issue_18_listed_is_left():
    assert LICENCE_NOTES
    paths = [*ROOT.glob("docs/*.md"), ROOT / "README.md", ROOT / "CITATION.cff",
             *LICENCE_NOTES, ROOT / "docs" / "refs.bib", ROOT / "conf.py",
             *ROOT.glob("gallery/*.py"), *ROOT.glob("mancala_spec/**/*.py"),
             ROOT / "mancala_spec" / "catalogue" / "catalogue.toml"]
    for path in paths:
        text = path.read_text("utf-8")
        for before in BEFORE:
            assert before not in text, (str(path.relative_to(ROOT)), before)
    bakuk = load_catalogue()["bakuk-chain"].claims[0].text
    assert "ο παίκτης" in bakuk and not bakuk.startswith("After a capture the mover")
    three = load_catalogue()["ba-awa-three-players"].forms[0].description
    assert "consecutive" not in three


# -- provenance and the bibliography come from the catalogue ------------------------------

def test_every_document_has_its_provenance_and_what_is_not_known():
    for file, document in SOURCES.items():
        facts = source_metadata(file)
        assert facts["language"] == document.language
        assert facts["label"] == f"({document.language} version)"
        assert document.title.endswith(facts["label"])
        assert facts["made_by"] == "unknown"
        assert any("who made" in fact for fact in facts["unknown"])
        assert facts["english"] and all(p in source_text(file) for p in facts["english"])
        assert facts["attribution"] == f"Source: Mancala World – {facts['article']}"
        assert "CC BY-SA" in facts["credit"] and "unknown" in facts["credit"]
        assert len(facts["sha256"]) == 64


def test_the_bibliography_is_generated_from_the_catalogue():
    assert (ROOT / "docs" / "refs.bib").read_text("utf-8") == bibliography_bibtex(), \
        "regenerate it: python -m mancala_spec.catalogue.cite > docs/refs.bib"
    works = {w.key: w for w in load_catalogue().works}
    assert "publisher  " not in bibliography_bibtex() and "Oxford" not in bibliography_bibtex()
    # the author as the document's last line names it (it names no contributors, no wiki)
    assert works["mw-bakuk"].author == "{Mancala World}"


def test_one_release_date_feeds_cff_and_the_changelog():
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text("utf-8"))
    assert str(cff["date-released"]) == RELEASE_DATE
    from mancala_spec.version import LAST_RELEASE, RELEASED, __version__
    changelog = (ROOT / "docs" / "changelog.md").read_text("utf-8")
    assert f"## {__version__ if RELEASED else LAST_RELEASE[0]} ({RELEASE_DATE})" in changelog
    assert "YEAR = " not in (ROOT / "mancala_spec" / "catalogue" / "cite.py").read_text("utf-8")
