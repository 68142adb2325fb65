"""Citable rules (issue 12, section 3) and stable IDs (section 4), without a site
build: permalinks, the three citation forms, ``rules --format json``, ``cite``,
the registry of rule IDs and the changelog it checks."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import mancala_spec as ms
from mancala_spec.catalogue import cite, load_catalogue, registry
from mancala_spec.catalogue.traceability import scan_docs
from mancala_spec.cli import main

ROOT = Path(__file__).resolve().parent.parent


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_rule_page_is_the_page_that_renders_the_rule():
    rendered = scan_docs(ROOT / "docs")
    for rule in load_catalogue():
        assert rendered.rules[rule.id] == [cite.rule_page(rule)], rule.id


def test_permalink_is_absolute_versioned_and_configurable(monkeypatch):
    rule = ms.get_rule("ba-awa-relay")
    assert cite.permalink(rule) == \
        f"{cite.BASE_URL}/{ms.__version__}/ba-awa.html#rule-ba-awa-relay"
    monkeypatch.setenv("MANCALA_SPEC_BASE_URL", "https://mirror.example/rules/")
    assert cite.permalink(rule, "9.9") == "https://mirror.example/rules/9.9/ba-awa.html#rule-ba-awa-relay"


def test_cite_prints_text_bibtex_and_csl_with_absolute_urls(capsys):
    code, out, _ = run(capsys, "cite", "ba-awa-match-setup")
    assert code == 0
    url = cite.permalink(ms.get_rule("ba-awa-match-setup"))
    text, bibtex, csl = out.split("\n\n", 2)
    assert text.endswith(url) and "[sourced, with a reading and an editorial completion]" in text
    assert bibtex.startswith("@misc{mancala_spec:ba-awa-match-setup,")
    assert f"url          = {{{url}}}" in bibtex
    assert bibtex.count("{") == bibtex.count("}")
    data = json.loads(csl)
    assert data["URL"] == url and data["version"] == ms.__version__ and data["type"] == "entry"


def test_rules_json_has_the_fields_the_issue_asks_for(capsys):
    code, out, _ = run(capsys, "rules", "bakuk-capture", "--format", "json")
    assert code == 0
    data = json.loads(out)
    for key in ("id", "game", "kind", "statement", "claims", "permalink", "citation"):
        assert key in data
    assert data["id"] == "bakuk-capture" and data["game"] == "bakuk"
    assert [c["basis"] for c in data["claims"]] == ["source", "reading", "source"]
    for claim in data["claims"]:
        assert claim["text"] and claim["citations"]
        for c in claim["citations"]:
            assert set(c) >= {"source", "quote", "translation"}
    assert set(data["citation"]) == {"text", "bibtex", "csl"}
    assert data["citation"]["csl"]["URL"] == data["permalink"]
    _, text, _ = run(capsys, "rules", "bakuk-capture")
    assert text.startswith("bakuk-capture — ") and "[reading] The mover captures them." in text


def test_registry_keeps_every_published_id_and_the_changelog_names_every_change():
    assert registry.problems() == []
    assert registry.load_registry().published == {rule.id for rule in load_catalogue()}


def test_registry_check_fails_on_a_vanished_id_and_an_unlogged_change():
    reg = registry.parse_registry(
        '[[release]]\nversion = "0.1.0"\n[release.rules]\n'
        '"ba-awa-relay" = "0000000000000000"\n"ba-awa-gone" = "1111111111111111"\n')
    changelog = "## 0.2.0\n\nnothing\n"
    found = registry.problems(registry=reg, changelog=changelog)
    assert any("ba-awa-gone vanished" in p for p in found)
    assert any("rule ba-awa-relay changed its text" in p for p in found)
    assert any("rule bakuk-chain is new" in p for p in found)
    logged = registry.problems(registry=reg, changelog="## 0.2.0\nba-awa-relay reworded\n")
    assert not any("ba-awa-relay changed" in p for p in logged)


def test_a_renamed_id_resolves_on_the_command_line(capsys, monkeypatch):
    reg = registry.parse_registry(
        registry.resources.files("mancala_spec.catalogue").joinpath("registry.toml")
        .read_text("utf-8")
        + '\n[[moved]]\nid = "ba-awa-lap-relay"\nstatus = "renamed"\nsuccessor = "ba-awa-relay"\n'
          'release = "0.2.0"\n')
    assert registry.resolve("ba-awa-lap-relay", reg)[0] == "ba-awa-relay"
    assert registry.old_ids("ba-awa-relay", reg) == ["ba-awa-lap-relay"]
    with pytest.raises(KeyError):
        registry.resolve("ba-awa-never", reg)
    monkeypatch.setattr(registry, "load_registry", lambda: reg)
    code, out, err = run(capsys, "rules", "ba-awa-lap-relay")
    assert code == 0 and out.startswith("ba-awa-relay — ") and "renamed" in err


def test_changelog_page_is_in_the_toctree_and_lists_this_release():
    assert re.search(r"^changelog$", (ROOT / "docs/index.md").read_text("utf-8"), re.M)
    sections = registry.changelog_sections((ROOT / "docs/changelog.md").read_text("utf-8"))
    assert list(sections)[:2] == ["0.2.0", "0.1.0"]
    assert "Reinterpreted" in sections["0.2.0"]


def test_an_old_anchor_lands_on_the_successor_rule(tmp_path, monkeypatch):
    """A renamed ID's anchor is put on its successor's block, and listed in the
    inventory as a rule object, so old links and old intersphinx roles still land."""
    from sphinx.application import Sphinx
    from sphinx.util.docutils import docutils_namespace
    from sphinx.util.inventory import InventoryFile

    from mancala_spec.sphinx import rule_blocks

    monkeypatch.setattr(rule_blocks, "old_ids",
                        lambda rule_id: ["ba-awa-lap-relay"] if rule_id == "ba-awa-relay" else [])
    src = tmp_path / "src"
    src.mkdir()
    (src / "conf.py").write_text(
        "extensions = ['myst_parser', 'mancala_spec.sphinx.rules']\n"
        "mancala_traceability = False\n", encoding="utf-8")
    (src / "index.md").write_text("# Rules\n\n```{rule} ba-awa-relay\n```\n", encoding="utf-8")
    with docutils_namespace():       # keep docutils' global registries as they were
        app = Sphinx(str(src), str(src), str(tmp_path / "out"), str(tmp_path / "doctrees"),
                     "html", status=None, warning=None, freshenv=True)
        app.build()
    page = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    assert re.search(r'<div class="rule [^"]*" id="rule-ba-awa-relay">', page)
    assert ('<span id="rule-ba-awa-lap-relay"></span>' in page
            or 'id="rule-ba-awa-lap-relay"' in page)
    with open(tmp_path / "out" / "objects.inv", "rb") as stream:
        inventory = InventoryFile.load(stream, "", lambda *a: "/".join(a))
    items = inventory.data if hasattr(inventory, "data") else inventory
    assert {"ba-awa-relay", "ba-awa-lap-relay"} <= set(items["std:rule"])


def test_the_version_is_written_once_and_cited_alike():
    """pyproject takes the version from mancala_spec.__version__; CITATION.cff,
    the changelog's first section and the registry's last release agree with it,
    so a citation's permalink points at the text it cites."""
    import tomllib

    import mancala_spec

    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {
        "attr": "mancala_spec.__version__"}
    cff = (ROOT / "CITATION.cff").read_text("utf-8")
    assert re.search(rf"^version: {re.escape(mancala_spec.__version__)}$", cff, re.M)
    sections = registry.changelog_sections((ROOT / "docs/changelog.md").read_text("utf-8"))
    assert next(iter(sections)) == mancala_spec.__version__
    assert registry.load_registry().latest == mancala_spec.__version__
