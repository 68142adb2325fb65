"""Sphinx extension: the search page knows the rules and the games' names.

The page (template ``docs/_templates/search.html``, script
``docs/_static/rulesearch.js``) gets, as JSON, every rule object of the site
(``std:rule``: each rule ID and each old ID from the registry, with the page and
anchor it lands on, as objects.inv has them) and every game's names (its own and
its other names, such as Anenam and Nam-Nam, with its rules page). A query that
is exactly a rule ID, with or without ``rule-`` in front and in any case, goes
straight to the rule; a query naming a game puts the game's page first, above
Sphinx's own results.
"""
from __future__ import annotations

from typing import Any

from .. import __version__
from ..engine.games import GAMES


def search_data(app: Any) -> dict[str, Any]:
    """``{"rules": {id: url}, "games": [{"names": [...], "title": ..., "url": ...}]}``,
    URLs relative to the search page (at the site's root)."""
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
    return {"rules": rules, "games": games}


def on_page_context(app: Any, pagename: str, templatename: str, context: dict[str, Any],
                    doctree: Any) -> None:
    if pagename == "search":
        context["mancala_rule_search"] = search_data(app)


def setup(app: Any) -> dict[str, Any]:
    app.connect("html-page-context", on_page_context)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
