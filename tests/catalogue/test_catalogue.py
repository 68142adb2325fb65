"""The rules catalogue (mancala_spec/catalogue/catalogue.toml) against its sources.

Most checks read the TOML and the source files directly, independently of the
loader in mancala_spec/catalogue/__init__.py, so that a bug in the loader cannot hide a bad
citation. One test checks that the loader accepts the catalogue.
"""
from __future__ import annotations

import tomllib
from collections import Counter
from pathlib import Path

import pytest

from mancala_spec.options import OPTIONS as DECLARED
from mancala_spec.options import plain

ROOT = Path(__file__).resolve().parents[2]
SOURCES_DIR = ROOT / "mancala_spec" / "sources"
CATALOGUE_FILE = ROOT / "mancala_spec" / "catalogue" / "catalogue.toml"

CA, EL, DE = "000_772c55c4feba1a9c.txt", "001_1132cff477fa5791.txt", "002_8fadbd38f8f31b03.txt"
SOURCE_GAME = {CA: "ba-awa", EL: "bakuk", DE: "ba-awa"}

# Every rule, in the order a learner meets it, with its kind.
EXPECTED_RULES = [
    ("ba-awa-board", "sourced"),
    ("ba-awa-stores", "sourced"),
    ("ba-awa-setup", "sourced"),
    ("ba-awa-turns", "sourced"),
    ("ba-awa-choose", "sourced"),
    ("ba-awa-sow", "sourced"),
    ("ba-awa-origin", "editorial"),
    ("ba-awa-relay", "sourced"),
    ("ba-awa-sowing-end", "sourced"),
    ("ba-awa-endless", "editorial"),
    ("ba-awa-owner-four", "sourced"),
    ("ba-awa-mover-four", "sourced"),
    ("ba-awa-eight", "sourced"),
    ("ba-awa-eight-timing", "editorial"),
    ("ba-awa-no-move", "editorial"),
    ("ba-awa-repetition", "editorial"),
    ("ba-awa-winner", "editorial"),
    ("ba-awa-three-players", "sourced"),
    ("ba-awa-three-turns", "editorial"),
    ("ba-awa-match-setup", "sourced"),
    ("ba-awa-match-aim", "sourced"),
    ("ba-awa-match-allocation", "editorial"),
    ("ba-awa-match-opener", "editorial"),
    ("ba-awa-match-elimination", "editorial"),
    ("bakuk-board", "sourced"),
    ("bakuk-setup", "sourced"),
    ("bakuk-turns", "sourced"),
    ("bakuk-choose", "sourced"),
    ("bakuk-sow", "sourced"),
    ("bakuk-origin", "editorial"),
    ("bakuk-capture", "sourced"),
    ("bakuk-chain", "sourced"),
    ("bakuk-end", "sourced"),
    ("bakuk-exhausted", "editorial"),
    ("bakuk-leftovers", "editorial"),
    ("bakuk-repetition", "editorial"),
    ("bakuk-winner", "sourced"),
    ("bakuk-draw", "editorial"),
    ("bakuk-three-players", "sourced"),
    ("bakuk-three-turns", "editorial"),
]
EXPECTED_IDS = [rule_id for rule_id, _ in EXPECTED_RULES]
EXPECTED_KIND = dict(EXPECTED_RULES)

# The engine's options per game, from their one declaration: option -> (default, values).
OPTIONS: dict[str, dict[str, tuple[object, tuple[object, ...]]]] = {
    game: {o.name: (o.default, o.choices) for o in DECLARED if o.game == game}
    for game in ("ba-awa", "bakuk")}

# Which rule offers which option (as an editorial alternative, a form or a variant), as
# declared; rules not listed offer no option.
RULE_OPTIONS = {o.rule: o.name for o in DECLARED}

# Source lines that state rules this version does not implement: match play and
# three-player play. (Bakuk's three-player clause shares line 12 with the cited
# two-player ownership sentence, so it is not a context line.)
DEFERRED: set[tuple[str, int]] = set()  # none left: match play and three players are implemented


def read_source(name: str) -> str:
    return (SOURCES_DIR / name).read_bytes().decode("utf-8")


def source_lines(name: str) -> list[str]:
    return read_source(name).splitlines()


RAW = tomllib.loads(CATALOGUE_FILE.read_text(encoding="utf-8"))
RULES: list[dict] = RAW.get("rule", [])
CONTEXT: list[dict] = RAW.get("context", [])
CITATIONS = [(rule["id"], n, c) for rule in RULES for n, c in enumerate(rule.get("citation", []))]


