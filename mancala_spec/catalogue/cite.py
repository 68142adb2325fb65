"""How to cite a rule: its versioned permalink, and a citation as plain text,
BibTeX and CSL-JSON; and the rule as data (``mancala-spec rules ID --format json``).

The address releases are published under comes from one setting, read by
:func:`base_url`: Read the Docs' canonical URL of the version being built
(``READTHEDOCS_CANONICAL_URL``, set by Read the Docs) when the site is built
there, else ``MANCALA_SPEC_BASE_URL``. A permalink carries the release version in
its path, so a citation keeps pointing at the text it cited::

    <base>/<version>/<page>.html#rule-<rule ID>

A build that knows no published address invents none: its citations give the
rule ID, the version and the page, and say that this build is not published.

>>> from mancala_spec.catalogue import get_rule
>>> permalink(get_rule("ba-awa-relay"), version="0.1.0", base="https://example.org/ms")
'https://example.org/ms/0.1.0/ba-awa.html#rule-ba-awa-relay'
>>> permalink(get_rule("ba-awa-relay"), version="0.1.0", base="") is None
True
>>> rule_page(get_rule("bakuk-draw")), rule_page(get_rule("ba-awa-match-aim"))
('editorial', 'match-and-three-players')
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import time
from collections.abc import Mapping
from importlib import resources
from typing import Any

from ..errors import OptionError, UnknownRuleError, shown
from ..sources import source_document
from ..version import LAST_RELEASE, RELEASED, __version__
from . import Rule, checked_rule

#: Set by Read the Docs to the canonical URL of the version it builds
#: (``https://<project>.readthedocs.io/en/<version>/``).
RTD_CANONICAL = "READTHEDOCS_CANONICAL_URL"
#: Set by whoever publishes the site elsewhere: the address the release folders are under.
BASE_URL_VARIABLE = "MANCALA_SPEC_BASE_URL"
#: Set by Read the Docs to the address of the repository it builds from.
RTD_CLONE = "READTHEDOCS_GIT_CLONE_URL"
#: Set by whoever publishes the project's source: its address.
SOURCE_URL_VARIABLE = "MANCALA_SPEC_SOURCE_URL"
TITLE = "mancala_spec: a citable, executable rules reference for Ba-awa and Bakuk"
#: Written in full, and given to every citation format as one name (an organisation),
#: never as a person's first and last names.
AUTHOR = "The mancala_spec authors"
#: The date of the last release (:data:`mancala_spec.version.LAST_RELEASE`, or this
#: version's when it is a release): CITATION.cff's ``date-released`` and the
#: changelog's newest dated heading are checked against it. A development build's
#: citations are dated by :func:`cited_date`, not by it.
RELEASE_DATE = RELEASED or LAST_RELEASE[1]
#: What a citation says in place of an address when the build knows none.
UNPUBLISHED = "this build is not published: no address is known for it"
#: The form of a version a citation names: a release ("0.2.0", "1.0rc1") or a
#: folder of the published site ("latest"), one path segment of an address.
VERSION = re.compile(r"[0-9A-Za-z][0-9A-Za-z.+_-]{0,39}")


#: The licence of the source documents and of everything adapted from them.
SOURCE_LICENCE = "CC-BY-SA-4.0"


def source_metadata(file: str) -> dict[str, Any]:
    """What is known of source document *file*, and what is not, from the
    catalogue's ``[[document]]`` entry and the file itself: the article it is a
    version of, its language, the English left inside it, who made it (unknown),
    the attribution line, the article's address (which the file does not give),
    the licence, and the SHA-256 and size of our byte copy (computed now).

    >>> facts = source_metadata("001_1132cff477fa5791.txt")
    >>> facts["attribution"], facts["language"], facts["made_by"], len(facts["sha256"])
    ('Source: Mancala World – Bakuk', 'Greek', 'unknown', 64)
    """
    from . import load_catalogue

    file = source_document(file).file               # a source document's name, or raise
    data = resources.files("mancala_spec.sources").joinpath(file).read_bytes()
    document = load_catalogue().document(file)
    from .provenance import address_sentence, credit, licence_sentence, record

    return {
        "file": file,
        "label": document.label,
        "version_of": (f"the Mancala World article '{document.version_of}', which the "
                       f"file's last line names"),
        "article": document.version_of,
        "language": document.language,
        "english": list(document.english),
        "made_by": document.made_by or "unknown",
        "unknown": list(document.unknown),
        "attribution": document.attribution,
        "url": address_sentence(document.version_of),
        "article_url": record().address(document.version_of),
        "revision": "not given in the file (no page revision, date or retrieval date)",
        "licence": licence_sentence(),
        "credit": credit(file),
        "sha256": hashlib.sha256(data).hexdigest(),
        "bytes": len(data),
    }


def base_url(environ: Mapping[str, str] | None = None) -> str:
    """The address the release folders are published under, without a trailing
    slash; ``""`` when nothing says where this build is published.

    On Read the Docs, the canonical URL of the version being built without its
    last folder (the version's slug): releases are the folders below it. Else
    ``$MANCALA_SPEC_BASE_URL``.

    >>> base_url({"READTHEDOCS_CANONICAL_URL": "https://ms.readthedocs.io/en/0.2.0/"})
    'https://ms.readthedocs.io/en'
    >>> base_url({"MANCALA_SPEC_BASE_URL": "https://mirror.example/rules/"})
    'https://mirror.example/rules'
    >>> base_url({})
    ''
    """
    canonical, base = addresses(environ, RTD_CANONICAL, BASE_URL_VARIABLE)
    return canonical.rsplit("/", 1)[0] if canonical else base


def addresses(environ: Mapping[str, str] | None, *names: str) -> list[str]:
    """The addresses the environment variables *names* hold in *environ* (by
    default the process's environment), without spaces around or a trailing
    slash; ``""`` for one that is not set. The one reader of the addresses a build
    is told: where the site is published (:func:`base_url`) and where the source
    is (:func:`mancala_spec.sphinx.downloads.source_url`).

    >>> addresses({"A": " https://a.example/x/ "}, "A", "B")
    ['https://a.example/x', '']
    """
    env = os.environ if environ is None else environ
    if not isinstance(env, Mapping):
        raise OptionError(f"environ must map names to values, not {shown(env)}",
                          option="environ", value=environ)
    values = []
    for name in names:
        value = env.get(name, "")
        if not isinstance(value, str):
            raise OptionError(f"{name} must be an address (text), not {shown(value)}",
                              option=name, value=value)
        values.append(value.strip().rstrip("/"))
    return values


def _version() -> str:
    return __version__


def cited_date() -> str:
    """The date a citation of this build names (YYYY-MM-DD): the release's, or, for a
    development build (whose version names its commit), the day the citation is made
    (``SOURCE_DATE_EPOCH``'s day when that is set, for a reproducible build)."""
    if RELEASED is not None:
        return RELEASED
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "")
    seconds = int(epoch) if epoch.isdigit() else None
    return time.strftime("%Y-%m-%d", time.gmtime(seconds))


def release_year() -> int:
    """The year of :func:`cited_date`."""
    return int(cited_date()[:4])


def _checked(rule: Any, version: Any, base: Any) -> tuple[Rule, str]:
    """*rule* checked, and the version cited (*version*, else this package's);
    :class:`~mancala_spec.errors.OptionError` for a version or base that is
    not text of its form."""
    rule = checked_rule(rule)
    if version not in (None, "") and not (isinstance(version, str)
                                          and VERSION.fullmatch(version)):
        raise OptionError(f"version must be a release's name such as '0.2.0', not "
                          f"{shown(version)}", option="version", value=version)
    if base is not None and not isinstance(base, str):
        raise OptionError(f"base must be an address (text), not {shown(base)}",
                          option="base", value=base)
    return rule, version or _version()


def rule_page(rule: Rule) -> str:
    """The docname of the page that renders *rule* in full (checked against the
    built site by the tests): match and three-player rules on their own page,
    other editorial completions on the editorial page, the rest on the game's page."""
    rule = checked_rule(rule)
    if rule.id.startswith(("ba-awa-three", "bakuk-three", "ba-awa-match")):
        return "match-and-three-players"
    return rule.game if rule.sourced else "editorial"


def anchor(rule_id: str) -> str:
    """The HTML anchor of a rule: ``rule-<id>``."""
    if not isinstance(rule_id, str):
        raise UnknownRuleError(f"a rule ID is text, not {shown(rule_id)}", rule=rule_id)
    return f"rule-{rule_id}"


def page_address(rule: Rule) -> str:
    """Where *rule* is on the site, relative to a release's folder:
    ``<page>.html#rule-<id>``."""
    rule = checked_rule(rule)
    return f"{rule_page(rule)}.html#{anchor(rule.id)}"


def permalink(rule: Rule, version: str | None = None, base: str | None = None) -> str | None:
    """The absolute, versioned URL of *rule* on the published site; ``None`` when
    no address is known (*base* ``""``, or unset with no address configured)."""
    rule, version = _checked(rule, version, base)
    root = (base_url() if base is None else base).rstrip("/")
    if not root:
        return None
    return f"{root}/{version or _version()}/{page_address(rule)}"


def _where(rule: Rule, version: str, base: str | None) -> str:
    """The permalink, or, unpublished, the page with a statement that it is."""
    url = permalink(rule, version, base)
    return url or f"Page {page_address(rule)} ({UNPUBLISHED})"


def citation_text(rule: Rule, version: str | None = None, base: str | None = None) -> str:
    """A plain-text citation of *rule* (in the manner of APA)."""
    rule, version = _checked(rule, version, base)
    return (f"{AUTHOR} ({release_year()}). Rule {rule.id}: {rule.title} [{rule.badge}]. "
            f"In {TITLE} (version {version}). {_where(rule, version, base)}")


def _bibtex_escape(text: str) -> str:
    return text.replace("\\", "\\textbackslash{}").replace("_", "\\_").replace("&", "\\&") \
        .replace("%", "\\%").replace("#", "\\#").replace("{", "\\{").replace("}", "\\}")


#: Proper names that may appear in a rule's title or the package's title.
PROPER_NAMES = frozenset({"Ba-awa", "Bakuk", "Oware", "Koumma", "Mancala", "World"})


def _protected(word: str) -> bool:
    """Whether a style must leave *word*'s case alone: a rule ID or the package
    name (a hyphen, an underscore or a digit in it), or a proper name."""
    return any(ch.isdigit() or ch in "-_" for ch in word) or word.strip(":,.") in PROPER_NAMES


def _bibtex_protect(text: str) -> str:
    """*text* escaped, with the rule ID, the package name and proper names in
    braces, so that no BibTeX style changes their case."""
    return " ".join("{" + _bibtex_escape(word) + "}" if _protected(word) else _bibtex_escape(word)
                    for word in text.split(" "))


def citation_bibtex(rule: Rule, version: str | None = None, base: str | None = None) -> str:
    """A BibTeX ``@misc`` entry for *rule*: the authors as one corporate name
    (in double braces), and the rule ID, the package name and the proper names
    braced so that no style changes their case."""
    rule, version = _checked(rule, version, base)
    url = permalink(rule, version, base)
    where = [f"  url          = {{{url}}},"] if url else []
    note = f"Basis: {rule.badge}" + ("" if url else
                                     f". Page {page_address(rule)}; {UNPUBLISHED}")
    return "\n".join([
        f"@misc{{mancala_spec:{rule.id},",
        f"  author       = {{{{{_bibtex_escape(AUTHOR)}}}}},",
        f"  title        = {{{_bibtex_protect(f'Rule {rule.id}: {rule.title}')}}},",
        f"  howpublished = {{{_bibtex_protect(TITLE)}, version {version}}},",
        f"  year         = {{{release_year()}}},",
        f"  date         = {{{cited_date()}}},",
        f"  version      = {{{version}}},",
        *where,
        f"  note         = {{{_bibtex_escape(note)}}},",
        "}",
    ])


def _csl_protect(text: str) -> str:
    """*text* with the rule ID, the package name and proper names wrapped in
    ``<span class="nocase">`` (CSL's case protection)."""
    return " ".join(f'<span class="nocase">{word}</span>' if _protected(word) else word
                    for word in text.split(" "))


def citation_csl(rule: Rule, version: str | None = None, base: str | None = None) -> dict[str, Any]:
    """A CSL-JSON item for *rule* (what Zotero, pandoc and citeproc-py read); the
    rule ID, the package name and proper names are protected from case changes."""
    rule, version = _checked(rule, version, base)
    url = permalink(rule, version, base)
    year, month, day = (int(part) for part in cited_date().split("-"))
    item: dict[str, Any] = {
        "id": f"mancala_spec:{rule.id}",
        "type": "entry",
        "title": _csl_protect(f"Rule {rule.id}: {rule.title}"),
        "container-title": _csl_protect(TITLE),
        "author": [{"literal": AUTHOR}],
        "issued": {"date-parts": [[year, month, day]]},
        "version": version,
        "note": f"Basis: {rule.badge}",
    }
    if url:
        item["URL"] = url
    else:
        item["note"] += f". Page {page_address(rule)}; {UNPUBLISHED}"
    return item


def citation(rule: Rule, version: str | None = None, base: str | None = None) -> dict[str, Any]:
    """The three forms of citation of *rule*: ``text``, ``bibtex`` and ``csl``."""
    _checked(rule, version, base)
    return {"text": citation_text(rule, version, base),
            "bibtex": citation_bibtex(rule, version, base),
            "csl": citation_csl(rule, version, base)}


def bibliography_bibtex() -> str:
    """The site's bibliography (``docs/refs.bib``), generated from the catalogue's
    ``[[work]]`` entries; a test holds the file to it. Regenerate with
    ``python -m mancala_spec.catalogue.cite > docs/refs.bib``."""
    from . import load_catalogue

    entries = []
    for work in load_catalogue().works:
        # the title braced: a title as the source writes it, which no style recases
        # an address is our assumption (the documents give none): the note says so with
        # it, where a url field would state it as fact
        note = f"{work.note}. Assumed address: {work.url}" if work.url else work.note
        fields = [("author", work.author), ("title", "{" + work.title + "}"), ("year", work.year),
                  ("note", note)]
        width = max(len(name) for name, value in fields if value)
        body = ",\n".join(f"  {name.ljust(width)} = {{{value}}}" for name, value in fields
                          if value)
        entries.append(f"@{work.type}{{{work.key},\n{body},\n}}\n")
    head = ("% Generated from the [[work]] entries of mancala_spec/catalogue/catalogue.toml:\n"
            "% python -m mancala_spec.catalogue.cite > docs/refs.bib (never edit by hand)\n\n")
    return head + "\n".join(entries)


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
    rule, _ = _checked(rule, version, base)

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


__all__ = ["AUTHOR", "RELEASE_DATE", "TITLE", "anchor", "base_url", "bibliography_bibtex",
           "citation", "citation_bibtex", "citation_csl",
           "citation_text", "cited_date", "page_address", "permalink", "release_year", "rule_data",
           "rule_json", "rule_page", "source_metadata"]


if __name__ == "__main__":
    print(bibliography_bibtex(), end="")
