"""The conformance protocol: JSON lines between the runner and an engine.

The runner starts the engine as a subprocess and writes one request per line
on its standard input; the engine answers each with one line on its standard
output, in order. Version: ``mancala-spec-conformance/1``.

A request::

    {"id": "ba-awa-relay-1", "game": "ba-awa", "ruleset": "mancala_spec",
     "options": {"skip_origin": false},
     "position": {"pits": [...], "to_move": 0, "captured": [0, 0], "opener": 0,
                  "owners": [...], "history": [[[...], 1], ...]},
     "move": 4}

``move`` is a pit index in sowing order (0 = South's a), or ``null`` to ask
only about the position. ``options`` lists every option of the game, with the
value the case plays: ``ruleset`` names the named ruleset those values come
from (``mancala_spec``, this reference's, or another program's rules, or
Koumma as the Bakuk text describes it, 001_1132cff477fa5791.txt line 24; see
``mancala_spec.rulesets``), and the options hold its values
and any change made on top of it, as ``get_game(game, ruleset=..., **options)``
would. So an engine may play by ``options`` alone; the reference engine does.

The answer::

    {"id": "ba-awa-relay-1", "legal_moves": [0, 1, 2],
     "result": {"pits": [...], "to_move": 1, "captured": [4, 0], "opener": 0,
                "owners": [...], "is_over": false, "winner": null},
     "events": [{"event": "pick-up", "pit": 4, "seeds": 4}, ...]}

- ``legal_moves``: the legal moves of the *given* position, sorted;
- ``result``: the position after the move (absent when ``move`` is null);
  when ``move`` is null, ``is_over`` and ``winner`` of the given position may
  be sent as top-level fields instead;
- ``events`` (optional): the move's events as in :mod:`mancala_spec.engine.trace`;
  the runner compares them when present (without ``rule`` unless asked);
- ``{"id": ..., "legal_moves": [...], "error": "illegal"}`` when the move is
  not legal;
- ``{"id": ..., "unsupported": "why"}`` for a game or option the engine does
  not implement (the case is reported as skipped; by default every case must
  be supported).

Once a move ends the game, ``to_move`` in the result is the next player in
turn order after the mover, with no pass applied. ``history`` holds the
positions seen since the last capture, oldest first, without the current one.
The protocol page of the rules site has the JSON Schemas of requests and
answers (built by ``mancala_spec.conformance.wire``) and the comparison rules.

A Ba-awa **match** case adds ``"match": {"target": 12, "opener": "alternate",
"allocation": "extend"}`` to the request: the move ends a game of a match, and
the answer adds ``"match": {"earned": [...], "is_over": ..., "winner": ...,
"next": {"owners": [...], "opener": ...}}`` (``next`` is null once the match
is over): the pits each player won, and who owns which pit and who opens in
the next game.
"""
from __future__ import annotations

import json
import sys
from typing import Any, TextIO

from ..engine.games import get_game
from ..engine.position import Position
from ..errors import IllegalMoveError

PROTOCOL = "mancala-spec-conformance/1"


def position_fields(pos: Position) -> dict[str, Any]:
    """A position as the protocol's plain fields."""
    return {"pits": list(pos.pits), "to_move": pos.to_move, "captured": list(pos.captured),
            "opener": pos.opener, "owners": list(pos.owners),
            "history": [[list(pits), player] for pits, player in pos.history]}


def result_fields(pos: Position) -> dict[str, Any]:
    """The fields of a resulting position that the runner compares."""
    fields = position_fields(pos)
    del fields["history"]
    return {**fields, "is_over": pos.is_over, "winner": pos.winner}


def position_from_fields(game, fields: dict[str, Any]) -> Position:
    """Build a position of *game* from protocol fields (raising on invalid input)."""
    return game.position(fields["pits"], to_move=fields["to_move"],
                         captured=fields["captured"], opener=fields["opener"],
                         owners=fields.get("owners"),
                         history=[(pits, player) for pits, player in fields.get("history", [])])


def answer(request: dict[str, Any], get=get_game) -> dict[str, Any]:
    """The reference engine's answer to one request (*get* builds the game)."""
    reply: dict[str, Any] = {"id": request.get("id")}
    try:
        game = get(request["game"], **request.get("options", {}))
        pos = position_from_fields(game, request["position"])
    except ValueError as error:
        return {**reply, "unsupported": str(error)}
    reply["legal_moves"] = pos.legal_moves()
    move = request.get("move")
    if move is None:
        return {**reply, "is_over": pos.is_over, "winner": pos.winner}
    try:
        trace = pos.trace(move)
    except IllegalMoveError:
        return {**reply, "error": "illegal"}
    reply["result"] = result_fields(trace.position)
    reply["events"] = [event.as_dict() for event in trace.events]
    if request.get("match") is not None:
        reply["match"] = match_fields(pos, move, request["match"])
    return reply


def match_fields(pos: Position, move: int, settings: dict[str, Any]) -> dict[str, Any]:
    """What a match says after *move* from *pos* ends a game (see the module docstring)."""
    from ..engine.games.match import Match

    match = Match.starting_from(pos, **settings).play(move)
    if not match.game_over:
        return {"game_over": False}
    following = None if match.is_over else match.next_game().position
    return {"earned": list(match.earned()), "is_over": match.is_over, "winner": match.winner,
            "next": None if following is None else {"owners": list(following.owners),
                                                     "opener": following.opener}}


def reply_to(line: str, get=get_game) -> dict[str, Any]:
    """The reference engine's answer to one line: a request's answer, or, for a
    line that is not a request (not JSON, JSON but no object: ``[]``, ``1``,
    ``null``, ``NaN``; nested too deeply; an object the engine cannot read),
    ``{"id": ..., "unsupported": "bad request: why"}`` (the id when the line
    has one that is a string or a whole number), and the engine goes on."""
    try:
        request = json.loads(line)
    except RecursionError:
        return {"id": None, "unsupported": "bad request: nested too deeply"}
    except ValueError as error:
        return {"id": None, "unsupported": f"bad request: not JSON ({error})"}
    if not isinstance(request, dict):
        kind = {list: "an array", str: "a string", bool: "true or false",
                type(None): "null"}.get(type(request), "a number")
        return {"id": None, "unsupported": f"bad request: a request is a JSON object, not {kind}"}
    ident = request.get("id")
    if not (ident is None or isinstance(ident, str) or type(ident) is int):
        ident = None
    try:
        reply = answer(request, get)
        json.dumps(reply, allow_nan=False)
        return reply
    except RecursionError:
        return {"id": ident, "unsupported": "bad request: nested too deeply"}
    except Exception as error:  # noqa: BLE001 - any request the engine cannot read
        return {"id": ident, "unsupported": f"bad request: {type(error).__name__}: "
                                            f"{str(error)[:200]}"}


def serve(stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout, get=get_game) -> None:
    """Answer requests line by line until end of input (:func:`reply_to`: a line
    that is not a request gets an error answer, and the next is read)."""
    for line in stdin:
        if not line.strip():
            continue
        stdout.write(json.dumps(reply_to(line, get)) + "\n")
        stdout.flush()
