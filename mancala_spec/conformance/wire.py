"""JSON Schemas of the protocol's requests and answers, derived from the engine.

Nothing here is typed by hand that the engine declares: the games' options and
the match settings (names, values and their meanings, defaults, the rule each
switches) come from :mod:`mancala_spec.options`, the event kinds and their
fields from the trace's event classes. The
protocol page shows these schemas, and a test validates the runner's real
traffic against them.
"""
from __future__ import annotations

import dataclasses
import re
import typing
from typing import Any

from ..engine.games import GAMES
from ..options import Option, game_options, match_settings
from .protocol import PROTOCOL

SCHEMA = "https://json-schema.org/draft/2020-12/schema"
#: The schemas' identifiers: absolute URIs (URNs: names, not addresses to fetch, since
#: the project has no published home of its own). The suite's schema (schema.json)
#: has the third; an exported suite names it as its ``$schema``.
SCHEMA_IDS = {"request": "urn:mancala-spec:conformance:1:request",
              "answer": "urn:mancala-spec:conformance:1:answer",
              "suite": "urn:mancala-spec:conformance:1:suite"}


def _has(name: str) -> dict[str, Any]:
    """A subschema matching objects that have *name* (its property declared, as
    ajv's strict mode asks of every ``required`` name)."""
    return {"required": [name], "properties": {name: {}}}


def plain_text(docstring: str) -> str:
    """A docstring as a schema reader sees it: one paragraph, no reStructuredText
    (````x```` and ``:data:`X``` become ``x`` and ``X``).

    >>> plain_text("The sowing is over. ``reason`` is one of :data:`MOVE_END_REASONS`.")
    'The sowing is over. reason is one of MOVE_END_REASONS.'
    """
    text = re.sub(r":[a-z]+:`~?([^`]+)`", r"\1", docstring)
    text = re.sub(r"``([^`]+)``", r"\1", text)
    return " ".join(text.split())


def options_schema(name: str) -> dict[str, Any]:
    """Game *name*'s ``options`` object: every option, with its values and what
    each means (from :mod:`mancala_spec.options`)."""
    options = game_options(name)
    return {
        "type": "object",
        "description": f"every option of {name}; the runner always sends all of them",
        "required": [option.name for option in options],
        "additionalProperties": False,
        "properties": {
            option.name: {
                "description": f"{option.help} (rule {option.rule})",
                "default": option.default,
                "oneOf": [{"const": choice.value, "description": choice.meaning}
                          for choice in option.values]}
            for option in options},
    }


def rulesets_schema(name: str) -> dict[str, Any]:
    """Game *name*'s ``ruleset``: the names of its rulesets, each with its title
    (from ``mancala_spec/catalogue/rulesets.toml``)."""
    from ..rulesets import rulesets

    return {"oneOf": [{"const": r.name, "description": r.title} for r in rulesets(name)]}


def _setting(option: Option) -> dict[str, Any]:
    return {"description": f"{option.help} (rule {option.rule})",
            "oneOf": [{"const": choice.value, "description": choice.meaning}
                      for choice in option.values]}


def _defs() -> dict[str, Any]:
    players = max(choice for game in GAMES for o in game_options(game) if o.name == "players"
                  for choice in o.choices if isinstance(choice, int))
    settings = match_settings("ba-awa")
    return {
        "count": {"type": "integer", "minimum": 0},
        "player": {"type": "integer", "minimum": 0, "maximum": players - 1,
                   "description": "0 South, 1 North (three players: 0 South, 1 East, 2 North)"},
        "pits": {"type": "array", "items": {"$ref": "#/$defs/count"},
                 "description": "seeds in each pit, in sowing order from South's leftmost"},
        "captured": {"type": "array", "items": {"$ref": "#/$defs/count"}, "minItems": 2,
                     "maxItems": players},
        "owners": {"type": "array", "items": {"$ref": "#/$defs/player"}},
        "winner": {"oneOf": [{"$ref": "#/$defs/player"}, {"type": "null"}],
                   "description": "who won; null while the game goes on, and for a draw"},
        "position": {
            "type": "object",
            "required": ["pits", "to_move", "captured", "opener", "owners", "history"],
            "additionalProperties": False,
            "properties": {
                "pits": {"$ref": "#/$defs/pits"}, "to_move": {"$ref": "#/$defs/player"},
                "captured": {"$ref": "#/$defs/captured"}, "opener": {"$ref": "#/$defs/player"},
                "owners": {"$ref": "#/$defs/owners"},
                "history": {
                    "type": "array",
                    "description": "the positions seen since the last capture, oldest first, "
                                   "each [pits, player to move]; the current position is not "
                                   "in it (the repetition rules read it)",
                    "items": {"type": "array", "prefixItems": [
                        {"$ref": "#/$defs/pits"}, {"$ref": "#/$defs/player"}],
                        "minItems": 2, "maxItems": 2}},
            },
        },
        "result": {
            "type": "object",
            "required": ["pits", "to_move", "captured", "opener", "owners", "is_over",
                         "winner"],
            "properties": {
                "pits": {"$ref": "#/$defs/pits"},
                "to_move": {"$ref": "#/$defs/player",
                            "description": "the next player in turn order after the mover "
                                           "who is not passed over; once the game is over, "
                                           "the next player in turn order after the mover "
                                           "(no pass is applied)"},
                "captured": {"$ref": "#/$defs/captured"}, "opener": {"$ref": "#/$defs/player"},
                "owners": {"$ref": "#/$defs/owners"}, "is_over": {"type": "boolean"},
                "winner": {"$ref": "#/$defs/winner"},
                "history": {"description": "optional; not compared"},
            },
        },
        "match_settings": {
            "type": "object", "required": [o.name for o in settings],
            "additionalProperties": False,
            "properties": {o.name: _setting(o) for o in settings},
        },
        "match_answer": {
            "type": "object",
            "properties": {
                "game_over": {"type": "boolean"},
                "earned": {"type": "array", "items": {"$ref": "#/$defs/count"}},
                "is_over": {"type": "boolean"}, "winner": {"$ref": "#/$defs/winner"},
                "next": {"oneOf": [{"type": "null"}, {
                    "type": "object", "required": ["owners", "opener"],
                    "properties": {"owners": {"$ref": "#/$defs/owners"},
                                   "opener": {"$ref": "#/$defs/player"}}}]},
            },
        },
        "event": {"oneOf": [_event_schema(cls) for cls in _event_types()]},
    }


