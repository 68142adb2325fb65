"""The wire protocol: its schemas hold for the runner's real traffic, an engine
in another language passes the suite, and what the protocol page states holds."""
from __future__ import annotations

import json
import random
import shutil
import sys
from pathlib import Path

import jsonschema
import pytest

import mancala_spec as ms
from mancala_spec.conformance import packaged_suite
from mancala_spec.conformance.runner import PASS, SKIP, run
from mancala_spec.conformance.wire import answer_schema, options_schema, request_schema
from mancala_spec.engine.games import GAMES

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = [sys.executable, "-m", "mancala_spec.conformance.engine"]


@pytest.fixture(scope="module")
def suite():
    return packaged_suite()


def _check_traffic(traffic):
    requests = jsonschema.Draft202012Validator(request_schema())
    answers = jsonschema.Draft202012Validator(answer_schema())
    for request, line in traffic:
        requests.validate(request)
        answers.validate(json.loads(line))


def test_the_reference_engines_traffic_matches_the_schemas(suite):
    traffic = []
    report = run(REFERENCE, suite, timeout=20, traffic=traffic)
    assert report.count(PASS) == len(suite["cases"])
    assert len(traffic) == len(suite["cases"])
    _check_traffic(traffic)
    kinds = {tuple(sorted(json.loads(line))) for _, line in traffic}
    assert ("events", "id", "legal_moves", "result") in kinds          # a move
    assert ("id", "is_over", "legal_moves", "winner") in kinds           # move: null
    assert ("error", "id", "legal_moves") in kinds                       # an illegal move


def test_the_schemas_refuse_what_they_should(suite):
    request = {"id": "x", "game": "bakuk", "ruleset": "koumma",
               "options": dict(ms.get_game("bakuk", ruleset="koumma").options),
               "position": suite["cases"][-1]["position"]["fields"], "move": None}
    jsonschema.validate(request, request_schema())
    without = {k: v for k, v in request.items() if k != "ruleset"}
    for bad in ({**request, "options": {**request["options"], "chain": "sideways"}},
                {**request, "options": {"chain": "forward"}},
                {**request, "ruleset": "everyboard"},       # EveryBoard plays Ba-awa only
                {**request, "ruleset": 3}, without,
                {**request, "move": "a"}, {**request, "game": "chess"}):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(bad, request_schema())
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"id": "x", "legal_moves": "all"}, answer_schema())


def test_the_options_come_from_their_declarations():
    from mancala_spec.options import game_options

    for name in GAMES:
        schema = options_schema(name)
        assert schema["required"] == [option.name for option in game_options(name)]
        assert schema["required"] == list(ms.get_game(name).options)
        for option in game_options(name):
            values = [c["const"] for c in schema["properties"][option.name]["oneOf"]]
            assert values == list(option.choices)
            assert schema["properties"][option.name]["default"] == option.default


def test_an_engine_in_javascript_passes_the_suite(suite):
    node = shutil.which("node")
    assert node, "node is needed to run the JavaScript example engine"
    traffic = []
    report = run([node, str(ROOT / "examples" / "engine.js")], suite, timeout=20,
                 traffic=traffic, min_supported=0)
    assert report.count(PASS) + report.count(SKIP) == len(suite["cases"]), \
        "\n".join(report.lines())
    defaults = {name: dict(ms.get_game(name).options) for name in GAMES}
    supported = [c for c in suite["cases"]
                 if c["options"] == defaults[c["game"]] and "match" not in c]
    assert report.count(PASS) == len(supported) > len(suite["cases"]) // 2
    _check_traffic(traffic)


@pytest.mark.parametrize("name, options", [("ba-awa", {}), ("bakuk", {}),
                                           ("ba-awa", {"players": 3}), ("bakuk", {"players": 3})])
def test_to_move_after_the_end_is_the_next_player_after_the_mover(name, options):
    """What the protocol page states: once the game is over, ``to_move`` is the
    next player in turn order after the one who moved (no pass applied)."""
    game = ms.get_game(name, **options)
    rng = random.Random(7)
    for _ in range(30):
        pos = game.start()
        while not pos.is_over:
            before = pos
            pos = pos.play(rng.choice(pos.legal_moves()))
        order = list(game.turn_order(before.to_move))
        assert pos.to_move == order[0], (before.to_text(), pos.to_text())


def test_the_protocol_page_is_in_the_toctree():
    assert "\nprotocol\n" in (ROOT / "docs" / "index.md").read_text("utf-8")
    page = (ROOT / "docs" / "protocol.md").read_text("utf-8")
    for directive in ("{protocol-schema} request", "{protocol-schema} answer",
                      "{protocol-exchanges}"):
        assert directive in page
