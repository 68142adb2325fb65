"""What is said of the source documents' origin comes from one record (issue 30, item 1).

The files say of their origin only their last line; the catalogue's ``[provenance]``
record holds what we add from outside them (the licence, the articles' addresses),
each marked as our assumption with the reason. The licence note shipped with the
documents is generated from it; CITATION.cff, pyproject.toml's URLs, the footer and
the PDF's credits are checked against it; and no text of ours states the documents'
licence or address without saying that it is our assumption.
"""
from __future__ import annotations

import re
import tomllib
from pathlib import Path

import yaml
from helpers import strings
from source_sentences import licence_flagged

from mancala_spec.catalogue import load_catalogue
from mancala_spec.catalogue.provenance import (
    LICENCE_NOTE,
    credit,
    footer,
    footer_note,
    licence_note,
    record,
    reference_note,
)
from mancala_spec.sources import SOURCES

ROOT = Path(__file__).resolve().parents[2]


def test_the_licence_note_shipped_with_the_documents_is_made_from_the_record():
    assert (ROOT / LICENCE_NOTE).read_text("utf-8") == licence_note(), \
        f"regenerate it: python -m mancala_spec.catalogue.provenance > {LICENCE_NOTE}"
    note = licence_note()
    for file in SOURCES:
        assert load_catalogue().document(file).attribution in note
    assert "Bautista" not in note and "copied byte for byte from" not in note


def test_citation_cff_references_give_the_records_addresses_and_notes():
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text("utf-8"))
    sites = [r for r in cff["references"] if r["type"] == "website"]
    assert sorted(r["title"] for r in sites) == sorted(dict(record().addresses))
    for ref in sites:
        assert ref["url"] == record().address(ref["title"])
        assert " ".join(ref["notes"].split()) == reference_note(ref["title"])
    assert "our assumption" in " ".join(cff["message"].split())
    assert "[[" not in (ROOT / "CITATION.cff").read_text("utf-8")


def test_pyproject_urls_are_the_assumed_addresses_and_say_so():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    urls = project["urls"]
    assert sorted(urls.values()) == sorted(dict(record().addresses).values())
    assert all("assumed" in label and not label.startswith("Source") for label in urls)
    assert all(len(label) <= 32 for label in urls)       # core metadata's label limit


def test_the_footer_and_the_credits_say_what_is_assumed():
    import conf

    assert conf.copyright == footer() and "Mancala World" not in footer()
    assert conf.html_context["provenance_note"] == footer_note()
    assert "our assumption" in footer_note()
    for file in SOURCES:
        assert "our assumption" in credit(file) and "maker unknown" in credit(file)


def _sentences(text: str) -> list[str]:
    """*text* cut at blank lines, list items and table rows, then into sentences."""
    out = []
    for block in re.split(r"\n\s*\n|\n(?=\s*(?:[-*] |\|))", text):
        out += re.split(r"(?<=[.!?])\s+(?=[A-Z\"“(])", " ".join(block.split()))
    return out


def texts() -> dict[str, str]:
    out = {p.name: p.read_text("utf-8") for p in [ROOT / "README.md", ROOT / "LICENSES.md",
                                                  ROOT / LICENCE_NOTE]}
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text("utf-8"))
    out["CITATION.cff"] = "\n\n".join(s for s in strings(cff) if " " in s)   # a url field: above
    out.update({f"docs/{p.name}": p.read_text("utf-8") for p in (ROOT / "docs").glob("*.md")})
    out["pyproject.toml"] = (ROOT / "pyproject.toml").read_text("utf-8")
    out["REUSE.toml"] = (ROOT / "REUSE.toml").read_text("utf-8")
    out["footer"] = footer() + ". " + footer_note()
    for file in SOURCES:
        out[f"credit {file}"] = credit(file)
    return out


def test_no_text_states_the_documents_licence_or_address_without_saying_it_is_assumed():
    # the same check the built pages, the PDF and the command's output get
    # (tests/source_sentences.py, licence_flagged), here on the files they are made from
    bad = [f"{name}: {s}" for name, text in texts().items()
           for s in licence_flagged(_sentences(text))]
    assert not bad, "\n".join(bad)


def test_the_readme_names_only_files_that_exist():
    """README.md once sent readers to a LICENSES/README.md that did not exist (issue 30):
    every path it names (in backquotes or as a link) under a folder of the repository
    exists."""
    text = (ROOT / "README.md").read_text("utf-8")
    paths = set(re.findall(r"`([^`\s]+/[^`\s]*)`", text)) | set(re.findall(r"\]\(([^)#\s]+)\)",
                                                                        text))
    ours = [p for p in paths if (ROOT / p.split("/")[0]).is_dir() and ":" not in p]
    assert "LICENSES/LicenseRef-MancalaWorld-CC-BY-SA.txt" in ours
    assert [p for p in ours if not (ROOT / p).exists()] == []
