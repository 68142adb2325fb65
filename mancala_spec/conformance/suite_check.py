"""Whether a conformance suite is well formed, case by case, before any is run
(:func:`check_suite`): the fields of each case, the JSON schema's shapes, and
positions play can reach. :mod:`.runner` checks every suite with it.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..errors import SuiteError
from .process import short


def is_ints(value: Any) -> bool:
    """Whether *value* is a list of ints (bools are not)."""
    return isinstance(value, list) and all(type(v) is int for v in value)

#: the ruleset of a case that names none (a suite exported before cases named theirs)
DEFAULT_RULESET = "mancala_spec"

_CASE_FIELDS = {"id": str, "rule": str, "game": str, "options": dict, "position": dict,
                "expected": dict}


def case_problem(case: Any) -> str | None:
    """Why *case* is not a valid suite case, or ``None``."""
    if not isinstance(case, dict):
        return "a case is not a JSON object"
    for key, kind in _CASE_FIELDS.items():
        if not isinstance(case.get(key), kind):
            return f'"{key}" is missing or not a{"n" if kind is dict else ""} ' \
                   f'{"object" if kind is dict else "string"}'
    if not isinstance(case["position"].get("fields"), dict):
        return '"position.fields" is missing'
    move = case.get("move")
    if move is not None and not (isinstance(move, dict) and type(move.get("pit")) is int):
        return '"move" is neither null nor {"pit": <integer>, ...}'
    expected = case["expected"]
    if not is_ints(expected.get("legal_moves")):
        return '"expected.legal_moves" is missing or not a list of integers'
    if move is None and ("is_over" not in expected or "winner" not in expected):
        return '"expected" lacks is_over or winner'
    if move is not None and not expected.get("error"):
        if not isinstance(expected.get("result"), dict):
            return '"expected.result" is missing'
        if not isinstance(expected.get("events"), list):
            return '"expected.events" is missing'
    if case.get("match") is not None and not isinstance(case["match"], dict):
        return '"match" is not an object'
    if "ruleset" in case and not isinstance(case["ruleset"], str):
        return '"ruleset" is not a string'
    return None


_TYPES: dict[str, Callable[[Any], bool]] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: type(v) is int,
    "number": lambda v: type(v) in (int, float),
    "boolean": lambda v: type(v) is bool,
    "null": lambda v: v is None,
}


def _kind(value: Any) -> str:
    for name, test in _TYPES.items():
        if name != "number" and test(value):
            return _a(name)
    return "a number"


def _same(a: Any, b: Any) -> bool:
    """JSON equality: ``1`` is not ``true``."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    return a == b


def _a(name: str) -> str:
    return ("an " if name[0] in "aeiou" else "a ") + name


