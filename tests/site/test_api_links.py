"""The API pages link a bare class name in an annotation to the class it is bound
to in its module, where more than one documented class has that name (conf.py's
post-transform): the engine's modules import nothing for Sphinx's sake."""
from __future__ import annotations

import io
import textwrap

MODULES = {
    "pkg/__init__.py": "",
    "pkg/one.py": 'class Outcome:\n    """The first."""\n',
    "pkg/two.py": 'class Outcome:\n    """The second."""\n',
    # the annotation cannot be evaluated (a name imported only for type checkers),
    # so Sphinx reads it as the bare text "Outcome"
    "pkg/user.py": textwrap.dedent('''\
        from __future__ import annotations

        from typing import TYPE_CHECKING

        from .two import Outcome

        if TYPE_CHECKING:
            from .one import Other


        class User:
            """Uses one."""

            #: how it ended
            outcome: Outcome | None
            other: Other
        '''),
}
PAGE = textwrap.dedent("""\
    API
    ===

    .. automodule:: pkg.one
       :members:

    .. automodule:: pkg.two
       :members:

    .. automodule:: pkg.user
       :members:
    """)


def build(tmp_path, transform: bool) -> tuple[str, str]:
    from sphinx.application import Sphinx
    from sphinx.util.docutils import docutils_namespace

    import conf

    for name, text in MODULES.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    src = tmp_path / f"src-{transform}"
    src.mkdir()
    (src / "conf.py").write_text(
        f"import sys\nsys.path.insert(0, {str(tmp_path)!r})\n"
        'extensions = ["sphinx.ext.autodoc"]\nnitpicky = True\n')
    (src / "index.rst").write_text(PAGE)
    warnings = io.StringIO()
    with docutils_namespace():
        app = Sphinx(str(src), str(src), str(src / "out"), str(src / "doctrees"), "html",
                     status=io.StringIO(), warning=warnings, freshenv=True)
        if transform:
            app.add_post_transform(conf._bound_names())
        app.build()
    return (src / "out" / "index.html").read_text(), warnings.getvalue()


def test_a_bare_name_links_to_the_class_its_module_binds(tmp_path, monkeypatch):
    import sys

    monkeypatch.setattr(sys, "path", [str(tmp_path)] + sys.path)
    html, warnings = build(tmp_path, transform=False)
    assert "more than one target found for cross-reference 'Outcome'" in warnings
    for name in [n for n in sys.modules if n == "pkg" or n.startswith("pkg.")]:
        monkeypatch.delitem(sys.modules, name)
    html, warnings = build(tmp_path, transform=True)
    assert "more than one target found" not in warnings, warnings
    attribute = html[html.index('id="pkg.user.User.outcome"'):]
    attribute = attribute[:attribute.index("</dt>")]
    assert 'href="#pkg.two.Outcome"' in attribute and "pkg.one" not in attribute
