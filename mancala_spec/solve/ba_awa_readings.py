"""The table of Ba-awa's readings: the value of the opening under each option set.

:func:`readings` gives a row for the defaults, for each other value of each option
alone and for each other program's ruleset (its single game): with the quoted
full solve of those rules (:mod:`mancala_spec.solve.ba_awa_quoted`), or why the
solver refuses them (:data:`mancala_spec.solve.ba_awa.WHY_NOT`). The site's
``{ba-awa-readings}`` directive draws it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import OptionError
from ..options import Value
from .ba_awa import WHY_NOT, BaAwaRules, as_written
from .ba_awa_quoted import quoted_run, quoted_variants


@dataclass(frozen=True)
class Reading:
    """One row of the table of option sets (:func:`readings`): the options (not
    at their default; empty: the defaults), the ruleset they play (its name, or
    ``""``) and its match settings left out, and either the quoted full solve
    (:func:`quoted_run`, :func:`quoted_variants`) or why it is not solved."""

    options: dict[str, Value]
    run: dict[str, Any] | None = None
    why: str = ""
    ruleset: str = ""
    settings: dict[str, Value] = field(default_factory=dict)


#: options the table of readings leaves out: ``choose`` chooses the same pits in
#: a single two-player game (each player owns their row), ``turn_order`` orders
#: three players' turns
SAME_GAME = ("choose", "turn_order")


def readings() -> list[Reading]:
    """The defaults; each other value of each option alone (but
    :data:`SAME_GAME`); and each other program's ruleset (its single game):
    with the quoted solve of those rules, or why the solver refuses them
    (:data:`WHY_NOT`). Raises ``LookupError`` if a set the solver takes has no
    quoted solve."""
    from ..options import game_options
    from ..rulesets import DEFAULT, game_values, match_settings, rulesets
    runs = quoted_variants()

    def reading(options: dict[str, Value], **more: Any) -> Reading:
        try:
            BaAwaRules(**options)
        except OptionError as error:
            return Reading(options, why=WHY_NOT[str(error.option)], **more)
        written = {name: as_written(value) for name, value in options.items()}
        for run in runs:
            if run["options"] == written:
                return Reading(options, run, **more)
        raise LookupError(f"no quoted solve of Ba-awa with {written}")

    rows = [Reading({}, quoted_run())]
    for spec in game_options("ba-awa"):
        if spec.name not in SAME_GAME:
            rows += [reading({spec.name: value}) for value in spec.choices
                     if value != spec.default]
    for ruleset in rulesets("ba-awa"):
        if ruleset.name != DEFAULT:
            rows.append(reading(dict(game_values("ba-awa", ruleset.name)), ruleset=ruleset.name,
                                settings=match_settings("ba-awa", ruleset.name)))
    return rows