def schema_problem(value: Any, schema: dict[str, Any], root: dict[str, Any] | None = None,
                   path: str = "$") -> tuple[str, str] | None:
    """Where and why *value* does not match the JSON Schema *schema*, as
    (path, what is wrong): ``("$.cases[3].expected.match", "must be an object,
    not an array")``; ``None`` if it matches.

    It reads the keywords the suite's schema uses (``$ref`` within the
    document, ``type``, ``const``, ``enum``, ``oneOf``, ``required``,
    ``properties``, ``additionalProperties``, ``items``, ``prefixItems``,
    ``minItems``, ``maxItems``, ``minimum``, ``maximum``); a test checks that
    it agrees with a full validator."""
    root = schema if root is None else root
    if "$ref" in schema:
        target: Any = root
        for part in schema["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        problem = schema_problem(value, target, root, path)
        if problem:
            return problem
    if "const" in schema and not _same(value, schema["const"]):
        return path, f"must be {short(schema['const'])}, not {short(value)}"
    if "enum" in schema and not any(_same(value, v) for v in schema["enum"]):
        return path, f"must be one of {short(schema['enum'])}, not {short(value)}"
    if "oneOf" in schema:
        problems = [schema_problem(value, option, root, path) for option in schema["oneOf"]]
        if sum(p is None for p in problems) != 1:
            return next((p for p in problems if p), (path, "matches more than one form"))
    if "type" in schema:
        types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(_TYPES[t](value) for t in types):
            return path, f"must be {' or '.join(map(_a, types))}, not {_kind(value)}"
    if type(value) in (int, float):
        if "minimum" in schema and value < schema["minimum"]:
            return path, f"must be at least {schema['minimum']}, not {value}"
        if "maximum" in schema and value > schema["maximum"]:
            return path, f"must be at most {schema['maximum']}, not {value}"
    if isinstance(value, dict):
        for key in schema.get("required", ()):
            if key not in value:
                return path, f"lacks {short(key)}"
        properties = schema.get("properties", {})
        for key, item in value.items():
            if key in properties:
                problem = schema_problem(item, properties[key], root, f"{path}.{key}")
                if problem:
                    return problem
            elif schema.get("additionalProperties") is False:
                return path, f"has {short(key)}, which it may not"
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0):
            return path, f"must hold at least {schema['minItems']} items, not {len(value)}"
        if "maxItems" in schema and len(value) > schema["maxItems"]:
            return path, f"must hold at most {schema['maxItems']} items, not {len(value)}"
        prefix = schema.get("prefixItems", [])
        for index, item in enumerate(value):
            rule = prefix[index] if index < len(prefix) else schema.get("items")
            if isinstance(rule, dict):
                problem = schema_problem(item, rule, root, f"{path}[{index}]")
                if problem:
                    return problem
    return None


def check_suite(suite: Any) -> None:
    """Raise :class:`~mancala_spec.errors.SuiteError` if *suite* is not a suite
    document the runner can run: not of the suite's JSON Schema (``path`` names
    the first place it departs from it), two cases with one ID, no case, or a
    case whose position play cannot reach (its captured counts, under its own
    game, ruleset and options: ``path`` names them)."""
    from . import schema
    from .protocol import PROTOCOL

    if not isinstance(suite, dict):
        raise SuiteError(f"the suite is {_kind(suite)}, not a JSON object", "$")
    if suite.get("protocol") != PROTOCOL:
        raise SuiteError(f"this runner speaks {PROTOCOL}, the suite is for "
                         f"{short(suite.get('protocol'))}", "$.protocol")
    if suite.get("cases") == []:
        raise SuiteError("the suite has no cases", "$.cases")
    problem = schema_problem(suite, schema())
    if problem:
        raise SuiteError(f"{problem[0]}: {problem[1]}", problem[0])
    seen: set[str] = set()
    for index, case in enumerate(suite["cases"]):
        if case["id"] in seen:
            raise SuiteError(f"$.cases[{index}].id: {short(case['id'])} is the ID of an "
                             "earlier case", f"$.cases[{index}].id")
        seen.add(case["id"])
        unreachable = _unreachable(case)
        if unreachable:
            where = f"$.cases[{index}].position.fields.captured"
            raise SuiteError(f"{where}: case {short(case['id'])}: {unreachable}", where)


def _unreachable(case: dict[str, Any]) -> str | None:
    """Why play cannot reach *case*'s captured counts, under its game, ruleset
    and options (:meth:`~mancala_spec.engine.games.base.Game.check_captured`), or
    ``None``. A game or options this package does not know are the engine's to
    answer (``unsupported``)."""
    from ..engine.games import get_game
    from ..errors import InvalidPositionError, MancalaError

    fields = case["position"]["fields"]
    try:
        game = get_game(case["game"], ruleset=case.get("ruleset", DEFAULT_RULESET),
                        **case["options"])
        game.check_captured(fields["pits"], fields["captured"], opener=fields["opener"],
                            owners=fields.get("owners") or game.board.default_owners)
    except InvalidPositionError as error:
        return error.message if error.field == "captured" else None
    except (MancalaError, KeyError, TypeError):
        return None
    return None


def suite_problem(suite: Any) -> str | None:
    """Why *suite* is not a suite the runner can run (see :func:`check_suite`),
    or ``None``."""
    try:
        check_suite(suite)
    except SuiteError as error:
        return str(error)
    return None
