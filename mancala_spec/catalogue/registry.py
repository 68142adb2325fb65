"""The registry of rule IDs: every ID ever published, and what became of it.

``registry.toml`` (beside this module) records, for each release, every rule
ID it published with a short hash of the rule's text (:func:`text_hash`), and
every ID that was renamed or withdrawn, with its successor. An ID once
published never disappears: :func:`resolve` turns an old ID into the rule that
replaces it (``mancala-spec rules OLD-ID`` uses it), and the site puts the old
anchor on the successor's rule block, so old links still land.

The tests hold the catalogue to it (:func:`problems`): an ID that vanishes
without a registry entry fails, and so does a rule whose text changed since the
last recorded release without a line naming it in ``docs/changelog.md``.

>>> resolve("ba-awa-relay")
('ba-awa-relay', [])
"""
from __future__ import annotations

import hashlib
import json
import re
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

from ..errors import CatalogueError, UnknownRuleError, shown
from . import Catalogue, Rule, checked_rule, load_catalogue

STATUSES = ("renamed", "withdrawn")


@dataclass(frozen=True)
class Moved:
    """A published rule ID that is no longer a rule of its own."""

    id: str
    status: str          # "renamed" or "withdrawn"
    successor: str       # the rule that now says what it said (or takes its place)
    release: str         # the release in which it moved
    reason: str = ""


@dataclass(frozen=True)
class Registry:
    """Every release's published IDs with their text hashes, and the moved IDs."""

    releases: dict[str, dict[str, str]]     # version -> {rule ID: text hash}
    moved: tuple[Moved, ...] = ()

    @property
    def latest(self) -> str:
        """The last release recorded."""
        return list(self.releases)[-1]

    @property
    def published(self) -> set[str]:
        """Every rule ID any release published."""
        return {rule_id for ids in self.releases.values() for rule_id in ids}


