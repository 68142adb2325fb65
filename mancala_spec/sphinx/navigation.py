"""Sphinx extension: furo's navigation tree, built from tables of contents cut once.

furo puts the whole site's table of contents into the sidebar of every page, page
titles only (``toctree(titles_only=True, collapse=False, ...)``). Sphinx builds it
for each page by copying every document's whole table of contents, every section
of every page, and then dropping all but each document's title and the toctrees
nested in it: the same work again for each page written. This extension
cuts each document's table of contents to what that step keeps once per build
(:func:`titles_only`, when the environment is complete: env-updated) and lends the
cut ones to that call alone, so Sphinx builds the same tree from less. Measured on
the site's 39 documents: 1.06 s -> 0.14 s for their trees; the navigation HTML of
every page identical, byte for byte.

The cut is Sphinx's own step done first, and doing it first changes nothing only
while no table of contents holds an ``only`` node (Sphinx resolves those by the
build's tags before it cuts) and no page sets ``tocdepth`` (which prunes before it
cuts); where either holds, the extension lends nothing and Sphinx does it all.
"""
from __future__ import annotations

from typing import Any

#: the cut tables of contents of the build's environment, by id(env)
_CUT: dict[int, dict[str, Any]] = {}


def titles_only(toc: Any) -> Any:
    """A copy of a document's table of contents as Sphinx's titles-only step leaves
    it (sphinx.environment.adapters.toctree._entries_from_toctree): each top-level
    entry keeps its title, and below it only the toctrees found anywhere in it."""
    from sphinx import addnodes

    toc = toc.deepcopy()
    for top_level in toc.children:
        if len(top_level) > 1:
            subtrees = list(top_level.findall(addnodes.toctree))
            if subtrees:
                top_level[1][:] = subtrees
            else:
                top_level.pop(1)
    return toc


def cut_tocs(env: Any) -> dict[str, Any] | None:
    """Every document's table of contents cut (:func:`titles_only`), or None where
    cutting first would not give Sphinx's tree (an ``only`` node, a ``tocdepth``)."""
    from sphinx import addnodes

    for docname, toc in env.tocs.items():
        if env.metadata.get(docname, {}).get("tocdepth") or next(
                iter(toc.findall(addnodes.only)), None) is not None:
            return None
    return {docname: titles_only(toc) for docname, toc in env.tocs.items()}


def on_env_updated(app: Any, env: Any) -> list[str]:
    _CUT.clear()
    cut = cut_tocs(env)
    if cut is not None:
        _CUT[id(env)] = cut
    return []


def on_page_context(app: Any, pagename: str, templatename: str, context: dict[str, Any],
                    doctree: Any) -> None:
    """Before furo (html-page-context, priority 500): the page's ``toctree`` gets the
    cut tables of contents for a titles-only tree, and is Sphinx's own otherwise."""
    toctree = context.get("toctree")
    cut = _CUT.get(id(app.env))
    if toctree is None or cut is None:
        return

    def navigation(**kwargs: Any) -> Any:
        if not kwargs.get("titles_only"):
            return toctree(**kwargs)
        env = app.env
        whole, env.tocs = env.tocs, cut
        try:
            return toctree(**kwargs)
        finally:
            env.tocs = whole

    context["toctree"] = navigation


def setup(app: Any) -> dict[str, Any]:
    app.connect("env-updated", on_env_updated)
    app.connect("html-page-context", on_page_context, priority=400)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
