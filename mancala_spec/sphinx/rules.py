"""The Sphinx extension of the rules site: rule blocks, source documents, checks.

Directives and roles (MyST syntax):

``{rule} <rule-id>``
   Renders one catalogue rule: an anchor ``rule-<id>`` with the ID as a
   permalink, a *sourced* or *editorial* badge, the English statement, each
   citation as a block quote in the original language with our translation and
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

``{rule-index}`` and ``{options-table}``
   Tables of every rule, and of every engine option with the rule it switches.

The role ``rule-ref`` (in MyST: ``{rule-ref}`` followed by the rule ID in
backticks) links to a rule from anywhere; so do rule IDs in statements. The role
``source-line`` links to one line of a source document, written
``text <file:line>``. After the build, :func:`mancala_spec.catalogue.traceability.check` runs over
what the directives collected: each gap is a warning (so ``-W`` fails the
build), and a one-line coverage summary is printed. HTML builds also write
``traceability.json`` beside ``index.html``.
"""
from __future__ import annotations

import inspect
import json
import re
import textwrap
from importlib import resources
from pathlib import Path
from typing import Any

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.ext.viewcode import viewcode_anchor
from sphinx.roles import XRefRole
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import make_refnode

from .. import __version__
from ..catalogue import Rule, load_catalogue, unknown_rule_claims
from ..sources import SOURCES
from ..catalogue.traceability import Rendered, check, source_line_anchor, source_map

logger = logging.getLogger(__name__)

RULE_REF = "rule-ref"
SOURCE_LINE_REF = "source-line"
ENV_RULES = "mancala_rules"          # docname -> [(rule_id, [example ids])]
ENV_EXAMPLES = "mancala_examples"    # docname -> [example id or None]
ENV_SOURCES = "mancala_sources"      # docname -> [source file]


def _catalogue_file() -> str:
    return str(resources.files("mancala_spec.catalogue").joinpath("catalogue.toml"))


def rule_anchor(rule_id: str) -> str:
    """The HTML anchor of a rendered rule: ``rule-<id>``."""
    return f"rule-{rule_id}"


# -- nodes --------------------------------------------------------------------------


class details(nodes.General, nodes.Element):
    """A ``<details>`` box in HTML (its first child is a :class:`summary`)."""


class summary(nodes.General, nodes.TextElement):
    """The ``<summary>`` line of a :class:`details` box."""


def _visit_details(self, node: details) -> None:
    self.body.append(self.starttag(node, "details", CLASS=" ".join(node["classes"])))


def _depart_details(self, node: details) -> None:
    self.body.append("</details>\n")


def _visit_summary(self, node: summary) -> None:
    self.body.append(self.starttag(node, "summary"))


def _depart_summary(self, node: summary) -> None:
    self.body.append("</summary>\n")


def _visit_pass(self, node: nodes.Node) -> None:
    pass


def _depart_pass(self, node: nodes.Node) -> None:
    pass


# -- building blocks ----------------------------------------------------------------


def rule_ref(rule_id: str, text: str | None = None) -> addnodes.pending_xref:
    """A link to a rendered rule, resolved when the pages are written."""
    ref = addnodes.pending_xref("", refdomain="", reftype=RULE_REF, reftarget=rule_id,
                                refexplicit=text is not None, refwarn=True)
    ref += nodes.literal(text=text or rule_id, classes=["xref", "rule-ref"])
    return ref


def source_line_ref(source: str, line: int, text: str) -> addnodes.pending_xref:
    """A link to one line of a source document on the sources page."""
    ref = addnodes.pending_xref("", refdomain="", reftype=SOURCE_LINE_REF,
                                reftarget=f"{source}:{line}", refexplicit=True, refwarn=True)
    ref += nodes.inline(text=text)
    return ref


def _rule_id_pattern() -> re.Pattern[str]:
    ids = sorted((rule.id for rule in load_catalogue()), key=len, reverse=True)
    return re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, ids)) + r")(?![\w-])")


def linked_text(text: str, classes: list[str] | None = None) -> nodes.paragraph:
    """A paragraph of *text* in which every rule ID links to its rule and
    text in double backticks (as the catalogue writes code) is shown as code."""
    para = nodes.paragraph(classes=classes or [])
    for index, piece in enumerate(re.split(r"``(.+?)``", text)):
        if index % 2:
            para += nodes.literal(text=piece)
            continue
        position = 0
        for match in _rule_id_pattern().finditer(piece):
            if match.start() > position:
                para += nodes.Text(piece[position:match.start()])
            para += rule_ref(match.group())
            position = match.end()
        if position < len(piece):
            para += nodes.Text(piece[position:])
    return para


