"""The three source documents, byte for byte as published, as package data.

They are quoted material from Mancala World (CC BY-SA), not our writing: never
edit them. A citation is valid only if its quoted text is an exact substring of
one of them.

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


@cache
def source_text(file: str) -> str:
    """The full text of source document *file* (decoded as UTF-8)."""
    if file not in SOURCES:
        raise KeyError(f"no source document named {file!r}; known: {', '.join(sorted(SOURCES))}")
    return resources.files(__package__).joinpath(file).read_text(encoding="utf-8")


def source_lines(file: str) -> list[str]:
    """The lines of source document *file*, without line endings (line 1 is index 0)."""
    return source_text(file).splitlines()
