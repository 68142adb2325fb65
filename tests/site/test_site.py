"""The rules site, built and read.

The session fixture copies the working tree as a fresh clone would have it (the
files git tracks or would track: no build/, no docs/auto_examples/, no .venv/)
into a temporary folder and builds it there with the documented command,

    sphinx-build -c . docs build/html -d build/doctrees -n -W --keep-going

then runs Sphinx's doctest builder on the same environment. The tests read the
HTML: every rule's anchor exists once with its quotes, code and examples, the
sources page accounts for every line and links every cited one to its rules,
internal links resolve, and the build printed the coverage summary and no
warning. The build takes about half a minute on two cores, most of it the
sphinx-gallery scripts; it runs once per session.
"""
from __future__ import annotations

import html
import inspect
import json
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from html.parser import HTMLParser
from pathlib import Path

import pytest
import yaml
from helpers import package_env

import mancala_spec
from mancala_spec import version
from mancala_spec.catalogue import load_catalogue
from mancala_spec.catalogue.traceability import check, scan_docs, source_line_anchor, source_map
from mancala_spec.sources import SOURCES, source_lines
from mancala_spec.sphinx.rule_nodes import rule_lines

ROOT = Path(__file__).resolve().parents[2]
CATALOGUE = load_catalogue()
PAGES = ["index", "ba-awa", "bakuk", "editorial", "rules", "sources", "glossary",
         "references", "notation", "api", "cite", "auto_examples/index", "analysis",
         "cli", "conformance", "match-and-three-players", "install", "interop"]
SCANNED = scan_docs(ROOT / "docs")


# -- building ------------------------------------------------------------------------


