/* The search page knows the rules (data: mancala_spec.sphinx.search).
   - a query that is exactly a rule ID (or an old ID), with or without "rule-",
     in any case, goes straight to the rule's anchor;
   - a query naming a game (Ba-awa, Anenam, Nam-Nam, Bakuk...) shows the game's
     page first, above Sphinx's results;
   - the search box on the page shows the query. */
(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("rule-search-data").textContent);
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
  const words = key.replace(/-/g, "");
  const game = data.games.find(g => g.names.some(
    name => name === key || name.replace(/-/g, "") === words));
  if (!game) return;
  const best = document.getElementById("rule-search-best");
  const title = document.createElement("h2");
  title.textContent = "The game";
  const link = document.createElement("a");
  link.href = game.url;
  link.textContent = game.title;
  const note = document.createElement("p");
  note.append(link, ` (also called ${game.names.filter(n => n !== game.names[0])
    .map(n => n.replace(/\b\w/g, c => c.toUpperCase())).join(", ")}): its rules, in full.`);
  best.append(title, note);
  best.hidden = false;
})();
