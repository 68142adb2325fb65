"""What is said of the source documents' origin, made from one record.

The files say of their origin only their last line ("Source: Mancala World –
Ba-awa"). The catalogue records that line's article for each document
(``[[document]]``), what is not known, and, in ``[provenance]``, what we add from
outside the files, each addition marked as our assumption with the reason: the
licence (CC BY-SA) and the articles' addresses. Every text that says where or
under which licence the documents were published is made here: the licence note
shipped with them (``LICENSES/LicenseRef-MancalaWorld-CC-BY-SA.txt``), the
credits of the PDF and of the sources page, the site's footer, and the notes of
CITATION.cff's references; tests/catalogue/test_provenance.py holds those files to it.

>>> print(licence_sentence())  # doctest: +ELLIPSIS
Licence: the documents name none; we assume CC BY-SA (our assumption, ...
>>> credit("001_1132cff477fa5791.txt")  # doctest: +ELLIPSIS
'Greek version (001_1132cff477fa5791.txt) of the Mancala World article "Bakuk" ...'
"""
from __future__ import annotations

import sys
import textwrap

from ..sources import SOURCES
from . import load_catalogue
from .records import Document, Provenance

#: Where the licence note shipped with the source documents lives in the repository.
LICENCE_NOTE = "LICENSES/LicenseRef-MancalaWorld-CC-BY-SA.txt"


def record() -> Provenance:
    """The catalogue's ``[provenance]`` record."""
    provenance = load_catalogue().provenance
    assert provenance is not None       # load_catalogue requires it
    return provenance


def document(file: str) -> Document:
    """The catalogue's ``[[document]]`` record of source document *file*."""
    return load_catalogue().document(file)


def licence_sentence() -> str:
    """The one sentence that says under which licence the documents are: ours, assumed."""
    p = record()
    return (f"Licence: the documents name none; we assume {p.licence} (our assumption, "
            f"version unknown; [provenance] in catalogue.toml), because {p.licence_why}.")


def licence_parts() -> str:
    """The one sentence that says which licence covers which part: the quotes are
    the documents' own text, under the licence the catalogue records for them (an
    assumption, version unknown); what we made from them is ours, CC BY-SA 4.0;
    the code is MIT. (The site's Sources and Cite pages, LICENSES.md and
    CITATION.cff say it in these words: tests/packaging/test_licence_parts.py.)"""
    p = record()
    return (f"The quotes are the source documents' own text, under the licence we assume "
            f"for them ({p.licence}, version unknown: the documents name none; "
            f"[provenance] in catalogue.toml says why); our "
            f"translations and rule claims adapted from them are CC BY-SA 4.0, and the "
            f"code is MIT.")


def address_sentence(article: str) -> str:
    """The one sentence that gives the address of *article*: ours, assumed."""
    p = record()
    return (f"Address: the documents give none; we assume {p.address(article)} (our "
            f"assumption; [provenance] in catalogue.toml): {p.address_why}.")


def credit(file: str) -> str:
    """How source document *file* is credited: what its last line says, and what we add."""
    d = document(file)
    return (f'{d.language} version ({file}) of the Mancala World article "{d.version_of}" '
            f'(so its last line: "{d.attribution}"); maker unknown; licence not stated in the '
            f"file, assumed {record().licence} (our assumption)")


def footer() -> str:
    """The site's copyright line (Sphinx's ``copyright``): what is ours."""
    return ("2026, the mancala_spec authors (code: MIT; translations and rule claims "
            "adapted from the source documents: CC BY-SA 4.0; quotes: the documents' own "
            "licence)")


def footer_note() -> str:
    """The note under the site's footer (docs/_templates/page.html, which links it to
    the Sources page): what the documents say of their origin, and what we assume."""
    return (f"The source documents name Mancala World as their source, and no licence or "
            f"address: {record().licence} and the articles' addresses are our assumption")


def reference_note(article: str) -> str:
    """The note of CITATION.cff's reference to Mancala World's article *article*."""
    files = [f for f in sorted(SOURCES) if document(f).version_of == article]
    versions = " and ".join(f"{document(f).language} ({f})" for f in files)
    one = len(files) == 1
    return (f'The {versions} source {"document ends" if one else "documents end"} "Source: '
            f'Mancala World – {article}"; who made {"it" if one else "them"} is unknown. '
            f"{address_sentence(article)} {licence_sentence()}")


def licence_note() -> str:
    """The text of ``LICENSES/LicenseRef-MancalaWorld-CC-BY-SA.txt``."""
    lines = [f"  {f} ({document(f).language}): \"{document(f).attribution}\""
             for f in sorted(SOURCES)]
    def wrapped(text: str) -> list[str]:
        return textwrap.wrap(text, 88, break_on_hyphens=False)

    return "\n".join([
        "The three files in mancala_spec/sources/ are shipped byte for byte as this project",
        "received them. They are quoted material, not our writing.",
        "",
        "What the files say of their origin is only their last line:",
        *lines,
        "",
        "They do not say who made these versions or how, from which revision of the",
        "articles or when, at which address, or under which licence.",
        "",
        *wrapped(licence_sentence()),
        "",
        *wrapped("Attribution: " + "; ".join(credit(f) for f in sorted(SOURCES)) + "."),
        "",
        *wrapped(licence_parts() + " The quotes are in mancala_spec/catalogue/catalogue.toml "
                 "and rulesets.toml and on the rules pages of the site; the translations "
                 "and rule claims under CC BY-SA 4.0 (LICENSES/CC-BY-SA-4.0.txt) there too. "
                 "LICENSES.md says why."),
        "",
        "(Made from the catalogue's [provenance] and document records,",
        "mancala_spec/catalogue/catalogue.toml: python -m mancala_spec.catalogue.provenance",
        f"> {LICENCE_NOTE}; tests/catalogue/test_provenance.py holds this file to them.)",
        ""])


def main(argv: list[str] | None = None) -> int:
    sys.stdout.write(licence_note())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
