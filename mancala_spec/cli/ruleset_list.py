"""``mancala-spec rulesets``: the named rulesets of each game, with their basis."""
from __future__ import annotations

import json
import textwrap
from typing import Any

from . import command
from .arguments import game_name


def _arguments(parser) -> None:
    parser.add_argument("--game", type=game_name, metavar="GAME",
                        help="only this game's rulesets (ba-awa or bakuk, or an alias)")
    parser.add_argument("--format", choices=("text", "json"), default="text",
                        help="text (default) or JSON")


def _shown(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _as_data(game: str) -> list[dict[str, Any]]:
    from ..rulesets import game_values, match_settings, rulesets

    out = []
    for r in rulesets(game):
        program = r.program
        out.append({
            "name": r.name, "title": r.title, "basis": r.basis,
            "options": game_values(game, r.name), "match_settings": match_settings(game, r.name),
            "program": None if program is None else {
                "name": program.name, "repository": program.repository,
                "commit": program.commit, "licence": program.licence},
            "differences": [{"rule": d.rule, "basis": d.basis, "text": d.text,
                             **({"option": d.option, "value": d.value} if d.option
                                else {"unplayed": d.unplayed}),
                             **({"where": list(d.where)} if d.where else {}),
                             **({"quotes": [c.quote for c in d.citations]}
                                if d.citations else {})}
                            for d in r.differences if d.game == game]})
    return out


@command("rulesets", "list each game's named rulesets (play one with --ruleset NAME), "
                     "with the basis of every difference", _arguments)
def run_rulesets(args) -> int:
    from ..engine.games import GAMES

    games = [g for g in GAMES if args.game in (None, g)]
    if args.format == "json":
        print(json.dumps({g: _as_data(g) for g in games}, indent=2, ensure_ascii=False))
        return 0
    wrap = textwrap.TextWrapper(width=88, initial_indent="      ", subsequent_indent="      ")
    for game in games:
        print(f"{game} rulesets:")
        for r in _as_data(game):
            options = r["options"] | r["match_settings"]
            shown = " ".join(f"{k}={_shown(v)}" for k, v in options.items()) or "(the defaults)"
            print(f"  {r['name']:14} {r['title']}: {shown}")
            program = r["program"]
            if program:
                print(wrap.fill(f"source: {program['name']} ({program['repository']}, commit "
                                f"{program['commit'][:12]}, {program['licence']}): what that "
                                "program does, not what the game is"))
            for d in r["differences"]:
                how = f"{d['option']}={_shown(d['value'])}" if "option" in d else "not played"
                basis = ", ".join(d.get("where", [])) or d["basis"]
                print(wrap.fill(f"- {d['rule']} [{how}; {basis}]: {d['text']}"))
    return 0
