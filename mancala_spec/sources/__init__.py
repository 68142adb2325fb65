"""The three source documents, byte for byte as this project received them, as
package data.

They are quoted material, not our writing: never edit them. Each names its source
in its last line ("Source: Mancala World – Ba-awa"); who made them, from which
revision and at which address is unknown, and they name no licence (CC BY-SA is
our assumption: ``mancala_spec.catalogue.provenance`` says why). A citation is
valid only if its quoted text is an exact substring of one of them.

>>> from mancala_spec.sources import SOURCES, source_lines
>>> sorted(SOURCES)[0]
'000_772c55c4feba1a9c.txt'
>>> source_lines('001_1132cff477fa5791.txt')[0]
'Bakuk'
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources

from ..errors import UnknownSourceError, shown


@dataclass(frozen=True)
class SourceDocument:
    """What we know about one source document: its file, game and language."""

    file: str
    game: str
    language: str
    language_code: str
    title: str


SOURCES: dict[str, SourceDocument] = {
    doc.file: doc
    for doc in (
        SourceDocument("000_772c55c4feba1a9c.txt", "ba-awa", "Catalan", "ca",
                       "Mancala World – Ba-awa (Catalan version)"),
        SourceDocument("001_1132cff477fa5791.txt", "bakuk", "Greek", "el",
                       "Mancala World – Bakuk (Greek version)"),
        SourceDocument("002_8fadbd38f8f31b03.txt", "ba-awa", "German", "de",
                       "Mancala World – Ba-awa (German version)"),
    )
}


def source_document(file: str) -> SourceDocument:
    """What we know about source document *file*;
    :class:`~mancala_spec.errors.UnknownSourceError` (a :class:`KeyError`
    too) if no source document has that name."""
    if not isinstance(file, str) or file not in SOURCES:
        raise UnknownSourceError(f"no source document named {shown(file)}; known: "
                                 f"{', '.join(sorted(SOURCES))}", file=file, known=sorted(SOURCES))
    return SOURCES[file]


def source_text(file: str) -> str:
    """The full text of source document *file* (decoded as UTF-8); see
    :func:`source_document` for a name that is none."""
    return _read(source_document(file).file)


@cache
def _read(file: str) -> str:
    return resources.files(__package__).joinpath(file).read_text(encoding="utf-8")


def source_lines(file: str) -> list[str]:
    """The lines of source document *file*, without line endings (line 1 is index 0)."""
    return source_text(file).splitlines()
