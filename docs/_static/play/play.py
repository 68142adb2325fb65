"""The Play page's bridge to the engine: runs inside Pyodide (and in CPython for tests).

Everything the page shows is computed here by the real ``mancala_spec`` engine:
the games and their options (from the engine's option declarations), the legal
moves, each move's events with their rule IDs, the score, why the game ended,
and the game record in the project's notation. The JavaScript only draws what
these functions return (as JSON) and sends back clicks.
"""
from __future__ import annotations

import contextlib
import io
import json
import os
import random
import re

import mancala_spec as ms
from mancala_spec.engine.games import GAMES
from mancala_spec.engine.players import PLAYERS
from mancala_spec.engine.trace import Capture, Drop, PickUp, Relay
from mancala_spec.errors import TableError
from mancala_spec.notation import MAX_DEPTH, MoveTree, format_moves, option_value, tree_of
from mancala_spec.options import check_kernel_options, match_settings, parse_options
from mancala_spec.rulesets import DEFAULT, game_values
from mancala_spec.rulesets import rulesets as named_rulesets
from mancala_spec.solved import ValueTable, differences, solved_rules, standard_header
from mancala_spec.sources import SOURCES


def _json(value) -> str:
    return json.dumps(value)


def ruleset_data(game: str, ruleset) -> dict:
    """A named ruleset as the page shows it: its name, title and basis, the
    option values that play it (the game's options only; a match setting is
    listed with its difference), the program it reads (a secondary source of
    what that program does), and each difference with its basis: the
    program's files and lines at its commit, or the source's quote, or a
    reading with why."""
    program = ruleset.program
    settings = {o.name for o in match_settings(game)} if game == "ba-awa" else set()
    diffs = []
    for d in ruleset.differences:
        if d.game != game:
            continue
        diffs.append({
            "rule": d.rule, "text": d.text, "basis": d.basis,
            "option": d.option, "value": d.value, "unplayed": d.unplayed,
            "match": d.option in settings,          # a match setting: not a game's option
            "where": [{"text": w, "href": program.link(w)} for w in d.where] if program else [],
            "quotes": [{"quote": c.quote, "translation": c.translation, "line": c.line,
                        "lang": SOURCES[c.source].language_code,
                        "source": SOURCES[c.source].title} for c in d.citations],
            "why": d.why, "other": d.other,
        })
    return {
        "name": ruleset.name, "title": ruleset.title, "basis": ruleset.basis,
        "values": game_values(game, ruleset.name),
        "program": None if program is None else {
            "name": program.name, "repository": program.repository, "url": program.url,
            "commit": program.commit, "licence": program.licence},
        "differences": diffs,
    }


def games() -> str:
    """Every game with its options, as the engine declares them, and its named
    rulesets (this reference's first)."""
    out = []
    for cls in GAMES.values() if isinstance(GAMES, dict) else GAMES:
        out.append({
            "name": cls.name, "title": cls.title,
            "options": [{"name": o.name, "default": o.default, "choices": list(o.choices),
                         "meanings": [c.meaning for c in o.values],
                         "rule": o.rule, "doc": o.help} for o in cls.OPTIONS],
            "rulesets": [ruleset_data(cls.name, r) for r in named_rulesets(cls.name)],
        })
    return _json(out)


def _pit_index(game, pit) -> int:
    """The index of *pit* (an index or a name) on *game*'s board."""
    return pit if isinstance(pit, int) else game.board.pit(pit)


def make_game(name: str, options_json: str = "{}", ruleset: str = DEFAULT):
    """The game *name* under *ruleset*, the options given (JSON) overriding it,
    as ``get_game(name, ruleset=..., **options)`` does."""
    options = {k: option_value(v) if isinstance(v, str) else v
               for k, v in json.loads(options_json).items()}
    return ms.get_game(name, ruleset=ruleset or DEFAULT, **options)


def ruleset_of(game) -> str:
    """The named ruleset a game's options play exactly (a game record names no
    ruleset, only options): the first other than this reference's whose values
    are all set, and nothing else changed; else this reference's."""
    changed = {k: v for k, v in game.options.items() if v != game.option(k).default}
    for ruleset in named_rulesets(game.name):
        if ruleset.name != DEFAULT and changed and game_values(game.name, ruleset.name) == changed:
            return ruleset.name
    return DEFAULT


def overrides(game, ruleset: str) -> dict:
    """The options of *game* that differ from what *ruleset* sets (its values
    over the defaults): the explicit changes made on top of the ruleset."""
    base = ms.get_game(game.name, ruleset=ruleset)
    return {k: v for k, v in game.options.items() if v != base.options[k]}


def describe_event(event, board) -> dict:
    return {"kind": event.kind, "rule": event.rule,
            "text": event.describe(board.name, lambda p: board.player_names[p]),
            "pit": getattr(event, "pit", None)}


