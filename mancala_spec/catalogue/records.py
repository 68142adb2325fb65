"""The catalogue's records of the source documents, of their provenance and of
the works they name (``[[document]]``, ``[provenance]``, ``[[work]]`` in
``catalogue.toml``), each checked against the source files as it is read.
:func:`mancala_spec.catalogue.load_catalogue` reads them with the rules.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import CatalogueError
from ..sources import SOURCES, source_lines, source_text


@dataclass(frozen=True)
class Document:
    """What is known of one source document's provenance, and what is not.

    ``version_of`` is the article that the file's last line names
    (``Source: Mancala World – …``); ``english`` the passages of the document left
    in English (each an exact substring); ``made_by`` who made this version, empty
    when (as for all three) the file does not say; ``unknown`` what the file does not tell.
    ``runs`` says which words of each passage are English: ``(passage, run)``, the run
    the whole passage, or the English part of a passage whose label is in the
    document's language (``("Rangs/files: Two", "Two")``).
    """

    file: str
    version_of: str
    language: str
    english: tuple[str, ...]
    made_by: str
    unknown: tuple[str, ...]
    runs: tuple[tuple[str, str], ...] = ()

    def english_spans(self, text: str) -> list[tuple[int, int]]:
        """Where *text* (a line of this document, or part of one) holds English
        left inside it: the ``(start, end)`` of each run, in order and apart.
        A passage counts only as a whole word or words (``box`` is not found
        in ``boxes``).

        >>> from mancala_spec.catalogue import load_catalogue
        >>> catalan = load_catalogue().document("000_772c55c4feba1a9c.txt")
        >>> line = "Rangs/files: Two"
        >>> [line[a:b] for a, b in catalan.english_spans(line)]
        ['Two']
        """
        import re

        spans: list[tuple[int, int]] = []
        for passage, run in self.runs:
            offset = passage.index(run)
            pattern = r"(?<!\w)" + re.escape(passage) + r"(?!\w)"
            for found in re.finditer(pattern, text):
                spans.append((found.start() + offset, found.start() + offset + len(run)))
        merged: list[tuple[int, int]] = []
        for start, end in sorted(spans):
            if merged and start <= merged[-1][1]:
                merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
            else:
                merged.append((start, end))
        return merged

    @property
    def attribution(self) -> str:
        """The file's attribution line, its last (``Source: Mancala World – …``)."""
        return next(line for line in reversed(source_lines(self.file))
                    if line.startswith("Source:"))

    @property
    def label(self) -> str:
        """How a quote from this document is labelled: "(Catalan version)"."""
        return f"({self.language} version)"


@dataclass(frozen=True)
class Provenance:
    """What we add to the source documents from outside them, each marked as ours.

    The files say of their origin only their last line (``Source: Mancala World –
    …``); ``licence`` (CC BY-SA) and the articles' ``addresses`` are our additions,
    ``*_basis`` says so ("assumed") and ``*_why`` says why. Everything that says
    where or under which licence the documents were published is made from this
    record (``mancala_spec.catalogue.provenance``)."""

    licence: str
    licence_basis: str
    licence_why: str
    address_basis: str
    address_why: str
    addresses: tuple[tuple[str, str], ...]

    def address(self, article: str) -> str:
        """The address we assume for the article *article* (``[provenance]``)."""
        return dict(self.addresses)[article]


@dataclass(frozen=True)
class Work:
    """A work the sources name, or a source article: one bibliography entry.

    Its author's name parts, title and year occur in ``quote``, an exact
    substring of ``source`` (checked on load). What the entry adds to that sentence
    (``note``, and an article's assumed ``url``) is ours, and the note says so.
    A name in braces is an organisation (one name, not split)."""

    key: str
    type: str
    author: str
    title: str
    source: str
    quote: str
    note: str
    year: str = ""
    url: str = ""


