"""Worked examples as data: read, checked against the engine, shown, run, exported.

Each ```{example} block of the rules pages is the one source of its doctest, its
diagrams and its conformance cases (mancala_spec.conformance.worked_examples). These
tests check that the data agrees with the reference engine, that a wrong or
incomplete statement is caught (by the check and by the generated doctest),
that an example cannot yield no case, and that the built site shows exactly
what the data makes.
"""
from __future__ import annotations

import dataclasses
import doctest
import html
import re
from pathlib import Path

import pytest

from mancala_spec.conformance import build_suite
from mancala_spec.conformance.example_check import check
from mancala_spec.conformance.worked_examples import (
    ExampleError,
    extract_examples,
    page_examples,
    parse_example,
)

DOCS = Path(__file__).resolve().parents[2] / "docs"
EXAMPLES = extract_examples(DOCS)
BY_ID = {example.id: example for example in EXAMPLES}

SOW = '''
game = "bakuk"
position = "6,6,2/6,4,6 S 2-4 opener=S"
move = "c"
events = """
pick up 2 from c  [bakuk-choose]
drop in A → 7  [bakuk-sow]
drop in B → 5  [bakuk-sow]
lap 1 ends in B (5)  [bakuk-sow]
move ends: the hand is empty after a single lap  [bakuk-sow]
"""
result = "6,6,0/7,5,6 N 2-4 opener=S seen=6,6,2/6,4,6:S"
'''


def run_doctest(example) -> doctest.TestResults:
    test = doctest.DocTestParser().get_doctest(example.doctest(), {}, example.id, example.id, 0)
    return doctest.DocTestRunner().run(test, out=lambda text: None)


def test_the_pages_hold_the_worked_examples():
    assert len(EXAMPLES) >= 53
    pages = {example.page for example in EXAMPLES}
    assert {"ba-awa.md", "bakuk.md", "editorial.md", "match-and-three-players.md"} <= pages


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda example: example.id)
def test_every_example_states_what_the_engine_does(example):
    assert check(example) == []
    assert example.plays                        # an example always plays something
    assert run_doctest(example).failed == 0


def test_a_wrong_statement_fails_the_check_and_the_doctest():
    right = parse_example("bakuk-sow-1", SOW, "bakuk-sow")
    assert check(right) == [] and run_doctest(right).failed == 0
    for wrong_text in [SOW.replace("drop in B → 5", "drop in B → 6"),       # an event
                       SOW.replace("7,5,6 N", "7,5,6 S"),                   # the result
                       SOW + 'legal = ["a", "b"]\n',                        # the legal moves
                       SOW + "winner = 0\n"]:                               # not over
        wrong = parse_example("bakuk-sow-1", wrong_text, "bakuk-sow")
        assert check(wrong), wrong_text
        assert run_doctest(wrong).failed >= 1, wrong_text


def test_nothing_is_exported_from_a_wrong_example():
    wrong = parse_example("bakuk-sow-1", SOW.replace("7,5,6 N", "7,5,6 S"), "bakuk-sow",
                          "bakuk.md", 7)
    with pytest.raises(ExampleError, match=r"^bakuk.md:7: bakuk-sow-1: result is '6,6,0/7,5,6 N"):
        build_suite([wrong])


def test_what_the_data_leaves_out_is_asked_for():
    end = BY_ID["bakuk-end-1"]
    (play,) = end.plays
    silent = dataclasses.replace(end, plays=(dataclasses.replace(
        play, expect={k: v for k, v in play.expect.items() if k != "winner"}),))
    assert check(silent) == ["bakuk-end-1: the game is over after the move: state its winner"]
    illegal = parse_example("bakuk-choose-9", 'game = "bakuk"\nmove = "A"\nerror = "no"\n')
    assert check(illegal) == ["bakuk-choose-9: error is 'pit A belongs to North, but South "
                              "is to move', not 'no' as the example says"]


