"""The rules catalogue: every rule of both games, its sources and its code.

The catalogue itself is data (``catalogue.toml`` beside this module). This module
gives it types, checks it on load, and lets engine code declare which rules it
implements::

    @implements("ba-awa-relay")
    def relay(...): ...

A rule is either **sourced** — stated by a source document, with citations that
quote it exactly — or **editorial** — a completion where the sources are silent,
with the gap it fills, the default we chose, why, and the option (if any) that
selects each alternative. Its statement is a list of **claims**, each with one
basis: ``source`` (a quote says it), ``reading`` (our inference from quoted
words: why we read them so, and the other reading) or ``editorial`` (the
sources are silent: the alternatives, and the option that switches it). The
rule's badge (:attr:`Rule.badge`) says "sourced" only when every claim is. Some
sourced rules offer *forms*: options that select
another form the source itself describes (three players, a match target); and
*variants*: options that deliberately depart from the source, for comparison
with other descriptions; a reading claim may name an *alternative* that plays
its other reading (``ba-awa-choose``: ``choose="row"``).

>>> from mancala_spec.catalogue import get_rule
>>> rule = get_rule("bakuk-chain")
>>> rule.kind, rule.game, rule.badge
('sourced', 'bakuk', 'sourced, with readings')
>>> [claim.basis for claim in rule.claims]
['source', 'reading', 'reading']
>>> rule.claims[1].citations[0].source
'001_1132cff477fa5791.txt'
"""
from __future__ import annotations

import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any, TypeVar

from ..errors import CatalogueError, UnknownRuleError, UnknownSourceError, shown
from ..sources import SOURCES, source_lines, source_text

KINDS = ("sourced", "editorial")
BASES = ("source", "reading", "editorial")
GAMES = ("ba-awa", "bakuk")

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class Citation:
    """An exact quotation from a source document, with our English translation."""

    source: str
    quote: str
    translation: str
    #: a word of the quote that is misspelt in the source, shown with [sic]
    sic: str = ""

    @property
    def line(self) -> int:
        """The 1-based line of the source document that holds the quote."""
        for number, text in enumerate(source_lines(self.source), start=1):
            if self.quote in text:
                return number
        raise LookupError(f"quote not found in {self.source}: {self.quote!r}")

    @property
    def document(self):
        """The :class:`~mancala_spec.sources.SourceDocument` quoted."""
        return SOURCES[self.source]


@dataclass(frozen=True)
class Alternative:
    """One way to decide an open question, and the option value that selects it."""

    option: str
    value: Any
    description: str


@dataclass(frozen=True)
class Claim:
    """One thing a rule says, and what backs it (``BASES``).

    A ``source`` claim is said by its quoted sentences; a ``reading`` is our
    inference from the quoted words, with ``why`` we read them so and the
    ``other`` reading; an ``editorial`` claim fills a silence of the sources,
    with its ``alternatives`` and the ``option`` (if any) that switches it.
    ``events`` lists the trace events (``kind`` or ``kind:reason``) that the
    engine emits under this rule because of this claim.
    """

    text: str
    basis: str
    citations: tuple[Citation, ...] = ()
    why: str = ""
    other: str = ""
    alternatives: str = ""
    option: str = ""
    events: tuple[str, ...] = ()


_BASIS_NAMES = {"source": ("a sourced claim", "sourced claims"),
                "reading": ("a reading", "readings"),
                "editorial": ("an editorial completion", "editorial completions")}


