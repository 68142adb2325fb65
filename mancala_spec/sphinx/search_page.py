"""Sphinx extension: the search page knows the rules and the games' names, and
finds words whatever their accents and case.

The page (template ``docs/_templates/search.html``, script
``docs/_static/rulesearch.js``) gets, as JSON, every rule object of the site
(``std:rule``: each rule ID and each old ID from the registry, with the page and
anchor it lands on, as objects.inv has them), every game's names (its own and
its other names, such as Anenam and Nam-Nam, with its rules page) and the words
of each rule block (folded and stemmed as the index's words are). A query that
is exactly a rule ID, with or without ``rule-`` in front and in any case, goes
straight to the rule; a query naming a game puts the game's page first, above
Sphinx's own results; a result on a rules page whose words a rule holds opens
at that rule.

Folding: the sources quote Catalan, German and Greek, and a reader types
``βροχο`` for ``βρόχο``, ``tambe`` for ``també``, ``Saen`` for ``Säen``. The
index's words are folded (:func:`fold`: decomposed, nonspacing marks dropped,
lower case, ``ς`` as ``σ``, ``ß`` as ``ss``) before Sphinx's English stemmer
stems them (:class:`FoldedEnglish`, the search language of the site); the
page's script folds the query's words the same way before the same stemmer
(the browser test searches without accents and checks both foldings agree).
"""
from __future__ import annotations

import unicodedata
from typing import Any

from docutils import nodes
from sphinx.search.en import SearchEnglish

from .. import __version__
from ..engine.games import GAMES

#: The letters :func:`fold` writes otherwise after lower-casing (rulesearch.js has the same).
FOLDED_LETTERS = {"ς": "σ", "ß": "ss", "ı": "i", "ł": "l", "ø": "o", "đ": "d", "æ": "ae",
                  "œ": "oe"}
#: env attribute: docname -> [[rule ID, anchor, title, [folded stemmed words]]]
ENV_WORDS = "mancala_rule_words"


def fold(text: str) -> str:
    """*text* without accents and case, as the search compares words.

    >>> fold("Βρόχο"), fold("també"), fold("Säen"), fold("Straße"), fold("ΣΠΟΡΆΣ")
    ('βροχο', 'tambe', 'saen', 'strasse', 'σπορασ')
    """
    decomposed = unicodedata.normalize("NFD", text)
    bare = "".join(c for c in decomposed if unicodedata.category(c) != "Mn").lower()
    return "".join(FOLDED_LETTERS.get(c, c) for c in bare)


class FoldedEnglish(SearchEnglish):
    """Sphinx's English search language, with every word folded (:func:`fold`)
    before it is stemmed: ``βρόχο`` and ``βροχο`` are one word of the index."""

    def split(self, input: str) -> list[str]:
        # folded as they are split: a word the index keeps unstemmed (its stem is a
        # stop word, as "bé"'s is "be") is kept folded too
        return [fold(word) for word in super().split(input)]

    def stem(self, word: str) -> str:
        return super().stem(fold(word))


def rule_words(doctree: nodes.document, language: FoldedEnglish) -> list[list[Any]]:
    """Each rule block of *doctree* (its anchor ``rule-<id>``) with its title and
    the words it holds, folded and stemmed as the index's, sorted."""
    found = []
    for block in doctree.findall(nodes.container):
        if "rule" not in block["classes"]:
            continue
        anchor = next((name for name in block["names"] if name.startswith("rule-")), None)
        if anchor is None:
            continue
        title = next((node.astext() for node in block.findall(nodes.strong)
                      if "rule-title" in node["classes"]), anchor)
        words = set()
        for word in language.split(block.astext()):
            stemmed = language.stem(word).lower()
            if language.word_filter(stemmed) and len(stemmed) > 1:
                words.add(stemmed)
        found.append([anchor.removeprefix("rule-"), anchor, title, sorted(words)])
    return found


def on_doctree_read(app: Any, doctree: nodes.document) -> None:
    words = rule_words(doctree, FoldedEnglish({}))
    data = getattr(app.env, ENV_WORDS, None)
    if data is None:
        data = {}
        setattr(app.env, ENV_WORDS, data)
    if words:
        data[app.env.docname] = words
    else:
        data.pop(app.env.docname, None)


def on_purge(app: Any, env: Any, docname: str) -> None:
    getattr(env, ENV_WORDS, {}).pop(docname, None)


def on_merge(app: Any, env: Any, docnames: Any, other: Any) -> None:
    data = getattr(env, ENV_WORDS, None)
    if data is None:
        data = {}
        setattr(env, ENV_WORDS, data)
    for docname, words in getattr(other, ENV_WORDS, {}).items():
        if docname in docnames:
            data[docname] = words


def search_data(app: Any) -> dict[str, Any]:
    """``{"rules": {id: url}, "games": [{"names": [...], "title": ..., "url": ...}],
    "blocks": {docname: [[id, anchor, title, [word index...]]]}, "words": [...]}``,
    URLs relative to the search page (at the site's root); each block's words are
    indexes into ``words``, the folded and stemmed words of every rule block."""
    std = app.env.domains.standard_domain if hasattr(app.env.domains, "standard_domain") \
        else app.env.get_domain("std")
    rules = {}
    for (objtype, name), (docname, anchor) in sorted(std.objects.items()):
        if objtype == "rule":
            rules[name] = f"{app.builder.get_target_uri(docname)}#{anchor}"
    games = []
    for cls in GAMES.values():
        if cls.name in app.env.all_docs:
            title = app.env.titles[cls.name].astext() if cls.name in app.env.titles else cls.name
            games.append({"names": [cls.name, *cls.aliases], "title": title,
                          "url": app.builder.get_target_uri(cls.name)})
    pages = getattr(app.env, ENV_WORDS, {})
    vocabulary = sorted({word for blocks in pages.values() for *_, words in blocks
                         for word in words})
    number = {word: index for index, word in enumerate(vocabulary)}
    blocks = {docname: [[rule_id, anchor, title, [number[w] for w in words]]
                        for rule_id, anchor, title, words in pages[docname]]
              for docname in sorted(pages) if docname in app.env.all_docs}
    return {"rules": rules, "games": games, "blocks": blocks, "words": vocabulary}


def on_page_context(app: Any, pagename: str, templatename: str, context: dict[str, Any],
                    doctree: Any) -> None:
    if pagename == "search":
        context["mancala_rule_search"] = search_data(app)


def setup(app: Any) -> dict[str, Any]:
    app.add_search_language(FoldedEnglish)      # lang "en": the site's search language
    app.connect("doctree-read", on_doctree_read)
    app.connect("env-purge-doc", on_purge)
    app.connect("env-merge-info", on_merge)
    app.connect("html-page-context", on_page_context)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True,
            "env_version": 3}