def fresh_clone(target: Path) -> None:
    """Copy what a clone of the repository would hold (plus uncommitted, not
    ignored files) to *target*, and, as an sdist does, a ``PKG-INFO`` naming the
    checkout's version (the copy has no ``.git`` to read the commit from, and the
    installed metadata may name an older commit)."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=ROOT, capture_output=True, check=True).stdout.decode().split("\0")
    except (OSError, subprocess.CalledProcessError):
        skip = {".git", ".venv", "build", "auto_examples", "__pycache__", ".pytest_cache"}
        listed = [str(p.relative_to(ROOT)) for p in ROOT.rglob("*")
                  if p.is_file() and not skip & set(p.relative_to(ROOT).parts)]
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():  # tracked files deleted in the working tree are skipped
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    if (ROOT / "node_modules").is_dir():      # installed by npm ci, as .venv is by pip
        (target / "node_modules").symlink_to(ROOT / "node_modules")
    if not (target / "PKG-INFO").exists():
        (target / "PKG-INFO").write_text("Metadata-Version: 2.4\nName: mancala-spec\n"
                                         f"Version: {version.__version__}\n", encoding="utf-8")


@dataclass
class Build:
    tree: Path
    html: Path
    result: subprocess.CompletedProcess
    #: the doctest builder's run over the same doctrees, once it is needed: in a
    #: parallel run it goes on beside the tests that need only the HTML
    finish_doctest: Callable[[], subprocess.CompletedProcess]

    @cached_property
    def doctest(self) -> subprocess.CompletedProcess:
        return self.finish_doctest()

    def page(self, name: str) -> str:
        return (self.html / f"{name}.html").read_text(encoding="utf-8")

    @cached_property
    def pages(self) -> dict[str, str]:
        """Every HTML page of the site, by path relative to the root (no _modules)."""
        return {path.relative_to(self.html).as_posix(): path.read_text(encoding="utf-8")
                for path in self.html.rglob("*.html")
                if path.relative_to(self.html).parts[0] not in {"_modules", "_sources"}}


def build_site(tmp_path_factory) -> Build:
    """Build the site in a fresh clone (the session fixture ``site`` in conftest.py
    calls this once, for these tests and the browser tests)."""
    return build_site_in(tmp_path_factory.mktemp("clone"))


def _completed(data: dict) -> subprocess.CompletedProcess:
    return subprocess.CompletedProcess(data["args"], data["returncode"], data["stdout"],
                                       data["stderr"])


def _record(proc: subprocess.CompletedProcess) -> dict:
    return {"args": proc.args, "returncode": proc.returncode, "stdout": proc.stdout,
            "stderr": proc.stderr}


def _write(path: Path, record: dict) -> None:
    """*record* as JSON at *path*, written whole (its presence means done)."""
    partial = path.with_name(path.name + ".part")
    partial.write_text(json.dumps(record))
    partial.replace(path)


def record_build(shared: Path) -> None:
    """Build the site in *shared*/clone and write what the builds printed: the HTML
    build's to *shared*/html.json as soon as it is done (the browser tests need no
    more), then the doctest build's, with the HTML build's, to *shared*/build.json:
    the one build of a parallel run, shared by every worker (conftest.py)."""
    record: dict = {}
    try:
        build = build_site_in(shared / "clone",
                              built=lambda result: _write(shared / "html.json",
                                                          {"result": _record(result)}))
        record = {"result": _record(build.result), "doctest": _record(build.doctest)}
    except BaseException as error:  # noqa: BLE001 - reported by the tests that need the site
        record = {"error": f"{type(error).__name__}: {error}"}
        if not (shared / "html.json").exists():
            _write(shared / "html.json", record)
        raise
    finally:
        _write(shared / "build.json", record)


def _wait_for(done: Path, timeout: float) -> dict:
    import time

    deadline = time.monotonic() + timeout
    while not done.exists():
        assert time.monotonic() < deadline, f"the site build ({done}) did not finish"
        time.sleep(0.2)
    record = json.loads(done.read_text())
    assert "error" not in record, record.get("error")
    return record


def shared_build(shared: Path, timeout: float = 1800) -> Build:
    """The build :func:`record_build` makes in *shared*, waited for (its HTML now, its
    doctest run when a test asks for it)."""
    record = _wait_for(shared / "html.json", timeout)
    tree = shared / "clone"
    return Build(tree, tree / "build" / "html", _completed(record["result"]),
                 lambda: _completed(_wait_for(shared / "build.json", timeout)["doctest"]))


def build_site_in(tree: Path, built: Callable[[subprocess.CompletedProcess], None]
                  = lambda result: None) -> Build:
    """Build the site in a fresh clone at *tree* (*built* is told the HTML build's
    result before the doctest builder runs)."""
    tree.mkdir(parents=True, exist_ok=True)
    fresh_clone(tree)
    assert not (tree / "docs" / "auto_examples").exists()
    sphinx = [sys.executable, "-m", "sphinx"]
    result = subprocess.run(sphinx + ["-c", ".", "docs", "build/html", "-d", "build/doctrees",
                                      "-n", "-W", "--keep-going"],
                            cwd=tree, capture_output=True, text=True, timeout=900)
    built(result)
    doctest = subprocess.run(sphinx + ["-b", "doctest", "-c", ".", "docs", "build/doctest",
                                       "-d", "build/doctrees", "-W", "--keep-going"],
                             cwd=tree, capture_output=True, text=True, timeout=900)
    return Build(tree, tree / "build" / "html", result, lambda: doctest)


# -- reading HTML ----------------------------------------------------------------------


class _Elements(HTMLParser):
    """Offsets of every element with an id, and every link."""

    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
            "source", "track", "wbr"}

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.text = text
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self.stack: list[tuple[str, str | None, int]] = []
        self.spans: dict[str, list[tuple[int, int]]] = {}
        self.links: list[str] = []
        self.feed(text)

    def _offset(self) -> int:
        line, column = self.getpos()
        return self.line_starts[line - 1] + column

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "a" and attrs.get("href"):
            self.links.append(attrs["href"])
        if tag not in self.VOID:
            self.stack.append((tag, attrs.get("id"), self._offset()))
        elif attrs.get("id"):
            self.spans.setdefault(attrs["id"], []).append((self._offset(), self._offset()))

    def handle_endtag(self, tag):
        if tag in self.VOID:       # <img ... /> ends nothing that is open
            return
        while self.stack:
            open_tag, ident, start = self.stack.pop()
            if ident:
                self.spans.setdefault(ident, []).append((start, self._offset()))
            if open_tag == tag:
                break


def elements(text: str) -> _Elements:
    return _Elements(text)


def plain(fragment: str) -> str:
    """Text of an HTML fragment: tags dropped, entities decoded, spaces collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", fragment)).split())


def rule_pages(site: Build) -> dict[str, tuple[str, str]]:
    """rule ID → (page, HTML of its block)."""
    found: dict[str, tuple[str, str]] = {}
    for page, text in site.pages.items():
        parsed = elements(text)
        for ident, spans in parsed.spans.items():
            if ident.startswith("rule-") and ident[5:] in CATALOGUE:
                for start, end in spans:
                    found.setdefault(ident[5:], (page, text[start:end]))
    return found


# -- the build -------------------------------------------------------------------------------


def test_build_succeeds_without_warnings(site):
    assert site.result.returncode == 0, site.result.stderr[-5000:]
    assert "WARNING" not in site.result.stderr and "ERROR" not in site.result.stderr, \
        site.result.stderr[-5000:]
    assert "build succeeded." in site.result.stdout


def test_api_pages_link_pythons_types_to_its_docs(site):
    """Intersphinx with Debian's python3-doc inventory (conf.py; .ci/run installs it):
    without it the types are left unlinked and this fails, saying what to install."""
    page = site.page("api/conformance")
    assert 'href="https://docs.python.org/3/library/pathlib.html#pathlib.Path"' in page, \
        "Python's types are not linked: apt-get install python3-doc (see .ci/run)"
    assert 'href="https://docs.python.org/3/library/stdtypes.html#str"' in page