@dataclass(frozen=True)
class Rule:
    """One rule of one game, as the rules site shows it."""

    id: str
    game: str
    title: str
    kind: str
    claims: tuple[Claim, ...] = ()
    note: str = ""
    citations: tuple[Citation, ...] = ()
    gap: str = ""
    default: str = ""
    rationale: str = ""
    alternatives: tuple[Alternative, ...] = ()
    forms: tuple[Alternative, ...] = ()
    variants: tuple[Alternative, ...] = ()

    @property
    def statement(self) -> str:
        """The rule as one text: its claims, in order."""
        return " ".join(" ".join(claim.text.split()) for claim in self.claims)

    @property
    def bases(self) -> tuple[str, ...]:
        """The bases of the rule's claims, each once, in ``BASES`` order."""
        present = {claim.basis for claim in self.claims}
        return tuple(basis for basis in BASES if basis in present)

    @property
    def badge(self) -> str:
        """What backs the rule, in a few words: "sourced" only when every claim
        is a source claim; otherwise the kind with what else it holds, e.g.
        "sourced, with a reading" or "editorial, with a sourced claim"."""
        head = "source" if self.kind == "sourced" else "editorial"
        extras = []
        for basis in BASES:
            count = sum(claim.basis == basis for claim in self.claims)
            if basis != head and count:
                extras.append(_BASIS_NAMES[basis][count > 1])
        return self.kind + (", with " + " and ".join(extras) if extras else "")

    @property
    def sourced(self) -> bool:
        """True for a rule a source states; False for an editorial completion."""
        return self.kind == "sourced"

    @property
    def options(self) -> tuple[str, ...]:
        """Names of the engine options that switch this rule's alternatives, forms or variants."""
        names = [a.option for a in self.alternatives + self.forms + self.variants]
        return tuple(dict.fromkeys(names))

    @property
    def implementations(self) -> tuple[Callable[..., Any], ...]:
        """The engine functions that declare (with :func:`implements`) this rule.

        Read from the registry that ``@implements`` fills as the engine is
        imported (``import mancala_spec`` imports it); the catalogue itself
        never imports the engine."""
        return tuple(_IMPLEMENTATIONS.get(self.id, ()))


@dataclass(frozen=True)
class ContextLine:
    """A source line that states no rule of the single game, and why.

    ``deferred`` would mark a line that states a rule no catalogue rule covers
    yet; every such line is now cited by a rule, and the tests hold that no entry
    is deferred.
    """

    source: str
    line: int
    reason: str
    deferred: bool = False

    @property
    def text(self) -> str:
        """The source line itself."""
        return source_lines(self.source)[self.line - 1]


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
    substring of ``source`` (checked on load): the entry says no more than the
    source does. A name in braces is an organisation (one name, not split)."""

    key: str
    type: str
    author: str
    title: str
    source: str
    quote: str
    note: str
    year: str = ""
    url: str = ""


@dataclass(frozen=True)
class Catalogue:
    """All rules of both games, in the order a learner meets them, the context
    lines, and the provenance of each source document."""

    rules: tuple[Rule, ...]
    context: tuple[ContextLine, ...] = field(default=())
    documents: tuple[Document, ...] = field(default=())
    works: tuple[Work, ...] = field(default=())
    provenance: Provenance | None = None

    def document(self, file: str) -> Document:
        """The provenance of source document *file*."""
        for document in self.documents:
            if document.file == file:
                return document
        raise UnknownSourceError(f"no provenance recorded for source document {shown(file)}",
                                 file=file, known=[d.file for d in self.documents])

    def __iter__(self):
        return iter(self.rules)

    def __len__(self) -> int:
        return len(self.rules)

    def __getitem__(self, rule_id: str) -> Rule:
        for rule in self.rules:
            if rule.id == rule_id:
                return rule
        raise UnknownRuleError(f"no rule with ID {shown(rule_id)}", rule=rule_id)

    def __contains__(self, rule_id: object) -> bool:
        return any(rule.id == rule_id for rule in self.rules)

    def for_game(self, game: str) -> tuple[Rule, ...]:
        """The rules of one game (``"ba-awa"`` or ``"bakuk"``), in catalogue order."""
        return tuple(rule for rule in self.rules if rule.game == game)




def _citation(data: dict[str, Any], rule_id: str) -> Citation:
    citation = Citation(data["source"], data["quote"], data["translation"], data.get("sic", ""))
    if citation.source not in SOURCES:
        raise CatalogueError(f"{rule_id}: unknown source {citation.source!r}", rule=rule_id)
    if citation.quote not in source_text(citation.source):
        raise CatalogueError(f"{rule_id}: quote is not in {citation.source}: {citation.quote!r}",
                             rule=rule_id)
    if citation.sic and citation.sic not in citation.quote:
        raise CatalogueError(f"{rule_id}: [sic] word {citation.sic!r} is not in the quote",
                             rule=rule_id)
    if not any(citation.quote in line for line in source_lines(citation.source)):
        raise CatalogueError(f"{rule_id}: quote spans lines of {citation.source}: "
                             f"{citation.quote!r}", rule=rule_id)
    return citation


def read_citation(data: dict[str, Any], where: str) -> Citation:
    """A citation from its TOML table (source, quote, translation, sic), checked
    as the catalogue's are (an exact quote of one line); *where* names it in errors."""
    return _citation(data, where)


