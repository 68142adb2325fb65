"""The ``rules``, ``cite`` and ``options`` subcommands: a rule with its claims
and citations, how to cite it, and the options that switch the rules.
"""
from __future__ import annotations

import json
import sys
import textwrap

from ..catalogue import get_rule, load_catalogue
from ..catalogue.cite import citation, rule_json
from ..options import GAMES, OPTIONS
from ..terminal.status import UsageError
from .arguments import game_name
from .command_registry import command


def find_rule(rule_id: str):
    """The rule with this ID, following the registry for a renamed or withdrawn ID."""
    from ..catalogue.registry import resolve

    try:
        current, moved = resolve(rule_id)
    except KeyError:
        raise UsageError(f"no rule with ID {rule_id!r}; `mancala-spec rules` lists them") from None
    for entry in moved:
        print(f"({entry.id} was {entry.status} in {entry.release}; see {entry.successor})",
              file=sys.stderr)
    return get_rule(current)


def _rules_arguments(parser):
    parser.add_argument("rule", nargs="?", help="a rule ID, e.g. ba-awa-relay (all if omitted)")
    parser.add_argument("--game", type=game_name, metavar="GAME",
                        help="only this game's rules: ba-awa or bakuk, or another name "
                             "the sources give (anenam, nam-nam)")
    parser.add_argument("--format", choices=("text", "json"), default="text",
                        help="json: the rule as data, with its claims, permalink and citation")


@command("rules", "list the rules, or print one with its citations and translations",
         _rules_arguments)
def run_rules(args) -> int:
    if args.rule is None:
        for rule in load_catalogue():
            if args.game in (None, rule.game):
                print(f"{rule.id:28} {rule.title} ({rule.badge})")
        return 0
    rule = find_rule(args.rule)
    if args.format == "json":
        print(rule_json(rule))
        return 0
    wrap = textwrap.TextWrapper(width=88, initial_indent="  ", subsequent_indent="  ")
    print(f"{rule.id} — {rule.title} ({rule.badge})\n")
    for claim in rule.claims:
        print(wrap.fill(f"[{claim.basis}] {claim.text}"))
    print()
    for quoted in rule.citations:
        doc = quoted.document
        print(f"  “{quoted.quote}”")
        print(wrap.fill(f"= “{quoted.translation}”"))
        print(f"  — {doc.title}, line {quoted.line} ({quoted.source})\n")
    for label, text in (("Gap", rule.gap), ("Default", rule.default), ("Why", rule.rationale)):
        if text:
            print(wrap.fill(f"{label}: {text}") + "\n")
    for kind, offers in (("alternative", rule.alternatives), ("form", rule.forms),
                         ("variant", rule.variants)):
        for offer in offers:
            print(wrap.fill(f"{kind}: {offer.option}={offer.value!r} — {offer.description}"))
    code = ", ".join(f"{f.__module__}.{f.__qualname__}" for f in rule.implementations)
    print(f"\n  implemented by: {code}")
    return 0


def _cite_arguments(parser):
    parser.add_argument("rule", help="a rule ID, e.g. bakuk-chain")
    parser.add_argument("--format", choices=tuple(CITE_FORMATS), default="text",
                        help="text (default), bibtex or csl-json")


#: The formats ``cite --format`` prints, each the key of its form in ``citation()``.
CITE_FORMATS = {"text": "text", "bibtex": "bibtex", "csl-json": "csl"}


@command("cite", "print how to cite a rule, with its versioned permalink: as plain text, "
                 "or with --format as BibTeX or CSL-JSON", _cite_arguments)
def run_cite(args) -> int:
    rule = find_rule(args.rule)
    form = citation(rule)[CITE_FORMATS[args.format]]
    print(form if isinstance(form, str) else json.dumps(form, indent=2, ensure_ascii=False))
    return 0


def _options_arguments(parser):
    parser.add_argument("--game", type=game_name, metavar="GAME",
                        help="only this game's options: ba-awa or bakuk (or anenam, nam-nam)")


@command("options", "list every option (-O NAME=VALUE) and match setting, with its values, "
         "default first, and the rule it switches", _options_arguments)
def run_options(args) -> int:
    for game in GAMES:
        if args.game not in (None, game):
            continue
        for kind, settings in (("options", False), ("match settings", True)):
            declared = [o for o in OPTIONS if o.game == game and o.setting is settings]
            if declared:
                print(f"{game} {kind}:")
                for option in declared:
                    print(f"  {option.describe()}")
    return 0
