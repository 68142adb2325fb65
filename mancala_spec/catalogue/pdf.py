"""The printable edition: every rule as a PDF, with its ID, badge, claims marked
by their basis, quotes with translations, and its citation.

Built straight from the catalogue with fpdf2 (pure Python, no TeX), in the
DejaVu fonts that matplotlib ships (they cover Catalan, German and Greek)::

    python -m mancala_spec.catalogue.pdf build/mancala_spec-rules.pdf

Each rule is a PDF bookmark named by its ID, so a reader jumps to a rule the way
the site's anchors do.
"""
from __future__ import annotations

import datetime
import os
import sys
from pathlib import Path

from ..sources import SOURCES
from . import Rule, load_catalogue
from .cite import AUTHOR, TITLE, citation_text, permalink, source_metadata

GAME_TITLES = {"ba-awa": "Ba-awa", "bakuk": "Bakuk"}


def _font_dir() -> Path:
    import matplotlib

    return Path(matplotlib.__file__).parent / "mpl-data" / "fonts" / "ttf"


def _rule(pdf, rule: Rule, version: str | None, base: str | None) -> None:
    width = pdf.epw
    pdf.start_section(f"{rule.id}: {rule.title}", level=1)
    pdf.set_font("Sans", "B", 12)
    pdf.multi_cell(width, 6, f"{rule.title}   [{rule.id}]", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Sans", "I", 9)
    pdf.multi_cell(width, 5, f"Basis: {rule.badge}", new_x="LMARGIN", new_y="NEXT")
    numbers = {id(c): n for n, c in enumerate(rule.citations, start=1)}
    for claim in rule.claims:
        refs = ", ".join(str(numbers[id(c)]) for c in claim.citations)
        pdf.set_font("Sans", "", 10)
        pdf.multi_cell(width, 5, f"[{claim.basis}] {claim.text}" + (f" [{refs}]" if refs else ""),
                       new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("Sans", "I", 9)
        if claim.basis == "reading":
            pdf.multi_cell(width, 4.5, f"    Why: {claim.why}", new_x="LMARGIN", new_y="NEXT")
            pdf.multi_cell(width, 4.5, f"    Other reading: {claim.other}",
                           new_x="LMARGIN", new_y="NEXT")
        if claim.basis == "editorial":
            if claim.alternatives:
                pdf.multi_cell(width, 4.5, f"    Alternatives: {claim.alternatives}",
                               new_x="LMARGIN", new_y="NEXT")
            if claim.option:
                pdf.multi_cell(width, 4.5, f"    Option: {claim.option}",
                               new_x="LMARGIN", new_y="NEXT")
    if rule.note:
        pdf.set_font("Sans", "", 9)
        pdf.multi_cell(width, 4.5, f"Note: {rule.note}", new_x="LMARGIN", new_y="NEXT")
    if not rule.sourced:
        pdf.set_font("Sans", "", 9)
        for label, text in (("Open question", rule.gap), ("Default", rule.default),
                            ("Why", rule.rationale)):
            pdf.multi_cell(width, 4.5, f"{label}: {' '.join(text.split())}",
                           new_x="LMARGIN", new_y="NEXT")
    for number, c in enumerate(rule.citations, start=1):
        pdf.set_font("Sans", "", 9)
        sic = f" [sic: {c.sic}]" if c.sic else ""
        pdf.multi_cell(width, 4.5, f"[{number}] \u201c{c.quote}\u201d{sic}",
                       new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("Sans", "I", 9)
        pdf.multi_cell(width, 4.5, f"     = \u201c{c.translation}\u201d \u2014 "
                       f"{c.document.title}, line {c.line}", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Sans", "", 8)
    pdf.multi_cell(width, 4, f"Cite: {citation_text(rule, version, base)}", align="L",
                   new_x="LMARGIN", new_y="NEXT", link=permalink(rule, version, base) or "")
    pdf.ln(4)


def _sources(pdf) -> None:
    """What is known of each source document, and what is not (catalogue data)."""
    pdf.start_section("Sources", level=0)
    pdf.set_font("Sans", "B", 11)
    pdf.cell(pdf.epw, 6, "Sources", new_x="LMARGIN", new_y="NEXT")
    for file in sorted(SOURCES):
        facts = source_metadata(file)
        pdf.set_font("Sans", "", 9)
        english = "; ".join(f"\u201c{passage}\u201d" for passage in facts["english"])
        pdf.multi_cell(pdf.epw, 4.5, (
            f"{SOURCES[file].title} ({file}): a version of {facts['version_of']}; language "
            f"{facts['language']}, with English left inside it: {english}. Made by: "
            f"{facts['made_by']}. Credit: {facts['credit']}. SHA-256 {facts['sha256']}. "
            f"Not known: {'; '.join(facts['unknown'])}. {facts['url']} {facts['licence']}"),
            new_x="LMARGIN", new_y="NEXT")
        pdf.ln(1)


#: The language of the edition's text (its quotes keep theirs).
LANGUAGE = "en"
#: The licence of the edition: the rules adapted from the sources.
LICENCE = "CC BY-SA 4.0"
LICENCE_URI = "https://creativecommons.org/licenses/by-sa/4.0/"


def build_date() -> datetime.datetime:
    """When the edition was built: ``SOURCE_DATE_EPOCH`` (seconds since 1970,
    UTC) when set, as reproducible builds do, else now."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if epoch.isdigit() and len(epoch) <= 12:
        return datetime.datetime.fromtimestamp(int(epoch), datetime.UTC)
    return datetime.datetime.now(datetime.UTC).replace(microsecond=0)


def _xmp(version: str) -> str:
    """XMP metadata: the licence as rights statement and URI, the language."""
    return (
        '<rdf:Description rdf:about="" '
        'xmlns:dc="http://purl.org/dc/elements/1.1/" '
        'xmlns:xmpRights="http://ns.adobe.com/xap/1.0/rights/" '
        'xmlns:cc="http://creativecommons.org/ns#">'
        f"<dc:language><rdf:Bag><rdf:li>{LANGUAGE}</rdf:li></rdf:Bag></dc:language>"
        '<dc:rights><rdf:Alt><rdf:li xml:lang="x-default">'
        f"{TITLE}, version {version}: {LICENCE} ({LICENCE_URI}); quotes from documents "
        "that name Mancala World as their source and no licence (CC BY-SA assumed by us)"
        "</rdf:li></rdf:Alt></dc:rights>"
        "<xmpRights:Marked>True</xmpRights:Marked>"
        f"<xmpRights:WebStatement>{LICENCE_URI}</xmpRights:WebStatement>"
        f'<cc:license rdf:resource="{LICENCE_URI}"/>'
        "</rdf:Description>")


def build_pdf(path: str | Path, version: str | None = None, compress: bool = True,
              base: str | None = None) -> Path:
    """Write the printable edition of every rule to *path*; return the path. *base*
    is the published address (by default :func:`~mancala_spec.catalogue.cite.base_url`;
    with none, the citations say that this edition's site is not published)."""
    from fpdf import FPDF

    from ..version import __version__

    version = version or __version__
    pdf = FPDF(format="A4")
    pdf.set_compression(compress)
    fonts = _font_dir()
    pdf.add_font("Sans", "", str(fonts / "DejaVuSans.ttf"))
    pdf.add_font("Sans", "B", str(fonts / "DejaVuSans-Bold.ttf"))
    pdf.add_font("Sans", "I", str(fonts / "DejaVuSans-Oblique.ttf"))
    pdf.set_title(f"{TITLE}, version {version}")
    pdf.set_author(AUTHOR)
    pdf.set_lang(LANGUAGE)
    pdf.set_subject("The rules of Ba-awa and Bakuk, each claim with its basis and source")
    pdf.set_keywords("mancala, Ba-awa, Bakuk, rules")
    pdf.set_creation_date(build_date())       # SOURCE_DATE_EPOCH: the same bytes each build
    pdf.set_xmp_metadata(_xmp(version))
    pdf.set_auto_page_break(True, margin=15)
    pdf.add_page()
    pdf.set_font("Sans", "B", 16)
    pdf.multi_cell(pdf.epw, 8, f"{TITLE}\nversion {version}", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Sans", "", 9)
    pdf.multi_cell(pdf.epw, 4.5, (
        "Every rule is a list of claims, each marked by its basis: [source] a quoted sentence "
        "says it; [reading] our inference from the quoted words (with why, and the other "
        "reading); [editorial] the sources are silent (with the alternatives and the option "
        "that switches it). Quotes are exact substrings of the three source documents "
        f"below ({', '.join(sorted(SOURCES))}); quotes, translations and rules adapted "
        "from them are CC BY-SA 4.0."),
        new_x="LMARGIN", new_y="NEXT")
    pdf.ln(2)
    _sources(pdf)
    pdf.ln(4)
    catalogue = load_catalogue()
    for game, title in GAME_TITLES.items():
        pdf.start_section(title, level=0)
        pdf.set_font("Sans", "B", 14)
        pdf.cell(pdf.epw, 8, title, new_x="LMARGIN", new_y="NEXT")
        for rule in catalogue.for_game(game):
            _rule(pdf, rule, version, base)
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(target.suffix + ".part")
    pdf.output(str(partial))
    partial.replace(target)          # nothing half-written under the real name
    return target


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    target = build_pdf(args[0] if args else "build/mancala_spec-rules.pdf")
    print(target)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