def _claim(data: dict[str, Any], rule_id: str, citations: tuple[Citation, ...]) -> Claim:
    where = f"{rule_id}: claim {data.get('text', '')[:40]!r}"
    cites = data.get("cites", [])
    if any(not 1 <= n <= len(citations) for n in cites):
        raise CatalogueError(f"{where} cites a citation the rule does not have: {cites}",
                             rule=rule_id)
    claim = Claim(text=" ".join(data["text"].split()), basis=data["basis"],
                  citations=tuple(citations[n - 1] for n in cites),
                  why=" ".join(data.get("why", "").split()),
                  other=" ".join(data.get("other", "").split()),
                  alternatives=" ".join(data.get("alternatives", "").split()),
                  option=data.get("option", ""), events=tuple(data.get("events", ())))
    if claim.basis not in BASES:
        raise CatalogueError(f"{where}: basis must be one of {BASES}, not {claim.basis!r}",
                             rule=rule_id)
    if claim.basis in ("source", "reading") and not claim.citations:
        raise CatalogueError(f"{where}: a {claim.basis} claim needs the quotes it rests on",
                             rule=rule_id)
    if claim.basis == "reading" and not (claim.why and claim.other):
        raise CatalogueError(f"{where}: a reading says why (why) and the other reading (other)",
                             rule=rule_id)
    if claim.basis == "editorial" and not (claim.option or claim.alternatives):
        raise CatalogueError(f"{where}: an editorial claim names its option or its alternatives",
                             rule=rule_id)
    return claim


def _rule(data: dict[str, Any]) -> Rule:
    rule_id = data["id"]
    citations = tuple(_citation(c, rule_id) for c in data.get("citation", ()))
    rule = Rule(
        id=rule_id,
        game=data["game"],
        title=data["title"],
        kind=data["kind"],
        claims=tuple(_claim(c, rule_id, citations) for c in data.get("claim", ())),
        note=" ".join(data.get("note", "").split()),
        citations=citations,
        gap=data.get("gap", "").strip(),
        default=data.get("default", "").strip(),
        rationale=data.get("rationale", "").strip(),
        alternatives=tuple(Alternative(a["option"], a["value"], a["description"].strip())
                           for a in data.get("alternative", ())),
        forms=tuple(Alternative(a["option"], a["value"], a["description"].strip())
                    for a in data.get("form", ())),
        variants=tuple(Alternative(a["option"], a["value"], a["description"].strip())
                       for a in data.get("variant", ())),
    )
    if rule.kind not in KINDS:
        raise CatalogueError(f"{rule_id}: kind must be one of {KINDS}, not {rule.kind!r}",
                             rule=rule_id)
    if rule.game not in GAMES or not rule_id.startswith(rule.game + "-"):
        raise CatalogueError(f"{rule_id}: game {rule.game!r} unknown or not the ID's prefix",
                             rule=rule_id)
    if rule.sourced and not rule.citations:
        raise CatalogueError(f"{rule_id}: a sourced rule needs at least one citation", rule=rule_id)
    if not rule.claims:
        raise CatalogueError(f"{rule_id}: a rule states at least one claim", rule=rule_id)
    head = "source" if rule.sourced else "editorial"
    if head not in rule.bases:
        raise CatalogueError(f"{rule_id}: a {rule.kind} rule has at least one {head} claim",
                             rule=rule_id)
    used = {id(c) for claim in rule.claims for c in claim.citations}
    for citation in rule.citations:
        if id(citation) not in used:
            raise CatalogueError(f"{rule_id}: no claim rests on the quote {citation.quote!r}",
                                 rule=rule_id)
    offered = {a.option for a in rule.alternatives + rule.forms + rule.variants}
    for claim in rule.claims:
        if claim.option and claim.option not in offered:
            raise CatalogueError(f"{rule_id}: claim names option {claim.option!r}, "
                                 "which the rule offers no value of", rule=rule_id)
    if not rule.sourced and (rule.forms or rule.variants):
        raise CatalogueError(f"{rule_id}: forms and variants belong to sourced rules", rule=rule_id)
    read = {claim.option for claim in rule.claims if claim.basis == "reading"}
    if rule.sourced and any(a.option not in read for a in rule.alternatives):
        raise CatalogueError(f"{rule_id}: a sourced rule's alternatives play the other reading "
                             "of a reading claim that names their option", rule=rule_id)
    if not rule.sourced and not (rule.gap and rule.default and rule.rationale):
        raise CatalogueError(f"{rule_id}: an editorial rule needs gap, default and rationale",
                             rule=rule_id)
    return rule


