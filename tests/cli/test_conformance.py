"""The conformance suite: extraction from the rules pages, export, protocol and runner."""
from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import jsonschema
import pytest

import mancala_spec as ms
from mancala_spec.catalogue import load_catalogue
from mancala_spec.conformance import extract_examples, schema
from mancala_spec.conformance.engine import MUTANTS
from mancala_spec.conformance.protocol import answer, position_fields
from mancala_spec.conformance.runner import (
    CRASH,
    FAIL,
    HUNG,
    PASS,
    SKIP,
    compare,
    request_of,
    run,
)

DOCS = Path(__file__).resolve().parents[2] / "docs"
PY = sys.executable
REFERENCE = [PY, "-m", "mancala_spec.conformance.engine"]
MINIMAL = [PY, "-m", "mancala_spec.conformance.minimal_engine"]


@pytest.fixture(scope="module")
def examples():
    return extract_examples(DOCS)


@pytest.fixture(scope="module")
def suite(docs_suite):
    """The suite of docs/ (conftest's ``docs_suite``, made once per run), a copy."""
    import copy
    return copy.deepcopy(docs_suite)


def test_every_rule_has_three_cases_and_ids_are_unique(suite):
    ids = [case["id"] for case in suite["cases"]]
    assert len(ids) == len(set(ids))
    covered = Counter(case["rule"] for case in suite["cases"])
    few = [rule.id for rule in load_catalogue() if covered[rule.id] < 3]
    assert not few, f"rules with fewer than three conformance cases: {few}"


def test_the_shipped_suite_is_a_fresh_extraction(suite):
    """``python -m mancala_spec.conformance.prebuilt`` regenerates it."""
    from mancala_spec.conformance import packaged_suite, suite_text
    from mancala_spec.conformance.prebuilt import TARGET

    assert TARGET.read_text("utf-8") == suite_text(suite)
    assert packaged_suite() == suite


def test_derived_cases_follow_the_example(suite):
    cases = {case["id"]: case for case in suite["cases"]}
    relay = cases["ba-awa-relay-1"]
    query = cases["ba-awa-relay-1~position"]
    assert query["position"] == relay["position"] and query["move"] is None
    after = cases["ba-awa-relay-1~after"]
    assert after["position"]["text"] == relay["expected"]["result"]["text"]
    assert after["move"]["pit"] == after["expected"]["legal_moves"][0]


RULESET_PAGE = "readings-compared.html"


def test_case_ids_come_from_example_ids(examples, suite):
    by_example = {example.id: example for example in examples}
    from mancala_spec.conformance import SUPPLEMENTS

    supplements = {extra.id: extra for extra in SUPPLEMENTS}
    for case in suite["cases"]:
        if case["id"] in supplements:
            assert case["rule"] == supplements[case["id"]].rule
            continue
        if case["where"] == RULESET_PAGE:     # test_ruleset_cases_name_their_ruleset
            continue
        base = case["id"].split("~")[0].split(".")[0]
        assert base in by_example and by_example[base].rule == case["rule"]
        page = by_example[base].page.removesuffix(".md")
        assert case["where"] == f"{page}.html#example-{base}"


def test_ruleset_cases_name_their_ruleset_and_differ_from_this_reference(suite):
    """Every case names its ruleset (the examples' and supplements' are this
    reference's); each named ruleset of each game has cases, at the positions the
    readings page draws, its options those of the ruleset, and each answer
    differs from this reference's at the same position and move."""
    import mancala_spec as ms
    from mancala_spec.analysis.readings import smallest_change, smallest_match_change
    from mancala_spec.rulesets import names
    from mancala_spec.rulesets import ruleset as named

    cases = {case["id"]: case for case in suite["cases"]}
    assert all(case["ruleset"] in names(case["game"]) for case in cases.values())
    seen = set()
    for case in cases.values():
        if case["where"] != RULESET_PAGE:
            assert case["ruleset"] == "mancala_spec", case["id"]
            continue
        if "~" in case["id"]:
            continue
        ruleset, game = case["ruleset"], case["game"]
        assert case["id"].startswith(f"{ruleset}-{case['rule']}-")
        assert case["options"] == dict(ms.get_game(game, ruleset=ruleset).options)
        diff = next(d for d in named(game, ruleset).differences
                    if d.rule == case["rule"] and d.option)
        if diff.option == "target":         # a match setting: a match case
            change = smallest_match_change(diff.option, diff.value)
            assert case["match"]["target"] == diff.value
        else:
            change = smallest_change(game, diff.option, diff.value)
        assert case["position"]["text"] == change.position.to_text()
        reference = cases[case["id"] + "~mancala_spec"]
        assert reference["ruleset"] == "mancala_spec" and reference["position"] == case["position"]
        assert reference["expected"] != case["expected"], case["id"]
        seen.add((game, ruleset))
    assert seen == {(g, r.name) for g in ("ba-awa", "bakuk") for r in ms.rulesets(g)
                    if r.name != "mancala_spec"}


