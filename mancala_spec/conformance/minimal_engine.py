#!/usr/bin/env python3
"""A minimal engine for the conformance protocol, written independently of mancala_spec.

Plain functions over plain lists; no classes, no events; this reference's
ruleset at its default options only (any other ruleset or option is answered
as unsupported). It shows how little an engine
needs to speak the protocol: read a JSON line, answer a JSON line.

    python -m mancala_spec.conformance.minimal_engine
    mancala-spec conformance run --engine "python -m mancala_spec.conformance.minimal_engine"
"""
import json
import sys

DEFAULTS = {
    "ba-awa": {"choose": "owned", "skip_origin": False, "endless": "illegal", "no_move": "pass",
               "repetition": "end", "decided": False, "players": 2, "turn_order": "sowing"},
    "bakuk": {"skip_origin": False, "first_counter": "next", "sixes": False, "chain": "forward",
              "decided": False, "no_move": "end", "leftovers": "unscored", "repetition": "end",
              "players": 2, "turn_order": "sowing"},
}


def ba_awa_sow(pits, owners, captured, pit, mover):
    """Relay-sow from pit; return (pits, captured) or None if it never ends."""
    pits, captured = pits[:], captured[:]
    seen = set()
    while True:
        if (tuple(pits), pit) in seen:
            return None
        seen.add((tuple(pits), pit))
        hand, pits[pit] = pits[pit], 0
        while hand:
            pit = (pit + 1) % len(pits)
            pits[pit] += 1
            hand -= 1
            if pits[pit] == 4:
                captured[owners[pit] if hand else mover] += 4
                pits[pit] = 0
                if not hand:
                    return pits, captured
        if pits[pit] == 1:
            return pits, captured


def ba_awa_moves(p):
    return [i for i, n in enumerate(p["pits"]) if n and p["owners"][i] == p["to_move"]
            and ba_awa_sow(p["pits"], p["owners"], p["captured"], i, p["to_move"])]


def players_after(p, mover):
    count = len(p["captured"])
    order = [(mover + k) % count for k in range(1, count + 1)]
    return [q for q in order if q in p["owners"] or q == mover]


def ba_awa_play(p, pit):
    pits, captured = ba_awa_sow(p["pits"], p["owners"], p["captured"], pit, p["to_move"])
    seen = [] if captured != p["captured"] else p["history"] + [[p["pits"], p["to_move"]]]
    q = dict(p, pits=pits, captured=captured, history=seen)
    def sweep():
        captured[p["opener"]] += sum(pits)
        return dict(q, pits=[0] * len(pits), history=[], to_move=players_after(p, p["to_move"])[0])
    if sum(pits) <= 8:
        return sweep()
    for player in players_after(p, p["to_move"]):
        if ba_awa_moves(dict(q, to_move=player)):
            q["to_move"] = player
            return sweep() if [pits, player] in seen else q
    return sweep()


def bakuk_play(p, pit):
    pits, captured = p["pits"][:], p["captured"][:]
    hand, pits[pit] = pits[pit], 0
    last = pit
    for _ in range(hand):
        last = (last + 1) % len(pits)
        pits[last] += 1
    while pits[last] in (2, 4):
        captured[p["to_move"]] += pits[last]
        pits[last] = 0
        last = (last + 1) % len(pits)
    seen = [] if captured != p["captured"] else p["history"] + [[p["pits"], p["to_move"]]]
    return dict(p, pits=pits, captured=captured, history=seen,
                to_move=players_after(p, p["to_move"])[0])


def bakuk_moves(p):
    return [i for i, n in enumerate(p["pits"]) if n and p["owners"][i] == p["to_move"]]


def bakuk_over(p):
    return (not sum(p["pits"]) or not bakuk_moves(p)
            or [p["pits"], p["to_move"]] in p["history"])


def winner(p):
    best = max(p["captured"])
    return p["captured"].index(best) if p["captured"].count(best) == 1 else None


def answer(request):
    game, p = request["game"], request["position"]
    if request.get("ruleset", "mancala_spec") != "mancala_spec":
        return {"id": request["id"], "unsupported": f"only this reference's ruleset, "
                                                     f"not {request['ruleset']}"}
    if game not in DEFAULTS or request.get("options", {}) != DEFAULTS[game]:
        return {"id": request["id"], "unsupported": "only default options"}
    if request.get("match"):
        return {"id": request["id"], "unsupported": "no match play"}
    if game == "ba-awa":
        moves, play, over = ba_awa_moves, ba_awa_play, lambda q: not sum(q["pits"])
    else:
        moves, play, over = bakuk_moves, bakuk_play, bakuk_over
    legal = [] if over(p) else moves(p)
    reply = {"id": request["id"], "legal_moves": legal}
    if request.get("move") is None:
        return dict(reply, is_over=over(p), winner=winner(p) if over(p) else None)
    if request["move"] not in legal:
        return dict(reply, error="illegal")
    q = play(p, request["move"])
    done = over(q)
    reply["result"] = {"pits": q["pits"], "to_move": q["to_move"], "captured": q["captured"],
                       "opener": q["opener"], "owners": q["owners"], "is_over": done,
                       "winner": winner(q) if done else None}
    return reply


if __name__ == "__main__":
    for line in sys.stdin:
        if line.strip():
            print(json.dumps(answer(json.loads(line))), flush=True)
