"""The ``{rule}`` and ``{rule-summary}`` directives: one catalogue rule in full —
its claims, each marked by its basis, its quotes, options, code, examples and a
copy-ready citation — or in short."""
from __future__ import annotations

from pathlib import Path

from docutils import nodes
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

from ..catalogue import Rule, load_catalogue
from ..catalogue.registry import old_ids
from .rule_cite import citation_box
from .rule_domain import note_rule
from .rule_nodes import (
    basis_mark,
    catalogue_file,
    citation_quote,
    definition,
    game_call,
    glossary_terms,
    implementation_block,
    linked_text,
    offer_list,
    paragraphs,
    rule_anchor,
    rule_badge,
    rule_ref,
)

logger = logging.getLogger(__name__)
ENV_RULES = "mancala_rules"          # docname -> [(rule_id, [example ids])]


def statement_terms(directive: SphinxDirective) -> tuple[str, ...]:
    """The glossary's terms, which a rule's claims link to (the glossary page,
    ``glossary.md`` beside the rules pages, is then a dependency of the page)."""
    glossary = Path(directive.env.srcdir) / "glossary.md"
    if not glossary.exists():
        return ()
    directive.env.note_dependency(str(glossary))
    return glossary_terms(glossary.read_text(encoding="utf-8"))


class RuleDirective(SphinxDirective):
    """``{rule} <rule-id>``: one catalogue rule in full; the content holds its examples."""

    required_arguments = 1
    has_content = True
    option_spec = {}

    def run(self) -> list[nodes.Node]:
        rule_id = self.arguments[0]
        catalogue = load_catalogue()
        self.env.note_dependency(catalogue_file())
        if rule_id not in catalogue:
            logger.warning("unknown rule %r in {rule}: no catalogue rule has this ID", rule_id,
                           location=self.get_location(), type="mancala", subtype="rule")
            return []
        rule = catalogue[rule_id]
        anchor = rule_anchor(rule.id)
        block = nodes.container(classes=["rule", f"rule-{rule.kind}"])
        block["names"].append(anchor)
        self.state.document.note_explicit_target(block, block)
        note_rule(self.env, rule.id, anchor, location=self.get_location())
        for old in old_ids(rule.id):      # renamed or withdrawn IDs land here
            block["ids"].append(rule_anchor(old))
            note_rule(self.env, old, rule_anchor(old), location=self.get_location())
        block += self.header(rule, anchor)
        block += self.claims_section(rule)
        if rule.note:
            block += paragraphs(rule.note, ["rule-note"])
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
        block += citation_box(rule, self.config.release, self.config.mancala_base_url)
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
        head += rule_badge(rule)
        return head

    def claims_section(self, rule: Rule) -> list[nodes.Node]:
        """The rule's claims, each marked by its basis, with the numbers of the
        quotes it rests on; a reading says why and the other reading, an
        editorial claim its alternatives and option."""
        numbers = {id(c): n for n, c in enumerate(rule.citations, start=1)}
        items = nodes.bullet_list(classes=["rule-claims"])
        for claim in rule.claims:
            item = nodes.list_item(classes=["rule-claim", f"rule-claim-{claim.basis}"])
            para = nodes.paragraph(classes=["rule-statement"])
            para += basis_mark(claim.basis)
            para += nodes.Text(" ")
            para += linked_text(claim.text, terms=statement_terms(self)).children
            for index, citation in enumerate(claim.citations):
                number = numbers[id(citation)]
                para += nodes.Text(" [" if index == 0 else ", ")
                para += nodes.reference("", str(number), internal=True,
                                        refid=f"{rule_anchor(rule.id)}-q{number}",
                                        classes=["claim-cite"])
            if claim.citations:
                para += nodes.Text("]")
            item += para
            details = nodes.definition_list(classes=["claim-details"])
            if claim.basis == "reading":
                details += definition("Why we read it so", [linked_text(claim.why)])
                details += definition("The other reading", [linked_text(claim.other)])
            if claim.basis in ("editorial", "reading"):   # a reading may have an option too
                if claim.alternatives:
                    details += definition("Alternatives", [linked_text(claim.alternatives)])
                if claim.option:
                    offers = [a for a in rule.alternatives + rule.forms + rule.variants
                              if a.option == claim.option]
                    option = nodes.paragraph()
                    option += nodes.Text("Switched by the option ")
                    option += nodes.literal(text=claim.option)
                    option += nodes.Text(": ")
                    for index, offer in enumerate(offers):
                        if index:
                            option += nodes.Text(", ")
                        option += game_call(rule.game, offer.option, offer.value)
                    details += definition("Option", [option])
            if details.children:
                item += details
            items += item
        section = nodes.container(classes=["rule-claims-section"])
        section += items
        return [section]

    def sources_section(self, rule: Rule, title: str) -> list[nodes.Node]:
        if not rule.citations:
            return []
        section = nodes.container(classes=["rule-sources"])
        section += nodes.rubric(text=title, classes=["rule-rubric"])
        for number, citation in enumerate(rule.citations, start=1):
            section += citation_quote(citation, f"[{number}]",
                                      [f"{rule_anchor(rule.id)}-q{number}"])
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
            section += implementation_block(func, self.env.docname, self.env, rule.id)
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
        self.env.note_dependency(catalogue_file())
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
        head += rule_badge(rule)
        box += head
        for claim in rule.claims:
            para = nodes.paragraph(classes=["rule-statement", f"rule-claim-{claim.basis}"])
            para += basis_mark(claim.basis)
            para += nodes.Text(" ")
            para += linked_text(claim.text, terms=statement_terms(self)).children
            box += para
        more = nodes.paragraph(classes=["rule-more"])
        more += nodes.Text("Gap, rationale, options, code and examples: "
                           if not rule.sourced else "Sources, code and examples: ")
        more += rule_ref(rule.id, f"{rule.id} in full")
        box += more
        return [box]