def lines_holding(citation: dict) -> list[int]:
    """1-based numbers of the source lines that contain the citation's quote."""
    return [number for number, text in enumerate(source_lines(citation["source"]), start=1)
            if citation["quote"] in text]


def same_value(a: object, b: object) -> bool:
    """Equal and of the same type (so that 1 is not taken for True; a word is
    the enumeration member it names)."""
    a, b = plain(a), plain(b)  # type: ignore[arg-type]
    return type(a) is type(b) and a == b


# --- sources ------------------------------------------------------------------

def test_the_three_sources_are_there_and_have_no_empty_lines():
    for name in SOURCE_GAME:
        lines = source_lines(name)
        assert len(lines) > 20, name
        empty = [n for n, text in enumerate(lines, start=1) if not text.strip()]
        assert not empty, f"{name} has empty lines {empty}"


# --- citations ----------------------------------------------------------------

def test_there_are_citations():
    assert len(CITATIONS) >= len([k for k in EXPECTED_KIND.values() if k == "sourced"])


@pytest.mark.parametrize("rule_id, n, citation", CITATIONS,
                         ids=[f"{rule_id}#{n}" for rule_id, n, _ in CITATIONS])
def test_quote_is_exact_substring_of_one_source_line(rule_id, n, citation):
    assert citation["source"] in SOURCE_GAME, f"unknown source {citation['source']!r}"
    text = read_source(citation["source"])
    quote = citation["quote"]
    assert quote.strip(), "empty quote"
    assert quote in text, f"{rule_id}: not in {citation['source']}: {quote!r}"
    assert text.count(quote) == 1, f"{rule_id}: quote occurs {text.count(quote)} times: {quote!r}"
    assert len(lines_holding(citation)) == 1, f"{rule_id}: quote spans lines: {quote!r}"
    assert citation["translation"].strip(), f"{rule_id}: no translation for {quote!r}"


@pytest.mark.parametrize("rule_id, n, citation", CITATIONS,
                         ids=[f"{rule_id}#{n}" for rule_id, n, _ in CITATIONS])
def test_rule_cites_only_its_own_games_sources(rule_id, n, citation):
    game = next(rule["game"] for rule in RULES if rule["id"] == rule_id)
    assert SOURCE_GAME[citation["source"]] == game, f"{rule_id} cites {citation['source']}"


# --- the catalogue as the loader sees it --------------------------------------

def test_catalogue_loads():
    from mancala_spec.catalogue import load_catalogue

    catalogue = load_catalogue()
    assert [rule.id for rule in catalogue] == [rule["id"] for rule in RULES]
    assert len(catalogue.context) == len(CONTEXT)
    assert sum(len(rule.citations) for rule in catalogue) == len(CITATIONS)
    for rule in catalogue:
        for citation in rule.citations:
            holding = lines_holding({"source": citation.source, "quote": citation.quote})
            assert citation.line in holding


def test_rule_ids_are_unique():
    counts = Counter(rule["id"] for rule in RULES)
    assert not [i for i, c in counts.items() if c > 1], counts


def test_expected_ids_exactly_present():
    ids = {rule["id"] for rule in RULES}
    missing = sorted(set(EXPECTED_IDS) - ids)
    extra = sorted(ids - set(EXPECTED_IDS))
    assert not missing and not extra, f"missing {missing}, unexpected {extra}"


def test_rules_are_in_learner_order():
    assert [rule["id"] for rule in RULES] == EXPECTED_IDS


@pytest.mark.parametrize("rule", RULES, ids=[r["id"] for r in RULES])
def test_rule_fields(rule):
    assert rule["kind"] == EXPECTED_KIND[rule["id"]]
    assert rule["game"] in OPTIONS and rule["id"].startswith(rule["game"] + "-")
    assert rule["title"].strip() and rule.get("claim")
    assert "statement" not in rule, f"{rule['id']}: the statement is its claims, not a field"
    for claim in rule["claim"]:
        assert claim["text"].strip() and claim["basis"] in ("source", "reading", "editorial")
    editorial_fields = ("gap", "default", "rationale")
    if rule["kind"] == "sourced":
        assert rule.get("citation"), f"{rule['id']}: a sourced rule needs a citation"
        assert not any(rule.get(f, "").strip() for f in editorial_fields), rule["id"]
        # a sourced rule offers no editorial alternative; its only alternatives play
        # the other reading of one of its reading claims (ba-awa-choose: choose="row")
        read = {c.get("option") for c in rule["claim"] if c["basis"] == "reading"}
        for offer in rule.get("alternative", []):
            assert offer["option"] in read, \
                f"{rule['id']}: a sourced rule's alternative plays a reading's other reading"
    else:
        for f in editorial_fields:
            assert rule.get(f, "").strip(), f"{rule['id']}: editorial rule without {f}"
        assert not rule.get("variant"), \
            f"{rule['id']}: editorial rules offer alternatives, not variants"


