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
from .records import (
    Document,
    Provenance,
    Work,
    attribution_reason,
    read_document,
    read_provenance,
    read_work,
)

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


def _context(data: dict[str, Any], documents: tuple[Document, ...],
             provenance: Provenance) -> ContextLine:
    """One ``[[context]]`` entry. A document's attribution line (its last) gets no
    reason in the file: what is said of it is made from the document and provenance
    records (:func:`~.records.attribution_reason`), so that no typed reason can state a
    licence or an address that the record calls our assumption."""
    source, line = data["source"], data["line"]
    if source not in SOURCES or not 1 <= line <= len(source_lines(source)):
        raise CatalogueError(f"context entry points nowhere: {source} line {line}")
    document = next(d for d in documents if d.file == source)
    if source_lines(source)[line - 1] == document.attribution:
        if "reason" in data:
            raise CatalogueError(f"context {source} line {line}: the attribution line's "
                                 "reason is made from the records; give none")
        reason = attribution_reason(document, provenance)
    elif "reason" not in data:
        raise CatalogueError(f"context {source} line {line}: give a reason")
    else:
        reason = data["reason"].strip()
    return ContextLine(source, line, reason, data.get("deferred", False))


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
    documents = tuple(read_document(d) for d in raw.get("document", ()))
    if sorted(d.file for d in documents) != sorted(SOURCES):
        raise CatalogueError("every source document needs exactly one [[document]] entry")
    works = tuple(read_work(w) for w in raw.get("work", ()))
    provenance = read_provenance(raw["provenance"], documents)
    context = tuple(_context(c, documents, provenance) for c in raw.get("context", ()))
    for work in works:
        if work.url and (work.url not in dict(provenance.addresses).values()
                         or "assumption" not in work.note):
            raise CatalogueError(f"work {work.key}: an address is our assumption: give one "
                                 "of [provenance]'s addresses and say so in the note")
    return Catalogue(rules, context, documents, works, provenance)


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