def steps(game, pos, pit: int) -> list[dict]:
    """The move *pit* from *pos* step by step: each event of the engine's trace,
    with the board (pits and captured seeds) just after it."""
    trace = pos.trace(pit)
    board = game.board
    pits = list(pos.pits)
    captured = list(pos.captured)
    out = []
    for event in trace.events:
        if isinstance(event, (PickUp, Relay)):
            pits[event.pit] = 0
        elif isinstance(event, Drop):
            pits[event.pit] = event.count
        elif isinstance(event, Capture):
            pits[event.pit] -= event.seeds
            captured[event.player] += event.seeds
        step = describe_event(event, board)
        step.update(pits=list(pits), captured=list(captured))
        out.append(step)
    if out:   # the last step shows the position the move reaches, exactly
        out[-1].update(pits=list(trace.position.pits), captured=list(trace.position.captured))
    return out


def summary(game, pos, pit: int, trace=None) -> dict:
    """What a move does, for the move list, the announcements and the preview:
    who plays which pit, its laps, its captures (each with its rule), how the
    move and (if it does) the game end, and who moves next."""
    trace = trace if trace is not None else pos.trace(pit)
    board = game.board
    after = trace.position
    captures = [{"pit": board.name(c.pit), "seeds": c.seeds, "player": board.player_names[c.player],
                 "rule": c.rule} for c in trace.captures]
    ends = [e for e in trace.events if e.kind in ("end-of-move", "end-of-game")]
    describe = [{"text": e.describe(board.name, lambda p: board.player_names[p]), "rule": e.rule}
                for e in ends]
    groups: list[dict] = []       # the captures by player and rule, in order
    for c in captures:
        if groups and (groups[-1]["player"], groups[-1]["rule"]) == (c["player"], c["rule"]):
            groups[-1]["seeds"] += c["seeds"]
            groups[-1]["pits"].append(c["pit"])
        else:
            groups.append({"player": c["player"], "rule": c["rule"], "seeds": c["seeds"],
                           "pits": [c["pit"]]})
    return {
        "pit": board.name(pit), "player": board.player_names[pos.to_move],
        "laps": trace.laps, "captures": captures, "groups": groups,
        "seeds": sum(c["seeds"] for c in captures),
        "ends": describe,
        "over": after.is_over,
        "next": None if after.is_over else board.player_names[after.to_move],
        "captured_pits": sorted({c["pit"] for c in captures}),
    }


#: the players of the page: the engine's, the search player (Ba-awa and Bakuk),
#: and for two-player Bakuk with the solved rules the perfect player. The search
#: (the fast kernel, about a sixth of this bridge's imports) is imported when the
#: strong player first moves, not before the page's engine is ready.
#: Bakuk's solved values (docs/_static/play/bakuk-values.bin), loaded when asked for
VALUES_FILE = "/tmp/bakuk-values.bin"
_table: list = []


def value_table():
    """The table of Bakuk's values, read once from :data:`VALUES_FILE` (None if
    absent, or if what was fetched is not such a table: the page then says the
    table could not be loaded)."""
    if not _table:
        try:
            with open(VALUES_FILE, "rb") as handle:
                _table.append(ValueTable.from_bytes(handle.read()))
        except (OSError, TableError):
            return None
    return _table[0]


#: what the page says when the site has no table of Bakuk's values (its fetch
#: answered 404 Not Found: the worker writes the file empty)
BAKUK_NOT_BUILT = ("Bakuk's exact values are not part of this copy of the site (the table "
                   "bakuk-values.bin is missing from it), so none are shown and the perfect "
                   "player is not offered.")


def no_values(game, ruleset: str = DEFAULT) -> str | None:
    """Why this page has no exact values (nor the perfect player) for *game*, as
    far as is known without fetching anything: rules the solver did not solve
    (:func:`unsolved`), or a site built without the table (the worker writes its
    file empty when the site answered 404, or from the site's manifest); ``None``
    if they may be had."""
    why = unsolved(game, ruleset)
    if why:
        return why
    if game.name == "ba-awa":
        from mancala_spec.solved_ba_awa import INDEX

        path = os.path.join(BA_AWA_FOLDER, INDEX)
        if os.path.exists(path) and os.path.getsize(path) == 0:
            return NOT_BUILT
    elif os.path.exists(VALUES_FILE) and os.path.getsize(VALUES_FILE) == 0:
        return BAKUK_NOT_BUILT
    return None


#: Ba-awa's solved values (docs/_static/play/ba-awa-values/, in a build given a table:
#: ``python3 dev.py site --ba-awa-values DIR``): the worker writes each file here as
#: play.py names it (:func:`ba_awa_table`, ``{"need": [files]}``), the index first,
#: then the shards a position needs; a file the site does not have is written empty
BA_AWA_FOLDER = "/tmp/ba-awa-values"
_ba_awa: list = []
#: what the page says when the site was built without Ba-awa's table
NOT_BUILT = ("Ba-awa's exact values are not part of this build of the site (its full solve "
             "takes minutes, so a build ships them only when given them). To add "
             "them, write the table with “mancala-spec solve ba-awa --write-table DIR” and "
             "build the site with “python3 dev.py site --ba-awa-values DIR”.")