def test_build_prints_the_coverage_summary(site):
    lines = [line for line in site.result.stdout.splitlines() if line.startswith("traceability:")]
    assert len(lines) == 1, lines
    # what the build collected from its directives agrees with the Markdown extractor
    assert lines[0] == check(rendered=SCANNED).summary()
    assert "= 100%" in lines[0] and lines[0].endswith("; 0 problems")


def test_traceability_json_agrees_with_the_pages(site):
    data = json.loads((site.html / "traceability.json").read_text(encoding="utf-8"))
    assert data["ok"] is True and data["version"] == mancala_spec.__version__
    assert set(data["rules"]) == {rule.id for rule in CATALOGUE}
    for rule in CATALOGUE:
        entry = data["rules"][rule.id]
        assert entry["examples"] == SCANNED.examples[rule.id]
        assert entry["page"] == SCANNED.rules[rule.id][0] + ".html"
        assert entry["anchor"] == f"rule-{rule.id}" and entry["kind"] == rule.kind


@pytest.mark.parametrize("page", PAGES)
def test_page_exists_and_is_made_for_phones_too(site, page):
    text = site.page(page)
    assert '<meta name="viewport" content="width=device-width' in text
    assert "mancala_spec.css" in text


# -- rules ---------------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def rules(site):
    return rule_pages(site)


def test_every_rule_anchor_exists_exactly_once(site):
    counts = {rule.id: 0 for rule in CATALOGUE}
    for text in site.pages.values():
        for rule in CATALOGUE:
            counts[rule.id] += text.count(f'id="rule-{rule.id}"')
    assert counts == {rule.id: 1 for rule in CATALOGUE}


@pytest.mark.parametrize("rule", list(CATALOGUE), ids=lambda r: r.id)
def test_rule_block(site, rules, rule):
    page, block = rules[rule.id]
    text = plain(block)
    # header: permalink with the ID, a badge that says no more than the claims
    assert f'href="#rule-{rule.id}"' in block
    badge = re.search(r'<span class="rule-badge rule-badge-(\w+)[^"]*">([^<]*)</span>', block)
    assert badge and badge.group(1) == rule.kind and badge.group(2) == rule.badge
    if badge.group(2) == "sourced":
        assert {claim.basis for claim in rule.claims} == {"source"}
    # every claim, marked by its basis; a reading with why and the other reading
    for claim in rule.claims:
        marked = f'claim-basis-{claim.basis}">{claim.basis}</span> '
        assert marked in block, (rule.id, claim.basis)
        assert " ".join(claim.text.replace("``", "").split()) in text
        if claim.basis == "reading":
            assert claim.why[:60] in text and claim.other[:60] in text
    assert block.count('class="claim-basis ') == len(rule.claims)
    # a copy-ready citation: versioned permalink, text, BibTeX, CSL-JSON
    from mancala_spec.catalogue.cite import UNPUBLISHED, permalink
    from mancala_spec.catalogue.cite import citation as cite
    url = permalink(rule)          # None: the test build knows no published address
    if url:
        assert f'href="{url}"' in block
        assert f"/{mancala_spec.__version__}/{page}#rule-{rule.id}" in url
        assert '"URL": "' + url in text
    else:                          # it invents none, and says so (issue 18)
        assert UNPUBLISHED in text and f"{page}#rule-{rule.id}" in text
    forms = cite(rule)
    assert html.escape(forms["text"], quote=False) in block
    assert f"@misc{{mancala_spec:{rule.id}," in text
    assert 'class="rule-copy"' in block
    # each citation: the original, exactly (English left inside it in spans of its
    # own, marked lang="en"), the translation, and a link to its line
    unmarked = html.unescape(re.sub(r'<span lang="en">(.*?)</span>', r"\1", block))
    for citation in rule.citations:
        assert citation.quote in unmarked, citation.quote
        if citation.translation != citation.quote:
            assert " ".join(citation.translation.split()) in text
        assert f'href="sources.html#{source_line_anchor(citation.source, citation.line)}"' in block
    if not rule.sourced:
        assert " ".join(rule.gap.replace("``", "").split())[:60] in text
        assert " ".join(rule.rationale.replace("``", "").split())[:60] in text
        for alternative in rule.alternatives:
            assert f"{alternative.option}={alternative.value!r}" in text
    # the code of every implementing function, and links to the API and the module
    marked = 0
    for func in rule.implementations:
        assert f"def {func.__name__}(" in text
        marked += len(rule_lines(inspect.getsourcelines(func)[0], rule.id))
        assert re.search(rf'href="api/\w+\.html#{re.escape(func.__module__)}\.'
                         rf'{re.escape(func.__qualname__)}"', block), func
        module_page = f"_modules/{func.__module__.replace('.', '/')}.html"
        assert f'href="{module_page}#{func.__qualname__}"' in block
        module_html = (site.html / module_page).read_text(encoding="utf-8")
        assert f'id="{func.__qualname__}"' in module_html
    # the lines of that code that pass the rule's ID are highlighted, and said to be
    assert block.count('class="hll"') == marked, rule.id
    assert bool(re.search(rf"which pass(es)? {re.escape(rule.id)}\)", text)) == bool(marked)
    # every example, with its anchor and a doctest block
    examples = SCANNED.examples[rule.id]
    assert examples
    for example in examples:
        assert f'id="example-{example}"' in block
    assert block.count('class="highlight-pycon') == len(examples)