@cache
def load_catalogue() -> Catalogue:
    """Read and check ``catalogue.toml``; the result is cached."""
    raw = tomllib.loads(resources.files(__package__).joinpath("catalogue.toml")
                        .read_text(encoding="utf-8"))
    rules = tuple(_rule(r) for r in raw.get("rule", ()))
    ids = [r.id for r in rules]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise CatalogueError(f"duplicate rule IDs: {', '.join(duplicates)}")
    context = tuple(ContextLine(c["source"], c["line"], c["reason"].strip(),
                                c.get("deferred", False))
                    for c in raw.get("context", ()))
    for entry in context:
        if entry.source not in SOURCES or not 1 <= entry.line <= len(source_lines(entry.source)):
            raise CatalogueError(f"context entry points nowhere: {entry.source} line {entry.line}")
    documents = tuple(_document(d) for d in raw.get("document", ()))
    if sorted(d.file for d in documents) != sorted(SOURCES):
        raise CatalogueError("every source document needs exactly one [[document]] entry")
    works = tuple(_work(w) for w in raw.get("work", ()))
    provenance = _provenance(raw["provenance"], documents)
    for work in works:
        if work.url and (work.url not in dict(provenance.addresses).values()
                         or "assumption" not in work.note):
            raise CatalogueError(f"work {work.key}: an address is our assumption: give one "
                                 "of [provenance]'s addresses and say so in the note")
    return Catalogue(rules, context, documents, works, provenance)


def _provenance(data: dict[str, Any], documents: tuple[Document, ...]) -> Provenance:
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


def _work(data: dict[str, Any]) -> Work:
    work = Work(data["key"], data["type"], data["author"], data["title"], data["source"],
                data["quote"], " ".join(data["note"].split()), data.get("year", ""),
                data.get("url", ""))
    if work.source not in SOURCES or work.quote not in source_text(work.source):
        raise CatalogueError(f"work {work.key}: quote is not in {work.source}: {work.quote!r}")
    if work.author.startswith("{"):      # an organisation: a wiki's contributors are named
        parts = ["Mancala World"] if "Mancala World" in work.author else [work.author.strip("{}")]
    else:
        parts = [part for name in work.author.split(",") for part in name.split()]
    title = "" if work.title.startswith("[") else work.title
    for part in [*parts, title, work.year]:
        if part not in work.quote:
            raise CatalogueError(f"work {work.key}: {part!r} is not in its quote")
    return work


def _document(data: dict[str, Any]) -> Document:
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


def get_rule(rule_id: str) -> Rule:
    """The catalogue rule with this ID
    (:class:`~mancala_spec.errors.UnknownRuleError`, a :class:`KeyError`, if
    there is none)."""
    catalogue = load_catalogue()
    if not isinstance(rule_id, str) or rule_id not in catalogue:
        raise UnknownRuleError(f"no rule with ID {shown(rule_id)}", rule=rule_id)
    return catalogue[rule_id]


def checked_rule(rule: Any) -> Rule:
    """*rule*, if it is a rule (:func:`get_rule` gives one); else
    :class:`~mancala_spec.errors.UnknownRuleError`."""
    if not isinstance(rule, Rule):
        raise UnknownRuleError(f"a rule is needed (get_rule gives one), not {shown(rule)}",
                               rule=rule)
    return rule


_IMPLEMENTATIONS: dict[str, list[Callable[..., Any]]] = {}


def implements(*rule_ids: str) -> Callable[[F], F]:
    """Declare that the decorated function implements the given catalogue rules.

    The function is returned unchanged, with its rule IDs in ``__rules__``.
    :func:`unknown_rule_claims` lists any ID that is not in the catalogue; the
    tests and the docs build fail on it, so code cannot claim a rule that does
    not exist.
    """

    def register(func: F) -> F:
        for rule_id in rule_ids:
            _IMPLEMENTATIONS.setdefault(rule_id, []).append(func)
        func.__rules__ = tuple(getattr(func, "__rules__", ())) + rule_ids  # type: ignore[attr-defined]
        return func

    return register


def unknown_rule_claims() -> dict[str, list[str]]:
    """Rule IDs that engine code claims with :func:`implements` but the
    catalogue does not have, each with the claiming functions' names."""
    catalogue = load_catalogue()
    return {rule_id: [f.__qualname__ for f in funcs]
            for rule_id, funcs in _IMPLEMENTATIONS.items() if rule_id not in catalogue}
