"""One badge for each rule, everywhere (issue 43, item 3).

What backs a rule is worded once, by :attr:`mancala_spec.catalogue.Rule.badge`
("sourced" only when every claim is a source claim; "sourced, with a reading",
"editorial, with a sourced claim" ...). The site, ``mancala-spec rules`` (the list
and one rule), the PDF edition, the JSON export and the citations show that
wording. (``mancala-spec rules`` listed twelve rules that hold readings or editorial
claims as plain "sourced": it printed the rule's kind.)
"""
from __future__ import annotations

import json
import re
from pathlib import Path

from mancala_spec.catalogue import load_catalogue
from mancala_spec.catalogue.cite import citation_csl, citation_text, rule_data
from mancala_spec.cli import main

ROOT = Path(__file__).resolve().parents[2]
RULES = list(load_catalogue())
MIXED = [rule for rule in RULES if rule.badge != rule.kind]


def test_a_rule_is_sourced_only_when_every_claim_is():
    for rule in RULES:
        assert (rule.badge == "sourced") == all(c.basis == "source" for c in rule.claims), rule.id
    assert any(rule.kind == "sourced" for rule in MIXED)      # the case the list got wrong


def test_the_command_lists_each_rule_with_its_badge(capsys):
    assert main(["rules"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(RULES)
    for rule, line in zip(RULES, lines, strict=True):
        assert line.split()[0] == rule.id and line.endswith(f"({rule.badge})"), line
    for rule in MIXED:
        assert main(["rules", rule.id]) == 0
        assert capsys.readouterr().out.splitlines()[0].endswith(f"({rule.badge})")


def test_the_json_export_and_the_citations_carry_the_badge(capsys):
    for rule in RULES:
        assert rule_data(rule)["badge"] == rule.badge
        assert f"[{rule.badge}]" in citation_text(rule, base="")
        assert citation_csl(rule, base="")["note"].startswith(f"Basis: {rule.badge}")
    rule = MIXED[0]
    assert main(["rules", rule.id, "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["badge"] == rule.badge


def test_no_surface_words_a_rule_by_its_kind():
    """Nothing shown to a reader formats ``rule.kind`` as text (it may choose a
    colour or a CSS class); each shows ``rule.badge``."""
    shown = re.compile(r"\{rule\.kind(?:[:!][^}]*)?\}(?![\w-]*\")")
    for path in [*sorted((ROOT / "mancala_spec" / "cli").glob("*.py")),
                 ROOT / "mancala_spec" / "catalogue" / "pdf.py",
                 ROOT / "mancala_spec" / "catalogue" / "cite.py",
                 *sorted((ROOT / "mancala_spec" / "sphinx").glob("*.py"))]:
        for number, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            if shown.search(line) and "classes" not in line:
                raise AssertionError(f"{path.name}:{number}: {line.strip()}")
    assert "Basis: {rule.badge}" in (ROOT / "mancala_spec" / "catalogue" / "pdf.py").read_text()


def test_the_site_badge_is_the_rules_badge():
    from mancala_spec.sphinx.rule_nodes import rule_badge

    for rule in RULES:
        node = rule_badge(rule)
        assert node.astext() == rule.badge
        assert f"rule-badge-{rule.kind}" in node["classes"]
        assert ("rule-badge-mixed" in node["classes"]) == (rule in MIXED)
