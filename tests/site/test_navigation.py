"""furo's navigation tree from tables of contents cut once (mancala_spec.sphinx.navigation)
is the tree Sphinx builds from the whole ones: a small site built with furo, once with
the extension and once without, gives the same pages byte for byte, while the call
that builds each sidebar is really given the cut tables of contents."""
from __future__ import annotations

import io
import re
from types import SimpleNamespace

from docutils import nodes
from sphinx import addnodes

from mancala_spec.sphinx import navigation

PAGES = {
    "index.md": """# Home

Text.

## Home section

```{toctree}
:caption: Games
one
two
```

```{toctree}
:hidden:
three
```
""",
    "one.md": """# One

## One, first part

### One, deeper

## One, second part

```{toctree}
nested
```
""",
    "two.md": "# Two\n\n## Two, a part\n\n### Two, deeper\n",
    "three.md": "# Three\n",
    "nested.md": "# Nested\n\n## Nested, a part\n",
}


def _build(tmp_path, name, extensions):
    from sphinx.application import Sphinx
    from sphinx.util.docutils import docutils_namespace

    src, out = tmp_path / name / "src", tmp_path / name / "out"
    src.mkdir(parents=True)
    (src / "conf.py").write_text(f"extensions = {extensions!r}\nhtml_theme = 'furo'\n")
    for page, text in PAGES.items():
        (src / page).write_text(text)
    with docutils_namespace():
        app = Sphinx(str(src), str(src), str(out), str(out / ".doctrees"), "html",
                     status=io.StringIO(), warning=io.StringIO(), freshenv=True,
                     warningiserror=True)
        app.build()
    assert app.statuscode == 0
    return app, out


def _pages(out):
    return {path.relative_to(out).as_posix(): path.read_bytes()
            for path in sorted(out.rglob("*.html"))}


def test_the_sidebar_is_the_same_and_is_built_from_the_cut_tables(tmp_path, monkeypatch):
    import sphinx.builders.html as html_builder

    given = []
    titles_only = navigation.titles_only

    def counted(toc):
        given.append(toc)
        return titles_only(toc)

    # each titles-only tree the HTML builder asks for: was it built from the cut tables?
    asked: list[tuple[str, bool]] = []
    global_toctree = html_builder.global_toctree_for_doc

    def watched(env, docname, builder, **kwargs):
        if kwargs.get("titles_only"):
            asked.append((docname, env.tocs is navigation._CUT.get(id(env))))
        return global_toctree(env, docname, builder, **kwargs)

    monkeypatch.setattr(navigation, "titles_only", counted)
    monkeypatch.setattr(html_builder, "global_toctree_for_doc", watched)
    app, cut = _build(tmp_path, "cut", ["myst_parser", "mancala_spec.sphinx.navigation"])
    from_cut = list(asked)
    asked.clear()
    _, whole = _build(tmp_path, "whole", ["myst_parser"])
    # every document's table of contents was cut, and the cut ones are smaller
    assert len(given) == len(PAGES)
    # every page's sidebar was built from the cut tables; without the extension, none
    assert {name for name, _ in from_cut} >= {page[:-3] for page in PAGES}
    assert all(lent for _, lent in from_cut) and not any(lent for _, lent in asked)
    assert len(asked) == len(from_cut)
    kept = navigation._CUT[id(app.env)]
    assert sum(len(list(toc.findall(nodes.list_item))) for toc in kept.values()) < \
        sum(len(list(toc.findall(nodes.list_item))) for toc in app.env.tocs.values())
    # the very same pages, sidebars included
    with_cut, without = _pages(cut), _pages(whole)
    assert with_cut.keys() == without.keys() and "one.html" in with_cut
    assert with_cut == without
    # ... and the sidebar holds the titles and the nested page, not the sections
    sidebar = re.search(rb'<div class="sidebar-tree">.*?</div>', with_cut["two.html"], re.S)
    assert sidebar and b"Nested" in sidebar.group() and b"Three" in sidebar.group()
    assert b"One, first part" not in sidebar.group()
    assert b"current" in sidebar.group()


def test_the_cut_keeps_titles_and_nested_toctrees_only():
    sub = addnodes.toctree()
    deep = nodes.bullet_list("", nodes.list_item("", addnodes.compact_paragraph(
        "", "", nodes.reference("", "Deeper", refuri="d", anchorname="#deeper")), sub))
    title = addnodes.compact_paragraph("", "", nodes.reference("", "Doc", refuri="d",
                                                               anchorname=""))
    toc = nodes.bullet_list("", nodes.list_item("", title, deep))
    cut = navigation.titles_only(toc)
    assert cut.astext().strip() == "Doc" and len(list(cut.findall(addnodes.toctree))) == 1
    assert len(list(toc.findall(nodes.reference))) == 2       # the whole one is left as it was
    flat = nodes.bullet_list("", nodes.list_item("", title.deepcopy(), nodes.bullet_list(
        "", nodes.list_item("", addnodes.compact_paragraph("", "", nodes.reference(
            "", "Part", refuri="d", anchorname="#part"))))))
    assert len(navigation.titles_only(flat)[0]) == 1          # no toctree: the list goes


def test_nothing_is_cut_where_sphinx_would_cut_otherwise():
    plain = nodes.bullet_list("", nodes.list_item("", addnodes.compact_paragraph(
        "", "", nodes.reference("", "Doc", refuri="d", anchorname=""))))
    env = SimpleNamespace(tocs={"d": plain}, metadata={"d": {}})
    assert navigation.cut_tocs(env) is not None
    env.metadata = {"d": {"tocdepth": 2}}                       # the page prunes first
    assert navigation.cut_tocs(env) is None
    only = plain.deepcopy()
    only[0] += addnodes.only(expr="html")                       # Sphinx resolves it first
    assert navigation.cut_tocs(SimpleNamespace(tocs={"d": only}, metadata={})) is None
