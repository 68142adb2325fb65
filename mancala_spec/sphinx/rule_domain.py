"""Rules as Sphinx objects: the standard-domain object type ``rule`` and its role.

Every rendered rule is recorded as a ``std:rule`` object named by its ID, with
the anchor ``rule-<id>``, so the site's ``objects.inv`` lists every rule ID (and
every old ID from the registry, landing on its successor) and the search page
finds a rule by its ID. Another Sphinx project cites a rule through intersphinx
by loading this small extension, which only adds the ``rule`` role::

    extensions = ["sphinx.ext.intersphinx", "mancala_spec.sphinx.rule_domain"]
    intersphinx_mapping = {"mancala": ("https://…/0.2.0/", None)}

and writing ``:rule:`ba-awa-relay``` (reStructuredText) or ``{rule}`ba-awa-relay```
(MyST). No directive is added: on the rules site ``{rule}`` stays the directive
that renders a rule.

Each rule's anchor is also a standard label (``rule-<id>``, titled with the
rule's ID and title), so a project that loads nothing of ours can still cite a
rule through plain intersphinx: ``:ref:`rule-ba-awa-relay```.
"""
from __future__ import annotations

from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.domains import ObjType
from sphinx.roles import XRefRole

OBJTYPE = "rule"


def _std(env: Any) -> Any:
    return env.domains.standard_domain if hasattr(env.domains, "standard_domain") \
        else env.get_domain("std")


def note_rule(env: Any, rule_id: str, anchor: str, location: Any = None) -> None:
    """Record *rule_id* as a ``std:rule`` object at *anchor* of the current page."""
    _std(env).note_object(OBJTYPE, rule_id, anchor, location=location)


def title_labels(env: Any, titled: dict[str, tuple[str, str]]) -> None:
    """Give the anchors in *titled* (anchor → (docname, title)) titled labels,
    so plain ``:ref:`` finds them. Called once every page is read: the standard
    domain records an explicit target without a title as an anonymous label,
    and would warn of a duplicate if a titled one were noted while reading."""
    std = _std(env)
    for anchor, (docname, title) in titled.items():
        std.anonlabels[anchor] = (docname, anchor)
        std.labels[anchor] = (docname, anchor, title)


def setup(app: Sphinx) -> dict[str, Any]:
    app.registry.domain_object_types.setdefault("std", {})[OBJTYPE] = ObjType(
        "rule", OBJTYPE, searchprio=1)
    app.add_role_to_domain("std", OBJTYPE, XRefRole(innernodeclass=nodes.literal,
                                                     warn_dangling=True))
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