def attribution_reason(document: Document, provenance: Provenance) -> str:
    """What the catalogue says of *document*'s attribution line (its ``[[context]]``
    entry), made from the two records: the line names the article, and names no
    licence, which the provenance record says we assume.

    >>> from mancala_spec.catalogue import load_catalogue
    >>> catalogue = load_catalogue()
    >>> print(attribution_reason(catalogue.document("001_1132cff477fa5791.txt"),
    ...                          catalogue.provenance))  # doctest: +NORMALIZE_WHITESPACE
    Attribution: this line names the Mancala World article 'Bakuk' as the document's
    source, and is all the document says of its origin; it names no licence and no
    address (CC BY-SA and the address are our assumption, as the document's record says).
    """
    basis = {"assumed": "our assumption"}
    assert provenance.licence_basis == provenance.address_basis == "assumed"
    return (f"Attribution: this line names the Mancala World article '{document.version_of}' "
            "as the document's source, and is all the document says of its origin; it names "
            f"no licence and no address ({provenance.licence} and the address are "
            f"{basis[provenance.licence_basis]}, as the document's record says).")


def read_provenance(data: dict[str, Any], documents: tuple[Document, ...]) -> Provenance:
    provenance = Provenance(data["licence"], data["licence_basis"],
                            " ".join(data["licence_why"].split()), data["address_basis"],
                            " ".join(data["address_why"].split()),
                            tuple(sorted(data["addresses"].items())))
    if provenance.licence_basis != "assumed" or provenance.address_basis != "assumed":
        raise CatalogueError("[provenance]: no file states a licence or an address, so both "
                             "are our assumption (basis \"assumed\")")
    if sorted({d.version_of for d in documents}) != sorted(dict(provenance.addresses)):
        raise CatalogueError("[provenance]: one assumed address for each article the "
                             "documents name, no more")
    return provenance


def read_work(data: dict[str, Any]) -> Work:
    work = Work(data["key"], data["type"], data["author"], data["title"], data["source"],
                data["quote"], " ".join(data["note"].split()), data.get("year", ""),
                data.get("url", ""))
    if work.source not in SOURCES or work.quote not in source_text(work.source):
        raise CatalogueError(f"work {work.key}: quote is not in {work.source}: {work.quote!r}")
    if work.author.startswith("{"):      # an organisation, named as its quote names it
        parts = [work.author.strip("{}")]
    else:
        parts = [part for name in work.author.split(",") for part in name.split()]
    title = "" if work.title.startswith("[") else work.title
    for part in [*parts, title, work.year]:
        if part not in work.quote:
            raise CatalogueError(f"work {work.key}: {part!r} is not in its quote")
    return work


def read_document(data: dict[str, Any]) -> Document:
    runs = []
    for entry in data.get("english", ()):
        # a passage wholly in English, or {in = passage, english = the English run of it}
        passage, run = (entry, entry) if isinstance(entry, str) else (entry["in"],
                                                                      entry["english"])
        if run not in passage:
            raise CatalogueError(f"{data['file']}: English run {run!r} is not in its "
                                 f"passage {passage!r}")
        runs.append((passage, run))
    document = Document(data["file"], data["version_of"], data["language"],
                        tuple(passage for passage, _ in runs), data.get("made_by", ""),
                        tuple(" ".join(u.split()) for u in data.get("unknown", ())),
                        tuple(runs))
    if document.file not in SOURCES:
        raise CatalogueError(f"[[document]] names an unknown source {document.file!r}")
    if document.language != SOURCES[document.file].language:
        raise CatalogueError(f"{document.file}: language {document.language!r} is not "
                             f"{SOURCES[document.file].language!r}")
    text = source_text(document.file)
    for passage in document.english:
        if passage not in text:
            raise CatalogueError(f"{document.file}: English passage not in the file: {passage!r}")
    if document.attribution != f"Source: Mancala World – {document.version_of}":
        raise CatalogueError(f"{document.file}: the attribution line names another article "
                             f"than {document.version_of!r}: {document.attribution!r}")
    if not document.made_by and not any("who made" in u for u in document.unknown):
        raise CatalogueError(f"{document.file}: with no maker recorded, say that who made it "
                             "is unknown")
    return document
