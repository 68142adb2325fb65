"""The version names what is cited (issue 43, item 2).

Between releases the version is a development version that names its commit
(``0.3.0.dev0+g<12 hex digits>``) in the package, its metadata, the pages and the
citations; CITATION.cff and both changelogs describe the last release, and the
changelogs' first section is the upcoming one. At a release, all of them name the
release. The version is written once, in ``mancala_spec/version.py``, a module that
imports nothing (issue 41), and the catalogue reads it without the package facade.
"""
from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

import mancala_spec as ms
from mancala_spec import version as v
from mancala_spec.catalogue import cite, registry

ROOT = Path(__file__).resolve().parents[2]
RELEASE_NUMBER = re.compile(r"(\d+)\.(\d+)\.(\d+)")


def _number(text: str) -> tuple[int, ...]:
    match = RELEASE_NUMBER.match(text)
    assert match, text
    return tuple(int(part) for part in match.groups())


def test_the_version_module_imports_nothing():
    tree = ast.parse((ROOT / "mancala_spec" / "version.py").read_text("utf-8"))
    assert not [node for node in tree.body if isinstance(node, ast.Import | ast.ImportFrom)]
    # run alone, as pyproject's build reads it: it needs and loads nothing of the package
    code = ("import importlib.util, sys; spec = importlib.util.spec_from_file_location('v', "
            "sys.argv[1]); module = importlib.util.module_from_spec(spec); "
            "spec.loader.exec_module(module); "
            "print(module.__version__, [m for m in sys.modules if m.startswith('mancala_spec')])")
    out = subprocess.run([sys.executable, "-I", "-c", code,
                          str(ROOT / "mancala_spec" / "version.py")], capture_output=True,
                         text=True, timeout=60, check=True).stdout
    assert out.split() == [ms.__version__, "[]"]


def test_the_catalogue_reads_the_version_without_the_package_facade():
    for module in ("cite.py", "pdf.py"):
        text = (ROOT / "mancala_spec" / "catalogue" / module).read_text("utf-8")
        assert "from .. import __version__" not in text and "import mancala_spec\n" not in text
        assert "from ..version import" in text


def test_pyproject_reads_the_version_module():
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {
        "attr": "mancala_spec.version.__version__"}
    assert ms.__version__ == v.__version__ == v.described()


def test_a_development_version_names_its_commit():
    if v.RELEASED is not None:
        pytest.skip("a release names no commit")    # pragma: no cover - at a release only
    assert re.fullmatch(r"\d+\.\d+\.\d+\.dev\d+", v.BASE)
    assert re.fullmatch(re.escape(v.BASE) + r"\+(g[0-9a-f]{12}|unknown)", v.__version__)


def test_in_a_checkout_the_version_names_head(tmp_path):
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert head.returncode == 0, "not a git checkout: " + head.stderr
    assert v.git_commit(str(ROOT)) == head.stdout.strip()
    if v.RELEASED is None:
        assert ms.__version__ == f"{v.BASE}+g{head.stdout.strip()[:12]}"


def _repository(tmp_path: Path, ref: str, loose: bool) -> Path:
    sha = "0123456789abcdef0123456789abcdef01234567"
    git = tmp_path / "main.git"
    (git / "refs" / "heads").mkdir(parents=True)
    if loose:
        (git / "refs" / "heads" / ref).write_text(sha + "\n")
    else:
        (git / "packed-refs").write_text(f"# pack-refs with: peeled\n{sha} refs/heads/{ref}\n")
    tree = tmp_path / "tree"
    worktree = git / "worktrees" / "tree"
    worktree.mkdir(parents=True)
    (worktree / "HEAD").write_text(f"ref: refs/heads/{ref}\n")
    (worktree / "commondir").write_text("../..\n")
    tree.mkdir()
    (tree / ".git").write_text(f"gitdir: {worktree}\n")
    return tree


@pytest.mark.parametrize("loose", [True, False])
def test_the_commit_is_read_from_a_worktree_loose_or_packed(tmp_path, loose):
    tree = _repository(tmp_path, "work", loose)
    assert v.git_commit(str(tree)) == "0123456789abcdef0123456789abcdef01234567"
    assert v.described("9.9.0.dev0", None, str(tree)) == "9.9.0.dev0+g0123456789ab"
    assert v.described("9.9.0", "2027-01-01", str(tree)) == "9.9.0"


def test_an_sdist_keeps_the_commit_it_was_made_from(tmp_path):
    (tmp_path / "PKG-INFO").write_text("Metadata-Version: 2.4\nName: mancala-spec\n"
                                       "Version: 9.9.0.dev0+gfedcba987654\n\nREADME\n")
    assert v.described("9.9.0.dev0", None, str(tmp_path)) == "9.9.0.dev0+gfedcba987654"
    assert v.described("9.9.1.dev0", None, str(tmp_path)) == "9.9.1.dev0+unknown"


def _changelog_sections(text: str) -> list[tuple[str, str | None]]:
    return [(m.group(1), m.group(2)) for m in re.finditer(
        r"^## \[([^\]]+)\](?: - (\d{4}-\d\d-\d\d))?\s*$", text, re.M)]


def test_the_version_citation_cff_and_the_changelogs_agree():
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text("utf-8"))
    sections = _changelog_sections((ROOT / "CHANGELOG.md").read_text("utf-8"))
    rules = list(registry.changelog_sections(
        (ROOT / "docs" / "changelog.md").read_text("utf-8")))
    dated = [(name, date) for name, date in sections if date]
    if v.RELEASED is None:
        last, date = v.LAST_RELEASE
        assert sections[0] == ("Unreleased", None)
        assert _number(v.BASE) > _number(last)
        assert rules[0] in ("Unreleased", last)
        message = " ".join(cff["message"].split())
        assert "development build" in message and "commit" in message
    else:                                               # pragma: no cover - at a release
        last, date = v.BASE, v.RELEASED
    assert dated[0] == (last, date)
    assert (str(cff["version"]), str(cff["date-released"])) == (last, date)
    preferred = cff["preferred-citation"]
    assert (str(preferred["version"]), str(preferred["date-released"])) == (last, date)
    assert cite.RELEASE_DATE == date and registry.load_registry().latest == last
    assert last in rules


def test_a_citation_names_the_version_built_and_its_date():
    rule = ms.get_rule("bakuk-chain")
    text = cite.citation_text(rule, base="")
    assert f"(version {ms.__version__})" in text
    assert f"({cite.cited_date()[:4]})" in text
    csl = cite.citation_csl(rule, base="")
    assert csl["version"] == ms.__version__


def test_a_reproducible_build_dates_its_citations_by_source_date_epoch(monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1798761600")      # 2027-01-01
    expected = v.RELEASED or "2027-01-01"
    assert cite.cited_date() == expected
    assert f"date         = {{{expected}}}" in cite.citation_bibtex(
        ms.get_rule("bakuk-chain"), base="")