# -- sources ------------------------------------------------------------------------------


@pytest.mark.parametrize("source", sorted(SOURCES))
def test_sources_page_shows_every_line_and_links_every_cited_one(site, rules, source):
    page = site.page("sources")
    parsed = elements(page)
    for line in source_map(source):
        spans = parsed.spans.get(line.anchor, [])
        assert len(spans) == 1, (line.anchor, spans)
        start, end = spans[0]
        row = page[start:end]
        assert line.text.strip() in html.unescape(re.sub(r"<[^>]+>", "", row))
        if line.rules:
            for rule_id in line.rules:
                rule_page = rules[rule_id][0]
                assert f'href="{rule_page}#rule-{rule_id}"' in row, (line.anchor, rule_id)
        else:
            assert line.context is not None
            assert " ".join(line.context.reason.split())[:50] in plain(row)
    assert len(source_lines(source)) == sum(1 for a in parsed.spans
                                            if a.startswith(f"src-{Path(source).stem}-L"))


# -- links --------------------------------------------------------------------------------


def test_internal_links_resolve(site):
    ids: dict[str, set[str]] = {}

    def ids_of(path: Path) -> set[str]:
        key = path.as_posix()
        if key not in ids:
            ids[key] = set(elements(path.read_text(encoding="utf-8")).spans)
        return ids[key]

    broken = []
    for page, text in site.pages.items():
        if page in {"genindex.html", "search.html", "py-modindex.html"}:
            continue
        here = (site.html / page).parent
        for href in set(elements(text).links):
            if re.match(r"^[a-z]+:", href) or href.startswith("//"):
                continue
            path, _, fragment = href.partition("#")
            path = path.partition("?")[0]      # a query (the Play page's game) names no file
            target = (here / path).resolve() if path else (site.html / page).resolve()
            if not target.exists():
                broken.append(f"{page}: {href} (no file)")
            elif fragment and target.suffix == ".html" and fragment not in ids_of(target):
                broken.append(f"{page}: {href} (no anchor)")
    assert not broken, "\n".join(sorted(broken))


def test_rule_refs_and_bibliography(site):
    index = site.page("index")
    assert 'href="ba-awa.html#rule-ba-awa-relay"' in index
    references = plain(site.page("references"))
    for needle in ("Board and Table Games from Many Civilizations", "Bautista i Roca",
                   "Mancala World"):
        assert needle in references
    assert 'href="references.html#' in site.page("ba-awa")


def test_quotes_are_not_typographically_altered(site, rules):
    """Straight apostrophes stay straight (no smart quotes): quotations are exact."""
    page, block = rules["ba-awa-relay"]
    assert "l'última llavor" in html.unescape(block)
    assert "l’última" not in html.unescape(block)


# -- examples in Sphinx's doctest builder ---------------------------------------------------


def test_doctest_builder_runs_every_example(site):
    assert site.doctest.returncode == 0, site.doctest.stdout[-3000:] + site.doctest.stderr[-3000:]
    report = (site.tree / "build" / "doctest" / "output.txt").read_text(encoding="utf-8")
    groups = re.findall(r"^\s+\d+ tests in (\S+)$", report, re.M)
    assert sorted(groups) == sorted(example for example, _ in SCANNED.all_examples)
    assert re.findall(r"^(\d+) failures? in tests", report, re.M) == []
    assert "0 failures in tests" in report


# -- citing -------------------------------------------------------------------------------


def test_citation_cff_matches_the_package():
    data = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    assert data["cff-version"] == "1.2.0"
    # the last release (between releases the package is a development version naming its
    # commit: tests/catalogue/test_version.py holds the two together)
    assert str(data["version"]) == version.LAST_RELEASE[0]   # pyproject reads it too:
    # tests/catalogue/test_cite.py::test_the_version_is_written_once_and_cited_alike
    assert data["title"] and data["authors"] and data["message"]
    titles = {ref["title"] for ref in data["references"]}
    assert {"Ba-awa", "Bakuk", "Board and Table Games from Many Civilizations"} <= titles