def test_the_extractor_reads_what_an_example_plays(examples):
    found = {example.id: example.cases for example in examples}
    # bakuk-leftovers-1 plays the same position under two options: two cases
    leftovers = found["bakuk-leftovers-1"]
    assert [(c.game, dict(c.options), c.move) for c in leftovers] == [
        ("bakuk", {}, "c"), ("bakuk", {"leftovers": "owners"}, "c")]
    assert leftovers[0].position == "1,1,1/1,0,0 S 14-18 opener=S"
    # ba-awa-relay-2 plays from the start position
    (relay,) = found["ba-awa-relay-2"]
    assert relay.position is None and relay.move == "c"


def test_match_cases_carry_the_match_and_its_reallocation(suite):
    cases = {case["id"]: case for case in suite["cases"] if "match" in case}
    assert {"ba-awa-match-setup-1", "ba-awa-match-elimination-1"} <= set(cases)
    setup = cases["ba-awa-match-setup-1"]["expected"]["match"]
    # South ends with 32 seeds, North 16: eight pits and four, extended from South's row
    assert setup["earned"] == [8, 4] and setup["next"] == {"owners": [0] * 8 + [1] * 4,
                                                          "opener": 1}
    assert cases["ba-awa-match-opener-1.2"]["match"]["opener"] == "winner"
    assert cases["ba-awa-match-opener-1.2"]["expected"]["match"]["next"]["opener"] == 0


def test_export_matches_its_schema_and_the_engine(suite):
    jsonschema.validate(suite, schema())
    assert suite["protocol"] == "mancala-spec-conformance/1" and suite["version"] == 1
    case = next(c for c in suite["cases"] if c["move"])
    game = ms.get_game(case["game"], **case["options"])
    after = game.parse(case["position"]["text"]).play(case["move"]["pit"])
    assert case["expected"]["result"]["text"] == after.to_text()
    assert case["expected"]["result"]["pits"] == list(after.pits)
    assert json.loads(json.dumps(suite)) == suite


def test_reference_engine_passes_every_case_through_the_protocol(suite):
    report = run(REFERENCE, suite, timeout=20)
    assert report.count(PASS) == len(suite["cases"]), "\n".join(report.lines())
    assert report.exit_code == 0


def test_independent_minimal_engine_passes_what_it_supports(suite):
    report = run(MINIMAL, suite, timeout=20, min_supported=0)
    assert report.count(FAIL) == report.count(HUNG) == report.count(CRASH) == 0, \
        "\n".join(report.lines())
    skipped = [o.case for o in report.outcomes if o.status == SKIP]
    defaults = {name: dict(ms.get_game(name).options) for name in ("ba-awa", "bakuk")}
    for case in suite["cases"]:
        unsupported = case["options"] != defaults[case["game"]] or "match" in case
        assert (case["id"] in skipped) == unsupported
    assert report.count(PASS) > len(suite["cases"]) // 2
    # the report leads with the verdict, then the counts; the skipped cases are
    # grouped by the engine's reason into counts, and listed one by one only with verbose
    lines = report.lines()
    assert lines[0].startswith("conforming: the ") and lines[1].startswith(
        f"{len(suite['cases'])} cases: {report.count(PASS)} pass, {len(skipped)} skipped")
    assert not any(line.startswith("SKIPPED") for line in lines)
    head = lines.index(f"skipped {len(skipped)}, by the engine's reason "
                       "(--verbose lists each case):")
    grouped = [line.split(None, 1) for line in lines[head + 1:]]
    assert {reason for _, reason in grouped} >= {"only default options", "no match play"}
    assert sum(int(count) for count, _ in grouped) == len(skipped)
    verbose = report.lines(verbose=True)
    assert sum(line.startswith("SKIPPED") for line in verbose) == len(skipped)
    assert sum(line.startswith("PASS") for line in verbose) == report.count(PASS)