def paragraphs(text: str, classes: list[str] | None = None) -> list[nodes.paragraph]:
    """One :func:`linked_text` paragraph per blank-line-separated block of *text*."""
    blocks = [" ".join(block.split()) for block in re.split(r"\n\s*\n", text.strip())]
    return [linked_text(block, classes) for block in blocks if block]


def badge(kind: str) -> nodes.inline:
    return nodes.inline(text=kind, classes=["rule-badge", f"rule-badge-{kind}"])


def offer_list(rule: Rule, offers) -> nodes.bullet_list:
    """A bullet per option value: the ``get_game(...)`` call that selects it and
    what it does."""
    items = nodes.bullet_list()
    for offer in offers:
        entry = nodes.paragraph()
        entry += game_call(rule.game, offer.option, offer.value)
        entry += nodes.Text(": ")
        entry += linked_text(" ".join(offer.description.split())).children
        items += nodes.list_item("", entry)
    return items


def game_call(game: str, option: str, value: Any) -> nodes.literal:
    """The call that selects *option* = *value*: a game option, or a match setting."""
    from ..engine.match import SETTINGS

    setting = f"{option}={value!r}"
    call = (f'ms.Match(ms.get_game("{game}"), {setting})' if option in SETTINGS
            else f'ms.get_game("{game}", {setting})')
    return nodes.literal(text=call, classes=["rule-option"])


def citation_quote(citation) -> nodes.block_quote:
    """A citation as a block quote: original, translation, attribution with line link."""
    document = SOURCES[citation.source]
    quote = nodes.block_quote(classes=["rule-citation"])
    quote += nodes.paragraph(text=citation.quote,
                             classes=["citation-original", f"language-{document.language_code}"])
    if citation.translation.strip() != citation.quote.strip():
        quote += nodes.paragraph(text=citation.translation,
                                 classes=["citation-translation", "language-en"])
    else:
        quote += nodes.paragraph(text="(in English in the source)",
                                 classes=["citation-translation", "citation-english"])
    attribution = nodes.attribution()
    attribution += nodes.Text(f"{document.title}, ")
    attribution += source_line_ref(citation.source, citation.line, f"line {citation.line}")
    quote += attribution
    return quote


def definition(term: str, body: list[nodes.Node]) -> nodes.definition_list_item:
    item = nodes.definition_list_item()
    item += nodes.term(text=term)
    item += nodes.definition("", *body)
    return item


def implementation_block(func, docname: str, env) -> details:
    """The source of one implementing function, with links to its API entry
    and to the full module (viewcode), in a ``<details>`` box."""
    source_file = inspect.getsourcefile(func)
    env.note_dependency(source_file)
    lines, start = inspect.getsourcelines(func)
    code = textwrap.dedent("".join(lines)).rstrip("\n")
    module, qualname = func.__module__, func.__qualname__
    relative = func.__module__.replace(".", "/") + ".py"
    box = details(classes=["rule-code"])
    head = summary()
    head += nodes.Text("Code: ")
    xref = addnodes.pending_xref("", refdomain="py",
                                 reftype="meth" if "." in qualname else "func",
                                 reftarget=f"{module}.{qualname}", refexplicit=False,
                                 refwarn=True)
    xref += nodes.literal(text=f"{qualname}()", classes=["xref", "py"])
    head += xref
    head += nodes.Text(f" in {relative}, lines {start}–{start + len(lines) - 1} ")
    head += viewcode_anchor(reftarget=f"_modules/{module.replace('.', '/')}", refid=qualname,
                            refdoc=docname)
    box += head
    block = nodes.literal_block(code, code, language="python", linenos=True,
                                classes=["rule-source"])
    block["highlight_args"] = {"linenostart": start}
    box += block
    return box


# -- directives ---------------------------------------------------------------------


