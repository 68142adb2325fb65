"""The traceability check (mancala_spec/traceability.py), on the real pages and on
sites broken on purpose.

The real pages are read as text with scan_docs(), the same extractor the site
tests compare with what the Sphinx build collected (tests/site/test_site.py).
"""
from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from mancala_spec.catalogue import Catalogue, load_catalogue
from mancala_spec.catalogue.traceability import (
    Rendered,
    check,
    scan_docs,
    scan_markdown,
    source_line_anchor,
    source_map,
)
from mancala_spec.conformance.worked_examples import extract_examples
from mancala_spec.sources import SOURCES, source_lines

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
CATALOGUE = load_catalogue()
TOTAL_LINES = sum(len(source_lines(source)) for source in SOURCES)


@pytest.fixture(scope="module")
def site() -> Rendered:
    return scan_docs(DOCS)


def copy(rendered: Rendered) -> Rendered:
    return Rendered().merge(rendered)


# -- the real site --------------------------------------------------------------------


def test_the_pages_pass_the_check(site):
    report = check(rendered=site)
    assert report.ok, "\n".join(report.problems)
    assert report.rules == report.rendered_once == len(CATALOGUE)
    assert report.with_code == report.with_examples == len(CATALOGUE)
    assert report.source_lines == TOTAL_LINES == 78
    assert report.lines_accounted == TOTAL_LINES
    assert report.percent == 100.0


def test_summary_is_one_line_and_reports_everything(site):
    summary = check(rendered=site).summary()
    n = len(CATALOGUE)
    sourced = sum(rule.sourced for rule in CATALOGUE)
    assert "\n" not in summary
    assert summary.startswith(f"traceability: {n}/{n} rules rendered once "
                              f"({sourced} sourced, {n - sourced} editorial)")
    assert f"code {n}/{n}" in summary and f"examples {n}/{n}" in summary
    assert "source lines 78/78 accounted for" in summary and "= 100%" in summary
    assert summary.endswith("; 0 problems")


def test_every_rule_is_on_one_page_and_the_pages_keep_to_their_kind(site):
    pages = {rule.id: site.rules[rule.id] for rule in CATALOGUE}
    assert all(len(docs) == 1 for docs in pages.values()), pages
    for rule in CATALOGUE:
        (page,) = pages[rule.id]
        assert (DOCS / f"{page}.md").is_file()
        # the game pages hold that game's sourced rules; the editorial page only
        # editorial completions
        if page in ("ba-awa", "bakuk"):
            assert rule.game == page and rule.sourced, rule.id
        if page == "editorial":
            assert not rule.sourced, rule.id


def test_every_example_id_is_unique_and_named(site):
    ids = [example for example, _ in site.all_examples]
    assert None not in ids
    assert len(ids) == len(set(ids))
    for rule_id, examples in site.examples.items():
        assert all(re.fullmatch(re.escape(rule_id) + r"-\d+", e) for e in examples), examples


def test_every_example_is_self_contained():
    """Each example block imports what it uses, so it runs alone in the Sphinx
    doctest builder (one namespace per group) as well as in pytest (one per file
    for a ``{doctest}`` block, one per example for an ``{example}``)."""
    fence = re.compile(r"^(`{3,})\{doctest\} (\S+)\n(.*?)^\1\s*$", re.S | re.M)
    blocks = [(m[2], m[3]) for path in DOCS.glob("*.md")
              for m in fence.finditer(path.read_text(encoding="utf-8"))]
    assert len(blocks) >= 5
    for example, body in blocks:
        # the package, or a module of it
        assert re.search(r"^>>> (import|from) mancala_spec\b", body, re.M), example
        if re.search(r"\bms\.", body):
            assert ">>> import mancala_spec as ms" in body, example
        assert body.endswith("\n\n"), f"{example}: leave a blank line before the closing fence"
    worked = extract_examples(DOCS)
    assert len(worked) >= 50
    for example in worked:
        assert example.doctest().startswith(">>> import mancala_spec as ms\n"), example.id


