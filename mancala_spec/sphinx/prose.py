"""Prose that says what the sources say, taken from the catalogue.

``{claim}`<rule-id>:<n>``` renders the *n*-th claim of a rule (1-based) as the
catalogue states it, marked by its basis and linked to its rule, so a page that
sums up the rules in prose (the match page, say) says exactly what the rule says
and changes when the rule does. ``{context}`<file>:<line>``` renders the reason a
catalogue context line gives for a source line (what the line says, in our
words), linked to that line on the sources page. ``{program-rules}`<program>:<game>```
says what another program's rules of a game come from by the program's own account
(``follows`` in rulesets.toml), linked to the program's file and line at the commit
read: a program is a secondary source of itself, never of the game.

The prose check (``tests/catalogue/test_prose.py``) accepts a sentence about the sources
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
    body, basis, end = claim_sentence(rule_id, int(number))
    out = nodes.inline(classes=["prose-claim", f"claim-{claim.basis}"])
    out += nodes.Text(body + " (")
    out += nodes.inline(text=basis, classes=["claim-basis", f"claim-basis-{claim.basis}"])
    out += nodes.Text(": ")
    out += rule_ref(rule_id)
    out += nodes.Text(")" + end)
    return [out], []


def claim_sentence(rule_id: str, number: int) -> tuple[str, str, str]:
    """The *number*-th claim of rule *rule_id* as the ``{claim}`` role writes it: one
    whole sentence, its basis and rule in parentheses before its full stop, so that a
    page puts it where a sentence starts (tests/catalogue/test_compositions.py checks every use).
    Returns (the sentence without its full stop, the basis, the full stop).

    >>> body, basis, end = claim_sentence("ba-awa-three-turns", 3)
    >>> print(f"{body} ({basis}: ba-awa-three-turns){end}")  # doctest: +NORMALIZE_WHITESPACE
    Every other rule is the two-player rule, with "the next player" read in this order
    (editorial: ba-awa-three-turns).
    """
    claim = load_catalogue()[rule_id].claims[number - 1]
    text = " ".join(claim.text.replace("``", "").split())
    end = text[-1] if text[-1] in ".!?" else "."
    return text.rstrip(".!?"), claim.basis, end


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


def program_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    """``{program-rules}`<program>:<game>```: what the program says its rules come
    from, linked."""
    from ..catalogue.pdf import GAME_TITLES
    from ..catalogue.ruleset_records import programs

    key, _, game = text.strip().partition(":")
    program = programs().get(key)
    if program is None or game not in GAME_TITLES:
        return _error(inliner, rawtext, lineno,
                      f"{{program-rules}} needs <program>:<game>, not {text!r}")
    out = nodes.inline(classes=["prose-program"])
    sentence = program.implements(game, GAME_TITLES[game])
    follows = next((f for f in program.follows if f.game == game), None)
    if follows is None:
        out += nodes.Text(sentence)
        return [out], []
    head, _, _ = sentence.partition(f" as its file {follows.where.partition(':')[0]}")
    out += nodes.Text(head + " as ")
    link = nodes.reference("", "", refuri=program.link(follows.where), internal=False)
    link += nodes.Text(f"its file {follows.where.partition(':')[0]} (line "
                       f"{follows.where.partition(':')[2]})")
    out += link
    out += nodes.Text(" cites it.")
    return [out], []


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_role("program-rules", program_role)
    app.add_role("claim", claim_role)
    app.add_role("context", context_role)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