def test_citation_cff_and_pyproject_name_both_licences():
    data = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    # CFF 1.2.0 reads a list of licences as OR and has no AND: the message states the
    # expression instead (issue 18; tests/catalogue/test_citation_tools.py checks it)
    assert "license" not in data and "MIT AND CC-BY-SA-4.0" in " ".join(data["message"].split())
    project = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'license = "MIT AND CC-BY-SA-4.0 AND LicenseRef-MancalaWorld-CC-BY-SA"' in project
    assert 'license-files = ["LICENSES/*"]' in project
    assert re.search(r'requires = \["setuptools>=(\d+)"\]', project).group(1) >= "77"
    assert "legalcode" not in (ROOT / "LICENSES/MIT.txt").read_text(encoding="utf-8")
    cc = (ROOT / "LICENSES/CC-BY-SA-4.0.txt").read_text(encoding="utf-8")
    assert cc.startswith("Creative Commons Attribution-ShareAlike 4.0 International")
    assert "<<" not in cc and "Section 4 – Sui Generis Database Rights." in cc
    bib = (ROOT / "docs/refs.bib").read_text(encoding="utf-8")
    assert "title not stated by the source" in bib


def test_sources_page_shows_origin_and_checksum_of_each_document(site):
    import hashlib

    from mancala_spec.catalogue import load_catalogue

    text = plain(site.page("sources"))
    records = {record.file: record for record in load_catalogue().documents}
    for name in SOURCES:
        digest = hashlib.sha256((ROOT / "mancala_spec/sources" / name).read_bytes()).hexdigest()
        assert digest in text, name
        assert "version of the Mancala World article" in text and records[name].version_of in text
        assert source_lines(name)[-1] in text        # the attribution line, as the file has it
    assert text.count("which revision of the article it was made from") == len(SOURCES)
    for language in ("Catalan", "German", "Greek"):   # provenance, from the catalogue
        assert f"{language} version" in text and f"{language}, with English left inside" in text
    assert text.count("Made by") == len(SOURCES)


def build_other_project(project, site, url: str, extensions: list[str], text: str):
    """Build a one-page Sphinx project at *project* whose page says *text*, with
    intersphinx pointing *url* at the built site's inventory; return the
    completed process and the folder."""
    project.mkdir()
    (project / "conf.py").write_text(
        f"extensions = {['sphinx.ext.intersphinx', *extensions]!r}\n"
        f"intersphinx_mapping = {{'mancala': ({url!r}, "
        f"{str(site.html / 'objects.inv')!r})}}\n", encoding="utf-8")
    (project / "index.rst").write_text(f"Paper\n=====\n\n{text}\n", encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "sphinx", "-b", "html", "-n", "-W", "-q",
                           str(project), str(project / "_build")],
                          capture_output=True, text=True, timeout=300,
                          env=package_env()), project


def test_objects_inv_lists_every_rule_and_another_project_cites_one(site, tmp_path):
    """A tiny second Sphinx project links to rules through intersphinx, against
    the inventory the build wrote."""
    from sphinx.util.inventory import InventoryFile

    with open(site.html / "objects.inv", "rb") as stream:
        inventory = InventoryFile.load(stream, "https://rules.example/0/", lambda *a: "/".join(a))
    items = inventory.data if hasattr(inventory, "data") else inventory
    listed = items["std:rule"]
    assert set(listed) == {rule.id for rule in CATALOGUE}
    item = listed["ba-awa-relay"]
    uri = item.uri if hasattr(item, "uri") else item[2]
    assert uri == "https://rules.example/0/ba-awa.html#rule-ba-awa-relay"
    result, project = build_other_project(
        tmp_path / "other", site, "https://rules.example/0.1/", ["mancala_spec.sphinx.rule_domain"],
        "We follow :rule:`ba-awa-relay` and :rule:`bakuk-chain`.")
    assert result.returncode == 0, result.stderr
    out = (project / "_build" / "index.html").read_text(encoding="utf-8")
    assert 'href="https://rules.example/0.1/ba-awa.html#rule-ba-awa-relay"' in out
    assert 'href="https://rules.example/0.1/bakuk.html#rule-bakuk-chain"' in out
    # without our extension, plain intersphinx: every rule's anchor is a label
    done, plain = build_other_project(tmp_path / "plain", site, "https://rules.example/0.2/", [],
                                      "As :ref:`rule-bakuk-chain` says.")
    assert done.returncode == 0, done.stderr
    html = (plain / "_build" / "index.html").read_text(encoding="utf-8")
    assert 'href="https://rules.example/0.2/bakuk.html#rule-bakuk-chain"' in html
    assert "bakuk-chain: Forward chain of captures" in html
    # a rule ID that does not exist stays a warning, so -W fails
    (project / "index.rst").write_text("x\n=\n\n:rule:`ba-awa-nope`\n", encoding="utf-8")
    bad = subprocess.run([sys.executable, "-m", "sphinx", "-b", "html", "-n", "-W", "-q", "-E",
                          str(project), str(project / "_build")],
                         capture_output=True, text=True, timeout=300,
                         env=package_env())
    assert bad.returncode != 0 and "ba-awa-nope" in bad.stderr