@pytest.mark.parametrize("rule",
                         [r for r in RULES if r["game"] == "ba-awa" and r["kind"] == "sourced"],
                         ids=lambda r: r["id"])
def test_sourced_ba_awa_rule_cites_catalan_and_german(rule):
    cited = {c["source"] for c in rule["citation"]}
    assert {CA, DE} <= cited, f"{rule['id']} cites only {sorted(cited)}"


# --- every source line is accounted for ---------------------------------------

def test_every_source_line_is_cited_or_context_but_not_both():
    cited = {(c["source"], line) for _, _, c in CITATIONS for line in lines_holding(c)}
    context = {(c["source"], c["line"]) for c in CONTEXT}
    all_lines = {(name, n) for name in SOURCE_GAME for n in range(1, len(source_lines(name)) + 1)}

    def show(keys):
        return "\n".join(f"  {name} line {n}: {source_lines(name)[n - 1][:80]!r}"
                         for name, n in sorted(keys))

    uncovered = all_lines - cited - context
    both = cited & context
    assert not uncovered and not both, (
        "source lines neither cited nor listed as context:\n" + show(uncovered)
        + "\ncontext lines that are also cited:\n" + show(both))


def test_context_entries_are_in_range_unique_and_explained():
    keys = [(c["source"], c["line"]) for c in CONTEXT]
    assert len(keys) == len(set(keys)), [k for k, n in Counter(keys).items() if n > 1]
    for entry in CONTEXT:
        assert entry["source"] in SOURCE_GAME, entry
        assert isinstance(entry["line"], int) and not isinstance(entry["line"], bool), entry
        assert 1 <= entry["line"] <= len(source_lines(entry["source"])), entry
    # an attribution line's reason is made from the records (records.attribution_reason)
    from mancala_spec.catalogue import load_catalogue

    for line in load_catalogue().context:
        assert line.reason.strip(), line


def test_deferred_only_for_match_and_three_player_lines():
    deferred = {(c["source"], c["line"]) for c in CONTEXT if c.get("deferred", False)}
    assert all(isinstance(c.get("deferred", False), bool) for c in CONTEXT)
    assert deferred == DEFERRED, f"deferred {sorted(deferred)}, expected {sorted(DEFERRED)}"


# --- options --------------------------------------------------------------------

def offers(rule: dict) -> list[tuple[str, dict]]:
    return ([("alternative", a) for a in rule.get("alternative", [])]
            + [("form", f) for f in rule.get("form", [])]
            + [("variant", v) for v in rule.get("variant", [])])


@pytest.mark.parametrize("rule", RULES, ids=[r["id"] for r in RULES])
def test_alternatives_and_variants_name_known_options_and_values(rule):
    game_options = OPTIONS[rule["game"]]
    for how, offer in offers(rule):
        option, value = offer["option"], offer["value"]
        assert option in game_options, f"{rule['id']}: unknown {rule['game']} option {option!r}"
        default, allowed = game_options[option]
        assert any(same_value(value, a) for a in allowed), \
            f"{rule['id']}: {option}={value!r} is not one of {allowed}"
        assert not same_value(value, default), \
            f"{rule['id']}: {how} {option}={value!r} is the default"
        assert offer["description"].strip(), f"{rule['id']}: {how} without description"
    expected = RULE_OPTIONS.get(rule["id"])
    got = sorted({offer["option"] for _, offer in offers(rule)})
    assert got == ([expected] if expected else []), f"{rule['id']} offers {got}"


def test_every_non_default_option_value_is_described_by_some_rule():
    offered = {(rule["game"], offer["option"], repr(offer["value"]))
               for rule in RULES for _, offer in offers(rule)}
    wanted = {(game, option, repr(plain(value)))
              for game, options in OPTIONS.items()
              for option, (default, allowed) in options.items()
              for value in allowed if not same_value(value, default)}
    assert wanted <= offered, f"not described: {sorted(wanted - offered)}"
