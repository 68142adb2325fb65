"""Record random games played by MancalaGames itself, as data.

    python tools/record_mancalagames.py --mancalagames PATH [--games N] [--seed S] [--out FILE]

MancalaGames (StoneShark/MancalaGames, GPL-3.0) is a Python program that plays
several hundred mancala games, Ba-awa and Bakuk among them, each configured by a
file in its ``GameProps/`` directory. PATH is a local checkout of it; nothing of
it is copied here: it is imported from PATH when this script runs, as
``benchmarks/bench_mancalagames.py`` does, and only what it *does* is written
out: for each game, every move drawn at random among the moves it offers
(``get_moves``), and after each move the board, the stores and the player to
move as it reports them.

The file written (JSON) says which program, which commit of it, which GameProps
files and which licence; the games are facts about that program's play, a
secondary source of what the program does, never of what the games are. The
tests replay them move by move under the ``mancalagames`` ruleset
(``tests/engine/test_rulesets_recorded.py``).

Board order. MancalaGames numbers its holes 0 … 2n-1 in the sowing direction
(counter-clockwise), from the bottom row's left hole, which its player
``False`` owns; that is our numbering (pit 0 = South's a), so a hole's number
is our pit index, player ``False`` is our South (0) and ``True`` our North (1).
A Ba-awa move of MancalaGames is a ``(row, position, direction)`` triple,
turned into its hole with the program's own ``xlate_pos_loc``; a Bakuk move is
the position in the mover's row, turned likewise.

A Ba-awa game of MancalaGames is a match of rounds; one round is one of our
games, so each recorded Ba-awa game ends with the program's first round.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import random
import subprocess
import sys
from pathlib import Path

#: what is recorded: our name -> (our game, its GameProps file, its variant or None)
#: (Bakuk.txt also names a variant "Koumma", but at the commit recorded the program's own
#: check of its parameters refuses it: "MIN_MOVE of 1 with SOW_START play is confusing
#: (unless MOVE_ONE)", so it cannot be played and is not recorded.)
PLAYED = {"ba-awa": ("ba-awa", "Ba-awa.txt", None), "bakuk": ("bakuk", "Bakuk.txt", None)}
#: the cap on moves per recorded game (a random Bakuk game may cycle: the program
#: has no repetition rule, so a game that reaches it is recorded up to the cap)
MAX_MOVES = 400


def load(path: Path):
    """MancalaGames' ``make_game``, imported from *path*, animation and log off."""
    sys.path.insert(0, str(path / "src"))
    import animator  # noqa: PLC0415  (MancalaGames' own modules, from PATH)
    animator.ENABLED = False
    import man_config  # noqa: PLC0415
    with contextlib.chdir(path / "src"):   # it finds its parameter table from there
        man_config.read_params_data()      # what its variants are read against
    from game_logger import game_log  # noqa: PLC0415
    game_log.active = False
    return man_config.make_game


def hole_of(game, move) -> int:
    """The hole (our pit index) a MancalaGames move sows from."""
    holes = game.cts.holes
    if isinstance(move, tuple):
        row, pos = move[0], move[1]
    else:
        row, pos = (0 if game.turn else 1), move
    loc: int = game.cts.xlate_pos_loc(row, pos)
    assert 0 <= loc < 2 * holes
    return loc


def play(game, move) -> list[object]:
    """Play *move*; the row written for it: ``[pit, legal pits before it, pits
    after, stores after, player to move after, condition]`` (the condition the
    program returns, ``""`` for none)."""
    legal = sorted(hole_of(game, m) for m in game.get_moves())
    pit = hole_of(game, move)
    cond = game.move(move)
    return [pit, legal, list(game.board), list(game.store), int(game.turn),
            cond.name if cond is not None else ""]


def over(cond: str) -> bool:
    return cond in ("WIN", "TIE", "ROUND_WIN", "ROUND_TIE", "ENDLESS")


def record_game(game, rng: random.Random) -> dict[str, object]:
    """One random game (for Ba-awa: its first round), every move and state."""
    game.new_game()
    opener = int(game.turn)
    rows: list[list[object]] = []
    while len(rows) < MAX_MOVES:
        legal = game.get_moves()
        if not legal:
            break
        rows.append(play(game, rng.choice(legal)))
        if over(rows[-1][-1]):  # type: ignore[arg-type]
            break
    return {"opener": opener, "moves": rows}


