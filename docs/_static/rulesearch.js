/* The search page knows the rules (data: mancala_spec.sphinx.search_page).
   - a query that is exactly a rule ID (or an old ID), with or without "rule-",
     in any case, goes straight to the rule's anchor;
   - a query naming a game (Ba-awa, Anenam, Nam-Nam, Bakuk...) shows the game's
     page first, above Sphinx's results;
   - words are found whatever their accents and case: the query's words are
     folded as the index's were (fold below, mancala_spec.sphinx.search_page.fold)
     before the English stemmer stems them, so "βροχο" finds "βρόχο";
   - a result on a rules page opens at the rule that holds every word searched
     (one result per such rule), with its snippet taken from that rule;
   - snippets are the page's text with its blocks apart ("Why" and "The" of two
     paragraphs are two words), the words found highlighted;
   - the search box on the page shows the query. */
(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("rule-search-data").textContent);

  // the same folding as mancala_spec.sphinx.search_page.fold: decomposed, nonspacing
  // marks dropped, lower case, then the letters FOLDED_LETTERS names
  const FOLDED = {"ς": "σ", "ß": "ss", "ı": "i", "ł": "l", "ø": "o", "đ": "d", "æ": "ae",
                  "œ": "oe"};
  const fold = (text) => text.normalize("NFD").replace(/\p{Mn}/gu, "").toLowerCase()
    .replace(/[ςßıłøđæœ]/g, (c) => FOLDED[c]);
  window.mancalaFold = fold;        // for the browser test, which compares it with Python's

  if (typeof window.Stemmer === "function") {
    // Sphinx's stemmers give each instance its own stemWord: wrap the instance's
    const Base = window.Stemmer;
    window.Stemmer = function () {
      const stemmer = new Base();
      const stem = stemmer.stemWord.bind(stemmer);
      stemmer.stemWord = (word) => stem(fold(word));
      return stemmer;
    };
  }
  if (typeof window.splitQuery === "function") {
    // a query typed decomposed (o and a combining accent) is split as one word
    const split = window.splitQuery;
    window.splitQuery = (query) => split(query.normalize("NFC"));
  }

  const words = data.words || [];
  const blocks = data.blocks || {};
  const holds = (ids, term) => ids.some(
    (i) => words[i] === term || (term.length > 2 && words[i].includes(term)));

  if (typeof Search === "object") {
    const termsSearch = Search.performTermsSearch;
    Search.performTermsSearch = (searchTerms, excludedTerms) => {
      const results = termsSearch(searchTerms, excludedTerms);
      const terms = [...searchTerms];
      if (!terms.length) return results;
      const out = [];
      for (const result of results) {
        const [docName, title, , descr, score, filename, kind] = result;
        const rules = (blocks[docName] || []).filter(
          ([, , , ids]) => terms.every((term) => holds(ids, term)));
        if (!rules.length) {
          out.push(result);
          continue;
        }
        for (const [id, anchor, ruleTitle] of rules) {
          out.push([docName, `${title} › ${ruleTitle} (${id})`, `#${anchor}`, descr, score,
                    filename, kind]);
        }
      }
      return out;
    };

    // elements whose text is a block of its own: a space either side in the snippet
    const BLOCKS = new Set(["ADDRESS", "ARTICLE", "ASIDE", "BLOCKQUOTE", "BR", "CAPTION",
      "DD", "DETAILS", "DIV", "DL", "DT", "FIGCAPTION", "FIGURE", "FOOTER", "H1", "H2", "H3",
      "H4", "H5", "H6", "HEADER", "HR", "LI", "MAIN", "NAV", "OL", "P", "PRE", "SECTION",
      "SUMMARY", "TABLE", "TBODY", "TD", "TFOOT", "TH", "THEAD", "TR", "UL", "BUTTON",
      "svg", "IMG"]);
    Search.htmlToText = (htmlString, anchor) => {
      const page = new DOMParser().parseFromString(htmlString, "text/html");
      const main = page.querySelector('[role="main"]');
      if (!main) return "";
      const root = (anchor && main.querySelector(anchor)) || main;
      for (const skip of root.querySelectorAll(
        ".headerlink, script, style, .copybtn, .visually-hidden, [hidden], svg, .toctree-wrapper")) {
        skip.remove();
      }
      const parts = [];
      const walk = (node) => {
        if (node.nodeType === Node.TEXT_NODE) {
          parts.push(node.nodeValue);
          return;
        }
        if (node.nodeType !== Node.ELEMENT_NODE) return;
        const block = BLOCKS.has(node.tagName) || BLOCKS.has(node.tagName.toUpperCase());
        if (block) parts.push(" ");
        for (const child of node.childNodes) walk(child);
        if (block) parts.push(" ");
      };
      walk(root);
      return parts.join("").replace(/\s+/g, " ").trim();
    };

    Search.makeSearchSummary = (htmlText, keywords, anchor) => {
      const summary = document.createElement("p");
      summary.classList.add("context");
      const text = Search.htmlToText(htmlText, anchor);
      if (!text) return summary;
      // the folded text, and where each of its characters comes from in the text
      // (folding a character may change its length: "ß" is "ss")
      let folded = "";
      const map = [];
      let at = 0;
      for (const ch of text) {
        const f = fold(ch);
        for (let k = 0; k < f.length; k++) map.push(at);
        folded += f;
        at += ch.length;
      }
      map.push(text.length);
      const terms = [...keywords].map(fold).filter((k) => k);
      const hits = [];
      for (const term of terms) {
        let i = folded.indexOf(term);
        while (i > -1) {
          hits.push([map[i], map[i + term.length]]);
          i = folded.indexOf(term, i + term.length);
        }
      }
      hits.sort((a, b) => a[0] - b[0]);
      const first = hits.length ? hits[0][0] : 0;
      let start = Math.max(first - 100, 0);
      if (start > 0) {                      // at a word's start
        const space = text.indexOf(" ", start);
        start = space > -1 && space < first ? space + 1 : start;
      }
      let end = Math.min(start + 240, text.length);
      if (end < text.length) {
        const space = text.lastIndexOf(" ", end);
        end = space > first ? space : end;
      }
      if (start > 0) summary.append("… ");
      let pos = start;
      for (let [a, b] of hits) {
        if (a < pos || a >= end) continue;
        while (b < end && /[\p{L}\p{N}]/u.test(text[b])) b++;     // the whole word
        summary.append(text.slice(pos, a));
        const mark = document.createElement("span");
        mark.className = "highlighted";
        mark.textContent = text.slice(a, Math.min(b, end));
        summary.append(mark);
        pos = Math.min(b, end);
      }
      summary.append(text.slice(pos, end));
      if (end < text.length) summary.append(" …");
      return summary;
    };
  }

  const query = (new URLSearchParams(location.search).get("q") || "").trim();
  const input = document.getElementById("search-page-query");
  if (input) input.value = query;
  if (!query) {
    if (input) input.focus();
    return;
  }
  const key = query.toLowerCase().replace(/^rule-/, "").replace(/[\s_]+/g, "-");
  if (Object.prototype.hasOwnProperty.call(data.rules, key)) {
    location.replace(data.rules[key]);
    return;
  }
  const bare = key.replace(/-/g, "");
  const game = data.games.find((g) => g.names.some(
    (name) => name === key || name.replace(/-/g, "") === bare));
  if (!game) return;
  const best = document.getElementById("rule-search-best");
  const title = document.createElement("h2");
  title.textContent = "The game";
  const link = document.createElement("a");
  link.href = game.url;
  link.textContent = game.title;
  const note = document.createElement("p");
  note.append(link, ` (also called ${game.names.filter((n) => n !== game.names[0])
    .map((n) => n.replace(/\b\w/g, (c) => c.toUpperCase())).join(", ")}): its rules, in full.`);
  best.append(title, note);
  best.hidden = false;
})();