def test_rule_badge_role_shows_the_badge_and_links_to_the_rule(site):
    text = site.page("editorial")
    rule = CATALOGUE["ba-awa-match-setup"]
    assert re.search(r'<a class="reference internal" href="match-and-three-players.html#rule-'
                     r'ba-awa-match-setup"[^>]*><span class="rule-badge rule-badge-sourced[^"]*">'
                     + re.escape(rule.badge) + "</span></a>", text)
    data = json.loads((site.html / "traceability.json").read_text(encoding="utf-8"))
    assert data["rules"][rule.id]["badge"] == rule.badge
    from mancala_spec.catalogue.cite import base_url
    permalink = data["rules"][rule.id]["permalink"]        # None: no published address
    assert (permalink is None) == (not base_url())
    assert permalink is None or permalink.endswith(
        f"/{mancala_spec.__version__}/match-and-three-players.html#rule-ba-awa-match-setup")


def test_search_index_finds_a_rule_by_its_id(site):
    """Each rule is a search object whose anchor is its rule block: Sphinx's
    search writes "-" for an anchor that is "<object type>-<name>"."""
    index = (site.html / "searchindex.js").read_text(encoding="utf-8")
    data = json.loads(index[index.index("(") + 1:index.rindex(")")])
    kind = next(k for k, v in data["objtypes"].items() if v == "std:rule")
    found = {}
    for entries in data["objects"].values():
        for docindex, objtype, _prio, anchor, name in entries:
            if str(objtype) == kind:
                label = data["objnames"][kind][1]
                found[name] = (data["docnames"][docindex],
                               f"{label}-{name}" if anchor == "-" else anchor or name)
    assert found == {rule.id: (SCANNED.rules[rule.id][0], f"rule-{rule.id}") for rule in CATALOGUE}


def test_cite_page_shows_version_and_citation_file(site):
    text = plain(site.page("cite"))
    assert f"mancala_spec version {mancala_spec.__version__}" in text
    assert "cff-version: 1.2.0" in text