def ba_awa_table():
    """The table of Ba-awa's values, its index read once from :data:`BA_AWA_FOLDER`
    (``None`` if the site does not have it); raises ``MissingShards`` naming the
    index until the worker has fetched it, ``TableError`` if it is damaged."""
    if not _ba_awa:
        from mancala_spec.solved_ba_awa import INDEX, BaAwaValueTable, MissingShards

        path = os.path.join(BA_AWA_FOLDER, INDEX)
        if not os.path.exists(path):
            os.makedirs(BA_AWA_FOLDER, exist_ok=True)
            raise MissingShards([INDEX])
        if os.path.getsize(path) == 0:       # the site has none: not part of this build
            return None
        _ba_awa.append(BaAwaValueTable.from_folder(BA_AWA_FOLDER))
    return _ba_awa[0]


#: beside a table's value that the positions since the last capture may change
#: (BaAwaValueTable.value_holds)
HISTORY_NOTE = ("These values are those of this position with no history (as just after a "
                "capture): with the positions played since the last capture, a repetition may "
                "give the opener more, never less.")


def ba_awa_exact(game, pos, ruleset: str = DEFAULT) -> dict:
    """The exact values of *pos* (Ba-awa): ``{"moves": {pit: value}, "value": …,
    "source": "table" or "search"}``, or ``{"unavailable": why}``, or ``{"need":
    [files]}`` while the worker has yet to fetch the files of the table they need.
    A position the table does not hold (an edited board, a ``start=`` link) is
    searched to the game's end within a budget, and is exact only if the search
    finishes."""
    from mancala_spec.solved_ba_awa import SEARCH_NODES, MissingShards, searched_values

    why = unsolved(game, ruleset)
    if why:
        return {"unavailable": why}
    if pos.is_over:
        return {"moves": {}, "value": None, "source": "table"}
    try:
        table = ba_awa_table()
        if table is None:
            return {"unavailable": NOT_BUILT}
        if not table.holds_for(game):
            return {"unavailable": unsolved(game, ruleset)}
        moves = table.move_values(pos) if table.holds(pos) else None
        value = None if moves is None else table.value_of(pos)
        holds = moves is None or table.value_holds(pos)
    except MissingShards as missing:
        return {"need": list(missing.names)}
    except TableError as error:
        return {"unavailable": f"The table of Ba-awa's values could not be loaded: {error}"}
    if moves is not None and value is not None:
        return {"moves": moves, "value": value, "source": "table",
                **({} if holds else {"history": HISTORY_NOTE})}
    found = searched_values(pos, SEARCH_NODES)
    if found is None or not found:
        return {"unavailable": "No exact value is known for this position: the solved table "
                               "does not hold it (no game from the solved start reaches it), "
                               f"and a search of {SEARCH_NODES:,} positions did not reach the "
                               "game's end."}
    return {"moves": found, "value": max(found.values()), "source": "search"}


