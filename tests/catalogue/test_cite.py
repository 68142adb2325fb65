"""Citable rules (issue 12, section 3) and stable IDs (section 4), without a site
build: permalinks, the three citation forms, ``rules --format json``, ``cite``,
the registry of rule IDs and the changelog it checks."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import mancala_spec as ms
from mancala_spec.catalogue import cite, load_catalogue, registry
from mancala_spec.catalogue.traceability import scan_docs
from mancala_spec.cli import main

ROOT = Path(__file__).resolve().parents[2]


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_rule_page_is_the_page_that_renders_the_rule():
    rendered = scan_docs(ROOT / "docs")
    for rule in load_catalogue():
        assert rendered.rules[rule.id] == [cite.rule_page(rule)], rule.id


@pytest.fixture
def unpublished(monkeypatch):
    """No published address: neither Read the Docs' nor ours."""
    monkeypatch.delenv("READTHEDOCS_CANONICAL_URL", raising=False)
    monkeypatch.delenv("MANCALA_SPEC_BASE_URL", raising=False)


@pytest.fixture
def published(monkeypatch, unpublished):
    monkeypatch.setenv("MANCALA_SPEC_BASE_URL", "https://mirror.example/rules/")
    return "https://mirror.example/rules"


def test_permalink_is_absolute_versioned_and_configurable(monkeypatch, published):
    rule = ms.get_rule("ba-awa-relay")
    assert cite.permalink(rule) == f"{published}/{ms.__version__}/ba-awa.html#rule-ba-awa-relay"
    assert cite.permalink(rule, "9.9") == "https://mirror.example/rules/9.9/ba-awa.html#rule-ba-awa-relay"
    # on Read the Docs its canonical URL wins; the release folders are below its parent
    monkeypatch.setenv("READTHEDOCS_CANONICAL_URL", "https://ms.readthedocs.io/en/latest/")
    assert cite.permalink(rule) == \
        f"https://ms.readthedocs.io/en/{ms.__version__}/ba-awa.html#rule-ba-awa-relay"


def test_a_build_with_no_address_invents_none(capsys, unpublished):
    """No address known: every form gives the rule ID, the version and the page,
    says that the build is not published, and holds no URL at all."""
    rule = ms.get_rule("bakuk-chain")
    assert cite.base_url() == "" and cite.permalink(rule) is None
    forms = cite.citation(rule)
    for text in (forms["text"], forms["bibtex"], json.dumps(forms["csl"], ensure_ascii=False)):
        assert "bakuk-chain" in text and ms.__version__ in text
        assert "bakuk.html#rule-bakuk-chain" in text.replace("\\#", "#")
        assert cite.UNPUBLISHED in text
        assert "http" not in text and "readthedocs" not in text
    assert "URL" not in forms["csl"] and "url " not in forms["bibtex"]
    code, out, _ = run(capsys, "cite", "bakuk-chain")
    assert code == 0 and out == forms["text"] + "\n"


@pytest.mark.parametrize("fmt", ["text", "bibtex", "csl-json"])
def test_cite_prints_the_format_asked_for_with_absolute_urls(capsys, published, fmt):
    code, out, _ = run(capsys, "cite", "ba-awa-match-setup", "--format", fmt)
    assert code == 0
    url = cite.permalink(ms.get_rule("ba-awa-match-setup"))
    assert url.startswith(published)
    if fmt == "text":
        assert out.strip().endswith(url)
        assert "[sourced, with readings and an editorial completion]" in out
        assert "@misc" not in out and '"URL"' not in out
    elif fmt == "bibtex":
        assert out.startswith("@misc{mancala_spec:ba-awa-match-setup,")
        assert f"url          = {{{url}}}" in out and out.count("{") == out.count("}")
    else:
        data = json.loads(out)
        assert data["URL"] == url and data["version"] == ms.__version__ and data["type"] == "entry"


def test_cite_refuses_an_unknown_format(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["cite", "ba-awa-relay", "--format", "xml"])
    out, err = capsys.readouterr()
    assert exit_.value.code == 2 and out == "" and "--format" in err and "Traceback" not in err


