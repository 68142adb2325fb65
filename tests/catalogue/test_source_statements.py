"""Statements about the sources and about other programs, held to the source
documents and the records (issue 43, item 5). Each test is the guard that would
have caught one of the defects the audit found; each fails on the text before.
"""
from __future__ import annotations

import ast
import json
import re
from pathlib import Path

from mancala_spec.catalogue import load_catalogue
from mancala_spec.catalogue.ruleset_records import programs
from mancala_spec.sources import source_text

ROOT = Path(__file__).resolve().parents[2]
GREEK = "001_1132cff477fa5791.txt"


def _flat(text: str) -> str:
    return " ".join(text.split())


def _docstrings() -> dict[str, str]:
    out = {}
    for path in sorted((ROOT / "mancala_spec").rglob("*.py")):
        tree = ast.parse(path.read_text("utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef):
                doc = ast.get_docstring(node)
                if doc:
                    out[f"{path.relative_to(ROOT)}:{getattr(node, 'name', '')}"] = doc
    return out


def test_sixes_for_bakuk_are_marked_as_our_reading_of_what_is_said_of_koumma():
    """The source says only that in Koumma clusters of six can also be captured
    (line 24); by the last counter and in the chain is our reading. (Bakuk.captures
    and CapturesSixes said "as the source says of Koumma".)"""
    from mancala_spec.options import OPTIONS

    texts = dict(_docstrings())
    for option in OPTIONS:
        for choice in option.values:
            texts[f"option {option.game}.{option.name}={choice.value!r}"] = choice.meaning
    wrong = []
    for where, text in texts.items():
        for sentence in re.split(r"(?<=[.;])\s+", _flat(text)):
            if re.search(r"\bsix(es)?\b", sentence) and "Koumma" in sentence \
                    and re.search(r"source says", sentence) \
                    and not re.search(r"says only|reading", sentence):
                wrong.append(f"{where}: {sentence}")
    assert not wrong, "\n".join(wrong)


def test_koumma_is_compared_with_both_lines_that_name_it():
    """Line 5 ("distinct initial distributions and capture parameters") and line 24
    (two key respects) both set Koumma beside Bakuk; the readings page and the koumma
    ruleset cite both."""
    lines = source_text(GREEK).splitlines()
    assert "Koumma" in lines[4] and "διακριτές αρχικές κατανομές" in lines[4]
    assert "Koumma" in lines[23]
    page = (ROOT / "docs" / "readings-compared.md").read_text("utf-8")
    for number in (5, 24):
        assert f"<{GREEK}:{number}>" in page
    from mancala_spec.rulesets import rulesets
    [koumma] = [r for r in rulesets("bakuk") if r.name == "koumma"]
    quotes = [c.quote for d in koumma.differences for c in d.citations]
    assert any(q in lines[4] for q in quotes) and any(q in lines[23] for q in quotes)


def _game_type_lines() -> dict[str, str]:
    """Each document's language -> its game-type line (line 2)."""
    catalogue = load_catalogue()
    return {d.language: source_text(d.file).splitlines()[1] for d in catalogue.documents}


def test_what_the_sources_page_says_of_the_game_type_lines_is_the_catalogues():
    """The game-type lines left in English are those the catalogue lists among each
    document's English passages (the German one is German)."""
    catalogue = load_catalogue()
    in_english = sorted(d.language for d in catalogue.documents
                        if any(passage in source_text(d.file).splitlines()[1]
                               for passage in d.english if len(passage) > 40))
    assert in_english == ["Catalan", "Greek"]
    page = _flat((ROOT / "docs" / "sources.md").read_text("utf-8"))
    said = re.search(r"English is left inside\*\* each of them \(([^;]*);", page)
    assert said and said.group(1).startswith(f"the {' and '.join(in_english)} documents' "
                                             "game-type lines")


def test_the_glossary_calls_casa_style_only_what_the_lines_call_so():
    casa = sorted(language for language, line in _game_type_lines().items() if "casa" in line)
    assert casa == ["Catalan"]
    entry = _flat((ROOT / "docs" / "glossary.md").read_text("utf-8").split("casa-style\n", 1)[1]
                  .split("\n\n", 1)[0])
    assert "their game-type lines" not in entry
    assert f"the {casa[0]} document's game-type line" in entry


def test_no_line_is_given_an_origin_the_provenance_record_does_not_know():
    """The record says the address and the publication are unknown: no context line
    is called link text of a published page. (German line 3 was.)"""
    for context in load_catalogue().context:
        assert not re.search(r"published page|web[- ]page|link text", context.reason, re.I), \
            context


def test_the_mancalagames_file_count_is_the_records():
    record = json.loads((ROOT / "tests" / "data" / "mancalagames_games.json").read_text("utf-8"))
    program = programs()["mancalagames"]
    assert program.commit == record["program"]["commit"]
    numbers = [int(n) for n in re.findall(r"\b(\d+) files\b", program.about)]
    assert numbers == [record["program"]["game_files"]]
    assert "hundred" not in program.about


def test_agreement_with_a_program_is_claimed_with_the_seeds_it_lost():
    """MancalaGames' recorded endless sowings lose seeds (the stores differ by them):
    a claim that every position and score agreed says where they did not."""
    texts = {"rulesets.toml compared": programs()["mancalagames"].compared,
             "readings-compared.md": (ROOT / "docs" / "readings-compared.md").read_text("utf-8")}
    for where, text in texts.items():
        for block in re.split(r"\n\s*\n|\n- ", text):
            if re.search(r"position and score agreeing", block):
                assert "lost" in block, where


def test_stale_statements_are_gone():
    readme = (ROOT / "README.md").read_text("utf-8")
    assert "Ba-awa by experiment" not in readme           # Ba-awa is solved
    from mancala_spec.analysis.common import CONFIGS
    page = _flat((ROOT / "docs" / "analysis.md").read_text("utf-8"))
    assert "each editorial alternative" not in page
    words = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}
    assert f"{words[len(CONFIGS) - 1]} editorial alternatives" in page
    from mancala_spec.options import Choice
    assert "reading" not in (Choice.__doc__ or "")