def _written(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def unsolved(game, ruleset: str = DEFAULT) -> str | None:
    """Why the solver's values (and the perfect player) are not offered for
    *game*, in a sentence; ``None`` if its rules are the solved rules. The rules
    compared are every option the game declares, its board and its players
    (:func:`mancala_spec.solved.differences`), with the table's own header once
    it is loaded, and before that the header of the table the site ships."""
    if game.name == "ba-awa":
        from mancala_spec.solved_ba_awa import ba_awa_standard_header

        header = _ba_awa[0].header if _ba_awa else ba_awa_standard_header()
    else:
        header = _table[0].header if _table else standard_header()
    diffs = differences(game, header)
    if not diffs:
        return None
    if diffs[0][0] == "game":
        return "Exact values are known for Bakuk and Ba-awa only: the solver solved no other game."
    named = dict((name, have) for name, have, _ in diffs)
    if named.get("players", 2) != 2:
        return (f"Exact values are known for two-player {game.title} only: the three-player "
                "game is not solved.")
    solved = solved_rules(header)
    defaults = all(solved[o.name] == o.default for o in game.OPTIONS)
    which = ("this reference's rules, every option at its default" if defaults
             else ValueTable(header, b"").rules_named() if game.name == "bakuk"
             else ", ".join(f"{o.name} = {_written(solved[o.name])}" for o in game.OPTIONS))
    parts = ", ".join(f"{name} = {_written(have)} (solved: {_written(was)})"
                      for name, have, was in diffs)
    by = ""
    if ruleset != DEFAULT:
        values = game_values(game.name, ruleset)
        title = next((r.title for r in named_rulesets(game.name) if r.name == ruleset), ruleset)
        from_ruleset = [name for name, _, _ in diffs if name in values]
        if from_ruleset:
            by = (f"; the ruleset “{title}” sets "
                  f"{', '.join(from_ruleset)}" if len(from_ruleset) < len(diffs)
                  else f", as the ruleset “{title}” sets "
                  f"{'it' if len(diffs) == 1 else 'them'}")
    return (f"No exact values for these rules: the solver solved {game.title} with {which}, and "
            f"here {parts}{by}. The values of other rules would be wrong here, so none "
            "are shown and the perfect player is not offered.")


#: parameters of a Play link that are not game options
LINK_KEYS = ("game", "ruleset", "moves", "start", "values", "ply", "opponent", "at", "as",
             "flip")


#: the annotation marks a move may have (none, good, mistake, brilliant, blunder,
#: interesting, dubious), as a record writes them (:mod:`mancala_spec.notation`)
MARKS = ("", "!", "?", "!!", "??", "!?", "?!")
#: the longest best line the page asks for (a line of the values, to the game's end)
BEST_LINE = 60


class _Need(Exception):
    """The files of Ba-awa's table a question needs (the worker fetches them, asks again)."""

    def __init__(self, names) -> None:
        super().__init__("need")
        self.names = list(names)


class Node:
    """A position of the game tree: the move that reached it (``None`` at the
    start), the position, what the move did (:func:`summary`), and the moves
    tried from it, the line's own first and the variations after it."""

    __slots__ = ("id", "pit", "position", "summary", "parent", "children", "mark", "comment")

    def __init__(self, ident: int, pit, position, summary_, parent) -> None:
        self.id, self.pit, self.position, self.summary = ident, pit, position, summary_
        self.parent = parent
        self.children: list[Node] = []
        self.mark, self.comment = "", ""       # an annotation mark (!, ?, !? …), a comment

    @property
    def path(self) -> tuple[int, ...]:
        """The moves from the start to this position."""
        path, node = [], self
        while node.parent is not None:
            path.append(node.pit)
            node = node.parent
        return tuple(reversed(path))

    @property
    def ply(self) -> int:
        ply, node = 0, self
        while node.parent is not None:
            ply, node = ply + 1, node.parent
        return ply


class Session:
    """One game on the Play page as an analysis board: the start, every move
    tried (a tree: a move other than the one played next, from an earlier
    position, starts a variation, kept beside it), and the position shown (the
    *cursor*). The *line* is the moves from the start to the cursor and on
    along each position's first move: what the move list walks with ← →.
    """

    def __init__(self) -> None:
        self.rng = random.Random()
        self.ruleset = DEFAULT
        self.new("ba-awa", "{}")

    def new(self, name: str, options_json: str, start: str = "", ruleset: str = DEFAULT) -> str:
        """A new game of *name* under *ruleset*, the options given (JSON)
        overriding it, from *start* (its opening if empty)."""
        game = make_game(name, options_json, ruleset)
        first = game.parse(start) if start else game.start()
        self.game = game
        self.ruleset = ruleset or DEFAULT
        self._root(first)
        return self.state()

    def _root(self, first) -> None:
        self.ids = 0
        self.root = self.tip = self._cursor = Node(0, None, first, None, None)
        self.nodes = {0: self.root}

    @property
    def cursor(self) -> Node:
        return self._cursor

    @cursor.setter
    def cursor(self, node: Node) -> None:
        """Show *node*; the line goes on to the deepest move it was shown on
        (going back and forward again follows the variation walked)."""
        ancestor = self.tip
        while ancestor is not None and ancestor is not node:
            ancestor = ancestor.parent
        if ancestor is None:
            self.tip = node
        self._cursor = node

    def _child(self, node: Node, pit: int, trace=None) -> Node:
        """The move *pit* from *node*: the node it reaches, added if new."""
        for child in node.children:
            if child.pit == pit:
                return child
        trace = trace if trace is not None else node.position.trace(pit)
        self.ids += 1
        child = Node(self.ids, pit, trace.position,
                     summary(self.game, node.position, pit, trace), node)
        node.children.append(child)
        self.nodes[child.id] = child
        return child

    @property
    def pos(self):
        return self.cursor.position

    def line(self) -> list[Node]:
        """The nodes of the line shown, the start first (see the class)."""
        back, node = [], self.tip
        while node is not None:
            back.append(node)
            node = node.parent
        out = back[::-1]
        node = self.tip
        while node.children:
            node = node.children[0]
            out.append(node)
        return out

    @property
    def moves(self) -> list[int]:
        """The moves of the line shown."""
        return [node.pit for node in self.line()[1:]]

    def play(self, pit_name: str) -> str:
        """Play *pit_name* from the position shown: the next move of the line if
        it is that move, else a new variation (or the one already tried)."""
        pit = self.game.board.pit(pit_name)
        trace = self.pos.trace(pit)       # raises IllegalMoveError, saying why
        self.cursor = self._child(self.cursor, pit, trace)
        return self.state()

    def goto(self, ply: int) -> str:
        """Show the position after move *ply* of the line (0: the start)."""
        line = self.line()
        self.cursor = line[max(0, min(int(ply), len(line) - 1))]
        return self.state()

    def goto_node(self, ident: int) -> str:
        """Show the position of the node *ident* (a move of the list, variations too)."""
        node = self.nodes.get(int(ident))
        if node is None:
            raise KeyError(f"no move {ident} in this game")
        self.cursor = node
        return self.state()

    def undo(self, count: int = 1) -> str:
        """Go back *count* moves; the moves stay (the next move redoes them)."""
        for _ in range(int(count)):
            if self.cursor.parent is not None:
                self.cursor = self.cursor.parent
        return self.state()

    def promote(self) -> str:
        """Make the variation that holds the position shown the first line at
        the branch nearest to it (repeated, it becomes the game)."""
        node = self.cursor
        while node.parent is not None:
            siblings = node.parent.children
            if siblings[0] is not node:
                siblings.remove(node)
                siblings.insert(0, node)
                break
            node = node.parent
        return self.state()

    def delete(self) -> str:
        """Delete the move shown and every move after it; show the position before it."""
        node = self.cursor
        if node.parent is None:
            return self.state()
        node.parent.children.remove(node)
        stack = [node]
        while stack:
            gone = stack.pop()
            self.nodes.pop(gone.id, None)
            stack.extend(gone.children)
        self.tip = self._cursor = node.parent
        return self.state()

    def computer(self, kind: str) -> str:
        """The move the built-in player *kind* makes now: ``{pit, ...}`` with,
        for the strong player, what its search cost (nodes, seconds, depth,
        its budget)."""
        pos = self.pos
        if kind == "strong":
            from mancala_spec.fast import search

            nodes, seconds = search.PAGE_NODES, search.PAGE_SECONDS
            result = search.search(pos, nodes=nodes, seconds=seconds, rng=self.rng)
            return _json({"pit": self.game.board.name(result.move), "nodes": result.nodes,
                          "seconds": result.seconds, "depth": result.depth,
                          "budget_nodes": nodes, "budget_seconds": seconds})
        if kind == "perfect":
            if self.game.name == "ba-awa":
                exact = ba_awa_exact(self.game, pos, self.ruleset)
                if "need" in exact:          # the worker fetches the files, and asks again
                    return _json({"need": exact["need"]})
                if "unavailable" in exact:
                    raise ms.MancalaError(exact["unavailable"])
                values = exact["moves"]
            else:
                values = self.move_values()
            if not values:
                raise ms.MancalaError("the perfect player knows only two-player Bakuk and "
                                      "Ba-awa with the solved rules")
            best = max(values.values())
            pit = self.rng.choice(sorted(p for p, v in values.items() if v == best))
            return _json({"pit": self.game.board.name(pit), "value": best})
        if kind not in PLAYERS:
            raise KeyError(f"no built-in player {kind!r}")
        return _json({"pit": self.game.board.name(PLAYERS[kind](pos, self.rng))})

    def move_values(self) -> dict[int, int] | None:
        table = value_table()
        if table is None or not table.holds_for(self.game) or self.pos.is_over:
            return None
        return table.move_values(self.pos)

    def values(self) -> str:
        """``{"values": {pit name: value}, "value": …}`` for each legal move now
        (Bakuk and Ba-awa, solved; for Ba-awa also ``"source"``: the table, or a
        search to the end), or ``{"unavailable": why}``, or for Ba-awa ``{"need":
        [files]}`` (the worker fetches them and asks again: :func:`ba_awa_exact`)."""
        game = self.game
        if game.name == "ba-awa":
            exact = ba_awa_exact(game, self.pos, self.ruleset)
            if "moves" in exact:
                exact["values"] = {game.board.name(p): v for p, v in exact.pop("moves").items()}
            return _json(exact)
        if game.name != "bakuk" or game.players != 2:
            return _json({"unavailable": unsolved(game, self.ruleset)})
        table = value_table()
        if table is None and no_values(game, self.ruleset):
            return _json({"unavailable": no_values(game, self.ruleset)})
        if table is None:
            return _json({"unavailable": "The table of Bakuk's values could not be loaded."})
        if not table.holds_for(game):
            return _json({"unavailable": unsolved(game, self.ruleset)})
        if self.pos.is_over:
            return _json({"values": {}, "value": None})
        values = table.move_values(self.pos)
        if values is None:
            return _json({"unavailable": "This position cannot be reached from the opening, "
                                         "so the solver has no value for it."})
        return _json({"values": {game.board.name(p): v for p, v in values.items()},
                      "value": table.value_of(self.pos)})

    # -- analysis from the values: the best line, the game's review -------------------

    def _exact(self, pos) -> tuple[dict[int, int] | None, int | str]:
        """The exact values of *pos*'s moves and its value, or ``(None, why not)``;
        raises :class:`_Need` while Ba-awa's table has files to fetch."""
        game = self.game
        if game.name == "ba-awa":
            exact = ba_awa_exact(game, pos, self.ruleset)
            if "need" in exact:
                raise _Need(exact["need"])
            if "unavailable" in exact:
                return None, exact["unavailable"]
            return exact["moves"], exact["value"] or 0
        why = no_values(game, self.ruleset)
        table = value_table()
        if why or table is None or not table.holds_for(game):
            return None, (why or unsolved(game, self.ruleset)
                          or "The table of Bakuk's values could not be loaded.")
        if pos.is_over:
            return {}, 0
        moves = table.move_values(pos)
        if moves is None:
            return None, ("This position cannot be reached from the opening, so the solver "
                          "has no value for it.")
        return moves, table.value_of(pos)

    def best_line(self, limit: int = BEST_LINE) -> str:
        """The best line from the position shown, as far as the values know it (at
        most *limit* moves): each move a best one for its player (of equal values, the
        first pit), ``{"moves": [{pit, player, value}], "value", "player", "complete"}``;
        or ``{"unavailable": why}``, or ``{"need": [files]}``."""
        pos = self.pos
        try:
            moves, value = self._exact(pos)
            if moves is None:
                return _json({"unavailable": value})
            line = []
            while moves and len(line) < limit:
                best = max(moves.values())
                pit = min(p for p, v in moves.items() if v == best)
                line.append({"pit": self.game.board.name(pit),
                             "player": self.game.board.player_names[pos.to_move], "value": best})
                pos = pos.play(pit)
                if pos.is_over:
                    break
                moves, _ = self._exact(pos)
        except _Need as need:
            return _json({"need": need.names})
        return _json({"moves": line, "value": value, "complete": pos.is_over,
                      "player": self.game.board.player_names[self.pos.to_move]})

    def review(self) -> str:
        """The game (the moves outside the variations) as the values see it: after
        each move, the margin South can force (South's seeds minus North's at the
        end, with perfect play from there: the seeds taken so far and the position's
        value), and each move that lost value (what its player could have forced, less
        what the move played can), with the best moves there. ``{"points": [{ply,
        margin, id}], "losses": [{ply, id, pit, player, loss, best}]}``, or
        ``{"unavailable": why}``, or ``{"need": [files]}``."""
        board = self.game.board
        node, points, losses = self.root, [], []
        try:
            while True:
                pos = node.position
                moves, value = self._exact(pos)
                if moves is None:
                    if not points:
                        return _json({"unavailable": value})
                    break
                sign = 1 if pos.to_move == 0 else -1
                points.append({"ply": node.ply, "id": node.id,
                               "margin": pos.captured[0] - pos.captured[1] + sign * int(value)})
                if not node.children:
                    break
                child = node.children[0]
                if moves and child.pit in moves and moves[child.pit] < int(value):
                    best = max(moves.values())
                    losses.append({"ply": child.ply, "id": child.id, "pit": board.name(child.pit),
                                   "player": board.player_names[pos.to_move],
                                   "loss": int(value) - moves[child.pit],
                                   "best": [board.name(p) for p in sorted(moves)
                                            if moves[p] == best]})
                node = child
        except _Need as need:
            return _json({"need": need.names})
        return _json({"points": points, "losses": losses})

    def annotate(self, mark: str, comment: str) -> str:
        """Give the move shown an annotation mark (one of :data:`MARKS`, or none) and a
        comment (one line, no braces, at most 500 characters: as a record keeps it)."""
        if self.cursor.parent is None:
            raise ms.NotationError("the start is no move: choose a move to annotate")
        if mark not in MARKS:
            raise ms.NotationError(f"an annotation mark is one of {' '.join(MARKS[1:])}, "
                                   f"not {mark!r}")
        comment = " ".join(comment.split())
        if len(comment) > 500 or "{" in comment or "}" in comment:
            raise ms.NotationError("a comment holds at most 500 characters and no braces")
        self.cursor.mark, self.cursor.comment = mark, comment
        return self.state()

    def notes(self) -> dict[tuple[int, ...], tuple[str, str]]:
        """Each annotated move's mark and comment, by its moves from the start."""
        return {node.path: (node.mark, node.comment) for node in self.nodes.values()
                if node.mark or node.comment}

    def tree(self) -> MoveTree:
        """Every move tried, as a record keeps them (:data:`mancala_spec.notation.MoveTree`)."""
        return tree_of(self.root.children, lambda node: node.children, lambda node: node.pit)

    def record(self) -> str:
        """The game record: the game (each position's first move from the start)
        and its variations in parentheses, in the notation of the notation page;
        the same text as ``GameRecord.to_text``, without playing the moves again."""
        head = ms.format_game(self.root.position, []).rstrip("\n")
        names = format_moves(self.tree(), self.game.board.name, self.notes())
        return head + "".join(" " + name for name in names) + "\n"

    def load(self, text: str) -> str:
        """Replay a game record, variations too; raises NotationError (one line)
        if it is not valid. The game's end is shown."""
        record = ms.parse_game(text)
        self.game = record.game
        self._root(record.start)
        lines = [(self.root, record.tree)]     # each line, from the node it starts at
        while lines:
            node, line = lines.pop()
            for pit, variations in line:
                lines.extend((node, variation) for variation in variations)
                node = self._child(node, pit)
        for path, mark, comment in record.notes:
            node = self.root
            for pit in path:
                node = self._child(node, pit)
            node.mark, node.comment = mark, comment
        self.goto(len(record.moves))
        self.ruleset = ruleset_of(record.game)
        return self.state()

    def load_link(self, query_json: str) -> str:
        """The game of a Play link's parameters (``{"game": …, "moves": "a,B,c",
        "start": …, option: value…}``, every value text): its options parsed by
        their declarations, each move checked by playing it. A bad parameter
        raises a one-line :class:`~mancala_spec.errors.MancalaError`."""
        query = json.loads(query_json)
        name = query.get("game") or "ba-awa"
        ruleset = query.get("ruleset") or DEFAULT
        items = [f"{k}={v}" for k, v in query.items() if k not in LINK_KEYS]
        game = ms.get_game(name, ruleset=ruleset, **parse_options(name, items))
        start = query.get("start") or ""
        first = game.parse(start) if start else game.start()
        self.game = game
        self._root(first)
        try:
            node = self._link_moves(query.get("moves") or "")
            shown = self._link_moves(query.get("at") or "", add=False) if query.get("at") else node
        except ms.MancalaError:
            self._root(first)
            raise
        self.cursor = node
        self.cursor = shown
        self.ruleset = ruleset
        note = None
        ply = query.get("ply")
        if ply not in (None, ""):
            length = len(self.line()) - 1
            if re.fullmatch(r"[0-9]{1,6}", ply.strip()) and int(ply) <= length:
                self.goto(int(ply))
            else:
                note = (f"The link's ply={ply} is not a move of its game (a number from 0 to "
                        f"{length}): the game's last move is shown.")
        state = json.loads(self.state())
        if note:
            state["note"] = note
        return _json(state)

    def _link_moves(self, text: str, add: bool = True) -> Node:
        """The moves of a link (``a,B,(C,b),c``: pit names, a variation in parentheses
        after the move it replaces, as in a record) played from the start; the node the
        line outside the parentheses reaches. With *add* false, the moves must be
        there already (``at=``, the moves to the position shown)."""
        node, before = self.root, None
        open_at: list[tuple[Node, Node]] = []
        key = "moves" if add else "at"
        for token in re.findall(r"\{[^{}]*\}?|\(|\)|[^,()\s{}]+", text):
            if token.startswith("{"):
                if before is None or not token.endswith("}") or len(token) > 502:
                    raise ms.NotationError(f"the link's {key}= has a comment {{…}} that follows "
                                           "no move, is not closed, or is over 500 characters")
                node.comment = " ".join(token[1:-1].split())
                continue
            mark = re.search(r"(!!|\?\?|!\?|\?!|!|\?)$", token)
            if mark and len(token) > len(mark.group()):
                token = token[:-len(mark.group())]
            if token == "(":
                if before is None or len(open_at) >= MAX_DEPTH:
                    raise ms.NotationError(f"the link's {key}= has a '(' that follows no move, "
                                           f"or variations nested over {MAX_DEPTH} deep")
                open_at.append((node, before))
                node, before = before, None
                continue
            if token == ")":
                if not open_at or before is None:
                    raise ms.NotationError(f"the link's {key}= has a ')' that closes no "
                                           "variation, or an empty one")
                node, before = open_at.pop()
                continue
            try:
                pit = self.game.board.pit(token)
                if not add and all(child.pit != pit for child in node.children):
                    raise ms.NotationError("no such move in the link's moves=")
                child = self._child(node, pit)
            except ms.MancalaError as error:
                raise ms.NotationError(f"move {node.ply + 1} ({token!r}) of the link's {key}=: "
                                       f"{str(error).splitlines()[0]}") from None
            if mark and add:
                child.mark = mark.group()
            node, before = child, node
        if open_at:
            raise ms.NotationError(f"the link's {key}= has a '(' that is not closed")
        return node

    def preview(self, pit_name: str) -> str:
        """What playing *pit_name* now would do (see :func:`summary`), without playing it."""
        return _json(summary(self.game, self.pos, self.game.board.pit(pit_name)))

    def link(self) -> dict:
        """The Play link's parameters of this game (text values): the line shown."""
        game = self.game
        out = {"game": game.name}
        if self.ruleset != DEFAULT:
            out["ruleset"] = self.ruleset
        for key, value in overrides(game, self.ruleset).items():
            out[key] = str(value).lower() if isinstance(value, bool) else str(value)
        if self.root.position != game.start():
            out["start"] = self.root.position.to_text()
        tokens = format_moves(self.tree(), game.board.name, self.notes())
        if tokens:     # the game, its variations and notes, as a record writes them
            out["moves"] = ",".join(re.findall(r"\{[^{}]*\}|\(|\)|[^\s(){}]+", " ".join(tokens))
                                    ).replace("(,", "(").replace(",)", ")")
        game_line = [self.root]
        while game_line[-1].children:
            game_line.append(game_line[-1].children[0])
        node = self.cursor
        if node in game_line:
            if node is not game_line[-1]:
                out["ply"] = str(node.ply)
        else:          # a move of a variation: the moves that reach it
            path = []
            while node.parent is not None:
                path.append(game.board.name(node.pit))
                node = node.parent
            out["at"] = ",".join(reversed(path))
        return out

    def _listed(self, first: Node) -> list[dict]:
        """The move list's line that starts with *first* and goes on along each
        position's first move: each move (its id, ply, pit, player and captures)
        with the variations that replace it, each a line of its own."""
        out = []
        node: Node | None = first
        while node is not None:
            move = node.summary
            siblings = node.parent.children
            out.append({"id": node.id, "ply": node.ply, "pit": move["pit"],
                        "mark": node.mark, "comment": node.comment,
                        "player": move["player"], "groups": move["groups"],
                        "over": move["over"],
                        "variations": [self._listed(other) for other in siblings[1:]]
                        if siblings[0] is node else []})
            node = node.children[0] if node.children else None
        return out

    def state(self) -> str:
        game, pos = self.game, self.pos
        board = game.board
        node = self.cursor
        line = self.line()
        shown = node.summary
        last = steps(game, node.parent.position, node.pit) if node.parent is not None else []
        outcome = pos.outcome                     # how the shown position ended, if it has
        try:
            check_kernel_options(game.name, game.options)
            kernel = True
        except ms.MancalaError:
            kernel = False
        return _json({
            "game": game.name, "title": game.title,
            "ruleset": self.ruleset,
            "overrides": overrides(game, self.ruleset),
            "kernel": kernel,                      # the strong player searches with the kernel
            # why there are no exact values (nor the perfect player) for these rules, or None
            "unsolved": unsolved(game, self.ruleset),
            # why no values (nor the perfect player) here: unsolved rules, or none in this build
            "no_values": no_values(game, self.ruleset),
            # what each legal move would do (each pit's own description on the page)
            "previews": {board.name(p): summary(game, pos, p) for p in pos.legal_moves()},
            "options": {k: v for k, v in game.options.items()},
            "position": pos.to_text(),
            "pits_per_row": board.pits_per_row,
            "names": [board.name(p) for p in range(board.size)],
            "players": list(board.player_names),
            "pits": list(pos.pits), "owners": list(pos.owners),
            "captured": list(pos.captured), "to_move": pos.to_move,
            "legal": [board.name(p) for p in pos.legal_moves()],
            "over": pos.is_over, "winner": pos.winner,
            "stores": game.name != "bakuk" and game.players == 2,
            "moves": [board.name(n.pit) for n in line[1:]],
            "history": [n.summary for n in line[1:]],
            "line": [n.id for n in line[1:]],       # the ids of the line's moves
            "node": node.id,                        # the id of the move shown (0: the start)
            "tree": self._listed(self.root.children[0]) if self.root.children else [],
            "variation": any(n.parent.children[0] is not n for n in line[1:]),
            "ply": node.ply,
            "mark": node.mark, "comment": node.comment,     # the move shown's note
            "previous": node.parent.position.to_text() if node.parent is not None else None,
            "shown": shown,
            "last": last,
            "end": None if outcome is None else {**outcome.as_dict(),
                                                 "text": outcome.describe()},
            "record": self.record(),
            "link": self.link(),
        })


def doctest_sources(code: str) -> list[str]:
    """The source of each ``>>>`` example (with its ``...`` lines) in doctest text."""
    sources: list[list[str]] = []
    current = None
    for line in code.splitlines():
        if line.startswith(">>>"):
            current = [line[4:]]
            sources.append(current)
        elif current is not None and line.startswith("..."):
            current.append(line[4:])
        else:
            current = None
    return ["\n".join(lines) + "\n" for lines in sources]


def call(method, *args) -> str:
    """Call *method*; a bad input comes back as ``{"error": one line}``."""
    try:
        return method(*args)
    except (ms.MancalaError, KeyError) as error:
        return _json({"error": str(error).splitlines()[0] if str(error) else repr(error)})


def example_move(code: str) -> str:
    """Run a rule example's doctest source and return the first move it plays or
    traces, as ``{game, options, position, pit}`` (``null`` if it plays none)."""
    from mancala_spec.engine.position import Position

    seen: list[tuple] = []
    original = {"trace": Position.trace, "play": Position.play}

    class Found(Exception):
        """Stops the example at its first move: that move is all we need."""

    def spy(method):
        def wrapper(self, pit):
            seen.append((self, _pit_index(self.game, pit)))
            original[method](self, pit)      # an illegal move raises here, and is skipped
            raise Found
        return wrapper

    Position.trace, Position.play = spy("trace"), spy("play")
    try:
        namespace: dict = {}
        for source in doctest_sources(code):
            try:
                with contextlib.redirect_stdout(io.StringIO()):   # the example's prints
                    exec(compile(source, "<example>", "exec"), namespace)
            except Found:
                break
            except Exception:      # an example that shows an error: keep going
                seen.clear()
    finally:
        Position.trace, Position.play = original["trace"], original["play"]
    if not seen:
        return _json(None)
    pos, pit = seen[0]
    game = pos.game
    changed = {k: v for k, v in game.options.items() if v != game.option(k).default}
    return _json({"game": game.name, "options": changed, "position": pos.to_text(),
                  "pit": game.board.name(pit)})


def example_steps(name: str, options_json: str, position: str, pit_name: str) -> str:
    """The steps of an example's move under the given options (``{error}`` if the
    move is not legal there)."""
    try:
        game = make_game(name, options_json, DEFAULT)
        pos = game.parse(position)
        pit = game.board.pit(pit_name)
        if pit not in pos.legal_moves():
            pos.play(pit)          # raises IllegalMoveError, which says why
        return _json({"steps": steps(game, pos, pit), "before": list(pos.pits),
                      "captured": list(pos.captured), "owners": list(pos.owners),
                      "names": [game.board.name(p) for p in range(game.board.size)],
                      "pits_per_row": game.board.pits_per_row,
                      "players": list(game.board.player_names),
                      "stores": game.name != "bakuk" and game.players == 2})
    except ms.MancalaError as error:
        return _json({"error": str(error)})


session = Session()