# -- sites broken on purpose --------------------------------------------------------------


def problems(rendered: Rendered | None = None, **kwargs) -> list[str]:
    return check(rendered=rendered, **kwargs).problems


def test_missing_rule_is_reported(site):
    broken = copy(site)
    del broken.rules["ba-awa-relay"]
    assert "rule ba-awa-relay is not rendered on any page" in problems(broken)


def test_rule_rendered_twice_is_reported(site):
    broken = copy(site)
    broken.add_rule("bakuk-chain", "index", ["bakuk-chain-9"])
    assert any(p.startswith("rule bakuk-chain is rendered 2 times") for p in problems(broken))


def test_unknown_rule_is_reported(site):
    broken = copy(site)
    broken.add_rule("bakuk-sixes", "bakuk", [])
    assert "page bakuk renders unknown rule 'bakuk-sixes'" in problems(broken)


def test_rule_without_example_is_reported(site):
    broken = copy(site)
    broken.examples["bakuk-sow"] = []
    found = problems(broken)
    assert any(p.startswith("rule bakuk-sow has no example") for p in found), found
    assert check(rendered=broken).with_examples == len(CATALOGUE) - 1


def test_example_without_id_or_misnamed_or_reused_is_reported(site):
    broken = copy(site)
    broken.add_example(None, "notation")
    broken.add_example("ba-awa-relay-1", "index")
    broken.examples["bakuk-sow"].append("ba-awa-sow-7")
    found = problems(broken)
    assert "page notation has an example without an ID (write ```{doctest} <example-id>)" in found
    assert "example ID ba-awa-relay-1 is used twice (on ba-awa and index)" in found
    assert "example ba-awa-sow-7 in rule bakuk-sow must be named bakuk-sow-<n>" in found


def test_rule_without_code_is_reported(site):
    implementations = {rule.id: rule.implementations for rule in CATALOGUE}
    implementations["bakuk-draw"] = ()
    found = problems(site, implementations=implementations)
    assert found == ["rule bakuk-draw has no implementing code "
                     "(no function declares @implements('bakuk-draw'))"]


def test_code_claiming_an_unknown_rule_is_reported(site):
    found = problems(site, unknown_claims={"ba-awa-sixes": ["BaAwa.sow_lap"]})
    assert found == ["code claims unknown rule 'ba-awa-sixes': BaAwa.sow_lap"]


def test_sourced_rule_without_citation_and_editorial_without_rationale(site):
    rules = []
    for rule in CATALOGUE:
        if rule.id == "bakuk-capture":
            rule = dataclasses.replace(rule, citations=())
        if rule.id == "bakuk-draw":
            rule = dataclasses.replace(rule, rationale="  ")
        rules.append(rule)
    broken = Catalogue(tuple(rules), CATALOGUE.context)
    found = problems(site, catalogue=broken)
    assert "sourced rule bakuk-capture has no citation" in found
    assert "editorial rule bakuk-draw has no rationale" in found


def test_source_line_neither_cited_nor_context_is_reported(site):
    context = tuple(c for c in CATALOGUE.context
                    if (c.source, c.line) != ("001_1132cff477fa5791.txt", 4))
    broken = Catalogue(CATALOGUE.rules, context)
    report = check(broken, site)
    assert len(report.problems) == 1
    assert report.problems[0].startswith(
        "001_1132cff477fa5791.txt line 4 is neither cited by a rule nor marked as context")
    assert report.lines_accounted == TOTAL_LINES - 1 and report.percent < 100


def test_context_without_reason_is_not_accounted_for(site):
    context = tuple(dataclasses.replace(c, reason=" ") if c.line == 1 else c
                    for c in CATALOGUE.context)
    report = check(Catalogue(CATALOGUE.rules, context), site)
    assert report.lines_context == len(CATALOGUE.context) - len(SOURCES)
    assert len(report.problems) == len(SOURCES)


