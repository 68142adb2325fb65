"""The ``{ba-awa-readings}`` directive: Ba-awa's value under perfect play for
each option set and each other program's ruleset, from the quoted full solves
saved with the package (:func:`mancala_spec.solve.ba_awa_readings.readings`); the sets
the solver refuses are rows saying why (:data:`mancala_spec.solve.ba_awa.WHY_NOT`).
Nothing is solved while the site is built.

(``"mancala_spec.sphinx.ba_awa_readings"`` in ``extensions``.)
"""
from __future__ import annotations

from importlib import resources
from typing import Any

from docutils import nodes
from sphinx.util.docutils import SphinxDirective

from .rule_nodes import inline_text, table

LETTERS = "abcdef"
HEADER = ["Options", "What it does to the game", "Value of the opening, and of each opening "
          "move (best in bold)", "Positions reached (the engine's; pass steps apart)",
          "The run quoted"]


def written(value: object) -> str:
    """An option's value as the command line writes it."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def signed(margin: int) -> str:
    """A margin as the page writes it: ``+8``, ``0``, ``-8``."""
    return f"{margin:+d}" if margin else "0"


def option_cell(reading: Any) -> list[nodes.Node]:
    """The options of a reading, and for a ruleset its name and the match
    settings its single game leaves out."""
    if not reading.options:
        return [nodes.Text("the defaults")]
    cell: list[nodes.Node] = []
    if reading.ruleset:
        cell += [nodes.Text("ruleset "), nodes.literal(text=reading.ruleset), nodes.Text(": ")]
    for number, (name, value) in enumerate(reading.options.items()):
        cell += ([nodes.Text(", ")] if number else []) + [
            nodes.literal(text=f"{name}={written(value)}")]
    return cell


def meaning_cell(reading: Any) -> list[nodes.Node]:
    """What the reading does: the option value's meaning as declared
    (:mod:`mancala_spec.options`), or the ruleset's title (what that program
    does, not what the game is) and what of it is left out."""
    from ..options import option
    from ..rulesets import ruleset

    if reading.ruleset:
        found = ruleset("ba-awa", reading.ruleset)
        text = f"{found.title}: what that program does, not what the game is"
        if reading.settings:
            settings = ", ".join(f"{k}={written(v)}" for k, v in reading.settings.items())
            text += f"; one game of its match ({settings}: match play is not solved)"
        unplayed = sum(1 for d in found.differences if d.game == "ba-awa" and d.unplayed)
        if unplayed:
            text += (f"; the {unplayed} of its differences no option plays (see "
                     "``mancala-spec rulesets``) are not in it")
        return inline_text(text + ".")
    if not reading.options:
        return inline_text("This reference's rules (the default of every option).")
    [(name, value)] = reading.options.items()
    spec = option("ba-awa", name)
    meaning = next(c.meaning for c in spec.values if c.value == value)
    return inline_text(meaning[0].upper() + meaning[1:] + ".")


def value_cell(reading: Any) -> list[nodes.Node]:
    """The opening's value and each opening move's, the best in bold; for a
    reading the solver refuses, why."""
    run = reading.run
    if run is None:
        return inline_text(f"Not solved: {reading.why}.")
    moves = {int(pit): value for pit, value in run["moves"].items()}
    best = max(moves.values())
    cell: list[nodes.Node] = [nodes.strong(text=signed(run["value"])), nodes.Text(": ")]
    for number, pit in enumerate(sorted(moves)):
        text = f"{LETTERS[pit]} {signed(moves[pit])}"
        cell += ([nodes.Text(", ")] if number else []) + [
            nodes.strong(text=text) if moves[pit] == best else nodes.Text(text)]
    if run.get("also") == "other":       # repetition="play-on": solved both ways
        undecided = sum(level["differ"] for level in run["levels"].values())
        cell.append(nodes.Text(f" (endless play worth all to the opener, or all to the other "
                               f"player: positions whose value differs, {undecided:,})"))
    return cell


def run_cell(reading: Any) -> list[nodes.Node]:
    run = reading.run
    if run is None:
        return [nodes.Text("none")]
    when = run["date"] + (f", ended {run['time']} UTC" if "time" in run else "")
    return [nodes.Text(f"{when}; mancala_spec {run['version']}; {run['wall_seconds']:,.0f} s "
                       f"wall-clock, {run['cpu_seconds']:,.0f} s CPU; peak "
                       f"{run['peak_bytes'] / 2**30:.1f} GiB; load average "
                       f"{run['load_average']['start'][0]:.1f} at the start")]


def positions_text(run: dict[str, Any]) -> str:
    """The positions a run reached: those the engine accepts, and the pass steps
    (boards whose player to move has no legal move: the solver's nodes, which
    the engine passes inside the move before) apart, where the run counted
    them; else the solver's nodes, said so."""
    if "pass_steps" not in run:
        return f"{run['positions']:,} (with the pass steps: this run did not count them apart)"
    return (f"{run['positions'] - run['pass_steps']:,}, and {run['pass_steps']:,} pass "
            "steps")


def rows() -> list[list[list[nodes.Node]]]:
    from ..solve.ba_awa_readings import readings

    return [[option_cell(r), meaning_cell(r), value_cell(r),
             [nodes.Text(positions_text(r.run) if r.run else "none enumerated")],
             run_cell(r)] for r in readings()]


class BaAwaReadingsDirective(SphinxDirective):
    """``{ba-awa-readings}``: the table of :func:`rows`."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        solve = resources.files("mancala_spec.solve")
        for name in ("ba_awa_run.json", "ba_awa_variants.json", "ba_awa.py"):
            self.env.note_dependency(str(solve.joinpath(name)))
        return [table(HEADER, rows(), classes=["ba-awa-readings"])]


def setup(app: Any) -> dict[str, Any]:
    from .. import __version__

    app.add_directive("ba-awa-readings", BaAwaReadingsDirective)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
