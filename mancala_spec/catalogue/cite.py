"""How to cite a rule: its versioned permalink, and a citation as plain text,
BibTeX and CSL-JSON; and the rule as data (``mancala-spec rules ID --format json``).

The site's published address is set in one place, :data:`BASE_URL` (the
environment variable ``MANCALA_SPEC_BASE_URL`` overrides it; the Sphinx
configuration reads it from here). A permalink carries the release version in
its path, so a citation keeps pointing at the text it cited::

    <BASE_URL>/<version>/<page>.html#rule-<rule ID>

>>> from mancala_spec.catalogue import get_rule
>>> permalink(get_rule("ba-awa-relay"), version="0.1.0", base="https://example.org/ms")
'https://example.org/ms/0.1.0/ba-awa.html#rule-ba-awa-relay'
>>> rule_page(get_rule("bakuk-draw")), rule_page(get_rule("ba-awa-match-aim"))
('editorial', 'match-and-three-players')
"""
from __future__ import annotations

import hashlib
import json
import os
from importlib import resources
from typing import Any

from . import Rule

#: The address the rules site is published at; versions are folders below it.
BASE_URL = "https://mancala-spec.readthedocs.io/en"
TITLE = "mancala_spec: a citable, executable rules reference for Ba-awa and Bakuk"
AUTHOR = "The mancala_spec authors"
YEAR = 2026


#: The Mancala World article each game's source documents derive from. The
#: files name the article ("Source: Mancala World – <title>") but give no URL.
ARTICLES = {"ba-awa": ("Ba-awa", "https://mancala.fandom.com/wiki/Ba-awa"),
            "bakuk": ("Bakuk", "https://mancala.fandom.com/wiki/Bakuk")}
#: The licence of the source documents and of everything adapted from them.
SOURCE_LICENCE = "CC-BY-SA-4.0"


def source_metadata(file: str) -> dict[str, Any]:
    """What is known of source document *file*: its attribution line, the URL of
    the article it names, revision date and licence as far as the file tells, and
    the SHA-256 and size of our byte copy (computed from the file now).

    >>> facts = source_metadata("001_1132cff477fa5791.txt")
    >>> facts["attribution"], len(facts["sha256"])
    ('Source: Mancala World – Bakuk', 64)
    """
    from ..sources import SOURCES, source_lines

    data = resources.files("mancala_spec.sources").joinpath(file).read_bytes()
    document = SOURCES[file]
    title, url = ARTICLES[document.game]
    attribution = next((line for line in reversed(source_lines(file))
                        if line.startswith("Source:")), "")
    return {
        "file": file,
        "attribution": attribution or "none",
        "url": (f"not given in the file; the article it names, Mancala World's "
                f"'{title}', is at {url}"),
        "article_url": url,
        "revision": "not given in the file (no page revision, date or retrieval date)",
        "licence": ("not stated in the file itself; Mancala World publishes its articles "
                    "under CC BY-SA, with no version named in these documents"),
        "sha256": hashlib.sha256(data).hexdigest(),
        "bytes": len(data),
    }


def base_url() -> str:
    """:data:`BASE_URL`, or ``$MANCALA_SPEC_BASE_URL`` when set (without a trailing slash)."""
    return (os.environ.get("MANCALA_SPEC_BASE_URL") or BASE_URL).rstrip("/")


def _version() -> str:
    from .. import __version__
    return __version__


def rule_page(rule: Rule) -> str:
    """The docname of the page that renders *rule* in full (checked against the
    built site by the tests): match and three-player rules on their own page,
    other editorial completions on the editorial page, the rest on the game's page."""
    if rule.id.startswith(("ba-awa-three", "bakuk-three", "ba-awa-match")):
        return "match-and-three-players"
    return rule.game if rule.sourced else "editorial"


def anchor(rule_id: str) -> str:
    """The HTML anchor of a rule: ``rule-<id>``."""
    return f"rule-{rule_id}"


def permalink(rule: Rule, version: str | None = None, base: str | None = None) -> str:
    """The absolute, versioned URL of *rule* on the rules site."""
    return (f"{(base or base_url()).rstrip('/')}/{version or _version()}/"
            f"{rule_page(rule)}.html#{anchor(rule.id)}")


def citation_text(rule: Rule, version: str | None = None, base: str | None = None) -> str:
    """A plain-text citation of *rule*."""
    version = version or _version()
    return (f"{AUTHOR} ({YEAR}). Rule {rule.id}: {rule.title} [{rule.badge}]. In {TITLE}, "
            f"version {version}. {permalink(rule, version, base)}")