class RuleDirective(SphinxDirective):
    """``{rule} <rule-id>``: one catalogue rule in full; the content holds its examples."""

    required_arguments = 1
    has_content = True
    option_spec: dict[str, Any] = {}

    def run(self) -> list[nodes.Node]:
        rule_id = self.arguments[0]
        catalogue = load_catalogue()
        self.env.note_dependency(_catalogue_file())
        if rule_id not in catalogue:
            logger.warning("unknown rule %r in {rule}: no catalogue rule has this ID", rule_id,
                           location=self.get_location(), type="mancala", subtype="rule")
            return []
        rule = catalogue[rule_id]
        anchor = rule_anchor(rule.id)
        block = nodes.container(classes=["rule", f"rule-{rule.kind}"])
        block["names"].append(anchor)
        self.state.document.note_explicit_target(block, block)
        block += self.header(rule, anchor)
        block += paragraphs(rule.statement, ["rule-statement"])
        if rule.sourced:
            block += self.sources_section(rule, "Sources")
        else:
            block += self.editorial_section(rule)
        if rule.forms:
            block += self.offers_section(rule, rule.forms, "Forms the source describes",
                                         "rule-forms")
        if rule.variants:
            block += self.offers_section(rule, rule.variants,
                                         "Variant, for comparison (departs from the source)",
                                         "rule-variants")
        block += self.code_section(rule)
        examples, ids = self.examples_section(rule)
        block += examples
        data = getattr(self.env, ENV_RULES, None)
        if data is None:
            data = {}
            setattr(self.env, ENV_RULES, data)
        data.setdefault(self.env.docname, []).append((rule.id, ids))
        return [block]

    def header(self, rule: Rule, anchor: str) -> nodes.paragraph:
        head = nodes.paragraph(classes=["rule-header"])
        head += nodes.strong(text=rule.title, classes=["rule-title"])
        head += nodes.Text(" ")
        link = nodes.reference("", "", internal=True, refid=anchor, classes=["rule-permalink"],
                               reftitle=f"Permalink to rule {rule.id}")
        link += nodes.literal(text=rule.id, classes=["rule-id"])
        head += link
        head += nodes.Text(" ")
        head += badge(rule.kind)
        return head

    def sources_section(self, rule: Rule, title: str) -> list[nodes.Node]:
        if not rule.citations:
            return []
        section = nodes.container(classes=["rule-sources"])
        section += nodes.rubric(text=title, classes=["rule-rubric"])
        for citation in rule.citations:
            section += citation_quote(citation)
        return [section]

    def editorial_section(self, rule: Rule) -> list[nodes.Node]:
        items = nodes.definition_list(classes=["rule-editorial"])
        items += definition("What the sources leave open", paragraphs(rule.gap))
        items += definition("Our default", paragraphs(rule.default))
        items += definition("Why", paragraphs(rule.rationale))
        if rule.alternatives:
            items += definition("Option that switches it", [offer_list(rule, rule.alternatives)])
        else:
            items += definition("Option that switches it",
                                [nodes.paragraph(text="None: the engine always applies the "
                                                      "default.")])
        out: list[nodes.Node] = [items]
        out += self.sources_section(rule, "The passages in question")
        return out

    def offers_section(self, rule: Rule, offers, title: str, css: str) -> list[nodes.Node]:
        """Forms the source describes, or variants that depart from it, as options."""
        section = nodes.container(classes=[css])
        section += nodes.rubric(text=title, classes=["rule-rubric"])
        section += offer_list(rule, offers)
        return [section]

    def code_section(self, rule: Rule) -> list[nodes.Node]:
        functions = rule.implementations
        section = nodes.container(classes=["rule-implementation"])
        section += nodes.rubric(text="Implementation", classes=["rule-rubric"])
        if not functions:
            section += nodes.paragraph(text="No engine function declares this rule.")
        for func in functions:
            section += implementation_block(func, self.env.docname, self.env)
        return [section]

    def examples_section(self, rule: Rule) -> tuple[list[nodes.Node], list[str | None]]:
        section = nodes.container(classes=["rule-examples"])
        section += nodes.rubric(text="Examples", classes=["rule-rubric"])
        body = nodes.container()
        if self.content:
            self.state.nested_parse(self.content, self.content_offset, body)
        ids: list[str | None] = []
        for block in list(body.findall(nodes.literal_block)):
            if block.get("testnodetype") != "doctest":
                continue
            groups = block.get("groups", ["default"])
            example = groups[0] if groups and groups[0] != "default" else None
            ids.append(example)
            if example:
                caption = nodes.paragraph(classes=["example-caption"])
                caption["ids"].append(f"example-{example}")
                link = nodes.reference("", "", internal=True, refid=f"example-{example}",
                                       reftitle=f"Permalink to example {example}")
                link += nodes.Text("Example ")
                link += nodes.literal(text=example)
                caption += link
                block.parent.insert(block.parent.index(block), caption)
        if not ids:
            section += nodes.paragraph(text="No example yet.")
        section += body.children
        return [section], ids