def text_hash(rule: Rule) -> str:
    """A short hash of what a rule says: title, claims with their bases, quotes,
    translations and options. Any change to them changes the hash."""
    rule = checked_rule(rule)
    data = {"title": rule.title, "kind": rule.kind,
            "claims": [[c.basis, c.text, c.why, c.other, c.alternatives, c.option]
                       for c in rule.claims],
            "citations": [[c.source, c.quote, c.translation] for c in rule.citations],
            "offers": [[a.option, repr(a.value), a.description]
                       for a in rule.alternatives + rule.forms + rule.variants],
            "editorial": [rule.gap, rule.default, rule.rationale]}
    text = json.dumps(data, ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def parse_registry(text: str) -> Registry:
    """Read registry TOML text (:class:`~mancala_spec.errors.CatalogueError` if
    it is not a registry)."""
    if not isinstance(text, str):
        raise CatalogueError(f"registry: the registry is TOML text, not {shown(text)}")
    try:
        raw = tomllib.loads(text)
        releases = {entry["version"]: dict(entry.get("rules", {}))
                    for entry in raw.get("release", ())}
        moved = tuple(Moved(m["id"], m["status"], m["successor"], m["release"],
                            m.get("reason", "")) for m in raw.get("moved", ()))
    except tomllib.TOMLDecodeError as error:
        raise CatalogueError(f"registry: not TOML: {error}") from None
    except (KeyError, TypeError, AttributeError, ValueError) as error:
        raise CatalogueError(f"registry: an entry lacks a field or has the wrong type "
                             f"({type(error).__name__}: {error})") from None
    for entry in moved:
        if entry.status not in STATUSES:
            raise CatalogueError(f"registry: {entry.id}: status must be one of {STATUSES}",
                                 rule=entry.id)
    return Registry(releases, moved)


@cache
def load_registry() -> Registry:
    """The package's ``registry.toml``."""
    return parse_registry(resources.files(__package__).joinpath("registry.toml")
                          .read_text(encoding="utf-8"))


def resolve(rule_id: str, registry: Registry | None = None,
            catalogue: Catalogue | None = None) -> tuple[str, list[Moved]]:
    """The current rule ID for *rule_id*, following renames and withdrawals,
    and the registry entries followed (empty for a current ID).
    :class:`~mancala_spec.errors.UnknownRuleError` (a :class:`KeyError`) if
    the ID was never published and is not in the catalogue."""
    if not isinstance(rule_id, str):
        raise UnknownRuleError(f"a rule ID is text, not {shown(rule_id)}", rule=rule_id)
    registry = registry or load_registry()
    catalogue = catalogue or load_catalogue()
    moved = {m.id: m for m in registry.moved}
    path: list[Moved] = []
    current = rule_id
    while current not in catalogue:
        if current not in moved or len(path) > len(moved):
            raise UnknownRuleError(f"no rule with ID {shown(rule_id)}", rule=rule_id)
        path.append(moved[current])
        current = moved[current].successor
    return current, path


def old_ids(rule_id: str, registry: Registry | None = None) -> list[str]:
    """Published IDs that now resolve to *rule_id* (their anchors land on it)."""
    registry = registry or load_registry()
    out = []
    for entry in registry.moved:
        try:
            if resolve(entry.id, registry)[0] == rule_id:
                out.append(entry.id)
        except KeyError:
            pass
    return out


def changelog_sections(text: str) -> dict[str, str]:
    """The sections of the changelog page, by release heading (``## 0.2.0 …``)."""
    if not isinstance(text, str):
        raise CatalogueError(f"the changelog is text, not {shown(text)}")
    sections: dict[str, str] = {}
    current = None
    for line in text.splitlines():
        match = re.match(r"^## +(\S+)", line)
        if match:
            current = match.group(1)
            sections[current] = ""
        elif current:
            sections[current] += line + "\n"
    return sections


def problems(catalogue: Catalogue | None = None, registry: Registry | None = None,
             changelog: str | None = None) -> list[str]:
    """What breaks the promise of stable IDs: a published ID that is neither a
    rule nor a moved entry; a moved entry whose successor does not resolve; a rule
    whose text changed since the last release, or a new rule, with no line naming
    it in the changelog's first (upcoming) section."""
    catalogue = catalogue or load_catalogue()
    registry = registry or load_registry()
    out: list[str] = []
    moved = {m.id for m in registry.moved}
    for rule_id in sorted(registry.published):
        if rule_id not in catalogue and rule_id not in moved:
            out.append(f"published rule ID {rule_id} vanished: keep the rule, or record it as "
                       "renamed or withdrawn in registry.toml with its successor")
    for entry in registry.moved:
        if entry.id in catalogue:
            out.append(f"{entry.id} is both a rule and a moved ID")
        try:
            resolve(entry.id, registry, catalogue)
        except KeyError:
            out.append(f"moved ID {entry.id}: successor {entry.successor} does not resolve")
    if changelog is None:
        path = Path(__file__).resolve().parents[2] / "docs" / "changelog.md"
        changelog = path.read_text(encoding="utf-8") if path.exists() else ""
    sections = changelog_sections(changelog)
    upcoming = next(iter(sections.values()), "")
    latest = registry.releases[registry.latest] if registry.releases else {}
    for rule in catalogue:
        changed = rule.id not in latest or latest[rule.id] != text_hash(rule)
        if changed and not re.search(r"(?<![\w-])" + re.escape(rule.id) + r"(?![\w-])", upcoming):
            what = "is new" if rule.id not in latest else "changed its text"
            out.append(f"rule {rule.id} {what} since {registry.latest or 'the first release'} "
                       "but the changelog's upcoming section does not name it")
    for entry in registry.moved:
        if entry.release not in registry.releases and entry.id not in upcoming:
            out.append(f"moved ID {entry.id} is not named in the changelog's upcoming section")
    return out


def record_release(version: str, catalogue: Catalogue | None = None) -> str:
    """The TOML block that records *version* in ``registry.toml`` (append it when
    releasing)."""
    catalogue = catalogue or load_catalogue()
    lines = ["", "[[release]]", f'version = "{version}"', "[release.rules]"]
    lines += [f'"{rule.id}" = "{text_hash(rule)}"' for rule in catalogue]
    return "\n".join(lines) + "\n"


__all__ = ["Moved", "Registry", "changelog_sections", "load_registry", "old_ids",
           "parse_registry", "problems", "record_release", "resolve", "text_hash"]