@pytest.mark.parametrize("mutant", sorted(set(MUTANTS) - {"no-endless-check"}))
def test_each_mutant_fails_two_cases_and_one_of_the_rule_it_breaks(suite, mutant):
    report = run(REFERENCE + ["--mutant", mutant], suite, timeout=20)
    failed = [o for o in report.outcomes if o.status == FAIL]
    assert len(failed) >= 2, f"mutant {mutant} failed only {[o.case for o in failed]}"
    assert report.exit_code == 1
    expected_rule = {"owner-four-to-mover": "ba-awa-owner-four", "no-relay": "ba-awa-relay",
                     "eight-to-mover": "ba-awa-eight", "backward-chain": "bakuk-chain",
                     "captures-sixes": "bakuk-capture", "no-origin-skip": "bakuk-origin"}[mutant]
    assert expected_rule in {o.rule for o in failed}, f"{mutant} failed only {failed}"
    # each failure shows the request sent (as the JSON line, without its id) and in words
    lines = report.lines()
    assert lines[0] == f"not conforming: {len(failed)} fail"
    cases = {case["id"]: case for case in suite["cases"]}
    for outcome in failed:
        at = lines.index(f"FAIL         {outcome.case}  [{outcome.rule}]")
        case = cases[outcome.case]
        asked, sent = lines[at + 1].strip(), lines[at + 2].strip()
        assert asked.startswith(f"asked: {case['game']} (ruleset ")
        move = f"move {case['move']['name']}" if case["move"] else "no move"
        assert f"position {case['position']['text']}, {move}" in asked
        request = {k: v for k, v in request_of(case).items() if k != "id"}
        assert json.loads(sent.removeprefix("sent: ")) == request


def test_an_engine_that_hangs_is_reported_not_waited_on(suite):
    endless = {"format": suite["format"], "version": 1, "protocol": suite["protocol"],
               "mancala_spec": ms.__version__,
               "cases": [c for c in suite["cases"] if c["rule"] == "ba-awa-endless"][:4]}
    assert endless["cases"]
    report = run(REFERENCE + ["--mutant", "no-endless-check"], endless, timeout=0.5)
    assert [o.status for o in report.outcomes].count(HUNG) >= 2
    assert report.seconds < 15 and report.exit_code == 1


def test_an_engine_that_crashes_is_reported(suite):
    crashing = [PY, "-c", "import sys; sys.stderr.write('boom\\n'); sys.exit(3)"]
    small = dict(suite, cases=suite["cases"][:2])
    report = run(crashing, small, timeout=5)
    assert [o.status for o in report.outcomes] == [CRASH, CRASH]
    assert report.exit_code == 1
    assert any("boom" in line for line in report.outcomes[0].diff)


def test_compare_says_what_differs():
    pos = ms.get_game("bakuk").start()
    request = {"id": "x", "game": "bakuk", "options": dict(pos.game.options),
               "position": position_fields(pos), "move": 0}
    expected = answer(request)
    wrong = json.loads(json.dumps(expected))
    wrong["result"]["pits"][1] += 1
    wrong["events"][1]["count"] = 99
    diff = compare(expected, wrong)
    # six counters from a go round the board: the last falls back into a
    assert diff[0] == "result.pits: expected [1, 7, 7, 7, 7, 7], got [1, 8, 7, 7, 7, 7]"
    assert diff[1].startswith("events[1]: expected")
    assert compare(expected, expected) == []
    assert compare(expected, {**expected, "error": "illegal"}) == [
        "the engine refused the move as 'illegal'"]
