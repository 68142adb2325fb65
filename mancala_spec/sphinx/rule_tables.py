"""The ``{rule-index}``, ``{options-table}`` and ``{interop-parameters}`` directives:
every rule, every engine option with the rule (and claim) that decides it, and the
parameters of a game in OpenSpiel and PettingZoo (:mod:`mancala_spec.interop`)."""
from __future__ import annotations

import inspect

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.util.docutils import SphinxDirective

from ..catalogue import load_catalogue
from .rule_nodes import catalogue_file, inline_text, join, rule_badge, rule_ref, table


class RuleIndexDirective(SphinxDirective):
    """``{rule-index}``: a table of every catalogue rule with a link to it."""

    has_content = False
    option_spec = {"game": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        self.env.note_dependency(catalogue_file())
        game = self.options.get("game")
        rules = [rule for rule in load_catalogue() if game is None or rule.game == game]
        # the title under its ID, in one column: three columns fit a phone's
        return [table(["Rule", "Kind", "Engine options"],
                      [[[rule_ref(rule.id), nodes.inline(text=rule.title,
                                                         classes=["rule-index-title"])],
                        [rule_badge(rule)],
                        [join([nodes.literal(text=o) for o in rule.options]) or
                         nodes.Text("—")]]
                       for rule in rules], classes=["rule-index"])]


class OptionsTableDirective(SphinxDirective):
    """``{options-table}``: every game option and match setting, as declared in
    :mod:`mancala_spec.options`: its default, each other value with what it
    means, and the rule it switches."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        from .. import options

        source = inspect.getsourcefile(options)
        if source:
            self.env.note_dependency(source)
        rows: list[list[list[nodes.Node]]] = []
        for option in options.OPTIONS:
            def described(choice: options.Choice) -> list[nodes.Node]:
                return [nodes.literal(text=repr(choice.value)), *inline_text(f": {choice.meaning}")]

            default, *others = sorted(option.values, key=lambda c: c.value != option.default)
            alternatives: list[nodes.Node] = []
            for number, choice in enumerate(others):
                alternatives += ([nodes.Text("; ")] if number else []) + described(choice)
            kind = " (match setting: a keyword of Match)" if option.setting else ""
            rows.append([[nodes.Text(option.game.capitalize())],
                         [nodes.literal(text=option.name), nodes.Text(kind)],
                         described(default), alternatives, [rule_ref(option.rule)]])
        return [table(["Game", "Option or match setting", "Default", "Alternatives", "Rule"],
                      rows, classes=["options-table"])]


class InteropParametersDirective(SphinxDirective):
    """``{interop-parameters} GAME``: the parameters of *GAME* in the OpenSpiel and
    PettingZoo adapters (:func:`mancala_spec.interop.adapter.parameter_spec`): each
    option as declared in :mod:`mancala_spec.options` (its values as the game string
    writes them, the rule it switches), then the adapters' own."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        from .. import options
        from ..interop import adapter
        from ..rulesets import names

        game = self.arguments[0]
        for module in (options, adapter):
            source = inspect.getsourcefile(module)
            if source:
                self.env.note_dependency(source)
        spec = adapter.parameter_spec(game)

        def written(value: object) -> str:
            return str(value).lower() if isinstance(value, bool) else str(value)

        def values(default: object, others: list[str]) -> list[nodes.Node]:
            shown: list[nodes.Node] = [nodes.literal(text=written(default)),
                                       nodes.Text(" (default)")]
            for other in others:      # a value, or words for many ("any whole number ...")
                shown += [nodes.Text(", "), nodes.Text(other) if " " in other
                          else nodes.literal(text=other)]
            return shown

        rows: list[list[list[nodes.Node]]] = []
        for option in options.game_options(game):
            others = [written(options.plain(v)) for v in option.choices if v != option.default]
            rows.append([[nodes.literal(text=option.name)], values(spec[option.name], others),
                         [rule_ref(option.rule)]])
        own = {"ruleset": ([n for n in names(game) if n != spec["ruleset"]],
                           "a named ruleset: its option values, where an option is not given"),
               "returns": (list(adapter.RETURNS[1:]), "the returns: a player's captures "
                           "minus the others' average, or 1 to the winner (the others -1 "
                           "between them; 0 each in a draw)"),
               "max_moves": (["any whole number from 1"], "the moves after which a game is "
                             "stopped and scored by what was captured (the adapters' bound, "
                             "no rule of the game)")}
        for name, (others, what) in own.items():
            rows.append([[nodes.literal(text=name)], values(spec[name], others),
                         inline_text(what)])
        return [table(["Parameter", "Values", "Rule, or what it sets"], rows,
                      classes=["options-table"])]


class ClaimsTableDirective(SphinxDirective):
    """``{claims-table}`` with ``:basis: reading`` (every reading, with why and the
    other reading) or ``:basis: editorial`` (editorial claims inside sourced rules,
    with their alternatives): the places where a careful reader should look twice."""

    has_content = False
    option_spec = {"basis": lambda value: directives.choice(value, ("reading", "editorial"))}

    def run(self) -> list[nodes.Node]:
        self.env.note_dependency(catalogue_file())
        basis = self.options.get("basis", "reading")
        rows: list[list[list[nodes.Node]]] = []
        for rule in load_catalogue():
            if basis == "editorial" and not rule.sourced:
                continue
            for claim in rule.claims:
                if claim.basis != basis:
                    continue
                detail: list[nodes.Node]
                if basis == "reading":
                    detail = inline_text(f"Why: {claim.why} The other reading: {claim.other}")
                else:
                    detail = inline_text(claim.alternatives or f"option {claim.option}")
                rows.append([[rule_ref(rule.id)], inline_text(claim.text), detail])
        header = ["Rule", "Claim", "Why, and the other reading" if basis == "reading"
                  else "Alternatives"]
        return [table(header, rows, classes=["claims-table", f"claims-table-{basis}"])]