def test_rules_json_has_the_fields_the_issue_asks_for(capsys):
    code, out, _ = run(capsys, "rules", "bakuk-capture", "--format", "json")
    assert code == 0
    data = json.loads(out)
    for key in ("id", "game", "kind", "statement", "claims", "permalink", "citation"):
        assert key in data
    assert data["id"] == "bakuk-capture" and data["game"] == "bakuk"
    assert [c["basis"] for c in data["claims"]] == ["source", "reading", "source", "reading"]
    for claim in data["claims"]:
        assert claim["text"] and claim["citations"]
        for c in claim["citations"]:
            assert set(c) >= {"source", "quote", "translation"}
    assert set(data["citation"]) == {"text", "bibtex", "csl"}
    assert data["citation"]["csl"].get("URL") == data["permalink"]
    _, text, _ = run(capsys, "rules", "bakuk-capture")
    assert text.startswith("bakuk-capture — ") and "[reading] The mover captures them." in text


def test_registry_keeps_every_published_id_and_the_changelog_names_every_change():
    # the checkout's changelog, named: an installed package has no docs/ beside it
    changelog = (ROOT / "docs" / "changelog.md").read_text(encoding="utf-8")
    assert registry.problems(changelog=changelog) == []
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
    """pyproject takes the version from mancala_spec.version; CITATION.cff, the
    changelog's newest release and the registry's last release name the last
    release (tests/catalogue/test_version.py holds the rest), so a citation's
    permalink points at the text it cites."""
    import tomllib

    import mancala_spec
    from mancala_spec.version import LAST_RELEASE, RELEASED

    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {
        "attr": "mancala_spec.version.__version__"}
    last = mancala_spec.__version__ if RELEASED else LAST_RELEASE[0]
    cff = (ROOT / "CITATION.cff").read_text("utf-8")
    assert re.search(rf"^version: {re.escape(last)}$", cff, re.M)
    sections = list(registry.changelog_sections((ROOT / "docs/changelog.md").read_text("utf-8")))
    assert last in sections[:2] and sections[0] in (last, "Unreleased")
    assert registry.load_registry().latest == last


def _html_baseurl(**env: str) -> str:
    """conf.py's html_baseurl, read as Sphinx reads conf.py (run, with its tags) in an
    environment with *env* (and no address of its own)."""
    import os

    clean = {k: v for k, v in os.environ.items()
             if k not in ("READTHEDOCS_CANONICAL_URL", "MANCALA_SPEC_BASE_URL")}
    code = ("import runpy, sys; from sphinx.util.tags import Tags; print(repr(runpy.run_path("
            "sys.argv[1], init_globals={'tags': Tags()})['html_baseurl']))")
    result = subprocess.run([sys.executable, "-c", code, str(ROOT / "conf.py")],
                            env={**clean, **env},
                            cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout.strip()


def test_every_page_is_canonical_at_its_release_address_when_published_and_none_else():
    """html_baseurl (Sphinx writes <link rel="canonical"> on every page from it) is the
    release's folder at the published address, and empty when there is none."""
    assert _html_baseurl() == "''"
    assert _html_baseurl(READTHEDOCS_CANONICAL_URL="https://ms.readthedocs.io/en/stable/") \
        == repr(f"https://ms.readthedocs.io/en/{ms.__version__}/")
    assert _html_baseurl(MANCALA_SPEC_BASE_URL="https://m.example/rules") == \
        repr(f"https://m.example/rules/{ms.__version__}/")


def test_the_built_site_has_a_canonical_link_on_every_page_exactly_when_published(site):
    base = cite.base_url()
    pages = {path.relative_to(site.html).as_posix(): path.read_text("utf-8")
             for path in site.html.rglob("*.html")
             if path.relative_to(site.html).parts[0] not in {"_modules", "_sources"}}
    links = {name: re.findall(r'<link rel="canonical" href="([^"]*)"', text)
             for name, text in pages.items()}
    if base:
        assert all(links[name] == [f"{base}/{ms.__version__}/{name}"] for name in pages), links
    else:
        assert not any(links.values()), links