def test_line_both_cited_and_context_is_reported(site):
    line_15 = dataclasses.replace(CATALOGUE.context[0], line=15)
    broken = Catalogue(CATALOGUE.rules, CATALOGUE.context + (line_15,))
    assert any(p.startswith("000_772c55c4feba1a9c.txt line 15 is both cited")
               for p in problems(site, catalogue=broken))


def test_source_document_shown_once(site):
    broken = copy(site)
    broken.sources["001_1132cff477fa5791.txt"] = []
    broken.add_source("000_772c55c4feba1a9c.txt", "index")
    found = problems(broken)
    assert any(p.startswith("source 001_1132cff477fa5791.txt is shown 0 times") for p in found)
    assert any(p.startswith("source 000_772c55c4feba1a9c.txt is shown 2 times") for p in found)


def test_an_empty_site_fails_every_rule():
    report = check(rendered=Rendered())
    assert not report.ok
    assert report.rendered_once == 0
    assert sum("is not rendered on any page" in p for p in report.problems) == len(CATALOGUE)


# -- the Markdown extractor ---------------------------------------------------------------


def test_scan_nested_and_alternative_fences():
    text = "\n".join([
        "# Page",
        ":::{rule} ba-awa-sow",
        "~~~{doctest} ba-awa-sow-1",
        ">>> 1",
        "1",
        "",
        "~~~",
        ":::",
        "`````{rule} ba-awa-relay",
        "Prose with ```inline``` code.",
        "````{doctest} ba-awa-relay-1",
        "```",
        "not a fence closer: shorter than the opener",
        "````",
        "`````",
        "````markdown",
        "```{rule} ba-awa-eight",
        "```",
        "````",
        "```{source-document} 000_772c55c4feba1a9c.txt",
        "```",
        "```{doctest} notation-9",
        ">>> 2",
        "2",
        "",
        "```",
    ])
    r = scan_markdown(text, "page")
    assert r.rules == {"ba-awa-sow": ["page"], "ba-awa-relay": ["page"]}
    assert r.examples == {"ba-awa-sow": ["ba-awa-sow-1"], "ba-awa-relay": ["ba-awa-relay-1"]}
    assert r.all_examples == [("ba-awa-sow-1", "page"), ("ba-awa-relay-1", "page"),
                              ("notation-9", "page")]
    assert r.sources == {"000_772c55c4feba1a9c.txt": ["page"]}


def test_scan_unclosed_rule_runs_to_the_end():
    r = scan_markdown("````{rule} bakuk-sow\n```{doctest} bakuk-sow-1\n>>> 1\n1\n```\n", "p")
    assert r.rules == {"bakuk-sow": ["p"]} and r.examples == {"bakuk-sow": ["bakuk-sow-1"]}


def test_scan_docs_skips_generated_folders(tmp_path):
    (tmp_path / "auto_examples").mkdir()
    (tmp_path / "auto_examples" / "x.md").write_text("```{rule} ba-awa-sow\n```\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "y.md").write_text("```{rule} ba-awa-sow\n```\n")
    assert scan_docs(tmp_path).rules == {"ba-awa-sow": ["sub/y"]}


# -- source lines ----------------------------------------------------------------------------


@pytest.mark.parametrize("source", sorted(SOURCES))
def test_source_map_marks_exactly_the_quotes(source):
    lines = source_map(source)
    assert [line.number for line in lines] == list(range(1, len(source_lines(source)) + 1))
    quotes = {(rule.id, c.quote) for rule in CATALOGUE for c in rule.citations
              if c.source == source}
    for line in lines:
        assert line.anchor == source_line_anchor(source, line.number)
        assert line.accounted
        assert bool(line.rules) != bool(line.context), line.number
        marked = "".join(line.text[a:b] for a, b in line.quotes)
        for rule_id, quote in quotes:
            if quote in line.text:
                assert rule_id in line.rules
                assert any(quote in line.text[a:b] for a, b in line.quotes), quote
        assert len(marked) <= len(line.text)
        starts = [a for a, _ in line.quotes]
        assert starts == sorted(starts)
        assert all(b1 < a2 for (_, b1), (a2, _) in zip(line.quotes, line.quotes[1:]))