def _bibtex_escape(text: str) -> str:
    return text.replace("\\", "\\textbackslash{}").replace("_", "\\_").replace("&", "\\&") \
        .replace("%", "\\%").replace("#", "\\#").replace("{", "\\{").replace("}", "\\}")


def citation_bibtex(rule: Rule, version: str | None = None, base: str | None = None) -> str:
    """A BibTeX ``@misc`` entry for *rule*."""
    version = version or _version()
    url = permalink(rule, version, base)
    return "\n".join([
        f"@misc{{mancala_spec:{rule.id},",
        f"  author       = {{{{{_bibtex_escape(AUTHOR)}}}}},",
        f"  title        = {{Rule {rule.id}: {_bibtex_escape(rule.title)}}},",
        f"  howpublished = {{{_bibtex_escape(TITLE)}, version {version}}},",
        f"  year         = {{{YEAR}}},",
        f"  version      = {{{version}}},",
        f"  url          = {{{url}}},",
        f"  note         = {{Basis: {rule.badge}}},",
        "}",
    ])


def citation_csl(rule: Rule, version: str | None = None, base: str | None = None) -> dict[str, Any]:
    """A CSL-JSON item for *rule* (what Zotero and pandoc read)."""
    version = version or _version()
    return {
        "id": f"mancala_spec:{rule.id}",
        "type": "entry",
        "title": f"Rule {rule.id}: {rule.title}",
        "container-title": TITLE,
        "author": [{"literal": AUTHOR}],
        "issued": {"date-parts": [[YEAR]]},
        "version": version,
        "URL": permalink(rule, version, base),
        "note": f"Basis: {rule.badge}",
    }


def citation(rule: Rule, version: str | None = None, base: str | None = None) -> dict[str, Any]:
    """The three forms of citation of *rule*: ``text``, ``bibtex`` and ``csl``."""
    return {"text": citation_text(rule, version, base),
            "bibtex": citation_bibtex(rule, version, base),
            "csl": citation_csl(rule, version, base)}


def rule_data(rule: Rule, version: str | None = None, base: str | None = None) -> dict[str, Any]:
    """*rule* as plain data (JSON-ready): its claims with their bases and citations,
    its permalink and its citation.

    >>> from mancala_spec.catalogue import get_rule
    >>> data = rule_data(get_rule("bakuk-chain"), version="0.1.0", base="https://x.org")
    >>> data["badge"], [c["basis"] for c in data["claims"]]
    ('sourced, with readings', ['source', 'reading', 'reading'])
    >>> data["permalink"]
    'https://x.org/0.1.0/bakuk.html#rule-bakuk-chain'
    """
    def quotes(citations):
        return [{"source": c.source, "line": c.line, "quote": c.quote,
                 "translation": c.translation, **({"sic": c.sic} if c.sic else {})}
                for c in citations]

    claims = []
    for claim in rule.claims:
        entry: dict[str, Any] = {"text": claim.text, "basis": claim.basis,
                                 "citations": quotes(claim.citations)}
        if claim.basis == "reading":
            entry.update(why=claim.why, other_reading=claim.other)
        if claim.basis == "editorial":
            entry.update(alternatives=claim.alternatives, option=claim.option or None)
        claims.append(entry)
    offers = [{"kind": kind, "option": a.option, "value": a.value, "description": a.description}
              for kind, group in (("alternative", rule.alternatives), ("form", rule.forms),
                                  ("variant", rule.variants)) for a in group]
    data: dict[str, Any] = {
        "id": rule.id, "game": rule.game, "title": rule.title, "kind": rule.kind,
        "badge": rule.badge, "statement": rule.statement, "claims": claims,
        "note": rule.note or None, "options": offers,
        "permalink": permalink(rule, version, base),
        "citation": citation(rule, version, base),
    }
    if not rule.sourced:
        data.update(gap=rule.gap, default=rule.default, rationale=rule.rationale)
    return data


def rule_json(rule: Rule, version: str | None = None, base: str | None = None) -> str:
    """:func:`rule_data` as indented JSON text."""
    return json.dumps(rule_data(rule, version, base), indent=2, ensure_ascii=False)


__all__ = ["BASE_URL", "anchor", "base_url", "citation", "citation_bibtex", "citation_csl",
           "citation_text", "permalink", "rule_data", "rule_json", "rule_page"]
