"""The Sphinx extension of the rules site: rule blocks, source documents, checks.

Directives and roles (MyST syntax):

``{rule} <rule-id>``
   Renders one catalogue rule: an anchor ``rule-<id>`` with the ID as a
   permalink, a *sourced* or *editorial* badge, the English statement, each
   citation as a block quote as its document has it, with our translation and
   an attribution linking to the quoted source line, the gap, default, rationale
   and options of an editorial rule, the source of every implementing function
   (read from the code at build time, linked to the API reference and the full
   module), and the directive's content: the rule's examples, as
   ``{doctest} <rule-id>-<n>`` blocks.

``{rule-summary} <rule-id>``
   A short box with a rule's title, badge and statement and a link to the
   place where it is rendered in full (for a page that walks through a game).

``{source-document} <file>``
   A source document in full, line by line: each line has the anchor
   ``src-<stem>-L<n>`` and links to the rules that cite it, or says why it is
   context. Quoted spans are marked.

``{rule-index}``, ``{options-table}`` and ``{claims-table}``
   Tables of every rule, of every engine option with the rule it switches, and
   of every reading (``:basis: reading``) or every editorial claim inside a
   sourced rule (``:basis: editorial``).

The role ``rule-ref`` (in MyST: ``{rule-ref}`` followed by the rule ID in
backticks) links to a rule from anywhere; ``rule-badge`` shows a rule's badge
(what backs it) as a link to the rule; so do rule IDs in statements. The role
``source-line`` links to one line of a source document, written
``text <file:line>``. After the build, :func:`mancala_spec.catalogue.traceability.check` runs over
what the directives collected: each gap is a warning (so ``-W`` fails the
build), and a one-line coverage summary is printed. HTML builds also write
``traceability.json`` beside ``index.html``.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.roles import XRefRole
from sphinx.util import logging
from sphinx.util.nodes import make_refnode

from .. import __version__
from ..catalogue import load_catalogue, unknown_rule_claims
from ..catalogue.cite import base_url, permalink
from ..catalogue.traceability import Rendered, check, source_line_anchor
from .rule_blocks import ENV_RULES, RuleDirective, RuleSummaryDirective
from .rule_domain import title_labels
from .rule_nodes import (
    RULE_REF,
    SOURCE_LINE_REF,
    depart_details,
    depart_pass,
    depart_summary,
    details,
    rule_anchor,
    rule_badge,
    summary,
    visit_details,
    visit_pass,
    visit_summary,
)
from .rule_sources import ENV_SOURCES, SourceDocumentDirective
from .rule_tables import (
    ClaimsTableDirective,
    InteropParametersDirective,
    OptionsTableDirective,
    RuleIndexDirective,
)

logger = logging.getLogger(__name__)

ENV_EXAMPLES = "mancala_examples"    # docname -> [example id or None]


# -- roles and reference resolution ------------------------------------------------------


def rule_badge_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    """``{rule-badge}`<rule-id>```: the rule's badge (what backs it, e.g.
    "editorial" or "sourced, with a reading"), linking to the rule; for tables
    and prose that state a rule in passing."""
    rule_id = text.strip()
    catalogue = load_catalogue()
    if rule_id not in catalogue:
        message = inliner.reporter.error(f"unknown rule {rule_id!r} in {{rule-badge}}",
                                         line=lineno)
        return [inliner.problematic(rawtext, rawtext, message)], [message]
    rule = catalogue[rule_id]
    ref = addnodes.pending_xref("", refdomain="", reftype=RULE_REF, reftarget=rule_id,
                                refexplicit=True, refwarn=True)
    ref += rule_badge(rule)
    return [ref], []


class RuleRefRole(XRefRole):
    """``{rule-ref}`<rule-id>``` or ``{rule-ref}`text <rule-id>```."""

    def process_link(self, env, refnode, has_explicit_title, title, target):
        return title, target.strip()


def _where(env) -> dict[str, str]:
    """rule ID → docname of its {rule} block."""
    where: dict[str, str] = {}
    for docname, entries in getattr(env, ENV_RULES, {}).items():
        for rule_id, _ in entries:
            where.setdefault(rule_id, docname)
    return where


def label_rules(app: Sphinx, env: Any) -> list[str]:
    """Every rendered rule's anchor as a label titled with its ID and title
    (``env-updated``), so another project cites a rule with plain ``:ref:``."""
    catalogue = load_catalogue()
    title_labels(env, {rule_anchor(rule_id): (docname, f"{rule_id}: {catalogue[rule_id].title}")
                       for rule_id, docname in _where(env).items()})
    return []


def resolve_reference(app: Sphinx, env, node: addnodes.pending_xref, contnode: nodes.Element):
    """Resolve ``rule-ref`` and ``source-line`` references (``missing-reference`` event)."""
    reftype = node.get("reftype")
    if reftype == RULE_REF:
        target = node["reftarget"]
        docname = _where(env).get(target)
        if docname is None:
            return None
        title = load_catalogue()[target].title if target in load_catalogue() else target
        ref = make_refnode(app.builder, node["refdoc"], docname, rule_anchor(target), contnode,
                           title)
        return ref
    if node.get("refdomain") == "py":
        return _resolve_python_suffix(app, env, node, contnode)
    if reftype == SOURCE_LINE_REF:
        source, _, line = node["reftarget"].rpartition(":")
        for docname, files in getattr(env, ENV_SOURCES, {}).items():
            if source in files:
                return make_refnode(app.builder, node["refdoc"], docname,
                                    source_line_anchor(source, int(line)), contnode,
                                    f"{source} line {line}")
        return None
    return None


def _resolve_python_suffix(app: Sphinx, env, node: addnodes.pending_xref,
                           contnode: nodes.Element):
    """Resolve a Python reference that names a documented object by the tail of
    its dotted name (``InvalidPositionError`` for
    ``mancala_spec.errors.InvalidPositionError``), when exactly one documented
    object of a matching type has that tail. Engine docstrings name the
    objects they import that way; anything ambiguous or absent stays a warning."""
    target = node["reftarget"].lstrip("~.")
    domain = env.domains["py"] if hasattr(env.domains, "__getitem__") else env.get_domain("py")
    types = set(domain.objtypes_for_role(node["reftype"]) or ())
    matches = [(name, entry) for name, entry in domain.objects.items()
               if (name == target or name.endswith("." + target))
               and (not types or entry.objtype in types) and not entry.aliased]
    if len(matches) != 1:
        return None
    name, entry = matches[0]
    return make_refnode(app.builder, node["refdoc"], entry.docname, entry.node_id, contnode,
                        name)


def viewcode_follow_property(app: Sphinx, modname: str, fullname: str) -> str | None:
    """Let viewcode link properties to their source (``viewcode-follow-imported``).

    viewcode finds an object's module through its ``__module__``, which a
    property lacks, so implementing functions that are properties (such as
    ``Match.is_over``) would get no anchor on the module page. Other objects are
    left to viewcode (``None``)."""
    import importlib

    try:
        obj: Any = importlib.import_module(modname)
        for part in fullname.split("."):
            obj = getattr(obj, part)
    except Exception:  # noqa: BLE001  (anything unimportable is viewcode's business)
        return None
    return modname if isinstance(obj, property) else None


# -- collecting and checking ---------------------------------------------------------------


def collect_examples(app: Sphinx, doctree: nodes.document) -> None:
    """Record the ID of every doctest block of the page (``doctree-read``)."""
    ids = []
    for block in doctree.findall(nodes.literal_block):
        if block.get("testnodetype") == "doctest":
            groups = block.get("groups", ["default"])
            ids.append(groups[0] if groups and groups[0] != "default" else None)
    data = getattr(app.env, ENV_EXAMPLES, None)
    if data is None:
        data = {}
        setattr(app.env, ENV_EXAMPLES, data)
    data[app.env.docname] = ids


def purge(app: Sphinx, env, docname: str) -> None:
    for name in (ENV_RULES, ENV_EXAMPLES, ENV_SOURCES):
        getattr(env, name, {}).pop(docname, None)


def merge(app: Sphinx, env, docnames, other) -> None:
    for name in (ENV_RULES, ENV_EXAMPLES, ENV_SOURCES):
        mine = getattr(env, name, None)
        if mine is None:
            mine = {}
            setattr(env, name, mine)
        theirs = getattr(other, name, {})
        for docname in docnames:
            if docname in theirs:
                mine[docname] = theirs[docname]


def rendered_from_env(env) -> Rendered:
    """What the directives of this build collected, as a :class:`Rendered`."""
    rendered = Rendered()
    for docname in sorted(getattr(env, ENV_RULES, {})):
        for rule_id, ids in env.mancala_rules[docname]:
            rendered.add_rule(rule_id, docname, ids)
    for docname in sorted(getattr(env, ENV_EXAMPLES, {})):
        for example in env.mancala_examples[docname]:
            rendered.add_example(example, docname)
    for docname in sorted(getattr(env, ENV_SOURCES, {})):
        for source in env.mancala_sources[docname]:
            rendered.add_source(source, docname)
    return rendered


def check_site(app: Sphinx, exception: Exception | None) -> None:
    """Run the traceability check over the build (``build-finished``)."""
    if exception is not None or not app.config.mancala_traceability:
        return
    rendered = rendered_from_env(app.env)
    report = check(load_catalogue(), rendered, unknown_claims=unknown_rule_claims())
    for problem in report.problems:
        logger.warning("traceability: %s", problem, type="mancala", subtype="traceability")
    logger.info(report.summary())
    if app.builder.format == "html":
        where = _where(app.env)
        data = {
            "version": __version__,
            "summary": report.summary(),
            "ok": report.ok,
            "rules": {rule.id: {"page": app.builder.get_target_uri(where[rule.id])
                                if rule.id in where else None,
                                "anchor": rule_anchor(rule.id),
                                "kind": rule.kind,
                                "badge": rule.badge,
                                "permalink": permalink(rule, app.config.release,
                                                       app.config.mancala_base_url),
                                "examples": rendered.examples.get(rule.id, [])}
                      for rule in load_catalogue()},
            "rendered": rendered.as_dict(),
        }
        path = Path(app.outdir) / "traceability.json"
        path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def setup(app: Sphinx) -> dict[str, Any]:
    app.setup_extension("sphinx.ext.doctest")
    app.setup_extension("sphinx.ext.viewcode")
    app.add_config_value("mancala_traceability", True, "env", types=(bool,))
    # the address releases are published under ("" when unknown: no permalinks invented)
    app.add_config_value("mancala_base_url", base_url(), "env", types=(str,))
    app.setup_extension("mancala_spec.sphinx.rule_domain")
    app.setup_extension("mancala_spec.sphinx.prose")     # {claim} and {context} in prose
    app.setup_extension("mancala_spec.sphinx.examples")     # {example}: worked examples as data
    app.add_node(details, html=(visit_details, depart_details),
                 latex=(visit_pass, depart_pass), text=(visit_pass, depart_pass),
                 man=(visit_pass, depart_pass), texinfo=(visit_pass, depart_pass))
    app.add_node(summary, html=(visit_summary, depart_summary),
                 latex=(visit_pass, depart_pass), text=(visit_pass, depart_pass),
                 man=(visit_pass, depart_pass), texinfo=(visit_pass, depart_pass))
    app.add_directive("rule", RuleDirective)
    app.add_directive("rule-summary", RuleSummaryDirective)
    app.add_directive("source-document", SourceDocumentDirective)
    app.add_directive("rule-index", RuleIndexDirective)
    app.add_directive("options-table", OptionsTableDirective)
    app.add_directive("interop-parameters", InteropParametersDirective)
    app.add_directive("claims-table", ClaimsTableDirective)
    app.add_role(RULE_REF, RuleRefRole(innernodeclass=nodes.literal, warn_dangling=True))
    app.add_role("rule-badge", rule_badge_role)
    app.add_role(SOURCE_LINE_REF, RuleRefRole(innernodeclass=nodes.inline, warn_dangling=True))
    app.connect("doctree-read", collect_examples)
    app.connect("env-purge-doc", purge)
    app.connect("env-merge-info", merge)
    app.connect("env-updated", label_rules)
    app.connect("missing-reference", resolve_reference)
    app.connect("build-finished", check_site)
    app.connect("viewcode-follow-imported", viewcode_follow_property)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True,
            "env_version": 1}
