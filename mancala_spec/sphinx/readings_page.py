"""The ``readings-compared`` directive: the readings page, built from the engine.

    ```{readings-compared} bakuk
    :games: 200
    :seed: 2026
    ```

For one game it writes, for every named ruleset other than this reference's,
a table of its differences (rule, what the ruleset does, basis, the option
value that plays it), and for every played difference the smallest position
the search of :mod:`mancala_spec.analysis.readings` finds where the value
changes a move's result, drawn with ``sowing-diagram`` (the position before
the move), with the move's result under both settings; then the share of
*games* random games whose winner each value, and each whole ruleset, changes.
Everything is computed when the page is read (and kept: :mod:`.cache`).
"""
from __future__ import annotations

import hashlib
import re
from typing import Any

from . import cache


def _value(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


#: a position text's history field: the positions seen before it (repetition reads them)
_SEEN = re.compile(r" seen=(\S+)")


def _brief(text: str) -> str:
    """A result's words with each position's ``seen=`` history counted, not
    written out: ``... opener=S, after 22 earlier positions``."""
    from .diagrams import history_counted

    return history_counted(text)


def _position(pos: Any) -> str:
    """A position in the text: its board, captures and turn in the notation, and
    its history (``seen=``, which the repetition rule reads) counted."""
    head = _SEEN.sub("", pos.to_text())
    if not pos.history:
        return f"`{head}`"
    from .diagrams import earlier

    count = len(pos.history)
    listed = "listed below it" if count > 1 else "shown below it"
    return f"`{head}`, after the {earlier(count)} {listed}"


def _history(pos: Any) -> list[str]:
    """The positions seen before *pos* (its ``seen=``), one row each, oldest first:
    a table in a box that opens, with the whole position text to copy."""
    from .diagrams import earlier

    if not pos.history:
        return []
    board = pos.game.board
    n = board.pits_per_row
    south = " ".join(board.name(i) for i in range(n))
    north = " ".join(board.name(i) for i in range(n, 2 * n))
    rows = [f"| {number} | {' '.join(map(str, pits[:n]))} | {' '.join(map(str, pits[n:]))} | "
            f"{pos.game.player_name(player)} |"
            for number, (pits, player) in enumerate(pos.history, start=1)]
    return ['<details class="position-history">',
            f"<summary>The {earlier(len(pos.history))} (its <code>seen=</code> "
            "history, oldest first), and the whole position text</summary>", "",
            f"| # | South's pits {south} | North's pits {north} | to move |",
            "| --- | --- | --- | --- |", *rows, "",
            "The position with its history, in the notation:", "",
            "```text", pos.to_text(), "```", "",
            "</details>", ""]


def page_text(game: str, games: int, seed: int) -> str:
    """The MyST text of the comparison for *game*."""
    from ..analysis.readings import smallest_change, winner_changes
    from ..options import match_settings
    settings = {o.name for o in match_settings(game)} if game == "ba-awa" else set()
    from ..rulesets import game_values, rulesets

    lines: list[str] = []
    for ruleset in rulesets(game):
        if ruleset.name == "mancala_spec":
            continue
        diffs = [d for d in ruleset.differences if d.game == game]
        lines += [f"### `{ruleset.name}`: {ruleset.title}", "", _cell(ruleset.basis), ""]
        program = ruleset.program
        if program is not None:
            lines += [f"Source: [{program.name}]({program.url}) ({program.repository}, commit "
                      f"`{program.commit[:12]}`, {program.licence}), a secondary source of what "
                      "that program does, never of what the game is.", ""]
        lines += ["| rule | this ruleset | basis | played by |", "| --- | --- | --- | --- |"]
        for d in diffs:
            if d.basis == "program" and program is not None:
                basis = ", ".join(f"[`{w}`]({program.link(w)})" for w in d.where)
            elif d.basis == "source":
                basis = "source: " + "; ".join(f"“{c.quote}” ({c.source}, line {c.line})"
                                               for c in d.citations)
            else:
                basis = f"reading: {d.why} Other reading: {d.other}"
            played = (f"`{d.option}={_value(d.value)}`" if d.option
                      else f"not played: {d.unplayed}")
            lines.append(f"| {{rule-ref}}`{d.rule}` | {_cell(d.text)} | {_cell(basis)} | "
                         f"{_cell(played)} |")
        lines.append("")
        rows = []
        for d in diffs:
            if d.option in settings:
                lines += _match_lines(d.option, d.value, seed)
                continue
            if not d.option:
                continue
            change = smallest_change(game, d.option, d.value)
            label = f"`{d.option}={_value(d.value)}`"
            if change is None:
                lines += [f"{label}: the search finds no position where it changes a "
                          "move's result within its bounds "
                          "(`mancala_spec.analysis.readings.smallest_change`).", ""]
            else:
                pos = change.position
                options = ", ".join(f"{k}={_value(v)}" for k, v in
                                    change.variant.options.items()
                                    if v != change.game.option(k).default)
                lines += [f"{label}: the smallest position found where it changes a move's "
                          f"result, {_position(pos)}. Under this reference "
                          f"{_brief(change.result(change.game))}; with {label} "
                          f"{_brief(change.result(change.variant))}.", "", *_history(pos),
                          "```{sowing-diagram}", f":game: {game}",
                          f":position: {pos.to_text()}",
                          f":options: {options}",     # Open in Play opens it with the value
                          f":caption: Where {options} changes the move "
                          f"{change.game.board.name(change.move)} (position before the move).",
                          "```", ""]
            rows.append((label, winner_changes(game, {d.option: d.value}, games, seed)))
        whole = game_values(game, ruleset.name)
        if whole:
            rows.append((f"the whole `{ruleset.name}` ruleset",
                         winner_changes(game, whole, games, seed)))
        if rows:
            lines += [f"Built: random games whose winner changes ({games} games, seed {seed}, "
                      "South opening; each numbered game played with the same random stream "
                      "under both settings):", "",
                      "| setting | winner changed | share | unfinished |",
                      "| --- | --- | --- | --- |"]
            for label, (changed, total, unfinished) in rows:
                lines.append(f"| {label} | {changed} of {total} | {changed / total:.1%} | "
                             f"{unfinished} |")
            lines.append("")
            if game == "ba-awa" and any(d.option == "decided" for d in diffs):
                lines += ["`decided` ends a game once its winner is known, so it changes how "
                          "long a game lasts, never who wins it: captured seeds are never "
                          "given back, and a player past half of them wins under both settings.",
                          ""]
    return "\n".join(lines)


#: random matches compared for a match setting (under twelve pits many run long)
MATCHES = 20


def _match_lines(setting: str, value: Any, seed: int) -> list[str]:
    """A match setting's smallest position (the first game of a match) and the
    share of random matches whose winner it changes."""
    from ..analysis.readings import MAX_GAMES, match_winner_changes, smallest_match_change

    label = f"`{setting}={_value(value)}`"
    change = smallest_match_change(setting, value)
    lines = [f"{label} is a match setting ([](match-and-three-players.md)): it changes when a "
             "match ends, never a move's result in a game."]
    if change is None:
        return [*lines, " The search finds no position where it changes a match within its "
                "bounds (`mancala_spec.analysis.readings.smallest_match_change`).", ""]
    pos = change.position
    name = pos.game.board.name(change.move)
    lines[-1] += (f" The smallest position found where it changes one, in a match's first "
                  f"game: {_position(pos)}. Under this reference {name}: "
                  f"{_brief(change.result({}))}; with {label} {name}: "
                  f"{_brief(change.result({setting: value}))}.")
    changed, total, unfinished = match_winner_changes({setting: value}, MATCHES, seed)
    return [*lines, "", *_history(pos),
            "```{sowing-diagram}", ":game: ba-awa", f":position: {pos.to_text()}",
            f":caption: Where {setting}={_value(value)} changes the match by the move {name} "
            "(position before the move).", "```", "",
            f"Built: random matches whose winner changes ({total} matches, seed {seed}, each "
            "numbered match played with the same random stream under both settings; a play "
            f"unfinished after {MAX_GAMES} games has no winner):", "",
            "| reading | winner changed | share | unfinished plays |",
            "| --- | --- | --- | --- |",
            f"| {label} | {changed} of {total} | {changed / total:.1%} | {unfinished} |", "",
            f"{unfinished} of the {2 * total} plays did not end within {MAX_GAMES} games: "
            "under this reference's twelve pits a match ends only when one player has won "
            "every pit.", ""]


def cached_page_text(game: str, games: int, seed: int) -> str:
    """One game's readings page (:func:`page_text`): the searches and random games
    take seconds, so the text is kept (:mod:`.cache`) under a digest of the whole
    package and the arguments."""
    key = hashlib.sha256(f"{cache.package_digest()} {game} {games} {seed}".encode())
    return cache.value(f"readings-{key.hexdigest()[:20]}",
                       lambda: page_text(game, games, seed))


GAMES, SEED = 200, 2026


def _make_directive():
    from docutils import nodes
    from docutils.parsers.rst import directives
    from docutils.statemachine import StringList
    from sphinx.util.docutils import SphinxDirective

    class ReadingsCompared(SphinxDirective):
        required_arguments = 1
        option_spec = {"games": directives.positive_int, "seed": directives.nonnegative_int}

        def run(self) -> list[nodes.Node]:
            game = self.arguments[0]
            games, seed = self.options.get("games", GAMES), self.options.get("seed", SEED)
            text = cached_page_text(game, games, seed)
            container = nodes.container(classes=["readings-compared"])
            self.state.nested_parse(StringList(text.splitlines(), source=self.get_source_info()[0]),
                                    self.content_offset, container)
            return [container]

    return ReadingsCompared


def setup(app):
    app.add_directive("readings-compared", _make_directive())
    return {"parallel_read_safe": True, "parallel_write_safe": True}
