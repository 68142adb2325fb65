"""The site's search (issue 31): words are found whatever their accents and case
in every script the sources use, a rule result opens at its rule, and snippets
keep the page's blocks apart.

The index is built by Sphinx with the site's search language
(:class:`mancala_spec.sphinx.search_page.FoldedEnglish`); the page's script
(``docs/_static/rulesearch.js``) folds the query the same way. The browser test
searches the built site in headless Chromium."""
from __future__ import annotations

import json
import re
from urllib.parse import quote

import pytest

from mancala_spec.sphinx.search_page import FoldedEnglish, fold

#: words of the three sources' scripts, with the forms a reader types for them
SPELLINGS = [("βρόχο", "βροχο"), ("ΒΡΌΧΟ", "βροχο"), ("ΣΠΟΡΆΣ", "σπορασ"), ("també", "tambe"),
             ("llavors", "llavors"), ("Schächte", "schachte"), ("SCHÄCHTE", "schachte"),
             ("Straße", "strasse"), ("l'última", "l'ultima"), ("Οπές", "οπεσ"),
             ("ο\u0301πές", "οπεσ")]


@pytest.mark.parametrize("word, folded", SPELLINGS)
def test_fold_drops_accents_and_case(word, folded):
    assert fold(word) == folded


def test_the_index_language_stems_folded_words():
    language = FoldedEnglish({})
    assert language.stem("βρόχο") == language.stem("βροχο") == "βροχο"
    assert language.stem("Schächte") == language.stem("schachte")
    assert language.stem("sowing") == "sow"          # still English stemming
    assert language.split("Bé, Οπές: Straße") == ["be", "οπεσ", "strasse"]


def _index(site) -> dict:
    text = (site.html / "searchindex.js").read_text(encoding="utf-8")
    return json.loads(text[text.index("(") + 1:text.rindex(")")])


def test_the_built_index_holds_folded_words_and_the_page_the_rules_words(site):
    terms = _index(site)["terms"]
    assert "βροχο" in terms and "βρόχο" not in terms
    stem = FoldedEnglish({}).stem
    assert stem("també") == "tamb" and "tamb" in terms       # English stemming, after folding
    assert not [term for term in terms if fold(term) != term]
    page = site.html / "search.html"
    data = json.loads(re.search(r'<script id="rule-search-data" type="application/json">'
                                r"(.*?)</script>", page.read_text(encoding="utf-8"), re.S)
                      .group(1))
    words = data["words"]
    blocks = {rule_id: {words[i] for i in ids} for page_blocks in data["blocks"].values()
              for rule_id, _anchor, _title, ids in page_blocks}
    assert "βροχο" in blocks["bakuk-sow"] and "βροχο" not in blocks["ba-awa-relay"]
    assert {"relay", "lap"} <= blocks["ba-awa-relay"]
    assert data["blocks"]["bakuk"][0][1].startswith("rule-bakuk-")


def _search(page, base: str, query: str) -> list[dict]:
    page.goto(f"{base}search.html?q={quote(query)}")
    page.wait_for_function(
        "() => /Search finished|did not match/.test("
        "(document.getElementById('search-results') || {}).innerText || '')", timeout=30_000)
    # each result's snippet comes from a fetch of its page: wait for them all
    page.wait_for_function(
        "() => [...document.querySelectorAll('#search-results li.kind-text')]"
        ".every(li => li.querySelector('p.context'))", timeout=30_000)
    return page.eval_on_selector_all("#search-results li", """items => items.map(li => ({
        href: li.querySelector('a').getAttribute('href'),
        title: li.querySelector('a').textContent,
        snippet: (li.querySelector('p.context') || {}).textContent || '',
        marked: [...li.querySelectorAll('p.context .highlighted')].map(m => m.textContent)}))""")


def test_searching_in_the_browser(site_server, chromium):
    """Greek, Catalan and German words are found with and without their accents,
    in any case, with the same results; a result on a rules page opens at its rule;
    snippets keep blocks apart and mark the word found."""
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    try:
        page.goto(site_server + "search.html")
        folded = page.evaluate("words => words.map(w => window.mancalaFold(w))",
                               [word for word, _ in SPELLINGS])
        assert folded == [fold(word) for word, _ in SPELLINGS]   # the browser folds as Python

        plain = _search(page, site_server, "βροχο")
        accented = _search(page, site_server, "βρόχο")
        upper = _search(page, site_server, "ΒΡΌΧΟ")
        assert plain and [r["href"] for r in plain] == [r["href"] for r in accented] \
            == [r["href"] for r in upper]
        hrefs = [r["href"] for r in plain]
        assert "bakuk.html#rule-bakuk-sow" in hrefs and "bakuk.html#rule-bakuk-chain" in hrefs
        sow = next(r for r in plain if r["href"] == "bakuk.html#rule-bakuk-sow")
        assert sow["title"] == "Bakuk › Sowing: a single lap (bakuk-sow)"
        assert "βρόχο" in sow["marked"] and "βρόχο" in sow["snippet"]
        chain = next(r for r in plain if r["href"] == "bakuk.html#rule-bakuk-chain")
        # "Why we read it so" and the paragraph under it, apart (was "soThe")
        assert "Why we read it so The sowing is a loop" in chain["snippet"]

        # the result opens the page at the rule (the last search was of βρόχο too)
        page.click('#search-results a[href="bakuk.html#rule-bakuk-sow"]')
        page.wait_for_url("**/bakuk.html#rule-bakuk-sow")
        top = page.evaluate("document.getElementById('rule-bakuk-sow')"
                            ".getBoundingClientRect().top")
        assert 0 <= top < 300, top

        for query, word in (("tambe", "també"), ("schachte", "Schächte")):
            results = _search(page, site_server, query)
            assert any(word in r["marked"] and "#rule-" in r["href"] for r in results), query
    finally:
        context.close()