class RuleSummaryDirective(SphinxDirective):
    """``{rule-summary} <rule-id>``: title, badge, statement, and a link to the rule."""

    required_arguments = 1
    has_content = False

    def run(self) -> list[nodes.Node]:
        self.env.note_dependency(_catalogue_file())
        catalogue = load_catalogue()
        rule_id = self.arguments[0]
        if rule_id not in catalogue:
            logger.warning("unknown rule %r in {rule-summary}", rule_id,
                           location=self.get_location(), type="mancala", subtype="rule")
            return []
        rule = catalogue[rule_id]
        box = nodes.container(classes=["rule-summary", f"rule-{rule.kind}"])
        head = nodes.paragraph(classes=["rule-header"])
        head += nodes.strong(text=rule.title, classes=["rule-title"])
        head += nodes.Text(" ")
        head += rule_ref(rule.id)
        head += nodes.Text(" ")
        head += badge(rule.kind)
        box += head
        box += paragraphs(rule.statement, ["rule-statement"])
        more = nodes.paragraph(classes=["rule-more"])
        more += nodes.Text("Gap, rationale, options, code and examples: "
                           if not rule.sourced else "Sources, code and examples: ")
        more += rule_ref(rule.id, f"{rule.id} in full")
        box += more
        return [box]


class SourceDocumentDirective(SphinxDirective):
    """``{source-document} <file>``: a source document, every line anchored and accounted for."""

    required_arguments = 1
    has_content = False

    def run(self) -> list[nodes.Node]:
        source = self.arguments[0]
        if source not in SOURCES:
            logger.warning("unknown source document %r; known: %s", source,
                           ", ".join(sorted(SOURCES)), location=self.get_location(),
                           type="mancala", subtype="source")
            return []
        document = SOURCES[source]
        self.env.note_dependency(_catalogue_file())
        self.env.note_dependency(str(resources.files("mancala_spec.sources").joinpath(source)))
        data = getattr(self.env, ENV_SOURCES, None)
        if data is None:
            data = {}
            setattr(self.env, ENV_SOURCES, data)
        data.setdefault(self.env.docname, []).append(source)

        out = nodes.container(classes=["source-document"])
        about = nodes.paragraph(classes=["source-about"])
        about += nodes.literal(text=source)
        about += nodes.Text(f" — {document.title}: {document.game} rules in {document.language}. "
                            "Quoted material from Mancala World, CC BY-SA; shown byte for byte, "
                            "one line per row. Quoted spans are marked.")
        out += about
        lines = nodes.container(classes=["source-lines"])
        for line in source_map(source):
            row = nodes.container(classes=["source-line",
                                           "source-line-cited" if line.rules else
                                           "source-line-context"])
            row["ids"].append(line.anchor)
            number = nodes.paragraph(classes=["source-lineno"])
            link = nodes.reference("", "", internal=True, refid=line.anchor,
                                   reftitle=f"Permalink to {source} line {line.number}")
            link += nodes.Text(str(line.number))
            number += link
            row += number
            text = nodes.paragraph(classes=["source-text", f"language-{document.language_code}"])
            position = 0
            for start, end in line.quotes:
                if start > position:
                    text += nodes.Text(line.text[position:start])
                text += nodes.inline(text=line.text[start:end], classes=["source-quoted"])
                position = end
            if position < len(line.text):
                text += nodes.Text(line.text[position:])
            row += text
            note = nodes.paragraph(classes=["source-note"])
            if line.rules:
                note += nodes.Text("cited by ")
                for index, rule_id in enumerate(line.rules):
                    if index:
                        note += nodes.Text(", ")
                    note += rule_ref(rule_id)
            elif line.context:
                note += nodes.inline(text="deferred" if line.context.deferred else "context",
                                     classes=["rule-badge", "rule-badge-context"])
                note += nodes.Text(" ")
                note += linked_text(" ".join(line.context.reason.split())).children
            else:
                note += nodes.inline(text="not accounted for",
                                     classes=["rule-badge", "rule-badge-missing"])
            row += note
            lines += row
        out += lines
        return [out]