@pytest.mark.parametrize("text, reason", [
    ('game = "bakuk"\nmove = "a"\n', "a move must state events and result"),
    ('game = "bakuk"\n', "a case without a move must state legal"),
    ('move = "a"\nerror = "x"\n', "game is required"),
    ('game = "bakuk"\nlegal = []\nmoves = "a"\n', "unknown key(s) moves"),
    ('game = "bakuk"\nlegal = [\n', "not TOML"),
    ('game = "bakuk"\nlegal = []\n[[diagram]]\nname = "f"\ncase = 2\n', "no case 2"),
    ('game = "bakuk"\noptions = {chain = "sideways"}\nlegal = []\n', "chain"),
    ('game = "bakuk"\nmove = "a"\nevents = 5\nresult = "x"\n', "events must be text"),
    ('game = "bakuk"\nlegal = []\nwinner = "South"\n', 'a player number or "draw"'),
    ('game = "bakuk"\nlegal = []\nchecks = [["pos"]]\n', "[code, output] pairs"),
    ('game = "bakuk"\nlegal = []\n[[diagram]]\nname = "f"\ncase = "1"\n', "whole number"),
    ('game = "bakuk"\nbefore = ["A"]\nlegal = []\n', "pit A belongs to North"),
])
def test_an_example_that_would_yield_no_checked_case_is_refused(text, reason):
    with pytest.raises(ExampleError) as caught:
        parse_example("bakuk-sow-9", text)
    assert reason in str(caught.value)
    assert caught.value.example == "bakuk-sow-9"


def test_only_examples_as_data_may_sit_in_rule_blocks():
    old_style = "````{rule} bakuk-sow\n```{doctest} bakuk-sow-1\n>>> 1\n1\n\n```\n````\n"
    with pytest.raises(ExampleError, match="worked examples are {example} blocks"):
        page_examples(old_style, "p.md")
    outside = "```{example} bakuk-sow-1\n" + SOW + "```\n"
    with pytest.raises(ExampleError, match="must sit inside the {rule} block"):
        page_examples(outside, "p.md")
    misnamed = "````{rule} bakuk-capture\n```{example} bakuk-sow-1\n" + SOW + "```\n````\n"
    with pytest.raises(ExampleError, match="<rule>-<n>"):
        page_examples(misnamed, "p.md")
    shown = "```markdown\n````{rule} bakuk-sow\n```{doctest} x\n```\n````\n```\n"
    assert page_examples(shown, "p.md") == []        # syntax shown in a code fence


def test_every_case_of_every_example_is_in_the_suite(docs_suite):
    suite = docs_suite                   # build_suite(EXAMPLES), once per run (conftest)
    ids = {case["id"] for case in suite["cases"]}
    for example in EXAMPLES:
        assert set(example.case_ids()) <= ids, example.id
    # a position reached by moves played first is exported as that position
    repetition = next(case for case in suite["cases"] if case["id"] == "bakuk-repetition-1")
    assert repetition["position"]["text"].startswith("0,0,0/1,0,1 N 16-18 opener=S seen=")
    assert repetition["expected"]["events"][-1]["reason"] == "repetition"


def game_start(case) -> str:
    import mancala_spec as ms

    return ms.get_game(case.game, **dict(case.options)).start(case.opener).to_text()


def _pre_after(page: str, anchor: str) -> str:
    start = page.index(f'id="{anchor}"')
    block = re.search(r"<pre>(.*?)</pre>", page[start:], re.S)
    assert block, anchor
    return html.unescape(re.sub(r"<[^>]+>", "", block[1]))


def test_the_site_shows_the_doctest_and_diagrams_the_data_makes(site):
    for example in EXAMPLES:
        page = site.page(example.page.removesuffix(".md"))
        shown = re.sub(r"  # doctest: \S+", "", example.doctest())   # Sphinx hides flags
        assert _pre_after(page, f"example-{example.id}").strip() == shown.strip()
        # the caption carries the first legal move the data plays, for the Play page
        caption = re.search(rf'<p class="example-caption"([^>]*) id="example-{example.id}">', page)
        assert caption, example.id
        data = dict(re.findall(r'data-(\w+)="([^"]*)"', caption[1]))
        played = [play for play in example.plays
                  if play.case.move is not None and "error" not in play.expect]
        if played:
            case = played[0].case
            assert data["game"] == case.game and data["move"] == case.move, example.id
            assert data["position"] == (case.position or game_start(case)), example.id
        else:       # no move to step through: the position, to open in Play
            case = example.plays[0].case
            assert "move" not in data and data["game"] == case.game, example.id
            assert data["position"] == (case.position or game_start(case)), example.id
        for diagram in example.diagrams:
            figure = re.search(rf'<figure[^>]*id="{diagram.name}".*?</figure>', page, re.S)
            assert figure, diagram.name
            play = example.plays[diagram.case - 1]
            shown = play.expect["next"] if diagram.draw == "next" else play.expect["result"]
            # the caption counts a history instead of writing it out (history_counted)
            from mancala_spec.sphinx.diagrams import history_counted

            assert html.escape(history_counted(shown), quote=False) in figure[0], diagram.name
            assert f'href="#example-{example.id}"' in figure[0], diagram.name