def _event_types():
    from ..engine.trace import EVENT_TYPES

    return list(EVENT_TYPES.values())


def _event_schema(cls) -> dict[str, Any]:
    from ..engine.trace import GAME_END_REASONS, MOVE_END_REASONS

    hints = typing.get_type_hints(cls)
    properties: dict[str, Any] = {"event": {"const": cls.kind}, "rule": {"type": "string"}}
    for field in dataclasses.fields(cls):
        if field.name == "rule":
            continue
        kind = hints.get(field.name)
        if field.name == "reason":
            reasons = GAME_END_REASONS if cls.kind == "end-of-game" else MOVE_END_REASONS
            properties[field.name] = {"enum": list(reasons)}
        elif kind is int:
            properties[field.name] = {"type": "integer"}
        else:
            properties[field.name] = {}
    return {"type": "object", "title": cls.kind, "description": plain_text(cls.__doc__ or ""),
            "required": ["event", *(f.name for f in dataclasses.fields(cls) if f.name != "rule")],
            "properties": properties, "additionalProperties": False}


def request_schema() -> dict[str, Any]:
    """The JSON Schema of one request line."""
    return {
        "$schema": SCHEMA, "$id": SCHEMA_IDS["request"],
        "title": f"{PROTOCOL} request",
        "type": "object",
        "required": ["id", "game", "ruleset", "options", "position", "move"],
        "additionalProperties": False,
        "properties": {
            "id": {"type": "string", "description": "the case's ID; echo it in the answer"},
            "game": {"enum": sorted(GAMES)},
            "ruleset": {"type": "string",
                        "description": "the named ruleset the case plays (mancala_spec: this "
                                       "reference's); options already hold its values and any "
                                       "change made on top of it, so an engine may play by "
                                       "options alone, or answer unsupported for a ruleset it "
                                       "does not implement"},
            "options": {"type": "object"},
            "position": {"$ref": "#/$defs/position"},
            "move": {"oneOf": [{"type": "integer", "minimum": 0}, {"type": "null"}],
                     "description": "the pit to play, by index in sowing order; null asks "
                                    "only about the position"},
            "match": {"$ref": "#/$defs/match_settings",
                      "description": "Ba-awa only: the move ends a game of this match"},
        },
        "allOf": [{"if": {"properties": {"game": {"const": name}}},
                   "then": {"properties": {"options": options_schema(name),
                                           "ruleset": rulesets_schema(name)}}}
                  for name in sorted(GAMES)],
        "$defs": _defs(),
    }


def answer_schema() -> dict[str, Any]:
    """The JSON Schema of one answer line."""
    legal = {"type": "array", "items": {"type": "integer", "minimum": 0},
             "description": "the legal moves of the given position, sorted; [] once it is over"}
    identity = {"type": ["string", "null"], "description": "the request's id"}
    return {
        "$schema": SCHEMA, "$id": SCHEMA_IDS["answer"],
        "title": f"{PROTOCOL} answer",
        "oneOf": [
            {"title": "unsupported", "type": "object", "required": ["id", "unsupported"],
             "properties": {"id": identity, "unsupported": {"type": "string"}}},
            {"title": "illegal move", "type": "object", "required": ["id", "legal_moves", "error"],
             "properties": {"id": identity, "legal_moves": legal,
                            "error": {"const": "illegal"}},
             "not": _has("unsupported")},
            {"title": "the position only (move null)", "type": "object",
             "required": ["id", "legal_moves", "is_over", "winner"],
             "properties": {"id": identity, "legal_moves": legal,
                            "is_over": {"type": "boolean"}, "winner": {"$ref": "#/$defs/winner"}},
             "not": {"anyOf": [_has("unsupported"), _has("error"), _has("result")]}},
            {"title": "a move played", "type": "object",
             "required": ["id", "legal_moves", "result"],
             "properties": {"id": identity, "legal_moves": legal,
                            "result": {"$ref": "#/$defs/result"},
                            "events": {"type": "array", "items": {"$ref": "#/$defs/event"},
                                       "description": "optional; compared whenever sent"},
                            "match": {"$ref": "#/$defs/match_answer"}},
             "not": {"anyOf": [_has("unsupported"), _has("error")]}},
        ],
        "$defs": _defs(),
    }