class RuleIndexDirective(SphinxDirective):
    """``{rule-index}``: a table of every catalogue rule with a link to it."""

    has_content = False
    option_spec = {"game": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        self.env.note_dependency(_catalogue_file())
        game = self.options.get("game")
        rules = [rule for rule in load_catalogue() if game is None or rule.game == game]
        return [table(["Rule", "Title", "Kind", "Engine options"],
                      [[[rule_ref(rule.id)], [nodes.Text(rule.title)], [badge(rule.kind)],
                        [_join([nodes.literal(text=o) for o in rule.options]) or
                         nodes.Text("—")]]
                       for rule in rules], classes=["rule-index"])]


class OptionsTableDirective(SphinxDirective):
    """``{options-table}``: every engine option, its values and the rule it switches."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        from ..engine.games import GAMES

        self.env.note_dependency(inspect.getsourcefile(GAMES["ba-awa"]))
        self.env.note_dependency(inspect.getsourcefile(GAMES["bakuk"]))
        rows = []
        for cls in GAMES.values():
            for option in cls.OPTIONS:
                others = [c for c in option.choices if c != option.default
                          or type(c) is not type(option.default)]
                rows.append([[nodes.Text(cls.title)], [nodes.literal(text=option.name)],
                             [nodes.literal(text=repr(option.default))],
                             [_join([nodes.literal(text=repr(c)) for c in others])],
                             [rule_ref(option.rule)]])
        return [table(["Game", "Option", "Default", "Alternative", "Rule"], rows,
                      classes=["options-table"])]


def _join(items: list[nodes.Node], sep: str = ", ") -> nodes.inline | None:
    if not items:
        return None
    out = nodes.inline()
    for index, item in enumerate(items):
        if index:
            out += nodes.Text(sep)
        out += item
    return out


def table(header: list[str], rows: list[list[list[nodes.Node]]],
          classes: list[str] | None = None) -> nodes.table:
    """A simple docutils table; each cell is a list of inline nodes."""
    tbl = nodes.table(classes=classes or [])
    group = nodes.tgroup(cols=len(header))
    tbl += group
    for _ in header:
        group += nodes.colspec(colwidth=1)
    thead = nodes.thead()
    group += thead
    head_row = nodes.row()
    for title in header:
        head_row += nodes.entry("", nodes.paragraph(text=title))
    thead += head_row
    body = nodes.tbody()
    group += body
    for cells in rows:
        row = nodes.row()
        for cell in cells:
            para = nodes.paragraph()
            para += [c for c in cell if c is not None]
            row += nodes.entry("", para)
        body += row
    return tbl


# -- roles and reference resolution ------------------------------------------------------


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
    app.add_node(details, html=(_visit_details, _depart_details),
                 latex=(_visit_pass, _depart_pass), text=(_visit_pass, _depart_pass),
                 man=(_visit_pass, _depart_pass), texinfo=(_visit_pass, _depart_pass))
    app.add_node(summary, html=(_visit_summary, _depart_summary),
                 latex=(_visit_pass, _depart_pass), text=(_visit_pass, _depart_pass),
                 man=(_visit_pass, _depart_pass), texinfo=(_visit_pass, _depart_pass))
    app.add_directive("rule", RuleDirective)
    app.add_directive("rule-summary", RuleSummaryDirective)
    app.add_directive("source-document", SourceDocumentDirective)
    app.add_directive("rule-index", RuleIndexDirective)
    app.add_directive("options-table", OptionsTableDirective)
    app.add_role(RULE_REF, RuleRefRole(innernodeclass=nodes.literal, warn_dangling=True))
    app.add_role(SOURCE_LINE_REF, RuleRefRole(innernodeclass=nodes.inline, warn_dangling=True))
    app.connect("doctree-read", collect_examples)
    app.connect("env-purge-doc", purge)
    app.connect("env-merge-info", merge)
    app.connect("missing-reference", resolve_reference)
    app.connect("build-finished", check_site)
    app.connect("viewcode-follow-imported", viewcode_follow_property)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True,
            "env_version": 1}