def test_glossary_words_occur_in_their_sources():
    files = {"Catalan": ["000_772c55c4feba1a9c.txt"], "German": ["002_8fadbd38f8f31b03.txt"],
             "Greek": ["001_1132cff477fa5791.txt"], "English in the sources": sorted(SOURCES)}
    from mancala_spec.sources import source_text

    text = (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")
    entries = re.findall(r"^  - ([^:]+): (.*)$", text, re.M)
    assert len(entries) >= 40
    for language, words in entries:
        for word in re.findall(r"\*([^*]+)\*", words):
            assert any(word.casefold() in source_text(f).casefold() for f in files[language]), \
                (language, word)


def test_the_conformance_suite_and_schema_are_downloadable(site, docs_suite):
    import jsonschema

    from mancala_spec.conformance import schema

    page = site.pages["conformance.html"]
    assert 'href="conformance-suite.json"' in page and 'href="conformance-schema.json"' in page
    suite = json.loads((site.html / "conformance-suite.json").read_text(encoding="utf-8"))
    # the suite built fresh from the same pages (the site's clone holds the checkout's
    # docs/, byte for byte; conftest's docs_suite is built from those)
    def pages(docs: Path) -> dict[Path, bytes]:
        return {path.relative_to(docs): path.read_bytes() for path in sorted(docs.rglob("*.md"))
                if "auto_examples" not in path.parts}

    assert pages(site.tree / "docs") == pages(ROOT / "docs")
    assert suite == docs_suite
    assert json.loads((site.html / "conformance-schema.json").read_text()) == schema()
    jsonschema.validate(suite, schema())
    assert f"<p>{len(suite['cases'])}</p>" in page   # the summary table's total
    for where in {case["where"] for case in suite["cases"] if "#" in case["where"]}:
        target, anchor = where.split("#")
        assert f'id="{anchor}"' in (site.html / target).read_text(encoding="utf-8"), where


def test_the_cli_reference_shows_every_command(site):
    from mancala_spec import cli

    page = site.pages["cli.html"]
    for name in cli.COMMANDS:
        assert f'id="cli-{name}"' in page
        assert f"usage: mancala-spec {name}" in page


def test_every_rule_page_image_exists(site):
    for name, text in site.pages.items():
        for src in re.findall(r'<img[^>]+src="([^"]+)"', text):
            if not src.startswith(("http", "data:")):
                assert (site.html / Path(name).parent / src).exists(), (name, src)
    for page in ("ba-awa.html", "bakuk.html", "editorial.html", "match-and-three-players.html"):
        assert site.pages[page].count("sowing-diagram") >= 2, page


def test_interop_page_lists_each_games_parameters_from_their_declarations(site):
    """The OpenSpiel and PettingZoo page (issue 45) has one table a game, generated
    ({interop-parameters}): a row for each option as declared, with its default, its
    other values and a link to its rule, then ruleset, returns and max_moves."""
    from mancala_spec.options import game_options, plain
    from mancala_spec.rulesets import names

    page = site.pages["interop.html"]
    tables = re.findall(r'<table class="[^"]*options-table.*?</table>', page, re.S)
    assert len(tables) == 2
    for game, table in zip(("ba-awa", "bakuk"), tables):
        rows = re.findall(r"<tr.*?</tr>", table, re.S)[1:]
        declared = game_options(game)
        assert len(rows) == len(declared) + 3
        for option, row in zip(declared, rows):
            cells = html.unescape(re.sub(r"<[^>]+>", "", row))
            written = [str(plain(v)).lower() if isinstance(v, bool) else str(plain(v))
                       for v in option.choices]
            default = written[option.choices.index(option.default)]
            assert cells.split()[0] == option.name and f"{default} (default)" in cells
            assert all(value in cells for value in written), (option.name, cells)
            assert f'#rule-{option.rule}"' in row
        own = [html.unescape(re.sub(r"<[^>]+>", "", row)) for row in rows[-3:]]
        assert [cells.split()[0] for cells in own] == ["ruleset", "returns", "max_moves"]
        assert all(name in own[0] for name in names(game))


def test_forms_and_match_settings_show_the_call_that_selects_them(site):
    text = html.unescape(re.sub(r"<[^>]+>", "", site.pages["match-and-three-players.html"]))
    assert text.count("Forms the source describes") == 3   # two three-player rules, match aim
    assert 'ms.get_game("ba-awa", players=3)' in text
    assert 'ms.get_game("bakuk", players=3)' in text
    assert 'ms.Match(ms.get_game("ba-awa"), target=10)' in text
    assert "ms.Match(ms.get_game(\"ba-awa\"), opener='winner')" in text
    assert 'get_game("ba-awa", target=' not in text


def test_rule_statements_link_glossary_terms_and_set_pits_as_code(site):
    """A claim's first use of a glossary term links to the term, and pit names
    and numbers are set as code (issue: statements were plain text)."""
    import re

    from mancala_spec.sphinx.rule_nodes import glossary_terms

    terms = glossary_terms((site.tree / "docs" / "glossary.md").read_text(encoding="utf-8"))
    assert {"pit", "seed", "lap", "relay", "opener"} <= set(terms)
    page = (site.html / "ba-awa.html").read_text(encoding="utf-8")
    block = page[page.index('id="rule-ba-awa-board"'):page.index('id="rule-ba-awa-stores"')]
    statement = block[block.index('class="rule-claims'):]
    assert re.search(r'pit-name[^>]*><span class="pre">a–f<', statement)
    assert re.search(r'pit-name[^>]*><span class="pre">A–F<', statement)
    assert 'href="glossary.html#term-pit"' in statement
    glossary = (site.html / "glossary.html").read_text("utf-8")
    anchors = set(re.findall(r'href="glossary.html#(term-[\w-]+)"', page))
    assert len(anchors) >= 8                 # every link lands on a term of the glossary
    assert all(f'id="{anchor}"' in glossary for anchor in anchors)


def test_the_site_holds_nothing_but_the_site(site):
    """No doctrees or pickled environment in the served tree, and no absolute
    path of the machine that built it (nor of the checkout it came from) in any
    text file (issue 21)."""
    assert not [p for p in site.html.rglob("*")
                if p.name == ".doctrees" or p.suffix in (".pickle", ".doctree")]
    roots = {str(site.tree), str(Path(mancala_spec.__file__).resolve().parents[1])}
    for path in site.html.rglob("*"):
        if path.is_file() and path.suffix in (".html", ".txt", ".js", ".json", ".css", ".svg",
                                              ".inv", ".md", ""):
            text = path.read_bytes()
            for root in roots:
                assert root.encode() not in text, (path, root)


# -- getting the software, and testing an engine (issue 31) ---------------------------------


def test_the_install_page_is_reachable_and_its_downloads_are_the_real_files(site):
    """The install page is linked from the home, CLI, conformance and protocol
    pages; every link of its downloads table lands on a file of the built site,
    and each file is what it says: the wheel of this version holding the
    package's own modules, the example engine byte for byte, the suite and the
    schemas (compared in test_the_conformance_suite_and_schema_are_downloadable)."""
    import zipfile

    from mancala_spec.sphinx.downloads import downloads, wheel_name

    for page in ("index", "cli", "conformance", "protocol"):
        assert 'href="install.html"' in site.page(page), page
    page = site.page("install")
    table = page[page.index('class="downloads'):]
    table = table[:table.index("</table>")]
    links = re.findall(r'<a class="[^"]*download-link[^"]*" href="([^"]+)"', table)
    assert links == [path for path, _ in downloads()]
    for href in links:
        assert (site.html / href).is_file() and (site.html / href).stat().st_size > 0, href
    assert links[0] == f"download/{wheel_name()}"
    with zipfile.ZipFile(site.html / links[0]) as wheel:
        names = wheel.namelist()
        metadata = wheel.read(next(n for n in names if n.endswith(".dist-info/METADATA")))
        assert f"\nVersion: {mancala_spec.__version__}\n".encode() in metadata
        modules = [n for n in names if n.startswith("mancala_spec/") and n.endswith(".py")]
        assert len(modules) > 50
        for name in modules:
            assert wheel.read(name) == (site.tree / name).read_bytes(), name
    engine = site.html / "download" / "engine.js"
    assert engine.read_bytes() == (site.tree / "examples" / "engine.js").read_bytes()
    # the install commands name the wheel linked; a real run's report, verdict first
    text = plain(page)
    assert f"pip install {wheel_name()}" in text and "[solve,diagram]" in text
    assert "python3 dev.py site" in text and "python3 dev.py test" in text
    report = text[text.index("$ mancala-spec conformance run"):]
    assert re.search(r"--min-supported 0 conforming: the \d+ supported cases of \d+ pass",
                     report)
    assert "skipped " in report and "SKIPPED" not in report


def test_the_install_page_names_no_source_address_it_was_not_given(site):
    """pyproject.toml names no home page and the test build sets no
    MANCALA_SPEC_SOURCE_URL: the page says there is none, and links nowhere else."""
    from mancala_spec.sphinx.downloads import source_url

    assert source_url({}) == ""
    page = site.page("install")
    assert "no published code repository yet" in plain(page)
    main = page[page.index('role="main"'):]
    main = main[:main.index("</article>")]       # the page, not furo's footer
    outside = {href for href in elements(main).links if re.match(r"^[a-z]+:", href)}
    assert not outside, outside


def _english_runs() -> dict[str, list[str]]:
    """Each document's language code and the English runs the catalogue records."""
    return {SOURCES[d.file].language_code: [run for _, run in d.runs]
            for d in CATALOGUE.documents}


def test_english_left_in_a_source_is_marked_english(site):
    """Issue 31: a quote such as "multi-lap relay sowing", English inside the
    Catalan document, was marked lang="ca". Now no text marked with a document's
    language holds a run of English the catalogue records, outside a span marked
    lang="en", on the sources page and on the rules pages; and a quote wholly in
    English is marked English."""
    runs = _english_runs()
    checked = 0
    for name in ("sources", "ba-awa", "bakuk", "editorial", "match-and-three-players"):
        page = site.page(name)
        for code, body in re.findall(r'<p class="[^"]*" lang="(ca|de|el)">(.*?)</p>', page, re.S):
            bare = plain(re.sub(r'<span[^>]*lang="en"[^>]*>.*?</span>', " ", body))
            for run in runs[code]:
                assert not re.search(r"(?<!\w)" + re.escape(run) + r"(?!\w)", bare), \
                    (name, run, bare[:200])
            checked += 1
    assert checked > 100
    quote = re.search(r'<p class="citation-original" lang="(\w+)">'
                      r'<span class="citation-label">\[\d+\] </span>multi-lap relay sowing</p>',
                      site.page("ba-awa"))
    assert quote and quote.group(1) == "en"
    assert '<span lang="en">Two</span>' in site.page("sources")


def test_readings_show_position_histories_readably(site):
    """Issue 31: 21-entry seen= histories were shown as walls of digits. Now a
    position's history is counted in the text, captions and pictures' alt texts,
    and listed in a table (one row per position, computed from the position),
    with the one-line notation kept only in the code block that can be copied."""
    page = site.page("readings-compared")
    outside_code = re.sub(r"<pre>.*?</pre>", "", page, flags=re.S)
    assert not re.search(r"seen=[0-9,/:;NSW]{40,}", outside_code)
    boxes = re.findall(r'<details class="position-history">(.*?)</details>', page, re.S)
    assert boxes
    for box in boxes:
        notation = plain(re.search(r"<pre>(.*?)</pre>", box, re.S).group(1))
        history = notation.split(" seen=")[1].split(";")
        rows = re.findall(r"<tr[^>]*>\s*<td[^>]*><p>(\d+)</p></td>\s*<td[^>]*><p>([\d ]+)</p>"
                          r"</td>\s*<td[^>]*><p>([\d ]+)</p></td>", box)
        assert [int(number) for number, _, _ in rows] == list(range(1, len(history) + 1))
        for (_, south, north), entry in zip(rows, history):
            pits = entry.split(":")[0].replace("/", ",").split(",")
            assert south.split() + north.split() == pits
        assert f"after the {len(history)} earlier position" in plain(page)