def probes(game, name: str, count: int, rng: random.Random) -> list[dict[str, object]]:
    """Single moves from positions our engine picks because the rulesets differ
    there and random games almost never go there: a Ba-awa sowing that never
    ends, and a move after which the next player has no legal move. The
    program plays each from that position (its board, stores and player to
    move set to it) and reports what follows."""
    import mancala_spec as ms  # noqa: PLC0415  (our engine picks the positions only)
    ours = ms.get_game(name)
    found: dict[str, list[tuple[list[int], int]]] = {"endless": [], "no-move": []}
    for _ in range(400_000):
        if all(len(v) >= count for v in found.values()):
            break
        seeds = rng.choice(range(12, 49, 4))
        pits = [0] * 12
        for _ in range(seeds):
            pits[rng.randrange(12)] += 1
        try:
            pos = ours.position(pits, to_move=0)
        except ms.MancalaError:
            continue
        for pit in range(6):
            if not pits[pit]:
                continue
            sowing = pos.game.sow_move(pos, pit)
            if sowing is None:
                kind = "endless"
            elif any(e.kind == "pass" for e in pos.trace(pit).events):
                kind = "no-move"
            else:
                continue
            if len(found[kind]) < count:
                found[kind].append((pits, pit))
            break
    out = []
    for kind, cases in found.items():
        for pits, pit in cases:
            game.new_game()
            captured = (48 - sum(pits)) // 2
            game.board, game.store = list(pits), [captured, captured]
            game.turn = game.starter = False
            move = next(m for m in game.get_moves() if hole_of(game, m) == pit)
            out.append({"why": kind, "pits": pits, "captured": [captured, captured],
                        "to_move": 0, "opener": 0, "move": play(game, move)})
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mancalagames", metavar="PATH", required=True,
                        help="a local checkout of MancalaGames")
    parser.add_argument("--games", type=int, default=200, help="games of each game")
    parser.add_argument("--seed", type=int, default=19)
    parser.add_argument("--out", type=Path, default=Path("tests/data/mancalagames_games.json"))
    args = parser.parse_args(argv)
    path = Path(args.mancalagames)
    if not (path / "src" / "mancala.py").is_file():
        print(f"record_mancalagames: {path} is not a MancalaGames checkout", file=sys.stderr)
        return 2
    commit = subprocess.run(["git", "-C", str(path), "rev-parse", "HEAD"], check=True,
                            capture_output=True, text=True).stdout.strip()
    make_game = load(path)
    data: dict[str, object] = {
        "about": ("Random games played by MancalaGames' own code, recorded by "
                  "tools/record_mancalagames.py: what that program does, a secondary source "
                  "of its play, never of what the games are."),
        "program": {"name": "MancalaGames", "repository": "StoneShark/MancalaGames",
                    "commit": commit,
                    # its game files at that commit (rulesets.toml's "about" says how many)
                    "game_files": len(list((path / "GameProps").glob("*.txt"))),
                    "licence": "GPL-3.0",
                    "licence_note": ("The program is GPL-3.0; none of its code is here, only "
                                     "the moves drawn at random and the positions its code "
                                     "reported after each.")},
        "row": ("each move: [pit, legal pits before it, pits after, stores after, player "
                "to move after, the program's end condition or '']"),
        "board_order": ("pits in our order: index 0 = South's a, counter-clockwise (the "
                        "program's hole numbers); player 0 = its False (South), 1 = its True"),
        "seed": args.seed, "games": {}}
    games: dict[str, object] = {}
    for name, (ours, props, variant) in PLAYED.items():
        game = make_game(str(path / "GameProps" / props), variant)[0]
        rng = random.Random(f"{args.seed}-{name}")
        random.seed(f"{args.seed}-{name}")     # anything the program draws itself
        games[name] = {"game": ours, "gameprops": f"GameProps/{props}", "variant": variant,
                       "records": [record_game(game, rng) for _ in range(args.games)]}
        if ours == "ba-awa":
            games[name]["probes"] = probes(game, ours, 2, rng)  # type: ignore[index]
    data["games"] = games
    args.out.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(data, separators=(",", ":")).replace('{"opener"', '\n{"opener"')
    tmp = args.out.with_suffix(".tmp")
    tmp.write_text(text + "\n", encoding="utf-8")
    tmp.replace(args.out)
    for name, block in games.items():
        records = block["records"]  # type: ignore[index]
        ends: dict[str, int] = {}
        for r in records:
            end = r["moves"][-1][-1] or "cap"
            ends[end] = ends.get(end, 0) + 1
        print(name, len(records), "games", sum(len(r["moves"]) for r in records), "moves", ends)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
