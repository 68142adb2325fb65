"""Prose that says what the sources say, taken from the catalogue.

``{claim}`<rule-id>:<n>``` renders the *n*-th claim of a rule (1-based) as the
catalogue states it, marked by its basis and linked to its rule, so a page that
sums up the rules in prose (the match page, say) says exactly what the rule says
and changes when the rule does. ``{context}`<file>:<line>``` renders the reason a
catalogue context line gives for a source line (what the line says, in our
words), linked to that line on the sources page.

The prose check (``tests/test_prose.py``) accepts a sentence about the sources
only if it comes from the catalogue this way or cites it.
"""
from __future__ import annotations

from typing import Any

from docutils import nodes
from sphinx.application import Sphinx

from ..catalogue import load_catalogue
from .rule_nodes import catalogue_file, rule_ref, source_line_ref


def _error(inliner, rawtext: str, lineno: int, message: str):
    problem = inliner.reporter.error(message, line=lineno)
    return [inliner.problematic(rawtext, rawtext, problem)], [problem]


def claim_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    """``{claim}`<rule-id>:<n>```: the rule's *n*-th claim, its basis, a link."""
    rule_id, _, number = text.strip().rpartition(":")
    catalogue = load_catalogue()
    if rule_id not in catalogue or not number.isdigit():
        return _error(inliner, rawtext, lineno, f"{{claim}} needs <rule-id>:<n>, not {text!r}")
    rule = catalogue[rule_id]
    if not 1 <= int(number) <= len(rule.claims):
        return _error(inliner, rawtext, lineno,
                      f"{rule_id} has {len(rule.claims)} claims, not a claim {number}")
    inliner.document.settings.env.note_dependency(catalogue_file())
    claim = rule.claims[int(number) - 1]
    out = nodes.inline(classes=["prose-claim", f"claim-{claim.basis}"])
    out += nodes.Text(claim.text.replace("``", "") + " (")
    out += nodes.inline(text=claim.basis, classes=["claim-basis", f"claim-basis-{claim.basis}"])
    out += nodes.Text(": ")
    out += rule_ref(rule_id)
    out += nodes.Text(")")
    return [out], []


def context_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    """``{context}`<file>:<line>```: what a context line says, in our words, linked."""
    source, _, line = text.strip().rpartition(":")
    entry = next((c for c in load_catalogue().context
                  if c.source == source and str(c.line) == line), None)
    if entry is None:
        return _error(inliner, rawtext, lineno, f"no context entry for {text!r}")
    inliner.document.settings.env.note_dependency(catalogue_file())
    out = nodes.inline(classes=["prose-context"])
    out += nodes.Text(" ".join(entry.reason.split()) + " (")
    out += source_line_ref(source, entry.line, f"{source} line {entry.line}")
    out += nodes.Text(")")
    return [out], []


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_role("claim", claim_role)
    app.add_role("context", context_role)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
